"""`loo-lessons bench --browser`: the book's in-page engine measured in Chromium, beside
Pyodide's own bare start.

Needs the built site (`make book`: book/_build/html with _static/loo-engine) and Chromium
with Playwright (the `test` extras; Debian's /usr/bin/chromium). The site is served from
this process on 127.0.0.1, which counts every request and byte it sends (what the browser
moved over the network: nothing served from its caches or from the book's service worker
is counted); every request to another host is blocked and counted. Printed, in one run:

- the floor: a bare page that starts the vendored Pyodide in a Web Worker and answers `1+1`
  (the time from opening the page to the answer, cold cache);
- the book's first live answer on a lesson page (cold cache, a new browser profile), and on
  a second page of the same visit (the same tab), each as a ratio to the floor;
- bytes and requests for the cold first page (and its largest files), for the book kept for
  offline reading (the service worker's one-off copy, fetched once the first page is live:
  not counted in the first page), and for the next page;
- the same first-answer figures and floor on a slowed machine: the whole browser (Chromium
  and its every process, inherited) pinned to one core with `sched_setaffinity`, that core
  shared with a CPU-bound competing process (a stand-in for a cheap laptop that is busy);
- the time a click takes to come back from Python, and a random hand in the page beside
  the same hands in this CPython;
- the coach answering a declaring, a leading and a following decision with 1,000 play-outs
  of each legal move in the page's Python (the fixed request `run("coach_timing")`: the positions
  and timing of `sim.decisions`, which `bench` times in CPython), beside a random hand in the
  page and the same decisions answered in this CPython.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import statistics
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PAGE = "notebooks/12-play-a-hand.html"
NEXT_PAGE = "notebooks/05-leading.html"
#: The floor: the vendored Pyodide, bare, in a Web Worker (as the book's engine runs).
FLOOR_PAGE = "__floor.html"
FLOOR_HTML = b"""<!DOCTYPE html><html><head><meta charset="utf-8"><title>floor</title></head><body>
<script>
const w = new Worker("__floor-worker.js");
w.onmessage = (e) => { window.floor = { ms: performance.now(), answer: e.data }; };
</script></body></html>
"""
FLOOR_WORKER = b"""importScripts("_static/loo-engine/pyodide/pyodide.js");
loadPyodide({ indexURL: "_static/loo-engine/pyodide/" }).then((py) => postMessage(String(py.runPython("1+1"))));
"""
VIRTUAL = {"/" + FLOOR_PAGE: (FLOOR_HTML, "text/html"), "/__floor-worker.js": (FLOOR_WORKER, "text/javascript")}
TIMEOUT_MS = 240_000


@dataclass
class Counter:
    """What the server sent: requests and bytes (bodies and headers), and each file's body.
    What the book's service worker asked for (its copy of the book for offline reading: its
    script, and the files it fetches with `cache: "no-cache"`, scripts/light_pages.py) is
    counted apart, in `kept_requests` and `kept_bytes`: it starts once the first page is live,
    and is no part of what that page needed, however close the two come."""

    requests: int = 0
    bytes: int = 0
    files: dict[str, int] = field(default_factory=dict)
    #: the cold first page's files (visit(keep_files=True))
    first_files: dict[str, int] = field(default_factory=dict)
    kept_requests: int = 0
    kept_bytes: int = 0

    def add(self, kept: bool, requests: int = 0, size: int = 0, path: str | None = None) -> None:
        """Count a request's bytes: as kept by the browser's cache, or as fetched (by path)."""
        if kept:
            self.kept_requests += requests
            self.kept_bytes += size
            return
        self.requests += requests
        self.bytes += size
        if path is not None:
            self.files[path] = self.files.get(path, 0) + size

    def take(self) -> tuple[int, int]:
        """The requests and bytes fetched since the last take, and start counting again."""
        out = (self.requests, self.bytes)
        self.requests = self.bytes = 0
        self.files = {}
        return out

    def take_kept(self) -> tuple[int, int]:
        """The requests and bytes served from the cache since the last take, and start again."""
        out = (self.kept_requests, self.kept_bytes)
        self.kept_requests = self.kept_bytes = 0
        return out


class _Counting(SimpleHTTPRequestHandler):
    counter: Counter

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def _kept(self) -> bool:
        """Asked for by the book's service worker: its script (`Service-Worker: script`), or
        a file it keeps, fetched with `cache: "no-cache"` (which Chromium sends as
        `Cache-Control: max-age=0`; a page's own requests in a cold visit carry neither)."""
        cache = self.headers.get("Cache-Control", "")
        return self.headers.get("Service-Worker") == "script" or "max-age=0" in cache or "no-cache" in cache

    def do_GET(self) -> None:
        path = self.path.split("?")[0]
        if path in VIRTUAL:
            body, kind = VIRTUAL[path]
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        super().do_GET()

    def send_response(self, code: int, message: str | None = None) -> None:
        self.counter.add(self._kept(), requests=1)
        super().send_response(code, message)

    def end_headers(self) -> None:
        self.counter.add(self._kept(), size=sum(len(h) for h in getattr(self, "_headers_buffer", [])))
        super().end_headers()

    def copyfile(self, source: Any, outputfile: Any) -> None:
        path = self.path.split("?")[0]
        kept = self._kept()
        while chunk := source.read(64 * 1024):
            self.counter.add(kept, size=len(chunk), path=path)
            outputfile.write(chunk)


class QuietServer(ThreadingHTTPServer):
    """A page closed while a file was on its way to it is no error of the book: no traceback
    for it (the server's other errors are printed as usual)."""

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Log a request's error, but not a browser closing its connection early."""
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


@contextlib.contextmanager
def serve(site: Path, counter: Counter | None = None) -> Iterator[str]:
    """The site on 127.0.0.1 (a free port), counting into `counter`."""
    handler_class = type("Handler", (_Counting,), {"counter": counter or Counter()})
    handler = functools.partial(handler_class, directory=str(site))
    httpd = QuietServer(("127.0.0.1", 0), handler)
    t = threading.Thread(target=httpd.serve_forever, daemon=True)
    t.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


def _context(browser: Browser, origin: str, external: list[str]) -> BrowserContext:
    ctx = browser.new_context()
    ctx.on("request", lambda r: None if r.url.startswith((origin, "data:", "blob:")) else external.append(r.url))
    return ctx


def floor_ms(browser: Browser, origin: str, external: list[str]) -> float:
    """A bare Pyodide start in a Web Worker, answering 1+1 (cold cache)."""
    ctx = _context(browser, origin, external)
    try:
        page = ctx.new_page()
        page.goto(f"{origin}/{FLOOR_PAGE}")
        page.wait_for_function("() => window.floor", timeout=TIMEOUT_MS)
        got = page.evaluate("() => window.floor")
        if got["answer"] != "2":
            raise RuntimeError(f"the floor page answered {got['answer']!r}")
        return float(got["ms"])
    finally:
        ctx.close()


_ALL_LIVE = (
    "() => window.looEngine && window.looEngine.firstLiveMs !== undefined && "
    "[...document.querySelectorAll('[data-loo-live]')].every(e => e.dataset.looEngine === 'live')"
)


#: Resolves true once the book's service worker is active (its copy of the book made).
SW_READY = f"""() => Promise.race([
  navigator.serviceWorker.ready.then(() => true),
  new Promise((resolve) => setTimeout(() => resolve(false), {TIMEOUT_MS})),
])"""


def first_live(page: Page, url: str) -> float:
    """Open `url` in `page`; ms from opening it to its first widget answered by Python."""
    page.goto(url)
    page.wait_for_function(_ALL_LIVE, timeout=TIMEOUT_MS)
    return float(page.evaluate("() => looEngine.firstLiveMs"))


def visit(
    browser: Browser, origin: str, counter: Counter, external: list[str], *, keep_files: bool = False
) -> dict[str, float]:
    """A cold visit: the first page, the book kept offline, the next page (same tab)."""
    out: dict[str, float] = {}
    ctx = _context(browser, origin, external)
    try:
        page = ctx.new_page()
        counter.take()
        counter.take_kept()
        out["first_ms"] = first_live(page, f"{origin}/{PAGE}")
        if keep_files:
            counter.first_files = dict(counter.files)
        out["first_requests"], out["first_bytes"] = counter.take()
        out["first_warm"] = float(page.evaluate("() => looEngine.warm ? 1 : 0"))
        out["first_snapshot"] = float(page.evaluate("() => looEngine.snapshot ? 1 : 0"))
        # the service worker's copy of the book, once (it waits for the engine, see loo-offline.js)
        if not page.evaluate(SW_READY):
            raise RuntimeError("the book's service worker did not take over within 4 minutes")
        kept, between = counter.take_kept(), counter.take()
        out["offline_requests"], out["offline_bytes"] = kept[0] + between[0], kept[1] + between[1]
        out["next_ms"] = first_live(page, f"{origin}/{NEXT_PAGE}")
        nxt, kept = counter.take(), counter.take_kept()
        out["next_requests"], out["next_bytes"] = nxt[0] + kept[0], nxt[1] + kept[1]
        out["next_warm"] = float(page.evaluate("() => looEngine.warm ? 1 : 0"))
        out["shared"] = float(page.evaluate("() => looEngine.shared ? 1 : 0"))
    finally:
        ctx.close()
    return out


@contextlib.contextmanager
def slowed() -> Iterator[str]:
    """Everything started inside runs on core 0 only, beside a CPU-bound competitor there."""
    if not hasattr(os, "sched_setaffinity"):
        raise RuntimeError("this system cannot pin processes to a core")
    before = os.sched_getaffinity(0)
    busy = subprocess.Popen(
        [sys.executable, "-c", "import os\nos.sched_setaffinity(0, {0})\nwhile True: pass"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    os.sched_setaffinity(0, {0})
    try:
        yield "Chromium pinned to one core (sched_setaffinity, inherited) sharing it with a busy loop"
    finally:
        os.sched_setaffinity(0, before)
        busy.kill()
        busy.wait()


def ratios(site: Path, *, slow: bool = False) -> dict[str, float]:
    """The floor and a cold visit, in one browser (slowed, if asked)."""
    from playwright.sync_api import sync_playwright

    counter = Counter()
    external: list[str] = []
    with contextlib.ExitStack() as stack:
        if slow:
            stack.enter_context(slowed())
        origin = stack.enter_context(serve(site, counter))
        p = stack.enter_context(sync_playwright())
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            fl = floor_ms(b, origin, external)
            v = visit(b, origin, counter, external, keep_files=True)
        finally:
            b.close()
    largest = sorted(counter.first_files.items(), key=lambda f: -f[1])[:LARGEST]
    return {"floor_ms": fl, **v, "external": float(len(external)), **{f"file {p}": float(n) for p, n in largest}}


#: How many of the cold first page's files `bench --browser` names, the largest first.
LARGEST = 6


def _mb(n: float) -> str:
    return f"{n / 1e6:.2f} MB" if n >= 1e5 else f"{n / 1e3:.0f} KB"


def report(fig: dict[str, float], how: str) -> None:
    """Print the browser figures `how` was measured: the floor (bare Pyodide in a Worker), the
    first live answer and the next page, each against its goal."""
    fl = fig["floor_ms"]
    print(
        f"browser {how}: floor (bare Pyodide in a Worker, 1+1) {fl / 1000:.2f} s; first live answer "
        f"{fig['first_ms'] / 1000:.2f} s = {fig['first_ms'] / fl:.2f}x the floor (goal <= 1.0x); "
        f"next page {fig['next_ms'] / 1000:.2f} s = {fig['next_ms'] / fl:.2f}x (goal <= 0.25x)"
        f"{', engine shared across the visit' if fig['next_warm'] else ', engine started again'}"
    )


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


def coach_report(
    page: dict[str, Any], native: dict[str, Any], page_hand_ms: float, native_hand_ms: float
) -> dict[str, float]:
    """Print the coach's figures in the page beside CPython's, from the answers of the
    `coach` function in each (`{"decisions": [{kind, moves, rollouts, seconds, ...}]}`) and
    the ms of one random hand in each, all of the same run."""
    said = []
    worst = {"browser": 0.0, "cpython": 0.0}
    for where, answer in (("browser", page), ("cpython", native)):
        for d in answer["decisions"]:
            ms = 1000 * float(d["seconds"])
            worst[where] = max(worst[where], ms)
            if where == "browser":
                said.append(f"{d['kind']} ({d['moves']} moves) {ms:.0f} ms")
    rollouts = int(page["decisions"][0]["rollouts"])
    out = {
        "browser_coach_worst_ms": worst["browser"],
        "cpython_coach_worst_ms": worst["cpython"],
        "browser_coach_hands": worst["browser"] / page_hand_ms,
        "cpython_coach_hands": worst["cpython"] / native_hand_ms,
        "browser_coach_ratio": worst["browser"] / worst["cpython"],
    }
    print(
        f"browser: the coach, {rollouts:,} play-outs of each legal move, in the page: "
        + ", ".join(said)
        + f"; worst {worst['browser'] / 1000:.2f} s (goal <= 1.5 s with 1,000) = "
        f"{out['browser_coach_hands']:,.0f} random hands in the page; in this CPython: worst "
        f"{worst['cpython']:.0f} ms = {out['cpython_coach_hands']:,.0f} random hands here; "
        f"page / CPython: {out['browser_coach_ratio']:.1f}"
    )
    return out


def check_site(site: Path) -> None:
    """`--site`: a built book with the page's engine, or one LooError naming the option."""
    from loo_lessons.engine.errors import LooError

    if not (site / "_static" / "loo-engine" / "engine.json").is_file():
        shown = str(site)[:80]
        raise LooError(f"--site: no built book with the page's engine at {shown} (run `make book`)")


def run(
    site: Path, hands: int = 300, *, slow: bool = True, coach_rollouts: int = 1000
) -> dict[str, float] | None:
    """Print the browser figures; None (and one line saying why) when they cannot be had."""
    engine = site / "_static" / "loo-engine" / "engine.json"
    if not engine.exists():
        print(f"browser: no built site with the engine at {site} (run `make book`)")
        return None
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("browser: needs Playwright (pip install 'loo-lessons[test]') and Chromium")
        return None
    if not Path(CHROMIUM).exists():
        print(f"browser: needs Chromium at {CHROMIUM} (make browser)")
        return None
    from loo_lessons.widgets.backends.browser import FUNCTIONS

    manifest = json.loads(engine.read_text(encoding="utf-8"))
    idle = ratios(site)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(f"browser (Chromium, Pyodide {manifest['pyodide']}, {PAGE} then {NEXT_PAGE}, {cores} cores, load "
          f"{os.getloadavg()[0]:.1f}):")
    report(idle, "idle")
    print(
        f"browser idle: cold first page moved {_mb(idle['first_bytes'])} in {idle['first_requests']:.0f} requests "
        f"(goal <= 10 MB); the book kept offline after it: {_mb(idle['offline_bytes'])} in "
        f"{idle['offline_requests']:.0f} requests, once; next page {_mb(idle['next_bytes'])} in "
        f"{idle['next_requests']:.0f} requests (goal <= 400 KB)"
    )
    largest = ", ".join(f"{k[len('file /'):]} {_mb(v)}" for k, v in idle.items() if k.startswith("file "))
    print(
        f"browser idle: the cold first page's largest files: {largest}; the engine started from "
        f"{'the memory snapshot' if idle['first_snapshot'] else 'scratch (no snapshot)'}"
    )
    figures = {f"idle_{k}": v for k, v in idle.items()}
    figures["first_ratio"] = idle["first_ms"] / idle["floor_ms"]
    figures["next_ratio"] = idle["next_ms"] / idle["floor_ms"]
    if slow:
        try:
            busy = ratios(site, slow=True)
        except RuntimeError as e:
            print(f"browser slowed: not measured ({e})")
        else:
            report(busy, "slowed (1 core shared with a busy loop)")
            figures.update({f"slow_{k}": v for k, v in busy.items()})
            figures["slow_first_ratio"] = busy["first_ms"] / busy["floor_ms"]
            figures["slow_next_ratio"] = busy["next_ms"] / busy["floor_ms"]
    external: list[str] = []
    with serve(site) as origin, sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            ctx = _context(b, origin, external)
            page = ctx.new_page()
            first_live(page, f"{origin}/{PAGE}")
            step = page.evaluate(_CLICKS, ["stepper", 40])
            play = page.evaluate(_PLAY, 8)
            inpage = page.evaluate(f"() => looEngine.run('hands', {{hands: {hands}}})")
            page_coach = page.evaluate("(n) => looEngine.run('coach_timing', {rollouts: n})", coach_rollouts)
        finally:
            b.close()
    if "error" in page_coach:
        raise RuntimeError(f"the page's coach timing failed: {page_coach['error']}")
    native = FUNCTIONS["hands"]({"hands": hands})
    native_coach = FUNCTIONS["coach_timing"]({"rollouts": coach_rollouts})
    figures["click_ms_median"] = statistics.median(step)
    figures["play_move_ms_median"] = statistics.median(play) if play else float("nan")
    figures["browser_ms_per_hand"] = float(inpage["ms_per_hand"])
    figures["cpython_ms_per_hand"] = float(native["ms_per_hand"])
    figures["browser_hand_ratio"] = figures["browser_ms_per_hand"] / figures["cpython_ms_per_hand"]
    figures["requests_to_other_hosts"] = float(len(external)) + idle["external"] + figures.get("slow_external", 0.0)
    print(
        f"browser: a click answered by Python in {figures['click_ms_median']:.1f} ms (median of "
        f"{len(step)}), a move with the bots' replies in {figures['play_move_ms_median']:.1f} ms "
        "(goal < 100 ms)"
    )
    print(
        f"browser: a random hand costs {figures['browser_ms_per_hand']:.2f} ms in the page, "
        f"{figures['cpython_ms_per_hand']:.2f} ms here: ratio {figures['browser_hand_ratio']:.1f}; "
        f"requests to other hosts: {figures['requests_to_other_hosts']:.0f}"
    )
    figures.update(
        coach_report(
            page_coach, native_coach, figures["browser_ms_per_hand"], figures["cpython_ms_per_hand"]
        )
    )
    return figures
