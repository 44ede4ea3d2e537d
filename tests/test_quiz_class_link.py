"""The class link in the built book (issue 16, Deliver 4): `#class=…` and a code typed before
the engine is live show "loading the class's questions" (never an error) and are dealt once it
is; "Use this code" deals any code on every lesson page with a quiz; a malformed `#class=`
(a stray `%`) is one line in the widget and the engine still comes; the seconds of each answer
are recorded in the live book and exported with the answers.

The engine's package zip is held back (the request waits in the route) to see the page before
the engine is live; served and built as in tests/test_live_book.py (its fixtures)."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
import test_live_book
from test_live_book import READY_MS, SITE, open_live

from loo_lessons import quiz
from loo_lessons.quiz.results import from_code

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, Route

#: the built site and its server, as tests/test_live_book.py makes them
site = test_live_book.site
server = test_live_book.server

QUIZ = '.loo-static[data-loo-component="quiz"]'
LESSON = "notebooks/05-leading.html"


def ids(code: str) -> list[str]:
    return [q.id for q in quiz.for_code(code)]


def quiz_ids(page: Page) -> list[str]:
    got: list[str] = page.evaluate(
        "() => { const w = (window.looLive || []).find(x => x.kind === 'quiz');"
        " const m = w ? w.model : window.looLessons.find(x => x.name === 'quiz').model;"
        " return m.get('questions').map(q => q.id); }"
    )
    return got


def open_held(
    browser: Browser, url: str, origin: str, block: str = ""
) -> tuple[Page, list[Route], list[str]]:
    """Open `url` with the engine's package held back until the test releases it (and any
    request ending with `block` refused)."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    held: list[Route] = []
    errors: list[str] = []

    def route(r: Route) -> None:
        u = r.request.url
        if not u.startswith((origin, "blob:", "data:")) or (block and u.endswith(block)):
            r.abort()
        elif u.endswith("/loo_lessons.zip"):
            held.append(r)
        else:
            r.continue_()

    ctx.route("**/*", route)
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(url)
    page.wait_for_selector(f"{QUIZ} .loo-class")
    return page, held, errors


def release_and_wait(page: Page, held: list[Route]) -> None:
    # loading, or (the package came from the service worker's cache, which a route does not
    # hold) already ready: what follows checks the state the pupil is left with either way
    page.wait_for_function(
        "() => window.looEngine && ['loading', 'ready'].includes(window.looEngine.state)"
    )
    deadline = 200
    while not held and deadline:  # the worker asks for the zip once Pyodide's files are in
        page.wait_for_timeout(100)
        deadline -= 1
    for r in held:
        r.continue_()
    page.wait_for_function(
        "() => [...document.querySelectorAll('[data-loo-live]')].every(e => e.dataset.looEngine === 'live')",
        timeout=READY_MS,
    )


def test_a_class_link_and_an_early_code_wait_for_the_engine(browser: Browser, server: str) -> None:
    page, held, errors = open_held(browser, f"{server}/{LESSON}#class=follow-3-2", server)
    try:
        box = page.locator(QUIZ).first
        loading = box.locator("[data-class-loading]")
        assert loading.get_attribute("data-class-loading") == "follow-3-2"
        assert "Loading the class's questions" in loading.inner_text()
        assert box.get_by_role("alert").count() == 0  # never an error while the engine loads
        # a code typed before the engine is live is kept (the box too), then dealt
        box.locator("[data-class-code]").fill("Must-4-9")
        box.locator('button[data-action="class-code"]').click()
        assert loading.get_attribute("data-class-loading") == "must-4-9"
        assert box.locator("[data-class-code]").input_value() == "Must-4-9"
        assert box.get_by_role("alert").count() == 0
        release_and_wait(page, held)
        page.wait_for_function(
            "want => JSON.stringify(window.looLive.find(x => x.kind === 'quiz').model.get('questions').map(q => q.id)) === want",
            arg=json.dumps(ids("must-4-9"), separators=(",", ":")),
            timeout=READY_MS,
        )
        live = page.locator(QUIZ).first
        assert live.locator("[data-class-loading]").count() == 0
        assert live.locator("[data-class-code]").input_value() == "must-4-9"
        assert live.locator(".loo-refused").count() == 0
        assert errors == []
    finally:
        page.context.close()


def test_use_this_code_and_the_seconds_in_the_live_book(browser: Browser, server: str) -> None:
    page, w = open_live(browser, f"{server}/{LESSON}", server)
    try:
        box = page.locator(QUIZ).first
        # the code already on screen: said so, nothing dealt again
        box.locator('button[data-action="class-code"]').click()
        assert box.locator("[data-class-note]").inner_text() == (
            "These are the questions of class code lead-6-5."
        )
        assert quiz_ids(page) == ids("lead-6-5")
        for code in ("lead-3-5", "trick-2-77"):  # one the page holds, one it does not
            box.locator("[data-class-code]").fill(code)
            box.locator('button[data-action="class-code"]').click()
            page.wait_for_function(
                "n => window.looLive.find(x => x.kind === 'quiz').model.get('questions').length === n",
                arg=len(ids(code)),
            )
            assert quiz_ids(page) == ids(code)
            assert box.locator(".loo-refused").count() == 0, box.locator(
                ".loo-refused"
            ).inner_text()
        # answer both questions (Python grades in the worker), then export
        box.locator("[data-pupil-name]").fill("Ada")
        for i, q in enumerate(quiz.for_code("trick-2-77")):
            page.wait_for_timeout(300)  # some time on each question
            for k in q.answer if q.multi else q.answer[:1]:
                box.locator(f'.loo-choices [data-key="{k}"]').first.click()
            if q.multi:
                box.locator('button[data-action="check"]').click()
            page.wait_for_function(
                "i => window.looLive.find(x => x.kind === 'quiz').model.get('responses')[i] !== null",
                arg=i,
            )
            box.locator('button[data-action="next"]').click()
        box.locator('button[data-action="export-code"]').click()
        sub = from_code(box.locator("[data-result-code]").input_value())
        assert sub.class_code == "trick-2-77" and list(sub.question_ids) == ids("trick-2-77")
        (attempt,) = sub.attempts
        assert all(a is not None for a in attempt.answers)
        # seconds really recorded (the worker answers after the click: noted when it does)
        assert all(s is not None and 0.2 <= s < 60 for s in attempt.seconds), attempt.seconds
        assert box.locator(".loo-refused").count() == 0
        w.check()
    finally:
        page.context.close()


