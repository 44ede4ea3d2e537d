"""The coach's 95 % intervals are honest (issue 25, deliver 2): they hold the long-run value at
least 94 % of the time at every play-out count the widgets and the command line use, near-certain
outcomes included, and never leave what can happen.

Cheap by design: the coach's own outcomes are played out once and resampled (their mean is then
the long-run value exactly), and the coach itself is rerun at many seeds only where a play-out
costs little (the last trick, whose value is counted exactly)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_coach import _exact, _holding, _last_trick_position

from loo_lessons.engine.game import Hand
from loo_lessons.engine.observation import seat_view
from loo_lessons.sim import coach as C
from loo_lessons.sim.bots import get_bot
from loo_lessons.widgets.backends.browser import MAX_COACH_ROLLOUTS
from loo_lessons.widgets.controllers.coaching import REVIEW_ROLLOUTS

#: Every play-out count the coach speaks at: the pages', the score's review, the command line's
#: default (also the most a page may ask for).
COUNTS = sorted({C.PAGE_ROLLOUTS, REVIEW_ROLLOUTS, C.ROLLOUTS, MAX_COACH_ROLLOUTS})
GOAL = 0.94


def _coverage(values: list[int], bounds: tuple[int, int], n: int, reps: int, seed: int) -> float:
    """How often the interval of `n` values drawn from `values` holds their mean (the long-run
    value of drawing from them, exactly)."""
    truth = sum(values) / len(values)
    rng = random.Random(seed)
    hits = 0
    for _ in range(reps):
        est = C.mean_interval(rng.choices(values, k=n), bounds)
        hits += est.low <= truth <= est.high
    return hits / reps


def test_the_counts_tested_are_the_ones_the_coach_speaks_at() -> None:
    assert {100, 200, 1000} <= set(COUNTS)


@pytest.mark.parametrize(
    ("name", "values", "bounds"),
    [
        # the case: a loo of 3 in about one deal in a hundred, else a share of the pool
        ("rare loo", [-3] + [1] * 99, (-3, 9)),
        ("rarer loo", [-3] + [1] * 299, (-3, 9)),
        ("rare whole pool", [9] * 2 + [0] * 98, (-3, 9)),
        ("skewed", [-3] * 5 + [0] * 90 + [9] * 5, (-3, 9)),
        ("unlimited loo", [-15] * 3 + [0] * 80 + [5] * 15 + [15] * 2, (-15, 15)),
    ],
)
def test_near_certain_and_skewed_outcomes_are_covered(
    name: str, values: list[int], bounds: tuple[int, int]
) -> None:
    for n in COUNTS:
        reps = 300 if n >= 1000 else 1000
        assert _coverage(values, bounds, n, reps, seed=n) >= GOAL, (name, n)


def _positions() -> list[Hand]:
    strong = _holding(["AH", "KH", "2C"], "7H", 4, 1, 1)  # stands: never looed
    weak = _holding(["2S", "3D", "4C"], "7H", 4, 1, 2)  # the miss or nothing
    return [strong, weak, Hand.from_seed(4, players=5)]


@pytest.mark.parametrize("at", range(3))
def test_the_coachs_own_outcomes_are_covered_at_every_count(at: int) -> None:
    hand = _positions()[at]
    seat = hand.to_act
    assert seat is not None
    view = seat_view(hand, seat)
    bots = (get_bot("sensible"),) * hand.setup.players
    legal, nets, _, _, _ = C._play_outs(view, hand.setup, bots, 1500, seed=at)
    bounds = C.counter_bounds(hand.setup)
    assert len(legal) > 1
    for k, values in enumerate(nets):
        assert bounds[0] <= min(values) and max(values) <= bounds[1]
        for n in COUNTS:
            reps = 150 if n >= 1000 else 500
            assert _coverage(values, bounds, n, reps, seed=k) >= GOAL, (legal[k], n)


def test_rerun_at_many_seeds_the_coach_covers_the_exact_value_of_the_last_trick() -> None:
    hand = _last_trick_position(3, 40)
    value, _, _ = _exact(hand)
    runs = 120
    hits = 0
    for seed in range(runs):
        (move,) = C.coach(hand, rollouts=min(COUNTS), seed=seed).moves
        hits += move.counters.low <= value <= move.counters.high
    assert hits / runs >= GOAL


@given(
    values=st.lists(st.integers(-20, 20), min_size=1, max_size=60),
    low=st.integers(-40, -20),
    high=st.integers(20, 40),
)
def test_an_interval_holds_its_mean_and_never_leaves_what_can_happen(
    values: list[int], low: int, high: int
) -> None:
    est = C.mean_interval(values, (low, high))
    assert low <= est.low <= est.mean <= est.high <= high
    assert est.mean == pytest.approx(sum(values) / len(values))
    if len(set(values)) == 1:
        # one outcome seen: the interval still allows for the others the bounds admit
        assert est.low < est.high


def test_an_outcome_that_cannot_vary_has_no_width() -> None:
    assert C.mean_interval([0] * 50, (0, 0)) == C.Estimate(0.0, 0.0, 0.0)


def test_the_throw_up_is_worth_nothing_and_the_best_move_nothing_against_itself() -> None:
    advice = C.coach(_positions()[0], rollouts=100, seed=3)
    best = advice.moves[0]
    assert best.versus_best == C.Estimate(0.0, 0.0, 0.0)
    throw = advice.move("pass")
    low, high = C.counter_bounds(_positions()[0].setup)
    assert throw.counters.high <= high
    assert throw.counters.mean == 0 and low <= throw.counters.low <= 0 <= throw.counters.high
    assert throw.versus_best.high < 0  # still surely worse than standing on the ace and king
