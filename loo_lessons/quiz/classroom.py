"""A class's results: what pupils' pages export, graded again by the engine, in one table.

A pupil's page (``js/quiz.js``) exports the pupil's answers (never marks that count) two
ways, both read here: a CSV file (`results.EXPORT_COLUMNS`, one row per question and attempt)
and a short result code (``loo2.…``, see `results.Submission.code`) pasted into a message; a
file of such codes (one a line, other lines ignored) is read like a CSV file.

`merge` reads any mix of both (and folders of them), regenerates each class code's questions
with the engine, grades every answer again, and refuses, one `Refusal` line each naming the
file, the pupil and the problem, what the code cannot have produced: a mark the engine does
not give, a malformed or foreign class code, a question the code does not deal, an answer not
among the choices, more answers than questions, a question answered twice, a result without
a name, and two different results under one name (never merged silently: one of them may be
someone else's). What is left is tabled per pupil and attempt, per question and per rule
(which rules the class missed most, with the rule's words and book).

An offline result proves what was answered, never who sent it: the class hub's service
records each answer under the pupil's hub login. Reading is bounded (`MAX_FILES` files, each
a regular file of at most `scenario.read.MAX_BYTES`, at most `MAX_ROWS` rows); every text
shown is made safe for a terminal and, in the CSV, for a spreadsheet (no formula cells).
Nothing read is ever evaluated.
"""

from __future__ import annotations

import csv
import io
import stat
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from loo_lessons.engine.sources import RULES
from loo_lessons.quiz.class_code import parse as parse_code
from loo_lessons.quiz.model import Question
from loo_lessons.quiz.results import (
    CODE_PREFIX,
    EXPORT_COLUMNS,
    MAX_ATTEMPTS,
    MAX_QUESTIONS,
    SEP,
    AnswerRecord,
    Attempt,
    Submission,
    check_attempt,
    check_name,
    check_seconds,
    from_code,
    split_answer,
)
from loo_lessons.scenario.errors import ScenarioError
from loo_lessons.scenario.read import read_file
from loo_lessons.scenario.text import clip, clip_path

MAX_FILES = 1000
MAX_ROWS = 20_000
#: All files together (a class's exports are a few kilobytes each).
MAX_TOTAL_BYTES = 50_000_000
#: Distinct class codes in one run (each code's questions are regenerated once).
MAX_CODES = 20
#: The per-pupil table's columns before q1, q2, …
TABLE_HEAD: tuple[str, ...] = (
    "name",
    "class_code",
    "attempt",
    "right",
    "answered",
    "questions",
    "seconds",
)
QUESTION_HEAD: tuple[str, ...] = (
    "class_code",
    "question",
    "question_id",
    "topic",
    "rule_ids",
    "right",
    "answered",
)
RULE_HEAD: tuple[str, ...] = ("rule_id", "missed", "answered", "rule", "book")
#: How much of a name a terminal table shows.
NAME_SHOWN = 40


@dataclass(frozen=True, slots=True)
class Refusal:
    """A result (or a file) `quiz results` will not count: where, why, and whose (none for a
    file or a line refused before a pupil's name could be read)."""

    where: str
    problem: str
    pupil: str = ""

    def line(self) -> str:
        """The refusal as the one line `quiz results` prints: where, whose (the name cut short) and
        why, every part made safe for a terminal."""
        who = f"{safe(self.pupil, NAME_SHOWN)}: " if self.pupil else ""
        return f"{safe_where(self.where)}: {who}{safe(self.problem, 200)}"


@dataclass(frozen=True, slots=True)
class Found:
    """One submission as read, where it was read, and the marks the file claimed
    ((attempt, question) → right, wrong or blank; none for a result code)."""

    submission: Submission
    where: str
    claimed: Mapping[tuple[int, int], bool | None] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class PupilAttempt:
    """One attempt, graded by the engine: per question right, wrong or not answered."""

    number: int
    marks: tuple[bool | None, ...]
    seconds: tuple[float | None, ...]

    @property
    def right(self) -> int:
        """How many questions this attempt answered right."""
        return sum(1 for m in self.marks if m is True)

    @property
    def answered(self) -> int:
        """How many questions this attempt answered at all, right or wrong."""
        return sum(1 for m in self.marks if m is not None)


