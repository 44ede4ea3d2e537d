"""What the browser tests share: Debian's Chromium and its flags, where screenshots go, and a
page opened from file:// with every other request blocked and recorded.

Chromium: `apt-get install -y chromium` (scripts/install-browser.sh); never `playwright
install`. The session-scoped `browser` fixture that launches it is in tests/conftest.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, Route

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SHOTS = Path("/tmp/shots")


@dataclass
class Watch:
    """What a page asked for: requests blocked for leaving file://, every request, and the
    console errors and warnings and page errors."""

    external: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def open_page(
    browser: Browser,
    path: Path,
    scheme: str = "light",
    *,
    width: int = 1200,
    ready: str = ".loo",
) -> tuple[Page, Watch]:
    """Open `path` in a new context (`scheme` colours, `width` x 900), blocking and recording
    every request that is not file://, and wait for the selector `ready`."""
    w = Watch()
    ctx = browser.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme)  # type: ignore[arg-type]
    page = ctx.new_page()

    def route(r: Route) -> None:
        if r.request.url.startswith("file://"):
            r.continue_()
        else:
            w.external.append(r.request.url)
            r.abort()

    page.route("**/*", route)
    page.on("request", lambda req: w.requests.append(req.url))
    page.on(
        "console", lambda m: w.errors.append(m.text) if m.type in ("error", "warning") else None
    )
    page.on("pageerror", lambda e: w.errors.append(f"page error: {e}"))
    page.goto(path.as_uri())
    page.wait_for_selector(ready)
    return page, w
