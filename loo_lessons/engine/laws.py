"""The laws an engine enforces, each tied to a rule id, a plain reason and the book's words.

A verdict names a `Law` for every option it forbids (and for the rule that shaped
what is allowed). Explanations, quizzes, the CLI and the JSON all read these.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from .sources import RULES, Quote


@dataclass(frozen=True, slots=True)
class LawInfo:
    """What a law says: its rule id, a short stable slug, the reason in plain words, which of the
    rule's quotes to show, the seed-004 rule that loos a breach (if any), and for a variant's
    law the book outside the seeds it cites."""

    rule: str  # rule id, e.g. "R23"
    slug: str  # short stable name, e.g. "ace-of-trumps-lead"
    reason: str  # plain words
    quote_index: int = 0
    penalty_rule: str | None = None  # the seed-004 rule that loos the offender, if any
    # A law that only a variant makes (it allows what the seeds forbid) cites the variant's
    # book, outside the seeds: the seeds' quote of `rule` would say the opposite.
    outside: Quote | None = None

    @property
    def quote(self) -> Quote:
        """The book's words for this law: the rule's quote (`quote_index`), or the outside book's
        for a variant."""
        if self.outside is not None:
            return self.outside
        return RULES[self.rule].quotes[self.quote_index]


#: V7 (rules-digest.md): Enquire Within's dealer facing a lone stander "may either play or
#: give up the stakes" (engine/options.py documents the reading, `lone_stander_rule`).
ENQUIRE_WITHIN_LONE_STANDER = Quote("V7", "may either play or give up the stakes")


class Law(Enum):
    """Why an option is allowed or forbidden."""

    # --- declaring -------------------------------------------------------------------
    MAY_STAND = LawInfo("R06", "stand", "He may stand and play his own cards.")
    MAY_TAKE_MISS = LawInfo(
        "R08",
        "take-miss",
        "The miss has not been taken: it is offered to each player in rotation until one takes it.",
    )
    MAY_PASS = LawInfo("R07", "throw-up", "He may throw up his hand and drop out of this round.")
    MISS_TAKEN = LawInfo(
        "R09",
        "miss-already-taken",
        "The miss has already been taken: the "
        "remaining players may only play the cards they hold, or pass.",
    )
    MUST_NO_PASS = LawInfo(
        "R43",
        "must-no-pass",
        "This deal is a must: every one, whatever his cards, is bound to play.",
        1,
    )
    MUST_NO_MISS = LawInfo("R45", "no-miss-in-must", "There is no miss in a must.")
    MISS_FOR_POOL_ONLY_LONE_STANDER = LawInfo(
        "R18",
        "miss-for-pool-dealer-only",
        "Only the dealer may play the miss for the pool, and only "
        "when exactly one player has stood on his own cards and the miss is untaken.",
    )
    MISS_FOR_POOL = LawInfo(
        "R18",
        "play-miss-for-pool",
        "Exactly one player stood on his own cards: "
        "the dealer may play the miss for the pool against him.",
    )
    LONE_STANDER_NO_PASS = LawInfo(
        "R18",
        "dealer-cannot-pass",
        "Exactly one player stood on his own cards and the miss is "
        "untaken: the dealer must play his own cards, take the miss, or play the miss for the pool.",
    )
    LONE_STANDER_PLAY_OR_MISS = LawInfo(
        "R17",
        "dealer-play-or-take-miss",
        "Exactly one player stood on his own cards and the miss is untaken: the dealer may play "
        "his own cards or take the miss.",
    )
    LONE_STANDER_ENQUIRE_WITHIN = LawInfo(
        "R17",
        "give-up-the-stakes",
        "Under Enquire Within's law (lone_stander_rule: enquire_within, V7; not in the seed "
        "texts) the dealer may play or give up the stakes to the lone stander; playing the "
        "miss for the pool is not allowed.",
        outside=ENQUIRE_WITHIN_LONE_STANDER,
    )
    DEALER_MAY_STAND_OR_NOT = LawInfo(
        "R16",
        "dealer-stand-or-not",
        "Only the miss-holder stands: the dealer may stand or throw up; "
        "if he throws up, the miss-holder takes the whole pool.",
    )
    DEALER_TAKES_POOL = LawInfo(
        "R14",
        "dealer-takes-pool",
        "Everyone before the dealer threw up and "
        "nobody took the miss: the dealer takes the pool without play.",
        1,
    )
    MISS_HOLDER_TAKES_POOL = LawInfo(
        "R15",
        "miss-holder-takes-pool",
        "One player took miss and all the rest threw up: he takes the pool.",
    )
    LONE_STANDER_TAKES_POOL = LawInfo(
        "R17",
        "stakes-given-up",
        "The dealer gave up the stakes: the lone stander takes the pool. This is Enquire "
        "Within's law (the dealer 'may either play or give up the stakes'), chosen with "
        "lone_stander_rule: enquire_within; the seeds themselves give the dealer no pass here.",
        outside=ENQUIRE_WITHIN_LONE_STANDER,
    )
    ONLY_STANDER_TAKES_POOL = LawInfo(
        "R53",
        "only-stander-takes-pool",
        "The dealer had to throw up (he looked at another player's cards): the lone stander is the "
        "only one left, and takes the pool without play.",
    )
    ONE_DECLARATION = LawInfo(
        "R12",
        "declaration-final",
        "No player may make a second declaration, or alter one once made.",
    )
    DECLARE_IN_TURN = LawInfo(
        "R05",
        "declare-in-turn",
        "Declaring goes round to the left from the elder hand; the dealer declares last.",
        1,
        "R50",
    )
    MUST_THROW_UP = LawInfo(
        "R53",
        "must-throw-up",
        "He looked at another player's cards before declaring: he must throw up his own cards.",
        0,
        "R53",
    )
    # A25: R53 against R43; the engine lets R53's specific penalty prevail, and says so
    MUST_THROW_UP_IN_MUST = LawInfo(
        "R53",
        "must-throw-up-in-must",
        "He looked at another player's cards before declaring: he must throw up his own cards "
        "(R53), though this deal is a must, in which every one is bound to play (R43). The "
        "books do not say which gives way; here the penalty does not (A25).",
        0,
        "R53",
    )
    # --- leading ---------------------------------------------------------------------
    FREE_LEAD = LawInfo("R28", "free-lead", "No lead rule binds him: he may lead any card.")
    LEAD_ACE = LawInfo(
        "R23",
        "ace-of-trumps-lead",
        "The leader holds the ace of trumps: he is bound to lead it.",
        0,
        "R55",
    )
    LEAD_KING = LawInfo(
        "R24",
        "king-lead-ace-turned",
        "The ace of trumps is turned up and the leader "
        "holds the king: he is bound to lead the king.",
        0,
        "R55",
    )
    LEAD_TWO_DECLARED = LawInfo(
        "R27",
        "two-declared-highest",
        "Only two are playing and the leader holds two or more trumps: "
        "he must lead the highest, or a trump in sequence or of equal value with it.",
        0,
        "R56",
    )
    LEAD_TWO_DECLARED_EQUAL = LawInfo(
        "R27",
        "two-declared-equal-value",
        "Only two are playing and the leader's highest trumps are in sequence or of equal value "
        "(nothing between them is left unseen): he may lead either of them.",
        1,
        "R56",
    )
    LEAD_HIGHEST = LawInfo(
        "R26",
        "two-trumps-lead-highest",
        "The leader holds two or three trumps: he must lead the highest.",
        0,
        "R56",
    )
    LEAD_ONE = LawInfo(
        "R25",
        "two-trumps-lead-one",
        "The leader holds two or more trumps: he is bound to lead one of them.",
        0,
        "R56",
    )
    TRUMP_AFTER_TRICK = LawInfo(
        "R30",
        "trump-after-trick",
        "He won the last trick and holds a trump: he must lead a trump (trump after trick).",
        0,
        "R60",
    )
    TRUMP_AFTER_TRICK_HIGHEST = LawInfo(
        "R31",
        "trump-after-trick",
        "He won the last trick with two trumps left: he must lead the higher.",
        1,
        "R60",
    )
    # --- following -------------------------------------------------------------------
    FOLLOW_SUIT = LawInfo(
        "R32", "follow-suit", "He holds a card of the suit led: he must follow suit.", 0, "R57"
    )
    FOLLOW_ANY_OF_SUIT = LawInfo(
        "R32", "follow-suit", "He follows suit with any card of the suit led."
    )
    HEAD_IN_SUIT = LawInfo(
        "R33",
        "head-the-trick",
        "He can beat the card now winning with a card of the suit led: he must head the trick.",
    )
    MUST_TRUMP = LawInfo(
        "R35",
        "must-trump",
        "He cannot follow suit and holds a trump: he is bound to trump.",
        0,
        "R58",
    )
    MUST_UNDERTRUMP = LawInfo(
        "R35",
        "under-trump",
        "He cannot follow suit and holds a trump, though it cannot head the trick: he is still "
        "bound to trump (Hoffmann's reading: 'bound to trump').",
    )
    MUST_OVERTRUMP = LawInfo(
        "R35",
        "over-trump",
        "The trick is already trumped and he can play a higher trump: he must over-trump.",
        0,
        "R58",
    )
    TRUMP_TO_HEAD = LawInfo(
        "R36",
        "trump-to-head",
        "He cannot follow suit and holds a trump that "
        "heads the trick: he must play a trump that heads it.",
        0,
        "R58",
    )
    DISCARD = LawInfo(
        "R36",
        "discard",
        "He cannot follow suit and cannot head the trick with a "
        "trump: he may discard as he chooses.",
        2,
    )
    DISCARD_NO_TRUMP = LawInfo(
        "R35",
        "discard",
        "He can neither follow suit nor trump: he may play any card.",
    )
    # --- turn order ------------------------------------------------------------------
    PLAY_IN_TURN = LawInfo(
        "R32", "play-in-turn", "Play proceeds from left to right: it is not his turn.", 0, "R59"
    )

    @property
    def info(self) -> LawInfo:
        """The law's `LawInfo`: its rule id, slug, reason and the book's quote."""
        return self.value

    @property
    def rule(self) -> str:
        """The rule id this law applies (`R23`), as rules-digest.md numbers it."""
        return self.value.rule

    @property
    def slug(self) -> str:
        """A short, stable name for the law (`ace-of-trumps-lead`), the contract's `rule`."""
        return self.value.slug

    @property
    def reason(self) -> str:
        """Why, in plain words, for a learner."""
        return self.value.reason

    @property
    def quote(self) -> Quote:
        """The book's own words behind the law (`Quote`: the text and the book it is from)."""
        return self.value.quote

    def as_json(self) -> dict[str, str]:
        """The law as the contract's JSON writes it: `rule` (the slug), `rule_id`, `reason`,
        `source`, `quote`, `book`; `penalty_rule` when a breach is penalised, `variant` when the
        words come from a book outside the seeds."""
        q = self.quote
        out = {
            "rule": self.slug,
            "rule_id": self.rule,
            "reason": self.reason,
            "source": q.source,
            "quote": q.text,
            "book": q.book,
        }
        if self.value.penalty_rule:
            out["penalty_rule"] = self.value.penalty_rule
        if q.outside:
            out["variant"] = q.seed  # cited from a book outside the seeds
        return out


def law_against(forbidden: Iterable[tuple[object, Law]], option: object) -> Law | None:
    """The law a verdict's `forbidden` pairs with `option` (that very card, declaration or
    action), or None: the `law_for` of every verdict."""
    return next((law for x, law in forbidden if x is option), None)