@dataclass(frozen=True, slots=True)
class PupilResult:
    """A pupil's graded results for one class code, every attempt kept."""

    name: str
    class_code: str
    attempts: tuple[PupilAttempt, ...]
    where: str = ""

    @property
    def first(self) -> PupilAttempt:
        """The pupil's first attempt, the one a class's first-try figures count."""
        return self.attempts[0]


@dataclass(frozen=True, slots=True)
class Classroom:
    """The pupils whose results hold, and every refusal."""

    pupils: tuple[PupilResult, ...]
    refusals: tuple[Refusal, ...]


def safe(text: object, limit: int = 200) -> str:
    """Text fit for one terminal line or one cell: no control characters (escape codes), no
    line breaks, at most `limit` characters."""
    return clip(str(text), limit).replace("\t", " ")


def safe_where(where: object, limit: int = 80) -> str:
    """A file's path (or "file, line 3") for one line, cut at its start when long: the file's
    own name, at the end, is what the teacher looks for."""
    return clip_path(str(where), limit).replace("\t", " ")


def cell(value: object) -> object:
    """A value fit for a spreadsheet cell: text starting = + - @ (or a tab or CR) is
    neutralised with a leading quote, so it is never a formula."""
    if isinstance(value, str):
        v = safe(value, 400)
        return "'" + v if v[:1] in ("=", "+", "-", "@", "\t", "\r") else v
    return value


@cache
def questions_of(code: str) -> tuple[Question, ...]:
    """The questions a class code deals (regenerated by the engine; cached per code)."""
    from loo_lessons.quiz import for_code

    return tuple(for_code(code))


# --- reading ---------------------------------------------------------------------------------------


def _int(text: str | None, name: str, where: str, low: int, high: int) -> int:
    try:
        n = int((text or "").strip())
    except ValueError:
        raise ValueError(f"{where}: {name}: not a whole number") from None
    if not low <= n <= high:
        raise ValueError(f"{where}: {name}: must be {low} to {high}")
    return n


def _mark(text: str | None, where: str) -> bool | None:
    word = (text or "").strip().lower()
    if word not in ("yes", "no", "true", "false", "1", "0", ""):
        raise ValueError(f"{where}: correct: {safe(word, 20)!r} is not yes, no or blank")
    return None if word == "" else word in ("yes", "true", "1")


def _from_csv(text: str, where: str) -> list[Found | Refusal]:
    reader = csv.DictReader(io.StringIO(text))
    fields = reader.fieldnames or []
    missing = [c for c in EXPORT_COLUMNS[:8] if c not in fields]
    if missing:
        old = "rule_ids" in fields and "attempt" not in fields
        raise ValueError(
            f"{where}: "
            + (
                "an old results file holds marks, not answers: it cannot be checked"
                if old
                else f"not a quiz results file (missing columns: {', '.join(missing)})"
            )
        )
    groups: dict[tuple[str, str], dict[str, Any]] = {}
    bad: dict[tuple[str, str], Refusal] = {}
    for n, row in enumerate(reader, start=2):
        if n > MAX_ROWS + 1:
            raise ValueError(f"{where}: more than {MAX_ROWS:,} rows")
        at = f"{where}: line {n}"
        if None in row:
            raise ValueError(f"{at}: more cells than columns")
        name = check_name(row["name"] or "", at)
        key = (name, (row["class_code"] or "").strip())
        if key in bad:
            continue
        g = groups.setdefault(key, {"ids": {}, "answers": {}, "lines": {}, "claimed": {}})
        try:
            attempt = check_attempt(_int(row["attempt"], "attempt", at, 1, MAX_ATTEMPTS), at)
            q = _int(row["question"], "question", at, 1, MAX_QUESTIONS)
            if (attempt, q) in g["lines"]:
                raise ValueError(
                    f"question {q} of attempt {attempt} given twice "
                    f"(lines {g['lines'][(attempt, q)]} and {n})"
                )
            g["lines"][(attempt, q)] = n
            qid = (row["question_id"] or "").strip()
            if g["ids"].setdefault(q, qid) != qid:
                raise ValueError(f"line {n}: question {q} has two ids")
            given = row["answer_given"] or ""
            keys = split_answer(given, at) if given.strip() else None
            g["answers"][(attempt, q)] = (keys, check_seconds(row["seconds"], at))
            g["claimed"][(attempt, q)] = _mark(row["correct"], at)
        except ValueError as e:
            text = str(e)
            bad[key] = Refusal(at, text.removeprefix(f"{at}: "), pupil=name)
            del groups[key]
    out: list[Found | Refusal] = list(bad.values())
    for (name, code), g in groups.items():
        size = max(g["ids"], default=0)
        numbers = sorted({a for a, _ in g["answers"]})
        attempts = []
        for a in numbers:
            pairs = [g["answers"].get((a, q), (None, None)) for q in range(1, size + 1)]
            attempts.append(Attempt(a, tuple(p[0] for p in pairs), tuple(p[1] for p in pairs)))
        ids = tuple(g["ids"].get(q, "") for q in range(1, size + 1))
        out.append(Found(Submission(name, code, ids, tuple(attempts)), where, g["claimed"]))
    return out


