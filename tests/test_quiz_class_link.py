"""The class link in the built book (issue 16, Deliver 4): `#class=…` and a code typed before
the engine is live show "loading the class's questions" (never an error) and are dealt once it
is; "Use this code" deals any code on every lesson page with a quiz; a malformed `#class=`
(a stray `%`) is one line in the widget and the engine still comes; the seconds of each answer
are recorded in the live book and exported with the answers.

The engine's worker script is held back (the request waits in the route: no Python starts
until the test lets it through) to see the page before the engine is live; and the engine's
first controller is held back too, to answer while the engine takes the widget over. What
the page dealt and answered before is kept, graded again by the engine, with its seconds.
Served and built as in tests/test_live_book.py (its fixtures)."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import test_live_book
from test_live_book import READY_MS, SITE, open_live

from loo_lessons import quiz
from loo_lessons.quiz.results import Submission, from_code
from loo_lessons.widgets.static import decode_state

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


#: The engine's first quiz controller held back until `window.looOpen()`: the moment the engine
#: takes the quiz over (`window.looMade` counts the controllers made).
HOLD_QUIZ_CONTROLLER = (
    "() => { const e = window.looEngine; const create = e.create; window.looMade = 0;"
    " const gate = new Promise((r) => { window.looOpen = r; });"
    " e.create = async (kind, ...a) => { const out = await create(kind, ...a);"
    " if (kind === 'quiz') { window.looMade += 1; await gate; } return out; }; }"
)


def open_held(
    browser: Browser, url: str, origin: str, block: str = ""
) -> tuple[Page, list[Route], list[str]]:
    """Open `url` with the engine's worker script held back until the test releases it (and
    any request ending with `block` refused)."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    held: list[Route] = []
    errors: list[str] = []

    def route(r: Route) -> None:
        u = r.request.url
        if not u.startswith((origin, "blob:", "data:")) or (block and u.endswith(block)):
            r.abort()
        elif u.endswith("/loo-engine/worker.js"):
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


def release(page: Page, held: list[Route]) -> None:
    """Let the engine's worker start (it was asked for as the page opened)."""
    for _ in range(100):  # asked for as the page's head is read: there by now, or soon
        if held:
            break
        page.wait_for_timeout(100)
    assert page.evaluate("() => window.looEngine.state") == "loading"  # really before
    assert len(held) == 1
    held.pop().continue_()


def release_and_wait(page: Page, held: list[Route]) -> None:
    release(page, held)
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
            "These are the questions of class code lead-16-5."
        )
        assert quiz_ids(page) == ids("lead-16-5")
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
        assert len(own) == 16  # the page's own questions, live
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
            r'<script type="application/x-loo-state" class="loo-state">(.*?)</script>',
            text,
        ):
            with_quiz += 1
            spec: dict[str, Any] = decode_state(html.unescape(m.group(1)))
            state: dict[str, Any] = decode_state(m.group(2))
            assert spec["kind"] == "quiz", p.name
            assert re.fullmatch(r"[a-z]+-\d+-\d+", state["data"].get("class_code") or ""), p.name
    assert with_quiz >= 14


STATIC_QUIZ = "window.looLessons.find(x => x.name === 'quiz').model"
LIVE_QUIZ = "window.looLive.find(x => x.kind === 'quiz').model"


def answer_first(page: Page, code: str) -> None:
    """Answer the first question of `code` on screen (rightly), some time after it came."""
    box = page.locator(QUIZ).first
    q = quiz.for_code(code)[0]
    page.wait_for_timeout(300)
    for k in q.answer if q.multi else q.answer[:1]:
        box.locator(f'.loo-choices [data-key="{k}"]').first.click()
    if q.multi:
        box.locator('button[data-action="check"]').click()


def exported(page: Page) -> Submission:
    """On to the score (where the export is), then the result code."""
    page.evaluate(
        f"n => {{ const m = {LIVE_QUIZ}; for (let i = 0; i < n; i++) m.dispatch({{type: 'next'}}); }}",
        len(quiz_ids(page)),
    )
    box = page.locator(QUIZ).first
    box.locator('button[data-action="export-code"]').click()
    return from_code(box.locator("[data-result-code]").input_value())


