"""Tables in a benchmark: ``loo-lessons class bench --tables``.

Starts the class hub (deploy/jupyterhub/jupyterhub_config.py, through `classroom.drive`) with
N pupils (25 by default) and a teacher. The teacher opens N / 5 tables of five seats (the
pupils fill them; no bots) for 10 deals each; every pupil logs in, joins their table, opens a
WebSocket through the hub's proxy and plays a legal move (seeded random) whenever their view
says it is their turn. Prints: the moves made and stored (lost or duplicated: none, if every
acknowledged move has its own number and the tables' numbers add up), the card-leak probe
(each pupil asks every endpoint for another table or seat, and no seat's view ever holds a
card another seat holds), the move-to-all-seats latency (a move's POST to the last seat's
WebSocket message showing it: median, p95, worst), and whether every table's ledger adds up
(counters only move). Bounded by --timeout; everything started is stopped by its pids and the
Unix users removed. Run as root.
"""

from __future__ import annotations

import json
import random
import statistics
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from loo_lessons.classroom.bench import bench_class, percentile

SEATS = 5
API = "/services/class-tables/api/"


@dataclass
class Seat:
    """One pupil's play: the moves acknowledged (number → POST time), when each view arrived
    (number → time), the hands seen (deal → cards), and what went wrong."""

    name: str
    table: str = ""
    joined: int = 0  # the table's move number when this pupil sat down
    acked: dict[int, float] = field(default_factory=dict)
    heard: dict[int, float] = field(default_factory=dict)
    hands: dict[int, set[str]] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    leaks: list[str] = field(default_factory=list)


def _play(url: str, token: str, seat: Seat, others: list[str], seed: int, deadline: float) -> None:
    """One pupil: join, probe the other tables, play on their WebSocket until the table is over."""
    import requests
    import websocket

    auth = {"Authorization": f"token {token}"}
    rng = random.Random(seed)
    r = requests.post(url + API + "join", json={"table": seat.table}, headers=auth, timeout=30)
    if r.status_code != 200:
        seat.errors.append(f"{seat.name}: join: {r.status_code} {r.text[:100]}")
        return
    seat.joined = r.json()["number"]  # the seats not yet taken were played by bots till then
    probes: list[Callable[[], requests.Response]] = [
        lambda: requests.get(url + API + "tables", headers=auth, timeout=30),
        lambda: requests.get(url + "/services/class-tables/", headers=auth, timeout=30, allow_redirects=False),
    ]
    for other in others:
        probes += [
            lambda o=other: requests.get(url + API + f"view?table={o}", headers=auth, timeout=30),  # type: ignore[misc]
            lambda o=other: requests.get(url + API + f"wait?table={o}&after=0", headers=auth, timeout=30),  # type: ignore[misc]
            lambda o=other: requests.post(  # type: ignore[misc]
                url + API + "move", json={"table": o, "seat": 0, "move": "pass", "number": 0}, headers=auth, timeout=30
            ),
        ]
    for probe in probes:
        answer = probe()
        if answer.status_code == 200:
            seat.leaks.append(f"{seat.name}: {answer.request.method} {answer.url} answered 200")
    ws = websocket.create_connection(
        url.replace("http", "ws", 1) + API + f"ws?table={seat.table}", header=[f"Authorization: token {token}"], timeout=60
    )
    try:
        while time.monotonic() < deadline:
            v = json.loads(ws.recv())
            now = time.monotonic()
            seat.heard.setdefault(v["number"], now)
            seat.hands.setdefault(v["deal"], set()).update(v["hand"])
            if v["over"]:
                return
            if v["your_turn"] and v["number"] not in seat.acked:
                key = rng.choice(v["legal"])["key"]
                body = {"table": seat.table, "seat": v["seat"], "move": key, "number": v["number"]}
                sent = time.monotonic()
                m = requests.post(url + API + "move", json=body, headers=auth, timeout=30)
                if m.status_code != 200:
                    seat.errors.append(f"{seat.name}: move {v['number']}: {m.status_code} {m.text[:100]}")
                    return
                seat.acked[v["number"]] = sent
        seat.errors.append(f"{seat.name}: the table was not over in time")
    finally:
        ws.close()


