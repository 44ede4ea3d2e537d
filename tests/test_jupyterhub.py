"""A class on one server: a real JupyterHub runs lesson 1 for two pupils.

The hub is started from the class recipe itself (deploy/jupyterhub/jupyterhub_config.py:
the class-password authenticator, the one-machine spawner, each pupil's own copy of the
lessons) with configurable-http-proxy from deploy/jupyterhub/package-lock.json, all on
127.0.0.1 and free ports. Two pupils log in through the login form, their servers are
spawned at once (a spawn blocks for seconds), and each pupil's own copy of lesson 1 is read
through their own server and every code cell run in a kernel of that server, over its
websocket. Each output must be free of errors, and each pupil's kernel must have worked in
that pupil's folder. Then one pupil's server is stopped: their URL answers 424 until they
go through /hub/spawn, which brings it back with their work.

Traps (issue 12): the hub is up only when /hub/api/ answers 200; a form post with the
cookie needs the _xsrf token of its path; a pupil's server started as root needs
--allow-root (the recipe adds it); hub, proxy and every pupil's server run in process
groups of their own, so each one's pid is recorded and every survivor is stopped, also when
the test fails.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import requests  # comes with jupyterlab_server
import websocket  # websocket-client, comes with jupyter_server

ROOT = Path(__file__).resolve().parent.parent
RECIPE = ROOT / "deploy" / "jupyterhub"
PROXY = RECIPE / "node_modules" / ".bin" / "configurable-http-proxy"
JUPYTERHUB = Path(sys.executable).parent / "jupyterhub"
LESSON = "01-welcome.ipynb"
PUPILS = ("ann", "bob")
PASSWORD = secrets.token_hex(8)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # pragma: no cover - not ours
        return False
    # a zombie (exited, not yet reaped) counts as gone
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except OSError:
        return False


def descendants(pids: set[int]) -> set[int]:
    """Every live process below `pids` (read from /proc), so that kernels started by a
    pupil's server are stopped too."""
    parent: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parent[int(entry.name)] = int(fields[1])
    found = set(pids)
    grew = True
    while grew:
        more = {p for p, pp in parent.items() if pp in found and p not in found}
        found |= more
        grew = bool(more)
    return {p for p in found if alive(p)}


@dataclass
class Hub:
    url: str
    state: Path
    log: Path
    pids: set[int]  # every process of the hub recorded so far (hub, proxy, pupils' servers)

    def log_text(self) -> str:
        return self.log.read_text(errors="replace")[-6000:]


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[Hub]:
    assert PROXY.exists(), "configurable-http-proxy is missing: `make test` installs it"
    port, hub_port, api_port = free_port(), free_port(), free_port()
    state = tmp_path / "hub-state"
    env = {
        **os.environ,
        "LOO_HUB_PASSWORD": PASSWORD,
        "LOO_HUB_PUPILS": ",".join(PUPILS),
        "LOO_HUB_IP": "127.0.0.1",
        "LOO_HUB_PORT": str(port),
        "LOO_HUB_HUB_PORT": str(hub_port),
        "LOO_HUB_API_PORT": str(api_port),
        "LOO_HUB_STATE": str(state),
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
        "JUPYTER_CONFIG_DIR": str(tmp_path / "jupyter-config"),
        "JUPYTER_RUNTIME_DIR": str(tmp_path / "jupyter-runtime"),
    }
    log = tmp_path / "hub.log"
    with log.open("w") as out:
        proc = subprocess.Popen(
            [str(JUPYTERHUB), "-f", str(RECIPE / "jupyterhub_config.py")],
            cwd=tmp_path,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group, stopped by its pid below
        )
    h = Hub(f"http://127.0.0.1:{port}", state, log, {proc.pid})
    try:
        deadline = time.monotonic() + 40
        while True:  # up only when /hub/api/ answers 200 (the proxy answers 503 before)
            try:
                if requests.get(f"{h.url}/hub/api/", timeout=2).status_code == 200:
                    break
            except requests.RequestException:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the hub did not start:\n" + h.log_text())
            time.sleep(0.3)
        pid_file = state / "jupyterhub-proxy.pid"
        h.pids.add(int(pid_file.read_text()))
        yield h
    finally:
        stop(proc, h)


def stop(proc: subprocess.Popen[bytes], h: Hub) -> None:
    """Stop the hub (which stops the proxy and the pupils' servers), then every survivor
    among the processes recorded and their children."""
    every = descendants(h.pids)
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    deadline = time.monotonic() + 10
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for pid in sorted(p for p in every if alive(p)):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, sig)
        while any(alive(p) for p in every) and time.monotonic() < deadline:
            time.sleep(0.2)
        deadline = time.monotonic() + 5
    left = [p for p in every if alive(p)]
    assert not left, f"processes of the hub survived: {left}"


