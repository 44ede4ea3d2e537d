"""Fixtures shared by the test modules (tests/ has no __init__.py: pytest puts it on sys.path)."""

from __future__ import annotations

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
