"""The class's answers in SQLite, and what a teacher reads from them.

Every posted answer is kept (one row each, never replaced): a pupil's later attempt at a
question does not erase the first. The teacher's table marks each pupil × question by the
pupil's *first* answer to it (what they knew before seeing the verdict) and counts the
attempts; the per-rule mastery is the share of first answers that were right, per rule id,
weakest first, with the rule's words and its book. The CSV has one row per answer, every
text cell made safe for a spreadsheet (`safe_cell`).
"""

from __future__ import annotations

import csv
import io
import sqlite3
import time
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from loo_lessons.classroom.answers import Graded, canonical, questions
from loo_lessons.engine.sources import RULES
from loo_lessons.explain.words import quote_text

CSV_COLUMNS: tuple[str, ...] = (
    "class_code",
    "pupil",
    "question",
    "question_id",
    "rule_ids",
    "answer_given",
    "correct",
    "seconds",
    "attempt",
)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS answers (
    id INTEGER PRIMARY KEY,
    class_code TEXT NOT NULL,
    pupil TEXT NOT NULL,
    number INTEGER NOT NULL,
    question_id TEXT NOT NULL,
    rule_ids TEXT NOT NULL,
    answer TEXT NOT NULL,
    correct INTEGER NOT NULL,
    seconds REAL,
    attempt INTEGER NOT NULL,
    posted REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS answers_by_code ON answers (class_code, pupil, number, id);
"""


def safe_cell(text: str) -> str:
    """Text a spreadsheet shows as text: control characters (escape codes, newlines) made
    visible as U+FFFD, and a cell that would start a formula (= + - @, tab, CR) quoted."""
    clean = "".join("\ufffd" if unicodedata.category(ch) == "Cc" else ch for ch in text)
    return "'" + clean if clean[:1] in ("=", "+", "-", "@", "\t", "\r") else clean


@dataclass(frozen=True, slots=True)
class Cell:
    """A pupil's answers to one question: the first one's mark, how many in all."""

    first_correct: bool
    attempts: int


@dataclass(frozen=True, slots=True)
class Mastery:
    """One rule id across the class: first answers right out of first answers."""

    rule_id: str
    right: int
    answered: int

    @property
    def words(self) -> str:
        rule = RULES[self.rule_id]
        return quote_text(rule.quotes[0]) if rule.quotes else rule.summary

    @property
    def book(self) -> str:
        rule = RULES[self.rule_id]
        return rule.quotes[0].book if rule.quotes else ""


@dataclass(frozen=True, slots=True)
class ClassView:
    """What the dashboard shows for one class code."""

    class_code: str
    question_ids: tuple[str, ...]
    pupils: tuple[str, ...]
    cells: dict[tuple[str, int], Cell]  # (pupil, question number) -> cell
    mastery: tuple[Mastery, ...]

    def right(self, pupil: str) -> int:
        return sum(1 for (p, _), c in self.cells.items() if p == pupil and c.first_correct)

    def answered(self, pupil: str) -> int:
        return sum(1 for (p, _) in self.cells if p == pupil)


class Store:
    """The answers database (one file; `:memory:` for a test)."""

    def __init__(self, path: Path | str) -> None:
        self.db = sqlite3.connect(str(path))
        self.db.executescript(_SCHEMA)

    def close(self) -> None:
        self.db.close()

    def add(self, graded: Graded, pupil: str) -> None:
        a = graded.answer
        with self.db:
            self.db.execute(
                "INSERT INTO answers (class_code, pupil, number, question_id, rule_ids, answer,"
                " correct, seconds, attempt, posted) VALUES (?,?,?,?,?,?,?,?,?,?)",
                (
                    graded.class_code,
                    pupil,
                    graded.number,
                    a.question_id,
                    ";".join(graded.rule_ids),
                    ";".join(a.answer),
                    int(graded.correct),
                    a.seconds,
                    a.attempt,
                    time.time(),
                ),
            )

    def codes(self) -> list[str]:
        """The class codes answered so far, most recent first."""
        rows = self.db.execute(
            "SELECT class_code, MAX(id) AS last FROM answers GROUP BY class_code ORDER BY last DESC"
        )
        return [r[0] for r in rows]

    def _rows(self, code: str, pupil: str | None) -> list[tuple[str, int, str, int]]:
        sql = "SELECT pupil, number, rule_ids, correct FROM answers WHERE class_code = ?"
        args: tuple[str, ...] = (code,)
        if pupil is not None:
            sql += " AND pupil = ?"
            args += (pupil,)
        return list(self.db.execute(sql + " ORDER BY id", args))

    def view(self, code: str, pupil: str | None = None) -> ClassView:
        """The class's table for `code` (only `pupil`'s own row when given)."""
        code = canonical(code)
        dealt = questions(code)
        firsts: dict[tuple[str, int], tuple[bool, int]] = {}
        rules_of: dict[int, tuple[str, ...]] = {}
        for who, number, rule_ids, correct in self._rows(code, pupil):
            key = (who, number)
            first, count = firsts.get(key, (bool(correct), 0))
            firsts[key] = (first, count + 1)
            rules_of[number] = tuple(rule_ids.split(";"))
        cells = {k: Cell(first, count) for k, (first, count) in firsts.items()}
        tally: dict[str, list[int]] = {}
        for (_, number), cell in cells.items():
            for rule_id in rules_of[number]:
                right_answered = tally.setdefault(rule_id, [0, 0])
                right_answered[0] += int(cell.first_correct)
                right_answered[1] += 1
        mastery = sorted(
            (Mastery(r, ra[0], ra[1]) for r, ra in tally.items()),
            key=lambda m: (m.right / m.answered, -m.answered, m.rule_id),
        )
        return ClassView(
            code,
            tuple(q.id for q in dealt),
            tuple(sorted({p for p, _ in cells})),
            cells,
            tuple(mastery),
        )

    def csv(self, code: str, pupil: str | None = None) -> str:
        """Every answer to `code` (only `pupil`'s when given), one row each, safe cells."""
        code = canonical(code)
        sql = (
            "SELECT class_code, pupil, number, question_id, rule_ids, answer, correct, seconds,"
            " attempt FROM answers WHERE class_code = ?"
        )
        args: Sequence[str] = (code,)
        if pupil is not None:
            sql += " AND pupil = ?"
            args = (code, pupil)
        buf = io.StringIO()
        out = csv.writer(buf, lineterminator="\n")
        out.writerow(CSV_COLUMNS)
        for row in self.db.execute(sql + " ORDER BY pupil, number, id", args):
            code_, who, number, qid, rule_ids, answer, correct, seconds, attempt = row
            out.writerow(
                [
                    safe_cell(code_),
                    safe_cell(who),
                    number,
                    safe_cell(qid),
                    safe_cell(rule_ids),
                    safe_cell(answer),
                    "yes" if correct else "no",
                    "" if seconds is None else f"{seconds:g}",
                    attempt,
                ]
            )
        return buf.getvalue()
