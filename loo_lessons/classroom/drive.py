"""Driving a class hub over HTTP, as pupils' browsers do: start it, log in through the form,
spawn servers, run a lesson's code cells in a kernel over its websocket, and stop it all.

Used by the hub tests (tests/test_jupyterhub.py) and the benchmark
(`loo_lessons.classroom.bench`). The hub is started from deploy/jupyterhub/jupyterhub_config.py
with the proxy from deploy/jupyterhub/package-lock.json. Traps (issue 12): the hub is up only
when /hub/api/ answers 200; a form post needs the _xsrf token of its path; hub, proxy and
every pupil's server run in process groups of their own, so each one's pid is recorded and
every survivor is stopped by its pid.
"""

from __future__ import annotations

import contextlib
import json
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import sysconfig
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import requests  # comes with jupyterlab_server
import websocket  # websocket-client, comes with jupyter_server

from loo_lessons.classroom import recipe
from loo_lessons.classroom.pupils import add_pupils, reachable_by_all

REPO = recipe.CHECKOUT
#: The hub's recipe: the checkout's deploy/jupyterhub, or an installed package's copy (a hub
#: installed from the release runs `class bench` from its own venv).
RECIPE = recipe.folder()
PROXY = recipe.proxy()
LESSON = "01-welcome.ipynb"


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now, for a hub under test."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def alive(pid: int) -> bool:
    """Whether process `pid` still runs (an exited one not yet reaped counts as gone)."""
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, PermissionError):
        return False
    try:  # a zombie (exited, not yet reaped) counts as gone
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except OSError:
        return False


def descendants(pids: set[int]) -> set[int]:
    """Every live process below `pids` (read from /proc): kernels of pupils' servers too."""
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
    """A running class hub started by the tests or the benchmark: its address, state and homes
    folders, log, process and every process id it started, so all can be stopped."""

    url: str
    state: Path
    homes: Path
    log: Path
    proc: subprocess.Popen[bytes]
    env: Mapping[str, str]  # the variables given to the recipe
    pids: set[int] = field(default_factory=set)  # hub, proxy, services, pupils' servers
    verify: str | bool = True  # a self-signed certificate the clients trust (HTTPS), if any
    survivors: list[int] = field(default_factory=list)  # alive after `class_hub` stopped it

    def log_text(self) -> str:
        """The end of the hub's log (its own lines, the proxy's, the services' and the pupils'
        servers', which write to the hub's output)."""
        return self.log.read_text(errors="replace")[-6000:]

    def log_about(self, name: str) -> str:
        """Every line of the hub's log about pupil `name`, but the requests that only asked for
        their server's status: what the spawner and the server said (why a spawn failed)."""
        lines = self.log.read_text(errors="replace").splitlines()
        said = [
            line
            for line in lines
            if (name in line or "Spawn" in line or "spawn" in line)
            and not (" GET /user/" in line and "/api/status" in line)
            and " GET /hub/api/user " not in line
        ]
        return "\n".join(said[-120:])


def hub_venv(folder: Path) -> Path:
    """A venv for the hub at `folder` (outside the project), as deploy/README.md makes one,
    without the network, for tests and the benchmark: from a Python every user may run, with
    this Python's packages copied in (hard links: the files, not the folders of a checkout the
    pupils may not pass) and the project itself installed from the checkout (`pip install .`, not
    editable: the pupils' servers read the lessons from the venv, never from the checkout, which
    may sit in a private home). Returns its python."""
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    bases = [Path(sys.base_prefix) / "bin" / version, Path("/usr/bin") / version]
    base = next((b for b in bases if b.exists() and reachable_by_all(b)), None)
    if base is None:
        raise RuntimeError(
            f"no {version} that every user may run (tried {', '.join(map(str, bases))}): "
            "a class hub's pupils run their servers as their own Unix users"
        )
    subprocess.run([str(base), "-m", "venv", "--without-pip", str(folder)], check=True)
    site = folder / "lib" / version / "site-packages"
    ours = sysconfig.get_paths()["purelib"]

    def not_the_project(src: str, names: list[str]) -> set[str]:
        # the editable install's hooks point at the checkout: the project is installed below
        return (
            {n for n in names if "loo_lessons" in n or n.startswith("__editable__")}
            if src == ours
            else set()
        )

    shutil.copytree(
        ours,
        site,
        symlinks=True,
        copy_function=_link_or_copy,
        ignore=not_the_project,
        dirs_exist_ok=True,
    )
    # server extensions, JupyterLab's app, the hub's templates and static files
    for shared in ("etc/jupyter", "share/jupyter", "share/jupyterhub"):
        if (Path(sys.prefix) / shared).is_dir():
            shutil.copytree(
                Path(sys.prefix) / shared,
                folder / shared,
                symlinks=True,
                copy_function=_link_or_copy,
            )
    python = folder / "bin" / "python"
    subprocess.run(
        [
            str(python),
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--no-index",
            "--no-build-isolation",
            "--disable-pip-version-check",
            str(REPO),
        ],
        check=True,
        cwd=folder,
        env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
    )
    subprocess.run(["chmod", "-R", "a+rX", str(folder)], check=True)
    return python


