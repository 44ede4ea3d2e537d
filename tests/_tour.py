"""One walk through every page of the built book, shared by the tests that look at every page
(tests/test_live_book.py: the engine on every lesson page, no JupyterLab note, no dead
control; tests/test_lesson_pages.py: axe finds no violation).

Each page is opened once, in one visit (`walk`), and looked at in the order that leaves each
look untouched by the one before: what the page shows and
asked for when its engine came (status, requests, console errors), then axe, then the
controls clicked. The tests assert on what the walk recorded, so a page that fails shows in
the test that names the failure."""

from __future__ import annotations

import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from test_live_book import READY_MS, Watch, block_other_hosts

from tools.pace import Pace, measure

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page

ROOT = Path(__file__).resolve().parent.parent
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
TOP_WIDGETS = ".loo-static:not(.loo-static .loo-static)"
ENABLED = "button:visible:not([disabled]):not([aria-disabled='true'])"


@dataclass
class Visit:
    """What one page showed: `status` and `engine` (the engine's status lines and state, on a
    live page), the `watch` of its requests and console errors up to then, `said` (its text),
    `jupyterlab` (widget parts that name JupyterLab), `axe` (violations), `dead` (buttons
    that changed nothing when clicked) and, on a lesson page, its `pace` (tools/pace.py)."""

    live: bool
    watch: Watch
    status: list[str] = field(default_factory=list)
    engine: str = ""
    said: str = ""
    jupyterlab: list[str] = field(default_factory=list)
    axe: list[str] = field(default_factory=list)
    dead: list[str] = field(default_factory=list)
    pace: Pace | None = None


def pages(site: Path) -> list[str]:
    """Every page a reader can open: not the search and index pages, not index.html (a redirect)."""
    return sorted(
        str(p.relative_to(site))
        for p in site.rglob("*.html")
        if not p.relative_to(site).parts[0].startswith("_")
        and p.name not in ("search.html", "genindex.html")
        and 'http-equiv="Refresh"' not in p.read_text(encoding="utf-8")[:300]
    )


def _axe(page: Page) -> list[str]:
    page.add_script_tag(path=str(AXE))
    found: list[dict[str, Any]] = page.evaluate(
        """async () => {
            const r = await axe.run(document, {
                runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'],
                rules: { 'label-content-name-mismatch': { enabled: true } },
            });
            return r.violations.map(v => ({id: v.id, nodes: v.nodes.map(n => n.target.join(' ') + ' ' + (n.failureSummary || '').split('\\n')[1])}));
        }"""
    )
    return [f"{v['id']}: {n}" for v in found for n in v["nodes"][:3]]


def _changes_when_clicked(page: Page, root: Any, button: Any, downloads: list[Any]) -> bool:
    """Clicking `button` changes the widget (its HTML), or downloads a file."""
    from playwright.sync_api import TimeoutError as Timeout

    before = root.evaluate("r => r.outerHTML")
    had = len(downloads)
    button.click()
    try:
        page.wait_for_function(
            "([r, b]) => r.outerHTML !== b", arg=[root.element_handle(), before], timeout=8000
        )
        return True
    except Timeout:  # nothing changed in the widget
        return len(downloads) > had


def _dead(page: Page, name: str) -> list[str]:
    """The first and the last enabled button of each widget, clicked: those that change nothing."""
    dead: list[str] = []
    downloads: list[Any] = []

    def downloaded(d: Any) -> None:
        downloads.append(d)  # a function: Playwright marks its handlers (no builtin)

    page.on("download", downloaded)
    roots = page.locator(TOP_WIDGETS)
    for i in range(roots.count()):
        root = roots.nth(i)
        for pick in ("first", "last"):
            buttons = root.locator(ENABLED)
            if not buttons.count():
                break
            b = getattr(buttons, pick)
            label = b.inner_text()[:40] or str(b.get_attribute("aria-label"))
            if not _changes_when_clicked(page, root, b, downloads):
                dead.append(f"{name}: widget {i}: {label!r}")
            page.keyboard.press("Escape")  # out of a full screen, if it opened one
    return dead


def _open(ctx: BrowserContext, url: str, live: bool, external: list[str], origin: str) -> tuple[Page, Watch]:
    """A new tab of the visit on `url`, its requests and console errors watched, once its
    live widgets are live (or, on a page without any, once it has loaded)."""
    w = Watch(origin)
    page = ctx.new_page()
    page.on("request", lambda req: w.requests.append(req.url))
    page.on("console", lambda m: w.errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: w.errors.append(f"page error: {e}"))
    before = len(external)
    page.goto(url)
    if live:
        page.wait_for_function(
            "() => document.querySelectorAll('[data-loo-live]').length > 0 && "
            "[...document.querySelectorAll('[data-loo-live]')].every(e => e.dataset.looEngine === 'live')",
            timeout=READY_MS,
        )
    else:
        page.wait_for_load_state("load")
    w.external = external[before:]
    return page, w


def walk(browser: Browser, server: str, site: Path) -> dict[str, Visit]:
    """Every page, one after another in one visit (one browser context, as a reader's tabs):
    the first live page stays open to the end, so the visit keeps one engine, as the book
    means it to (its SharedWorker); each other page is closed once looked at."""
    if not AXE.exists():  # a checkout whose node_modules predates axe-core: as the book build does
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--ignore-scripts"], cwd=ROOT, check=True)
    assert AXE.exists(), "axe-core is missing: `npm ci` installs it (package.json)"
    seen: dict[str, Visit] = {}
    external: list[str] = []
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
    block_other_hosts(ctx, server, external)
    anchor: Page | None = None
    try:
        for name in pages(site):
            live = "data-loo-live=" in (site / name).read_text(encoding="utf-8")
            page, w = _open(ctx, f"{server}/{name}", live, external, server)
            v = Visit(live=live, watch=Watch(server, list(w.external), list(w.requests), list(w.errors)))
            if live:
                v.status = page.locator(".loo-engine-status").all_inner_texts()
                v.engine = str(page.evaluate("window.looEngine.state"))
            v.said = page.locator("body").inner_text()
            if name.startswith("notebooks/"):
                v.pace = measure(page, Path(name).stem)  # before any click: as a reader first meets it
            for where in (".loo-live-note", ".loo-static", ".loo-live-widget", ".loo-engine-status"):
                if page.locator(where).filter(has_text="JupyterLab").count():
                    v.jupyterlab.append(where)
            v.axe = _axe(page)
            v.dead = _dead(page, name)
            seen[name] = v
            if anchor is None and live:
                anchor = page  # holds the visit's engine
            else:
                page.close()
    finally:
        ctx.close()
    return seen
