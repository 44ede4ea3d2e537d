"""The ways in from an installed package, no checkout needed:

- `loo-lessons lessons [FOLDER]`: copies the fourteen lessons, and the glossary and reference
  pages they link to, into the learner's folder (`~/loo-lessons` unless named), never over her
  work, and opens JupyterLab on lesson 1 (the `lessons` extra);
- `loo-lessons book [--port N]`: serves the offline book (the `loo-lessons-book` wheel, or a
  checkout's `book/_build/html`) on 127.0.0.1 and opens it;
- `loo-lessons scenarios`: the shipped scenarios' names, which `explain` and `coach` take
  instead of a path.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import os
import socket
import sys
from pathlib import Path
from typing import Any

from loo_lessons.cli import args as A
from loo_lessons.cli.clean import for_terminal
from loo_lessons.engine.errors import InputError

#: Where `loo-lessons lessons` lays the lessons out when no folder is named (the class hub's
#: pupils find theirs at the same place).
DEFAULT_FOLDER = Path("~/loo-lessons")
#: The lesson JupyterLab opens.
FIRST_LESSON = "01-welcome.ipynb"
#: Ports tried from the one asked for (a second learner on the machine takes the next).
PORT_TRIES = 50
#: The book's port when none is named (the guides' `make serve-book` uses it too).
BOOK_PORT = 8000
#: What `book` serves besides Python's own table of types (the engine's WebAssembly and modules).
TYPES = {".wasm": "application/wasm", ".mjs": "text/javascript", ".js": "text/javascript"}


def _free_port(first: int) -> int:
    """The first port from `first` up that nothing on 127.0.0.1 listens on."""
    for port in range(first, min(first + PORT_TRIES, 65536)):
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise InputError("--port", f"no free port from {first} to {first + PORT_TRIES - 1}")


def lab_command(root: Path, port: int, *, browser: bool) -> list[str]:
    """The command that opens JupyterLab on lesson 1 in `root`, on 127.0.0.1 from `port` up."""
    # root in a container or a VM of one's own: JupyterLab refuses root without being told
    root_too = ["--allow-root"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []
    return [
        sys.executable,
        "-m",
        "jupyterlab",
        *root_too,
        f"--ServerApp.root_dir={root}",
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.port={port}",
        f"--ServerApp.port_retries={PORT_TRIES}",
        f"--LabApp.default_url=/lab/tree/notebooks/{FIRST_LESSON}",
        f"--ServerApp.open_browser={browser}",
    ]


def _cmd_lessons(args: argparse.Namespace) -> int:
    from loo_lessons.classroom.lab_root import copy_lessons, lay_out, lessons_source

    root = Path(args.folder).expanduser().resolve()
    if root.exists() and not root.is_dir():
        raise InputError("FOLDER", f"{root} is a file, not a folder")
    copied, kept = copy_lessons(lessons_source() / "notebooks", root / "notebooks")
    lay_out(root, copy=True)  # the glossary and reference pages, written afresh
    print(for_terminal(f"The lessons are in {root / 'notebooks'}:"))
    if copied:
        print(f"  {len(copied)} copied ({copied[0]} to {copied[-1]})")
    if kept:
        print(f"  {len(kept)} already there, kept as you left them")
    command = lab_command(root, args.port, browser=not args.no_browser)
    if args.print_only:
        print(" ".join(command))
        return 0
    if importlib.util.find_spec("jupyterlab") is None:
        raise InputError("jupyterlab", "not installed; pip install 'loo-lessons[lessons]'")
    import subprocess

    print("Opening lesson 1 in JupyterLab: follow the URL it prints (Ctrl-C to stop).", flush=True)
    try:
        return subprocess.run(command, check=False).returncode
    except KeyboardInterrupt:
        return 0


def book_site() -> Path:
    """The built book: the installed `loo-lessons-book`'s, else a checkout's book/_build/html."""
    spec = importlib.util.find_spec("loo_lessons_book")
    if spec is not None and spec.origin is not None:
        site = Path(spec.origin).parent / "html"
        if (site / "index.html").is_file():
            return site
    built = Path(__file__).resolve().parent.parent.parent / "book" / "_build" / "html"
    if (built / "index.html").is_file():
        return built
    raise InputError(
        "book",
        "the offline book is not installed; pip install the loo_lessons_book wheel of the "
        "release (or, in a checkout, make book)",
    )


def _quiet_handler() -> type:
    """A static file handler that logs nothing (a reader's page asks for dozens of files) and
    knows the engine's file types. Made when `book` runs: http.server is not imported by the
    other commands."""
    import http.server

    class Quiet(http.server.SimpleHTTPRequestHandler):
        # read from the class by http.server, never changed
        extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **TYPES}  # noqa: RUF012

        def log_message(self, format: str, *args: Any) -> None:
            """Say nothing for each request."""

    return Quiet


def _cmd_book(args: argparse.Namespace) -> int:
    import functools
    import http.server
    import webbrowser

    site = book_site()
    port = _free_port(args.port) if args.port == BOOK_PORT else args.port
    handler = functools.partial(_quiet_handler(), directory=str(site))
    try:
        server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    except OSError as e:
        raise InputError("--port", f"{port}: {e.strerror or e}") from None
    url = f"http://127.0.0.1:{port}/"
    print(for_terminal(f"The book ({site}) is served at {url} (Ctrl-C to stop)"), flush=True)
    if not args.no_browser:
        with contextlib.suppress(webbrowser.Error):
            webbrowser.open(url)
    with server, contextlib.suppress(KeyboardInterrupt):
        server.serve_forever()
    return 0


def _cmd_scenarios(args: argparse.Namespace) -> int:
    for name, path in A.shipped_scenarios().items():
        title = ""
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.startswith("title:"):
                title = line.removeprefix("title:").strip().strip("\"'")
                break
        print(for_terminal(f"{name:52} {title}" if title else name))
    return 0


def register(sub: Any) -> None:
    """Add `lessons`, `book` and `scenarios` to the `loo-lessons` parser."""
    le = sub.add_parser(
        "lessons",
        help="copy the lessons into your folder (never over your work) and open lesson 1 in "
        "JupyterLab",
    )
    le.add_argument(
        "folder",
        nargs="?",
        default=str(DEFAULT_FOLDER),
        help="where your copy of the lessons goes (default ~/loo-lessons)",
    )
    le.add_argument(
        "--port",
        type=A.int_range(1024, 65535),
        default=8888,
        help="JupyterLab's port, or the next free one after it (default 8888)",
    )
    le.add_argument(
        "--no-browser", action="store_true", help="start JupyterLab without opening a browser"
    )
    le.add_argument(
        "--print-only",
        action="store_true",
        help="lay the lessons out and print the JupyterLab command instead of running it",
    )
    le.set_defaults(func=_cmd_lessons)
    bk = sub.add_parser(
        "book", help="serve the offline book on this computer (127.0.0.1) and open it"
    )
    bk.add_argument(
        "--port",
        type=A.int_range(1024, 65535),
        default=BOOK_PORT,
        help=f"the port (default {BOOK_PORT}, or the next free one after it)",
    )
    bk.add_argument(
        "--no-browser", action="store_true", help="serve the book without opening a browser"
    )
    bk.set_defaults(func=_cmd_book)
    sc = sub.add_parser(
        "scenarios", help="list the shipped scenarios by name (explain and coach take a name)"
    )
    sc.set_defaults(func=_cmd_scenarios)


__all__ = ["book_site", "lab_command", "register"]
