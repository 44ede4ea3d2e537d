"""The book offline after one visit (issue 17): served on 127.0.0.1, one page visited (its
widgets live, the service worker installed with the whole book in a cache named after the
build), then the server stopped and the browser set offline: three other pages open and
every live widget on them answers from Python, and a new engine worker starts from the
cache alone (the runtime, the standard library and the package were kept too)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from _book_site import built_site

if TYPE_CHECKING:
    from playwright.sync_api import Browser



FIRST = "notebooks/05-leading.html"
LATER = ("notebooks/03-declaring.html", "notebooks/12-play-a-hand.html", "notebooks/14-strategy-lab.html")
ALL_LIVE = (
    "() => document.querySelectorAll('[data-loo-live]').length > 0 && "
    "[...document.querySelectorAll('[data-loo-live]')].every(e => e.dataset.looEngine === 'live')"
)
READY_MS = 120_000


@pytest.fixture(scope="module")
def site() -> Path:
    return built_site()


def test_after_one_visit_the_whole_book_answers_offline(browser: Browser, site: Path) -> None:
    from loo_lessons.cli.bench_browser import SW_READY, serve

    ctx = browser.new_context()
    try:
        with serve(site) as origin:
            first = ctx.new_page()
            first.goto(f"{origin}/{FIRST}")
            first.wait_for_function(ALL_LIVE, timeout=READY_MS)
            assert first.evaluate(SW_READY) is True
            build = first.evaluate("() => document.querySelector('meta[name=loo-build]').content")
            assert first.evaluate("() => caches.keys()") == [f"loo-book-{build}"]
        ctx.set_offline(True)  # and the server is gone
        first.close()
        page = ctx.new_page()
        for rel in LATER:
            page.goto(f"{origin}/{rel}")
            page.wait_for_function(ALL_LIVE, timeout=READY_MS)
            assert page.locator("[data-loo-live]").count() > 0
            assert page.locator(".loo-engine-status[data-state=ready]").count() > 0
        # a fresh engine, not the visit's running one: everything it loads comes from the cache
        started = page.evaluate(
            """() => new Promise((resolve) => {
                 const w = new Worker("../_static/loo-engine/worker.js");
                 w.onmessage = (e) => { if (e.data && e.data.type) { resolve(e.data.type); w.terminate(); } };
               })"""
        )
        assert started == "ready"
        missing = page.evaluate(f"() => fetch('{origin}/no-such-page.html').then((r) => r.status)")
        assert missing == 503  # what is not in the book says so, offline
    finally:
        ctx.close()
