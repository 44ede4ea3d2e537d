"""How a lesson page reads in the built book: the pace of issue 23, measured as a reader meets it.

Counted in a real browser, on what the page shows: the visible words of the lesson's article (not
code, not text folded in a closed ``<details>``, not hidden or screen-reader-only text, not the
"Show code" toggles), in page order, up to the first thing to do (a widget the learner acts on), and
over the whole page per answerable item (a pick, a pool to fill in, a deal to play, each question of a
quiz). The lessons' budgets (design.md, "Lessons: the pace"): the first thing to do within
`FIRST_WITHIN` words, at most `PER_ITEM` words per answerable item.

    python -m tools.pace                        # every lesson of book/_build/html
    python -m tools.pace --site DIR 05 12       # lessons 05 and 12 of another build
    python -m tools.pace --build 05 06          # build just those lessons (fast, not -W), then measure

The same measure runs in the test walk through the built book (tests/_tour.py) and is asserted by
tests/test_lesson_pace.py.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from playwright.sync_api import Page

ROOT = Path(__file__).resolve().parent.parent
#: visible words before the first thing to do, at most
FIRST_WITHIN = 150
#: visible words per answerable item over the page, at most
PER_ITEM = 100

#: Widgets the learner acts on (the component names of widgets/registry.py): the first of these on
#: the page ends the opening read.
DOING = ("pick", "pool", "quiz", "play", "explore", "stepper", "present", "evening", "lab", "search")

# The measure, in the page. A text node counts when its element is rendered (closed <details> and
# display:none have no box), is not a screen-reader-only sliver, and is not code or page chrome.
# Widgets are the top `.loo-static` / `.loo-live-widget` elements; `data-loo-component` names them.
MEASURE_JS = r"""
(doing) => {
  const article = document.querySelector('article.bd-article') || document.querySelector('main') || document.body;
  const WORD = /[A-Za-z0-9\u2019'\-]+/g;
  const skip = (el) => !!el.closest('script, style, noscript, svg, .cell_input, .headerlink, details.above-input > summary, [hidden], .visually-hidden, .sr-only');
  const shown = (el) => {
    if (typeof el.checkVisibility === 'function' && !el.checkVisibility({checkOpacity: true, checkVisibilityCSS: true})) return false;
    const r = el.getBoundingClientRect();
    return r.width > 2 && r.height > 2;
  };
  const widgetOf = (el) => {
    let w = null;
    for (let e = el; e && e !== article; e = e.parentElement) {
      if (e.matches && e.matches('.loo-static[data-loo-component], .loo-live-widget, [data-loo-component]')) w = e;
    }
    return w;
  };
  const kindOf = (w) => {
    const c = w.getAttribute('data-loo-component') || (w.querySelector('[data-loo-component]') || w).getAttribute('data-loo-component') || '';
    return c;
  };
  const items = (w, kind) => {
    if (kind === 'pick' || kind === 'pool') return 1;
    if (kind === 'play') return 1;
    if (kind === 'quiz') {
      // each question is an answerable item: the quiz says how many ("Question 1 of 6")
      const m = (w.innerText || '').match(/Question \d+ of (\d+)/);
      return m ? Number(m[1]) : 1;
    }
    return 0;
  };
  const walker = document.createTreeWalker(article, NodeFilter.SHOW_TEXT);
  let words = 0, before = null, firstKind = '', answerable = 0, tasks = 0;
  const widgets = new Set();
  const seenWidgets = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || skip(el)) continue;
    const w = widgetOf(el);
    if (w && !widgets.has(w)) {
      widgets.add(w);
      const kind = kindOf(w);
      seenWidgets.push(kind);
      if (before === null && doing.includes(kind)) { before = words; firstKind = kind; }
      answerable += items(w, kind);
    }
    if (!shown(el)) continue;
    const m = (n.nodeValue || '').match(WORD);
    if (m) words += m.length;
  }
  // widgets with no text of their own (a bare table of cards) still count once
  for (const w of article.querySelectorAll('.loo-static[data-loo-component], .loo-live-widget')) {
    if (widgets.has(w) || (w.parentElement && widgetOf(w.parentElement))) continue;
    widgets.add(w);
    const kind = kindOf(w);
    seenWidgets.push(kind);
    answerable += items(w, kind);
  }
  return {words, before, firstKind, answerable, widgets: seenWidgets};
}
"""


@dataclass(frozen=True)
class Pace:
    """One lesson page's pace: `words` visible in all, `before` the first thing to do (None: there
    is none), `first` that thing's component, `answerable` items (picks, pools, deals, quiz
    questions) and the page's `widgets` in order."""

    page: str
    words: int
    before: int | None
    first: str
    answerable: int
    widgets: tuple[str, ...]

    @property
    def per_item(self) -> float:
        """Visible words per answerable item (the whole page's words when it has none)."""
        return self.words / self.answerable if self.answerable else float(self.words)

    def faults(self) -> list[str]:
        """What breaks the budgets, in words (empty: the page keeps the pace)."""
        out = []
        if self.before is None:
            out.append(f"{self.page}: nothing to do on the page")
        elif self.before > FIRST_WITHIN:
            out.append(
                f"{self.page}: {self.before} words before the first thing to do ({self.first}); "
                f"at most {FIRST_WITHIN}"
            )
        if self.per_item > PER_ITEM:
            out.append(
                f"{self.page}: {self.words} words for {self.answerable} answerable items "
                f"= {self.per_item:.0f} a item; at most {PER_ITEM}"
            )
        return out


