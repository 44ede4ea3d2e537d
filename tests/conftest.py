"""Fixtures shared by the test modules (tests/ has no __init__.py: pytest puts it on sys.path)."""

from __future__ import annotations

import functools
import http.server
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from _browser import ARGS, CHROMIUM

if TYPE_CHECKING:
    from _tour import Visit
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
def built_book() -> Path:
    """The book as `make book` builds it (scripts/build-book.sh: warnings as errors, the
    in-page engine, light pages, the service worker), built once for the whole run and shared
    by every test of the book (tests/_book_site.py)."""
    from _book_site import built_site

    return built_site()


@pytest.fixture(scope="session")
def tour(browser: Browser, book_server: str, built_book: Path) -> dict[str, Visit]:
    """Every page of the book opened once and looked at (tests/_tour.py), for the tests that
    look at every page."""
    from _tour import walk

    return walk(browser, book_server, built_book)


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="session")
def server(book_server: str) -> str:
    """The built book's address (test_live_book.py serves it its own way, for its module)."""
    return book_server


@pytest.fixture(scope="session")
def book_server(built_book: Path) -> Iterator[str]:
    handler = functools.partial(_Quiet, directory=str(built_book))
    from loo_lessons.cli.bench_browser import QuietServer

    httpd = QuietServer(("127.0.0.1", 0), handler)
    t = threading.Thread(target=httpd.serve_forever, daemon=True)
    t.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


#: The longest modules, sent out first so that the two test processes end together.
_LONGEST = (
    "test_live_book", "test_jupyterhub", "test_jupyterlab", "test_book", "test_hub_install",
    "test_release",
)
#: The modules whose tests read the walk through the book (the session fixture `tour`, 100 s of
#: Chromium): one group, run in one process, so the book is walked once, not once in each.
TOUR_MODULES = frozenset({"test_live_book", "test_learner_words", "test_lesson_pace", "test_lesson_pages"})


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """`make test` runs the tests in two processes (pytest-xdist): each module is sent whole to
    one (its module fixtures, a JupyterLab or a hub, start once), and the `TOUR_MODULES`
    together. (xdist's own `loadgroup` marks do not reach its scheduler under pytest 9.)"""
    from xdist.scheduler import LoadScopeScheduling  # type: ignore[import-untyped]

    class ModulesAndTheTour(LoadScopeScheduling):  # type: ignore[misc]
        def _split_scope(self, nodeid: str) -> str:
            module = nodeid.split("::", 1)[0]
            return "tour" if Path(module).stem in TOUR_MODULES else module

    return ModulesAndTheTour(config, log)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The modules that read the tour first, then the longest modules, so that the two test
    processes end together. A module that reads the tour must be in `TOUR_MODULES`, or the
    book would be walked twice."""

    def module_of(item: pytest.Item) -> str:
        return item.module.__name__ if isinstance(item, pytest.Function) else ""

    touring = {module_of(i) for i in items if "tour" in getattr(i, "fixturenames", ())}
    if touring - TOUR_MODULES:
        raise pytest.UsageError(f"tests/conftest.py: add {sorted(touring - TOUR_MODULES)} to TOUR_MODULES")

    def rank(item: pytest.Item) -> int:
        module = module_of(item)
        if module in TOUR_MODULES:
            return 0
        return 1 + (_LONGEST.index(module) if module in _LONGEST else len(_LONGEST))

    items.sort(key=rank)  # stable: within a rank, the order pytest collected


@pytest.fixture(autouse=True)
def _own_progress_file(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """A widget in a kernel keeps every graded answer in the learner's progress file: in the
    tests, a file of their own, never the home folder's."""
    monkeypatch.setenv("LOO_PROGRESS", str(tmp_path_factory.mktemp("progress") / "loo-progress.json"))