def _link_or_copy(src: str, dst: str) -> None:
    """A hard link where the file system allows one (instant, no space), else a copy."""
    try:
        os.link(src, dst)
    except OSError:
        shutil.copy2(src, dst)


def start_hub(
    python: Path,
    state: Path,
    homes: Path,
    log: Path,
    extra_env: Mapping[str, str],
    timeout: float = 60,
) -> Hub:
    """The class recipe, run by `python` (see `hub_venv`), on 127.0.0.1 and free ports;
    returns once /hub/api/ answers 200."""
    if not PROXY.exists():
        raise RuntimeError(
            f"configurable-http-proxy is missing: bash {RECIPE / 'install-proxy.sh'}"
        )
    port = free_port()
    env = {
        **os.environ,
        "LOO_HUB_IP": "127.0.0.1",
        "LOO_HUB_PORT": str(port),
        "LOO_HUB_HUB_PORT": str(free_port()),
        "LOO_HUB_API_PORT": str(free_port()),
        "LOO_HUB_RESULTS_PORT": str(free_port()),
        "LOO_HUB_TABLES_PORT": str(free_port()),
        "LOO_HUB_STATE": str(state),
        "LOO_HUB_HOMES": str(homes),
        **extra_env,
    }
    env.pop("PYTHONPATH", None)  # the hub runs the project installed in its venv, not the checkout
    with log.open("w") as out:
        proc = subprocess.Popen(
            [
                str(python),
                "-m",
                "jupyterhub",
                "-f",
                str(RECIPE / "jupyterhub_config.py"),
            ],
            cwd=state,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group, stopped by its pid
        )
    cert = env.get("LOO_HUB_SSL_CERT", "")
    hub = Hub(
        f"{'https' if cert else 'http'}://127.0.0.1:{port}",
        state,
        homes,
        log,
        proc,
        env,
        {proc.pid},
        cert or True,
    )
    deadline = time.monotonic() + timeout
    try:
        while True:  # up only when /hub/api/ answers 200 (the proxy answers 503 before)
            with contextlib.suppress(requests.RequestException):
                if (
                    requests.get(f"{hub.url}/hub/api/", timeout=2, verify=cert or True).status_code
                    == 200
                ):
                    break
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the hub did not start:\n" + hub.log_text())
            time.sleep(0.3)
        hub.pids.add(int((state / "jupyterhub-proxy.pid").read_text()))
        hub.pids |= descendants(hub.pids)  # the results service
    except BaseException:
        stop_hub(hub)
        raise
    return hub


def stop_hub(hub: Hub) -> list[int]:
    """Stop the hub (which stops the proxy, the service and the pupils' servers), then every
    survivor among the processes recorded and their children; returns any left alive."""
    every = descendants(hub.pids)
    if hub.proc.poll() is None:
        hub.proc.send_signal(signal.SIGTERM)
        try:
            hub.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            hub.proc.kill()
            hub.proc.wait()
    deadline = time.monotonic() + 10
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for pid in sorted(p for p in every if alive(p)):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, sig)
        while any(alive(p) for p in every) and time.monotonic() < deadline:
            time.sleep(0.2)
        deadline = time.monotonic() + 5
    return [p for p in every if alive(p)]


