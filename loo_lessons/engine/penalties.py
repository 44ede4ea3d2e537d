"""Irregularities and penalties (R50–R63), from Peel's laws (seed 004).

`ruling_for(offence, declared=...)` says how much (a single loo or a full loo), where it
goes (this pool at once, or the next deal's pool) and what else follows.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, StrEnum

from .laws import Law
from .sources import RULES, Quote


class Size(StrEnum):
    """How much a penalty costs: a single loo (R50, R51), a full loo (R53, R61), or nothing."""

    SINGLE_LOO = "single_loo"
    FULL_LOO = "full_loo"
    NONE = "none"

    @property
    def words(self) -> str:
        """The size in a learner's words ("a single loo"): the one wording of the settlement, the
        stepper and the quizzes."""
        return {"single_loo": "a single loo", "full_loo": "a full loo", "none": "nothing"}[self.value]


class Destination(StrEnum):
    """Where a penalty goes: into this pool at once (R50), to the pool for the next deal (R61), or
    nowhere."""

    POOL_NOW = "pool_now"  # "pays the penalty into the pool at once" (R50)
    NEXT_POOL = "next_pool"  # "added to the pool for the next deal" (R61)
    NOWHERE = "nowhere"

    @property
    def words(self) -> str:
        """Where it goes in a learner's words ("added to the pool for the next deal")."""
        return {
            "pool_now": "paid into this deal's pool at once",
            "next_pool": "added to the pool for the next deal",
            "nowhere": "to nobody",
        }[self.value]


class Consequence(StrEnum):
    """What follows an offence besides the payment: may still play (R52), must throw up (R53), must
    play on (R54), winnings withheld (R54, R63), the deal replayed (R62)."""

    MAY_STILL_PLAY = "may_still_play"  # R52
    MUST_THROW_UP = "must_throw_up"  # R53
    MUST_PLAY_ON = "must_play_on"  # R54
    WINNINGS_WITHHELD = "winnings_withheld"  # R54, R63
    REPLAY = "replay"  # R62


@dataclass(frozen=True, slots=True)
class OffenceInfo:
    """An offence in words, the rule ids that penalise it, and whether it happens in the play (so
    only a seat that played a card can commit it)."""

    words: str
    rules: tuple[str, ...]
    play_phase: bool


class Offence(Enum):
    """The irregularities the seed-004 laws penalise (R50–R63), each with its `OffenceInfo`."""

    LOOK_AT_OWN_CARDS_EARLY = OffenceInfo("looking at his cards before his turn", ("R50",), False)
    DECLARE_OUT_OF_TURN = OffenceInfo("declaring out of turn", ("R50",), False)
    LOOK_AT_MISS = OffenceInfo("looking at the miss without taking it", ("R51",), False)
    LOOK_AT_THROWN_UP = OffenceInfo("looking at a thrown-up hand", ("R51",), False)
    LOOK_AT_STOCK = OffenceInfo("looking at the undealt pack", ("R50",), False)
    LOOK_AT_ANOTHERS_HAND = OffenceInfo("looking at another player's cards", ("R53", "R54"), False)
    FAIL_TO_LEAD_ACE = OffenceInfo("not leading the ace of trumps", ("R55", "R23"), True)
    FAIL_TO_LEAD_KING = OffenceInfo(
        "not leading the king with the ace turned up", ("R55", "R24"), True
    )
    FAIL_TO_LEAD_HIGHEST = OffenceInfo(
        "not leading the highest of two or more trumps", ("R56",), True
    )
    REVOKE = OffenceInfo("not following suit when able", ("R57",), True)
    FAIL_TO_TRUMP = OffenceInfo("not trumping when a trump would head the trick", ("R58",), True)
    PLAY_OUT_OF_TURN = OffenceInfo("playing out of turn", ("R59",), True)
    EXPOSE_CARDS = OffenceInfo("exposing or naming unplayed cards", ("R59",), True)
    BREAK_TRUMP_AFTER_TRICK = OffenceInfo("breaking trump after trick", ("R60", "R31"), True)
    FAIL_TO_HEAD_IN_SUIT = OffenceInfo("not heading the trick in the suit led", ("R33",), True)
    FAIL_TO_UNDERTRUMP = OffenceInfo(
        "not trumping when no trump can head the trick", ("R35",), True
    )

    @property
    def info(self) -> OffenceInfo:
        """The offence's words, rule ids and phase."""
        return self.value

    @classmethod
    def parse(cls, text: str) -> Offence:
        """The offence named `text` (`look_at_miss`, in any case); `KeyError` for an unknown name."""
        return cls[text.strip().upper()]


@dataclass(frozen=True, slots=True)
class PenaltyRuling:
    """What the laws make of an offence (R50–R63): its size, where it goes, what follows, and the
    rule ids that say so."""

    offence: Offence
    size: Size
    destination: Destination
    consequences: tuple[Consequence, ...]
    rules: tuple[str, ...]
    note: str

    @property
    def quotes(self) -> tuple[Quote, ...]:
        """The books' words behind the ruling: the first quote of each of its rules."""
        return tuple(RULES[r].quote for r in self.rules)

    def amount(self, single_loo: int, full_loo: int) -> int:
        """The counters this penalty costs, given a single loo (R50) and a full loo (R61)."""
        return {Size.SINGLE_LOO: single_loo, Size.FULL_LOO: full_loo, Size.NONE: 0}[self.size]

    def as_json(self, single_loo: int, full_loo: int) -> dict[str, object]:
        """The ruling as the contract's JSON writes it: offence, size, amount, destination,
        consequences and rule ids."""
        return {
            "offence": self.offence.name.lower(),
            "size": str(self.size),
            "amount": self.amount(single_loo, full_loo),
            "destination": str(self.destination),
            "consequences": [str(c) for c in self.consequences],
            "rules": list(self.rules),
            "note": self.note,
            "quotes": [
                {"rule": r, "source": q.source, "quote": q.text}
                for r, q in zip(self.rules, self.quotes, strict=True)
            ],
        }


