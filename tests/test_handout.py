"""Printed handouts (issue 16): `loo-lessons quiz --html [--key]` printed to A4 by Debian's
Chromium (`page.pdf`), read back with pypdf.

A 10-question handout fits on at most 4 pages, so at least three questions a page on
average; every choice has a tick box (☐) before it, on the same page as its question (no
question split from its choices); the answer key is only in the teacher's copy (`--key`), on
pages of its own after the questions, one answer per question.
"""

from __future__ import annotations

import io
import re
from collections.abc import Mapping, Sequence
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

import pypdf
import pytest
from _browser import open_page
from playwright.sync_api import Browser

from loo_lessons import quiz
from loo_lessons.cli import main
from loo_lessons.quiz.model import Question

TICK = "\u2610"
HEADING = re.compile(r"Question (\d+) \(tick (?:one|every one that applies)\)")

#: (the CLI's arguments for the questions, the same questions from the library)
CASES = {
    "lead-10-42": ["--code", "lead-10-42"],
    "pool-10-3": ["--code", "pool-10-3"],
    "mixed-10-7": ["--code", "mixed-10-7"],
}


def questions(name: str) -> list[Question]:
    return list(quiz.for_code(name))


_PRINTED: dict[tuple[str, ...], list[str]] = {}


def printed(browser: Browser, tmp_path: Path, args: list[str], key: bool) -> list[str]:
    """The text of each A4 page of the handout the CLI writes (printed once per test run)."""
    done = _PRINTED.get((*args, str(key)))
    if done is not None:
        return done
    html = tmp_path / ("key.html" if key else "pupil.html")
    buf = io.StringIO()
    with redirect_stdout(buf):
        rc = main(["quiz", *args, "--html", str(html), *(["--key"] if key else [])])
    assert rc == 0, buf.getvalue()
    page, w = open_page(browser, html, ready=".loo-quiz-head")
    try:
        pdf = page.pdf(format="A4")
        assert not w.errors and not w.external
    finally:
        page.context.close()
    pages = [p.extract_text() for p in pypdf.PdfReader(io.BytesIO(pdf)).pages]
    _PRINTED[(*args, str(key))] = pages
    return pages


def where_questions_start(pages: list[str]) -> dict[int, int]:
    """Question number -> the page (0-based) its heading is on."""
    at: dict[int, int] = {}
    for i, text in enumerate(pages):
        for m in HEADING.finditer(text):
            n = int(m.group(1))
            assert n not in at, f"question {n} printed twice"
            at[n] = i
    return at


def check_questions(pages: list[str], qs: Sequence[Mapping[str, Any]]) -> None:
    """Every question (as `Question.to_json()`) printed once, in order, with a tick box
    before each choice and its prompt's last words on the page its heading is on."""
    at = where_questions_start(pages)
    assert sorted(at) == list(range(1, len(qs) + 1))
    assert list(at.values()) == sorted(at.values())  # in order
    for n, q in enumerate(qs, start=1):
        text = pages[at[n]]
        # the question's part of its page: from its heading to the next one (or the page's end)
        start = HEADING.search(text, text.index(f"Question {n} ("))
        assert start is not None
        nxt = HEADING.search(text, start.end())
        part = " ".join(text[start.end() : nxt.start() if nxt else len(text)].split())
        # a tick box for every choice, all on the question's page
        assert part.count(TICK) == len(q["choices"]), (n, part)
        if q["kind"] != "pick_card":
            for c in q["choices"]:
                assert f"{TICK} {' '.join(c['label'].split())}" in part, (n, c["label"], part)
        # the prompt's last words too (the question is not split from its choices)
        tail = " ".join(q["prompt"].split()[-4:])
        assert tail in part, (n, tail)


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_ten_question_handout_fits_on_four_pages_with_tick_boxes(
    browser: Browser, tmp_path: Path, name: str
) -> None:
    qs = questions(name)
    assert len(qs) == 10
    pupil = printed(browser, tmp_path, CASES[name], key=False)
    assert 1 <= len(pupil) <= 4, [p[:60] for p in pupil]
    check_questions(pupil, [q.to_json() for q in qs])
    assert not any("Answer key" in p for p in pupil)  # the pupils' sheet holds no answers
    assert not any(q.explanation[:40] in " ".join(" ".join(pupil).split()) for q in qs)


@pytest.mark.parametrize("name", ["lead-10-42", "mixed-10-7"])
def test_the_key_comes_on_its_own_pages_after_the_questions(
    browser: Browser, tmp_path: Path, name: str
) -> None:
    qs = questions(name)
    pupil = printed(browser, tmp_path, CASES[name], key=False)
    teacher = printed(browser, tmp_path, CASES[name], key=True)
    at = where_questions_start(teacher)
    last_question_page = max(at.values())
    key_pages = [i for i, text in enumerate(teacher) if "Answer key" in text]
    # the questions take the same pages as on the pupils' sheet, then the key begins a page
    assert last_question_page == len(pupil) - 1
    assert key_pages == [len(pupil)]
    assert teacher[len(pupil)].lstrip().startswith("Answer key")
    check_questions(teacher[: len(pupil)], [q.to_json() for q in qs])
    key = " ".join(" ".join(teacher[len(pupil) :]).split())
    assert not HEADING.search(key)  # no question on the key's pages
    assert len(re.findall(r"(?:^|\s)(\d+)\. ", key)) >= len(qs)
    for q in qs:
        assert q.rule_ids[0] in key
