"""Light pages (issue 17): measured on the built book's files and in a real browser.

- every lesson page is at most 300 KB of HTML: the components' code and the engine
  client are shared files (loaded once per page, cached once for the book), not one inline
  copy per widget, and the notebooks' ipywidgets state that nothing reads is gone;
- no page loads the icon script (fontawesome.js, 1.49 MB): the theme's stylesheet draws
  every icon a page shows from the solid web font;
- in Chromium, served on 127.0.0.1 by the counting server of `bench --browser` (plain files,
  no Content-Encoding: what it counts is what a server that compresses nothing moves): a cold
  first page moves at most 10 MB until its widgets are live, its engine started from the
  memory snapshot, with the small part of the standard library and not the whole of it; the
  next page of the visit at most 400 KB, and the next page finds the engine already running
  (one engine for the visit); the service worker's copy of the book, fetched once the first
  page is live, is not the first page's;
- a module the small standard library left out is still found: the page's Python fetches the
  whole zip once, the first time one is imported;
- from file:// the shared scripts still load: the static components are drawn and the live
  ones say that the book wants a web server.
"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from _book_site import built_site

if TYPE_CHECKING:
    from playwright.sync_api import Browser

MAX_PAGE = 300_000
MAX_COLD = 10_000_000
MAX_NEXT = 400_000
ENGINE = "/_static/loo-engine/"


@pytest.fixture(scope="module")
def site() -> Path:
    return built_site()


def test_a_components_code_is_one_text_wherever_it_is_used() -> None:
    """What lets the build share it: the same module script in every fragment of a component,
    static or live; only the embedded state differs."""
    from loo_lessons.widgets import static

    one = static.component_html("cards", {"data": {"cards": ["AH"]}})
    two = static.component_html("cards", {"data": {"cards": ["KS"]}})
    code = static.component_module("cards")
    assert one != two and code in one and code in two
    assert one.replace(code, "").count("<script") == 1  # the state, and nothing else
    live = static.live_html("explore", "explore", {}, "<p>static</p>")
    assert static.component_module("explore") in live and static.engine_script() in live


def _pages(site: Path) -> list[Path]:
    pages = sorted((site / "notebooks").glob("*.html")) + sorted((site / "book").rglob("*.html"))
    assert len(pages) >= 15, "the lessons and the book's pages"
    return pages


def test_every_lesson_page_is_light(site: Path) -> None:
    lessons = sorted((site / "notebooks").glob("*.html"))
    assert len(lessons) >= 14
    heavy = {p.name: p.stat().st_size for p in lessons if p.stat().st_size > MAX_PAGE}
    assert heavy == {}, f"pages over {MAX_PAGE} bytes: {heavy}"


def test_component_code_is_shared_not_inlined(site: Path) -> None:
    lesson = (site / "notebooks" / "12-play-a-hand.html").read_text(encoding="utf-8")
    assert "data-loo-live=" in lesson and "loo-state" in lesson
    assert '<script type="module">' not in lesson
    shared = re.findall(r'<script defer src="\.\./(_static/loo-js/[0-9a-f]{16}\.js)"></script>', lesson)
    assert shared and len(shared) == len(set(shared)), "each shared script once per page"
    for rel in shared:
        assert (site / rel).read_text(encoding="utf-8").startswith('(() => {\n"use strict";')
    for page in _pages(site):
        text = page.read_text(encoding="utf-8")
        assert "application/vnd.jupyter.widget-state+json" not in text, page.name
        assert 'name="loo-build"' in text, page.name


def test_no_icon_script_and_the_icons_drawn_by_the_theme_stylesheet(site: Path) -> None:
    css = (site / "_static" / "styles" / "pydata-sphinx-theme.css").read_text(encoding="utf-8")
    assert "fa-solid-900.woff2" in css and (site / "_static" / "vendor" / "fontawesome").is_dir()
    used: set[str] = set()
    for page in _pages(site):
        text = page.read_text(encoding="utf-8")
        assert "fontawesome.js" not in text, page.name
        used |= set(re.findall(r'class="[^"]*\bfa-solid fa-([a-z0-9-]+)', text))
    assert {"bars", "magnifying-glass", "moon", "sun"} <= used
    for name in used:  # each icon a page shows has its glyph in the theme's stylesheet
        assert re.search(rf"\.fa-{name}:{{1,2}}before[,{{]", css), name


def test_bytes_moved_cold_and_next_page(browser: Browser, site: Path) -> None:
    from loo_lessons.cli.bench_browser import Counter, serve, visit

    counter = Counter()
    external: list[str] = []
    with serve(site, counter) as origin:
        fig = visit(browser, origin, counter, external, keep_files=True)
    assert external == []
    files = counter.first_files
    assert 0 < fig["first_bytes"] <= MAX_COLD, (fig, files)
    # the engine as the page needs it: the snapshot it started from, the runtime gzipped, the
    # small standard library; not the whole one, nor the runtime's uncompressed files
    assert fig["first_snapshot"] == 1, fig
    assert {f"{ENGINE}{n}" for n in ("snapshot.bin.gz", "stdlib.zip", "pyodide/pyodide.asm.wasm.gz")} <= set(files)
    assert not {f"{ENGINE}pyodide/{n}" for n in ("python_stdlib.zip", "pyodide.asm.wasm", "pyodide-lock.json")} & set(files)
    assert files[f"{ENGINE}stdlib.zip"] < 200_000 and files[f"{ENGINE}pyodide-lock.json"] < 1_000
    assert "/loo-sw.js" not in files  # the service worker's copy of the book is counted apart
    assert fig["next_bytes"] <= MAX_NEXT, fig
    assert fig["shared"] == 1 and fig["first_warm"] == 0 and fig["next_warm"] == 1, fig
    # the book kept for offline reading: at least every lesson page and the engine, once
    assert fig["offline_requests"] >= 30, fig


#: A worker that is the book's engine (worker.js, loaded as the page loads it) and then runs
#: one import in its Python: a module the small standard library left out.
PROBE_WORKER = """importScripts("worker.js");
self.onmessage = async (e) => {
  try {
    const info = await ready;
    const f = "from loo_lessons.widgets.backends import stdlib\\nstdlib.finder().mounted";
    const before = pyodide.runPython(f);
    const mod = pyodide.pyimport(e.data);
    postMessage(JSON.stringify({ snapshot: info.snapshot, before, after: pyodide.runPython(f), file: mod.__file__ }));
  } catch (err) {
    postMessage(JSON.stringify({ error: String(err) }));
  }
};
"""
PROBE = """async (name) => new Promise((resolve) => {
  const w = new Worker("__probe.js");
  w.onmessage = (e) => { if (typeof e.data === "string") resolve(JSON.parse(e.data)); };
  w.postMessage(name);
})"""


def test_a_module_the_small_stdlib_left_out_is_fetched_once(
    browser: Browser, site: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from loo_lessons.cli import bench_browser
    from loo_lessons.widgets.backends import stdlib

    engine = site / ENGINE.strip("/")
    with zipfile.ZipFile(engine / "stdlib.zip") as part, zipfile.ZipFile(engine / "pyodide" / "python_stdlib.zip") as whole:
        small, every = stdlib.module_names(part.namelist()), stdlib.module_names(whole.namelist())
    assert small < every and "yaml" not in every
    name = next(m for m in ("statistics", "fractions", "difflib", "calendar") if m in every - small)
    monkeypatch.setitem(bench_browser.VIRTUAL, f"{ENGINE}__probe.js", (PROBE_WORKER.encode(), "text/javascript"))
    monkeypatch.setitem(bench_browser.VIRTUAL, f"{ENGINE}__probe.html", (b"<!DOCTYPE html><title>probe</title>", "text/html"))
    counter = bench_browser.Counter()
    ctx = browser.new_context()
    try:
        with bench_browser.serve(site, counter) as origin:
            page = ctx.new_page()
            page.goto(f"{origin}{ENGINE}__probe.html")
            got = page.evaluate(PROBE, name)
    finally:
        ctx.close()
    assert got == {"snapshot": True, "before": False, "after": True, "file": f"{stdlib.WHOLE_PATH}/{name}.py"}, got
    assert counter.files.get(f"{ENGINE}pyodide/python_stdlib.zip") == (engine / "pyodide" / "python_stdlib.zip").stat().st_size


def test_no_page_needs_the_whole_standard_library(browser: Browser, site: Path) -> None:
    """Every page with live widgets, one after the other in one visit (one engine): each has
    its widgets made by the engine with the small part of the standard library, and the whole
    zip is never fetched. (No service worker here, so that the server sees every request.)"""
    from loo_lessons.cli.bench_browser import Counter, first_live, serve

    live = [p for p in _pages(site) if "data-loo-live=" in p.read_text(encoding="utf-8")]
    assert len(live) >= 14
    counter = Counter()
    ctx = browser.new_context(service_workers="block")
    try:
        with serve(site, counter) as origin:
            page = ctx.new_page()
            for p in live:
                first_live(page, f"{origin}/{p.relative_to(site).as_posix()}")
                assert page.evaluate("() => looEngine.snapshot") is True, p.name
    finally:
        ctx.close()
    assert f"{ENGINE}stdlib.zip" in counter.files
    assert f"{ENGINE}pyodide/python_stdlib.zip" not in counter.files


def test_from_file_the_static_components_still_draw(browser: Browser, site: Path) -> None:
    ctx = browser.new_context()
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto((site / "notebooks" / "12-play-a-hand.html").as_uri())
        page.wait_for_function("() => (window.looLessons || []).length > 0", timeout=30_000)
        page.wait_for_selector(".loo-engine-status[data-state=file]", timeout=30_000)
        assert "web server" in page.locator(".loo-engine-status").first.inner_text()
        assert errors == []
    finally:
        ctx.close()


def test_tabs_share_one_engine(browser: Browser, site: Path) -> None:
    """Several tabs of the book in one browser: one engine (the first tab's), every later tab
    finds it running (`warm`) instead of starting Pyodide again."""
    from loo_lessons.cli.bench_browser import first_live, serve

    ctx = browser.new_context()
    try:
        with serve(site) as origin:
            first = ctx.new_page()
            first_live(first, f"{origin}/notebooks/05-leading.html")
            assert first.evaluate("() => [looEngine.shared, looEngine.warm]") == [True, False]
            tabs = [ctx.new_page() for _ in range(3)]
            for tab, rel in zip(tabs, ("03-declaring", "07-winning-tricks", "12-play-a-hand"), strict=True):
                first_live(tab, f"{origin}/notebooks/{rel}.html")
                assert tab.evaluate("() => [looEngine.shared, looEngine.warm]") == [True, True], rel
    finally:
        ctx.close()


#: Runs before the page's own scripts: every state and text the engine's status lines take,
#: in order, and how many static components were drawn when the first one appeared.
STATUS_LOG = """
window.__status = [];
new MutationObserver(() => {
  for (const p of document.querySelectorAll(".loo-engine-status")) {
    const last = window.__status[window.__status.length - 1];
    const now = { state: p.dataset.state, text: p.textContent, drawn: (window.looLessons || []).length };
    if (!last || last.state !== now.state || last.text !== now.text) window.__status.push(now);
  }
}).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
"""


def test_the_page_says_loading_quietly_until_live(browser: Browser, site: Path) -> None:
    """A cold lesson page: its static answers are drawn first and its status lines say
    "Loading the engine…" (never an error) until they say the engine is live."""
    from loo_lessons.cli.bench_browser import first_live, serve

    ctx = browser.new_context()
    try:
        ctx.add_init_script(STATUS_LOG)
        page = ctx.new_page()
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        with serve(site) as origin:
            first_live(page, f"{origin}/notebooks/05-leading.html")
            seen = page.evaluate("() => window.__status")
        assert seen[0]["state"] == "loading" and seen[0]["text"].startswith("Loading the engine")
        assert seen[0]["drawn"] > 0  # the static answers were there while it loaded
        assert {s["state"] for s in seen} == {"loading", "ready"}, seen
        assert seen[-1]["state"] == "ready"
        assert errors == []
    finally:
        ctx.close()
