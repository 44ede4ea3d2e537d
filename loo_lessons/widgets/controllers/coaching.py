"""'Ask the coach' and the review after a deal, for the play table and the evening.

The numbers are `sim.coach`'s (strategy, not law: its note goes with every answer); the
widgets only hold them for the position they were asked at and hand them to the component.
In the page the coach plays few deals (`ROLLOUTS`), seeded by the table and the move number,
so the same question gets the same answer.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from loo_lessons.engine.game import Hand
from loo_lessons.sim.asking import Advisor
from loo_lessons.sim.coach import MISTAKE_COUNTERS, PAGE_ROLLOUTS, STRATEGY_NOT_LAW, review

#: Deals of the unseen cards per legal move when a widget asks the coach (the page is slow).
ROLLOUTS = PAGE_ROLLOUTS
#: Deals per move for each decision the review weighs.
REVIEW_ROLLOUTS = 100


class Coaching:
    """The coach's last answer for one seat, kept with the position it answers.

    Its advice comes from one `sim.asking.Advisor` (one evaluation per position, seeded by the
    seed and the move's index): when the review plays as many deals as "Ask the coach"
    (`review_rollouts` equal to `rollouts`, as at the play table), the review reads the very
    figures the table showed, so the two can never rank the moves differently."""

    def __init__(
        self,
        seat: int,
        seed: int,
        rollouts: int = ROLLOUTS,
        review_rollouts: int = REVIEW_ROLLOUTS,
        advisor: Advisor | None = None,
    ) -> None:
        self.seat = seat
        self.seed = seed
        self.rollouts = rollouts if advisor is None else advisor.rollouts
        self.review_rollouts = review_rollouts
        self.advisor = advisor if advisor is not None else Advisor(seat, seed, rollouts)
        self._advice: tuple[int, tuple[Any, ...], dict[str, Any]] | None = None  # (hand, moves, advice)
        self._review: tuple[int, tuple[Any, ...], dict[str, Any]] | None = None
        self._weighed: tuple[tuple[Any, ...], dict[str, Any]] | None = None  # (deal, moves), review

    def ask(self, hand: Hand) -> dict[str, Any]:
        """The coach's advice for the seat, to act now in `hand` (ScenarioError if it is not)."""
        advice = self.advisor.advice(hand).as_json()
        self._advice = (id(hand), tuple(hand.actions), advice)
        return advice

    def weigh(self, hand: Hand, moves: Collection[int] | None = None) -> dict[str, Any]:
        """The review of the seat's decisions in the finished `hand` (see `review`), computed
        once for this deal and these moves and kept, but not shown (a task's score reads it)."""
        at = (id(hand), tuple(hand.actions), None if moves is None else frozenset(moves))
        if self._weighed is not None and self._weighed[0] == at:
            return self._weighed[1]
        kept = self.advisor if self.review_rollouts == self.advisor.rollouts else None
        decisions = review(
            hand,
            self.seat,
            rollouts=self.review_rollouts,
            seed=self.seed,
            moves=moves,
            advice=None if kept is None else kept.advice,
        )
        out = {
            "threshold": MISTAKE_COUNTERS,
            "rollouts": self.review_rollouts,
            "decisions": [d.as_json() for d in decisions],
            "mistakes": sum(d.mistake for d in decisions),
            "note": decisions[0].advice.note if decisions else STRATEGY_NOT_LAW,
        }
        self._weighed = (at, out)
        return out

    def review(self, hand: Hand, moves: Collection[int] | None = None) -> dict[str, Any]:
        """After the deal: each decision of the seat, with what it cost against the coach's
        choice; `mistake` where it cost more than the threshold. `moves`: the indices of the
        learner's own moves (a task's stand-in made the others), None for all. Shown by the
        component from now on (`data`)."""
        out = self.weigh(hand, moves)
        self._review = (id(hand), tuple(hand.actions), out)
        return out

    def data(self, hand: Hand) -> dict[str, Any]:
        """What the component draws: the advice and the review, if asked at this position."""
        at = (id(hand), tuple(hand.actions))
        return {
            "coach": self._advice[2] if self._advice is not None and self._advice[:2] == at else None,
            "review": self._review[2] if self._review is not None and self._review[:2] == at else None,
        }


__all__ = ["REVIEW_ROLLOUTS", "ROLLOUTS", "Coaching"]
