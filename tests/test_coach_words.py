"""The coach's sentence of why, read as a learner reads it (issue 34, deliver 6): when every
move loses, the best is said to lose less ("better than"), never "more than"; a difference
that rounds to nothing is never "-0.0"; and the coach's 95 % interval is said in plain words
("the coach can't tell these apart"), never as an interval."""

from __future__ import annotations

from typing import Any, cast

from loo_lessons.engine.cards import parse_card
from loo_lessons.engine.observation import SeatView
from loo_lessons.sim.coach import Estimate, MoveValue, _why
from loo_lessons.widgets.controllers.score import Weighed


def move(card: str, mean: float, vs: float, vs_low: float, vs_high: float) -> MoveValue:
    zero = Estimate(0.0, 0.0, 0.0)
    return MoveValue(parse_card(card), Estimate(mean, mean - 0.1, mean + 0.1), zero, zero, Estimate(vs, vs_low, vs_high))


def why(*moves: MoveValue) -> str:
    return _why(cast(SeatView, None), moves)


def test_when_every_move_loses_the_best_is_better_never_more() -> None:
    said = why(move("7D", -0.6, 0.0, 0.0, 0.0), move("KH", -0.73, -0.13, -0.2, -0.05))
    assert "costs 0.6 counters" in said and "0.1 counters better than playing K♥" in said
    assert "more than" not in said


def test_a_difference_that_rounds_to_nothing_is_never_minus_zero() -> None:
    said = why(move("7D", 0.3, 0.0, 0.0, 0.0), move("KH", 0.3, -0.0, -0.05, 0.04))
    assert "-0.0" not in said and "0.0 counters better than playing K♥" in said
    assert "the coach can't tell these apart" in said and "95" not in said


def test_the_interval_is_said_in_a_learners_words() -> None:
    w = Weighed(3, "lead", parse_card("KH"), parse_card("7D"), Estimate(0.05, -0.02, 0.12), False)
    assert w.choice and "the coach can't tell these apart" in w.words
    assert "interval" not in w.words and "too close to call" not in w.words
    shown: dict[str, Any] = w.as_json()
    assert shown["choice"] and shown["words"] == w.words
