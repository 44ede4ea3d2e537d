"""Text that came from a file, made safe to show: no lone surrogates, no control characters,
and never more than a short excerpt of what a user typed in a message."""

from __future__ import annotations

import functools
import reprlib
import unicodedata
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from loo_lessons.engine.errors import InputError

from .errors import ScenarioError

P = ParamSpec("P")
R = TypeVar("R")

#: The replacement character stands where a file had a character that must not be shown.
REPLACEMENT = "\ufffd"
#: Line breaks and tabs are kept in prose (a description is markdown).
_KEPT = frozenset("\n\t")
#: How much of a user's value a message may quote.
EXCERPT = 40
_SHORT = reprlib.Repr()
_SHORT.maxlevel, _SHORT.maxlist, _SHORT.maxtuple, _SHORT.maxdict = 2, 4, 4, 3
_SHORT.maxstring, _SHORT.maxother, _SHORT.maxlong = EXCERPT, EXCERPT, EXCERPT


def clean_text(text: str) -> str:
    """`text` with lone surrogates and control characters (terminal escapes included) replaced,
    so that printing it can neither crash nor drive the terminal."""
    if text.isprintable():  # the common case, checked in C
        return text
    return "".join(
        REPLACEMENT if ch not in _KEPT and unicodedata.category(ch) in ("Cc", "Cs") else ch
        for ch in text
    )


def excerpt(value: object, limit: int = EXCERPT) -> str:
    """A short, safe rendering of a user's value for a message: a bounded `repr` (never of a
    whole container: that would cost as much as the container), cleaned and clipped."""
    try:
        shown = _SHORT.repr(value)
    except ValueError:  # an int too long to convert to text (str(10**5000))
        shown = "a number too long to show"
    return clip(shown, limit)


def clip(text: str, limit: int) -> str:
    """`text` cleaned and no longer than `limit` characters."""
    text = clean_text(text).replace("\n", " ")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def clip_path(path: str, limit: int) -> str:
    """A file's path cleaned and no longer than `limit` characters, cut at its start: the
    file's own name, at its end, is what the reader looks for."""
    text = clean_text(path).replace("\n", " ")
    return text if len(text) <= limit else "…" + text[-(limit - 1) :]


#: How long a refusal may be: one short line (the contract asks under 400 characters).
MESSAGE_LIMIT = 300
FIELD_LIMIT = 60


def short_refusals(fn: Callable[P, R]) -> Callable[P, R]:
    """Every `InputError` out of `fn` (the scenario's own, and the engine's refusals met while
    reading: a bad card code, an unknown rule option) made one clean `ScenarioError` line of
    at most `MESSAGE_LIMIT`."""

    @functools.wraps(fn)
    def guarded(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return fn(*args, **kwargs)
        except InputError as e:
            # a field is a key path; a colon in a key the file gave would break the line's form
            field = clip(str(e.field), FIELD_LIMIT).replace(":", "\u2236") or "file"
            raise ScenarioError(field, clip(str(e.problem), MESSAGE_LIMIT - len(field))) from None

    return guarded
