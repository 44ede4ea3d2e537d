"""The teacher's pages of the class tables service in a real browser (issue 27): a teacher opens
a table from the form and reads its code, the page follows the pupils' moves without reloading
(the long-poll of `live.js`), the projector's page too, and the Stop button stops the table.

The service runs in a thread of this process (its own event loop), without a hub: the user is
named by a header the browser sends on every request, as `identify` reads it.
"""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest
from _browser import SHOTS
from _tables import serving

from loo_lessons.classroom.tables.room import Room

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

PREFIX = "/services/class-tables/"
PUPILS = ("ann", "bob", "ada")


@pytest.fixture()
def service() -> Iterator[tuple[str, Room]]:
    with serving(PREFIX) as served:
        yield served.url, served.room


def call(url: str, user: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    """A pupil's JSON request, as their client makes it."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, headers={"X-Test-User": user})
    with urllib.request.urlopen(request, timeout=10) as r:
        found: dict[str, Any] = json.load(r)
        return found


def play_one_move(base: str, code: str) -> int:
    """The pupil to act makes a legal move; the seat to act after it."""
    views = [call(base + f"api/view?table={code}", n) for n in PUPILS]
    v = next(v for v in views if v["your_turn"])
    after = call(base + "api/move", v["you"], {"table": code, "seat": v["seat"], "move": v["legal"][0]["key"], "number": v["number"]})
    return int(after["to_act"])


def teacher_page(browser: Browser, width: int = 1280, height: int = 720) -> Page:
    context = browser.new_context(viewport={"width": width, "height": height}, extra_http_headers={"X-Test-User": "tess"})
    return context.new_page()


def test_a_teacher_opens_a_table_and_watches_it_live(browser: Browser, service: tuple[str, Room]) -> None:
    base, room = service
    page = teacher_page(browser)
    page.goto(base)
    page.select_option("#f-players", "5")
    page.select_option("#f-loo", "pool")
    page.fill("#f-deals", "2")
    page.click("text=Open the table")
    code = page.locator(".code").inner_text()
    assert re.fullmatch(r"[A-Z0-9]{6}", code) and code in room.tables
    assert room.tables[code].setup.rules.loo_amount.value == "pool" and room.tables[code].setup.deals == 2
    page.evaluate("window.__notReloaded = true")
    for n in PUPILS:
        call(base + "api/join", n, {"table": code})
    # the table waited for its pupils (the form's default): the teacher starts it
    page.wait_for_function("() => document.getElementById('live').innerText.includes('3 of 5 seats have a pupil')")
    page.click(f"section:has(h2:text('Table {code}')) >> text=Start this table")
    page.wait_for_url(re.compile(r".*/services/class-tables/$"))
    assert room.tables[code].started
    page.evaluate("window.__notReloaded = true")
    to_act = play_one_move(base, code)
    page.wait_for_function(
        "text => document.getElementById('live').innerText.includes(text)", arg=f"seat {to_act} to act", timeout=10_000
    )
    assert page.evaluate("window.__notReloaded") is True  # the long-poll brought it, not a reload
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "tables-teacher.png"), full_page=True)

    projector = teacher_page(browser)
    projector.goto(base + f"table?table={code}&project=1")
    projector.evaluate("window.__notReloaded = true")
    to_act = play_one_move(base, code)
    projector.wait_for_function(
        "text => document.getElementById('live').innerText.includes(text)", arg=f"seat {to_act} to act", timeout=10_000
    )
    assert projector.evaluate("window.__notReloaded") is True
    held = {c.code for s in range(5) for c in room.tables[code].hand.held[s]}
    shown = projector.locator("body").inner_text()
    assert not any(re.search(rf"(?<![A-Z0-9]){c}(?![A-Z0-9])", shown) for c in held)
    projector.screenshot(path=str(SHOTS / "tables-projector.png"))

    page.once("dialog", lambda d: d.accept())
    page.click(f"section:has(h2:text('Table {code}')) >> text=Stop this table")
    page.wait_for_url(re.compile(r".*/services/class-tables/$"))
    assert room.tables[code].finished()
    assert "Stop this table" not in page.content()


def test_a_refused_table_says_why_in_one_line_on_a_phone(browser: Browser, service: tuple[str, Room]) -> None:
    base, room = service
    page = teacher_page(browser, 360, 740)
    page.goto(base)
    page.select_option("#f-loo", "pool_capped")
    page.fill("#f-stake", "0")
    page.evaluate("document.getElementById('f-stake').removeAttribute('min')")  # as an old browser would send it
    page.click("text=Open the table")
    alert = page.locator("[role=alert]").inner_text()
    assert alert.startswith("Not opened: stake") and "\n" not in alert
    assert room.tables == {}
    assert page.input_value("#f-loo") == "pool_capped" and page.input_value("#f-stake") == "0"  # as sent
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, "the teacher's page scrolls sideways on a phone"
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "tables-teacher-phone.png"), full_page=True)


def pupil_page(browser: Browser, name: str, width: int = 360, height: int = 740) -> Page:
    context = browser.new_context(viewport={"width": width, "height": height}, extra_http_headers={"X-Test-User": name})
    return context.new_page()


def test_a_pupil_plays_from_the_seat_page_on_a_phone(browser: Browser, service: tuple[str, Room]) -> None:
    base, room = service
    code = str(call(base + "api/tables", "tess", {"players": 4, "deals": 2, "seed": 8, "wait": False})["table"])
    page = pupil_page(browser, "ann")
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(base + "seat")
    page.fill(".loo-seat-code", "nope00")
    page.click("text=Sit down")
    assert page.locator("[role=alert]").inner_text().startswith("table: no table has that code")
    page.fill(".loo-seat-code", code.lower())
    page.click("text=Sit down")
    page.wait_for_selector(".loo-seat-title")
    assert f"Table {code}" in page.locator(".loo-seat-title").inner_text() and "you are seat 0" in page.content()
    assert f"table={code}" in page.url  # a reload sits her here again
    call(base + "api/join", "bob", {"table": code})
    t = room.tables[code]
    for _ in range(6):  # ann clicks on her turns, bob moves through the API on his: her page follows
        if t.finished():
            break
        s = t.hand.to_act
        assert s is not None
        if t.pupils.get(s) == "ann":
            page.wait_for_selector(f'.loo-seat-title[data-number="{t.number}"]')
            before = t.number
            page.locator(".loo-seat-moves button").first.click()
            page.wait_for_function("n => document.querySelector('.loo-seat-title').dataset.number > n", arg=str(before))
        else:
            v = call(base + f"api/view?table={code}", "bob")
            call(base + "api/move", "bob", {"table": code, "seat": v["seat"], "move": v["legal"][0]["key"], "number": v["number"]})
        page.wait_for_selector(f'.loo-seat-title[data-number="{t.number}"]', timeout=10_000)  # no reload
    mine = set(t.hand.held[0]) | set(t.hand.put_down_by(0))
    others = {c.code for s in range(1, 4) for c in t.hand.held[s]} - {c.code for c in mine}
    shown = page.locator("#seat").inner_html()
    assert not any(f'data-key="{c}"' in shown for c in others)  # no other seat's card in the page
    page.screenshot(path=str(SHOTS / "tables-seat-phone.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.reload()
    page.wait_for_selector(f'.loo-seat-title[data-number="{t.number}"]')
    assert "you are seat 0" in page.locator(".loo-seat-title").inner_text()
    assert page.evaluate("document.documentElement.dataset.looFallback") is None  # the WebSocket served
    assert errors == []
