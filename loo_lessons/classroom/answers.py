"""One answer as a pupil's quiz posts it (`quiz.results.AnswerRecord`), checked on arrival.

The record holds what the pupil did, never a mark: the class code, the question's id, the
choice keys given, the seconds and the attempt. Who gave it is not the record's word: the
results service takes the pupil from the hub's login (`service`). `check` refuses, in one
line, an answer the class code cannot have produced, with the same checks as
``loo-lessons quiz results`` (`quiz.classroom.grade`, the engine regenerating the code's
questions), so that the service stores only answers the teacher's table will count.
"""

from __future__ import annotations

import json
from dataclasses import replace

from loo_lessons.quiz.class_code import parse as parse_code
from loo_lessons.quiz.classroom import Found, Refusal, from_records, grade, questions_of
from loo_lessons.quiz.results import AnswerRecord

__all__ = ["MAX_BODY", "AnswerError", "AnswerRecord", "Conflict", "Forbidden", "canonical", "check", "from_body"]

#: The largest body a post may have.
MAX_BODY = 10_000


class AnswerError(ValueError):
    """A record that is not one answer of its class code, in one line (HTTP 400)."""

    status = 400


class Conflict(AnswerError):
    """An answer the pupil's earlier answers rule out: the question answered already in this
    attempt (an answer is final once posted), or an attempt that is not the pupil's next
    (HTTP 409)."""

    status = 409


class TooBig(AnswerError):
    """A body longer than `MAX_BODY` (HTTP 413)."""

    status = 413


class Forbidden(AnswerError):
    """An answer posted under another pupil's name (HTTP 403)."""

    status = 403


def from_body(body: bytes, pupil: str) -> AnswerRecord:
    """A posted body → the checked record of `pupil` (the hub's login); `AnswerError` (one
    line, with its HTTP status) for anything else: too big, not JSON, nested past what the
    parser can follow, another pupil's, or not an answer of its class code."""
    if len(body) > MAX_BODY:
        raise TooBig(f"an answer is at most {MAX_BODY} bytes")
    try:
        raw = json.loads(body)
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise AnswerError("answer: not JSON") from None
    except RecursionError:  # thousands of nested brackets: refused, never a 500
        raise AnswerError("answer: nested too deeply to be an answer") from None
    try:
        record = AnswerRecord.from_json(raw, "answer")
    except AnswerError:
        raise
    except ValueError as e:
        raise AnswerError(str(e)) from None
    if record.pupil and record.pupil != pupil:
        raise Forbidden(f"{pupil} may post only their own answers")
    return check(replace(record, pupil=pupil))


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
