"""A play-this-deal task played by clicks (issue 18, deliver 1): in the built book with no
kernel (the page's own engine) and in JupyterLab (the kernel). Lesson 5's task, deal 26 from
the elder hand: the declaration is a control on the learner's seat, his cards are clicked in
his seat on the table, a forbidden lead is refused there with the rule id, the book's words
and the book's name, the score appears at the end, and (in the book) the progress page
counts the task.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from test_book_reader import PICKS, _answer_right, _quiz
from test_jupyterlab import lab_page, run_cell, serve
from test_live_book import block_other_hosts

from loo_lessons.progress import store
from loo_lessons.progress.record import loads
from loo_lessons.widgets.controllers.play import IllegalChoice, PlayController

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Locator, Page

READY_MS = 90_000
#: Lesson 5's task as the engine deals it: the learner stands, leads the K♥ (R27 forbids the
#: 5♥ first: two in, two trumps, the highest), wins, leads the 5♥ (trump after trick); his last
#: card, the J♦, tests nothing and is played for him.
LESSON = "notebooks/05-leading"
SEAT = 1
WRONG, WRONG_RULE = "5H", "R27"
MOVES = ["play", "KH", "5H"]
TASK = "leading-deal-26"


def own_seat(widget: Locator) -> Locator:
    """The learner's seat on the table (not a row of buttons under it)."""
    return widget.locator(f'.loo-table .loo-seat[data-seat="{SEAT}"]')


def play_the_task(page: Page, widget: Locator, wait_moved: Any) -> None:
    seat = own_seat(widget)
    seat.locator('.loo-choices [data-key="play"]').wait_for(timeout=READY_MS)
    assert widget.locator(".loo-choices").count() == 1  # only in the seat
    wait_moved(lambda: seat.locator('.loo-choices [data-key="play"]').click())
    # a forbidden lead, refused on the table with the engine's law
    seat.locator(f'.loo-choices [data-key="{WRONG}"]').click()
    verdict = seat.locator(f'.loo-verdict[data-verdict="{WRONG}"]')
    verdict.wait_for(timeout=30_000)
    said = verdict.inner_text()
    assert WRONG_RULE in said and "\u201c" in said and "Hoffmann" in said, said
    for key in MOVES[1:]:
        wait_moved(lambda key=key: seat.locator(f'.loo-choices [data-key="{key}"]').click())
    score = widget.locator(".loo-task-score")
    score.wait_for(timeout=30_000)
    # the result a short moment: the stars drawn as stars (the earned first), read out in
    # Python's words, and one line; the whole account folded
    won = expected_score()
    stars = score.locator(".loo-stars")
    n = sum(bool(v) for v in won["stars"].values())
    assert stars.inner_text() == "★" * n + "☆" * (len(won["stars"]) - n)
    assert stars.get_attribute("aria-label") == next(p["text"] for p in won["parts"] if p["kind"] == "stars")
    assert not score.locator(".loo-fold-account").evaluate("d => d.open")
    score.locator(".loo-fold-account > summary").click()
    assert score.get_attribute("data-refused") == "1"
    said = score.inner_text()
    assert re.search(r"[+-]?\d+ counters? this deal", said)
    # the coach's part, as Python works it out here for the same clicks (the page draws it)
    want = expected_score()
    assert want["decisions"] >= 1 and "Strategy, not law" in want["text"]
    assert score.get_attribute("data-decisions") == str(want["decisions"])
    assert score.get_attribute("data-coach-choice") == str(want["coach_choice"])
    assert score.get_attribute("data-mistakes") == str(want["mistakes"])
    assert want["text"] in said, (want["text"], said)
    # the stars at the end of the task (in the book and in JupyterLab alike), and the words used
    assert re.search("[★☆]{3} \\(", said) and "play-out" in said


def expected_score() -> dict[str, Any]:
    """The task's score for `MOVES` with the forbidden click, from this process's engine."""
    c = PlayController(26, seat=SEAT, task=TASK, asks=["declare", "lead"])
    c.choose(MOVES[0])
    with pytest.raises(IllegalChoice):
        c.choose(WRONG)
    for key in MOVES[1:]:
        c.choose(key)
    score = c.score()
    assert score is not None
    return score


