"""The graded answers a widget's state holds: a pick or a pool form checked, a quiz's questions
answered, a task's decisions once its deal is over, each with the rules Python gave it.

The book's page (`book/_static/loo-book.js`) copies the same fields into the browser's record;
in JupyterLab the kernel's widget (`widgets/backends/kernel.py`) puts each new one into the
learner's file (`store.record`). The marks are Python's: the quiz's response, the pick's
answer, the pool's expected settlement, the task's `correct` on each decision asked.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Graded:
    """One graded answer a widget's state holds: the item (`item`: stable within the widget),
    its kind, its rules, right or wrong, and a way back (a question's id, a task's name)."""

    item: str
    kind: str
    rules: tuple[str, ...]
    correct: bool
    back: str
    attempt: str = ""  # a task's: which play of the deal (a new score, new answers)

    @property
    def seen(self) -> tuple[str, str]:
        """What makes it one answer within a widget's life (an item answered again after a
        reset is another answer once it is graded again)."""
        return (self.item, self.attempt)


def _rules(x: object) -> tuple[str, ...]:
    return tuple(dict.fromkeys(r for r in x if isinstance(r, str))) if isinstance(x, list) else ()


def _map(x: object) -> Mapping[str, Any]:
    return x if isinstance(x, Mapping) else {}


def graded(kind: str, state: Mapping[str, Any]) -> list[Graded]:
    """Every graded answer in `state` (a widget's traits: `data`, `questions`, `responses`,
    `picked`, `revealed`, `entries`, `checked`) for a widget of `kind`; none for a widget
    that grades nothing."""
    data = _map(state.get("data"))
    if kind == "quiz":
        qs = state.get("questions") or []
        rs = state.get("responses") or []
        out = []
        for i, q in enumerate(qs if isinstance(qs, list) else []):
            r = _map(rs[i]) if isinstance(rs, list) and i < len(rs) else {}
            q = _map(q)
            qid = str(q.get("id") or i)
            if isinstance(r.get("picked"), list) and r["picked"]:
                out.append(Graded(f"quiz:{qid}", "quiz", _rules(q.get("rule_ids")), bool(r.get("correct")), qid))
            elif r.get("revealed"):
                out.append(Graded(f"quiz:{qid}", "quiz", _rules(q.get("rule_ids")), False, qid))
        return out
    if kind == "pick":
        if not state.get("revealed"):
            return []
        q = _map(data.get("question"))
        picked = state.get("picked") or []
        answer = q.get("answer") or []
        right = bool(picked) and sorted(map(str, picked)) == sorted(map(str, answer))
        # a pick made from a position has the id `pick` alone: its scenario's title tells it apart
        own = q.get("id") if q.get("id") not in (None, "", "pick") else None
        qid = str(own or _map(q.get("scenario")).get("title") or data.get("title") or "pick")[:120]
        return [Graded(f"pick:{qid}", "pick", _rules(q.get("rule_ids")), right, qid)]
    if kind == "pool":
        if not (state.get("checked") or state.get("revealed")):
            return []
        entries, expected = _map(state.get("entries")), _map(data.get("expected"))
        fields = [str(_map(f).get("id")) for f in data.get("fields") or []]
        # a blank box counts as 0, as the form's marks count it (pool_results); the working
        # shown before a Check is not an answer of hers
        right = not state.get("revealed") and all(
            (entries.get(f) if isinstance(entries.get(f), int) else 0) == expected.get(f) for f in fields
        )
        title = str(data.get("title") or "pool")
        return [Graded(f"pool:{title}"[:120], "pool", _rules(data.get("rule_ids")), right, title[:120])]
    task = _map(data.get("task"))
    score = _map(task.get("score"))
    asked: Sequence[Any] = score.get("asked") or []
    if kind == "play" and task.get("id") and asked:
        # one attempt: its decisions are new answers only when the deal's score is new
        attempt = hashlib.sha256(json.dumps(asked, sort_keys=True, default=str).encode()).hexdigest()[:16]
        return [
            Graded(
                f"task:{task['id']}:{_map(a).get('move', n)}",
                "task-decision",
                _rules(_map(a).get("rules")),
                bool(_map(a).get("correct")),
                str(task["id"]),
                attempt,
            )
            for n, a in enumerate(asked)
        ]
    return []


__all__ = ["Graded", "graded"]