def test_a_code_dealt_before_the_engine_stays_when_it_comes(browser: Browser, server: str) -> None:
    """The address asks for a code the page does not hold; the pupil then types one it holds
    (dealt at once, in the page) and answers, all before the engine's worker has even
    started: once live, that code and the answer are still there (the address's code is not
    dealt over them), the answer graded by the engine (the page's mark is not what counts:
    spoilt here, put right by it), and its seconds exported."""
    page, held, errors = open_held(browser, f"{server}/{LESSON}#class=follow-3-2", server)
    try:
        box = page.locator(QUIZ).first
        assert box.locator("[data-class-loading]").count() == 1
        box.locator("[data-class-code]").fill("lead-3-5")
        box.locator("[data-class-code]").press("Enter")
        assert box.locator("[data-class-loading]").count() == 0
        assert quiz_ids(page) == ids("lead-3-5")
        answer_first(page, "lead-3-5")
        page.evaluate(
            f"() => {{ const m = {STATIC_QUIZ}; const r = m.get('responses');"
            " m.set('responses', [{...r[0], correct: false}, ...r.slice(1)]); }"
        )
        release_and_wait(page, held)
        page.wait_for_timeout(500)  # a late deal of the address's code would land by now
        assert quiz_ids(page) == ids("lead-3-5")
        first = page.evaluate(f"() => {LIVE_QUIZ}.get('responses')[0]")
        assert first is not None and first["correct"] is True  # the engine's mark
        seen = page.evaluate(
            "() => JSON.parse(document.querySelector('[data-loo-quiz-page]').getAttribute('data-loo-quiz-page'))"
        )
        assert seen["secondsTo"]["0"] >= 0.2 and seen["hashSeen"] is True
        sub = exported(page)
        assert sub.class_code == "lead-3-5" and list(sub.question_ids) == ids("lead-3-5")
        (attempt,) = sub.attempts
        assert attempt.answers[0] is not None and attempt.seconds[0] == seen["secondsTo"]["0"]
        live = page.locator(QUIZ).first
        assert live.locator(".loo-refused").count() == 0 and errors == []
    finally:
        page.context.close()


def test_an_answer_given_while_the_engine_takes_over_is_kept(browser: Browser, server: str) -> None:
    """The engine is ready and is making the widget's controller from the page's state; the
    pupil answers in that moment (the first controller is held back until then): the
    controller made from the older state is dropped for one made from the newer, and the
    answer stays, graded by the engine (the page's one quiz; its other widgets come as
    usual)."""
    page, held, errors = open_held(browser, f"{server}/{LESSON}", server)
    try:
        page.evaluate(HOLD_QUIZ_CONTROLLER)
        release(page, held)
        page.wait_for_function("() => window.looMade === 1", timeout=READY_MS)
        assert page.locator(QUIZ).first.get_attribute("data-loo-engine") == "waiting"
        answer_first(page, "lead-16-5")  # in the page: the engine's controller is not there yet
        assert page.evaluate(f"() => {STATIC_QUIZ}.get('responses')[0]") is not None
        page.evaluate("() => window.looOpen()")
        page.wait_for_function(
            "() => [...document.querySelectorAll('[data-loo-live]')].every(e => e.dataset.looEngine === 'live')",
            timeout=READY_MS,
        )
        first = page.evaluate(f"() => {LIVE_QUIZ}.get('responses')[0]")
        q = quiz.for_code("lead-16-5")[0]
        assert first is not None, "the answer given while the engine took over is lost"
        assert first["picked"] == (list(q.answer) if q.multi else list(q.answer[:1]))
        assert first["correct"] is True
        assert page.evaluate("() => window.looMade") == 2  # made again from the newer state
        sub = exported(page)
        assert sub.attempts[0].answers[0] is not None and (sub.attempts[0].seconds[0] or 0) >= 0.2
        assert page.locator(QUIZ).first.locator(".loo-refused").count() == 0 and errors == []
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
        assert quiz_ids(page) == ids("lead-16-5")  # the page's own questions, still answerable
        assert not [e for e in errors if e.startswith("page error")]  # no URIError, nothing thrown
    finally:
        page.context.close()