def _file_text(path: str | Path, field: str = "") -> tuple[str, str]:
    """The short name refusals cite and the text of an exported file or a class list, read by
    the guarded reader (a byte-order mark dropped); ValueError (one line) naming the file, after
    `field` when given."""
    p = Path(path)
    try:
        text = read_file(p).removeprefix("\ufeff")
    except ScenarioError as e:
        raise ValueError(f"{field}{safe(str(p), 80)}: {e.problem}") from None
    return safe(p.name, 60), text


def read(path: str | Path) -> list[Found | Refusal]:
    """Every submission in one exported file (a results CSV or a file of result codes), or
    the refusal of each one that cannot be read; ValueError (one line) for the file itself."""
    where, text = _file_text(path)
    first = text.lstrip().split("\n", 1)[0]
    if "class_code" not in first:
        lines = [
            (i, ln)
            for i, ln in enumerate(text.splitlines(), 1)
            if ln.strip().startswith((CODE_PREFIX, "loo1."))
        ]
        if not lines:
            raise ValueError(
                f"{where}: neither a quiz results CSV nor result codes ({CODE_PREFIX}…)"
            )
        if len(lines) > MAX_ROWS:
            raise ValueError(f"{where}: more than {MAX_ROWS:,} result codes")
        out: list[Found | Refusal] = []
        for i, ln in lines:
            at = f"{where}: line {i}"
            try:
                out.append(Found(from_code(ln, at), at))
            except ValueError as e:
                out.append(Refusal(at, str(e).removeprefix(f"{at}: ")))
        return out
    try:
        return _from_csv(text, where)
    except csv.Error as e:
        raise ValueError(f"{where}: not a CSV file ({safe(str(e), 60)})") from None


def files_in(paths: Iterable[str | Path]) -> list[Path]:
    """The files named, a folder standing for its .csv and .txt files (sorted by name); at
    most `MAX_FILES` (ValueError beyond). Whether each is a regular file is checked when it
    is read."""
    out: list[Path] = []
    for x in paths:
        p = Path(x)
        try:
            is_dir = stat.S_ISDIR(p.stat().st_mode)
        except (OSError, ValueError):
            is_dir = False
        if is_dir:
            entries = []
            for f in p.iterdir():
                if f.suffix.lower() in (".csv", ".txt"):
                    entries.append(f)
                if len(entries) > MAX_FILES:
                    break
            out.extend(sorted(entries))
        else:
            out.append(p)
        if len(out) > MAX_FILES:
            raise ValueError(f"results: more than {MAX_FILES} files")
    return out


# --- grading ---------------------------------------------------------------------------------------


