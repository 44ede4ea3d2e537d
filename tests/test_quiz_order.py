"""The place of a right answer tells a learner nothing: choices come in a seeded order.

Across 1,000 questions of every topic (500 under each book) the right answers stand at each
place about as often as an honest shuffle puts them there. Place p of question q is right
with probability a_q / k_q (a right answers among k choices) under a shuffle, independently
from question to question, so the count of right answers at p has mean E_p = Σ a/k and
variance V_p = Σ (a/k)(1 - a/k). The test allows |O_p - E_p| ≤ 5·√V_p: an honest shuffle
fails one place with probability below 10⁻⁶, while "the right answers first" (what `lead`
did in 100 of 100 questions) misses by dozens of standard deviations, as the last test shows.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from functools import cache

import pytest

from loo_lessons.quiz import TOPICS, Question, generate, selects_all
from loo_lessons.quiz.class_code import parse

PER_PRESET = 500
PRESETS = ("hoffmann", "peel")
#: standard deviations allowed at each place
SIGMAS = 5.0


@cache
def bank(topic: str) -> tuple[Question, ...]:
    return tuple(q for p in PRESETS for q in generate(topic, PER_PRESET, seed=2026, preset=p))


def misplaced(qs: Sequence[Question]) -> list[str]:
    """The places whose count of right answers lies beyond the bound (empty: no bias)."""
    places = max(len(q.choices) for q in qs)
    observed = [0] * places
    mean = [0.0] * places
    var = [0.0] * places
    for q in qs:
        k, a = len(q.choices), len(q.answer)
        p = a / k
        for i, c in enumerate(q.choices):
            observed[i] += c.key in q.answer
            mean[i] += p
            var[i] += p * (1 - p)
    bad = []
    for i in range(places):
        if var[i] == 0:  # every question asked has all (or none) of its choices right here
            assert observed[i] == round(mean[i])
            continue
        z = (observed[i] - mean[i]) / math.sqrt(var[i])
        if abs(z) > SIGMAS:
            bad.append(f"place {i + 1}: {observed[i]} right, {mean[i]:.1f} expected (z={z:+.1f})")
    return bad


@pytest.mark.parametrize("topic", TOPICS)
def test_right_answers_stand_at_every_place_about_equally(topic: str) -> None:
    qs = bank(topic)
    assert len(qs) == 2 * PER_PRESET
    assert {q.preset for q in qs} == set(PRESETS)
    assert misplaced(qs) == []


@pytest.mark.parametrize("topic", TOPICS)
def test_all_of_them_right_stays_rare(topic: str) -> None:
    """A "select every …" question answered by every choice teaches nothing: ≤ 1/4 of them."""
    multi = [q for q in bank(topic) if q.multi]
    assert 4 * sum(selects_all(q) for q in multi) <= len(multi)


def right_first(q: Question) -> Question:
    ordered = sorted(q.choices, key=lambda c: c.key not in q.answer)
    return replace(
        q, choices=tuple(ordered), answer=tuple(k.key for k in ordered if k.key in q.answer)
    )


def test_the_bound_catches_right_answers_listed_first() -> None:
    """The same questions with the right answers listed first (the old `lead`) fail."""
    for topic in ("lead", "pool", "penalty"):
        assert misplaced([right_first(q) for q in bank(topic)]), topic


def test_the_order_is_the_seeds_so_a_class_code_deals_every_pupil_the_same() -> None:
    code = parse("lead-10-42")
    one = [[c.key for c in q.choices] for q in generate(code.topic, code.count, code.seed)]
    two = [[c.key for c in q.choices] for q in generate(code.topic, code.count, code.seed)]
    assert one == two
    # and the order is drawn, not fixed: the same cards in hand order would repeat it
    assert any(
        [c.key for c in q.choices] != sorted(c.key for c in q.choices)
        for q in generate("lead", 10, 42)
    )
