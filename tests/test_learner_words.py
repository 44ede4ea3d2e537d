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
SHOW_FILES = ("notebooks/11-scenario-files", "book/playground", "book/generated/")
#: Pages written for contributors, IT staff and teachers, not learners: they name the code.
NOT_FOR_LEARNERS = (
    "book/guides/contributors",
    "book/guides/it",
    "book/guides/performance",
    "book/guides/teachers",
)
#: What today's pages still show, outside lessons 1, 2 and 11 (or, in lesson 11, from the option
#: explorer's own lines): each is to go, by the helper who owns that page or widget; none may be
#: added, and whoever removes one takes it off this list. Most come from the widgets' verdict
#: lines ("R18 miss-for-pool-dealer-only:") and the explorers' option boxes.
KNOWN: dict[str, set[str]] = {
    "book/guides/learners": {
        "4C",
        "as_json",
        "balance_high",
        "balance_low",
        "loo_lessons",
        "seat_hands",
        "versus_best",
    },
    "notebooks/03-declaring": {
        "R07 throw-up:",
        "R08 take-miss:",
        "R18 miss-for-pool-dealer-only:",
        "play_miss_for_pool",
        "take_miss",
    },
    "notebooks/04-dealer-special-cases": {
        "4C",
        "7D",
        "JH",
        "QH",
        "R17 dealer-play-or-take-miss:",
        "R18 dealer-cannot-pass:",
        "R18 play-miss-for-pool:",
        "enquire_within",
        "first_leader",
        "lone_stander_rule",
        "miss_holder",
        "play_miss_for_pool",
        "take_miss",
    },
    "notebooks/05-leading": {
        "10H",
        "3D",
        "3S",
        "4D",
        "7H",
        "8D",
        "9C",
        "9D",
        "JD",
        "JH",
        "JS",
        "KC",
        "KH",
        "QH",
        "R27 two-declared-equal-value:",
        "R27 two-declared-highest:",
        "R28 free-lead:",
        "elder_hand",
        "equal_value_via_visible_cards",
        "first_leader",
        "highest_with_sequence_exception",
        "miss_holder",
        "two_declared_rule",
        "two_trumps_lead",
    },
    "notebooks/06-following": {
        "10C",
        "10H",
        "2D",
        "2S",
        "3S",
        "4C",
        "5C",
        "5D",
        "5S",
        "7S",
        "8H",
        "9C",
        "9S",
        "AH",
        "JC",
        "JH",
        "KC",
        "KD",
        "QC",
        "R35 under-trump:",
        "must_head_in_suit",
        "must_trump",
        "only_if_heads",
        "void_trump_rule",
    },
    "notebooks/09-singles-musts-unlimited": {"loo_amount"},
    "notebooks/12-play-a-hand": {"JH"},
    "notebooks/13-edge-cases": {
        "2H",
        "4H",
        "5C",
        "8H",
        "9H",
        "QC",
        "R07 throw-up:",
        "R08 take-miss:",
        "R18 miss-for-pool-dealer-only:",
        "R27 two-declared-equal-value:",
        "R27 two-declared-highest:",
        "highest_with_sequence_exception",
        "two_declared_rule",
        "two_trumps_lead",
    },
    "notebooks/14-strategy-lab": {"loo_amount", "pool_capped"},
    "notebooks/11-scenario-files": {"R25 two-trumps-lead-one:"},  # the option explorer's lines
}


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
        and (new := set(unknown_words(v.said, name)) - KNOWN.get(name.removesuffix(".html"), set()))
    }
    assert faults == {}, faults
