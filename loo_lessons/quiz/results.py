"""Quiz results: one row per answer, in plain Python, saved as CSV.

    >>> log = ResultLog()
    >>> log.record(question, ["QH"], seconds=4.2)
    >>> log.results                      # topic, question_id, rule_ids, answer_given, correct, seconds
    >>> log.to_csv("results.csv")

The same rows as a pandas DataFrame are a view: `views.frames.quiz_results(log.results)`.

Multi-valued cells (`rule_ids`, `answer_given`) are written as keys joined with `;` (no key
ever contains one), so a CSV round trip gives back the same table.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from loo_lessons.quiz.model import Question

#: The columns, in order.
COLUMNS: tuple[str, ...] = (
    "topic",
    "question_id",
    "rule_ids",
    "answer_given",
    "correct",
    "seconds",
)
SEP = ";"


@dataclass(frozen=True, slots=True)
class Result:
    """One answer to one question."""

    topic: str
    question_id: str
    rule_ids: tuple[str, ...]
    answer_given: tuple[str, ...]
    correct: bool
    seconds: float

    def row(self) -> dict[str, Any]:
        return {
            "topic": self.topic,
            "question_id": self.question_id,
            "rule_ids": SEP.join(self.rule_ids),
            "answer_given": SEP.join(self.answer_given),
            "correct": self.correct,
            "seconds": float(self.seconds),
        }


def _as_question(q: Question | Mapping[str, Any]) -> Question:
    return q if isinstance(q, Question) else Question.from_json(q)


def result_for(
    question: Question | Mapping[str, Any], given: Sequence[str] | str, seconds: float
) -> Result:
    """Grade an answer as the browser does and record it."""
    q = _as_question(question)
    keys = (given,) if isinstance(given, str) else tuple(given)
    for k in keys:
        if SEP in k:
            raise ValueError(f"an answer key may not contain {SEP!r}: {k!r}")
    if seconds < 0:
        raise ValueError("seconds must not be negative")
    return Result(q.topic, q.id, tuple(q.rule_ids), keys, q.grade(keys), float(seconds))


@dataclass
class ResultLog:
    """Collects the answers of a quiz session."""

    results: list[Result] = field(default_factory=list)

    def record(
        self, question: Question | Mapping[str, Any], given: Sequence[str] | str, seconds: float
    ) -> Result:
        r = result_for(question, given, seconds)
        self.results.append(r)
        return r

    def to_csv(self, path: str | Path) -> Path:
        return save_csv(self.results, path)


def save_csv(results: Iterable[Result], path: str | Path) -> Path:
    """Write results as CSV (a header of `COLUMNS`, one row per answer); return the path."""
    p = Path(path)
    with p.open("w", encoding="utf-8", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(COLUMNS), lineterminator="\n")
        w.writeheader()
        w.writerows(r.row() for r in results)
    return p


def _flag(text: str, where: str) -> bool:
    if text not in ("True", "False"):
        raise ValueError(f"{where}: correct: True or False, not {text!r}")
    return text == "True"


def _keys(text: str) -> tuple[str, ...]:
    return tuple(text.split(SEP)) if text else ()


def load_csv(path: str | Path) -> list[Result]:
    """Read a results CSV (`save_csv`) back into its results, in order."""
    with Path(path).open(encoding="utf-8", newline="") as f:
        reader = csv.DictReader(f)
        missing = [c for c in COLUMNS if c not in (reader.fieldnames or ())]
        if missing:
            raise ValueError(f"{path}: not a quiz results file (missing columns: {missing})")
        out = []
        for line, row in enumerate(reader, start=2):
            where = f"{path}:{line}"
            try:
                seconds = float(row["seconds"])
            except ValueError:
                raise ValueError(f"{where}: seconds: not a number: {row['seconds']!r}") from None
            out.append(
                Result(
                    row["topic"],
                    row["question_id"],
                    _keys(row["rule_ids"]),
                    _keys(row["answer_given"]),
                    _flag(row["correct"], where),
                    seconds,
                )
            )
    return out
