"""What the book's pages ask of a learner's record, in the page's engine: the progress page's
"Load a progress file" (a file merged into what the browser keeps) and its table of rules
(how sure she is of each, what is due, her mistakes). The browser keeps the record as the
`loo-progress/1` mapping (and, from before it, the per-lesson answers, upgraded here).

Every answer is `{"ok": true, ...}` or `{"ok": false, "error": one line}`: a damaged file is
refused whole, and what the browser keeps is left as it was."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from loo_lessons.engine.errors import InputError
from loo_lessons.progress import mastery
from loo_lessons.progress.document import to_json
from loo_lessons.progress.record import Record, from_json, loads, upgrade_book


def kept(record: object, lessons: object) -> Record:
    """What the browser keeps, as one record: its loo-progress/1 mapping (or None) and its
    older per-lesson answers (or None), upgraded and merged in."""
    out = Record() if record is None else from_json(record)
    if lessons is not None:
        if not isinstance(lessons, Mapping):
            raise InputError("lessons", "expected an object {lesson: {answers}}")
        out = out.merge(upgrade_book(lessons, known=out))
    return out


def merge_file(record: object, lessons: object, text: object, now: datetime) -> dict[str, Any]:
    """A progress file loaded in the page (`text`), merged into what the browser keeps: the
    merged record, and how many answers it added; or the one line that refuses the file."""
    if not isinstance(text, str):
        return {"ok": False, "error": "file: expected the text of a progress file"}
    try:
        before = kept(record, lessons)
    except InputError as e:
        return {"ok": False, "error": f"what this browser keeps could not be read: {e}"}
    try:
        loaded = loads(text)
    except InputError as e:
        return {"ok": False, "error": str(e)}
    merged = before.merge(loaded)
    return {
        "ok": True,
        "record": to_json(merged, now),
        "answers": len(merged.answers),
        "added": len(merged.answers) - len(before.answers),
    }


def summary(record: object, lessons: object, now: datetime) -> dict[str, Any]:
    """The progress page's table by rule (`mastery.summary`) and the rules due now, from what
    the browser keeps; and the record itself, upgraded, for the page to keep from now on."""
    try:
        rec = kept(record, lessons)
    except InputError as e:
        return {"ok": False, "error": f"your progress could not be read: {e}"}
    return {
        "ok": True,
        "rows": mastery.summary(rec, now),
        "due": mastery.due(rec, now),
        "answers": len(rec.answers),
        "record": to_json(rec, now),
    }


__all__ = ["kept", "merge_file", "summary"]
