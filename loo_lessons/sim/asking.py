"""Which of a learner's decisions a task asks her: only those that test something.

A decision tests the law when the law refuses at least one choice on offer (a card in her
hand she may not play, a declaration button she may not press): she must find the legal one.
It tests strategy when two or more choices are legal and the coach puts the best at least
`SEPARATED` counters ahead of the worst. Anything else (her last card; cards the coach cannot
tell apart, none refused) is played for her, with one line saying so.

The coach's advice is kept per position (`Advisor`), seeded by the table's seed and the move's
index, so one evaluation serves the question "ask her?", "Ask the coach" and the review at the
end: they cannot rank the moves differently.
"""

from __future__ import annotations

from dataclasses import dataclass

from loo_lessons.engine.cards import Card
from loo_lessons.engine.declare import Declaration
from loo_lessons.engine.errors import InputError
from loo_lessons.engine.game import Action, Hand, Phase
from loo_lessons.explain.words import action_label, card_label
from loo_lessons.sim.coach import Advice, coach

#: A strategy decision: the coach's best at least this many counters ahead of its worst.
SEPARATED = 0.3
#: Play-outs per legal move for a task's coach (the question, the hint and the review alike).
TASK_ROLLOUTS = 1000

#: Every declaration, in the order the declaring buttons show them.
_BUTTONS: tuple[Declaration, ...] = (
    Declaration.PLAY,
    Declaration.TAKE_MISS,
    Declaration.PASS,
    Declaration.PLAY_MISS_FOR_POOL,
)


def on_offer(hand: Hand) -> tuple[Action, ...]:
    """What the seat to act can click: every card in its hand, or the declaration buttons the
    table shows (the engine's legal and forbidden ones). *Play the miss for the pool* is shown
    to the dealer only: it is the dealer's duty alone (R18: "he is bound to take miss and play
    for the pool"), never a choice any other seat has, so a button every other seat is always
    refused would make every declaration look like a test of the law when it tests nothing."""
    seat = hand.to_act
    if seat is None:
        return ()
    if hand.phase is Phase.PLAY:
        return tuple(hand.held[seat])
    v = hand.verdict()
    shown = set(v.legal) | {a for a, _ in v.forbidden}
    if seat != hand.setup.dealer and Declaration.PLAY_MISS_FOR_POOL not in v.legal:
        shown.discard(Declaration.PLAY_MISS_FOR_POOL)
    return tuple(d for d in _BUTTONS if d in shown)


class Advisor:
    """The coach's advice for one seat, one evaluation per position, kept: `rollouts` play-outs
    per legal move, seeded by `seed` plus the number of moves made before it."""

    def __init__(self, seat: int, seed: int, rollouts: int = TASK_ROLLOUTS) -> None:
        self.seat = seat
        self.seed = seed
        self.rollouts = rollouts
        self._kept: dict[tuple[Action, ...], Advice] = {}
        self._rulings: dict[tuple[Action, ...], Ruling] = {}

    def advice(self, hand: Hand) -> Advice:
        """The coach's advice for the seat, to act now in `hand` (computed once per position)."""
        at = tuple(hand.actions)
        if at not in self._kept:
            self._kept[at] = coach(hand, self.seat, rollouts=self.rollouts, seed=self.seed + len(at))
        return self._kept[at]

    def ruling(self, hand: Hand) -> Ruling:
        """The seat's decision now, judged (`ruling`), once per position."""
        at = tuple(hand.actions)
        if at not in self._rulings:
            self._rulings[at] = ruling(hand, self)
        return self._rulings[at]


@dataclass(frozen=True, slots=True)
class Ruling:
    """One decision of the learner's, judged before she is asked it."""

    offered: tuple[Action, ...]
    legal: tuple[Action, ...]
    #: the coach's figures, best first (None: one legal move, nothing to weigh)
    advice: Advice | None

    @property
    def law(self) -> bool:
        """The law refuses at least one choice on offer: finding the legal one is the test."""
        return len(self.legal) < len(self.offered)

    @property
    def spread(self) -> float:
        """The coach's best less its worst, in mean counters (0 with one legal move)."""
        if self.advice is None:
            return 0.0
        means = [m.counters.mean for m in self.advice.moves]
        return max(means) - min(means)

    @property
    def strategy(self) -> bool:
        """Two or more legal choices, the coach's best at least `SEPARATED` ahead of its worst."""
        return self.advice is not None and self.spread >= SEPARATED - 1e-9

    @property
    def asked(self) -> bool:
        """Does the decision test something (the law, or strategy)? Then she is asked it. A
        choice the coach could not weigh is asked too: nothing is played for her unseen."""
        unweighed = self.advice is None and len(self.legal) > 1
        return self.law or self.strategy or unweighed

    @property
    def move(self) -> Action:
        """The move played for her when she is not asked: the only legal one, or the coach's."""
        return self.legal[0] if self.advice is None else self.advice.best

    def words(self) -> str:
        """The line the log shows for a move played for her (`Your last card, the J♠`)."""
        a = self.move
        label = card_label(a, the=True) if isinstance(a, Card) else action_label(a)
        if len(self.offered) == 1:
            return f"Your last card, {label}"
        if self.advice is None:
            return f"Played for you: {label}, the only move the rules allowed"
        what = "card you could play" if isinstance(a, Card) else "choice you had"
        return (
            f"Played for you: {label}. Every {what} was about as good: the coach could not "
            "tell them apart"
        )


def ruling(hand: Hand, advisor: Advisor) -> Ruling:
    """Judge the decision of the seat to act in `hand` (the advisor's seat): the law's refusals
    from the engine, the coach's spread from the advisor (asked only with two legal moves or
    more)."""
    legal = tuple(hand.legal_actions())
    advice = None
    if len(legal) > 1:
        try:
            advice = advisor.advice(hand)
        except InputError:  # a position the coach cannot weigh: asked, never played unseen
            advice = None
    return Ruling(on_offer(hand), legal, advice)


__all__ = ["SEPARATED", "TASK_ROLLOUTS", "Advisor", "Ruling", "on_offer", "ruling"]
