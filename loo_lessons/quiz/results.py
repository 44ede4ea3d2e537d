"""Quiz results: a teacher's record of answers in plain Python, and what a pupil's page exports.

    >>> log = ResultLog()
    >>> log.record(question, ["QH"], seconds=4.2)
    >>> log.results                      # topic, question_id, rule_ids, answer_given, correct, seconds
    >>> log.to_csv("results.csv")

The same rows as a pandas DataFrame are a view: `views.frames.quiz_results(log.results)`.

Multi-valued cells (`rule_ids`, `answer_given`) are written as keys joined with `;` (no key
ever contains one), so a CSV round trip gives back the same table.

A pupil's export (`Submission`: a result code ``loo2.…`` or a CSV of `EXPORT_COLUMNS`) and one
answer as the class hub receives it (`AnswerRecord`) hold answers, never marks that count:
the class code, question ids, choice keys, seconds and attempt. `page_submission` makes one
from a quiz's responses (what a quiz controller calls); `quiz.classroom` grades them again.
"""

from __future__ import annotations

import base64
import binascii
import csv
import json
import unicodedata
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
        """The answer as one row of the results CSV (rule ids and the answer joined by `;`)."""
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
        """Grade the answer `given` to `question`, taking `seconds`, keep it and return it."""
        r = result_for(question, given, seconds)
        self.results.append(r)
        return r

    def to_csv(self, path: str | Path) -> Path:
        """Write the session's answers to a CSV file at `path` and return its path."""
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


# --- a pupil's result: answers, not marks ----------------------------------------------------------
#
# What a pupil's page exports (and what the class hub's service receives, one answer at a
# time): the class code, each question's id, the choice KEYS given (never a position: the
# choices' order on screen is seeded), the seconds taken and the attempt ("Start again" begins
# the next; an earlier attempt is kept). No mark is trusted: `quiz.classroom` grades again with
# the engine, from the questions the class code regenerates.

#: The result code's prefix: ``loo2.`` then the base64url of the JSON `Submission.to_json`.
CODE_PREFIX = "loo2."
#: The pupil's CSV: one row per question and attempt. `correct` is the page's own mark, kept
#: for a reader of the file; `quiz results` grades again and refuses a file whose marks differ.
EXPORT_COLUMNS: tuple[str, ...] = (
    "name",
    "class_code",
    "attempt",
    "question",
    "question_id",
    "answer_given",
    "seconds",
    "correct",
    "topic",
    "rule_ids",
)
MAX_NAME = 100
MAX_QUESTIONS = 500
MAX_ATTEMPTS = 50
MAX_SECONDS = 1e6
MAX_KEY = 20


@dataclass(frozen=True, slots=True)
class AnswerRecord:
    """One answer a pupil gave: what the page exports and what the class hub's service stores.

    `answer` holds choice keys ("QH", "stand"); `seconds` is None when the page did not know;
    `attempt` counts from 1."""

    class_code: str
    question_id: str
    answer: tuple[str, ...]
    seconds: float | None
    attempt: int
    pupil: str

    def to_json(self) -> dict[str, Any]:
        """The answer as the JSON the results service stores and the page posts."""
        return {
            "class_code": self.class_code,
            "question_id": self.question_id,
            "answer": list(self.answer),
            "seconds": self.seconds,
            "attempt": self.attempt,
            "pupil": self.pupil,
        }

    @classmethod
    def from_json(cls, data: object, where: str = "record") -> AnswerRecord:
        """A record from its JSON mapping, every field checked (one-line ValueError)."""
        if not isinstance(data, Mapping):
            raise ValueError(f"{where}: an answer record is an object")
        extra = sorted(str(k)[:20] for k in data if k not in _RECORD_FIELDS)
        if extra:
            raise ValueError(f"{where}: unknown fields {', '.join(extra)}")
        code = data.get("class_code")
        qid = data.get("question_id")
        if not isinstance(code, str) or not code or len(code) > 40:
            raise ValueError(f"{where}: class_code: a class code such as lead-10-42")
        if not isinstance(qid, str) or not qid or len(qid) > 80:
            raise ValueError(f"{where}: question_id: text of 1 to 80 characters")
        answer = data.get("answer")
        if not isinstance(answer, list) or len(answer) > 60:
            raise ValueError(f"{where}: answer: a list of choice keys")
        return cls(
            code,
            qid,
            tuple(answer_keys(a, where) for a in answer),
            check_seconds(data.get("seconds"), where),
            check_attempt(data.get("attempt"), where),
            check_name(data.get("pupil", ""), where),
        )