@contextlib.contextmanager
def class_hub(
    passwords: Mapping[str, str],
    env: Mapping[str, str],
    *,
    python: Path | None = None,
    state: Path | None = None,
    before_removal: Callable[[Hub], None] | None = None,
) -> Iterator[Hub]:
    """A class hub for the pupils and teachers of `passwords` (names and passwords in its class
    list, each made a Unix user by the hub), on 127.0.0.1, its recipe given `env` beside the
    class list. On leaving: the hub stopped, its users (their homes, their groups) and the
    folders it made removed, the processes that outlived it in `hub.survivors`. `python` runs
    the hub (a `hub_venv`'s; else one is made here); `state` keeps the hub's log and database
    (else a folder made here); `before_removal(hub)` runs once the hub is stopped, before its
    folders go (the benchmark keeps the log of a run gone wrong)."""
    made: list[Path] = []

    def folder(prefix: str) -> Path:
        made.append(Path(tempfile.mkdtemp(prefix=prefix)))
        return made[-1]

    hub: Hub | None = None
    try:
        state = state or folder("loo-hub-state-")
        # the homes' folder must be reachable by the pupils (a temporary folder is its owner's only)
        homes = folder("loo-hub-homes-")
        homes.chmod(0o755)
        # from a checkout, a venv with the project installed as a hub installs it; installed
        # (a hub's own venv, from the release), this venv is the hub's
        python = python or (
            hub_venv(folder("loo-hub-venv-")) if recipe.in_checkout() else Path(sys.executable)
        )
        add_pupils(state / "class-list", list(passwords), passwords=dict(passwords))
        hub = start_hub(python, state, homes, state / "hub.log", {"LOO_HUB_CLASS_LIST": str(state / "class-list"), **env})
        yield hub
    finally:
        if hub:
            hub.survivors = stop_hub(hub)
            if before_removal:
                before_removal(hub)
        for name in passwords:
            remove_user(name)
        for made_here in made:
            shutil.rmtree(made_here, ignore_errors=True)


def remove_user(name: str) -> None:
    """Remove Unix user `name`, their home and their group, if the hub made them."""
    try:
        pwd.getpwnam(name)
    except KeyError:
        return
    subprocess.run(["userdel", "--force", "--remove", name], capture_output=True, check=False)
    subprocess.run(["groupdel", name], capture_output=True, check=False)


def log_in_status(hub: Hub, name: str, password: str) -> tuple[int, requests.Session]:
    """Post the login form (with the _xsrf token the login page set for /hub/); 302 is in."""
    s = requests.Session()
    r = s.get(f"{hub.url}/hub/login", timeout=10)
    r.raise_for_status()
    xsrf = s.cookies.get("_xsrf", path="/hub/")
    r = s.post(
        f"{hub.url}/hub/login",
        data={"username": name, "password": password, "_xsrf": xsrf},
        allow_redirects=False,
        timeout=30,
    )
    return r.status_code, s


def log_in(hub: Hub, name: str, password: str) -> requests.Session:
    """Log `name` in to the hub with `password` and return the logged-in session; a refused login
    fails with the hub's log."""
    status, s = log_in_status(hub, name, password)
    if status != 302:
        raise AssertionError(f"{name} was not logged in: {status}\n{hub.log_text()}")
    return s


def token_for(hub: Hub, s: requests.Session, name: str) -> str:
    """A token of the pupil's own, asked for with their login cookie."""
    r = s.post(
        f"{hub.url}/hub/api/users/{name}/tokens",
        json={"note": "class hub driver", "expires_in": 3600},
        headers={"X-XSRFToken": s.cookies.get("_xsrf", path="/hub/") or ""},
        timeout=30,
    )
    if r.status_code != 201:
        raise AssertionError(f"no token for {name}: {r.status_code} {r.text[:300]}")
    token: str = r.json()["token"]
    return token


def spawn(hub: Hub, name: str, token: str, timeout: float = 180) -> dict[str, Any]:
    """Start the pupil's server (through the hub's API, as /hub/spawn does) and wait until
    it is ready."""
    auth = {"Authorization": f"token {token}"}
    r = requests.post(f"{hub.url}/hub/api/users/{name}/server", headers=auth, timeout=60)
    if r.status_code not in (201, 202):
        raise AssertionError(f"{name}: spawn {r.status_code} {r.text[:300]}\n{hub.log_text()}")
    deadline = time.monotonic() + timeout
    while True:
        me = requests.get(f"{hub.url}/hub/api/user", headers=auth, timeout=30).json()
        server = me["servers"].get("")
        if server and server["ready"]:
            return dict(server)
        late = time.monotonic() > deadline
        if late or (server is None and not me.get("pending")):
            # the first line says why (a report keeps only it); the hub's own words follow
            about = hub.log_about(name).splitlines()
            why = f"not ready within {timeout:g} s" if late else "stopped before it was ready"
            last = f" (the hub's last line: {about[-1].strip()[:200]})" if about else ""
            raise AssertionError(f"{name}'s server did not start: {why}{last}\n{hub.log_text()}")
        time.sleep(0.3)