# --- the class link whatever the pupil had open (issue 24) -----------------------------------


def _wait_for_code(page: Page, code: str) -> None:
    page.wait_for_function(
        "want => { const w = (window.looLive || []).find(x => x.kind === 'quiz');"
        " return !!w && w.el.dataset.looEngine !== 'waiting'"
        " && JSON.stringify(w.model.get('questions').map(q => q.id)) === want; }",
        arg=json.dumps(ids(code), separators=(",", ":")),
        timeout=READY_MS,
    )


def test_a_class_link_opened_beside_a_live_lesson_is_dealt(browser: Browser, server: str) -> None:
    """The engine already up for the visit (lesson 1 live in another tab: one engine, shared):
    a class link opened then is dealt, never refused as early or late, every time; and the
    code stays after the engine has taken the quiz over (not the lesson's own questions)."""
    page, w = open_live(browser, f"{server}/notebooks/01-welcome.html", server)
    try:
        for code in ("lead-10-42", "lead-7-3", "lead-8-11"):
            tab = page.context.new_page()
            tab.goto(f"{server}/{LESSON}#class={code}")
            _wait_for_code(tab, code)
            tab.wait_for_function(
                "() => [...document.querySelectorAll('[data-loo-live]')].every(e => e.dataset.looEngine === 'live')",
                timeout=READY_MS,
            )
            _wait_for_code(tab, code)
            box = tab.locator(QUIZ).first
            assert box.get_by_role("alert").count() == 0, box.get_by_role("alert").all_inner_texts()
            assert box.locator("[data-class-code]").input_value() == code
            tab.close()
        w.check()
    finally:
        page.context.close()


def test_a_class_link_followed_on_an_open_page_is_dealt(browser: Browser, server: str) -> None:
    """A pupil already on the lesson follows the teacher's link to it (only the address's
    fragment changes, no new page): the class's questions come."""
    page, w = open_live(browser, f"{server}/{LESSON}", server)
    try:
        page.evaluate("() => { location.hash = '#class=lead-9-4'; }")
        _wait_for_code(page, "lead-9-4")
        assert page.locator(QUIZ).first.get_by_role("alert").count() == 0
        page.evaluate("() => { location.hash = '#class=lead-%zz'; }")  # a broken link: one line
        page.locator(QUIZ).first.get_by_role("alert").wait_for()
        assert quiz_ids(page) == ids("lead-9-4")  # and the quiz keeps what it had
        w.check()
    finally:
        page.context.close()


def test_a_code_typed_while_the_engine_takes_over_is_dealt(browser: Browser, server: str) -> None:
    """The engine is ready and making the quiz's controller (held back), the pupil types a
    code in that moment: it is kept, and dealt once the quiz is live, not replaced by the
    lesson's own questions."""
    page, held, errors = open_held(browser, f"{server}/{LESSON}", server)
    try:
        page.evaluate(HOLD_QUIZ_CONTROLLER)
        release(page, held)
        page.wait_for_function("() => window.looMade === 1", timeout=READY_MS)
        assert page.evaluate("() => window.looEngine.state") == "ready"
        box = page.locator(QUIZ).first
        box.locator("[data-class-code]").fill("lead-10-42")
        box.locator('button[data-action="class-code"]').click()
        assert box.get_by_role("alert").count() == 0  # not refused for being early
        page.evaluate("() => window.looOpen()")
        _wait_for_code(page, "lead-10-42")
        assert page.locator(QUIZ).first.get_by_role("alert").count() == 0 and errors == []
    finally:
        page.context.close()


