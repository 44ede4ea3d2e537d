"""The book's Practice page (issue 35) in Chromium at 360×740: visited once, then offline
(the server gone, the browser offline), a class link `#practice=R24,R32` serves those rules
by keyboard, one item on one screen; the answers are kept in this browser as loo-progress/1
and outlive a reload; the progress page shows them rule by rule, downloads them as a file
Python reads back, and refuses a damaged file in one line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from _book_site import built_site

from loo_lessons.progress.practice import item_id
from loo_lessons.progress.record import loads
from loo_lessons.quiz.model import Question

if TYPE_CHECKING:
    from playwright.sync_api import Browser, FilePayload, Page, ViewportSize

PHONE: ViewportSize = {"width": 360, "height": 740}
LIVE = "() => [...document.querySelectorAll('[data-loo-live]')].every(e => e.dataset.looEngine === 'live')"
ITEM = "() => !!document.querySelector('.loo-practice-item')"
READY_MS = 120_000


@pytest.fixture(scope="module")
def site() -> Path:
    return built_site()


def _data(page: Page) -> dict[str, Any]:
    out: dict[str, Any] = page.evaluate("() => window.looLive.find((w) => w.kind === 'practice').model.get('data')")
    return out


def _answer_by_keyboard(page: Page, wrong: bool) -> None:
    """Select (a wrong choice, or every right one) by Tab and Space, then Check by Enter."""
    q = _data(page)["item"]["question"]
    keys = [c["key"] for c in q["choices"] if not q["verdicts"][c["key"]]["correct"]][:1] if wrong else q["answer"]
    if not keys:
        keys = q["answer"][:-1] or ["?"]
    for k in keys:
        page.focus(f'.loo-practice-item .loo-choices [data-key="{k}"]')
        page.keyboard.press("Space")
        page.wait_for_function(f"() => document.querySelector('.loo-practice-item .loo-choices [data-key=\"{k}\"]').getAttribute('aria-pressed') === 'true'")
    page.focus("[data-action=check]")
    page.keyboard.press("Enter")
    page.wait_for_selector(".loo-answer")


def test_the_practice_page_offline_on_a_phone(browser: Browser, site: Path) -> None:
    from loo_lessons.cli.bench_browser import SW_READY, serve

    ctx = browser.new_context(viewport=PHONE, device_scale_factor=2, has_touch=True)
    errors: list[str] = []
    try:
        with serve(site) as origin:
            first = ctx.new_page()
            first.goto(f"{origin}/book/practice.html")
            first.wait_for_function(LIVE, timeout=READY_MS)
            first.wait_for_function(ITEM, timeout=READY_MS)
            assert first.evaluate(SW_READY) is True
            first.close()
        ctx.set_offline(True)  # and the server is gone
        page = ctx.new_page()
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{origin}/book/practice.html#practice=R24,R32")
        page.wait_for_function(LIVE, timeout=READY_MS)
        page.wait_for_function("() => { const w = (window.looLive || []).find((x) => x.kind === 'practice');"
                               " const d = w && w.model.get('data'); return !!(d && d.rules && d.item); }", timeout=READY_MS)
        d = _data(page)
        assert d["rules"] == ["R24", "R32"] and d["item"]["rule"] in ("R24", "R32")
        # one item, one screen: the prompt, the choices and Check within 360×740 below the
        # page's header bar, no sideways scroll
        box = page.evaluate(
            """() => { const r = (s) => document.querySelector(s).getBoundingClientRect();
                       const a = r('[data-loo-component=practice]'), b = r('[data-action=check]');
                       const bar = document.querySelector('.bd-header');
                       return {top: a.top, bottom: b.bottom, bar: bar ? bar.getBoundingClientRect().height : 0,
                               width: document.documentElement.scrollWidth}; }"""
        )
        assert box["bottom"] - box["top"] + box["bar"] <= PHONE["height"], box
        assert box["width"] <= PHONE["width"], box
        # by keyboard: a wrong answer, marked, its rule coming back on a new position
        _answer_by_keyboard(page, wrong=True)
        d = _data(page)
        assert d["result"]["correct"] is False and d["result"]["comeback"]
        assert page.locator(".loo-answer .loo-verdict").count() >= 1
        assert page.evaluate("() => document.activeElement.dataset.action") == "next"
        first_id = d["record"]["answers"][0]["id"]
        page.keyboard.press("Enter")  # Next, focused
        page.wait_for_function("() => !document.querySelector('.loo-answer')")
        _answer_by_keyboard(page, wrong=False)
        assert _data(page)["result"]["correct"] is True
        # kept in this browser as loo-progress/1, and read back by Python
        kept = page.evaluate("() => localStorage.getItem('loo-progress/1')")
        record = loads(kept)
        assert len(record.answers) == 2 and record.answers[0].id == first_id
        assert not record.answers[0].correct and record.answers[1].correct
        # a reload: the record is handed over again, nothing lost, no position asked again
        page.reload()
        page.wait_for_function(LIVE, timeout=READY_MS)
        page.wait_for_function("() => { const w = (window.looLive || []).find((x) => x.kind === 'practice');"
                               " const d = w && w.model.get('data'); return !!(d && d.item && d.record.answers.length === 2); }",
                               timeout=READY_MS)
        d = _data(page)
        assert item_id(Question.from_json(d["item"]["question"])) not in record.ids()
        # the progress page: rule by rule, due today, a download Python reads
        page.goto(f"{origin}/book/progress.html")
        page.wait_for_selector(".loo-progress-by-rule", timeout=READY_MS)
        missed = record.answers[0].at_fault[0]
        row = page.locator(f"tr[data-rule={missed}]")
        assert int(row.get_attribute("data-sure") or 100) <= 50  # missed a minute ago
        assert row.locator(".loo-progress-mistakes a").count() == 1  # the way back to it
        with page.expect_download() as dl:
            page.click("#loo-progress-download")
        text = Path(dl.value.path()).read_text()
        assert loads(text) == record
        # a damaged file is refused in one line and nothing kept changes
        bad: FilePayload = {"name": "bad.json", "mimeType": "application/json",
                            "buffer": b'{"format": "loo-progress/1", "answers": [{"id": 1}]}'}
        page.set_input_files("#loo-progress-load", files=[bad])
        page.wait_for_function("() => document.getElementById('loo-progress-file-status').textContent.includes('not loaded')")
        said = page.inner_text("#loo-progress-file-status")
        assert said == "bad.json was not loaded: answers[0].kind: missing"
        assert loads(page.evaluate("() => localStorage.getItem('loo-progress/1')")) == record
        # the mistake's link deals that very position again, on the Practice page
        back = record.answers[0].where.back
        link = page.locator(f"tr[data-rule={missed}] .loo-progress-mistakes a")
        assert (link.get_attribute("href") or "").endswith(f"practice.html#back={back}")
        link.click()
        page.wait_for_function("b => { const w = (window.looLive || []).find((x) => x.kind === 'practice');"
                               " const d = w && w.model.get('data'); return !!(d && d.item && d.item.back === b); }",
                               arg=back, timeout=READY_MS)
        assert errors == []
    finally:
        ctx.close()


def test_the_practice_page_says_what_it_needs_from_file(browser: Browser, site: Path) -> None:
    ctx = browser.new_context(viewport=PHONE)
    try:
        page = ctx.new_page()
        page.goto((site / "book" / "practice.html").as_uri())
        page.wait_for_selector(".loo-engine-status[data-state=file]", timeout=30_000)
        assert "Practice deals new positions with the engine" in page.inner_text("[data-loo-component=practice]")
        assert json.loads(page.evaluate("() => JSON.stringify(localStorage.getItem('loo-progress/1'))")) is None
    finally:
        ctx.close()
