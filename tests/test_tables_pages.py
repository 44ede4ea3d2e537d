"""The teacher's pages of the class tables service in a real browser (issue 27): a teacher opens
a table from the form and reads its code, the page follows the pupils' moves without reloading
(the long-poll of `live.js`), the projector's page too, and the Stop button stops the table.

The service runs in a thread of this process (its own event loop), without a hub: the user is
named by a header the browser sends on every request, as `identify` reads it.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import threading
import urllib.request
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest
from _browser import SHOTS
from tornado.httpserver import HTTPServer
from tornado.netutil import bind_sockets

from loo_lessons.classroom.tables.room import Room
from loo_lessons.classroom.tables.service import make_app
from loo_lessons.classroom.tables.store import Store

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

PREFIX = "/services/class-tables/"
PUPILS = ("ann", "bob", "ada")


@pytest.fixture()
def service() -> Iterator[tuple[str, Room]]:
    """The service on a free loopback port, in a thread; its address and its room."""
    rooms: list[Room] = []
    loop = asyncio.new_event_loop()
    sockets = bind_sockets(0, "127.0.0.1")
    port = sockets[0].getsockname()[1]
    started = threading.Event()

    def identify(request: Any) -> dict[str, str] | None:
        name = request.headers.get("X-Test-User")
        return {"kind": "user", "name": name} if name else None

    def run() -> None:
        asyncio.set_event_loop(loop)
        rooms.append(Room(Store(":memory:"), random.Random(5)))  # its SQLite lives in this thread
        app = make_app(rooms[0], PREFIX, lambda _h, name: name == "tess", identify=identify, wait_seconds=5)
        HTTPServer(app).add_sockets(sockets)
        loop.call_soon(started.set)
        loop.run_forever()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert started.wait(10)
    try:
        yield f"http://127.0.0.1:{port}{PREFIX}", rooms[0]
    finally:
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)


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
