"""A pupil's seat at a class table (`widgets/controllers/seat.py`, the `seat` widget) against
the real tables service, served in a thread of this process (issue 27): joining by the code,
a legal move, a move against the rules refused with its rule id and the book's words, a move
out of turn refused, the follower thread bringing the others' moves, closing it, and every
message the component would never send refused in one line. Off the hub the widget says so.
The hub's own run (a real pupil's kernel) is tests/test_tables_hub.py's.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from typing import Any

import pytest
from _tables import Served, serving

from loo_lessons.class_tables import Tables
from loo_lessons.widgets.controllers.seat import SeatController

PREFIX = "/services/class-tables/"
PUPILS = ("ann", "bob", "ada")


@pytest.fixture()
def table() -> Iterator[tuple[Served, str]]:
    """The service (its long-poll answers within a second) and a table of three pupils and two bots."""
    with serving(PREFIX, wait_seconds=1) as served:
        yield served, Tables(served.url, token="tess").open(players=5, deals=3, seed=11, bots="sensible", wait=False)


def seat(url: str, name: str, code: str | None = None, follow: bool = False) -> SeatController:
    return SeatController(code, tables=Tables(url, token=name), follow=follow)


def request(ctl: SeatController, n: int, **ev: Any) -> dict[str, Any]:
    """What the component sends: the request trait, synced."""
    ctl.receive({"sync": {"request": {"n": n, **ev}}})
    return ctl.data


def until(check: Any, seconds: float = 10) -> None:
    end = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < end, "not in time"
        time.sleep(0.05)


def test_a_pupil_joins_by_the_code_and_plays_a_legal_move(table: tuple[Served, str]) -> None:
    served, code = table
    url, room = served.url, served.room
    ctls = {n: seat(url, n) for n in PUPILS}
    for i, (n, c) in enumerate(ctls.items()):
        d = request(c, 1, type="join", table=code.lower())  # as typed: case does not matter
        assert "refused" not in d and d["table"] == code and d["view"]["you"] == n and d["view"]["seat"] == i
        assert len(d["view"]["hand"]) <= 3  # (a seat's bot may have thrown up before its pupil sat)
    assert len(ctls["ann"].data["view"]["hand"]) == 3
    t = room.tables[code]
    mover = ctls[t.pupils[t.hand.to_act]]  # type: ignore[index]
    ctls_view = mover.data["view"]
    mover.receive({"sync": {"request": {"n": 2, "type": "move", "key": ctls_view["legal"][0]["key"]}}})
    after = mover.data["view"]
    assert "refused" not in mover.data and after["number"] > ctls_view["number"] and after["refused"] is None
    assert [m.action for m in served.there(lambda: room.store.moves(code)) if not m.by_bot][-1] == ctls_view["legal"][0]["key"]


def test_moves_against_the_rules_or_out_of_turn_are_refused_with_the_law(table: tuple[Served, str]) -> None:
    served, code = table
    url, room = served.url, served.room
    ctls = {n: seat(url, n, code) for n in PUPILS}
    t = room.tables[code]
    waiting = next(c for c in ctls.values() if not c.data["view"]["your_turn"])
    key = waiting.data["view"]["hand"][0]
    before = served.there(lambda: room.store.count(code))
    d = request(waiting, 5, type="move", key=key)
    assert "turn" in d["refused"] and "\n" not in d["refused"] and served.there(lambda: room.store.count(code)) == before
    # play on until a pupil holds a card the rules forbid now, and try it
    rng = random.Random(3)
    for _ in range(200):
        s = t.hand.to_act
        assert s is not None and s in t.pupils, "the table ended before a card was forbidden"
        c = ctls[t.pupils[s]]
        c.refresh()  # (this pupil's widget does not follow the table: it asks)
        v = c.data["view"]
        legal = {m["key"] for m in v["legal"]}
        forbidden = [k for k in v["hand"] if k not in legal]
        if forbidden and v["public"]["phase"] == "play":
            c.move(forbidden[0])
            shown = c.data["view"]["refused"]
            assert shown is not None and shown["law"]["rule_id"].startswith("R") and shown["law"]["book"]
            assert shown["law"]["quote"] and c.data["refused"]  # the one line, and the law in the view
            return
        c.move(rng.choice(sorted(legal)))
    raise AssertionError("no forbidden card in 200 moves")


def test_the_follower_brings_the_others_moves_and_stops_when_closed(table: tuple[Served, str]) -> None:
    served, code = table
    url, room = served.url, served.room
    told: list[int] = []
    ctls = {n: seat(url, n, code, follow=n == "ann") for n in PUPILS}
    ann = ctls["ann"]
    ann.on_change = lambda: told.append(ann.data["view"]["version"])
    t = room.tables[code]
    seen = ann.data["view"]["version"]
    s = t.hand.to_act
    assert s is not None
    if t.pupils[s] == "ann":  # let another move: ann plays first
        ann.move(ann.data["view"]["legal"][0]["key"])
        seen = ann.data["view"]["version"]
        s = t.hand.to_act
        assert s is not None
    other = ctls[t.pupils[s]]
    other.refresh()
    other.move(other.data["view"]["legal"][0]["key"])
    until(lambda: ann.data["view"]["version"] > seen)
    assert told and told[-1] == ann.data["view"]["version"]
    assert ann.data["view"]["number"] == t.number
    thread = ann._thread
    assert thread is not None and thread.is_alive()
    ann.close()
    thread.join(5)  # the long-poll answers within a second; then the follower stops
    assert not thread.is_alive()


def test_a_seat_at_a_table_that_waits_says_so_until_the_start(table: tuple[Served, str]) -> None:
    served, _ = table
    code = Tables(served.url, token="tess").open(players=4, deals=1, seed=2, wait=True)
    ann = seat(served.url, "ann", code, follow=True)
    v = ann.data["view"]
    assert v["waiting"] and v["legal"] == [] and not v["your_turn"]
    Tables(served.url, token="tess").start(code)
    until(lambda: not ann.data["view"]["waiting"])  # the follower hears the Start
    assert ann.data["view"]["your_turn"] and ann.data["view"]["legal"]  # the bots moved up to her
    ann.close()


def test_what_the_component_never_sends_is_refused_in_one_line(table: tuple[Served, str]) -> None:
    served, code = table
    url = served.url
    c = seat(url, "ann")
    cases = [
        ({"n": 1, "type": "join", "table": "Q" * 40}, "table:"),
        ({"n": 1, "type": "join", "table": 7}, "table:"),
        ({"n": 1, "type": "join", "table": "NOPE00"}, "table:"),
        ({"n": 1, "type": "move", "key": "AS"}, "move: sit at a table first"),
        ({"n": 1, "type": "deal"}, "unknown request"),
        ({"n": 1, "type": "join", "table": code, "seat": 2}, "has no seat"),
        ({"n": -1, "type": "join", "table": code}, "n must"),
        ("join", "a request is an object"),
    ]
    for ev, said in cases:
        c.receive({"sync": {"request": ev}})
        d = c.data
        assert said in d["refused"] and "\n" not in d["refused"], (ev, d)
        assert d["view"] is None
    d = request(c, 2, type="join", table=code)
    assert "refused" not in d and d["view"]["you"] == "ann"
    d = request(c, 3, type="move", key="Z" * 30)
    assert d["refused"].startswith("move:")


def test_off_the_hub_the_seat_says_where_it_plays(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LOO_CLASS_TABLES_URL", raising=False)
    monkeypatch.delenv("JUPYTERHUB_API_TOKEN", raising=False)
    c = SeatController("K7QMRT", follow=False)
    assert "run this on the class hub" in c.data["refused"] and c.data["view"] is None
    c = SeatController(follow=False, tables=Tables("http://127.0.0.1:9/services/class-tables/", token="ann"))
    d = request(c, 1, type="join", table="K7QMRT")
    assert "did not answer" in d["refused"]


def test_the_seat_says_reconnecting_while_the_service_is_away_and_carries_on(table: tuple[Served, str]) -> None:
    """The service restarts under a JupyterLab seat: its long-poll fails, the seat says
    "Reconnecting…" (and the kernel pushes that), then takes the view of the restarted service,
    whose version is above any before, and says nothing more."""
    served, code = table
    real = Tables(served.url, token="ann")
    away = {"calls": 0}

    class Restarting:
        """The service, away for the follower's first two long-polls."""

        def join(self, c: str) -> dict[str, Any]:
            return real.join(c)

        def view(self, c: str) -> dict[str, Any]:
            return real.view(c)

        def move(self, c: str, view: dict[str, Any], key: str) -> dict[str, Any]:
            return real.move(c, view, key)

        def wait(self, c: str, after: int) -> dict[str, Any]:
            away["calls"] += 1
            if away["calls"] <= 2:
                raise ConnectionRefusedError(111, "Connection refused")
            return {**real.view(c), "version": after + 1_000}  # a restarted service's version

    said: list[str] = []
    ann = SeatController(code, tables=Restarting(), follow=False)
    ann.on_change = lambda: said.append(ann.data["status"])
    before = ann.data["view"]["version"]
    ann._follow = True
    ann._start()
    until(lambda: ann.data["view"]["version"] > before, seconds=15)
    ann.close()
    assert said[0].startswith("Reconnecting…") and "not answering" in said[0]
    assert said[-1] == "" and ann.data["status"] == ""
