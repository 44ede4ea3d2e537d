"""One answer as a pupil's quiz posts it (`quiz.results.AnswerRecord`), checked on arrival.

The record holds what the pupil did, never a mark: the class code, the question's id, the
choice keys given, the seconds and the attempt. Who gave it is not the record's word: the
results service takes the pupil from the hub's login (`service`). `check` refuses, in one
line, an answer the class code cannot have produced, with the same checks as
``loo-lessons quiz results`` (`quiz.classroom.grade`, the engine regenerating the code's
questions), so that the service stores only answers the teacher's table will count.
"""

from __future__ import annotations

from dataclasses import replace

from loo_lessons.quiz.class_code import parse as parse_code
from loo_lessons.quiz.classroom import Found, Refusal, from_records, grade, questions_of
from loo_lessons.quiz.results import AnswerRecord

__all__ = ["AnswerError", "AnswerRecord", "canonical", "check"]


class AnswerError(ValueError):
    """A record that is not one answer of its class code, in one line."""


def canonical(code: str) -> str:
    """The class code as pupils type it; AnswerError for anything that is not one."""
    try:
        return str(parse_code(code))
    except ValueError as e:
        raise AnswerError(str(e)) from None


def check(record: AnswerRecord) -> AnswerRecord:
    """The record with its class code as pupils type it; AnswerError when the code cannot
    have produced it (a question it does not deal, a key that is not a choice, …)."""
    code = canonical(record.class_code)
    if record.question_id not in {q.id for q in questions_of(code)}:
        raise AnswerError(
            f"question_id: class code {code} deals no question {record.question_id[:80]!r}"
        )
    checked = replace(record, class_code=code)
    # graded alone, as the first attempt of a submission of one answer
    (one,) = from_records([replace(checked, attempt=1, pupil=record.pupil or "pupil")])
    verdict = grade(Found(one, "answer"))
    if isinstance(verdict, Refusal):
        raise AnswerError(verdict.problem)
    return checked
