"""The class tables service without a hub: its tornado app driven in process (issue 27).

The user is named by a header the test's `identify` reads (the hub's OAuth stands in); the
teacher is "tess". Three pupils and two bots play a table to its end over HTTP, a WebSocket
and a long-poll hear every move, a reload resumes the seat, a quiet pupil's bot plays for them
until they come back, and hostile requests are refused in one line with nothing stored.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import urllib.parse
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from _tables import cards_in, seen_by
from tornado.httpclient import HTTPClientError, HTTPRequest
from tornado.testing import AsyncHTTPTestCase, gen_test
from tornado.web import Application
from tornado.websocket import websocket_connect

from loo_lessons.classroom.tables.referee import TableError
from loo_lessons.classroom.tables.room import FLOOD_REQUESTS, FLOOD_SECONDS, Flooded, Room
from loo_lessons.classroom.tables.service import make_app
from loo_lessons.classroom.tables.store import Store

PREFIX = "/services/class-tables/"
PUPILS = ("ann", "bob", "ada")


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class ServiceTest(AsyncHTTPTestCase):
    def setUp(self) -> None:
        # a browser test earlier in this process (Playwright's sync API) leaves its event loop
        # marked as running in this thread; the service's own loop runs here for this test alone
        self._outer_loop = asyncio.events._get_running_loop()
        asyncio.events._set_running_loop(None)
        super().setUp()

    def tearDown(self) -> None:
        try:
            super().tearDown()
        finally:
            asyncio.events._set_running_loop(self._outer_loop)

    def get_app(self) -> Application:
        self.store = Store(":memory:")
        self.clock = Clock()
        self.room = Room(self.store, random.Random(7), self.clock, away_seconds=5)

        def identify(request: Any) -> dict[str, str] | None:
            name = request.headers.get("X-Test-User")
            return {"kind": "user", "name": name} if name else None

        return make_app(
            self.room, PREFIX, lambda _h, name: name == "tess", identify=identify, wait_seconds=0.5
        )

    def call(self, user: str, path: str, body: Any = None, raw: bytes | None = None) -> tuple[int, Any]:
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        r = self.fetch(
            PREFIX + path,
            method="POST" if data is not None else "GET",
            body=data,
            headers={"X-Test-User": user},
            raise_error=False,
        )
        text = r.body.decode()
        assert "Traceback" not in text
        return r.code, json.loads(text) if r.headers.get("Content-Type", "").startswith("application/json") else text

    def open_table(self, **setup: Any) -> str:
        code, j = self.call("tess", "api/tables", {"players": 5, "deals": 2, "seed": 3, "wait": False, **setup})
        assert code == 201, j
        return str(j["table"])

    def play_out(self, table: str, names: tuple[str, ...]) -> int:
        """Every pupil plays a legal move when it is their turn, until the table is over."""
        rng = random.Random(2)
        made = 0
        while True:
            views = {n: self.call(n, f"api/view?table={table}")[1] for n in names}
            if views[names[0]]["over"]:
                return made
            mine = [v for v in views.values() if v["your_turn"]]
            assert len(mine) == 1, "nobody, or two, to act"
            v = mine[0]
            code, after = self.call(
                v["you"],
                "api/move",
                {"table": table, "seat": v["seat"], "move": rng.choice(v["legal"])["key"], "number": v["number"]},
            )
            assert code == 200, after
            made += 1

    def no_hidden_cards(self, view: dict[str, Any]) -> None:
        t = self.room.tables[view["table"]]
        if t.finished():
            return
        assert cards_in(view) <= seen_by(t.hand, view["seat"])

    def test_three_pupils_and_two_bots_play_to_the_end(self) -> None:
        table = self.open_table()
        seats = {n: self.call(n, "api/join", {"table": table})[1]["seat"] for n in PUPILS}
        assert sorted(seats.values()) == [0, 1, 2]
        made = self.play_out(table, PUPILS)
        assert made > 0
        t = self.room.tables[table]
        assert t.finished() and len(t.hands) == 2
        _, listed = self.call("tess", "api/tables")
        ledger = listed["tables"][0]["ledger"]
        assert [d["deal"] for d in ledger] == [1, 2]
        assert all(line["rule_id"] for d in ledger for line in d["lines"])
        # counters only move: what the players hold and the pool add up to what they brought
        assert sum(listed["tables"][0]["balances"]) + listed["tables"][0]["pool"] == t.engine.total()
        stored = self.store.moves(table)
        assert [m.number for m in stored] == list(range(t.number))
        assert sum(not m.by_bot for m in stored) == made
        # played out, it is closed: a restart lists it as it ended, among the last tables closed
        assert table not in self.store.open_ids() and self.store.closed(table)
        assert Room(self.store, random.Random(1), self.clock).tables[table].public_json() == t.public_json()

    def test_each_seat_sees_only_its_own_cards_and_others_pages_are_refused(self) -> None:
        table = self.open_table()
        for n in PUPILS:
            self.call(n, "api/join", {"table": table})
        for n in PUPILS:
            _, v = self.call(n, f"api/view?table={table}")
            self.no_hidden_cards(v)
        assert self.call("ann", "api/tables")[0] == 403
        assert self.call("ann", "")[0] == 403
        assert self.call("ann", f"table?table={table}")[0] == 403
        assert self.call("zed", f"api/view?table={table}")[0] == 403  # no seat there
        code, page = self.call("tess", f"table?table={table}&project=1")
        t = self.room.tables[table]
        hidden = {c for s in range(5) for c in t.hand.held[s]}
        assert code == 200 and not (cards_in(page) & hidden)

    def test_hostile_requests_are_refused_in_one_line_and_nothing_is_stored(self) -> None:
        table = self.open_table()
        for n in PUPILS:
            self.call(n, "api/join", {"table": table})
        t = self.room.tables[table]
        before = self.store.count(table)
        s = t.hand.to_act
        assert s is not None
        mover, other = t.pupils[s], next(n for n in PUPILS if n != t.pupils[s])
        key = t.seat_json(s)["legal"][0]["key"]
        cases = [
            (other, {"table": table, "seat": s, "move": key, "number": t.number}, 403),  # another's seat
            (mover, {"table": table, "seat": 99, "move": key, "number": t.number}, 403),  # forged seat
            (mover, {"table": table, "seat": s, "move": key, "number": t.number - 1}, 409),  # replayed
            (mover, {"table": table, "seat": s, "move": key, "number": t.number + 3}, 409),  # reordered
            (mover, {"table": table, "seat": s, "move": "XX", "number": t.number}, 400),
            (mover, {"table": table, "seat": "0", "move": key, "number": t.number}, 400),
        ]
        for who, body, status in cases:
            code, j = self.call(who, "api/move", body)
            assert code == status, (body, j)
            assert "\n" not in j["error"] and j["error"]
        theirs = t.hand.held[(s + 1) % 5][0].code  # a card another seat holds: refused, not echoed
        code, j = self.call(mover, "api/move", {"table": table, "seat": s, "move": theirs, "number": t.number})
        assert code == 422 and theirs not in json.dumps(j)
        deep = b"[" * 5000 + b"]" * 5000
        assert self.call(mover, "api/move", raw=deep)[0] == 400
        assert self.call(mover, "api/move", raw=b"{" + b'"a":1,' * 3000 + b'"b":1}')[0] == 413
        assert self.call(mover, "api/move", raw=b"not json")[0] == 400
        other_table = self.open_table()
        code, j = self.call(mover, "api/join", {"table": other_table})
        assert code == 409 and table in j["error"]
        assert self.store.count(table) == before and self.store.seats(other_table) == {}
        # the table keeps going: the right move is taken
        code, _ = self.call(mover, "api/move", {"table": table, "seat": s, "move": key, "number": t.number})
        assert code == 200 and self.store.count(table) > before

    def test_a_flood_is_refused_and_the_table_keeps_going(self) -> None:
        table = self.open_table()
        for n in PUPILS:
            self.call(n, "api/join", {"table": table})
        codes = [self.call("bob", f"api/view?table={table}")[0] for _ in range(FLOOD_REQUESTS + 5)]
        assert codes.count(429) >= 5
        self.clock.now += 10
        assert self.play_out(table, PUPILS) > 0

    def test_a_quiet_pupil_is_played_by_their_bot_and_takes_the_seat_back(self) -> None:
        table = self.open_table(deals=None)
        for n in PUPILS:
            self.call(n, "api/join", {"table": table})
        t = self.room.tables[table]
        self.clock.now += 3
        for n in ("ann", "bob"):
            self.call(n, f"api/view?table={table}")
        self.clock.now += 3  # ada has been quiet 6 seconds, over the 5 allowed
        assert self.room.sweep() == [table]
        ada = t.seat_of("ada")
        assert ada in t.away and t.public_json()["seats"][ada]["bot"]
        # ann and bob play a while: ada's turns are played by her bot
        rng = random.Random(4)
        for _ in range(30):
            s = t.hand.to_act
            assert s != ada and s is not None
            v = t.seat_json(s)
            self.call(t.pupils[s], "api/move", {"table": table, "seat": s, "move": rng.choice(v["legal"])["key"], "number": v["number"]})
        assert any(m.by_bot and m.seat == ada for m in self.store.moves(table))
        code, v = self.call("ada", f"api/view?table={table}")  # a reload: she is back
        assert code == 200 and v["seat"] == ada and ada not in t.away

    @gen_test(timeout=10)
    async def test_a_websocket_and_a_long_poll_hear_every_move(self) -> None:
        opened = await self.http_client.fetch(
            self.get_url(PREFIX + "api/tables"), method="POST", body=json.dumps({"deals": 2, "seed": 3, "wait": False}),
            headers={"X-Test-User": "tess"},
        )
        table = json.loads(opened.body)["table"]
        for n in PUPILS:
            await self.http_client.fetch(
                self.get_url(PREFIX + "api/join"), method="POST", body=json.dumps({"table": table}),
                headers={"X-Test-User": n},
            )
        t = self.room.tables[table]
        url = self.get_url(PREFIX + f"api/ws?table={table}").replace("http", "ws", 1)
        ws = await websocket_connect(HTTPRequest(url, headers={"X-Test-User": "ann"}))
        first = json.loads(str(await ws.read_message()))
        assert first["you"] == "ann" and first["number"] == t.number
        s = t.hand.to_act
        assert s is not None
        v = t.seat_json(s)
        poll = self.http_client.fetch(
            self.get_url(PREFIX + f"api/wait?table={table}&after={first['version']}"),
            headers={"X-Test-User": "bob"},
        )
        await self.http_client.fetch(
            self.get_url(PREFIX + "api/move"), method="POST",
            body=json.dumps({"table": table, "seat": s, "move": v["legal"][0]["key"], "number": v["number"]}),
            headers={"X-Test-User": t.pupils[s]},
        )
        pushed = json.loads(str(await ws.read_message()))
        assert pushed["number"] > first["number"] and pushed["you"] == "ann"
        polled = json.loads((await poll).body)
        assert polled["you"] == "bob" and polled["number"] == pushed["number"]
        self.no_hidden_cards(pushed)
        ws.close()
        with pytest.raises(HTTPClientError):
            await websocket_connect(HTTPRequest(url, headers={"X-Test-User": "zed"}))

    def test_a_restarted_service_replays_its_open_tables(self) -> None:
        table = self.open_table()
        for n in PUPILS:
            self.call(n, "api/join", {"table": table})
        t = self.room.tables[table]
        s = t.hand.to_act
        assert s is not None
        v = t.seat_json(s)
        self.call(t.pupils[s], "api/move", {"table": table, "seat": s, "move": v["legal"][0]["key"], "number": v["number"]})
        again = Room(self.store, random.Random(1), self.clock)
        assert again.tables[table].seat_json(0) == t.seat_json(0)

    # --- the teacher's page: the form, the Stop button, live without reloading ----------------
    def form(self, user: str, path: str, fields: dict[str, str]) -> tuple[int, str, str]:
        """POST `fields` as a browser's form does: the status, the page, and where it sends you."""
        r = self.fetch(
            PREFIX + path,
            method="POST",
            body=urllib.parse.urlencode(fields),
            headers={"X-Test-User": user, "Content-Type": "application/x-www-form-urlencoded"},
            follow_redirects=False,
            raise_error=False,
        )
        text = r.body.decode()
        assert "Traceback" not in text
        return r.code, text, r.headers.get("Location", "")

    def test_a_teacher_opens_a_table_from_the_form_and_reads_its_code(self) -> None:
        code, page = self.call("tess", "")
        assert code == 200 and '<form class="open"' in page
        labelled = set(re.findall(r'<label for="([^"]+)">', page))
        controls = dict(re.findall(r'<(?:input|select) id="([^"]+)" name="([^"]+)"', page))
        assert set(controls.values()) == {"players", "rules", "stake", "loo_kind", "loo_amount", "deals", "bots", "seed", "wait", "demo"}
        assert labelled == set(controls), "a control without its label, or a label for nothing"
        fields = {"players": "6", "rules": "peel", "stake": "3", "loo_kind": "pool_capped",
                  "loo_amount": "30", "deals": "", "bots": "bold", "seed": "11"}
        code, _, where = self.form("tess", "", fields)
        assert code == 303 and "opened=" in where
        opened = where.split("opened=")[1]
        t = self.room.tables[opened]
        assert t.setup.players == 6 and t.setup.deals is None and t.setup.loo_cap == 30
        assert t.setup.rules.loo_amount.value == "pool_capped" and t.setup.bots == ("bold",) * 6
        assert t.setup.rules.two_trumps_lead.value == "highest"  # Peel's book
        code, page = self.call("tess", f"?opened={opened}")
        assert f'<span class="code">{opened}</span>' in page
        code, _, where = self.form("tess", "", {"players": "4", "loo_kind": "fixed", "loo_amount": "5", "deals": "2"})
        fixed = self.room.tables[where.split("opened=")[1]]
        assert code == 303 and fixed.setup.players == 4 and fixed.setup.loo == 5 and fixed.setup.deals == 2

    def test_each_bad_field_of_the_form_is_named_and_nothing_is_stored(self) -> None:
        good = {"players": "5", "rules": "hoffmann", "stake": "3", "loo_kind": "fixed", "deals": "3", "bots": "sensible"}
        bad = [
            ({"players": "9"}, "players"),
            ({"players": "two"}, "players"),
            ({"stake": "-3"}, "stake"),
            ({"deals": "0"}, "deals"),
            ({"bots": "<script>"}, "bots"),
            ({"rules": "hoyle"}, "rules"),
            ({"loo_kind": "free"}, "loo_kind"),
            ({"seed": "1e9"}, "seed"),
        ]
        for change, field in bad:
            code, page, _ = self.form("tess", "", {**good, **change})
            assert code == 400, change
            line = re.search(r'<p class="refused" role="alert">Not opened: ([^<]*)</p>', page)
            assert line is not None and line.group(1).startswith(field), (change, page[-400:])
            assert "<script>" not in page.split("<body")[1].replace('<script src="live.js" defer></script>', "")
        assert self.room.tables == {} and self.store.open_ids() == []
        code, _, _ = self.form("ann", "", good)  # a pupil
        assert code == 403 and self.store.open_ids() == []

    def test_a_table_that_waits_starts_when_the_teacher_presses_start(self) -> None:
        code, _, where = self.form("tess", "", {"players": "5", "deals": "2", "seed": "3", "wait": "on"})
        table = where.split("opened=")[1]
        t = self.room.tables[table]
        assert code == 303 and t.setup.wait and not t.started
        for n in PUPILS:
            self.call(n, "api/join", {"table": table})
        assert self.store.count(table) == 0 and t.number == 0  # no bot has moved: the class sits down first
        _, v = self.call("ann", f"api/view?table={table}")
        assert v["waiting"] and v["to_act"] is None and v["legal"] == []
        code, j = self.call("ann", "api/move", {"table": table, "seat": v["seat"], "move": "play", "number": 0})
        assert code == 409 and "waits for the teacher" in j["error"]
        page = self.call("tess", "")[1]
        assert "waiting for the teacher&#x27;s Start (3 of 5 seats have a pupil)" in page and "Start this table" in page
        assert self.form("ann", "start", {"table": table})[0] == 403
        assert self.call("ann", "api/start", {"table": table})[0] == 403
        code, _, _ = self.form("tess", "start", {"table": table})
        assert code == 303 and t.started and t.pupils.get(t.hand.to_act or 0) is not None  # a pupil to act
        assert "Start this table" not in self.call("tess", "")[1]
        assert self.call("tess", "api/start", {"table": table})[0] == 409  # once
        number = t.number
        assert self.form("tess", "start", {"table": table})[0] == 303 and t.number == number  # a double click
        again = Room(self.store, random.Random(1), self.clock)  # a restart: it stays started
        def kept(v: dict[str, Any]) -> dict[str, Any]:
            return {k: x for k, x in v.items() if k != "refused"}  # (a refusal is not stored)

        assert again.tables[table].started and kept(again.tables[table].seat_json(0)) == kept(t.seat_json(0))
        waits = self.open_table(wait=True)
        assert not Room(self.store, random.Random(1), self.clock).tables[waits].started  # and this one waits

    def test_the_stop_button_stops_the_table(self) -> None:
        table = self.open_table()
        code, page = self.call("tess", "")
        assert "Stop this table" in page
        assert self.form("ann", "stop", {"table": table})[0] == 403
        code, _, _ = self.form("tess", "stop", {"table": table})
        assert code == 303 and self.room.tables[table].finished() and table not in self.store.open_ids()
        assert "Stop this table" not in self.call("tess", "")[1]
        assert self.form("tess", "stop", {"table": "NOPE00"})[0] == 400

    @gen_test(timeout=10)
    async def test_the_teachers_page_hears_a_move_without_reloading(self) -> None:
        tess = {"X-Test-User": "tess"}
        opened = await self.http_client.fetch(
            self.get_url(PREFIX + "api/tables"), method="POST", body=json.dumps({"deals": 2, "seed": 3, "wait": False}), headers=tess
        )
        table = json.loads(opened.body)["table"]
        for n in PUPILS:
            await self.http_client.fetch(
                self.get_url(PREFIX + "api/join"), method="POST", body=json.dumps({"table": table}),
                headers={"X-Test-User": n},
            )
        news = self.room.news
        # nothing happens: the long-poll answers after its wait with the same news
        quiet = json.loads((await self.http_client.fetch(self.get_url(PREFIX + f"?after={news}"), headers=tess)).body)
        assert quiet["news"] == news
        home = self.http_client.fetch(self.get_url(PREFIX + f"?after={news}"), headers=tess)
        projector = self.http_client.fetch(self.get_url(PREFIX + f"table?table={table}&project=1&after={news}"), headers=tess)
        t = self.room.tables[table]
        s = t.hand.to_act
        assert s is not None
        v = t.seat_json(s)
        await self.http_client.fetch(
            self.get_url(PREFIX + "api/move"), method="POST",
            body=json.dumps({"table": table, "seat": s, "move": v["legal"][0]["key"], "number": v["number"]}),
            headers={"X-Test-User": t.pupils[s]},
        )
        for answer in (await home, await projector):
            got = json.loads(answer.body)
            assert got["news"] > news and f"seat {t.hand.to_act} to act" in got["html"]
        hidden = {c for seat in range(5) for c in t.hand.held[seat]}
        assert not (cards_in(json.loads((await projector).body)["html"]) & hidden)
        pupil = await self.http_client.fetch(
            self.get_url(PREFIX + f"?after={news}"), headers={"X-Test-User": "ann"}, raise_error=False
        )
        assert pupil.code == 403
        bad = await self.http_client.fetch(self.get_url(PREFIX + "?after=x1"), headers=tess, raise_error=False)
        assert bad.code == 400 and json.loads(bad.body)["error"].startswith("after")


