"""The class tables service as the hub starts it, restarted, flooded and stopped (issue 36).

Its own process (``python -m loo_lessons.classroom.tables.service --db FILE``, the hub's
variables in its environment), the hub's API stood in for by `_tables.FakeHub` (tokens name
pupils; "tess" is the teacher). A browser is a session holding the hub's login cookie for the
service, signed with the service's kept secret, and the page's xsrf token; a kernel is a token.
"""

from __future__ import annotations

import json
import re
import signal
import stat
import subprocess
import sys
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
import requests
import websocket
from _tables import FakeHub, HubService
from tornado.web import create_signed_value

from loo_lessons.classroom.tables.room import MAX_OPEN

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

TOKENS = {"t-ann": "ann", "t-bob": "bob", "t-ada": "ada", "t-tess": "tess", "t-eve": "eve"}
FETCH = {"Sec-Fetch-Mode": "cors", "Sec-Fetch-Site": "same-origin"}  # what a page's fetch sends


@pytest.fixture
def service(tmp_path: Path) -> Iterator[HubService]:
    hub = FakeHub(TOKENS)
    s = HubService(tmp_path, hub)
    s.start()
    try:
        yield s
    finally:
        if s.proc is not None and s.proc.poll() is None:
            s.stop()
        hub.close()


def call(s: HubService, token: str, path: str, body: Any = None) -> tuple[int, Any]:
    """The service's answer to a kernel (its token): status and JSON."""
    headers = {"Authorization": f"token {token}"}
    if body is not None:
        r = requests.post(s.url + "api/" + path, data=json.dumps(body), headers=headers, timeout=30)
    else:
        r = requests.get(s.url + "api/" + path, headers=headers, timeout=30)
    assert "Traceback" not in r.text
    return r.status_code, r.json()


def browser(s: HubService, token: str) -> tuple[requests.Session, str]:
    """A browser logged in to the hub as the user of `token` (the service's login cookie, signed
    with its kept secret, as its OAuth callback sets it) that opened the seat page: the session
    and the page's xsrf token."""
    secret = bytes.fromhex((s.state / "class-tables-cookie-secret").read_text())
    b = requests.Session()
    b.cookies.set("service-class-tables", create_signed_value(secret, "service-class-tables", token).decode())
    page = b.get(s.url + "seat", headers={"Sec-Fetch-Mode": "navigate"}, timeout=30)
    assert page.status_code == 200, page.text[:300]
    found = re.search(r'name="loo-xsrf" content="([^"]+)"', page.text)
    assert found
    return b, found.group(1)


def post(b: requests.Session, xsrf: str, s: HubService, path: str, body: Any) -> tuple[int, Any]:
    """A page's fetch: the login cookie and the page's xsrf token."""
    r = b.post(s.url + "api/" + path, json=body, headers={**FETCH, "X-XSRFToken": xsrf}, timeout=30)
    return r.status_code, r.json()


def my_turn(s: HubService, table: str, names: dict[str, str]) -> tuple[str, dict[str, Any]]:
    """The token of the pupil to act, and their view."""
    for token in names:
        _, v = call(s, token, f"view?table={table}")
        if v["your_turn"]:
            return token, v
    raise AssertionError("nobody is to act")


