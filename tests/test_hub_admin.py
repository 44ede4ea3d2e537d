"""The class hub as a school's IT person runs it (issue 24): HTTPS with a certificate, nobody
reached over plain HTTP by accident, each pupil's server in a control group holding their memory
and CPU limits, the idle culler, a clean stop on Ctrl-C, and a backup of the results database.

A real JupyterHub from deploy/jupyterhub/jupyterhub_config.py, started once for the module with a
self-signed certificate made by deploy/jupyterhub/self-signed-cert.sh, a short idle time and a
small memory limit, and one pupil (a real Unix user, removed afterwards)."""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from loo_lessons.classroom.drive import (
    RECIPE,
    Hub,
    Kernel,
    KernelDied,
    alive,
    class_hub,
    descendants,
    hub_venv,
    server_pid,
)
from loo_lessons.classroom.limits import limits_of, place, prepare, remove

TAG = secrets.token_hex(3)
CAL = f"cal-{TAG}"
PASSWORD = secrets.token_urlsafe(12)
MEMORY = 600 * 2**20  # a pupil's server and a lesson's kernel fit; a greedy cell does not
CULL = 10  # seconds idle (the config's least)


@pytest.fixture(scope="module")
def venv() -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="loo-hub-venv-"))
    try:
        yield hub_venv(folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def cert(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    where = tmp_path_factory.mktemp("tls") / "tls"
    subprocess.run(
        ["bash", str(RECIPE / "self-signed-cert.sh"), str(where), "localhost", "127.0.0.1"],
        check=True,
        capture_output=True,
        timeout=60,
    )
    assert oct((where / "hub.key").stat().st_mode & 0o777) == "0o600"
    return where / "hub.crt", where / "hub.key"


@pytest.fixture(scope="module")
def hub(venv: Path, cert: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hub]:
    assert os.geteuid() == 0, "the class hub makes a Unix user per pupil: run the tests as root"
    env = {
        "LOO_HUB_SSL_CERT": str(cert[0]),
        "LOO_HUB_SSL_KEY": str(cert[1]),
        "LOO_HUB_CULL_TIMEOUT": str(CULL),
        "LOO_HUB_MEM_LIMIT": str(MEMORY),
        "LOO_HUB_CPU_LIMIT": "0.5",
    }
    with class_hub({CAL: PASSWORD}, env, python=venv, state=tmp_path_factory.mktemp("admin-hub-state")) as h:
        yield h
    assert not h.survivors, f"processes of the hub survived: {h.survivors}"


def _session(hub: Hub, cert: Path) -> requests.Session:
    s = requests.Session()
    s.trust_env = False  # REQUESTS_CA_BUNDLE would override the session's own certificate
    s.verify = str(cert)
    r = s.get(f"{hub.url}/hub/login", timeout=10)
    r.raise_for_status()
    r = s.post(
        f"{hub.url}/hub/login",
        data={"username": CAL, "password": PASSWORD, "_xsrf": s.cookies.get("_xsrf", path="/hub/")},
        allow_redirects=False,
        timeout=30,
    )
    assert r.status_code == 302, f"{r.status_code}\n{hub.log_text()}"
    return s


def _server(hub: Hub, s: requests.Session) -> dict[str, object] | None:
    me = s.get(f"{hub.url}/hub/api/user", timeout=10).json()
    server: dict[str, object] | None = me["servers"].get("")
    return server


def test_the_config_refuses_plain_http_on_the_network(venv: Path, tmp_path: Path) -> None:
    """A hub bound beyond this machine without a certificate would carry the pupils' passwords
    in clear: the config stops in one line naming the setting, before anything listens."""
    for extra, said in (
        ({"LOO_HUB_IP": "0.0.0.0"}, "LOO_HUB_IP=0.0.0.0: the pupils' passwords would cross"),
        ({"LOO_HUB_IP": ""}, "LOO_HUB_IP=every interface"),
        ({"LOO_HUB_SSL_CERT": str(tmp_path / "x.crt")}, "give both"),
    ):
        env = {**os.environ, "LOO_HUB_STATE": str(tmp_path / "state"), **extra}
        env.pop("PYTHONPATH", None)
        r = subprocess.run(
            [str(venv), "-m", "jupyterhub", "-f", str(RECIPE / "jupyterhub_config.py")],
            env=env,
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert r.returncode != 0
        assert said in r.stdout + r.stderr, (r.stdout + r.stderr)[-800:]
        assert "Traceback" not in r.stdout + r.stderr


def test_the_hub_answers_over_https_with_its_certificate(hub: Hub, cert: tuple[Path, Path]) -> None:
    assert hub.url.startswith("https://")
    assert requests.get(f"{hub.url}/hub/login", verify=str(cert[0]), timeout=10).status_code == 200
    with pytest.raises(requests.exceptions.SSLError):  # a certificate the client does not know
        requests.get(f"{hub.url}/hub/login", timeout=10)
    plain = hub.url.replace("https://", "http://")
    with pytest.raises(requests.exceptions.ConnectionError):
        requests.get(f"{plain}/hub/login", timeout=10)


def test_a_pupils_server_runs_inside_their_limits_and_a_greedy_cell_is_stopped(
    hub: Hub, cert: tuple[Path, Path]
) -> None:
    s = _session(hub, cert[0])
    r = s.post(
        f"{hub.url}/hub/api/users/{CAL}/server",
        headers={"X-XSRFToken": s.cookies.get("_xsrf", path="/hub/") or ""},
        timeout=60,
    )
    assert r.status_code in (201, 202), r.text[:300]
    deadline = time.monotonic() + 120
    while not ((server := _server(hub, s)) and server["ready"]):
        assert time.monotonic() < deadline, hub.log_text()
        time.sleep(0.3)
    pid = server_pid(hub, CAL)
    hub.pids.add(pid)
    got = limits_of(pid)
    assert got["group"].endswith(f"loo-hub/{CAL}"), got
    assert got["memory"] == str(MEMORY), got
    assert got["cpu"].split() == ["50000", "100000"], got  # half a core
    # the pupil's kernel is a child of the server, in the same group, and a cell that asks for
    # more than the limit is stopped there, not by starving the other pupils
    token = s.post(
        f"{hub.url}/hub/api/users/{CAL}/tokens",
        json={"note": "admin test"},
        headers={"X-XSRFToken": s.cookies.get("_xsrf", path="/hub/") or ""},
        timeout=30,
    ).json()["token"]
    k = Kernel(hub, CAL, token)
    try:
        assert k.text("import os; print(os.getpid())").strip().isdigit()
        kernel = int(k.text("print(os.getpid())").strip())
        assert kernel in descendants({pid}) and limits_of(kernel)["group"] == got["group"]
        with pytest.raises(KernelDied):
            k.text(f"x = b'x' * {2 * MEMORY}\nprint(len(x))")
        deadline = time.monotonic() + 20
        while alive(kernel):
            assert time.monotonic() < deadline, "the greedy kernel was not stopped"
            time.sleep(0.2)
    finally:
        k.close()
    assert alive(pid), "the pupil's server itself survives a greedy cell"


def test_the_idle_culler_stops_a_server_left_alone(hub: Hub, cert: tuple[Path, Path]) -> None:
    """The pupil's server of the test above, left idle: the culler (a hub service) stops it
    after LOO_HUB_CULL_TIMEOUT seconds; the pupil's work stays in their home."""
    s = _session(hub, cert[0])
    assert _server(hub, s) is not None, "the server of the test above is still running"
    services = s.get(f"{hub.url}/hub/api/services", timeout=10)
    deadline = time.monotonic() + CULL + 90
    while _server(hub, s) is not None:
        assert time.monotonic() < deadline, f"the idle culler did not stop the server:\n{hub.log_text()}"
        time.sleep(1)
    assert "idle-culler" in hub.log_text() or services.status_code in (200, 403)
    assert (hub.homes / CAL / "loo-lessons" / "notebooks").is_dir()
    # her control group went with her server (a term of pupils leaves no folders behind)
    where = place(CAL)
    assert where is not None
    deadline = time.monotonic() + 15
    while any(f.exists() for f in where.folders()):
        assert time.monotonic() < deadline, f"{where} outlived the pupil's server"
        time.sleep(0.3)


def test_a_pupils_control_group_is_removed_once_empty() -> None:
    """`limits.remove`: the folders of a pupil's control group go (a control group's files are
    the kernel's: `rmdir` alone removes it); one still holding a process stays, and says so."""
    name = f"probe-{TAG}"
    where = prepare(name, MEMORY, 0.5)
    try:
        assert all(f.is_dir() for f in where.folders())
        busy = subprocess.Popen(["sleep", "30"], preexec_fn=lambda: (where.memory / "cgroup.procs").write_text("0"))
        try:
            assert remove(name, wait=0.5) is False and where.memory.is_dir()
        finally:
            busy.kill()
            busy.wait()
        assert remove(name) is True
        assert not any(f.exists() for f in where.folders())
        assert remove(name) is True  # nothing left: nothing to do
    finally:
        remove(name)


def test_a_backup_of_the_results_database_is_whole(hub: Hub, tmp_path: Path) -> None:
    db = hub.state / "class-results.sqlite"
    assert db.exists()
    out = tmp_path / "backup.sqlite"
    r = subprocess.run(
        [sys.executable, "-m", "loo_lessons.cli", "class", "backup", str(db), str(out)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 0, r.stderr
    assert oct(out.stat().st_mode & 0o777) == "0o600"
    with sqlite3.connect(db) as a, sqlite3.connect(out) as b:
        tables = [t for (t,) in a.execute("select name from sqlite_master where type='table'")]
        assert tables
        for t in tables:
            assert list(a.execute(f"select * from {t}")) == list(b.execute(f"select * from {t}"))
    refused = subprocess.run(
        [sys.executable, "-m", "loo_lessons.cli", "class", "backup", str(tmp_path / "none.sqlite"), str(out)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert refused.returncode == 2 and len(refused.stderr.strip().splitlines()) == 1, refused.stderr


def test_ctrl_c_stops_the_hub_cleanly(hub: Hub) -> None:
    """Ctrl-C in the terminal (SIGINT to the hub's process group): everything stops, quickly,
    with no traceback in the log. Last: it stops the module's hub."""
    every = descendants(hub.pids)
    os.killpg(hub.proc.pid, signal.SIGINT)
    hub.proc.wait(timeout=30)
    deadline = time.monotonic() + 15
    while any(alive(p) for p in every) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not [p for p in every if alive(p)], "processes survived Ctrl-C"
    log = hub.log.read_text(errors="replace")
    stopping = log[log.index("Received signal SIGINT") :]
    assert "Traceback" not in stopping, stopping[-3000:]


def test_a_class_in_a_benchmark() -> None:
    """`loo-lessons class bench` (its own hub, one pupil): every answer reaches the
    teacher's CSV, no error, and the report states spawn times and answer latency."""
    r = subprocess.run(
        [sys.executable, "-m", "loo_lessons.cli", "class", "bench", "--pupils", "1", "--arrive-over", "0"],
        capture_output=True,
        text=True,
        timeout=400,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    assert "on the teacher's CSV: 10 of 10 answers" in lines, r.stdout
    assert lines[-1] == "errors: 0", r.stdout
    assert any(line.startswith("spawn (request to running): median ") and "p95" in line for line in lines)
    assert any(line.startswith("answer latency (kernel to stored): ") and "p95" in line for line in lines)
