"""A hub service never holds a huge body (the results and the tables service, each started as
the hub starts it: its own process, its address in JUPYTERHUB_SERVICE_URL).

Tornado reads up to 100 MB of a request's body by default before a handler sees it; the
services' own limit is 10,000 bytes. A request announcing more than
`loo_lessons.classroom.service.READ_AT_MOST` is refused from its headers: the answer comes at
once, without waiting for (or reading) the body."""

from __future__ import annotations

import os
import socket
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from loo_lessons.classroom.drive import free_port
from loo_lessons.classroom.service import READ_AT_MOST, SecretError, kept_secret

SERVICES = {
    "loo_lessons.classroom.service": "/services/class-results/answers",
    "loo_lessons.classroom.tables.service": "/services/class-tables/api/move",
}


@pytest.fixture(params=sorted(SERVICES))
def service(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[int, str]]:
    """The service's port and the path it takes a POST at, the service running."""
    module: str = request.param
    port = free_port()
    env = {**os.environ, "JUPYTERHUB_SERVICE_URL": f"http://127.0.0.1:{port}/"}
    proc = subprocess.Popen(
        [sys.executable, "-m", module, "--db", str(tmp_path / "service.sqlite")],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), 0.5).close()
                break
            except OSError:
                assert proc.poll() is None, f"{module} ended: {proc.stderr.read() if proc.stderr else ''!r}"
                assert time.monotonic() < deadline, f"{module} did not listen on {port}"
                time.sleep(0.1)
        yield port, SERVICES[module]
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def answer_to_headers(port: int, path: str, length: int, wait: float = 10) -> bytes:
    """What the service answers to a POST's headers announcing `length` bytes, none sent
    (b"" if it waits `wait` seconds for them)."""
    with socket.create_connection(("127.0.0.1", port), 5) as s:
        s.sendall(
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Content-Length: {length}\r\n\r\n".encode()
        )
        s.settimeout(wait)
        try:
            return s.recv(200)
        except TimeoutError:
            return b""


def test_a_body_announced_too_long_is_refused_before_it_is_read(service: tuple[int, str]) -> None:
    port, path = service
    assert answer_to_headers(port, path, 100 * 1024 * 1024).startswith(b"HTTP/1.1 400 ")
    assert answer_to_headers(port, path, READ_AT_MOST + 1).startswith(b"HTTP/1.1 400 ")
    # a body the service may read is waited for, then checked by the service's handler
    assert answer_to_headers(port, path, READ_AT_MOST, wait=2) == b""


def test_each_service_keeps_its_cookie_secret_beside_its_database(service: tuple[int, str], tmp_path: Path) -> None:
    """Made once at the first start, private (0600), and the same at every start after: a
    restarted service takes the hub's login cookies and xsrf tokens it signed before."""
    (secret,) = tmp_path.glob("*-cookie-secret")
    assert stat.S_IMODE(secret.stat().st_mode) == 0o600
    assert kept_secret(secret) == bytes.fromhex(secret.read_text())
    assert kept_secret(secret) == kept_secret(secret)


def test_a_kept_secret_others_may_read_or_not_ours_is_refused(tmp_path: Path) -> None:
    made = kept_secret(tmp_path / "new")
    assert len(made) == 32 and kept_secret(tmp_path / "new") == made
    for text, mode, said in (("ab" * 32, 0o644, "chmod 600"), ("not hex", 0o600, "hex"), ("ab" * 8, 0o600, "too short")):
        f = tmp_path / "bad"
        f.write_text(text)
        f.chmod(mode)
        with pytest.raises(SecretError, match=said):
            kept_secret(f)
    with pytest.raises(SecretError, match="bad"):
        kept_secret(tmp_path / "no-folder" / "bad")