_RECORD_FIELDS = frozenset(AnswerRecord.__dataclass_fields__)


def answer_keys(value: object, where: str) -> str:
    """One choice key as a page sends it: short text without `SEP`."""
    if not isinstance(value, str) or not 0 < len(value) <= MAX_KEY or SEP in value:
        raise ValueError(f"{where}: answer: a choice key is short text")
    return value


def check_name(value: object, where: str) -> str:
    """A pupil's name: text of at most `MAX_NAME` characters, spaces around it dropped."""
    if not isinstance(value, str) or len(value) > MAX_NAME:
        raise ValueError(f"{where}: name: text of at most {MAX_NAME} characters")
    if any(unicodedata.category(ch) in ("Cc", "Cs") for ch in value.replace(" ", "")):
        raise ValueError(
            f"{where}: name: control characters (escape codes, line breaks) are not a name"
        )
    name = " ".join(value.split())
    if name[:1] in ("=", "+", "-", "@"):
        raise ValueError(f"{where}: name: may not start with = + - @ (a spreadsheet formula)")
    return name


def check_attempt(value: object, where: str) -> int:
    """An attempt number: a whole number from 1 to `MAX_ATTEMPTS`; anything else is a `ValueError`
    naming `where` and the field."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_ATTEMPTS:
        raise ValueError(f"{where}: attempt: a whole number from 1 to {MAX_ATTEMPTS}")
    return value


def check_seconds(value: object, where: str) -> float | None:
    """Seconds taken, or None (blank) when the page did not know."""
    if value is None or value == "":
        return None
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise ValueError(f"{where}: seconds: not a number")
    try:
        s = float(value)
    except ValueError:
        raise ValueError(f"{where}: seconds: {str(value)[:20]!r} is not a number") from None
    if not 0 <= s <= MAX_SECONDS:  # NaN fails too
        raise ValueError(f"{where}: seconds: {str(value)[:20]} is out of range")
    return s


@dataclass(frozen=True, slots=True)
class Attempt:
    """One go at a class code's questions: per question the keys given (None: not
    answered) and the seconds taken."""

    number: int
    answers: tuple[tuple[str, ...] | None, ...]
    seconds: tuple[float | None, ...]


@dataclass(frozen=True, slots=True)
class Submission:
    """Everything one export of a pupil's page holds (a result code or a CSV file)."""

    pupil: str
    class_code: str
    question_ids: tuple[str, ...]
    attempts: tuple[Attempt, ...]

    def records(self) -> list[AnswerRecord]:
        """One `AnswerRecord` per answer given, attempt by attempt."""
        return [
            AnswerRecord(self.class_code, qid, keys, secs, a.number, self.pupil)
            for a in self.attempts
            for qid, keys, secs in zip(self.question_ids, a.answers, a.seconds, strict=True)
            if keys is not None
        ]

    def to_json(self) -> dict[str, Any]:
        """The submission in the short keys of a result code (`n` name, `c` class code, `q`
        questions, `t` attempts), so the code a pupil copies stays short."""
        return {
            "n": self.pupil,
            "c": self.class_code,
            "q": list(self.question_ids),
            "t": [
                {
                    "a": a.number,
                    "k": [None if k is None else SEP.join(k) for k in a.answers],
                    "s": list(a.seconds),
                }
                for a in self.attempts
            ],
        }

    def code(self) -> str:
        """The short result code a pupil pastes (what the page shows; `js/quiz.js` makes
        the same text)."""
        raw = json.dumps(self.to_json(), ensure_ascii=False, separators=(",", ":")).encode()
        return CODE_PREFIX + base64.urlsafe_b64encode(raw).decode().rstrip("=")

    def csv_rows(
        self, questions: Sequence[Question | Mapping[str, Any]] | None = None
    ) -> list[dict[str, Any]]:
        """The pupil's CSV rows; with the code's questions, each answer's mark, topic and rules."""
        qs = [_as_question(q) for q in questions] if questions is not None else None
        rows = []
        for a in self.attempts:
            for i, (qid, keys, secs) in enumerate(
                zip(self.question_ids, a.answers, a.seconds, strict=True)
            ):
                q = qs[i] if qs is not None and i < len(qs) else None
                mark = "" if keys is None or q is None else "yes" if q.grade(keys) else "no"
                rows.append(
                    {
                        "name": self.pupil,
                        "class_code": self.class_code,
                        "attempt": a.number,
                        "question": i + 1,
                        "question_id": qid,
                        "answer_given": "" if keys is None else SEP.join(keys),
                        "seconds": "" if secs is None else secs,
                        "correct": mark,
                        "topic": q.topic if q is not None else "",
                        "rule_ids": SEP.join(q.rule_ids) if q is not None else "",
                    }
                )
        return rows