def measure(page: Page, name: str) -> Pace:
    """The pace of the lesson open in `page` (its widgets drawn)."""
    got: dict[str, Any] = page.evaluate(MEASURE_JS, list(DOING))
    return Pace(
        name,
        int(got["words"]),
        None if got["before"] is None else int(got["before"]),
        str(got["firstKind"]),
        int(got["answerable"]),
        tuple(str(w) for w in got["widgets"]),
    )


def wait_drawn(page: Page, timeout_ms: int = 90_000) -> None:
    """Wait until the page's widgets are drawn: live ones live (the engine answered), static ones
    drawn by their component."""
    page.wait_for_function(
        """() => [...document.querySelectorAll('.loo-static[data-loo-component]')]
             .every(w => w.querySelector(':scope > :not(script):not(noscript)'))
           && [...document.querySelectorAll('[data-loo-live]')].every(e => e.dataset.looEngine === 'live')""",
        timeout=timeout_ms,
    )


def served(site: Path) -> Any:
    """`site` served on a free loopback port (the engine needs http): bench's own server."""
    from loo_lessons.cli.bench_browser import serve

    return serve(site)


def lessons(site: Path, which: list[str]) -> list[Path]:
    """The lesson pages of the built `site`, or those whose names start with one of `which`."""
    found = sorted((site / "notebooks").glob("*.html"))
    return [p for p in found if not which or any(p.name.startswith(w) for w in which)]


def build(which: list[str], out: Path) -> Path:
    """A quick build of just the lessons `which` (and the book's own pages) into `out`; not the
    book's real build (no -W, no engine): for measuring while writing a lesson."""
    nbs = [p for p in sorted((ROOT / "notebooks").glob("*.ipynb")) if any(p.name.startswith(w) for w in which)]
    toc = out / "_toc.yml"
    out.mkdir(parents=True, exist_ok=True)
    lines = ["format: jb-book", "root: book/intro", "chapters:"]
    lines += [f"  - file: notebooks/{p.stem}" for p in nbs]
    lines += ["  - file: book/glossary", "  - file: book/progress"]
    toc.write_text("\n".join(lines) + "\n")
    # the generated pages first, as scripts/build-book.sh writes them
    subprocess.run([sys.executable, "-m", "tools.book_pages"], check=True, cwd=ROOT)
    jb = Path(sys.executable).parent / "jupyter-book"
    subprocess.run(
        [str(jb), "build", str(ROOT), "--config", str(ROOT / "book" / "_config.yml"), "--toc", str(toc),
         "--path-output", str(out), "--all", "--quiet"],
        check=True,
        cwd=ROOT,
    )
    html = out / "_build" / "html"
    for script in ("vendor_engine.py", "light_pages.py"):  # the page's engine, as the real build
        subprocess.run([sys.executable, str(ROOT / "scripts" / script), str(html)], check=True, cwd=ROOT)
    return html


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.pace", description=__doc__.split("\n\n")[0])
    ap.add_argument("lessons", nargs="*", help="lesson numbers or name prefixes (05, 12-play)")
    ap.add_argument("--site", type=Path, default=ROOT / "book" / "_build" / "html")
    ap.add_argument("--build", action="store_true", help="build just these lessons first (quick, not -W)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright

    tmp = None
    site: Path = args.site
    if args.build:
        tmp = Path(tempfile.mkdtemp(prefix="loo-pace-"))
        site = build(args.lessons, tmp)
    rows: list[Pace] = []
    try:
        with sync_playwright() as p:
            from loo_lessons.cli.bench_browser import ARGS, CHROMIUM

            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            ctx = browser.new_context(viewport={"width": 1280, "height": 900})
            ctx.route("**/*", lambda r: r.continue_() if r.request.url.startswith(("http://127.0.0.1", "blob:", "data:")) else r.abort())
            with served(site) as origin:
                for path in lessons(site, args.lessons):
                    page = ctx.new_page()
                    page.goto(f"{origin}/notebooks/{path.name}")
                    wait_drawn(page)
                    rows.append(measure(page, path.stem))
                    page.close()
            browser.close()
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
    if args.json:
        print(json.dumps([r.__dict__ | {"per_item": round(r.per_item, 1)} for r in rows], indent=1))
    else:
        print(f"{'lesson':34} {'before':>6} {'first':>8} {'words':>6} {'items':>5} {'/item':>6}")
        for r in rows:
            print(f"{r.page:34} {r.before if r.before is not None else '-':>6} {r.first:>8} {r.words:>6} "
                  f"{r.answerable:>5} {r.per_item:>6.0f}{'  ✗' if r.faults() else ''}")
    return 1 if any(r.faults() for r in rows) else 0


if __name__ == "__main__":
    raise SystemExit(main())