def server_pid(hub: Hub, name: str) -> int:
    """The pid of the pupil's server: the process below the hub whose JUPYTERHUB_USER is
    this pupil."""
    for pid in descendants(hub.pids):
        try:
            environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if b"singleuser" in cmd and f"JUPYTERHUB_USER={name}".encode() in environ:
            return pid
    raise AssertionError(f"no server process for {name}")


class KernelDied(RuntimeError):
    """The kernel stopped while running a cell (its server says "restarting" or "dead")."""


def run_code(ws: Any, code: str, session: str) -> list[dict[str, Any]]:
    """One execute_request on the kernel's websocket; the outputs until the kernel is idle."""
    msg_id = uuid.uuid4().hex
    header = {
        "msg_id": msg_id,
        "msg_type": "execute_request",
        "username": "pupil",
        "session": session,
        "version": "5.3",
        "date": "",
    }
    content = {
        "code": code,
        "silent": False,
        "store_history": True,
        "user_expressions": {},
        "allow_stdin": False,
        "stop_on_error": True,
    }
    ws.send(
        json.dumps(
            {
                "header": header,
                "parent_header": {},
                "metadata": {},
                "content": content,
                "channel": "shell",
                "buffers": [],
            }
        )
    )
    outputs: list[dict[str, Any]] = []
    replied = idle = False
    while not (replied and idle):
        msg = json.loads(ws.recv())
        if msg.get("msg_type") == "status" and msg["content"].get("execution_state") in (
            "restarting",
            "dead",
        ):
            raise KernelDied(f"the kernel died running: {code[:60]}")  # killed (out of memory)
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


class Kernel:
    """A kernel in a pupil's server, reached through the hub's proxy with their token."""

    def __init__(self, hub: Hub, name: str, token: str, path: str = "") -> None:
        self.base = f"{hub.url}/user/{name}"
        self.auth = {"Authorization": f"token {token}"}
        r = requests.post(
            f"{self.base}/api/kernels",
            json={"name": "python3", "path": path},
            headers=self.auth,
            timeout=60,
            verify=hub.verify,
        )
        if r.status_code != 201:
            raise AssertionError(f"{name}: no kernel: {r.status_code}: {r.text[:300]}")
        self.id = r.json()["id"]
        self.session = uuid.uuid4().hex
        ws_base = "ws" + self.base.removeprefix("http")
        self.verify = hub.verify
        self.ws = websocket.create_connection(
            f"{ws_base}/api/kernels/{self.id}/channels?session_id={self.session}",
            header=[f"Authorization: token {token}"],
            timeout=180,
            sslopt={"ca_certs": hub.verify} if isinstance(hub.verify, str) else None,
        )

    def run(self, code: str) -> list[dict[str, Any]]:
        """Run `code` in this kernel and return the messages it answered with."""
        return run_code(self.ws, code, self.session)

    def text(self, code: str) -> str:
        """What `code` printed; AssertionError with the traceback if it failed."""
        outputs = self.run(code)
        errors = [o for o in outputs if o["output_type"] == "error"]
        if errors:
            raise AssertionError(f"{errors[0].get('ename')}: {errors[0].get('evalue')}")
        return "".join(o.get("text", "") for o in outputs)

    def close(self) -> None:
        """Close the kernel's websocket and shut the kernel down."""
        self.ws.close()
        requests.delete(
            f"{self.base}/api/kernels/{self.id}", headers=self.auth, timeout=30, verify=self.verify
        )

    def __enter__(self) -> Kernel:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def run_lesson(hub: Hub, name: str, token: str) -> tuple[int, list[list[dict[str, Any]]], str]:
    """Lesson 1 from the pupil's own copy, every code cell run in a kernel of their server;
    returns the count of code cells, their outputs, and the kernel's working folder."""
    r = requests.get(
        f"{hub.url}/user/{name}/api/contents/loo-lessons/notebooks/{LESSON}",
        headers={"Authorization": f"token {token}"},
        timeout=60,
    )
    if r.status_code != 200:
        raise AssertionError(f"{name}: lesson 1: {r.status_code}: {r.text[:300]}")
    cells = [c for c in r.json()["content"]["cells"] if c["cell_type"] == "code"]
    with Kernel(hub, name, token, "loo-lessons/notebooks") as k:
        outputs = [k.run("".join(c["source"])) for c in cells]
        cwd = k.text("import os; print(os.getcwd())").strip()
    return len(cells), outputs, cwd