def grade(found: Found, codes: Sequence[str] | None = None) -> PupilResult | Refusal:
    """A submission graded by the engine, or why the class code cannot have produced it."""
    s = found.submission

    def no(problem: str) -> Refusal:
        return Refusal(found.where, problem, pupil=s.pupil)

    if not s.pupil:
        return no("a result without a name: ask the pupil to write their name and export again")
    try:
        code = str(parse_code(s.class_code))
    except ValueError:
        return no(f"{safe(s.class_code, 40)!r} is not a class code (malformed)")
    if codes is not None and code not in codes:
        return no(f"class code {code} is not this class's ({', '.join(codes)})")
    qs = questions_of(code)
    if len(s.question_ids) > len(qs):
        return no(f"more answers than questions: {len(s.question_ids)} for {code}'s {len(qs)}")
    for i, qid in enumerate(s.question_ids):
        if qid and qid != qs[i].id:
            return no(f"question {i + 1}: {safe(qid, 40)!r} is not {code}'s question ({qs[i].id})")
    numbers = [a.number for a in s.attempts]
    if numbers != list(range(1, len(numbers) + 1)):
        return no(f"attempts numbered {numbers[:6]}: a page numbers them 1, 2, 3, …")
    graded = []
    for a in s.attempts:
        if len(a.answers) != len(s.question_ids) or len(a.seconds) != len(a.answers):
            return no(f"attempt {a.number}: one answer and one time per question")
        marks: list[bool | None] = []
        for i, keys in enumerate(a.answers):
            q = qs[i]
            at = f"attempt {a.number}, question {i + 1}"
            if keys is None:
                marks.append(None)
                if found.claimed.get((a.number, i + 1)) is not None:
                    return no(f"{at}: marked, but no answer was given (wrong marks)")
                continue
            choices = {c.key for c in q.choices}
            odd = [k for k in keys if k not in choices]
            if odd:
                return no(f"{at}: {safe(odd[0], 20)!r} is not one of its choices")
            if len(set(keys)) != len(keys):
                return no(f"{at}: a choice given twice")
            if not q.multi and len(keys) > 1:
                return no(f"{at}: one answer, not {len(keys)}")
            mark = q.grade(keys)
            claim = found.claimed.get((a.number, i + 1), mark)
            if claim is not None and claim != mark:
                said = "right" if claim else "wrong"
                return no(
                    f"{at}: marked {said}, but {SEP.join(keys)} is {'right' if mark else 'wrong'} (wrong marks)"
                )
            marks.append(mark)
        pad = len(qs) - len(marks)
        graded.append(
            PupilAttempt(a.number, (*marks, *([None] * pad)), (*a.seconds, *([None] * pad)))
        )
    return PupilResult(s.pupil, code, tuple(graded), found.where)


def _extends(big: PupilResult, small: PupilResult) -> bool:
    """`big` holds every answer `small` holds (a later export of the same page)."""
    if len(big.attempts) < len(small.attempts):
        return False
    for b, s in zip(big.attempts, small.attempts, strict=False):
        for i, m in enumerate(s.marks):
            if m is not None and (b.marks[i] != m or b.seconds[i] != s.seconds[i]):
                return False
    return True


def merge(
    paths: Iterable[str | Path],
    codes: Sequence[str] | None = None,
    class_list: Iterable[str] | None = None,
) -> Classroom:
    """Every pupil's graded results in these files and folders, and every refusal. A pupil
    found twice counts once when one export holds the other (a CSV and a pasted code, or an
    export after a later attempt). Two different results under one name are both kept, each
    with the file it came from, and reported: a forged code under a classmate's name cannot
    drop the honest one, and the teacher asks who sent which. With `class_list` (names, as
    `read_class_list` gives them) only its names count; any other is reported."""
    refusals: list[Refusal] = []
    graded: list[PupilResult] = []
    total = 0
    seen: set[str] = set()
    listed = None if class_list is None else {n.casefold() for n in class_list}
    for f in files_in(paths):
        try:
            info = f.stat()
        except (OSError, ValueError):
            info = None
        if info is not None and stat.S_ISREG(info.st_mode):
            total += info.st_size
            if total > MAX_TOTAL_BYTES:
                raise ValueError(f"results: more than {MAX_TOTAL_BYTES // 1_000_000} MB in all")
        try:
            items = read(f)
        except ValueError as e:
            where, _, problem = str(e).partition(": ")
            refusals.append(Refusal(where, problem))
            continue
        for item in items:
            if isinstance(item, Refusal):
                refusals.append(item)
                continue
            try:
                code = str(parse_code(item.submission.class_code))
            except ValueError:
                code = ""
            if codes is not None and code not in codes:
                code = ""  # refused by `grade` without dealing its questions
            if code and code not in seen and len(seen) >= MAX_CODES:
                refusals.append(
                    Refusal(item.where, f"more than {MAX_CODES} class codes", pupil=item.submission.pupil)
                )
                continue
            if code:
                seen.add(code)
            if listed is not None and item.submission.pupil.casefold() not in listed:
                refusals.append(Refusal(item.where, "not on the class list: not counted", pupil=item.submission.pupil))
                continue
            g = grade(item, codes)
            (refusals if isinstance(g, Refusal) else graded).append(g)  # type: ignore[arg-type]
    groups: dict[tuple[str, str], list[PupilResult]] = {}
    for g in graded:
        groups.setdefault((g.name.casefold(), g.class_code), []).append(g)
    pupils = []
    for rs in groups.values():
        best = max(rs, key=lambda r: (len(r.attempts), sum(a.answered for a in r.attempts)))
        if all(_extends(best, r) for r in rs):
            pupils.append(best)
            continue
        places = sorted({r.where for r in rs})
        for r in rs:
            pupils.append(r)
            refusals.append(
                Refusal(
                    r.where,
                    f"{len(rs)} different results for {r.class_code} under this name "
                    f"({', '.join(places)[:120]}): each shown with its file, ask who sent which",
                    pupil=r.name,
                )
            )
    pupils.sort(key=lambda r: (r.class_code, r.name.casefold(), r.name))
    return Classroom(tuple(pupils), tuple(refusals))


