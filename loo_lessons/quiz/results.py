"""Quiz results: one row per answer, collected into a pandas DataFrame and saved as CSV.

pandas is imported only inside the functions that need it, so the quiz generators (and the
rules core) never pull it in.

    >>> log = ResultLog()
    >>> log.record(question, ["QH"], seconds=4.2)
    >>> log.frame()                      # topic, question_id, rule_ids, answer_given, correct, seconds
    >>> log.to_csv("results.csv")

Multi-valued cells (`rule_ids`, `answer_given`) are written as keys joined with `;` (no key
ever contains one), so a CSV round trip gives back the same table.
"""

from __future__ import annotations

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

    def frame(self) -> Any:
        return results_frame(self.results)

    def to_csv(self, path: str | Path) -> Path:
        return save_csv(self.results, path)


def results_frame(results: Iterable[Result]) -> Any:
    """A pandas DataFrame with the columns topic, question_id, rule_ids, answer_given,
    correct, seconds (one row per answer)."""
    import pandas as pd

    return pd.DataFrame([r.row() for r in results], columns=list(COLUMNS)).astype(
        {
            "topic": "object",
            "question_id": "object",
            "rule_ids": "object",
            "answer_given": "object",
            "correct": "bool",
            "seconds": "float64",
        }
    )


def save_csv(results: Iterable[Result] | Any, path: str | Path) -> Path:
    """Write results (Result objects or a frame from `results_frame`) as CSV; return the path."""
    import pandas as pd

    frame = results if isinstance(results, pd.DataFrame) else results_frame(results)
    p = Path(path)
    frame.to_csv(p, index=False)
    return p


def load_csv(path: str | Path) -> Any:
    """Read a results CSV back into the same DataFrame `results_frame` makes."""
    import pandas as pd

    frame = pd.read_csv(
        path,
        dtype={"topic": str, "question_id": str, "rule_ids": str, "answer_given": str},
        keep_default_na=False,
    )
    missing = [c for c in COLUMNS if c not in frame.columns]
    if missing:
        raise ValueError(f"{path}: not a quiz results file (missing columns: {missing})")
    return frame[list(COLUMNS)].astype(
        {
            "topic": "object",
            "question_id": "object",
            "rule_ids": "object",
            "answer_given": "object",
            "correct": "bool",
            "seconds": "float64",
        }
    )


def summary(frame: Any) -> Any:
    """Per topic: answers, share correct, mean seconds (a small DataFrame)."""
    if len(frame) == 0:
        import pandas as pd

        return pd.DataFrame(columns=["answers", "correct", "mean_seconds"])
    g = frame.groupby("topic")
    return g.agg(
        answers=("question_id", "count"),
        correct=("correct", "mean"),
        mean_seconds=("seconds", "mean"),
    )
