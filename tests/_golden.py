"""Helpers shared by the golden tests (tests/test_golden_*.py): building a hand from card codes
or from scenario YAML, making moves, and reading what is legal and which rule forbids the rest.

Not a test module (its name does not start with ``test_``); pytest puts tests/ on sys.path, so
the golden tests import it as ``_golden``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from loo_lessons.engine.cards import Card, parse_card
from loo_lessons.engine.game import Hand, Phase, Setup
from loo_lessons.engine.options import RuleOptions, preset
from loo_lessons.engine.settle import Settlement, Stakes
from loo_lessons.scenario import loads

# A five-handed deal used throughout (trumps hearts, nobody holds a heart).
# Played out, seat 1 takes two tricks (AS, KS) and seat 2 one (AC): Hoffmann's example.
HANDS5 = {1: "AS KS 3C", 2: "AC 5D 6D", 3: "7D 8D 9D", 4: "10D JD QD", 0: "4C 5C 6C"}
MISS5 = "KD 7C 8C"


def cards(text: str) -> list[Card]:
    return [parse_card(c) for c in text.split()]


def make_hand(
    hands: dict[int, str],
    miss: str | None,
    turn_up: str = "2H",
    rules: RuleOptions | str = "hoffmann",
    *,
    dealer: int = 0,
    stakes: Stakes | None = None,
    must: bool = False,
) -> Hand:
    """A hand dealt as given: `hands` by seat, the miss (None in a must) and the turn-up."""
    options = rules if isinstance(rules, RuleOptions) else preset(rules)
    n = len(hands)
    setup = Setup(n, dealer, options, stakes or Stakes.make(), must)
    return Hand(
        setup,
        [cards(hands[s]) for s in range(n)],
        cards(miss) if miss is not None else None,
        parse_card(turn_up),
    )


def position(
    held: str,
    played: Sequence[tuple[int, str]],
    rules: str | Mapping[str, object] = "hoffmann",
    turn_up: str = "8H",
    players_in: int = 4,
) -> Hand:
    """A scenario where everyone at the table stood (dealer 0): the seat after the last card of
    `played` (an unfinished first trick), or the elder hand (seat 1) to lead when nothing has
    been played, holds `held` and is to act."""
    seat = (played[-1][0] + 1) % players_in if played else 1
    plays = ", ".join(f"[{s}, {c}]" for s, c in played)
    declarations = ", ".join(f"{s}: play" for s in range(players_in))
    tricks = f"[[{plays}]]" if played else "[]"
    hand = loads(
        f"""
players: {players_in}
dealer: 0
rules: {json.dumps(rules)}
turn_up: {turn_up}
declarations: {{{declarations}}}
hands:
  {seat}: [{", ".join(held.split())}]
tricks: {tricks}
"""
    ).hand
    assert hand.to_act == seat
    return hand


def run(hand: Hand, moves: str) -> None:
    """Checked moves, in order: declarations (play, take_miss, pass, …) and card codes."""
    for m in moves.split():
        hand.apply(m)


def finish(hand: Hand, moves: str) -> Settlement:
    """Make the moves, which must end the deal, and return its settlement."""
    run(hand, moves)
    assert hand.phase is Phase.SETTLED and hand.settlement is not None
    return hand.settlement


def code(action: object) -> str:
    return action.code if isinstance(action, Card) else str(action)


def legal(hand: Hand) -> set[str]:
    return {code(a) for a in hand.legal_actions()}


def forbidding_rule(hand: Hand, action: str) -> str | None:
    """The rule id (e.g. "R32") that forbids `action` now, or None if it is not forbidden."""
    for a, law in hand.verdict().forbidden:
        if code(a) == action:
            return law.rule
    return None