def read_class_list(path: str | Path) -> list[str]:
    """The names of a class list: one a line (blank lines and `#` comments skipped), read by
    the guarded reader; ValueError (one line) naming the file and line of a bad name."""
    where, text = _file_text(path, "--class-list: ")
    names = []
    for n, line in enumerate(text.splitlines(), 1):
        name = line.strip()
        if name and not name.startswith("#"):
            names.append(check_name(name, f"--class-list: {where}: line {n}"))
    if not names:
        raise ValueError(f"--class-list: {where}: no names")
    return names


def from_records(records: Iterable[AnswerRecord]) -> list[Submission]:
    """Answer records (the hub's) grouped into one submission per pupil and class code, the
    first answer to a question in an attempt counting (an answer is final once posted: the
    service refuses a second, `classroom.store`); for `grade` and the same tables."""
    by: dict[tuple[str, str], dict[int, dict[str, AnswerRecord]]] = {}
    for r in records:
        by.setdefault((r.pupil, r.class_code), {}).setdefault(r.attempt, {}).setdefault(r.question_id, r)
    out = []
    for (pupil, code), attempts in by.items():
        try:
            ids = tuple(q.id for q in questions_of(str(parse_code(code))))
        except ValueError:
            ids = tuple(sorted({qid for a in attempts.values() for qid in a}))
        tries = []
        for n in sorted(attempts):
            got = attempts[n]
            tries.append(
                Attempt(
                    n,
                    tuple(got[q].answer if q in got else None for q in ids),
                    tuple(got[q].seconds if q in got else None for q in ids),
                )
            )
        out.append(Submission(pupil, code, ids, tuple(tries)))
    return out


# --- tables ----------------------------------------------------------------------------------------


def table(results: Sequence[PupilResult]) -> tuple[list[str], list[dict[str, Any]]]:
    """Per pupil and attempt: its columns and rows (q1, q2, … as 1, 0 or blank)."""
    width = max((len(a.marks) for r in results for a in r.attempts), default=0)
    columns = [*TABLE_HEAD, *(f"q{i + 1}" for i in range(width))]
    rows = []
    for r in results:
        for a in r.attempts:
            row: dict[str, Any] = {
                "name": r.name,
                "class_code": r.class_code,
                "attempt": a.number,
                "right": a.right,
                "answered": a.answered,
                "questions": len(a.marks),
                "seconds": round(sum(s for s in a.seconds if s is not None), 1),
            }
            for i in range(width):
                m = a.marks[i] if i < len(a.marks) else None
                row[f"q{i + 1}"] = "" if m is None else int(m)
            rows.append(row)
    return columns, rows


