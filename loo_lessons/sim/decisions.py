"""A decision of each kind (declaring, leading, following) and the coach timed on them.

`bench` times the coach in this CPython and `bench --browser` in the page's Python (Pyodide,
through the fixed request `run("coach_timing", {"rollouts": N})` of `widgets.backends.browser`): both
call `time_coach`, on the very same positions, so the two figures answer the same questions.
Nothing here is a rule: the positions come from seeded deals played by the sensible bots.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from loo_lessons.engine.game import Hand
from loo_lessons.sim.bots import bot_move
from loo_lessons.sim.coach import ROLLOUTS, coach
from loo_lessons.sim.game import DOING, decision_kind

#: The kinds of decision, in the order they are printed.
KINDS = tuple(DOING.values())
#: The table the positions are found at.
PLAYERS = 5


def kind_of(hand: Hand) -> str:
    """declaring, leading or following: what the seat to act is deciding."""
    return DOING[decision_kind(hand)]


def coach_positions() -> list[tuple[str, Hand]]:
    """The first decision of each kind with more than one legal move, in seeded deals at a
    table of five played by the sensible bots (the same positions every time)."""
    found: dict[str, Hand] = {}
    for seed in range(200):
        hand = Hand.from_seed(seed, players=PLAYERS)
        rng = random.Random(seed)
        while hand.to_act is not None and len(found) < len(KINDS):
            kind = kind_of(hand)
            if kind not in found and len(hand.legal_actions()) > 1:
                found[kind] = hand.copy()
            hand.apply_unchecked(bot_move(hand, "sensible", rng))
        if len(found) == len(KINDS):
            break
    return [(k, found[k]) for k in KINDS if k in found]


@dataclass(frozen=True)
class CoachTiming:
    """One decision answered by the coach: its kind, its legal moves, the rollouts of each,
    and the wall and CPU seconds the answer took."""

    kind: str
    moves: int
    rollouts: int
    seconds: float
    cpu_seconds: float

    def as_json(self) -> dict[str, str | int | float]:
        """The timing as JSON: the decision's kind, moves and rollouts, wall and CPU seconds."""
        return {
            "kind": self.kind,
            "moves": self.moves,
            "rollouts": self.rollouts,
            "seconds": self.seconds,
            "cpu_seconds": self.cpu_seconds,
        }


def time_coach(rollouts: int = ROLLOUTS, seed: int = 1) -> list[CoachTiming]:
    """`coach(hand, seat, rollouts=rollouts, seed=seed)` for each of `coach_positions()`, timed."""
    out = []
    for kind, hand in coach_positions():
        seat = hand.to_act
        moves = len(hand.legal_actions())
        t0, c0 = time.perf_counter(), time.process_time()
        coach(hand, seat, rollouts=rollouts, seed=seed)
        out.append(
            CoachTiming(kind, moves, rollouts, time.perf_counter() - t0, time.process_time() - c0)
        )
    return out