def test_a_restart_keeps_every_page_and_kernel_at_the_table(service: HubService) -> None:
    s = service
    secret = s.state / "class-tables-cookie-secret"
    assert stat.S_IMODE(secret.stat().st_mode) == 0o600
    kept = secret.read_bytes()
    code, j = call(s, "t-tess", "tables", {"players": 4, "deals": 2, "seed": 3, "wait": False})
    assert code == 201
    table = j["table"]
    stopped = call(s, "t-tess", "tables", {"players": 3, "deals": 1, "seed": 1})[1]["table"]
    assert call(s, "t-tess", "stop", {"table": stopped})[0] == 200
    ann, xsrf = browser(s, "t-ann")  # ann plays from the seat page, in her browser
    code, mine = post(ann, xsrf, s, "join", {"table": table})
    assert code == 200 and mine["you"] == "ann", mine
    _, bob = call(s, "t-bob", "join", {"table": table})  # bob from his kernel
    before = max(mine["version"], bob["version"])

    s.stop()
    s.start()
    assert secret.read_bytes() == kept  # made once, kept

    # a kernel's long-poll holding a version from before the restart is answered at once
    code, again = call(s, "t-bob", f"wait?table={table}&after={bob['version']}")
    assert code == 200 and again["version"] > before and again["seat"] == bob["seat"]
    # the page's cookie and xsrf token still hold: ann plays on, without reloading
    who, v = my_turn(s, table, {"t-ann": "ann", "t-bob": "bob"})
    if who == "t-ann":
        code, after = post(ann, xsrf, s, "move", {"table": table, "seat": v["seat"], "move": v["legal"][0]["key"], "number": v["number"]})
    else:
        code, after = call(s, who, "move", {"table": table, "seat": v["seat"], "move": v["legal"][0]["key"], "number": v["number"]})
    assert code == 200 and after["number"] > v["number"], after
    code, view = post(ann, xsrf, s, "join", {"table": table})
    assert code == 200 and view["seat"] == mine["seat"]
    # the stopped table is still listed, as over
    listed = {t["table"]: t for t in call(s, "t-tess", "tables")[1]["tables"]}
    assert listed[stopped]["over"] and not listed[table]["over"]


def test_a_secret_others_may_read_is_refused_in_one_line(tmp_path: Path) -> None:
    hub = FakeHub(TOKENS)
    s = HubService(tmp_path, hub)
    try:
        secret = tmp_path / "class-tables-cookie-secret"
        secret.write_text("ab" * 32)
        secret.chmod(0o644)
        with s.log.open("wb") as out:
            code = subprocess.run(
                [sys.executable, "-m", "loo_lessons.classroom.tables.service", "--db", str(tmp_path / "t.sqlite")],
                env=s.env, stdout=out, stderr=subprocess.STDOUT, timeout=60,
            ).returncode
        said = s.log_text().strip().splitlines()
        assert code == 2 and len(said) == 1 and "chmod 600" in said[0] and "Traceback" not in said[0], said
    finally:
        hub.close()


def test_one_pupil_with_many_sockets_is_refused_and_the_class_plays_on(service: HubService) -> None:
    s = service
    table = call(s, "t-tess", "tables", {"players": 4, "deals": 1, "seed": 3, "wait": False})[1]["table"]
    for token in ("t-ann", "t-bob"):
        assert call(s, token, "join", {"table": table})[0] == 200
    ws_url = s.url.replace("http", "ws", 1) + f"api/ws?table={table}"
    log_before = len(s.log_text().splitlines())
    opened, refused = [], []
    for _ in range(MAX_OPEN + 40):  # ann opens socket after socket, as a hostile script would
        try:
            opened.append(websocket.create_connection(ws_url, header=["Authorization: token t-ann"], timeout=10))
        except websocket.WebSocketBadStatusException as e:
            refused.append(e)
    try:
        assert len(opened) == MAX_OPEN and len(refused) == 40
        assert all(e.status_code == 429 for e in refused)
        assert b"at most 8" in (refused[0].resp_body or b"")
        # and a long-poll of hers too
        code, j = call(s, "t-ann", f"wait?table={table}&after=0")
        assert code == 429 and "at most" in j["error"]
        # bob still connects and plays; ann's sockets hear it
        bob_ws = websocket.create_connection(ws_url, header=["Authorization: token t-bob"], timeout=10)
        first = json.loads(bob_ws.recv())
        assert first["you"] == "bob"
        starts = [json.loads(w.recv()) for w in opened]  # each socket: the view at once
        assert {v["version"] for v in starts} == {first["version"]}
        who, v = my_turn(s, table, {"t-ann": "ann", "t-bob": "bob"})
        # a refused move (a stale number) goes to its maker's sockets only
        refuser = "t-bob" if who == "t-ann" else "t-ann"
        _, rv = call(s, refuser, f"view?table={table}")
        code, _ = call(s, refuser, "move", {"table": table, "seat": rv["seat"], "move": "stand", "number": rv["number"] + 5})
        assert code == 409
        code, _ = call(s, who, "move", {"table": table, "seat": v["seat"], "move": v["legal"][0]["key"], "number": v["number"]})
        assert code == 200
        sockets = {"t-ann": opened[0], "t-bob": bob_ws}
        told = json.loads(sockets[refuser].recv())  # the refusal, the table unchanged
        assert told["refused"] and "not the table's next" in told["refused"]["error"]
        assert told["version"] == first["version"]
        assert json.loads(sockets[refuser].recv())["version"] == first["version"] + 1  # then the move
        heard = json.loads(sockets[who].recv())  # the other heard the move only
        assert heard["version"] == first["version"] + 1 and heard["refused"] is None
        bob_ws.close()
    finally:
        for w in opened:
            w.close()
    # the log: a line or two, not one per refused socket
    said = s.log_text().splitlines()[log_before:]
    assert len(said) <= 5, said
    assert "Too many open files" not in s.log_text()


