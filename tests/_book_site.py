"""The built book with its engine, for the tests of the light and offline book: built once
(scripts/build-book.sh) unless book/_build/html is newer than everything it is made from.
Served by `loo_lessons.cli.bench_browser.serve` (127.0.0.1, a free port, counting what it
sends), the server `loo-lessons bench --browser` measures with."""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "book" / "_build" / "html"
#: The newest of these must be older than the built site's service worker (written last).
SOURCES = ("loo_lessons", "notebooks", "book", "scripts")


def _stale() -> bool:
    stamp = SITE / "loo-sw.js"
    if not stamp.exists() or not (SITE / "_static" / "loo-engine" / "engine.json").exists():
        return True
    newest = max(
        p.stat().st_mtime
        for d in SOURCES
        for p in (ROOT / d).rglob("*")
        if p.is_file() and "_build" not in p.parts and "__pycache__" not in p.parts
        and p.suffix in {".py", ".js", ".ipynb", ".md", ".yml", ".sh", ".mjs", ".css"}
    )
    return newest > stamp.stat().st_mtime


def built_site() -> Path:
    # `make test` runs the tests in two processes (pytest-xdist): the first to come builds the
    # book while the other waits on the lock, then finds it fresh.
    ROOT.joinpath("book").mkdir(exist_ok=True)
    with open(ROOT / "book" / ".build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if _stale():
                env = {**os.environ, "PYTHONPATH": str(ROOT), "BIN": str(Path(sys.executable).parent)}
                subprocess.run(["bash", "scripts/build-book.sh"], cwd=ROOT, env=env, check=True)
            assert not _stale()
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    return SITE