def question_table(results: Sequence[PupilResult]) -> tuple[list[str], list[dict[str, Any]]]:
    """Per class code and question, over each pupil's first attempt: how many were right."""
    rows: dict[tuple[str, int], dict[str, Any]] = {}
    for r in results:
        qs = questions_of(r.class_code)
        for i, m in enumerate(r.first.marks):
            q = qs[i]
            row = rows.setdefault(
                (r.class_code, i),
                {
                    "class_code": r.class_code,
                    "question": i + 1,
                    "question_id": q.id,
                    "topic": q.topic,
                    "rule_ids": SEP.join(q.rule_ids),
                    "right": 0,
                    "answered": 0,
                },
            )
            if m is not None:
                row["answered"] += 1
                row["right"] += int(m)
    return list(QUESTION_HEAD), [rows[k] for k in sorted(rows)]


def rule_table(results: Sequence[PupilResult]) -> tuple[list[str], list[dict[str, Any]]]:
    """Per rule id cited by a question, over first attempts: how many answers missed it,
    most missed first, with the rule's words and its book."""
    missed: dict[str, int] = {}
    answered: dict[str, int] = {}
    for r in results:
        qs = questions_of(r.class_code)
        for i, m in enumerate(r.first.marks):
            if m is None:
                continue
            for rid in qs[i].rule_ids:
                answered[rid] = answered.get(rid, 0) + 1
                missed[rid] = missed.get(rid, 0) + (not m)
    order = sorted(answered, key=lambda k: (-missed[k], -missed[k] / answered[k], k))
    rows = []
    for rid in order:
        rule = RULES.get(rid)
        rows.append(
            {
                "rule_id": rid,
                "missed": missed[rid],
                "answered": answered[rid],
                "rule": f"\u201c{rule.quote.text}\u201d" if rule else "",
                "book": rule.quote.book if rule else "",
            }
        )
    return list(RULE_HEAD), rows


def _csv(columns: Sequence[str], rows: Iterable[Mapping[str, Any]]) -> str:
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=list(columns), lineterminator="\n")
    w.writeheader()
    for row in rows:
        w.writerow({c: cell(row.get(c, "")) for c in columns})
    return buf.getvalue()


def table_csv(results: Sequence[PupilResult]) -> str:
    """The per-pupil table as CSV, every cell safe for a spreadsheet."""
    return _csv(*table(results))


def _columns_text(
    columns: Sequence[str], rows: Sequence[Mapping[str, Any]], limits: Mapping[str, int]
) -> list[str]:
    cells = [list(columns)] + [
        [safe(r.get(c, ""), limits.get(c, 200)) for c in columns] for r in rows
    ]
    widths = [max(len(row[i]) for row in cells) for i in range(len(columns))]
    return ["  ".join(v.ljust(widths[i]) for i, v in enumerate(row)).rstrip() for row in cells]


#: How many of the rules the class missed most a practice link names (a short session's worth).
PRACTICE_RULES = 3


def practice_link(rows: Sequence[Mapping[str, Any]], book: str = "") -> str | None:
    """The book's practice link for the rules the class missed most (`rule_table`'s rows, most
    missed first): `BOOK/book/practice.html#practice=R24,R32`, `book` the book's address (none:
    the page's address relative to the book's root); None when the class missed nothing."""
    ids = [str(r["rule_id"]) for r in rows if int(r["missed"]) > 0][:PRACTICE_RULES]
    if not ids:
        return None
    page = f"{book.rstrip('/')}/book/practice.html" if book else "book/practice.html"
    return page + "#practice=" + ",".join(ids)


def table_text(results: Sequence[PupilResult], rules_shown: int = 10) -> str:
    """Per pupil, per question and per rule, in columns, for a terminal."""
    out = ["Pupils (one row per attempt; q1, q2, …: 1 right, 0 wrong, blank not answered)"]
    out += _columns_text(*table(results), {"name": NAME_SHOWN})
    out += ["", "Questions (first attempts)"]
    out += _columns_text(*question_table(results), {"question_id": 30})
    cols, rows = rule_table(results)
    out += ["", "Rules the class missed most (first attempts)"]
    out += _columns_text(cols, rows[:rules_shown], {"rule": 70, "book": 80})
    link = practice_link(rows)
    if link:
        out += ["", f"Practice for the class (open in the book): {link}"]
    return "\n".join(out) + "\n"
