"""An evening of Loo in the built book, with no kernel (issue 18): the page's engine (Pyodide
in a Web Worker) runs the evening's controller behind js/evening.js. Three deals are played
by clicking the table (the second a must after a single: seed 21, pinned in
tests/test_evening.py), the coach is asked, and the ledger and the plot are drawn from what
Python computed.

The page is the evening's own `book_html()`, written into the built site (which carries the
engine: tests/test_live_book.py builds it) for the length of the test.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from test_evening import MUST_SEED
from test_live_book import READY_MS, live_data, open_live, server, site

from loo_lessons.widgets.controllers.evening import EveningController

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

__all__ = ["server", "site"]  # the fixtures, from the live book's tests

PAGE = "evening-check.html"


@pytest.fixture()
def evening_page(site: Path) -> Iterator[str]:
    page = site / PAGE
    body = EveningController(MUST_SEED, rollouts=40).book_html()
    page.write_text(
        '<!doctype html><html><head><meta charset="utf-8">'
        '<meta name="loo-engine" content="_static/loo-engine/"><title>An evening</title></head>'
        f"<body>{body}</body></html>",
        encoding="utf-8",
    )
    try:
        yield PAGE
    finally:
        page.unlink()


def _data(page: Page) -> dict[str, Any]:
    return live_data(page, "evening")


def _wait_moves(page: Page, before: dict[str, Any]) -> None:
    """Until Python has answered the last click (the log or the deal changed)."""
    page.wait_for_function(
        "([n, deal, c]) => { const d = window.looLive.filter(w => w.kind === 'evening')[0].model.get('data');"
        " return d.log.length !== n || d.evening.deal !== deal || Boolean(d.coach) !== c || Boolean(d.error); }",
        arg=[len(before["log"]), before["evening"]["deal"], bool(before.get("coach"))],
        timeout=READY_MS,
    )


def test_three_deals_and_the_coach_in_the_book(browser: Browser, server: str, evening_page: str) -> None:
    page, w = open_live(browser, f"{server}/{evening_page}", server)
    try:
        widget = page.locator('[data-loo-live]').first
        musts = []
        for deal in (1, 2, 3):
            d = _data(page)
            assert d["evening"]["deal"] == deal and not d["error"]
            musts.append(d["evening"]["must"])
            if deal == 1:  # ask the coach at the first decision
                widget.locator('button[data-action="coach"]').click()
                _wait_moves(page, d)
                coach = widget.locator(".loo-coach")
                coach.wait_for(timeout=READY_MS)
                legal = [c["key"] for c in d["choices"] if c["legal"]]
                assert coach.locator("tbody tr").count() == len(legal)
                assert "Strategy, not law" in coach.inner_text()
            while not _data(page)["over"]:
                d = _data(page)
                key = next(c["key"] for c in d["choices"] if c["legal"])
                widget.locator(f'.loo-choices [data-key="{key}"]').first.click()
                _wait_moves(page, d)
            d = _data(page)
            assert d["settlement"] is not None
            widget.locator('button[data-action="next"]').click()
            _wait_moves(page, d)
        assert musts == [False, True, False]
        ledger = widget.locator(".loo-ledger tbody tr")
        ledger.nth(2).wait_for(timeout=READY_MS)
        assert ledger.count() == 3
        assert widget.locator('.loo-ledger tbody tr[data-must="yes"]').get_attribute("data-deal") == "2"
        assert widget.locator("svg.loo-evening-plot polyline").count() == 5
        assert widget.locator(".loo-evening-deal .loo-rule").count() > 3  # every line's rule id
        assert _data(page)["evening"]["total"] == 500
        w.check()
    finally:
        page.context.close()
