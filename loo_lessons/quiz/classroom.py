"""A class's results: what each pupil's quiz page exports, merged into one table.

A pupil's page (see ``js/quiz.js``) exports the same answers two ways:

- a CSV file, one row per question, with the columns `RESULT_COLUMNS` (name, class_code,
  question, topic, question_id, rule_ids, answer_given, correct = yes/no/blank, seconds);
- a short result code to paste into a message: ``loo1.`` and the base64url of the JSON
  ``{"n": name, "c": class code, "r": "10-1" (1 right, 0 wrong, - not answered),
  "s": [seconds or null, …]}``. A file of such codes (one a line, other lines ignored
  unless they start with ``loo1.``) is read like a CSV file.

`merge` reads any mix of both (and folders of them) into one row per pupil and class code:
name, class_code, right, answered, questions, seconds, then q1, q2, … as 1 (right), 0
(wrong) or blank. Plain Python: `views.frames.classroom` gives the same table as a pandas
DataFrame.
Nothing read is ever evaluated; bad input is a `ValueError` naming the file and line.
"""

from __future__ import annotations

import base64
import binascii
import csv
import io
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from loo_lessons.quiz.class_code import parse as parse_code
from loo_lessons.quiz.results import COLUMNS

#: A pupil's export: who, which code, which question, then a teacher's record's columns.
RESULT_COLUMNS: tuple[str, ...] = ("name", "class_code", "question", *COLUMNS)
CODE_PREFIX = "loo1."
#: The columns of the merged table before q1, q2, …
TABLE_HEAD: tuple[str, ...] = ("name", "class_code", "right", "answered", "questions", "seconds")
MAX_NAME = 100
MAX_QUESTIONS = 500


@dataclass(frozen=True, slots=True)
class PupilResult:
    """One pupil's answers to one class code: per question right (True), wrong (False) or
    not answered (None), and the seconds spent (None when unknown)."""

    name: str
    class_code: str
    marks: tuple[bool | None, ...]
    seconds: tuple[float | None, ...]

    @property
    def right(self) -> int:
        return sum(1 for m in self.marks if m is True)

    @property
    def answered(self) -> int:
        return sum(1 for m in self.marks if m is not None)

    def row(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.name,
            "class_code": self.class_code,
            "right": self.right,
            "answered": self.answered,
            "questions": len(self.marks),
            "seconds": round(sum(s for s in self.seconds if s is not None), 1),
        }
        for i, m in enumerate(self.marks):
            out[f"q{i + 1}"] = "" if m is None else int(m)
        return out

    def code(self) -> str:
        """The short result code of these answers (what the page shows)."""
        body = {
            "n": self.name,
            "c": self.class_code,
            "r": "".join("-" if m is None else "1" if m else "0" for m in self.marks),
            "s": list(self.seconds),
        }
        raw = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()
        return CODE_PREFIX + base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _name(value: object, where: str) -> str:
    if not isinstance(value, str) or len(value) > MAX_NAME:
        raise ValueError(f"{where}: name: text of at most {MAX_NAME} characters")
    return value.strip()


def _class_code(value: object, where: str) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{where}: class_code: not text")
    if not value.strip():
        return ""
    try:
        return str(parse_code(value))
    except ValueError as e:
        raise ValueError(f"{where}: {e}") from None


def _seconds(value: object, where: str) -> float | None:
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        raise ValueError(f"{where}: seconds: not a number")
    try:
        s = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise ValueError(f"{where}: seconds: {str(value)[:20]!r} is not a number") from None
    if not 0 <= s < 1e7:
        raise ValueError(f"{where}: seconds: {s} is out of range")
    return s


def from_code(text: str, where: str = "result code") -> PupilResult:
    """A pupil's answers from the short result code (``loo1.…``)."""
    t = text.strip()
    if not t.startswith(CODE_PREFIX):
        raise ValueError(f"{where}: not a result code (it starts with {CODE_PREFIX!r})")
    payload = t[len(CODE_PREFIX) :]
    try:
        raw = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))
        body = json.loads(raw.decode("utf-8"))
    except (binascii.Error, ValueError, UnicodeDecodeError):
        raise ValueError(f"{where}: the result code is damaged (copy it again)") from None
    if not isinstance(body, dict):
        raise ValueError(f"{where}: the result code is damaged (copy it again)")
    marks_text = body.get("r")
    secs = body.get("s")
    if not isinstance(marks_text, str) or set(marks_text) - set("01-"):
        raise ValueError(f"{where}: r: the marks must be 1, 0 or -")
    if len(marks_text) > MAX_QUESTIONS:
        raise ValueError(f"{where}: r: more than {MAX_QUESTIONS} questions")
    if not isinstance(secs, list) or len(secs) != len(marks_text):
        raise ValueError(f"{where}: s: one time per question")
    marks = tuple(None if c == "-" else c == "1" for c in marks_text)
    return PupilResult(
        _name(body.get("n", ""), where),
        _class_code(body.get("c", ""), where),
        marks,
        tuple(_seconds(s, where) for s in secs),
    )


