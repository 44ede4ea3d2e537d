"""Search seeded deals for positions that satisfy a predicate, and hand them back as scenarios.

A predicate is a function `(hand, moment) -> bool`. `find` deals seed after seed, plays
each deal with bots, and asks the predicate at every moment of the deal:

- `dealt`: the cards are dealt, nobody has declared;
- `declare`: before each declaration;
- `declared`: declaring is over (play is about to begin, or the deal ended without play);
- `lead`: before each lead; `follow`: before each card played to a trick already led;
- `settled`: the deal is over.

The first moment of a deal at which the predicate holds is returned as a `Found`: the seed,
the moment, a scenario mapping in the contract's format (shared/scenario-format.md) that
`loo_lessons.scenario.load` turns into the very same position, and the transcript of the
moves that led there.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from loo_lessons.engine.cards import Card, Rank
from loo_lessons.engine.declare import Declaration
from loo_lessons.engine.errors import LooError
from loo_lessons.engine.game import Hand, Phase
from loo_lessons.engine.options import RuleOptions, options_from
from loo_lessons.engine.position import rules_of
from loo_lessons.scenario import Scenario, position_mapping
from loo_lessons.scenario import load as load_scenario
from loo_lessons.scenario.transcripts import load_transcript
from loo_lessons.sim.bots import Bot, bot_move
from loo_lessons.sim.coached import seat_bots


class Moment(StrEnum):
    """When during a deal a predicate is asked (see the module docstring): dealt, before each
    declaration, declared, before each lead or follow, settled."""

    DEALT = "dealt"
    DECLARE = "declare"
    DECLARED = "declared"
    LEAD = "lead"
    FOLLOW = "follow"
    SETTLED = "settled"


Predicate = Callable[[Hand, Moment], bool]


def moments(hand: Hand, bots: Sequence[Bot], rng: random.Random) -> Iterator[Moment]:
    """Play `hand` to the end with `bots` (one per seat), yielding at every moment.

    The hand is left in the state the moment describes while the caller looks at it;
    it must not be changed by the caller.
    """
    yield Moment.DEALT
    while hand.to_act is not None:
        if hand.phase is Phase.DECLARE:
            yield Moment.DECLARE
        elif len(hand.tricks) > len(hand.winners) and hand.tricks[-1]:
            yield Moment.FOLLOW
        else:
            yield Moment.LEAD
        was = hand.phase
        hand.apply_unchecked(bot_move(hand, bots[hand.to_act], rng))
        if was is Phase.DECLARE and hand.phase is not Phase.DECLARE:
            yield Moment.DECLARED
    yield Moment.SETTLED


def scenario_of(
    hand: Hand, *, title: str | None = None, description: str | None = None
) -> dict[str, Any]:
    """The position of `hand` now, as a scenario mapping (shared/scenario-format.md).

    It gives what each seat still in the deal holds, the miss (while untaken, or the cards
    of the seat that took it), the declarations made and the cards played; thrown-up
    hands are left out (nobody may look at them, R11).
    """
    data: dict[str, Any] = {}
    if title is not None:
        data["title"] = title
    if description is not None:
        data["description"] = description
    data.update(position_mapping(hand, rules_of(hand.options)))
    return data


@dataclass(frozen=True)
class Found:
    """A position found by `find`: which deal, which moment, and the scenario that gives it."""

    seed: int
    players: int
    dealer: int
    moment: Moment
    moves: int  # moves made before the moment
    scenario: dict[str, Any]
    transcript: dict[str, Any]  # Transcript.as_json() of the moves up to the moment
    predicate: str | None = None

    def load(self) -> Scenario:
        """The scenario, loaded by the package's own loader."""
        return load_scenario(self.scenario)

    def position(self) -> Hand:
        """The position replayed from the seed and the moves (every move checked)."""
        return load_transcript(self.transcript).replay()