_PLAY_NOTE = (
    "Peel: 'In all these cases the penalty is the amount of a full loo, and it is "
    "added to the pool for the next deal.' The cards are replayed (R62) and whatever he "
    "wins stays in the pool (R63)."
)


#: The offences seed 004 gives no penalty for, where the house rule makes the card compulsory:
#: the card is taken back and replayed: the penalty law it falls under, and the note.
_TAKEN_BACK: dict[Offence, tuple[str, str]] = {
    Offence.FAIL_TO_HEAD_IN_SUIT: (
        "R57",
        "Peel's laws list no penalty for failing to head in the suit led (A10); where heading is "
        "compulsory the card is taken back and replayed.",
    ),
    Offence.FAIL_TO_UNDERTRUMP: (
        "R58",
        "Peel's laws loo a player for not trumping only 'when by so doing he can head the trick' "
        "(R58); where under-trumping is compulsory (must_trump, A9) the card is taken back.",
    ),
}


def ruling_for(offence: Offence, *, declared: bool = False) -> PenaltyRuling:
    """The penalty for an offence. `declared`: has the offender already stood or taken miss?"""
    if offence is Offence.LOOK_AT_ANOTHERS_HAND:
        if declared:  # R54
            return PenaltyRuling(
                offence,
                Size.FULL_LOO,
                Destination.POOL_NOW,
                (Consequence.MUST_PLAY_ON, Consequence.WINNINGS_WITHHELD),
                ("R54", "R53"),
                "He pays a full loo first (into this pool: A20), must play on, and what his cards "
                "win stays in the pool for the next deal.",
            )
        return PenaltyRuling(
            offence,
            Size.FULL_LOO,
            Destination.POOL_NOW,
            (Consequence.MUST_THROW_UP,),
            ("R53", "R52"),
            "A full loo (into this pool at once: A20) and he must throw up his cards unexposed.",
        )
    if offence in _TAKEN_BACK:  # no penalty in seed 004: a compulsory card is replayed
        penalty_rule, note = _TAKEN_BACK[offence]
        return PenaltyRuling(
            offence,
            Size.NONE,
            Destination.NOWHERE,
            (Consequence.REPLAY,),
            (*offence.info.rules, penalty_rule),
            note,
        )
    if not offence.info.play_phase:  # R50, R51, R52
        return PenaltyRuling(
            offence,
            Size.SINGLE_LOO,
            Destination.POOL_NOW,
            (Consequence.MAY_STILL_PLAY,),
            (*offence.info.rules, "R52"),
            "Looed a single, paid into the pool at once; he may still take part in the play.",
        )
    return PenaltyRuling(
        offence,
        Size.FULL_LOO,
        Destination.NEXT_POOL,
        (Consequence.REPLAY, Consequence.WINNINGS_WITHHELD),
        (*offence.info.rules, "R61", "R62", "R63"),
        _PLAY_NOTE,
    )


#: The offence committed by playing a card a law forbids (so an illegal card names its penalty).
OFFENCE_FOR_LAW: dict[Law, Offence] = {
    Law.LEAD_ACE: Offence.FAIL_TO_LEAD_ACE,
    Law.LEAD_KING: Offence.FAIL_TO_LEAD_KING,
    Law.LEAD_HIGHEST: Offence.FAIL_TO_LEAD_HIGHEST,
    Law.LEAD_TWO_DECLARED: Offence.FAIL_TO_LEAD_HIGHEST,
    Law.LEAD_TWO_DECLARED_EQUAL: Offence.FAIL_TO_LEAD_HIGHEST,
    Law.LEAD_ONE: Offence.FAIL_TO_LEAD_HIGHEST,
    Law.TRUMP_AFTER_TRICK: Offence.BREAK_TRUMP_AFTER_TRICK,
    Law.TRUMP_AFTER_TRICK_HIGHEST: Offence.BREAK_TRUMP_AFTER_TRICK,
    Law.FOLLOW_SUIT: Offence.REVOKE,
    Law.HEAD_IN_SUIT: Offence.FAIL_TO_HEAD_IN_SUIT,
    Law.MUST_TRUMP: Offence.FAIL_TO_TRUMP,
    Law.MUST_OVERTRUMP: Offence.FAIL_TO_TRUMP,
    Law.MUST_UNDERTRUMP: Offence.FAIL_TO_UNDERTRUMP,
    Law.TRUMP_TO_HEAD: Offence.FAIL_TO_TRUMP,
    Law.PLAY_IN_TURN: Offence.PLAY_OUT_OF_TURN,
    Law.DECLARE_IN_TURN: Offence.DECLARE_OUT_OF_TURN,
}