def test_a_malformed_class_link_is_one_line_and_the_engine_comes(
    browser: Browser, server: str
) -> None:
    page, w = open_live(browser, f"{server}/{LESSON}#class=lead-10-42%", server)
    try:
        box = page.locator(QUIZ).first
        alert = box.get_by_role("alert")
        assert alert.count() == 1
        text = alert.inner_text()
        assert "#class=lead-10-42%" in text and "cannot be read" in text and "\n" not in text
        own = quiz_ids(page)
        assert len(own) == 6  # the page's own questions, live
        box.locator("[data-class-code]").fill("lead-2-1")
        box.locator("[data-class-code]").press("Enter")
        page.wait_for_function(
            "() => window.looLive.find(x => x.kind === 'quiz').model.get('questions').length === 2"
        )
        assert quiz_ids(page) == ids("lead-2-1") and box.get_by_role("alert").count() == 0
        w.check()
    finally:
        page.context.close()


def test_every_lesson_quiz_offers_the_class_code(site: Path) -> None:
    """Every lesson page with a quiz: the quiz has its class code (so the box and "Use this
    code" are shown) and is live (so Python deals any code)."""
    pages = sorted((SITE / "notebooks").glob("*.html"))
    with_quiz = 0
    for p in pages:
        text = p.read_text(encoding="utf-8")
        for m in re.finditer(
            r'data-loo-component="quiz"[^>]*data-loo-live="([^"]*)"[^>]*>'
            r'<script type="application/json" class="loo-state">(.*?)</script>',
            text,
        ):
            with_quiz += 1
            spec: dict[str, Any] = json.loads(html.unescape(m.group(1)))
            state: dict[str, Any] = json.loads(m.group(2))
            assert spec["kind"] == "quiz", p.name
            assert re.fullmatch(r"[a-z]+-\d+-\d+", state["data"].get("class_code") or ""), p.name
    assert with_quiz >= 14


@pytest.mark.xfail(
    strict=True,
    reason="known regression since the widget and results merges (closing note of 2026-12-01): "
    "the answer given on a code dealt before the engine came is lost when the engine takes over",
)
def test_a_code_dealt_before_the_engine_stays_when_it_comes(browser: Browser, server: str) -> None:
    """The address asks for a code the page does not hold; the pupil then types one it holds
    (dealt at once, in the page) and answers: once live, that code, the answer and its
    seconds are still there (the address's code is not dealt over them)."""
    page, held, errors = open_held(browser, f"{server}/{LESSON}#class=follow-3-2", server)
    try:
        box = page.locator(QUIZ).first
        assert box.locator("[data-class-loading]").count() == 1
        box.locator("[data-class-code]").fill("lead-3-5")
        box.locator("[data-class-code]").press("Enter")
        assert box.locator("[data-class-loading]").count() == 0
        assert quiz_ids(page) == ids("lead-3-5")
        q = quiz.for_code("lead-3-5")[0]
        page.wait_for_timeout(300)
        for k in q.answer if q.multi else q.answer[:1]:
            box.locator(f'.loo-choices [data-key="{k}"]').first.click()
        if q.multi:
            box.locator('button[data-action="check"]').click()
        release_and_wait(page, held)
        page.wait_for_timeout(500)  # a late deal of the address's code would land by now
        assert quiz_ids(page) == ids("lead-3-5")
        live = page.locator(QUIZ).first
        live.locator('button[data-action="export-code"]').count()  # not at the end yet
        first = page.evaluate(
            "() => window.looLive.find(x => x.kind === 'quiz').model.get('responses')[0]"
        )
        assert first is not None and first["correct"] is True
        seen = page.evaluate(
            "() => JSON.parse(document.querySelector('[data-loo-quiz-page]').getAttribute('data-loo-quiz-page'))"
        )
        assert seen["secondsTo"]["0"] >= 0.2 and seen["hashSeen"] is True
        assert live.locator(".loo-refused").count() == 0 and errors == []
    finally:
        page.context.close()


def test_a_waiting_code_is_refused_if_the_engine_cannot_start(
    browser: Browser, server: str
) -> None:
    page, _, errors = open_held(
        browser, f"{server}/{LESSON}#class=follow-3-2", server, block="/worker.js"
    )
    try:
        box = page.locator(QUIZ).first
        alert = box.get_by_role("alert")
        alert.wait_for()
        assert "does not hold the questions of class code follow-3-2" in alert.inner_text()
        assert box.locator("[data-class-loading]").count() == 0
        assert quiz_ids(page) == ids("lead-6-5")  # the page's own questions, still answerable
        assert not [e for e in errors if e.startswith("page error")]  # no URIError, nothing thrown
    finally:
        page.context.close()
