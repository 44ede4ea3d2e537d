"""Every lesson page of the built book keeps the pace of issue 23, as a reader meets it (the
measure is tools/pace.py, taken in the one walk through the book, tests/_tour.py): the first thing
to do within `FIRST_WITHIN` visible words, at most `PER_ITEM` visible words per answerable item
(a pick, a pool, a deal to play, each quiz question), and at least three play-this-deal tasks in
each of lessons 3–10."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tools.pace import FIRST_WITHIN, PER_ITEM, measure

if TYPE_CHECKING:
    from _tour import Visit
    from playwright.sync_api import Browser

LESSONS = [f"{n:02d}" for n in range(1, 15)]


def _pace(tour: dict[str, Visit], number: str) -> Visit:
    found = [v for name, v in tour.items() if name.startswith(f"notebooks/{number}-")]
    assert len(found) == 1, f"lesson {number}: {len(found)} pages"
    assert found[0].pace is not None
    return found[0]


@pytest.mark.parametrize("number", LESSONS)
def test_the_first_thing_to_do_comes_within_a_few_words(tour: dict[str, Visit], number: str) -> None:
    p = _pace(tour, number).pace
    assert p is not None and p.before is not None, f"lesson {number}: nothing to do on the page"
    assert p.before <= FIRST_WITHIN, p.faults()


@pytest.mark.parametrize("number", LESSONS)
def test_few_words_per_answerable_item(tour: dict[str, Visit], number: str) -> None:
    p = _pace(tour, number).pace
    assert p is not None and p.answerable > 0
    assert p.per_item <= PER_ITEM, p.faults()


@pytest.mark.parametrize("number", [f"{n:02d}" for n in range(3, 11)])
def test_three_tasks_or_more_in_each_stepped_lesson(tour: dict[str, Visit], number: str) -> None:
    p = _pace(tour, number).pace
    assert p is not None
    assert p.widgets.count("play") >= 3, f"lesson {number}: {p.widgets.count('play')} deals to play"


def test_the_measure_counts_what_a_reader_sees(browser: Browser) -> None:
    """Closed folds, code, hidden text and the cards' drawn corners are not read; each quiz
    question is an item; the first widget the learner acts on ends the opening read."""
    page = browser.new_page()
    try:
        page.set_content(
            """<article class="bd-article">
            <p>one two three</p>
            <details><summary>The books' words</summary><p>folded words are not read</p></details>
            <div class="cell_input"><pre>L.pick("code is not read")</pre></div>
            <p hidden>hidden words</p>
            <div class="loo-static" data-loo-component="table"><p>seat zero</p><svg><text>A</text></svg></div>
            <div class="loo-static" data-loo-component="pick"><p>pick a card</p><button>Check</button></div>
            <p>after the pick</p>
            <div class="loo-static" data-loo-component="quiz"><p>Question 1 of 6</p></div>
            <details open><summary>More</summary><p>open folds are read</p></details>
            </article>"""
        )
        p = measure(page, "synthetic")
    finally:
        page.close()
    # before the pick: "one two three", "The books' words" (the fold's own summary), "seat zero"
    assert p.before == 3 + 3 + 2
    assert p.first == "pick"
    assert p.answerable == 1 + 6
    assert p.widgets == ("table", "pick", "quiz")
    assert p.words == 8 + 4 + 3 + 4 + 1 + 4
