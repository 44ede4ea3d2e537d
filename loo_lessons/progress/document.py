"""A record as its file holds it: `loo-progress/1`, the answers and each rule's scheduler
state beside them (derived from the answers, for readers that do not replay them: a teacher's
tools, a spreadsheet). Reading is `record.loads`, which derives the state again."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from loo_lessons.progress.mastery import states
from loo_lessons.progress.record import FORMAT, Record


def to_json(record: Record, now: datetime | None = None) -> dict[str, Any]:
    """The `loo-progress/1` mapping: the format, the answers, and each rule's scheduler state
    (`now`, when given, adds how sure she is of each rule then)."""
    return {
        "format": FORMAT,
        "answers": [a.to_json() for a in record.answers],
        "rules": {r: s.to_json(now) for r, s in states(record).items()},
    }


def dumps(record: Record, now: datetime | None = None) -> str:
    """The record as the file holds it: JSON, one answer a line (a file a person can read and
    a version control diff can show)."""
    body = to_json(record, now)
    lines = ",\n    ".join(json.dumps(a, ensure_ascii=False) for a in body["answers"])
    rules = json.dumps(body["rules"], ensure_ascii=False, sort_keys=True)
    answers = f"[\n    {lines}\n  ]" if lines else "[]"
    return f'{{\n  "format": "{FORMAT}",\n  "answers": {answers},\n  "rules": {rules}\n}}\n'


__all__ = ["dumps", "to_json"]
