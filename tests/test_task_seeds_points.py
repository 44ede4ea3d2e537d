"""The tests tools/task_seeds.py puts to a deal for lessons 6 and 7's short tasks say no where
the point cannot come up, checked against the deal's own cards (test_lesson_steps.py checks
only that they say yes for the seeds the lessons use)."""

from __future__ import annotations

from tools.task_seeds import (
    TASKS,
    bound_to_trump_after_trick,
    had_to_head,
    played,
    plays_with_suit_led,
)


def test_no_heading_and_no_trump_after_trick_where_the_cards_cannot_bring_them_up() -> None:
    h, seen = played(14, TASKS["following-deal-14"])  # lesson 6's closing task
    trumps = h.trumps.value if h.trumps is not None else None
    follows = [
        (opts, led) for (kind, opts, _, _), led in plays_with_suit_led(h, seen) if kind == "follow"
    ]
    leads = [opts for (kind, opts, _, _), _ in plays_with_suit_led(h, seen) if kind == "lead"]
    # he never holds two cards of the suit led, and never leads holding a trump
    assert follows and all(sum(c[-1] == led for c in opts) <= 1 for opts, led in follows)
    assert leads and not any(c[-1] == trumps for opts in leads for c in opts)
    assert not had_to_head(h, seen) and not bound_to_trump_after_trick(h, seen)


def test_each_short_task_brings_up_its_own_point_only() -> None:
    h, seen = played(218, TASKS["following-head-deal-218"])
    assert had_to_head(h, seen)
    # he never leads holding a trump and a card of another suit
    trumps = h.trumps.value if h.trumps is not None else None
    mixed = [
        opts
        for (kind, opts, _, _), _ in plays_with_suit_led(h, seen)
        if kind == "lead" and len({c[-1] == trumps for c in opts}) == 2
    ]
    assert mixed == [] and not bound_to_trump_after_trick(h, seen)

    h, seen = played(32, TASKS["winning-trump-after-trick-deal-32"])
    assert bound_to_trump_after_trick(h, seen)
    follows = [
        (opts, led) for (kind, opts, _, _), led in plays_with_suit_led(h, seen) if kind == "follow"
    ]
    assert all(sum(c[-1] == led for c in opts) <= 1 for opts, led in follows)
    assert not had_to_head(h, seen)