def test_the_after_of_a_wait_is_a_number_or_a_400(service: HubService) -> None:
    s = service
    table = call(s, "t-tess", "tables", {"players": 4, "deals": 1, "seed": 3})[1]["table"]
    call(s, "t-ann", "join", {"table": table})
    tess = {"Authorization": "token t-tess"}
    for bad in ("²", "1e3", "x", "-2", "1" * 40, "٣", "3.0", "0x10", ""):
        code, j = call(s, "t-ann", f"wait?table={table}&after={urllib.parse.quote(bad)}")
        assert code == 400 and j["error"].startswith("after"), (bad, j)
        r = requests.get(s.url, params={"after": bad}, headers=tess, timeout=30)
        assert r.status_code == 400 and r.json()["error"].startswith("after"), (bad, r.text[:200])
    assert "Traceback" not in s.log_text()


def test_ctrl_c_and_the_hubs_stop_end_the_service_quietly(service: HubService) -> None:
    s = service
    call(s, "t-tess", "tables", {"players": 4, "deals": 1, "seed": 3})
    assert s.stop(signal.SIGINT) == 0
    s.start()
    assert s.stop(signal.SIGTERM) == 0
    assert "Traceback" not in s.log_text()


def logged_in(browser: Browser, s: HubService, token: str, width: int = 390, height: int = 844) -> Page:
    """A page of a browser holding the hub's login cookie for the service (as its OAuth
    callback sets it, signed with the service's kept secret)."""
    secret = bytes.fromhex((s.state / "class-tables-cookie-secret").read_text())
    context = browser.new_context(viewport={"width": width, "height": height})
    value = create_signed_value(secret, "service-class-tables", token).decode()
    context.add_cookies([{"name": "service-class-tables", "value": value, "url": s.url}])
    return context.new_page()


