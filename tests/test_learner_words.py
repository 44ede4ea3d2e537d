"""Words a learner knows (issue 23.4): no page of the built book shows a learner a rule slug
("R09 miss-already-taken:"), a snake_case key (`take_miss`), a card code (7H) or a task id, in
its visible text (`Visit.said`, read in the one walk through the book: tests/_tour.py).

Pages that show files on purpose may show their keys: lesson 11 teaches the scenario file, the
playground is where one writes it, and the generated reference pages list the options by name.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from tools.task_seeds import TASKS

if TYPE_CHECKING:
    from _tour import Visit

SLUG = re.compile(r"\bR\d\d [a-z]+-[a-z-]+:")
SNAKE = re.compile(r"\b[a-z]+_[a-z_]+\b")
CARD = re.compile(r"(?<![\w-])(?:[2-9]|10|[JQKA])[CDHS]\b")
#: Pages whose subject is the file a learner writes, or the option names themselves.
SHOW_FILES = (
    "notebooks/11-scenario-files",
    "book/playground",
    "book/generated/",
    "book/guides/learners",
    "book/guides/scenario-format",  # the file format itself: its keys and card codes
    "book/guides/progress-format",  # the progress file's format: its keys
)
#: Pages written for contributors, IT staff and teachers, not learners: they name the code.
NOT_FOR_LEARNERS = (
    "book/guides/contributors",
    "book/guides/adding-a-widget",
    "book/guides/it",
    "book/guides/performance",
    "book/guides/teachers",
)


def unknown_words(text: str, page: str = "") -> list[str]:
    """What a learner would not know on `page`: slugs, and (not on a page showing files) snake
    keys, card codes and task ids."""
    found = SLUG.findall(text)
    if not page.startswith(SHOW_FILES):
        found += SNAKE.findall(text) + CARD.findall(text)
        found += [t for t in TASKS if re.search(rf"(?<![\w-]){re.escape(t)}(?![\w-])", text)]
    return sorted(set(found))


def test_the_sweep_finds_what_a_learner_would_not_know() -> None:
    task = next(iter(TASKS))
    said = f"R09 miss-already-taken: he may take_miss; lead the 7H or 10S; {task}"
    assert unknown_words(said) == sorted(
        ["R09 miss-already-taken:", "take_miss", "7H", "10S", task]
    )
    # the words a learner does know pass: 7♥, "takes the miss", R09 alone, A2, a seed number
    assert unknown_words("lead the 7♥; he takes the miss (R09, A2); seed 42") == []
    assert unknown_words("two_trumps_lead: one", "notebooks/11-scenario-files.html") == []


def test_no_page_shows_a_slug_a_key_a_card_code_or_a_task_id(tour: dict[str, Visit]) -> None:
    faults = {
        name: new
        for name, v in tour.items()
        if not name.startswith(NOT_FOR_LEARNERS)
        and (new := set(unknown_words(v.said, name)))
    }
    assert faults == {}, faults