def run(count: int, deals: int, timeout: float, seed: int = 1) -> list[str]:
    """The benchmark; returns the lines of its report (the last: "errors: N")."""
    import requests

    from loo_lessons.classroom.drive import log_in, token_for

    report: list[str] = []
    deadline = time.monotonic() + timeout
    with bench_class(count, "tab", report) as c:
        h, names, teacher, passwords = c.hub, c.names, c.teacher, c.passwords
        with ThreadPoolExecutor(8) as pool:
            tokens = dict(zip([*names, teacher], pool.map(lambda n: token_for(h, log_in(h, n, passwords[n]), n), [*names, teacher]), strict=True))
        teach = {"Authorization": f"token {tokens[teacher]}"}
        codes = []
        for i in range(count // SEATS):
            r = requests.post(
                h.url + API + "tables",
                json={"players": SEATS, "deals": deals, "seed": seed + i, "bots": "sensible", "wait": False},
                headers=teach,
                timeout=30,
            )
            codes.append(r.json()["table"])
        seats = [Seat(n, codes[i // SEATS]) for i, n in enumerate(names[: len(codes) * SEATS])]
        report.append(f"{len(seats)} pupils at {len(codes)} tables of {SEATS}, {deals} deals each (seed {seed})")
        with ThreadPoolExecutor(len(seats)) as pool:
            list(
                pool.map(
                    lambda s: _play(h.url, tokens[s[1].name], s[1], [c for c in codes if c != s[1].table], seed * 1000 + s[0], deadline),
                    enumerate(seats),
                )
            )
        errors = [e for s in seats for e in s.errors]
        leaks = [x for s in seats for x in s.leaks]
        listed = {t["table"]: t for t in requests.get(h.url + API + "tables", headers=teach, timeout=30).json()["tables"]}
        latencies, made, lost = [], 0, 0
        for code in codes:
            at = [s for s in seats if s.table == code]
            acked = [n for s in at for n in s.acked]
            made += len(acked)
            # once the last pupil sat down, every move is a pupil's, acknowledged once
            seated = max(s.joined for s in at)
            if len(acked) != len(set(acked)) or sorted(acked) != list(range(seated, listed[code]["number"])):
                lost += 1
                errors.append(f"table {code}: moves acknowledged {len(acked)}, the table's {listed[code]['number']}")
            for n, sent in (x for s in at for x in s.acked.items()):
                last = [min((t for k, t in s.heard.items() if k > n), default=None) for s in at]
                if all(t is not None for t in last):
                    latencies.append(max(t for t in last if t is not None) - sent)
            for a in at:  # no seat ever saw a card another seat held in the same deal
                for b in at:
                    for d, cards in a.hands.items():
                        if b is not a and cards & b.hands.get(d, set()):
                            leaks.append(f"{a.name} and {b.name} both saw {sorted(cards & b.hands[d])} in deal {d}")
            t = listed[code]
            if [d["deal"] for d in t["ledger"]] != list(range(1, deals + 1)) or sum(t["balances"]) + t["pool"] != t["total"]:
                errors.append(f"table {code}: the ledger does not add up")
        stored = sum(listed[c]["number"] for c in codes)
        report.append(f"moves: {made} made by pupils, {stored} stored; tables with lost or duplicated moves: {lost}")
        report.append(f"card leaks: {len(leaks)}")
        if latencies:
            report.append(
                f"move to all seats: median {statistics.median(latencies) * 1000:.0f} ms,"
                f" p95 {percentile(latencies, 95) * 1000:.0f} ms, worst {max(latencies) * 1000:.0f} ms ({len(latencies)} moves)"
            )
        report.append(f"ledgers that add up: {len(codes) - sum('ledger' in e for e in errors)} of {len(codes)}")
        errors += leaks
        report.append(f"errors: {len(errors)}")
        report.extend(f"  {line}" for line in errors[:20])
    return report


#: Most deals a benchmark's tables play.
MAX_DEALS = 50


def bench(args: Any) -> int:
    """`loo-lessons class bench --tables`: checks the options, runs, prints the report; exit 1
    on errors, 2 on bad options."""
    import os
    import sys

    from loo_lessons.classroom.bench import MAX_PUPILS, MAX_TIMEOUT, print_report

    problem = None
    if not SEATS <= args.pupils <= MAX_PUPILS or args.pupils % SEATS:
        problem = f"--pupils: with --tables, {SEATS} to {MAX_PUPILS} in fives (a table of {SEATS} each)"
    elif not 1 <= args.deals <= MAX_DEALS:
        problem = f"--deals: 1 to {MAX_DEALS}"
    elif not 0 < args.timeout <= MAX_TIMEOUT:
        problem = f"--timeout: more than 0 and at most {MAX_TIMEOUT:g}"
    elif not 0 <= args.seed < 2**32:
        problem = "--seed: 0 to 2**32 - 1"
    elif os.geteuid() != 0:
        problem = "run as root: the class hub makes a Unix user per pupil"
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    return print_report(lambda: run(args.pupils, args.deals, args.timeout, args.seed))
