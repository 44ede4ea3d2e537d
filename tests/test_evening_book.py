"""An evening of Loo in the built book, with no kernel (issue 18): the page's engine (Pyodide
in a Web Worker) runs the evening's controller behind js/evening.js. Three deals are played
by clicking the table (the second a must after a single: seed 21, pinned in
tests/test_evening.py), the coach is asked, and the ledger and the plot are drawn from what
Python computed.

The page is lesson 12's (its last section, an evening at one table), in the site that
tests/test_live_book.py builds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from test_live_book import READY_MS, live_data, open_live, server, site

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

__all__ = ["server", "site"]  # the fixtures, from the live book's tests

#: Lesson 12 ends with an evening at one table: `EveningTable(21)`.
PAGE = "notebooks/12-play-a-hand.html"


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


def test_three_deals_and_the_coach_in_the_book(browser: Browser, server: str) -> None:
    page, w = open_live(browser, f"{server}/{PAGE}", server)
    try:
        widget = page.locator(".loo-live-widget").filter(has=page.locator(".loo-evening-now"))
        assert widget.count() == 1
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
