"""What the table tests share: the cards a message names, what a seat may see, and the
service served in a thread of the test's process."""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

from tornado.httpserver import HTTPServer
from tornado.netutil import bind_sockets

from loo_lessons.classroom.tables.room import Room
from loo_lessons.classroom.tables.service import make_app
from loo_lessons.classroom.tables.store import Store
from loo_lessons.engine.cards import Card, parse_card
from loo_lessons.engine.game import Hand

T = TypeVar("T")
_SIGNS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}
# a card code (10H, KD) or label (10♥), standing alone in the text
_CARD = re.compile(r"(?<![A-Za-z0-9])(10|[2-9JQKA])([SHDC♣♦♥♠])(?![A-Za-z0-9])")


def cards_in(message: Any) -> set[Card]:
    """Every card a JSON-ready message names anywhere (in any string, key or value)."""
    found: set[Card] = set()
    stack = [message]
    while stack:
        x = stack.pop()
        if isinstance(x, dict):
            stack.extend(x.keys())
            stack.extend(x.values())
        elif isinstance(x, list | tuple):
            stack.extend(x)
        elif isinstance(x, str):
            for rank, suit in _CARD.findall(x):
                found.add(parse_card(rank + _SIGNS.get(suit, suit)))
    return found


def seen_by(hand: Hand, seat: int | None) -> set[Card]:
    """The cards `seat` may know in `hand` (None: the projector's, every seat's hidden): its
    own cards and those it put down, the turn-up, the cards played."""
    out = {c for t in hand.tricks for _, c in t}
    if hand.turn_up is not None:
        out.add(hand.turn_up)
    if seat is not None:
        out |= set(hand.held[seat]) | set(hand.put_down_by(seat))
    return out


def identify(request: Any) -> dict[str, str] | None:
    """The user a test names: the X-Test-User header (a browser's), or the token itself
    (`class_tables.Tables(url, token=NAME)`, a kernel's client) standing in for the hub's."""
    name = request.headers.get("X-Test-User") or request.headers.get("Authorization", "").removeprefix("token ")
    return {"kind": "user", "name": name} if name else None


@dataclass
class Served:
    """The service in its thread: its address, its room, and a way to ask the room there."""

    url: str
    room: Room
    loop: asyncio.AbstractEventLoop

    def there(self, ask: Callable[[], T]) -> T:
        """`ask()` run in the service's thread (where its SQLite lives), its answer here."""

        async def run() -> T:
            return ask()

        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(10)


@contextlib.contextmanager
def serving(prefix: str, wait_seconds: float = 5) -> Iterator[Served]:
    """The tables service on a free loopback port, in a thread with its own event loop (the
    teacher is "tess"). Its SQLite lives in that thread: ask the store through `there`."""
    rooms: list[Room] = []
    loop = asyncio.new_event_loop()
    sockets = bind_sockets(0, "127.0.0.1")
    port = sockets[0].getsockname()[1]
    started = threading.Event()

    def run() -> None:
        asyncio.set_event_loop(loop)
        rooms.append(Room(Store(":memory:"), random.Random(5)))
        app = make_app(rooms[0], prefix, lambda _h, name: name == "tess", identify=identify, wait_seconds=wait_seconds)
        HTTPServer(app).add_sockets(sockets)
        loop.call_soon(started.set)
        loop.run_forever()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert started.wait(10)
    try:
        yield Served(f"http://127.0.0.1:{port}{prefix}", rooms[0], loop)
    finally:
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
