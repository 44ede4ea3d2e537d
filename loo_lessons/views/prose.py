"""A few words of lesson prose handed to a widget, to show once the learner has acted (`after=`
of `L.task` and `L.pick`, issue 23: nothing answered before it is asked).

The text is markdown of the lessons' own kind, reduced to what such a note needs: paragraphs
(blank lines between), **bold**, *emphasis*, `code`, and links, whose words are kept (the widget
is not the place to leave the lesson). It goes to the component as paragraphs of styled runs,
which the component draws with text nodes only (js/cards.js `proseEl`): nothing in it is ever
HTML, so nothing a lesson writes can run in the page.
"""

from __future__ import annotations

import re

from loo_lessons.engine.errors import InputError

#: A run of text and its style: "" (plain), "b" (bold), "i" (emphasis) or "code".
Run = tuple[str, str]

#: Notes are a few words: a lesson that writes more belongs in the lesson.
MAX_CHARS = 2_000

_TOKEN = re.compile(r"\*\*(?P<b>.+?)\*\*|\*(?P<i>[^*]+?)\*|_(?P<u>[^_]+?)_|`(?P<code>[^`]+?)`|\[(?P<link>[^\]]+)\]\([^)\s]*\)")


def runs(paragraph: str) -> list[Run]:
    """One paragraph's styled runs, in order (spaces and line breaks as single spaces)."""
    text = " ".join(paragraph.split())
    out: list[Run] = []
    at = 0
    for m in _TOKEN.finditer(text):
        if m.start() > at:
            out.append((text[at : m.start()], ""))
        if m.group("b") is not None:
            out.append((m.group("b"), "b"))
        elif m.group("i") is not None or m.group("u") is not None:
            out.append((m.group("i") or m.group("u") or "", "i"))
        elif m.group("code") is not None:
            out.append((m.group("code"), "code"))
        else:
            out.append((m.group("link"), ""))
        at = m.end()
    if at < len(text):
        out.append((text[at:], ""))
    return out


def prose(text: str) -> list[list[Run]]:
    """`text` as paragraphs of runs; an `InputError` on `after` (a ValueError) for a note that
    is not words (empty or long)."""
    if not isinstance(text, str) or not text.strip():
        raise InputError("after", "give the words to show once the learner has acted")
    if len(text) > MAX_CHARS:
        raise InputError("after", f"at most {MAX_CHARS} characters (a note, not a lesson)")
    return [runs(p) for p in re.split(r"\n\s*\n", text.strip()) if p.strip()]


def after_note(after: str | None) -> list[list[Run]] | None:
    """A widget's `after=` words as the component draws them, None when there are none: the
    one check of `L.pick` and `L.task` alike."""
    return None if after is None else prose(after)


def plain(paragraphs: list[list[Run]]) -> str:
    """The words alone (for a screen reader's announcement and the tests)."""
    return "\n\n".join("".join(t for t, _ in p) for p in paragraphs)