def test_a_task_in_the_book_with_no_kernel(browser: Browser, server: str) -> None:
    external: list[str] = []
    errors: list[str] = []
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    block_other_hosts(ctx, server, external)
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(f"{server}/{LESSON}.html")
        page.wait_for_function(
            "() => [...document.querySelectorAll('[data-loo-live]')].length > 0 && "
            "[...document.querySelectorAll('[data-loo-live]')].every(e => e.dataset.looEngine === 'live')",
            timeout=READY_MS,
        )
        # the end-of-lesson task, by its title (a step earlier in the lesson has a task of its own)
        widget = page.locator(
            '.loo-live-widget[data-loo-engine="live"] .loo-static[data-loo-component="play"]'
        ).filter(has_text="Deal 26:")
        idx = page.evaluate("el => window.looLive.findIndex(x => x.el === el)", widget.element_handle())
        data = page.evaluate("i => window.looLive[i].model.get('data')", idx)
        assert data["task"]["id"] == "leading-deal-26" and data["task"]["asks"] == ["declare", "lead"]

        def wait_moved(click: Any) -> None:
            n = page.evaluate("i => window.looLive[i].model.get('data').log.length", idx)
            click()
            page.wait_for_function(
                "([i, n]) => window.looLive[i].model.get('data').log.length !== n", arg=[idx, n]
            )

        # before the task, a pick answered wrongly and a quiz question right: every graded answer
        # goes into the record by rule with the rules Python gave it
        pick = next(p for p in page.evaluate(PICKS) if set(c["key"] for c in p["q"]["choices"]) - set(p["q"]["answer"]))
        proot = page.locator(f'div[data-loo-id="{pick["id"]}"]')
        wrong = sorted({c["key"] for c in pick["q"]["choices"]} - set(pick["q"]["answer"]))[0]
        proot.locator(f'.loo-choices [data-key="{wrong}"]').click()
        proot.locator('button[data-action="check"]').click()
        qroot, q = _quiz(page)
        _answer_right(qroot, q)
        qroot.locator('.loo-score[data-score="1"]').wait_for(timeout=30_000)
        # "New questions": another quiz dealt by the page's engine; its answers are recorded too
        qroot.locator('button[data-action="new"]').first.click()
        fresh = "([id, old]) => { const c = [...window.looLive, ...window.looLessons].filter(x => x.el && " \
            "x.el.closest(`[data-loo-id=\"${id}\"]`) && x.model.get('questions'))" \
            ".map(x => x.model.get('questions')[0]).find(q => q && q.id !== old); return c || null; }"
        qid = qroot.get_attribute("data-loo-id")
        page.wait_for_function(fresh, arg=[qid, q["id"]], timeout=30_000)
        new_q = page.evaluate(fresh, [qid, q["id"]])
        _answer_right(qroot, new_q)
        play_the_task(page, widget, wait_moved)
        # in this deal the learner led all three tricks: every move of his seat was his own
        log = page.evaluate("i => window.looLive[i].model.get('data').log", idx)
        assert len(log) == 5 + 6 and not any("made for you" in t for t in log)
        assert any(t.startswith("Your last card, the J♦") for t in log)
        # kept in the reader's progress, and counted on the progress page
        kept = page.evaluate(f"() => JSON.parse(localStorage.getItem('loo-progress:{LESSON}'))")
        want = expected_score()
        task = kept["tasks"][TASK]["last"]
        assert task["refused"] == 1 and kept["tasks"][TASK]["best"] == task  # the only attempt
        for k in ("result", "decisions", "coach_choice", "mistakes", "given_up", "coach_summary", "text", "stars"):
            assert task[k] == want[k], k
        # the record by rule (loo-progress/1): the pick, the question, each decision asked; and
        # Python reads it whole (the format's every field)
        def by_rule() -> dict[str, Any]:
            rec: dict[str, Any] = page.evaluate("() => JSON.parse(localStorage.getItem('loo-progress/1'))")
            assert loads(json.dumps(rec)).answers  # no field the format does not know
            return rec

        page.wait_for_function(
            "() => (JSON.parse(localStorage.getItem('loo-progress/1')) || {answers: []}).answers"
            ".filter(a => a.kind === 'task-decision').length > 0"
        )
        rec = by_rule()
        (picked,) = [a for a in rec["answers"] if a["kind"] == "pick"]
        assert picked["id"] == f"{LESSON}#{pick['id']}" and picked["correct"] is False
        assert picked["rules"] == pick["q"]["rule_ids"] and picked["rules"]
        assert isinstance(picked["seconds"], (int, float)) and picked["seconds"] >= 0 and picked["where"]["page"] == LESSON
        asked, dealt = [a for a in rec["answers"] if a["kind"] == "quiz"]
        assert asked["correct"] is True and asked["rules"] == q["rule_ids"] and asked["where"]["back"] == q["id"]
        assert dealt["correct"] is True and dealt["rules"] == new_q["rule_ids"] and dealt["where"]["back"] == new_q["id"]
        # the lesson's own record keeps the page's questions only (its score is theirs)
        assert not any(new_q["id"] in k for k in kept["answers"])
        decided = [a for a in rec["answers"] if a["kind"] == "task-decision"]
        assert [(a["rules"], a["correct"]) for a in decided] == [(d["rules"], d["correct"]) for d in want["asked"]]
        assert all(a["where"] == {"page": LESSON, "back": TASK} for a in decided)
        # the lead refused first is recorded against the law that refused it
        assert any(a["rules"] == [WRONG_RULE] and a["correct"] is False for a in decided)
        page.reload()
        page.wait_for_function("() => (window.looLessons || []).length > 0")
        page.wait_for_timeout(500)
        assert by_rule()["answers"] == rec["answers"]  # a reload loses nothing and doubles nothing
        page.goto(f"{server}/book/progress.html")
        page.locator('.loo-progress-total[data-played="1"]').wait_for(timeout=10_000)
        row = page.locator(f'tr[data-lesson="{LESSON}"] td[data-tasks="1"]')
        # by its title, never its id; with its stars
        assert TASK not in row.inner_text() and "Deal 26:" in row.inner_text()
        assert want["coach_summary"] in row.inner_text() and "★" in page.locator(f'tr[data-lesson="{LESSON}"]').inner_text()
        assert re.search(r"coach's choice \d+ of \d+", row.inner_text())
        assert external == [] and errors == []
    finally:
        ctx.close()


