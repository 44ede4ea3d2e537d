"""An evening of Loo in the built book, with no kernel (issue 18): the page's engine (Pyodide
in a Web Worker) runs the evening's controller behind js/evening.js. Three deals are played
by clicking the table (the second a must after a single: seed 21, pinned in
tests/test_evening.py), the coach is asked, and the ledger and the plot are drawn from what
Python computed.

The page is lesson 12's (its last section, an evening at one table), in the site that
tests/test_live_book.py builds. The pass-and-play page (issue 27) is tested here too: the
same evening on one device, in the same site, with the same browser.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from test_live_book import READY_MS, live_data, open_live, server, site

from loo_lessons.widgets.controllers.pass_play import PassPlayController

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


# --- pass-and-play (issue 27, deliver 4) ----------------------------------------------------------

#: The book's pass-and-play page: the evening's controller behind js/passplay.js.
PASS_AND_PLAY = "book/pass-and-play.html"
_PNP = "window.looLive.filter(w => w.kind === 'passplay')[0].model.get('data')"


def _pnp_after(page: Page, do: Callable[[], object]) -> dict[str, Any]:
    """Do `do` (a click), wait until Python has answered (the data changed) and return it."""
    before = page.evaluate(f"() => JSON.stringify({_PNP})")
    do()
    page.wait_for_function(f"b => JSON.stringify({_PNP}) !== b", arg=before, timeout=READY_MS)
    return live_data(page, "passplay")


def _keys_in_page(page: Page) -> set[str]:
    """Every card (or choice) key drawn anywhere in the widget, shown or hidden."""
    return set(page.evaluate("() => [...document.querySelectorAll('.loo-pnp [data-key]')].map(e => e.dataset.key)"))


def test_three_people_pass_and_play_a_deal_in_the_book_on_a_phone(browser: Browser, server: str, tmp_path: Path) -> None:
    """At 360×740: three people (and a bot) set up the table, play a deal to its end through
    the pass screens (no card of a person's hand in the page while it is passed), the next deal
    is dealt, Save downloads the evening, a reload shows nothing secret, and the file loads
    back (in the page, and in Python)."""
    page, w = open_live(browser, f"{server}/{PASS_AND_PLAY}", server, width=360, height=740)
    try:
        widget = page.locator(".loo-pnp")
        look = page.evaluate(
            """() => ({sideways: document.documentElement.scrollWidth - document.documentElement.clientWidth,
              small: [...document.querySelectorAll('.loo-pnp button, .loo-pnp select, .loo-pnp input')]
                .filter(e => e.getClientRects().length).map(e => e.getBoundingClientRect())
                .filter(r => r.width < 44 || r.height < 44).length})"""
        )
        assert look == {"sideways": 0, "small": 0}
        # the set-up form is open before the first move: three names, a bot in seat 3
        assert widget.locator("details.loo-pnp-setup[open]").count() == 1
        widget.locator('select[data-focus="pnp-players"]').select_option("4")
        for seat, name in enumerate(["Ann", "Bob", "<i>Cy</i>"]):
            widget.locator(f'input[data-focus="pnp-name-{seat}"]').fill(name)
        widget.locator('input[data-focus="pnp-name-3"]').fill("")
        widget.locator('select[data-focus="pnp-loo"]').select_option("unlimited")
        d = _pnp_after(page, lambda: widget.locator('button[data-action="start"]').click())
        assert d["error"] is None and [p["name"] for p in d["people"]] == ["Ann", "Bob", "<i>Cy</i>"]
        assert d["setup"]["loo"] == "unlimited" and len(d["setup"]["names"]) == 4
        # started: the form folds, so the pass screen is in view on a phone
        assert not d["fresh"] and widget.locator("details.loo-pnp-setup[open]").count() == 0
        seen: set[str] = set()  # every card a person has been shown
        played: set[str] = set()  # and those they played face up since
        moved: dict[int, int] = {0: 0, 1: 0, 2: 0}
        while not d["over"]:
            assert d["screen"] == "pass" and page.locator(".loo-pnp").get_attribute("data-screen") == "pass"
            assert not _keys_in_page(page) & (seen - played), "a hand's card is in the page while it is passed"
            banner = widget.locator(".loo-pnp-pass h3")
            assert banner.inner_text() == f"Pass to seat {d['turn']} ({d['name']})"
            assert banner.locator("i").count() == 0  # a name is text, never HTML
            d = _pnp_after(page, lambda: widget.locator('button[data-action="show"]').click())
            assert d["screen"] == "play" and d["cards"]
            # a shared device: none of the one-player controls on the play table (the evening
            # is saved on the pass screen)
            for action in ("undo", "restart", "save", "review"):
                assert widget.locator(f'.loo-pnp-play button[data-action="{action}"]').count() == 0, action
            seat = d["turn"]
            seen |= set(d["cards"])
            key = next(c["key"] for c in d["choices"] if c["legal"])
            moved[seat] += 1
            if d["kind"] == "card":
                played.add(key)
            card = widget.locator(f'.loo-pnp-play .loo-choices [data-key="{key}"]').first
            d = _pnp_after(page, card.click)
            assert d["screen"] == "pass" and d["error"] is None
        assert all(n >= 2 for n in moved.values()), moved  # each declared and played
        assert not _keys_in_page(page) & (seen - played)
        assert widget.locator(".loo-settlement .loo-rule").count() >= 1
        d = _pnp_after(page, lambda: widget.locator('button[data-action="next"]').click())
        assert d["evening"]["deal"] == 2 and widget.locator(".loo-ledger tbody tr").count() == 1
        with page.expect_download() as dl:
            widget.locator('.loo-pnp-screen button[data-action="save"]').click()
        saved_path = tmp_path / dl.value.suggested_filename
        dl.value.save_as(saved_path)
        saved = json.loads(saved_path.read_text(encoding="utf-8"))
        assert (saved["players"], saved["people"], saved["names"]) == (4, [0, 1, 2], ["Ann", "Bob", "<i>Cy</i>"])
        assert PassPlayController.load(saved_path).evening.as_json() == saved  # Python reads it back
        # a reload: a fresh table on its pass screen, nothing of the evening's hands
        page.reload()
        page.wait_for_function("() => [...document.querySelectorAll('[data-loo-live]')].every(e => e.dataset.looEngine === 'live')", timeout=READY_MS)
        d = live_data(page, "passplay")
        assert d["screen"] == "pass" and d["fresh"] and not _keys_in_page(page) & (seen - played)
        # and the saved file, chosen in the page, is the evening again, passed to its next player
        d = _pnp_after(page, lambda: page.locator(".loo-pnp input[type=file]").set_input_files(str(saved_path)))
        assert d["error"] is None and d["evening"]["deal"] == 2 and [p["name"] for p in d["people"]][2] == "<i>Cy</i>"
        assert d["screen"] == "pass" and widget.locator(".loo-ledger tbody tr").count() == 1
        w.check()
    finally:
        page.context.close()
