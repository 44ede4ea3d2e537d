"""A lesson printed from the book (issue 16), in Debian's Chromium (`page.pdf`, A4), read back
with pypdf: the quiz prints as a handout (every question with a tick box before each choice,
none split from its choices) and without its key (no answer, no explanation the pupil has
not revealed); no widget chrome (buttons but a question's choices, selects, progress bars,
the engine's status line) is printed; the lesson takes fewer pages than it did (26).
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pypdf
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
