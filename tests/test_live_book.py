"""The built book with its engine in the page: Pyodide in a Web Worker runs the very Python
controllers that JupyterLab's kernel runs (loo_lessons.widgets.controllers), behind the same
components.

The site is built once for the whole run (tests/_book_site.py: scripts/build-book.sh unless
book/_build/html is newer than its sources), served by `python -m http.server` on 127.0.0.1 (its own process group, stopped by
its pid), and opened in Chromium. Every page checked: the engine says it is ready, no
request leaves 127.0.0.1 (the worker's included), and no console error. Then by clicking:
an option explorer's verdict changes when the preset or an option changes; "New questions"
deals new questions; a whole hand against the bots is played to its settlement, with the
hint and undo; the presenter's full-screen mode fits a projector's 1280×720 and 1920×1080;
from file:// the live controls say that the book wants a web server; the declarations
explorer (lessons 3 and 4) answers in the page; keyboard focus stays in the play widget
after a move; and over every page of the book, no note sends the reader to JupyterLab and
no enabled button in a widget is dead (the first and the last of each widget, clicked).
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from loo_lessons import lessons as L

if TYPE_CHECKING:
    from _tour import Visit
    from playwright.sync_api import Browser, BrowserContext, Locator, Page, Request, Route

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "book" / "_build" / "html"
ENGINE = SITE / "_static" / "loo-engine"
#: Generous: the engine loads in a few seconds; the machine may be busy (speed is `bench`'s).
READY_MS = 90_000


@pytest.fixture(scope="module")
def site() -> Path:
    from _book_site import built_site  # one build for the whole run

    return built_site()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server(site: Path) -> Iterator[str]:
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", str(site)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # its own process group: stopped by its pid below
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}"
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=10)


@dataclass
class Watch:
    origin: str
    external: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def check(self) -> None:
        assert self.external == [], f"requests to other hosts: {self.external[:5]}"
        assert all(r.startswith((self.origin, "blob:", "data:")) for r in self.requests)
        assert self.errors == [], f"console errors: {self.errors[:5]}"


def block_other_hosts(ctx: BrowserContext, origin: str, blocked: list[str]) -> None:
    """Every request of `ctx` that leaves `origin` (blob: and data: stay in the page) is
    refused and written down in `blocked`."""

    def route(r: Route) -> None:
        if r.request.url.startswith((origin, "blob:", "data:")):
            r.continue_()
        else:
            blocked.append(r.request.url)
            r.abort()

    ctx.route("**/*", route)


def open_live(
    browser: Browser, url: str, origin: str, *, width: int = 1280, height: int = 900
) -> tuple[Page, Watch]:
    """Open `url` with every request outside `origin` blocked and recorded (the page's and
    the worker's), and wait until every live widget is live."""
    w = Watch(origin)
    ctx = browser.new_context(viewport={"width": width, "height": height}, accept_downloads=True)

    def seen(req: Request) -> None:
        w.requests.append(req.url)

    block_other_hosts(ctx, origin, w.external)
    ctx.on("request", seen)
    page = ctx.new_page()
    page.on("console", lambda m: w.errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: w.errors.append(f"page error: {e}"))
    page.on("worker", lambda wk: wk.on("console", lambda m: w.errors.append(m.text) if m.type == "error" else None))
    page.goto(url)
    page.wait_for_function(
        "() => document.querySelectorAll('[data-loo-live]').length > 0 && "
        "[...document.querySelectorAll('[data-loo-live]')].every(e => e.dataset.looEngine === 'live')",
        timeout=READY_MS,
    )
    return page, w


def live_data(page: Page, kind: str, index: int = 0) -> dict[str, Any]:
    """What Python last sent to the `index`-th live widget of this kind (its `data`)."""
    out: dict[str, Any] = page.evaluate(
        "([kind, i]) => window.looLive.filter(w => w.kind === kind)[i].model.get('data')",
        [kind, index],
    )
    return out


# --- every page ------------------------------------------------------------------------------


def test_every_lesson_page_gets_its_engine_with_nothing_from_other_hosts(tour: dict[str, Visit]) -> None:
    lessons = {name: v for name, v in tour.items() if name.startswith("notebooks/")}
    assert len(lessons) >= 14
    for name, v in lessons.items():
        assert v.live and v.status and all("Live" in s for s in v.status), (name, v.status)
        assert v.engine == "ready", name
        v.watch.check()


def test_pages_without_live_widgets_do_not_load_the_engine(browser: Browser, server: str) -> None:
    w = Watch(server)
    ctx = browser.new_context()
    ctx.on("request", lambda r: w.requests.append(r.url))
    page = ctx.new_page()
    try:
        page.goto(f"{server}/book/glossary.html")
        page.wait_for_load_state("load")
        assert not any("loo-engine" in r for r in w.requests)
    finally:
        ctx.close()


# --- the widgets, clicked -----------------------------------------------------------------------


def test_an_option_explorer_changes_its_verdict_and_reason(browser: Browser, server: str) -> None:
    page, w = open_live(browser, f"{server}/notebooks/06-following.html", server)
    try:
        box = page.locator('.loo-static[data-loo-component="explore"]').first
        verdict = box.locator(".loo-explore-verdict")
        before = verdict.get_attribute("data-answer")
        before_text = verdict.inner_text()
        assert before and "R" in before_text
        original = {
            sel.get_attribute("data-key"): sel.evaluate("s => s.options[s.selectedIndex].text")
            for sel in box.locator("select[data-key^='explore-']").all()
        }
        preset = box.locator('select[data-key="explore-preset"]')
        current = preset.evaluate("s => s.options[s.selectedIndex].text")
        other = "peel" if current != "peel" else "hoffmann"
        preset.select_option(label=other)
        page.wait_for_function(
            "([el, a]) => el.querySelector('.loo-explore-verdict').dataset.answer !== a",
            arg=[box.element_handle(), before],
        )
        after_text = verdict.inner_text()
        assert verdict.get_attribute("data-answer") != before and after_text != before_text
        # the reason changes too: some rule id is cited under one book and not the other
        import re

        def ids(t: str) -> set[str]:
            return set(re.findall(r"\bR\d\d\b", t))

        assert ids(after_text) != ids(before_text)
        # each option set back to what it was, one select at a time: the verdict follows the
        # options (not the preset's name) and comes back to the first one
        for sel in box.locator("select[data-key^='explore-']:not([data-key='explore-preset'])").all():
            key = sel.get_attribute("data-key")
            was = original[key]
            if sel.evaluate("s => s.options[s.selectedIndex].text") != was:
                sel.select_option(label=was)
                page.wait_for_function(
                    "([el, k, v]) => String(window.looLive.find(x => x.el === el).model.get('rules')[k]) === v",
                    # (the select shows the value as a reader says it: "only if heads")
                    arg=[box.element_handle(), str(key).removeprefix("explore-"), was.replace(" ", "_")],
                )
        assert verdict.get_attribute("data-answer") == before
        # the playground's call: `explain` on a scenario typed in the page, by the same engine
        said = page.evaluate(
            "t => looEngine.run('explain', {text: t})", L.scenario_text("lead-king-when-ace-turned")
        )
        assert said["ok"] and "R24" in said["text"] and said["json"]["legal"] == ["KS"]
        assert "<blockquote" in said["html"]  # the playground shows quotations, not a dump
        refused = page.evaluate("() => looEngine.run('explain', {text: 'players: 0'})")
        assert not refused["ok"] and refused["error"].startswith("error: players: ")
        w.check()
    finally:
        page.context.close()


def test_new_questions_deals_new_seeded_questions(browser: Browser, server: str) -> None:
    page, w = open_live(browser, f"{server}/notebooks/05-leading.html", server)
    try:
        quiz = page.locator('.loo-static[data-loo-component="quiz"]').first
        idx = page.evaluate(
            "el => window.looLive.findIndex(x => x.el === el)", quiz.element_handle()
        )
        def ids() -> Any:
            return page.evaluate(
                "i => window.looLive[i].model.get('questions').map(q => q.id)", idx
            )

        first = ids()
        # one question answered ("Show the answer", graded by the Python controller)
        quiz.locator('button[data-action="show"]').first.click()
        page.wait_for_function(
            "i => window.looLive[i].model.get('responses')[0] !== null", arg=idx
        )
        quiz.locator('button[data-action="new"]').first.click()
        page.wait_for_function(
            "([i, ids]) => JSON.stringify(window.looLive[i].model.get('questions').map(q => q.id)) !== JSON.stringify(ids)",
            arg=[idx, first],
        )
        second = ids()
        assert second != first and len(second) == len(first)
        assert page.evaluate("i => window.looLive[i].model.get('responses')", idx) == [None] * len(second)
        w.check()
    finally:
        page.context.close()


def test_a_whole_hand_against_the_bots_by_clicks_with_hint_and_undo(
    browser: Browser, server: str
) -> None:
    page, w = open_live(browser, f"{server}/notebooks/12-play-a-hand.html", server)
    try:
        table = page.locator('.loo-live-widget[data-loo-engine="live"] .loo-static[data-loo-component="play"]').first
        idx = page.evaluate("el => window.looLive.findIndex(x => x.el === el)", table.element_handle())

        def data() -> dict[str, Any]:
            out: dict[str, Any] = page.evaluate("i => window.looLive[i].model.get('data')", idx)
            return out

        def moves() -> int:
            return len(data()["log"])

        def click_and_wait(locator: Any) -> None:
            n = moves()
            locator.click()
            page.wait_for_function(
                "([i, n]) => window.looLive[i].model.get('data').log.length !== n", arg=[idx, n]
            )

        d = data()
        if d["over"] or d["can_undo"]:  # the lesson may show the table mid-deal: start over
            table.locator('button[data-action="restart"]').click()
        assert data()["my_turn"]
        # a forbidden option, when there is one, is explained at once by the engine's rule
        forbidden = [c for c in data()["choices"] if not c["legal"]]
        if forbidden:
            table.locator(f'.loo-choices [data-key="{forbidden[0]["key"]}"]').click()
            page.wait_for_selector(f'.loo-verdict[data-verdict="{forbidden[0]["key"]}"]')
        table.locator('button[data-action="hint"]').click()
        table.locator(".loo-hint").wait_for()
        assert "You may" in table.locator(".loo-hint").inner_text()
        legal = next(c["key"] for c in data()["choices"] if c["legal"])
        click_and_wait(table.locator(f'.loo-choices [data-key="{legal}"]'))
        assert data()["can_undo"]
        click_and_wait(table.locator('button[data-action="undo"]'))
        assert not data()["can_undo"]
        for _ in range(12):
            d = data()
            if d["over"]:
                break
            legal = next(c["key"] for c in d["choices"] if c["legal"])
            click_and_wait(table.locator(f'.loo-choices [data-key="{legal}"]'))
        table.locator(".loo-settlement").wait_for()
        text = table.locator(".loo-settlement").inner_text()
        assert "Your result this deal" in text and "R" in text
        # "Save transcript" in the book (folded under the table): the page downloads the JSON
        # (nothing is sent anywhere)
        table.locator(".loo-fold-save > summary").click()
        with page.expect_download() as dl:
            table.locator('button[data-action="save"]').click()
        saved = json.loads(Path(dl.value.path()).read_text(encoding="utf-8"))
        assert len(saved["actions"]) == len(data()["log"]) or saved["actions"]
        w.check()
    finally:
        page.context.close()


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_the_presenter_full_screen_fits_a_projector(
    browser: Browser, server: str, size: tuple[int, int]
) -> None:
    width, height = size
    page, w = open_live(browser, f"{server}/notebooks/13-edge-cases.html", server, width=width, height=height)
    try:
        pres = page.locator('.loo-static[data-loo-component="present"]').first
        pres.locator('button[data-action="fullscreen"]').click()
        root = pres.locator(".loo.loo-fullscreen")
        root.wait_for()
        for step in range(4):
            page.wait_for_function("el => el.dataset.fit", arg=root.element_handle())
            page.wait_for_timeout(50)  # one frame for the fit
            box = {"x": 0, "y": 0, "width": width, "height": height}
            inside = page.evaluate(
                """([root, box]) => {
                  const within = (el) => { const r = el.getBoundingClientRect();
                    return r.width > 0 && r.left >= box.x - 1 && r.top >= box.y - 1 &&
                      r.right <= box.width + 1 && r.bottom <= box.height + 1; };
                  const need = [...root.querySelectorAll('.loo-step-title, .loo-law, .loo-seat .loo-card, .loo-controls')];
                  return { n: need.length, out: need.filter((e) => !within(e)).map((e) => e.className),
                           cards: root.querySelectorAll('.loo-seat .loo-card').length,
                           scroll: root.scrollHeight <= root.clientHeight + 1 };
                }""",
                [root.element_handle(), box],
            )
            assert inside["out"] == [] and inside["scroll"], (step, inside)
            assert inside["cards"] >= 3
            root.press("ArrowRight")  # the keys step the deal
            page.wait_for_function(
                "([el, s]) => +el.querySelector('.loo-stepno').dataset.step === s",
                arg=[root.element_handle(), step + 1],
            )
        root.press("Escape")
        page.wait_for_function("el => !el.querySelector('.loo-fullscreen')", arg=pres.element_handle())
        w.check()
    finally:
        page.context.close()


def test_from_file_the_live_controls_ask_for_a_web_server(browser: Browser, site: Path) -> None:
    ctx = browser.new_context()
    external: list[str] = []
    def only_files(r: Route) -> None:
        if r.request.url.startswith("file://"):
            r.continue_()
        else:
            external.append(r.request.url)
            r.abort()

    ctx.route("**/*", only_files)
    page = ctx.new_page()
    try:
        page.goto((site / "notebooks" / "05-leading.html").as_uri())
        page.wait_for_selector('.loo-engine-status[data-state="file"]')
        assert "make serve-book" in page.locator(".loo-engine-status").first.inner_text()
        # the static components still grade
        pick = page.locator('.loo-static[data-loo-component="pick"]').first
        pick.locator(".loo-choices [data-key]").first.click()
        pick.locator('button[data-action="check"]').click()  # every pick is graded on Check
        pick.locator(".loo-answer").wait_for()
        assert external == []
    finally:
        ctx.close()


def test_the_strategy_lab_runs_in_the_page_with_a_progress_bar(browser: Browser, server: str) -> None:
    page, w = open_live(browser, f"{server}/notebooks/14-strategy-lab.html", server)
    try:
        lab = page.locator('.loo-static[data-loo-component="lab"]').first
        first = lab.locator(".loo-lab-result").get_attribute("data-hands")
        lab.locator('input[data-key="hands"]').fill("240")
        lab.locator('select[data-key="by"]').select_option("position")
        seen: list[Any] = page.evaluate(
            """(el) => { const w = window.looLive.find((x) => x.el === el); const out = [];
                 w.model.on("change:progress", (m, p) => out.push(p)); window.__labSeen = out; return out; }""",
            lab.element_handle(),
        )
        assert seen == []
        lab.locator('button[data-action="run"]').click()
        lab.locator('.loo-lab-result[data-hands="240"]').wait_for(timeout=READY_MS)
        progress = page.evaluate("window.__labSeen")
        # the bar moved while the hands were played (Python posted how far it got)
        assert any(0 < p["done"] < p["total"] for p in progress if p["total"] == 240), progress
        assert lab.locator(".loo-lab-result").get_attribute("data-hands") != first
        rows = lab.locator(".loo-lab-table tbody tr").all_inner_texts()
        assert rows and rows[0].startswith("seat 1")
        assert lab.locator("svg.loo-lab-plot rect[data-bar]").count() == 2 * len(rows)
        w.check()
    finally:
        page.context.close()


def test_the_edge_case_search_and_the_comparison_answer_in_the_page(browser: Browser, server: str) -> None:
    page, w = open_live(browser, f"{server}/notebooks/13-edge-cases.html", server)
    try:
        box = page.locator('.loo-static[data-loo-component="search"]').first
        box.locator('select[data-key="name"]').select_option("single")
        box.locator('input[data-key="count"]').fill("300")
        box.locator('button[data-action="find"]').click()
        box.locator(".loo-search-found", has_text="single: seed").wait_for()
        assert "players:" in (box.locator("pre.loo-yaml").text_content() or "")
        box.locator('input[data-key="compare-seed"]').fill("0")
        box.locator('button[data-action="compare"]').click()
        box.locator('.loo-search-compare[data-seed="0"]').wait_for()
        assert "R33" in box.locator(".loo-search-compare").inner_text()
        w.check()
    finally:
        page.context.close()


def test_a_stepper_deals_a_new_hand_in_the_page(browser: Browser, server: str) -> None:
    page, w = open_live(browser, f"{server}/notebooks/03-declaring.html", server)
    try:
        st = page.locator('.loo-static[data-loo-component="stepper"]').first
        st.locator('input[data-key="deal-seed"]').fill("77")
        st.locator('button[data-action="deal"]').click()
        st.locator("h3", has_text="Seed 77").wait_for()
        st.locator('button[data-action="next"]').click()
        st.locator('[data-step="1"]').wait_for()
        w.check()
    finally:
        page.context.close()


def test_the_declarations_explorer_answers_in_the_page(browser: Browser, server: str) -> None:
    page, w = open_live(browser, f"{server}/notebooks/03-declaring.html", server)
    try:
        box = page.locator('.loo-static[data-loo-component="explore"]', has=page.locator("select[data-key^='explore-seat-']")).first
        def verdict() -> Locator:
            return box.locator(".loo-explore-verdict")

        first = box.locator("select[data-key^='explore-seat-']").first
        seat = str(first.get_attribute("data-key")).removeprefix("explore-seat-")
        before = verdict().get_attribute("data-answer")
        assert before and box.locator("select:disabled").count() == 0  # live
        first.select_option(label="take miss")
        page.wait_for_function(
            "([el, a]) => { const v = el.querySelector('.loo-explore-verdict'); return v && v.dataset.answer !== a; }",
            arg=[box.element_handle(), before],
        )
        assert "take_miss" not in str(verdict().get_attribute("data-answer"))
        # a second taker of the one miss: the engine refuses the position, with its rule
        others = box.locator(f"select[data-key^='explore-seat-']:not([data-key='explore-seat-{seat}'])")
        if others.count():
            others.first.select_option(label="take miss")
            box.locator('.loo-explore-verdict[data-kind="refused"]').wait_for()
            assert "R09" in verdict().inner_text()
        w.check()
    finally:
        page.context.close()


def test_keyboard_focus_stays_in_the_play_widget_after_a_move(browser: Browser, server: str) -> None:
    page, w = open_live(browser, f"{server}/notebooks/12-play-a-hand.html", server)
    try:
        table = page.locator('.loo-live-widget[data-loo-engine="live"] .loo-static[data-loo-component="play"]').first
        idx = page.evaluate("el => window.looLive.findIndex(x => x.el === el)", table.element_handle())
        inside = "el => el.contains(document.activeElement) && document.activeElement !== document.body"
        d = page.evaluate("i => window.looLive[i].model.get('data')", idx)
        if d["over"] or d["can_undo"]:
            table.locator('button[data-action="restart"]').focus()
            page.keyboard.press("Enter")
            page.wait_for_function("i => !window.looLive[i].model.get('data').can_undo", arg=idx)
        for _ in range(3):  # three moves by the keyboard alone
            d = page.evaluate("i => window.looLive[i].model.get('data')", idx)
            if d["over"]:
                break
            legal = next(c["key"] for c in d["choices"] if c["legal"])
            n = len(d["log"])
            table.locator(f'.loo-choices [data-key="{legal}"]').focus()
            page.keyboard.press("Enter")
            page.wait_for_function("([i, n]) => window.looLive[i].model.get('data').log.length !== n", arg=[idx, n])
            page.wait_for_timeout(50)  # the redraw is a microtask after the answer
            assert table.evaluate(inside), page.evaluate("document.activeElement.outerHTML.slice(0, 200)")
        # the hint button keeps the focus when pressed (its label changes)
        table.locator('button[data-action="hint"]').focus()
        page.keyboard.press("Enter")
        table.locator(".loo-hint").wait_for()
        assert table.evaluate(inside)
        assert page.evaluate("document.activeElement.dataset.action") == "hint"
        w.check()
    finally:
        page.context.close()


# --- every page: no "JupyterLab only" note, no dead control --------------------------------------


def test_every_page_has_no_jupyterlab_note_and_no_dead_control(tour: dict[str, Visit]) -> None:
    assert len(tour) >= 20 and "book/playground.html" in tour
    for name, v in tour.items():
        # no note sends the reader to JupyterLab: not in a live-note, not in a widget
        assert "run this lesson in JupyterLab" not in v.said and "need the live engine" not in v.said, name
        assert v.jupyterlab == [], (name, v.jupyterlab)
    dead = [d for v in tour.values() for d in v.dead]
    assert dead == [], dead


def test_axe_finds_no_violation_on_any_page(tour: dict[str, Visit]) -> None:
    """axe-core (from node_modules, installed by `npm ci`) finds no violation of WCAG 2.x A or
    AA on any page (with "label in name", which axe counts as experimental, switched on)."""
    assert len(tour) >= 20
    bad = {name: v.axe for name, v in tour.items() if v.axe}
    assert bad == {}, bad


def test_a_pupil_on_a_phone(browser: Browser, server: str) -> None:
    """Issue 23: at 360×740 a lesson page scrolls only down, every control is a 44-px tap
    target, the cards stay legible, and a pick and a task are played there."""
    from _browser import SHOTS

    page, w = open_live(browser, f"{server}/notebooks/05-leading.html", server, width=360, height=740)
    try:
        look = page.evaluate(
            """() => {
              const doc = document.documentElement;
              const small = [...document.querySelectorAll('.loo button, .loo select, .loo input, .loo [role=button]')]
                .filter(e => e.getClientRects().length)
                .map(e => [e.textContent.trim().slice(0, 20) || e.getAttribute('aria-label'), e.getBoundingClientRect()])
                .filter(([, r]) => r.width < 44 || r.height < 44).map(([t, r]) => `${t} ${Math.round(r.width)}x${Math.round(r.height)}`);
              const cards = [...document.querySelectorAll('.loo .loo-card')].filter(e => e.getClientRects().length)
                .map(e => e.getBoundingClientRect().width);
              return {sideways: doc.scrollWidth - doc.clientWidth, small, card: Math.min(...cards)};
            }"""
        )
        assert look["sideways"] <= 0, f"the page scrolls sideways by {look['sideways']} px"
        assert look["small"] == [], f"tap targets under 44 px: {look['small'][:5]}"
        assert look["card"] >= 40, f"cards {look['card']} px wide"
        # a pick: a choice, then Check; its verdict comes
        pick = page.locator('.loo-static[data-loo-component="pick"]').first
        pick.locator(".loo-choices [data-key]").first.click()
        pick.locator('button[data-action="check"]').click()
        pick.locator(".loo-answer").wait_for()
        # a task: the learner's own cards in his seat, one chosen, the table answers
        task = page.locator('.loo-static[data-loo-component="play"]').first
        task.scroll_into_view_if_needed()
        before = live_data(page, "play")["log"]
        task.locator(".loo-own [data-key], .loo-seat-own [data-key]").first.click()
        page.wait_for_function(
            "n => { const w = window.looLive.find(x => x.kind === 'play'); const d = w.model.get('data');"
            " return d.log.length !== n || !!d.error || !!w.model.get('tried'); }",
            arg=len(before),
        )
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "phone_lesson05.png"))
        w.check()
    finally:
        page.context.close()