def log_in(h: Hub, name: str) -> Any:
    """Log in through the form, with the _xsrf token the login page set for /hub/."""
    s = requests.Session()
    r = s.get(f"{h.url}/hub/login", timeout=10)
    assert r.status_code == 200, r.text[:500]
    xsrf = s.cookies.get("_xsrf", path="/hub/")
    assert xsrf is not None, "the login page sets no _xsrf cookie"
    r = s.post(
        f"{h.url}/hub/login",
        data={"username": name, "password": PASSWORD, "_xsrf": xsrf},
        allow_redirects=False,
        timeout=10,
    )
    assert r.status_code == 302, f"{name} was not logged in: {r.status_code}\n{h.log_text()}"
    wrong = requests.post(
        f"{h.url}/hub/login",
        data={"username": name, "password": "not-" + PASSWORD, "_xsrf": xsrf},
        cookies={"_xsrf": xsrf},
        allow_redirects=False,
        timeout=10,
    )
    assert wrong.status_code != 302, "a wrong class password let a pupil in"
    return s


def token_for(h: Hub, s: Any, name: str) -> str:
    """A token of the pupil's own, asked for with their login cookie."""
    r = s.post(
        f"{h.url}/hub/api/users/{name}/tokens",
        json={"note": "test", "expires_in": 600},
        headers={"X-XSRFToken": s.cookies.get("_xsrf", path="/hub/")},
        timeout=10,
    )
    assert r.status_code == 201, f"{r.status_code} {r.text[:300]}"
    token: str = r.json()["token"]
    return token


def spawn(h: Hub, name: str, token: str) -> dict[str, Any]:
    """Start the pupil's server (through the hub's API, as /hub/spawn does) and wait until
    it is ready; record its pid."""
    auth = {"Authorization": f"token {token}"}
    r = requests.post(f"{h.url}/hub/api/users/{name}/server", headers=auth, timeout=30)
    assert r.status_code in (201, 202), f"{r.status_code} {r.text[:300]}\n{h.log_text()}"
    deadline = time.monotonic() + 60
    while True:
        me = requests.get(f"{h.url}/hub/api/user", headers=auth, timeout=10).json()
        server = me["servers"].get("")
        if server and server["ready"]:
            return dict(server)
        assert time.monotonic() < deadline, f"{name}'s server did not start:\n{h.log_text()}"
        time.sleep(0.3)


def server_pid(h: Hub, name: str) -> int:
    """The pid of the pupil's server, from the process table: the jupyterhub-singleuser
    whose JUPYTERHUB_USER is this pupil, below the hub."""
    for pid in descendants(h.pids):
        try:
            environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if b"jupyterhub-singleuser" in cmd and f"JUPYTERHUB_USER={name}".encode() in environ:
            return pid
    raise AssertionError(f"no server process for {name}")


def run_code(ws: Any, code: str, session: str) -> list[dict[str, Any]]:
    """Send one execute_request on the kernel's websocket (the JSON protocol) and collect
    the outputs until the kernel is idle again."""
    msg_id = uuid.uuid4().hex
    ws.send(
        json.dumps(
            {
                "header": {
                    "msg_id": msg_id,
                    "msg_type": "execute_request",
                    "username": "pupil",
                    "session": session,
                    "version": "5.3",
                    "date": "",
                },
                "parent_header": {},
                "metadata": {},
                "content": {
                    "code": code,
                    "silent": False,
                    "store_history": True,
                    "user_expressions": {},
                    "allow_stdin": False,
                    "stop_on_error": True,
                },
                "channel": "shell",
                "buffers": [],
            }
        )
    )
    outputs: list[dict[str, Any]] = []
    replied = idle = False
    while not (replied and idle):
        msg = json.loads(ws.recv())
        if msg.get("parent_header", {}).get("msg_id") != msg_id:
            continue
        kind = msg["msg_type"]
        if kind in ("execute_result", "display_data", "stream", "error"):
            outputs.append({"output_type": kind, **msg["content"]})
        elif kind == "execute_reply":
            replied = True
            if msg["content"]["status"] != "ok":
                outputs.append({"output_type": "error", **msg["content"]})
        elif kind == "status" and msg["content"]["execution_state"] == "idle":
            idle = True
    return outputs


