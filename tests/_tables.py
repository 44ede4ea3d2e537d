"""What the table tests share: the cards a message names, what a seat may see, and the
service served in a thread of the test's process."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
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


# --- the service as the hub starts it: its own process, a stand-in for the hub's API ----------------
class FakeHub:
    """The hub's REST API as a hub service uses it, in a thread: ``GET /hub/api/user`` names the
    user of a token (with the scope to reach the service), ``GET /hub/api/users/NAME`` says
    whether NAME is an admin (a teacher). `tokens`: token -> user name; "tess" is the teacher."""

    def __init__(self, tokens: dict[str, str]) -> None:
        import http.server
        import json as json_

        self.tokens = tokens
        hub = self

        class Answer(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                token = self.headers.get("Authorization", "").split(" ", 1)[-1]
                name = hub.tokens.get(token)
                if self.path.rstrip("/").endswith("/hub/api/user") and name:
                    body: dict[str, Any] | None = {
                        "kind": "user", "name": name, "admin": name == "tess", "groups": [],
                        "scopes": ["access:services!service=class-tables"], "session_id": "",
                    }
                elif "/hub/api/users/" in self.path and token == SERVICE_TOKEN:
                    who = self.path.rsplit("/", 1)[1]
                    body = {"kind": "user", "name": who, "admin": who == "tess", "groups": []}
                else:
                    body = None
                data = json_.dumps(body or {"status": 403, "message": "no"}).encode()
                self.send_response(200 if body else 403)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                """Quiet: the test reads the service's log, not this one's."""

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Answer)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hub/api"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        """Stop answering."""
        self.server.shutdown()
        self.server.server_close()


#: The token the service calls the hub's API with.
SERVICE_TOKEN = "service-token"


class HubService:
    """``python -m loo_lessons.classroom.tables.service --db FILE`` as the hub starts it (its
    address and the hub's in the environment), stopped and started again at will; its log (what
    it writes to stderr) kept in `log`."""

    def __init__(self, state: Path, hub: FakeHub, away: float = 30.0) -> None:
        from loo_lessons.classroom.drive import free_port

        self.state: Path = state
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/services/class-tables/"
        self.log = state / "service.log"
        self.env = {
            **os.environ,
            "JUPYTERHUB_SERVICE_URL": f"http://127.0.0.1:{self.port}/",
            "JUPYTERHUB_SERVICE_PREFIX": "/services/class-tables/",
            "JUPYTERHUB_SERVICE_NAME": "class-tables",
            "JUPYTERHUB_CLIENT_ID": "service-class-tables",
            "JUPYTERHUB_API_URL": hub.url,
            "JUPYTERHUB_API_TOKEN": SERVICE_TOKEN,
            "JUPYTERHUB_BASE_URL": "/",
        }
        self.away = away
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Start the service and wait until it listens."""
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "loo_lessons.classroom.tables.service", "--db",
                 str(self.state / "class-tables.sqlite"), "--away-seconds", str(self.away)],
                env=self.env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
            )
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.5).close()
                return
            except OSError:
                assert self.proc.poll() is None, f"the service ended: {self.log.read_text()[-2000:]}"
                assert time.monotonic() < deadline, "the service did not listen"
                time.sleep(0.1)

    def stop(self, sig: int = signal.SIGTERM) -> int:
        """Stop the service as the hub does (SIGTERM), or as Ctrl-C does (SIGINT): its exit code."""
        assert self.proc is not None
        self.proc.send_signal(sig)
        try:
            return self.proc.wait(timeout=10)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()

    def log_text(self) -> str:
        """What the service has logged so far."""
        return self.log.read_text(errors="replace")