def _from_csv(text: str, where: str) -> list[PupilResult]:
    reader = csv.DictReader(io.StringIO(text))
    missing = [c for c in RESULT_COLUMNS if c not in (reader.fieldnames or [])]
    if missing:
        raise ValueError(
            f"{where}: not a quiz results file (missing columns: {', '.join(missing)})"
        )
    pupils: dict[tuple[str, str], dict[int, tuple[bool | None, float | None]]] = {}
    for n, row in enumerate(reader, start=2):
        at = f"{where}: line {n}"
        key = (_name(row["name"] or "", at), _class_code(row["class_code"] or "", at))
        try:
            q = int(row["question"] or "")
        except ValueError:
            raise ValueError(f"{at}: question: not a whole number") from None
        if not 1 <= q <= MAX_QUESTIONS:
            raise ValueError(f"{at}: question: must be 1 to {MAX_QUESTIONS}")
        word = (row["correct"] or "").strip().lower()
        if word not in ("yes", "no", "true", "false", "1", "0", ""):
            raise ValueError(f"{at}: correct: {word[:20]!r} is not yes, no or blank")
        mark = None if word == "" else word in ("yes", "true", "1")
        pupils.setdefault(key, {})[q] = (mark, _seconds(row["seconds"], at))
    out = []
    for (name, code), answers in pupils.items():
        size = max(answers)
        marks = tuple(answers.get(i, (None, None))[0] for i in range(1, size + 1))
        secs = tuple(answers.get(i, (None, None))[1] for i in range(1, size + 1))
        out.append(PupilResult(name, code, marks, secs))
    return out


def read(path: str | Path) -> list[PupilResult]:
    """The pupils' answers in one exported file: a results CSV or a file of result codes."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise ValueError(f"{p}: no such file") from None
    except IsADirectoryError:
        raise ValueError(f"{p}: is a folder") from None
    except (UnicodeDecodeError, OSError):
        raise ValueError(f"{p}: not a text file") from None
    first = text.lstrip().split("\n", 1)[0]
    if "class_code" not in first:
        lines = [
            (i, ln)
            for i, ln in enumerate(text.splitlines(), 1)
            if ln.strip().startswith(CODE_PREFIX)
        ]
        if not lines:
            raise ValueError(f"{p}: neither a quiz results CSV nor result codes ({CODE_PREFIX}…)")
        return [from_code(ln, f"{p}: line {i}") for i, ln in lines]
    try:
        return _from_csv(text, str(p))
    except csv.Error as e:
        raise ValueError(f"{p}: not a CSV file ({e})") from None


def files_in(paths: Iterable[str | Path]) -> list[Path]:
    """The files named, a folder standing for its .csv and .txt files (sorted by name)."""
    out: list[Path] = []
    for x in paths:
        p = Path(x)
        if p.is_dir():
            out.extend(sorted(f for f in p.iterdir() if f.suffix.lower() in (".csv", ".txt")))
        else:
            out.append(p)
    return out


def merge(paths: Iterable[str | Path]) -> list[PupilResult]:
    """Every pupil's answers in these files and folders, one per (name, class code): a
    pupil found twice (a CSV and a pasted code) counts once, with the more answers."""
    best: dict[tuple[str, str], PupilResult] = {}
    for f in files_in(paths):
        for r in read(f):
            key = (r.name, r.class_code)
            if key not in best or r.answered > best[key].answered:
                best[key] = r
    return sorted(best.values(), key=lambda r: (r.class_code, r.name.lower(), r.name))


def table(results: Sequence[PupilResult]) -> tuple[list[str], list[dict[str, Any]]]:
    """The merged table: its columns and one row per pupil."""
    width = max((len(r.marks) for r in results), default=0)
    columns = [*TABLE_HEAD, *(f"q{i + 1}" for i in range(width))]
    rows = []
    for r in results:
        row = r.row()
        rows.append({c: row.get(c, "") for c in columns})
    return columns, rows


def table_csv(results: Sequence[PupilResult]) -> str:
    columns, rows = table(results)
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=columns, lineterminator="\n")
    w.writeheader()
    for row in rows:
        # a name is data, never a spreadsheet formula
        name = str(row["name"])
        w.writerow({**row, "name": "'" + name if name[:1] in "=+-@" else name})
    return buf.getvalue()


def table_text(results: Sequence[PupilResult]) -> str:
    """The merged table in columns, for a terminal."""
    columns, rows = table(results)
    cells = [columns] + [[str(r[c]) for c in columns] for r in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(columns))]
    lines = ["  ".join(v.ljust(widths[i]) for i, v in enumerate(row)).rstrip() for row in cells]
    return "\n".join(lines) + "\n"
