"""One question, one screen (issue 34, deliver 4): in the built book, on a phone (360×740) and on
a laptop (1280×800), every pick, every task or play table and every quiz of the fourteen lessons
shows together, with no scrolling once the widget's top is scrolled to (just under the page's
sticky header): the prompt, the felt (the trick in play or the turn-up), the learner's own hand
and the buttons. The other seats take a line each; the learner's cards are the buttons, drawn
once; on a phone every button is a finger's target (44 px).

Measured on the live page (the book's engine draws each widget as a learner meets it), for each
widget in turn, by the boxes Chromium lays out. Screenshots of any widget that does not fit go to
/tmp/shots/one-screen-<size>-<lesson>-<n>.png, to look at.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from _browser import SHOTS
from test_live_book import block_other_hosts

if TYPE_CHECKING:
    from playwright.sync_api import Browser

ROOT = Path(__file__).resolve().parent.parent
READY_MS = 120_000
SIZES = {"phone": (360, 740), "laptop": (1280, 800)}
#: A call that draws a question or a table in a lesson's code cell.
ASKS = re.compile(r"\bL\.(?:pick|task|play|quiz)\(")
WIDGETS = ", ".join(
    f'.loo-static[data-loo-component="{c}"]' for c in ("pick", "play", "quiz")
)

#: For the widget `i` of the page: scroll its top to just under what stays stuck at the top of
#: the window (the book's header), then measure its parts. What a learner must see together:
#: the prompt, the felt, his own hand (his seat, or the choices) and the buttons (the choices
#: of a play table; Check, or the first control, of a pick or a quiz).
MEASURE = """
([sel, i]) => {
  const w = document.querySelectorAll(sel)[i];
  const stuck = () => {
    let top = 0;
    for (const el of document.querySelectorAll("body *")) {
      const cs = getComputedStyle(el);
      if (cs.position !== "sticky" && cs.position !== "fixed") continue;
      const r = el.getBoundingClientRect();
      if (r.top <= 0.5 && r.bottom > top && r.width > innerWidth / 2 && r.height < innerHeight / 3) top = r.bottom;
    }
    return top;
  };
  w.scrollIntoView({ block: "start" });
  window.scrollBy(0, w.getBoundingClientRect().top - stuck());
  const top = stuck();
  const box = (el) => {
    if (!el) return null;
    const r = el.getBoundingClientRect();
    return { top: Math.round(r.top), bottom: Math.round(r.bottom), height: Math.round(r.height),
             inside: r.height > 0 && r.top >= top - 1 && r.bottom <= innerHeight + 1 };
  };
  const kind = w.dataset.looComponent;
  // a quiz's question on the screen (its printed sheet is hidden there)
  const root = kind === "quiz" ? w.querySelector(".loo-quiz-screen") : w;
  const q = (s) => root.querySelector(s);
  const myTurn = w.querySelector(".loo-choices") !== null;
  const parts = {
    prompt: box(q(kind === "play" ? ".loo-play-prompt" : ".loo-prompt")),
    felt: box(q(".loo-felt")),
    hand: box(q(".loo-seat-own") || q(".loo-choices")),
    buttons: box(kind === "play" ? q(".loo-choices") : q(".loo-controls button")),
  };
  if (kind === "play" && !myTurn) delete parts.buttons;  // the deal over, or not his turn
  if (!q(".loo-felt")) delete parts.felt;  // a question with no table
  // his cards drawn once: every card among the choices appears once in the widget
  const twice = [...root.querySelectorAll(".loo-choices button.loo-card[data-key]")]
    .map((b) => b.dataset.key)
    .filter((k) => root.querySelectorAll(`.loo-card[data-key="${k}"]`).length !== 1);
  // the other seats a line each, his own seat whole (at most one)
  const seats = [...root.querySelectorAll(".loo-table .loo-seat")];
  const whole = seats.filter((s) => !s.classList.contains("loo-seat-line"));
  const own = seats.filter((s) => s.classList.contains("loo-seat-own"));
  // a finger's target: the choices and the controls on the screen
  const small = [...root.querySelectorAll(".loo-choices button, .loo-controls button")]
    .map((b) => b.getBoundingClientRect())
    .filter((r) => r.height > 0 && (r.height < 43.5 || r.width < 43.5)).length;
  return { kind, parts, twice, whole: whole.length - own.length, own: own.length, small,
           title: (q("h3") || {}).textContent || "" };
}
"""


def lessons() -> list[str]:
    """The lessons whose code cells ask a question or play a table (their pages' names)."""
    out = []
    for nb in sorted((ROOT / "notebooks").glob("[0-9][0-9]-*.ipynb")):
        cells = json.loads(nb.read_text(encoding="utf-8"))["cells"]
        if any(c["cell_type"] == "code" and ASKS.search("".join(c["source"])) for c in cells):
            out.append(nb.stem)
    return out


@pytest.mark.parametrize("size", list(SIZES))
def test_every_question_fits_one_screen(browser: Browser, server: str, size: str) -> None:
    width, height = SIZES[size]
    names = lessons()
    assert len(names) == 14, names
    external: list[str] = []
    errors: list[str] = []
    ctx = browser.new_context(viewport={"width": width, "height": height}, service_workers="block")
    block_other_hosts(ctx, server, external)
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    bad: list[str] = []
    seen: dict[str, int] = {"pick": 0, "play": 0, "quiz": 0}
    try:
        for name in names:
            page.goto(f"{server}/notebooks/{name}.html")
            page.wait_for_function(
                "() => [...document.querySelectorAll('[data-loo-live]')].every(e => e.dataset.looEngine === 'live')",
                timeout=READY_MS,
            )
            n = page.locator(WIDGETS).count()
            assert n, f"{name}: no question on the page"
            for i in range(n):
                m: dict[str, Any] = page.evaluate(MEASURE, [WIDGETS, i])
                seen[m["kind"]] += 1
                where = f"{size} {name} #{i} {m['kind']} {m['title'][:50]!r}"
                problems = [k for k, b in m["parts"].items() if b is None or not b["inside"]]
                if m["twice"]:
                    problems.append(f"drawn twice: {m['twice']}")
                if m["whole"] or m["own"] > 1:
                    problems.append(f"{m['whole']} other seats drawn whole, {m['own']} own seats")
                if size == "phone" and m["small"]:
                    problems.append(f"{m['small']} buttons under 44 px")
                if problems:
                    bad.append(f"{where}: {problems} {json.dumps(m['parts'])}")
                    SHOTS.mkdir(parents=True, exist_ok=True)
                    page.screenshot(path=str(SHOTS / f"one-screen-{size}-{name[:2]}-{i}.png"))
    finally:
        ctx.close()
    assert bad == [], "\n".join(bad)
    # every kind met: the picks, the tasks and tables, a quiz on every page
    assert seen["pick"] >= 14 and seen["play"] >= 14 and seen["quiz"] == 14, seen
    assert external == [] and errors == []