def test_a_restart_keeps_who_is_away_and_the_flood_window(tmp_path: Path) -> None:
    db = tmp_path / "tables.sqlite"
    clock, wall = Clock(), [5_000_000.0]
    room = Room(Store(str(db)), random.Random(7), clock, away_seconds=5, wall=lambda: wall[0])
    t = room.open({"players": 5, "deals": None, "seed": 3, "wait": False})
    for n in PUPILS:
        room.join(n, t.id)
    clock.now += 3
    for n in ("ann", "bob"):
        room.seat_of(n, t.id)
    clock.now += 3
    assert room.sweep() == [t.id]
    ada = t.seat_of("ada")
    for _ in range(FLOOD_REQUESTS):
        room.flood("bob")
    room.keep()
    room.store.db.close()
    # the service starts again a moment later, with a new process's clock
    later = Clock()
    later.now = 7.0
    wall[0] += 0.5
    again = Room(Store(str(db)), random.Random(1), later, away_seconds=5, wall=lambda: wall[0])
    u = again.tables[t.id]
    assert ada is not None and ada in u.away and u.hand.to_act != ada  # her bot plays on
    with pytest.raises(Flooded):
        again.flood("bob")
    again.flood("ann")  # others are not held back
    later.now += FLOOD_SECONDS + 0.1
    again.flood("bob")  # the window has passed
    again.seat_of("ada", t.id)  # she comes back: no longer away, there or in the store
    assert ada not in u.away and again.store.away(t.id) == set()


