"""The presenter on a projector (issue 16): full screen at 1280×720 and 1920×1080, for 3 to 8
players, every step of a deal.

In Debian's Chromium, over the static component HTML the widget produces: the rule's words
(the step's title and text, each rule's plain words and the book's quote) are at least 28 px
at 1280×720 and larger at 1920×1080; every word on the table (the seats' lines, the felt's
titles, the pool) at least 20 px at 1280×720 (30 px at 1920×1080); what is shown covers at least two thirds of the screen's
width and height (no empty third); nothing leaves the screen; the cards and the seat names
stay big enough to read from the back of a room. Screenshots go to /tmp/shots/ (look at them).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from _browser import SHOTS, open_page
from playwright.sync_api import Browser, Page

from loo_lessons.widgets import static
from loo_lessons.widgets.present import Presenter

SIZES = [(1280, 720), (1920, 1080)]
SEED = 42

#: What the page shows of one step, measured in the browser.
MEASURE = """() => {
  const root = document.querySelector('.loo-present');
  const px = (e) => parseFloat(getComputedStyle(e).fontSize);
  const rule = [...root.querySelectorAll(
    '.loo-step-title, .loo-step-text, .loo-law-head, .loo-law blockquote')]
    .filter((e) => e.getClientRects().length);
  const shown = [...root.querySelectorAll(
    '.loo-step-title, .loo-step-text, .loo-law, .loo-felt, .loo-seat, .loo-card, .loo-controls, .loo-banner')]
    .map((e) => e.getBoundingClientRect()).filter((r) => r.width > 0 && r.height > 0);
  const fit = parseFloat(root.dataset.fit);
  const seatCards = [...root.querySelectorAll('.loo-seat .loo-card')].map((e) => e.getBoundingClientRect().width);
  const heads = [...root.querySelectorAll('.loo-seat-head')].map((e) => px(e) * fit);
  // every word on the table (the seats' lines, the felt's titles and captions, the pool), as
  // shown: its font size times the board's scale (the cards' own corners are drawn, not text)
  const board = root.querySelector('.loo-board');
  const words = [];
  const walk = document.createTreeWalker(board, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const e = n.parentElement;
    if (!n.nodeValue.trim() || !e.getClientRects().length || e.closest('svg')) continue;
    words.push([px(e) * fit, n.nodeValue.trim().slice(0, 30)]);
  }
  words.sort((a, b) => a[0] - b[0]);
  return {
    rule: rule.map(px),
    ruleText: rule.map((e) => e.textContent).join(' | '),
    left: Math.min(...shown.map((r) => r.left)), right: Math.max(...shown.map((r) => r.right)),
    top: Math.min(...shown.map((r) => r.top)), bottom: Math.max(...shown.map((r) => r.bottom)),
    out: shown.filter((r) => r.left < -1 || r.top < -1 || r.right > innerWidth + 1 || r.bottom > innerHeight + 1).length,
    scroll: root.scrollHeight > root.clientHeight + 1 || root.scrollWidth > root.clientWidth + 1,
    cards: seatCards, heads, fit, smallest: words[0] || [99, ''],
  };
}"""


def full_screen(
    browser: Browser, tmp_path: Path, players: int, size: tuple[int, int]
) -> tuple[Page, Presenter]:
    p = Presenter(SEED, players=players)
    path = tmp_path / f"present-{players}.html"
    path.write_text(static.page("Presenter", p.static_html()), encoding="utf-8")
    page, _ = open_page(browser, path, ready=".loo-present")
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.locator(".loo-present").focus()
    page.keyboard.press("p")
    page.wait_for_selector(".loo-present.loo-fullscreen[data-fit]")
    return page, p


def measure(page: Page, step: int) -> dict[str, Any]:
    page.wait_for_function(f"() => +document.querySelector('.loo-stepno').dataset.step === {step}")
    # the fit runs in the next animation frame: wait for two
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    out: dict[str, Any] = page.evaluate(MEASURE)
    return out


def every_step(
    browser: Browser, tmp_path: Path, players: int, size: tuple[int, int]
) -> list[dict[str, Any]]:
    page, p = full_screen(browser, tmp_path, players, size)
    try:
        seen = []
        for step in range(len(p.steps)):
            if step:
                page.keyboard.press("ArrowRight")
            m = measure(page, step)
            seen.append(m)
            if step in (0, len(p.steps) // 2):
                SHOTS.mkdir(parents=True, exist_ok=True)
                page.screenshot(
                    path=str(SHOTS / f"projector_{size[0]}x{size[1]}_{players}p_step{step}.png")
                )
        return seen
    finally:
        page.context.close()


@pytest.mark.parametrize("players", range(3, 9))
def test_full_screen_fills_a_projector_with_the_rule_big(
    browser: Browser, tmp_path: Path, players: int
) -> None:
    small, large = (every_step(browser, tmp_path, players, size) for size in SIZES)
    assert len(small) == len(large) >= 9
    for step, (s, big) in enumerate(zip(small, large, strict=True)):
        where = f"{players} players, step {step}: {s['ruleText'][:80]}"
        for m, (w, h) in ((s, SIZES[0]), (big, SIZES[1])):
            assert m["rule"], where  # every step says something
            assert m["out"] == 0 and not m["scroll"], where  # all of it on the screen
            # no empty third: what is shown spans two thirds of the width and of the height
            assert m["right"] - m["left"] >= 2 / 3 * w, (where, m["left"], m["right"])
            assert m["bottom"] - m["top"] >= 2 / 3 * h, (where, m["top"], m["bottom"])
            # every word on the table a class can read (20 px at 1280×720), and the cards
            assert min(m["heads"]) >= 20 * w / 1280, (where, min(m["heads"]))
            assert m["smallest"][0] >= 20 * w / 1280 - 0.05, (where, m["smallest"])
            if m["cards"]:
                assert min(m["cards"]) >= 56 * w / 1280, (where, min(m["cards"]))
        assert min(s["rule"]) >= 28, (where, s["rule"])
        assert min(big["rule"]) >= 36 and min(big["rule"]) > min(s["rule"]), (where, big["rule"])


def test_leaving_full_screen_gives_the_page_back(browser: Browser, tmp_path: Path) -> None:
    page, _ = full_screen(browser, tmp_path, 5, SIZES[0])
    try:
        page.keyboard.press("Escape")
        page.wait_for_selector(".loo-present:not(.loo-fullscreen)")
        assert page.locator(".loo-present").get_attribute("data-fit") is None
        # on the page the explanation takes its own size again, and no part is hidden
        assert page.evaluate("() => document.querySelector('.loo-explain').style.fontSize") == ""
        assert (
            page.evaluate("() => getComputedStyle(document.querySelector('.loo-more')).display")
            != "none"
        )
        assert page.evaluate("() => document.querySelector('.loo-board-in').style.transform") == ""
    finally:
        page.context.close()
