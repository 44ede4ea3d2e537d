"""One answer as a pupil's quiz posts it, and its grading by the engine from the class code.

The record holds what the pupil did, never a mark: the class code, the question's id, the
choice keys given, the seconds and the attempt. Who gave it is not the record's word: the
results service takes the pupil from the hub's login (`service`). Whether it was right is
worked out again here from the class code, which deals the same questions everywhere
(`quiz.for_code`); an answer the code cannot have produced is refused in one line.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from loo_lessons.quiz import for_code
from loo_lessons.quiz.class_code import format as format_code
from loo_lessons.quiz.class_code import parse as parse_code
from loo_lessons.quiz.model import Question

#: Bounds of a record's numbers.
MAX_SECONDS = 24 * 3600.0
MAX_ATTEMPT = 1000
MAX_KEYS = 20
MAX_TEXT = 100


class AnswerError(ValueError):
    """A record that is not one answer of its class code, in one line."""


@dataclass(frozen=True, slots=True)
class Answer:
    """One answer to one question of a class code."""

    class_code: str
    question_id: str
    answer: tuple[str, ...]  # choice keys, as the quiz has them
    seconds: float | None
    attempt: int
    pupil: str = ""  # filled in by the service from the hub's login

    def to_json(self) -> dict[str, Any]:
        return {
            "class_code": self.class_code,
            "question_id": self.question_id,
            "answer": list(self.answer),
            "seconds": self.seconds,
            "attempt": self.attempt,
            "pupil": self.pupil,
        }

    @staticmethod
    def from_json(data: object) -> Answer:
        """The record in a posted JSON object; AnswerError naming the field otherwise."""
        if not isinstance(data, Mapping):
            raise AnswerError("answer: expected a JSON object")
        extra = set(data) - {"class_code", "question_id", "answer", "seconds", "attempt", "pupil"}
        if extra:
            raise AnswerError(f"answer: unknown field {sorted(map(str, extra))[0][:MAX_TEXT]!r}")
        code, qid = data.get("class_code"), data.get("question_id")
        keys, seconds = data.get("answer"), data.get("seconds")
        attempt, pupil = data.get("attempt", 1), data.get("pupil", "")
        for field, value in (("class_code", code), ("question_id", qid), ("pupil", pupil)):
            if not isinstance(value, str) or len(value) > MAX_TEXT:
                raise AnswerError(f"{field}: expected text of at most {MAX_TEXT} characters")
        if isinstance(keys, str):
            keys = [keys]
        if (
            not isinstance(keys, list)
            or not 1 <= len(keys) <= MAX_KEYS
            or not all(isinstance(k, str) and 0 < len(k) <= MAX_TEXT for k in keys)
        ):
            raise AnswerError(f"answer: expected 1 to {MAX_KEYS} choice keys")
        if seconds is not None and (
            isinstance(seconds, bool)
            or not isinstance(seconds, int | float)
            or not math.isfinite(seconds)
            or not 0 <= seconds <= MAX_SECONDS
        ):
            raise AnswerError(f"seconds: expected a number from 0 to {MAX_SECONDS:g}, or null")
        if isinstance(attempt, bool) or not isinstance(attempt, int):
            raise AnswerError("attempt: expected a whole number")
        if not 1 <= attempt <= MAX_ATTEMPT:
            raise AnswerError(f"attempt: expected 1 to {MAX_ATTEMPT}")
        return Answer(
            str(code),
            str(qid),
            tuple(keys),
            None if seconds is None else float(seconds),
            attempt,
            str(pupil),
        )


@dataclass(frozen=True, slots=True)
class Graded:
    """An answer checked against its class code: the code as written, the question's place,
    its rule ids and whether the answer was right."""

    answer: Answer
    class_code: str
    number: int  # 1 for the code's first question
    rule_ids: tuple[str, ...]
    correct: bool


@functools.lru_cache(maxsize=32)
def questions(code: str) -> tuple[Question, ...]:
    """The questions a class code deals (cached: a class posts the same code all lesson)."""
    return tuple(for_code(code))


def canonical(code: str) -> str:
    """The class code as pupils type it; AnswerError for anything that is not one."""
    try:
        return format_code(parse_code(code))
    except ValueError as e:
        raise AnswerError(str(e)) from None


def grade(answer: Answer) -> Graded:
    """The answer graded by the engine from the class code; AnswerError when the code cannot
    have produced it (a question it does not deal, a key that is not a choice)."""
    code = canonical(answer.class_code)
    dealt = questions(code)
    for number, q in enumerate(dealt, 1):
        if q.id == answer.question_id:
            keys = {c.key for c in q.choices}
            unknown = [k for k in answer.answer if k not in keys]
            if unknown:
                raise AnswerError(
                    f"answer: {unknown[0][:MAX_TEXT]!r} is not a choice of {q.id} "
                    f"(choices: {', '.join(sorted(keys))})"
                )
            if not q.multi and len(answer.answer) != 1:
                raise AnswerError(f"answer: {q.id} takes one choice")
            return Graded(answer, code, number, q.rule_ids, q.grade(answer.answer))
    raise AnswerError(
        f"question_id: class code {code} deals no question {answer.question_id[:MAX_TEXT]!r}"
    )