def test_open_pages_say_reconnecting_and_play_on_after_a_restart(browser: Browser, service: HubService) -> None:
    s = service
    table = call(s, "t-tess", "tables", {"players": 4, "deals": 2, "seed": 8, "wait": False})[1]["table"]
    pupil = logged_in(browser, s, "t-ann")
    errors: list[str] = []
    pupil.on("pageerror", lambda e: errors.append(str(e)))
    pupil.goto(s.url + f"seat?table={table}")
    pupil.wait_for_selector(".loo-seat-title")
    teacher = logged_in(browser, s, "t-tess", 1280, 800)
    teacher.goto(s.url)
    teacher.wait_for_selector("#live")
    for page in (pupil, teacher):
        page.evaluate("window.__notReloaded = true")

    s.stop()
    pupil.wait_for_selector("text=Reconnecting…", timeout=10_000)
    teacher.wait_for_selector("text=Reconnecting…", timeout=20_000)
    s.start()
    call(s, "t-bob", "join", {"table": table})  # a change after the restart: both pages hear it
    pupil.wait_for_function("() => document.querySelector('#seat').innerText.includes('bob')", timeout=20_000)
    teacher.wait_for_function("() => document.getElementById('live').innerText.includes('bob')", timeout=30_000)
    assert not pupil.locator("text=Reconnecting…").count() and not teacher.locator("text=Reconnecting…").count()
    # ann plays on from the same page: her login cookie and its xsrf token still hold
    for _ in range(20):
        _, v = call(s, "t-ann", f"view?table={table}")
        if v["your_turn"]:
            pupil.wait_for_selector(f'.loo-seat-title[data-number="{v["number"]}"]')
            pupil.locator(".loo-seat-moves button").first.click()
            pupil.wait_for_function(
                "n => Number(document.querySelector('.loo-seat-title').dataset.number) > n", arg=v["number"], timeout=10_000
            )
            break
        _, b = call(s, "t-bob", f"view?table={table}")
        assert b["your_turn"], (v, b)
        call(s, "t-bob", "move", {"table": table, "seat": b["seat"], "move": b["legal"][0]["key"], "number": b["number"]})
    else:
        raise AssertionError("ann was never to act")
    assert pupil.locator("[role=alert]").count() == 0
    assert pupil.evaluate("window.__notReloaded") is True and teacher.evaluate("window.__notReloaded") is True
    assert pupil.evaluate("document.documentElement.dataset.looFallback") is None  # a WebSocket again
    assert errors == []


def test_a_demo_plays_alone_a_table_ends_settled_and_a_wild_stake_is_refused(service: HubService) -> None:
    s = service
    code, j = call(s, "t-tess", "tables", {"players": 4, "stake": 100_000})
    assert code == 400 and j["error"] == "stake: a class's table takes 1 to 100 counters, got 100,000"
    form = requests.post(s.url, data={"players": "4", "stake": "100000", "loo_kind": "fixed"}, headers={"Authorization": "token t-tess"}, timeout=30)
    assert form.status_code in (400, 403)  # the form wants the page's xsrf token; the API said why
    # a bots-only table: it waits for the Start, then the bots play a move a second, alone
    demo = call(s, "t-tess", "tables", {"players": 4, "deals": 1, "seed": 2, "demo": True})[1]["table"]
    code, j = call(s, "t-ann", "join", {"table": demo})
    assert code == 409 and "demo" in j["error"]
    assert call(s, "t-tess", "start", {"table": demo})[0] == 200
    deadline = time.monotonic() + 20
    while (t := next(t for t in call(s, "t-tess", "tables")[1]["tables"] if t["table"] == demo))["number"] < 3:
        assert time.monotonic() < deadline, t
        time.sleep(0.5)
    # a table played to its end: no stake for a deal that will not be dealt, the pool shared out
    table = call(s, "t-tess", "tables", {"players": 3, "deals": 2, "seed": 5, "wait": False, "rules": {"preset": "peel", "loo_amount": "pool"}})[1]["table"]
    names = {"t-ann": "ann", "t-bob": "bob", "t-ada": "ada"}
    for token in names:
        call(s, token, "join", {"table": table})
    while True:
        _, v = call(s, "t-ann", f"view?table={table}")
        if v["over"]:
            break
        who, v = my_turn(s, table, names)
        assert call(s, who, "move", {"table": table, "seat": v["seat"], "move": v["legal"][-1]["key"], "number": v["number"]})[0] == 200
    ended = next(t for t in call(s, "t-tess", "tables")[1]["tables"] if t["table"] == table)
    assert ended["pool"] == 0 and sum(ended["balances"]) == ended["total"] == 3 * 100
    assert ended["ledger"][-1]["balances"] == ended["balances"]  # the final counters: the ledger's last line
    assert ended["ledger"][-1]["lines"][-1]["rule_id"] == "V15"