#: Every refusal the class bar ever shows on the page, kept as it appears (set before the page
#: is read): a refusal shown for a moment and then put right is still a refusal.
ALERTS = """window.looAlerts = [];
new MutationObserver(() => {
  for (const a of document.querySelectorAll('.loo-class [role=alert]')) window.looAlerts.push(a.textContent);
}).observe(document, { subtree: true, childList: true });"""


def test_a_class_link_after_the_engine_is_live_in_another_tab(browser: Browser, server: str) -> None:
    """Issue 24: lesson 1 open with the engine live; the class link opened in a second tab of
    the same visit, whose engine (shared) is ready before the page is read: the code is dealt,
    never refused; a link then followed on the open page (`hashchange`) is dealt too."""
    first, _ = open_live(browser, f"{server}/notebooks/01-welcome.html", server)
    try:
        page = first.context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
        page.add_init_script(ALERTS)
        page.goto(f"{server}/{LESSON}#class=lead-10-42")
        _wait_for_code(page, "lead-10-42")
        assert page.evaluate("() => window.looEngine.warm") is True  # really after: Python was up
        live = page.locator(QUIZ).first
        assert live.locator("[data-class-code]").input_value() == "lead-10-42"
        page.evaluate("() => { location.hash = 'class=follow-3-2'; }")
        _wait_for_code(page, "follow-3-2")
        assert live.locator("[data-class-code]").input_value() == "follow-3-2"
        assert page.evaluate("() => window.looAlerts") == [] and errors == []
    finally:
        first.context.close()


def test_a_link_and_a_typed_code_while_the_engine_takes_over(browser: Browser, server: str) -> None:
    """The engine is ready and is making the quiz's controller (held back): a link followed
    then, and a code typed after it, wait for the controller (never refused, never replaced by
    the page's own code), and the last one is dealt once the widget is live."""
    page, held, errors = open_held(browser, f"{server}/{LESSON}", server)
    try:
        page.evaluate(ALERTS)
        page.evaluate(HOLD_QUIZ_CONTROLLER)
        release(page, held)
        page.wait_for_function("() => window.looMade === 1", timeout=READY_MS)
        assert page.evaluate("() => window.looEngine.state") == "ready"
        box = page.locator(QUIZ).first
        loading = box.locator("[data-class-loading]")
        page.evaluate("() => { location.hash = 'class=follow-3-2'; }")
        loading.wait_for()
        assert loading.get_attribute("data-class-loading") == "follow-3-2"
        box.locator("[data-class-code]").fill("must-4-9")
        box.locator('button[data-action="class-code"]').click()
        assert loading.get_attribute("data-class-loading") == "must-4-9"
        page.evaluate("() => window.looOpen()")
        _wait_for_code(page, "must-4-9")
        live = page.locator(QUIZ).first
        assert live.locator("[data-class-loading]").count() == 0
        assert live.locator("[data-class-code]").input_value() == "must-4-9"
        assert page.evaluate("() => window.looAlerts") == [] and errors == []
    finally:
        page.context.close()


def test_a_waiting_code_is_refused_if_the_engine_cannot_take_the_quiz(
    browser: Browser, server: str
) -> None:
    """The engine starts but refuses to make the quiz's controller: a code kept for it is
    refused in one line, as a page without the engine would, not left loading."""
    page, held, errors = open_held(browser, f"{server}/{LESSON}#class=follow-3-2", server)
    try:
        page.evaluate(
            "() => { const e = window.looEngine; const create = e.create;"
            " e.create = (kind, ...a) => kind === 'quiz' ? Promise.resolve({ error: 'stub refused' }) : create(kind, ...a); }"
        )
        box = page.locator(QUIZ).first
        assert box.locator("[data-class-loading]").get_attribute("data-class-loading") == "follow-3-2"
        release(page, held)
        alert = box.get_by_role("alert")
        alert.wait_for(timeout=READY_MS)
        assert "does not hold the questions of class code follow-3-2" in alert.inner_text()
        assert box.locator("[data-class-loading]").count() == 0
        assert box.get_attribute("data-loo-engine") == "error"
        assert not [e for e in errors if e.startswith("page error")]
    finally:
        page.context.close()
