"""`loo-lessons bench --browser`: the book's in-page engine measured in Chromium.

Needs the built site (`make book`: book/_build/html with _static/loo-engine) and Chromium
with Playwright (the `test` extras; Debian's /usr/bin/chromium). The site is served from
this process on 127.0.0.1; every request to another host is blocked and counted. Printed:
the engine's load time (worker start to Python ready), the first live answer (from opening
the page to the first widget answered by Python), the time a click takes to come back from
Python (median of many), and the cost of a random hand in the page beside the same hands in
this CPython (a ratio, side by side).
"""

from __future__ import annotations

import contextlib
import functools
import json
import statistics
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

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
PAGE = "notebooks/12-play-a-hand.html"
NEXT_PAGE = "notebooks/05-leading.html"


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextlib.contextmanager
def serve(site: Path) -> Iterator[str]:
    handler = functools.partial(_Quiet, directory=str(site))
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    t = threading.Thread(target=httpd.serve_forever, daemon=True)
    t.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


_CLICKS = """async ([kind, n]) => {
  const w = window.looLive.find((x) => x.kind === kind);
  const times = [];
  for (let i = 0; i < n; i += 1) {
    const t0 = performance.now();
    await new Promise((resolve) => {
      const done = () => { w.model.off("change:step", done); w.model.off("change:index", done); resolve(); };
      w.model.on("change:step", done);
      w.model.on("change:index", done);
      w.model.dispatch({ type: i % 2 ? "prev" : "next" });
    });
    times.push(performance.now() - t0);
  }
  return times;
}"""

_PLAY = """async (n) => {
  const w = window.looLive.find((x) => x.kind === "play");
  const times = [];
  for (let i = 0; i < n; i += 1) {
    const d = w.model.get("data");
    if (d.over) break;
    const legal = d.choices.find((c) => c.legal);
    const t0 = performance.now();
    await new Promise((resolve) => {
      const done = () => { w.model.off("change:data", done); resolve(); };
      w.model.on("change:data", done);
      const prev = w.model.get("request") || {};
      w.model.set("request", { type: "choose", key: legal.key, n: (prev.n || 0) + 1 });
      w.model.save_changes();
    });
    times.push(performance.now() - t0);
  }
  return times;
}"""


def run(site: Path, hands: int = 300) -> dict[str, float] | None:
    """Print the browser figures; None (and one line saying why) when they cannot be had."""
    engine = site / "_static" / "loo-engine" / "engine.json"
    if not engine.exists():
        print(f"browser: no built site with the engine at {site} (run `make book`)")
        return None
    try:
        from playwright.sync_api import Route, sync_playwright
    except ImportError:
        print("browser: needs Playwright (pip install 'loo-lessons[test]') and Chromium")
        return None
    if not Path(CHROMIUM).exists():
        print(f"browser: needs Chromium at {CHROMIUM} (make browser)")
        return None
    from loo_lessons.widgets.controllers.browser import FUNCTIONS

    figures: dict[str, float] = {}
    external: list[str] = []
    with serve(site) as origin, sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            ctx = b.new_context()

            def route(r: Route) -> None:
                if r.request.url.startswith(origin):
                    r.continue_()
                else:
                    external.append(r.request.url)
                    r.abort()

            ctx.route("**/*", route)
            page = ctx.new_page()
            page.goto(f"{origin}/{PAGE}")
            page.wait_for_function(
                "() => window.looEngine && window.looEngine.firstLiveMs !== undefined",
                timeout=120_000,
            )
            page.wait_for_function(
                "() => [...document.querySelectorAll('[data-loo-live]')].every(e => e.dataset.looEngine === 'live')",
                timeout=120_000,
            )
            e = page.evaluate(
                "() => ({load: looEngine.loadMs, first: looEngine.firstLiveMs, py: looEngine.pyodideMs, imp: looEngine.importMs})"
            )
            figures["engine_load_ms"] = float(e["load"])
            figures["first_live_answer_ms"] = float(e["first"])
            step = page.evaluate(_CLICKS, ["stepper", 40])
            play = page.evaluate(_PLAY, 8)
            figures["click_ms_median"] = statistics.median(step)
            figures["play_move_ms_median"] = statistics.median(play) if play else float("nan")
            inpage = page.evaluate(f"() => looEngine.run('hands', {{hands: {hands}}})")
            native = FUNCTIONS["hands"]({"hands": hands})
            figures["browser_ms_per_hand"] = float(inpage["ms_per_hand"])
            figures["cpython_ms_per_hand"] = float(native["ms_per_hand"])
            figures["browser_hand_ratio"] = (
                figures["browser_ms_per_hand"] / figures["cpython_ms_per_hand"]
            )
            # the next page the reader opens (the browser has the engine's files cached)
            nxt = ctx.new_page()
            nxt.goto(f"{origin}/{NEXT_PAGE}")
            nxt.wait_for_function(
                "() => window.looEngine && window.looEngine.firstLiveMs !== undefined",
                timeout=120_000,
            )
            figures["next_page_first_live_answer_ms"] = float(
                nxt.evaluate("() => looEngine.firstLiveMs")
            )
            figures["requests_to_other_hosts"] = float(len(external))
            manifest = json.loads(engine.read_text(encoding="utf-8"))
        finally:
            b.close()
    print(
        f"browser (Chromium, Pyodide {manifest['pyodide']}, {PAGE}): engine loaded in "
        f"{figures['engine_load_ms'] / 1000:.2f} s (Pyodide {e['py'] / 1000:.2f} s, the package "
        f"{e['imp'] / 1000:.2f} s); first live answer {figures['first_live_answer_ms'] / 1000:.2f} s "
        "after opening the page (goal < 3 s); on the next page "
        f"{figures['next_page_first_live_answer_ms'] / 1000:.2f} s"
    )
    print(
        f"browser: a click answered by Python in {figures['click_ms_median']:.1f} ms (median of "
        f"{len(step)}), a move with the bots' replies in {figures['play_move_ms_median']:.1f} ms "
        "(goal < 100 ms)"
    )
    print(
        f"browser: a random hand costs {figures['browser_ms_per_hand']:.2f} ms in the page, "
        f"{figures['cpython_ms_per_hand']:.2f} ms here: ratio {figures['browser_hand_ratio']:.1f}; "
        f"requests to other hosts: {len(external)}"
    )
    return figures