@pytest.fixture
def task_lab(tmp_path: Path) -> Iterator[tuple[str, str]]:
    root = tmp_path / "notebooks"
    root.mkdir()
    cells = [
        "from loo_lessons import lessons as L\n"
        't = L.task("leading-deal-26")\nt',
        "print('TASK SCORE', json.dumps(t.score()))",
    ]
    nb = {
        "cells": [
            {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": s}
            for s in ["import json", *cells]
        ],
        "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    (root / "task.ipynb").write_text(json.dumps(nb), encoding="utf-8")
    with serve(tmp_path, root) as served:
        yield served


def test_a_task_in_jupyterlab(task_lab: tuple[str, str], browser: Browser) -> None:
    with lab_page(browser, task_lab, "task.ipynb", 1400, 1000) as page:
        page.locator("#jp-main-statusbar").get_by_text(re.compile(r"Idle")).wait_for(timeout=90_000)
        run_cell(page, 0)
        run_cell(page, 1)
        widget = page.locator(".jp-OutputArea-output").filter(has=page.locator(".loo-table")).first

        def wait_moved(click: Any) -> None:
            n = page.locator(".jp-OutputArea .loo-play-prompt").get_attribute("data-moves")
            click()
            page.wait_for_function(
                "n => document.querySelector('.jp-OutputArea .loo-play-prompt').dataset.moves !== n",
                arg=n,
                timeout=30_000,
            )

        play_the_task(page, widget, wait_moved)
        run_cell(page, 2)
        out = page.locator(".jp-OutputArea-output").filter(has_text="TASK SCORE")
        out.wait_for(timeout=60_000)
        score = json.loads(out.inner_text().split("TASK SCORE", 1)[1])
        assert score["refused"] == 1 and score["text"] in page.locator(".loo-task-score").inner_text()
        want = expected_score()
        assert {k: score[k] for k in want} == want  # the kernel's score is this process's
        # the kernel kept each decision asked in the learner's progress file (this test's own)
        decided = [a for a in store.load(os.environ["LOO_PROGRESS"]).answers if a.kind == "task-decision"]
        assert [(list(a.rules), a.correct) for a in decided] == [(d["rules"], d["correct"]) for d in want["asked"]]
        assert all(a.where.back == TASK for a in decided)
