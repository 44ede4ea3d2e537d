"""In JupyterLab every graded answer goes into the learner's progress file with its rules (the
kernel's widget and `progress.graded`): a pick answered wrongly and tried again, a quiz
question, a pool form checked; a task's decisions once its deal is over."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from loo_lessons import lessons as L
from loo_lessons.progress import store
from loo_lessons.quiz.pick import pick_question
from loo_lessons.quiz.pool_sum import pool_data
from loo_lessons.widgets.backends.kernel import widget_class
from loo_lessons.widgets.controllers.play import PlayController


def _send(w: Any, **event: Any) -> None:
    w._receive({"event": event})  # what the page's click sends through the comm


@pytest.fixture
def path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    p = tmp_path / "loo-progress.json"
    monkeypatch.setenv("LOO_PROGRESS", str(p))
    return p


def test_a_pick_tried_again_a_question_and_a_form_go_into_the_file(path: Path) -> None:
    w = widget_class("pick")(data={"question": pick_question(L.scenario("lead-king-when-ace-turned"))})
    ctl: Any = w.controller
    q = ctl.question
    wrong = next(k for k in ctl.choices if k not in q["answer"])
    _send(w, type="choice", key=wrong)
    assert not store.load(path).answers  # a selection is a draft: nothing graded yet
    _send(w, type="check")
    (a,) = store.load(path).answers
    assert a.kind == "pick" and a.correct is False and a.rules == tuple(q["rule_ids"]) and a.rules
    title = q["scenario"]["title"]
    assert a.where.back == title and a.id == f"jupyterlab#pick:{title}"
    _send(w, type="choice", key=q["answer"][0])  # after Check a click shows a verdict: no answer
    assert len(store.load(path).answers) == 1
    # tried again: the earlier wrong answer stays, the new one is another
    _send(w, type="reset")
    for k in q["answer"]:
        _send(w, type="choice", key=k)
    _send(w, type="check")
    kept = store.load(path).answers
    assert [x.correct for x in kept] == [False, True] and kept[1].id == a.id

    quiz = widget_class("quiz")("lead", 1, 2)
    first = quiz.controller.questions[0]  # type: ignore[attr-defined]
    for k in first["answer"]:
        _send(quiz, type="choice", key=k)
    _send(quiz, type="check")
    got = [x for x in store.load(path).answers if x.kind == "quiz"]
    assert [(x.rules, x.correct, x.where.back) for x in got] == [(tuple(first["rule_ids"]), True, first["id"])]

    pool = widget_class("pool")(data=pool_data(L.scenario("settle-hoffmann-worked-example")))
    _send(pool, type="check")  # all blank: wrong, against the settlement's rules
    (form,) = [x for x in store.load(path).answers if x.kind == "pool"]
    assert form.correct is False and form.rules == tuple(pool.controller.data["rule_ids"])


def test_a_task_s_decisions_go_into_the_file_once(path: Path) -> None:
    w = widget_class("play").wrap(PlayController(26, seat=1, task="leading-deal-26", asks=["declare", "lead"]))
    for key in ["play", "KH", "5H"]:
        w.choose(key)
    score = w.controller.score()  # type: ignore[attr-defined]
    assert score is not None and score["asked"]
    kept = [x for x in store.load(path).answers if x.kind == "task-decision"]
    assert [(list(x.rules), x.correct) for x in kept] == [(d["rules"], d["correct"]) for d in score["asked"]]
    w._push()  # the same score again: nothing doubled
    assert len(store.load(path).answers) == len(kept)