def test_each_seats_view_is_built_once_a_change_and_a_refusal_goes_to_its_maker_only() -> None:
    room = Room(Store(":memory:"), random.Random(3))
    t = room.open({"players": 5, "deals": 2, "seed": 3, "wait": False})
    for n in PUPILS:
        room.join(n, t.id)
    built: Counter[object] = Counter()
    seat_json, public_json = t.seat_json, t.public_json

    def counted_seat(seat: int, public: Any = None) -> dict[str, Any]:
        built[seat] += 1
        return seat_json(seat, public)

    def counted_public() -> dict[str, Any]:
        built["public"] += 1
        return public_json()

    t.seat_json = counted_seat  # type: ignore[method-assign]
    t.public_json = counted_public  # type: ignore[method-assign]
    heard: list[int] = []

    def socket_of(seat: int) -> Callable[[str], None]:
        return lambda _code: heard.append(seat)

    for seat in range(3):  # a socket of each pupil
        room.listeners[t.id][socket_of(seat)] = seat
    s = t.hand.to_act
    assert s is not None
    mover = t.pupils[s]
    other = next(x for x in range(3) if x != s)
    key = t.seat_json(s)["legal"][0]["key"]
    built.clear()
    with pytest.raises(TableError):  # another pupil's stale move: told to that pupil only
        room.move(t.pupils[other], t.id, other, "stand", t.number + 4)
    assert heard == [other] and json.loads(room.view(t.id, other))["refused"]
    heard.clear()
    room.move(mover, t.id, s, key, t.number)
    assert sorted(heard) == [0, 1, 2]
    built.clear()
    for _ in range(3):  # the mover's answer, and two tabs of theirs
        room.view(t.id, s)
    for seat in range(3):
        room.view(t.id, seat)
    assert built[s] == 1 and built["public"] == 1 and all(built[x] == 1 for x in range(3))
