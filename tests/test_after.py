"""`after=` on a task and a pick (issue 23, nothing answered before it is asked): the lesson's
words reach the component only as text runs, a pick carries them to show once checked, a task
only once the deal is over, the book's engine makes the same table again with them, and a note
that is not words is refused in one line naming `after`."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from loo_lessons import lessons as L
from loo_lessons.engine.errors import InputError
from loo_lessons.views.prose import MAX_CHARS, plain, prose, runs
from loo_lessons.widgets.controllers.play import PlayController


def test_prose_is_runs_of_text_never_html() -> None:
    assert runs("a **bold** and *soft* `7♥` [the glossary](../book/glossary.md#loo) end") == [
        ("a ", ""),
        ("bold", "b"),
        (" and ", ""),
        ("soft", "i"),
        (" ", ""),
        ("7♥", "code"),
        (" ", ""),
        ("the glossary", ""),
        (" end", ""),
    ]
    assert prose("one\n\ntwo\nlines") == [[("one", "")], [("two lines", "")]]
    assert plain(prose("<script>alert(1)</script> *x*")) == "<script>alert(1)</script> x"


@given(st.text(max_size=300))
def test_any_text_keeps_its_words(text: str) -> None:
    """Whatever a lesson writes comes back as the same words (markup aside), or a one-line
    refusal for an empty note."""
    if not text.strip():
        with pytest.raises(ValueError, match=r"^after: "):
            prose(text)
        return
    got = plain(prose(text))
    assert _letters(got) <= _letters(text) and len(got) <= len(text)


def _letters(s: str) -> set[str]:
    """What is written, markup aside: the characters of the words."""
    return {ch for ch in s if not ch.isspace() and ch not in "*_`[]()"}


def test_a_pick_carries_its_words_a_task_only_once_the_deal_is_over() -> None:
    p = L.pick("lead-ace-of-trumps", after="The **ace** (R23).")
    assert p.data["after"] == [[("The ", ""), ("ace", "b"), (" (R23).", "")]]
    assert "after" not in L.pick("lead-ace-of-trumps").data
    # a lesson's task has no fixed words (its result is worded from the deal as played); the
    # table still takes a note to show after the deal
    assert L.task("leading-ace-deal-89").data["after"] is None
    t = PlayController(89, task="leading-ace-deal-89", asks=["lead"], after="Your first lead was the *ace*.")
    assert t.data["after"] is None and not t.data["over"]
    assert "the *ace*" in json.dumps(t.live_spec())  # the page's engine makes it again
    while not t.over:
        t.choose(t.legal[0])
    assert t.data["after"] == [[("Your first lead was the ", ""), ("ace", "i"), (".", "")]]
    spec = t.live_spec()
    assert spec is not None
    again = PlayController(**spec["args"])
    assert again.data["after"] is None  # the spec starts at the first move again


@pytest.mark.parametrize("bad", ["", "   ", "x" * (MAX_CHARS + 1)])
def test_an_after_that_is_not_a_note_is_refused(bad: str) -> None:
    with pytest.raises(InputError) as e:
        L.pick("lead-ace-of-trumps", after=bad)
    assert e.value.field == "after"
    with pytest.raises(InputError):
        PlayController(89, task="leading-ace-deal-89", asks=["lead"], after=bad)


def test_the_bots_personalities_are_in_a_learners_words() -> None:
    """Lesson 12's table of bots shows each bot's declared personality: no code's names in
    backticks, no snake_case (issue 23)."""
    import re

    shown = L.play(39, bots=["random-legal", "cautious", "bold", "sensible"]).players()._repr_html_()
    assert "`" not in shown
    assert not re.search(r"\b[a-z]+_[a-z_]+\b", shown), shown