def run_lesson(h: Hub, name: str, token: str) -> tuple[int, list[list[dict[str, Any]]], str]:
    """Lesson 1 from the pupil's own copy, every code cell run in a kernel of their server."""
    base = f"{h.url}/user/{name}"
    auth = {"Authorization": f"token {token}"}
    r = requests.get(
        f"{base}/api/contents/loo-lessons/notebooks/{LESSON}", headers=auth, timeout=30
    )
    assert r.status_code == 200, f"{r.status_code}: {r.text[:300]}"
    cells = [c for c in r.json()["content"]["cells"] if c["cell_type"] == "code"]
    r = requests.post(
        f"{base}/api/kernels",
        json={"name": "python3", "path": "loo-lessons/notebooks"},
        headers=auth,
        timeout=60,
    )
    assert r.status_code == 201, f"{r.status_code}: {r.text[:300]}"
    kernel = r.json()["id"]
    session = uuid.uuid4().hex
    ws = websocket.create_connection(
        f"ws://127.0.0.1:{h.url.rsplit(':', 1)[1]}/user/{name}/api/kernels/{kernel}/channels"
        f"?session_id={session}",
        header=[f"Authorization: token {token}"],
        timeout=120,
    )
    try:
        outputs = [run_code(ws, "".join(c["source"]), session) for c in cells]
        where = run_code(ws, "import os; print(os.getcwd())", session)
    finally:
        ws.close()
        requests.delete(f"{base}/api/kernels/{kernel}", headers=auth, timeout=30)
    cwd = "".join(o.get("text", "") for o in where).strip()
    return len(cells), outputs, cwd


def test_two_pupils_run_lesson_one_on_a_class_hub(hub: Hub) -> None:
    sessions = {name: log_in(hub, name) for name in PUPILS}
    tokens = {name: token_for(hub, s, name) for name, s in sessions.items()}
    outsider = requests.post(
        f"{hub.url}/hub/api/users/{PUPILS[0]}/server",
        headers={"Authorization": f"token {tokens[PUPILS[1]]}"},
        timeout=10,
    )
    assert outsider.status_code in (403, 404), "one pupil could start another's server"

    with ThreadPoolExecutor(len(PUPILS)) as pool:  # spawns block: start them together
        servers = dict(
            zip(PUPILS, pool.map(lambda n: spawn(hub, n, tokens[n]), PUPILS), strict=True)
        )
    for name in PUPILS:
        hub.pids.add(server_pid(hub, name))
        assert servers[name]["url"] == f"/user/{name}/"
        own = hub.state / "pupils" / name / "loo-lessons" / "notebooks" / LESSON
        assert own.exists(), f"{name} has no copy of the lessons"
        glossary = own.parent.parent / "book" / "glossary.md"
        assert glossary.exists(), f"{name}'s lessons link to a glossary that is not there"

    with ThreadPoolExecutor(len(PUPILS)) as pool:
        runs = dict(
            zip(PUPILS, pool.map(lambda n: run_lesson(hub, n, tokens[n]), PUPILS), strict=True)
        )

    for name, (count, outputs, cwd) in runs.items():
        assert count >= 5, f"lesson 1 has only {count} code cells"
        errors = [o for out in outputs for o in out if o["output_type"] == "error"]
        assert not errors, f"{name}: {errors[0].get('ename')}: {errors[0].get('evalue')}"
        shown = [o for out in outputs for o in out if o["output_type"] != "stream"]
        assert len(shown) >= count - 1, f"{name}: cells showed nothing"
        html = " ".join(o.get("data", {}).get("text/html", "") for o in shown)
        assert "Hoffmann" in html, f"{name}: lesson 1 shows no book's words"
        assert Path(cwd) == hub.state / "pupils" / name / "loo-lessons" / "notebooks"

    # a pupil's server answers that pupil only
    r = requests.get(
        f"{hub.url}/user/{PUPILS[0]}/api/contents",
        headers={"Authorization": f"token {tokens[PUPILS[1]]}"},
        allow_redirects=False,
        timeout=10,
    )
    assert r.status_code in (302, 403), f"bob read ann's files: {r.status_code}"

    # a pupil whose server stopped: their URL answers 424 until they go through /hub/spawn
    bob, auth = PUPILS[1], {"Authorization": f"token {tokens[PUPILS[1]]}"}
    r = requests.delete(f"{hub.url}/hub/api/users/{bob}/server", headers=auth, timeout=30)
    assert r.status_code in (202, 204), r.status_code
    deadline = time.monotonic() + 30
    while requests.get(f"{hub.url}/hub/api/user", headers=auth, timeout=10).json()["servers"]:
        assert time.monotonic() < deadline, "bob's server did not stop"
        time.sleep(0.3)
    r = requests.get(f"{hub.url}/user/{bob}/api/status", headers=auth, timeout=10)
    assert r.status_code == 424, r.status_code
    r = sessions[bob].get(f"{hub.url}/hub/spawn", timeout=60)  # follows spawn-pending
    deadline = time.monotonic() + 60
    while True:
        status = requests.get(f"{hub.url}/user/{bob}/api/status", headers=auth, timeout=10)
        if status.status_code == 200:
            break
        assert time.monotonic() < deadline, f"/hub/spawn did not bring bob back:\n{hub.log_text()}"
        time.sleep(0.3)
    assert (hub.state / "pupils" / bob / "loo-lessons" / "notebooks" / LESSON).exists()