def submission_from_json(body: object, where: str) -> Submission:
    """A `Submission` from `to_json`'s mapping, every field checked (one-line ValueError)."""
    if not isinstance(body, Mapping):
        raise ValueError(f"{where}: the result code is damaged (copy it again)")
    if "r" in body and "t" not in body:
        raise ValueError(
            f"{where}: this result code holds marks, not answers: it cannot be checked"
        )
    name = check_name(body.get("n", ""), where)
    code = body.get("c")
    if not isinstance(code, str) or len(code) > 40:
        raise ValueError(f"{where}: c: the class code is missing")
    ids = body.get("q")
    if not isinstance(ids, list) or not all(isinstance(x, str) and 0 < len(x) <= 80 for x in ids):
        raise ValueError(f"{where}: q: the question ids are missing")
    if len(ids) > MAX_QUESTIONS:
        raise ValueError(f"{where}: q: more than {MAX_QUESTIONS} questions")
    tries = body.get("t")
    if not isinstance(tries, list) or not 1 <= len(tries) <= MAX_ATTEMPTS:
        raise ValueError(f"{where}: t: 1 to {MAX_ATTEMPTS} attempts")
    attempts = []
    for t in tries:
        if not isinstance(t, Mapping):
            raise ValueError(f"{where}: t: an attempt is an object")
        number = check_attempt(t.get("a"), where)
        keys, secs = t.get("k"), t.get("s")
        if not isinstance(keys, list) or not isinstance(secs, list):
            raise ValueError(f"{where}: attempt {number}: answers and seconds are lists")
        if len(keys) != len(secs):
            raise ValueError(f"{where}: attempt {number}: one time per answer")
        answers = tuple(None if k is None else split_answer(k, where) for k in keys)
        attempts.append(Attempt(number, answers, tuple(check_seconds(s, where) for s in secs)))
    return Submission(name, code.strip(), tuple(ids), tuple(attempts))


def split_answer(text: object, where: str) -> tuple[str, ...]:
    """The keys of one answer as written in a cell or a code ("QH;KH")."""
    if not isinstance(text, str) or not text or len(text) > 400:
        raise ValueError(f"{where}: answer: choice keys joined with {SEP!r}")
    return tuple(answer_keys(k, where) for k in text.split(SEP))


def from_code(text: str, where: str = "result code") -> Submission:
    """A pupil's submission from the short result code (``loo2.…``)."""
    t = text.strip()
    if not t.startswith(CODE_PREFIX):
        if t.startswith("loo1."):
            raise ValueError(
                f"{where}: this result code holds marks, not answers: it cannot be checked "
                "(ask the pupil to send it again from the current book)"
            )
        raise ValueError(f"{where}: not a result code (it starts with {CODE_PREFIX!r})")
    payload = t[len(CODE_PREFIX) :]
    if len(payload) > 200_000:
        raise ValueError(f"{where}: the result code is too long")
    try:
        raw = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))
        body = json.loads(raw.decode("utf-8"))
    except (binascii.Error, ValueError, UnicodeDecodeError, RecursionError):
        raise ValueError(f"{where}: the result code is damaged (copy it again)") from None
    return submission_from_json(body, where)


def page_submission(
    questions: Sequence[Question | Mapping[str, Any]],
    attempts: Sequence[tuple[Sequence[Any], Sequence[float | None]]],
    pupil: str,
    class_code: str,
) -> Submission:
    """What a quiz controller exports: per attempt its responses (the quiz state's: None or
    {picked, revealed, ...}) and seconds. A question shown without an answer counts as not
    answered."""
    qs = [_as_question(q) for q in questions]
    out = []
    for n, (responses, seconds) in enumerate(attempts, start=1):
        answers: list[tuple[str, ...] | None] = []
        for i in range(len(qs)):
            r = responses[i] if i < len(responses) else None
            picked = r.get("picked") if isinstance(r, Mapping) else None
            answers.append(tuple(picked) if isinstance(picked, list) and picked else None)
        secs = tuple(
            (seconds[i] if i < len(seconds) else None) if answers[i] is not None else None
            for i in range(len(qs))
        )
        out.append(Attempt(n, tuple(answers), secs))
    return Submission(" ".join(pupil.split()), class_code, tuple(q.id for q in qs), tuple(out))