def find(
    predicate: Predicate | str,
    *,
    rules: str | RuleOptions | Mapping[str, Any] = "hoffmann",
    players: int = 5,
    seeds: Iterable[int] = range(100_000),
    bots: Sequence[str | Bot] | str | Bot | None = None,
    limit: int = 1,
    dealer: int = 0,
) -> list[Found]:
    """Deal `Hand.from_seed(seed, players, dealer, rules)` for each seed, play it with `bots`
    (default `random-legal` in every seat, which explores every line the rules allow;
    their draws come from `random.Random(seed)`), and collect the first moment of each
    deal where `predicate` holds, until `limit` positions are found.

    `predicate` is a function or the name of one in PREDICATES.
    """
    name: str | None = None
    if isinstance(predicate, str):
        name = predicate
        try:
            predicate = PREDICATES[predicate][1]
        except KeyError:
            raise LooError(
                f"unknown predicate {predicate!r} (known: {', '.join(PREDICATES)})"
            ) from None
    if isinstance(rules, RuleOptions):
        opts = rules
    else:
        opts = options_from(dict(rules) if isinstance(rules, Mapping) else rules)
    seats = seat_bots(bots, players, "random-legal")
    found: list[Found] = []
    if limit <= 0:
        return found
    for seed in seeds:
        hand = Hand.from_seed(seed, players, dealer, opts)
        rng = random.Random(seed)
        for moment in moments(hand, seats, rng):
            if predicate(hand, moment):
                found.append(
                    Found(
                        seed,
                        players,
                        dealer,
                        moment,
                        len(hand.actions),
                        scenario_of(
                            hand,
                            title=f"{name or 'found'}: seed {seed}, {moment.value}",
                            description=PREDICATES[name][0] if name else None,
                        ),
                        hand.transcript().as_json(),
                        name,
                    )
                )
                break
        if len(found) >= limit:
            break
    return found


# --- named predicates -----------------------------------------------------------------------


def ace_turned_elder_holds_king(hand: Hand, moment: Moment) -> bool:
    """An ace is turned up and the elder hand holds the king of trumps, so that his lead must be
    the king (R24)."""
    if moment is not Moment.DEALT or hand.turn_up is None:
        return False
    t = hand.turn_up
    return t.rank is Rank.ACE and Card.of(Rank.KING, t.suit) in hand.held[hand.setup.elder]


def two_in_trumps_in_sequence(hand: Hand, moment: Moment) -> bool:
    """Two are in and the leader's top two trumps are in sequence, no ace among them and no king
    under a turned-up ace: seed 000 lets him lead either (R27)."""
    if moment is not Moment.LEAD or len(hand.players_in) != 2 or hand.to_act is None:
        return False
    trumps = sorted((c.rank for c in hand.held[hand.to_act] if c.suit is hand.trumps), reverse=True)
    if len(trumps) < 2 or trumps[0] - trumps[1] != 1 or trumps[0] is Rank.ACE:
        return False
    ace_turned = hand.turn_up is not None and hand.turn_up.rank is Rank.ACE
    return not (ace_turned and trumps[0] is Rank.KING)


def ends_as_single(hand: Hand, moment: Moment) -> bool:
    """The deal is settled as a single: three played and each took a trick (R41, R42)."""
    return moment is Moment.SETTLED and hand.settlement is not None and hand.settlement.is_single


def dealer_faces_lone_stander(hand: Hand, moment: Moment) -> bool:
    """The dealer is to declare against a lone stander and may not pass: he plays, takes the miss
    or plays it for the pool (R17, R18)."""
    if moment is not Moment.DECLARE or hand.to_act != hand.setup.dealer:
        return False
    legal = hand.legal_actions()
    return Declaration.PLAY_MISS_FOR_POOL in legal and Declaration.PASS not in legal


#: name -> (description, predicate)
PREDICATES: dict[str, tuple[str, Predicate]] = {
    "ace-turned-elder-king": (
        "An ace is turned up and the elder hand holds the king of trumps: if he leads, he "
        "must lead the king (R24).",
        ace_turned_elder_holds_king,
    ),
    "two-in-trumps-in-sequence": (
        "Only two players are in, and the leader holds two or more trumps whose top two are "
        "in sequence, with no ace (and no king under a turned-up ace) to force the lead: "
        "Hoffmann lets him lead either (R27).",
        two_in_trumps_in_sequence,
    ),
    "single": (
        "The deal ends as a single: exactly three played and each took one trick, so nobody "
        "is looed (R41, R42).",
        ends_as_single,
    ),
    "dealer-miss-for-pool": (
        "The dealer faces a lone stander with the miss untaken: he may not pass, and unless "
        "he plays his own cards or takes the miss he must play the miss for the pool (R17, "
        "R18; lone_stander_rule: seeds).",
        dealer_faces_lone_stander,
    ),
}
