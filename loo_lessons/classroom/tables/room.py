"""The class's tables in the service's one process: codes, seats, presence, the news.

A `Room` holds every open table (`referee.Table`) by its code, seats each pupil at one table
only, and tells whoever listens (a WebSocket, a long-poll) that a table changed, by bumping
the table's `version`. It also keeps who is at the table: a pupil seen (a request, an open
WebSocket) within `away_seconds` plays their own seat; one gone quiet longer is marked away
and the seat's bot plays for them (`referee.Table.set_away`) until they come back, which any
request of theirs does. Who is away is kept in the store as it changes, and each pupil's
recent requests (the flood check) when the service stops (`keep`): a restarted service
forgets neither. Versions and the news start, at each start of the service, above any it
gave before (the wall clock in milliseconds), so a page or a kernel holding a version from
before a restart is answered at once and takes the new views. Each pupil holds at most
`MAX_OPEN` WebSockets and long-polls at once (`hold`): one pupil cannot use up the files the
service may open. Each seat's view is built once per change and kept (`view`). Nothing here
decides a rule: the referee (the engine) does.

Time is injected (`clock`, and `wall` for what outlives the process), and so is the random
source of the codes (`rng`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from collections import deque
from collections.abc import Callable, Mapping
from typing import Any

from loo_lessons.classroom.tables.referee import (
    NotYours,
    OutOfTurn,
    Table,
    TableError,
    replay,
    table_setup,
)
from loo_lessons.classroom.tables.store import Store

#: A table's code: letters and digits nobody confuses when read off a board (no 0/O, 1/I/L).
CODE_LETTERS = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
#: A pupil may make this many requests in `FLOOD_SECONDS` (a client polling hard makes a few
#: dozen a second; a pupil playing, a few a minute); more are refused (429).
FLOOD_REQUESTS = 200
FLOOD_SECONDS = 2.0
#: Most tables open at once; as many stopped ones stay listed after a restart.
MAX_TABLES = 40
#: Most WebSockets and long-polls one pupil (or teacher) holds open at once: a few tabs and a
#: kernel; a thousand from one account would use up the files the service may open.
MAX_OPEN = 8

Listener = Callable[[str], None]


class Flooded(TableError):
    """Too many requests from one pupil in a short time (429)."""

    status = 429


class TooManyOpen(Flooded):
    """Too many WebSockets and long-polls open at once from one pupil (429)."""


class Room:
    """Every open table, by its code; the pupils' presence; the listeners to tell of a change.

    `store` keeps the tables (the open ones are replayed from it when the room starts);
    `away_seconds` is how long a pupil may be quiet before their seat's bot plays for them."""

    def __init__(
        self,
        store: Store,
        rng: random.Random,
        clock: Callable[[], float] = time.monotonic,
        away_seconds: float = 30.0,
        wall: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.rng = rng
        self.clock = clock
        self.wall = wall
        self.away_seconds = away_seconds
        self.tables: dict[str, Table] = {}
        self.version: dict[str, int] = {}
        self.seen: dict[tuple[str, int], float] = {}
        self.sockets: dict[tuple[str, int], int] = {}
        #: Who listens to each table, and for which seat (a WebSocket's `push`).
        self.listeners: dict[str, dict[Listener, int]] = {}
        self.events: dict[str, asyncio.Event] = {}
        self.requests: dict[str, deque[float]] = {}
        #: The WebSockets and long-polls each pupil holds open (`hold`, `release`).
        self.holding: dict[str, int] = {}
        #: Each seat's view as sent (JSON), with the version it was built at (`view`).
        self._views: dict[tuple[str, int], tuple[int, str]] = {}
        self._public: dict[str, tuple[int, dict[str, Any]]] = {}
        #: Where versions and the news start: above any this service gave before a restart.
        self.epoch = int(wall() * 1000)
        #: The room's news: moves on with any table's version (the teacher's pages wait on it).
        self.news = self.epoch
        self.news_event: asyncio.Event | None = None
        #: The tables over and closed in the store (stopped, or their deals played): a restart
        #: lists the last `MAX_TABLES` of them, and replays no more.
        self.closed: set[str] = set()
        for code in store.listed_ids(MAX_TABLES):
            t = replay(store, code)
            self._add(t)
            if t.finished():
                self._close(t)
                continue
            for seat in t.pupils:  # nobody has been seen since the service started
                self.seen[(code, seat)] = clock()
            for seat in sorted(store.away(code) & set(t.pupils)):
                t.set_away(seat, True)  # away before the restart: their bot plays on
        ago = wall() - clock()  # a kept request at wall time w was at clock time w - ago
        for name, times in store.requests().items():
            self.requests[name] = deque(w - ago for w in times)

    def _add(self, t: Table) -> None:
        self.tables[t.id] = t
        self.version[t.id] = self.epoch
        self.listeners[t.id] = {}

    # --- the news ---------------------------------------------------------------------------------
    def changed(self, code: str) -> None:
        """Table `code` changed: its version moves on, the waiting long-polls are answered and
        every listener is told."""
        self.version[code] += 1
        if self.tables[code].finished():
            self._close(self.tables[code])
        event = self.events.pop(code, None)
        if event is not None:
            event.set()
        for listen in list(self.listeners[code]):
            listen(code)
        self._news()

    def _close(self, t: Table) -> None:
        """A table that is over is closed in the store (once)."""
        if t.id not in self.closed:
            self.store.close_table(t.id)
            self.closed.add(t.id)

    def tell_seat(self, code: str, seat: int) -> None:
        """Only `seat`'s view at table `code` changed (its own refusal): its view is built
        again and sent to its own listeners, nobody else's."""
        self._views.pop((code, seat), None)
        for listen, s in list(self.listeners[code].items()):
            if s == seat:
                listen(code)

    def view(self, code: str, seat: int) -> str:
        """`seat`'s view at table `code` with the table's version, as JSON: built once per
        change of the table, however many of the seat's pages and sockets ask."""
        version = self.version[code]
        kept = self._views.get((code, seat))
        if kept is not None and kept[0] == version:
            return kept[1]
        t = self.tables[code]
        shared = self._public.get(code)
        if shared is None or shared[0] != version:  # the public part: once for every seat
            shared = (version, t.public_json())
            self._public[code] = shared
        text = json.dumps({**t.seat_json(seat, shared[1]), "version": version})
        self._views[(code, seat)] = (version, text)
        return text

    # --- how many connections each pupil holds ------------------------------------------------------
    def hold(self, name: str) -> None:
        """`name` opens a WebSocket or a long-poll, or is refused (429) holding `MAX_OPEN`."""
        held = self.holding.get(name, 0)
        if held >= MAX_OPEN:
            raise TooManyOpen(
                f"too many pages open: at most {MAX_OPEN} live pages or connections at once (close one)"
            )
        self.holding[name] = held + 1

    def release(self, name: str) -> None:
        """`name`'s WebSocket or long-poll is closed."""
        held = self.holding.get(name, 0) - 1
        if held > 0:
            self.holding[name] = held
        else:
            self.holding.pop(name, None)

    def _news(self) -> None:
        self.news += 1
        if self.news_event is not None:
            self.news_event.set()
            self.news_event = None

    async def wait_news(self, after: int, timeout: float) -> None:
        """Until the room's news is past `after` (any table opened or changed), or `timeout`
        seconds: what the teacher's live pages wait on."""
        if self.news != after:  # past it, or a news from before a restart: answered at once
            return
        if self.news_event is None:
            self.news_event = asyncio.Event()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.news_event.wait(), timeout)

    def keep(self) -> None:
        """Keep each pupil's recent requests in the store (the service is stopping)."""
        now = self.clock()
        ago = self.wall() - now
        self.store.keep_requests(
            {n: [t + ago for t in ts if now - t <= FLOOD_SECONDS] for n, ts in self.requests.items() if ts}
        )

    async def wait(self, code: str, after: int, timeout: float) -> None:
        """Until table `code`'s version is past `after`, or `timeout` seconds (at once for
        a version this service never gave: one from before a restart)."""
        if self.version[code] != after:  # past it, or a version from before a restart
            return
        event = self.events.setdefault(code, asyncio.Event())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), timeout)

    # --- the teacher --------------------------------------------------------------------------------
    def open(self, raw: Mapping[str, Any]) -> Table:
        """A new table from the teacher's setup (`referee.table_setup` checks it), under a
        fresh code."""
        setup = table_setup(raw)
        if sum(not t.finished() for t in self.tables.values()) >= MAX_TABLES:
            raise OutOfTurn(f"tables: at most {MAX_TABLES} open at once; stop one first")
        code = "".join(self.rng.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))
        while code in self.tables:
            code = "".join(self.rng.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))
        t = Table(code, setup, self.store)
        self.store.open_table(code, setup.as_json())
        self._add(t)
        self._news()
        return t

    def start(self, code: object) -> Table:
        """The teacher starts table `code`, which waited for its pupils to sit down."""
        t = self.table(code)
        if t.finished():
            raise OutOfTurn(f"table {t.id} is over")
        t.start()
        self.changed(t.id)
        return t

    def stop(self, code: object) -> Table:
        """The teacher stops table `code`: no more moves; it stays listed, as over."""
        t = self.table(code)
        t.stop()
        self.changed(t.id)  # (closed in the store there)
        return t

    # --- the pupils --------------------------------------------------------------------------------
    def table(self, code: object) -> Table:
        """The table under `code` (as typed: spaces and case do not matter), or a refusal."""
        if not isinstance(code, str) or not 0 < len(code) <= 20:
            raise TableError("table: expected a table's code")
        t = self.tables.get(code.strip().upper())
        if t is None:
            raise TableError("table: no table has that code")
        return t

    def flood(self, name: str) -> None:
        """Refuse `name`'s request if they have made `FLOOD_REQUESTS` in `FLOOD_SECONDS`."""
        now = self.clock()
        times = self.requests.setdefault(name, deque())
        while times and now - times[0] > FLOOD_SECONDS:
            times.popleft()
        if len(times) >= FLOOD_REQUESTS:
            raise Flooded(f"too many requests: at most {FLOOD_REQUESTS} in {FLOOD_SECONDS:g} seconds")
        times.append(now)

    def join(self, name: str, code: object) -> tuple[Table, int]:
        """Seat `name` at table `code` (their seat again if they sit there); a pupil sits at
        one table at a time (until it is over). The bots before them move."""
        t = self.table(code)
        elsewhere = [
            o.id for o in self.tables.values() if o is not t and not o.finished() and o.seat_of(name) is not None
        ]
        if elsewhere:
            raise OutOfTurn(f"table: you sit at table {elsewhere[0]} already (one table at a time)")
        if t.finished() and t.seat_of(name) is None:
            raise OutOfTurn(f"table {t.id} is over")
        seat = t.sit(name)
        self.seen[(t.id, seat)] = self.clock()
        t.advance()
        self.changed(t.id)
        return t, seat

    def seat_of(self, name: str, code: object) -> tuple[Table, int]:
        """`name`'s table and seat (they are back if they were away), or 403."""
        t = self.table(code)
        seat = t.seat_of(name)
        if seat is None:
            raise NotYours(f"table {t.id}: you have no seat there (join it first)")
        self.seen[(t.id, seat)] = self.clock()
        if seat in t.away:
            self._away(t, seat, False)
            self.changed(t.id)
        return t, seat

    def move(self, name: str, code: object, seat: object, key: object, number: object) -> Table:
        """`name`'s move at their table (the referee checks it); everyone is told."""
        t, _ = self.seat_of(name, code)
        try:
            t.move(name, seat, key, number)
        except TableError:
            if isinstance(seat, int) and t.pupils.get(seat) == name:
                self.tell_seat(t.id, seat)  # the refusal is in that seat's view, and no other's
            raise
        self.changed(t.id)
        return t

    def socket(self, code: str, seat: int, opened: bool) -> None:
        """A WebSocket of `seat` opened or closed: a seat with one open is present."""
        key = (code, seat)
        self.sockets[key] = self.sockets.get(key, 0) + (1 if opened else -1)
        self.seen[key] = self.clock()

    def sweep(self) -> list[str]:
        """Mark away every pupil quiet for `away_seconds` with no WebSocket open (their bot
        plays on); the tables that changed."""
        now = self.clock()
        changed = []
        for code, t in self.tables.items():
            if t.finished():
                continue
            if t.step():  # a demo table: a bot's move each sweep
                self.changed(code)
                changed.append(code)
                continue
            quiet = [
                s
                for s in t.pupils
                if s not in t.away
                and not self.sockets.get((code, s))
                and now - self.seen.get((code, s), now) > self.away_seconds
            ]
            for s in quiet:
                self._away(t, s, True)
            if quiet:
                self.changed(code)
                changed.append(code)
        return changed

    def _away(self, t: Table, seat: int, away: bool) -> None:
        """The pupil at `seat` gone quiet or back: the referee is told, and the store."""
        self.store.set_away(t.id, seat, away)
        t.set_away(seat, away)
