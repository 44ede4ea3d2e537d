"""Quizzes that teach: varied positions, laws that bind, wrong answers that cite their rule.

Counted here from the questions themselves (not through the generator's own bookkeeping):
in 20 seeded questions of every topic at least 18 distinct positions, at most a quarter of
the "select every …" questions answered by selecting every choice, and no one answer
dominating a lesson's six questions (lesson 9 once had "Stand" four times out of six).
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from loo_lessons.explain import explain_json
from loo_lessons.quiz import TOPICS, Question, generate
from loo_lessons.scenario import load

SEEDS = (0, 1, 7, 42, 2026)
ANNOTATIONS = ("topic", "level", "answer", "rule_ids")

#: The quizzes the lessons show: (topic, seed), six questions each.
LESSON_QUIZZES = (
    ("deal", 12),
    ("declare", 10),
    ("dealer", 6),
    ("lead", 5),
    ("follow", 6),
    ("trick", 7),
    ("pool", 8),
    ("must", 9),
    ("penalty", 10),
    ("dealer", 13),
    ("pool", 14),
)


def position(q: Question) -> str:
    data = {k: v for k, v in q.scenario.items() if k not in ANNOTATIONS}
    # how the table reached the deal (`question.table`) is not the position
    data["question"] = {k: v for k, v in data["question"].items() if k != "table"}
    return json.dumps(data, sort_keys=True)


def every_choice(q: Question) -> bool:
    return set(q.answer) == {c.key for c in q.choices}


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("topic", TOPICS)
def test_twenty_questions_are_varied_and_binding(topic: str, seed: int) -> None:
    qs = generate(topic, 20, seed)
    assert len({position(q) for q in qs}) >= 18
    multi = [q for q in qs if q.multi]
    all_of_them = [q.id for q in multi if every_choice(q)]
    assert 4 * len(all_of_them) <= len(multi), all_of_them
    # no situation (the same answer for the same reasons) fills more than a quarter
    same = Counter(
        (
            q.kind,
            tuple(sorted(q.answer)),
            tuple(sorted((k, v.correct, v.rule_id) for k, v in q.verdicts.items())),
        )
        for q in qs
    )
    assert max(same.values()) <= 5, same.most_common(1)


@pytest.mark.parametrize(("topic", "seed"), LESSON_QUIZZES)
def test_a_lessons_six_questions_do_not_repeat_one_answer(topic: str, seed: int) -> None:
    qs = generate(topic, 6, seed)
    answers = Counter((q.kind, tuple(sorted(q.answer))) for q in qs)  # whatever their places
    assert max(answers.values()) <= 2, answers.most_common(1)
    assert len({position(q) for q in qs}) == 6


@pytest.mark.parametrize("topic", ["lead", "follow", "trick", "declare", "dealer"])
def test_wrong_choices_name_the_rule_that_forbids_them(topic: str) -> None:
    """Each wrong choice of a "which may he …?" question cites the law the engine names for
    that card or declaration, with a reason in words."""
    asked = 0
    for q in generate(topic, 20, 3):
        if q.scenario["question"]["ask"] != "legal":
            continue
        j = explain_json(load(q.scenario))
        for c in q.choices:
            v = q.verdicts[c.key]
            assert v.reason.strip() and v.quote.strip()
            if not v.correct:
                asked += 1
                assert v.rule_id == j["illegal"][c.key]["rule_id"]
                assert v.rule_id in q.explanation
    assert asked > 0


def test_one_module_per_topic() -> None:
    """quiz/topics/<topic>.py holds each topic's generator, and the package lists them."""
    import importlib

    from loo_lessons.quiz.topics import GENERATORS

    assert list(GENERATORS) == list(TOPICS)
    for t in TOPICS:
        module = importlib.import_module(f"loo_lessons.quiz.topics.{t}")
        assert getattr(module, f"gen_{t}") is GENERATORS[t]
