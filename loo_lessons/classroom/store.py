"""The class's answers in SQLite, and the teacher's tables made from them.

Every posted answer is kept (one row each, never replaced). The tables are
``loo-lessons quiz results``'s own (`quiz.classroom`): the answers of a class code are
grouped into one submission per pupil (`from_records`), graded again by the engine
(`grade`), and shown per pupil and attempt (`table`, the CSV `table_csv`) and per rule id,
most missed first, with the rule's words and its book (`rule_table`). So the dashboard and
the offline results of the same answers give the same table.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from loo_lessons.classroom.answers import AnswerRecord, Conflict, canonical
from loo_lessons.classroom.database import Database
from loo_lessons.quiz.classroom import Found, PupilResult, Refusal, from_records, grade
from loo_lessons.quiz.results import SEP

_SCHEMA = """
CREATE TABLE IF NOT EXISTS answers (
    id INTEGER PRIMARY KEY,
    class_code TEXT NOT NULL,
    pupil TEXT NOT NULL,
    question_id TEXT NOT NULL,
    answer TEXT NOT NULL,
    seconds REAL,
    attempt INTEGER NOT NULL,
    posted REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS answers_by_code ON answers (class_code, pupil, id);
"""


@dataclass(frozen=True, slots=True)
class ClassResults:
    """One class code's results: the pupils whose answers hold, and any refusal."""

    class_code: str
    pupils: tuple[PupilResult, ...]
    refusals: tuple[Refusal, ...]


class Store(Database):
    """The answers database (one file; `:memory:` for a test)."""

    SCHEMA = _SCHEMA

    def add(self, record: AnswerRecord) -> None:
        """Keep a checked record (`answers.check`), under its pupil, or `Conflict` and keep
        nothing: an answer is final once posted (a second answer to the same question of the
        same attempt is refused), and an attempt is one the pupil has begun or the next
        (1 for a first), so that no post can make the pupil's earlier rows uncountable."""
        with self.db:  # one transaction: the look and the insert together
            self.db.execute("BEGIN IMMEDIATE")
            top, same = self.db.execute(
                "SELECT MAX(attempt), SUM(attempt = ? AND question_id = ?) FROM answers"
                " WHERE class_code = ? AND pupil = ?",
                (record.attempt, record.question_id, record.class_code, record.pupil),
            ).fetchone()
            last = top or 0
            if record.attempt > last + 1:
                raise Conflict(
                    f"attempt {record.attempt}: {record.pupil}'s next attempt at {record.class_code} is {last + 1}"
                )
            if same:
                raise Conflict(
                    f"{record.question_id} is answered already in attempt {record.attempt}: "
                    "an answer is final once posted (press Start again for a new attempt)"
                )
            self.db.execute(
                "INSERT INTO answers (class_code, pupil, question_id, answer, seconds, attempt,"
                " posted) VALUES (?,?,?,?,?,?,?)",
                (
                    record.class_code,
                    record.pupil,
                    record.question_id,
                    SEP.join(record.answer),
                    record.seconds,
                    record.attempt,
                    time.time(),
                ),
            )

    def codes(self) -> list[str]:
        """The class codes answered so far, most recent first."""
        rows = self.db.execute(
            "SELECT class_code, MAX(id) AS last FROM answers GROUP BY class_code ORDER BY last DESC"
        )
        return [r[0] for r in rows]

    def records(self, code: str, pupil: str | None = None) -> list[AnswerRecord]:
        """Every answer to `code` (only `pupil`'s when given), in the order posted."""
        sql = (
            "SELECT class_code, question_id, answer, seconds, attempt, pupil FROM answers"
            " WHERE class_code = ?"
        )
        args: tuple[str, ...] = (canonical(code),)
        if pupil is not None:
            sql += " AND pupil = ?"
            args += (pupil,)
        return [
            AnswerRecord(c, q, tuple(a.split(SEP)), s, n, p)
            for c, q, a, s, n, p in self.db.execute(sql + " ORDER BY id", args)
        ]

    def results(self, code: str, pupil: str | None = None) -> ClassResults:
        """The class's results for `code` (only `pupil`'s when given), graded again."""
        code = canonical(code)
        pupils: list[PupilResult] = []
        refusals: list[Refusal] = []
        for submission in from_records(self.records(code, pupil)):
            graded = grade(Found(submission, "class hub"))
            if isinstance(graded, Refusal):
                refusals.append(graded)
            else:
                pupils.append(graded)
        pupils.sort(key=lambda r: (r.name.casefold(), r.name))
        return ClassResults(code, tuple(pupils), tuple(refusals))
