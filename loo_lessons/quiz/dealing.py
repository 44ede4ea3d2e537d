"""The positions the topics ask about: fresh deals, deals a table reached, deals played out at
random, and the positions kept on the way."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from loo_lessons.engine.cards import Card, Suit
from loo_lessons.engine.declare import Declaration
from loo_lessons.engine.game import Hand, Phase
from loo_lessons.quiz.asking import Asked, Gen, Reject, ask
from loo_lessons.quiz.positions import (
    ORDINARY,
    Rules,
    Wanted,
    at_move,
    deal,
    declare_until,
    legal_under,
    play_until,
    reach,
    scenario_of,
    table_size,
)

#: The four declarations, as the topics write them in a row of declarations.
P = Declaration.PLAY
T = Declaration.TAKE_MISS
X = Declaration.PASS
M = Declaration.PLAY_MISS_FOR_POOL

#: Declarations that put many players in (for questions about the play).
PLAYERS_IN: dict[Declaration, float] = {P: 6.0, T: 2.0, X: 2.0, M: 1.0}


def trumps_held(cards: list[Card], trumps: Suit | None) -> int:
    """How many of `cards` are trumps (none when there are no trumps yet)."""
    return sum(1 for c in cards if c.suit is trumps)


def random_deal(g: Gen, rules: Rules, lo: int = 2, hi: int = 7, *, must: bool = False) -> Hand:
    """A fresh deal at a table of `lo` to `hi` players (sizes weighted as `table_size`
    weights them), the dealer drawn at random."""
    n = table_size(g.rng, lo, hi)
    return deal(g.rng, rules, n, g.rng.randrange(n), must=must)


def random_play(g: Gen, rules: Rules, lo: int = 2, hi: int = 7) -> Hand:
    """A fresh deal (`random_deal`) with the players declared at random, brought to its play."""
    hand = random_deal(g, rules, lo, hi)
    declare_until(hand, g.rng, PLAYERS_IN)
    if hand.phase is not Phase.PLAY:
        raise Reject("nobody plays")
    return hand


def ask_legal_at(g: Gen, hand: Hand, found: Sequence[int], rules: Rules) -> tuple[Asked, int]:
    """The question "which cards may he play?" at one of the positions `found` (moves into
    the play, as `positions_kept` collects them), picked at random: the engine's answer and
    the seat to act."""
    pos = at_move(hand, g.rng.choice(found))
    seat = pos.to_act
    assert seat is not None
    return ask(g, scenario_of(pos, rules), {"ask": "legal"}, rules), seat


def positions_kept(
    hand: Hand, g: Gen, keep: Callable[[Hand, bool], int | None], rules: Rules
) -> list[tuple[int, int]]:
    """Play out at random; collect (moves, level) of the positions `keep` accepts.

    `keep(hand, differs)` is told whether the other book would allow other cards here. In
    disagreement mode only cards legal under both books are played, so the position can
    arise under either."""
    other = rules.swapped().options() if g.disagreement else None
    found: list[tuple[int, int]] = []
    while hand.phase is Phase.PLAY and hand.to_act is not None:
        legal = list(hand.legal_actions())
        moves = legal
        differs = False
        if other is not None:
            theirs = legal_under(hand, other)
            differs = set(theirs) != set(legal)
            moves = [c for c in legal if c in theirs]
        lvl = keep(hand, differs)
        if lvl is not None:
            found.append((len(hand.actions), lvl))
        if not moves:
            break
        hand.apply(moves[g.rng.randrange(len(moves))])
    return found


def reached_deal(g: Gen, rules: Rules, players: int, wanted: Wanted = ORDINARY) -> Hand:
    """A fresh deal at a table that has played some deals first (`positions.reach`), so
    the pool, the dealer and a must are what the rules make of real deals."""
    try:
        r = reach(g.rng, rules, players, wanted)
    except LookupError as e:
        raise Reject(str(e)) from None
    g.table = r.history
    return deal(g.rng, rules, players, r.dealer, stakes=r.stakes, must=r.must)


def played_out(g: Gen, rules: Rules, wanted: Wanted = ORDINARY) -> Hand:
    """A deal played out at random, at a table the engine brought to it (`reached_deal`)."""
    n = table_size(g.rng, 3, 7)
    hand = reached_deal(g, rules, n, wanted)
    declare_until(hand, g.rng, PLAYERS_IN)
    if hand.phase is not Phase.PLAY:
        raise Reject("the deal ended without play")
    play_until(hand, g.rng)
    return hand


def counts_mapping(
    hand: Hand, rules: Rules, extra: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """A finished deal written with `tricks_won` (the counts) instead of the tricks; with
    the tricks when some book's shares follow their order (an odd pool among two or three
    hands: Peel's preference, `engine.settle.trick_shares`). One hand's three tricks take
    the same under every reading, so its counts say all."""
    if hand.setup.stakes.pool % 3 and len(set(hand.winners)) > 1:
        return scenario_of(hand, rules, extra=extra)
    won = {str(s): hand.winners.count(s) for s in hand.players_in}
    m = scenario_of(hand, rules, hands=(), tricks=False, extra={"tricks_won": won})
    if extra:
        m.update(extra)
    return m
