"""A lesson printed from the book (issue 16), in Debian's Chromium (`page.pdf`, A4), read back
with pypdf: the quiz prints as a handout (every question with a tick box before each choice,
none split from its choices) and without its key (no answer, no explanation the pupil has
not revealed); no widget chrome (buttons but a question's choices, selects, progress bars,
the engine's status line) is printed; the lesson takes fewer pages than it did (26).
"""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pypdf
import pytest
from _browser import SHOTS, open_page
from playwright.sync_api import Browser
from test_handout import check_questions

LESSON = "notebooks/05-leading.html"

#: What the widgets' controls say: none of it belongs on paper ("New questions" is left out:
#: the lesson's own words name that button).
CHROME = [
    "Show the answer",
    "Next question",
    "Start again",
    "Try again",
    "Use this code",
    "Download results",
    "Show the result code",
    "Deal this seed",
    "Hide the hands",
    "Full screen",
    "Score:",
]

#: Elements that are chrome wherever they are (a question's choices are kept).
CHROME_SELECTOR = (
    ".loo button:not(.loo-choices *), .loo select, .loo textarea, .loo progress, "
    ".loo-progress, .loo-engine-status, .loo-live-note, .loo-controls"
)


def test_a_printed_lesson_has_its_questions_but_no_key_and_no_chrome(
    browser: Browser, built_book: Path
) -> None:
    page, w = open_page(browser, built_book / LESSON, ready=".loo")
    try:
        states: list[list[dict[str, Any]]] = page.evaluate(
            "() => window.looLessons.filter((w) => w.name === 'quiz')"
            ".map((w) => w.model.get('questions'))"
        )
        assert len(states) == 1, "lesson 5 has one quiz"
        qs = states[0]
        assert len(qs) >= 3
        page.emulate_media(media="print")
        shown = page.eval_on_selector_all(
            CHROME_SELECTOR,
            "es => es.filter(e => e.getClientRects().length).map(e => e.outerHTML.slice(0, 80))",
        )
        assert shown == []
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "lesson05_print.png"), full_page=True)
        pdf = page.pdf(format="A4")
        assert not w.external
    finally:
        page.context.close()
    pages = [p.extract_text() for p in pypdf.PdfReader(io.BytesIO(pdf)).pages]
    flat = " ".join(" ".join(pages).split())
    assert len(pages) <= 20, len(pages)
    check_questions(pages, qs)
    # no key: no answer key, no explanation, no verdict
    assert "Answer key" not in flat
    for q in qs:
        assert " ".join(q["explanation"].split())[:50] not in flat
    for words in CHROME:
        assert words not in flat, words


# --- every lesson on paper (issue 24): short, no empty pages, nothing that needs a screen ----

#: A printed lesson fits a lesson's handout.
MAX_PAGES = 12
#: A page but the last ends no higher than this share of its height (else it is mostly empty).
MIN_FILL = 0.3
#: Words telling the reader to use a control the paper does not have.
BUTTON_WORDS = re.compile(
    r"\b(?:press|click|tap)\b[^.\n]{0,30}\b(?:Check|Run|Find|Compare|Next deal|New questions|"
    r"Show the answer|Start again|Undo|Forward|Use this code|Deal this seed)\b",
    re.I,
)


def _fills(pdf: bytes) -> list[float]:
    """How far down each page its last line of text comes (0 top, 1 bottom)."""
    out = []
    for pg in pypdf.PdfReader(io.BytesIO(pdf)).pages:
        height = float(pg.mediabox.height)
        ys: list[float] = []

        def seen(text: str, cm: list[float], tm: list[float], font: Any, size: Any, ys: list[float] = ys) -> None:
            if text.strip():
                ys.append(tm[5] * cm[3] + cm[5])

        pg.extract_text(visitor_text=seen)
        out.append(round(1 - min(ys) / height, 2) if ys else 0.0)
    return out


@pytest.mark.parametrize("number", [f"{n:02d}" for n in range(1, 15)])
def test_a_printed_lesson_is_short_full_and_needs_no_screen(
    browser: Browser, built_book: Path, number: str
) -> None:
    lesson = next((built_book / "notebooks").glob(f"{number}-*.html"))
    page, _w = open_page(browser, lesson, ready=".loo")
    try:
        page.emulate_media(media="print")
        boxes = page.eval_on_selector_all(
            "input:not([type=checkbox]):not([type=radio]), textarea, select",
            "es => es.filter(e => e.getClientRects().length).map(e => e.outerHTML.slice(0, 80))",
        )
        pdf = page.pdf(format="A4")
    finally:
        page.context.close()
    assert boxes == [], f"lesson {number} prints input boxes: {boxes[:3]}"
    texts = [p.extract_text() or "" for p in pypdf.PdfReader(io.BytesIO(pdf)).pages]
    assert len(texts) <= MAX_PAGES, f"lesson {number}: {len(texts)} pages"
    fills = _fills(pdf)
    empty = [i + 1 for i, f in enumerate(fills[:-1]) if f < MIN_FILL]
    assert empty == [], f"lesson {number}: pages {empty} mostly empty ({fills})"
    said = BUTTON_WORDS.findall(" ".join(" ".join(texts).split()))
    assert said == [], f"lesson {number} tells the reader on paper to use a button: {said[:3]}"
