"""Fixtures shared by the test modules (tests/ has no __init__.py: pytest puts it on sys.path)."""

from __future__ import annotations

import functools
import http.server
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from _browser import ARGS, CHROMIUM

if TYPE_CHECKING:
    from playwright.sync_api import Browser


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """One headless Chromium for the whole session. Playwright's sync API runs one at a time
    (a second `sync_playwright()` while one is open refuses to start), so every browser test
    shares this one."""
    assert Path(CHROMIUM).exists(), "Debian chromium is missing: `make test` installs it"
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield b
        finally:
            b.close()


# --- the built book (tests/test_book.py, tests/test_book_reader.py share one build) ---------

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


@pytest.fixture(scope="session")
def built_book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("book")
    cmd = [
        str(BIN / "jupyter-book"),
        "build",
        ".",
        "--config",
        "book/_config.yml",
        "--toc",
        "book/_toc.yml",
        "--path-output",
        str(out),
        "-W",
        "-n",
        "--keep-going",
    ]
    env = dict(os.environ, PYTHONHASHSEED="0")
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, env=env, timeout=900)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]
    html = out / "_build" / "html"
    assert (html / "index.html").exists()
    # the in-page engine, then light pages and the service worker, as scripts/build-book.sh
    for step in ("vendor_engine.py", "light_pages.py"):
        script = ROOT / "scripts" / step
        if not script.exists():
            continue
        proc = subprocess.run(
            [sys.executable, str(script), str(html)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            env=env,
            timeout=600,
        )
        assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]
    return html


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="session")
def server(built_book: Path) -> Iterator[str]:
    handler = functools.partial(_Quiet, directory=str(built_book))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    t = threading.Thread(target=httpd.serve_forever, daemon=True)
    t.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()
