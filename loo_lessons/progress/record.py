"""`loo-progress/1`: one record of what a learner did, by rule (book/guides/progress-format.md).

Every graded answer is one `Answer`: a stable item id, its kind, the rule ids it tests, right
or wrong, when (ISO UTC), how long it took, and where it was asked (the page, and a way back
to the position). The per-rule scheduler state (`mastery.RuleState`) is derived from the
answers by replaying them in time order, so two records merge exactly: the union of their
answers, keyed by (id, at), nothing lost and nothing doubled, and the state replayed again.

The standard library only: the book's page runs this in Pyodide, JupyterLab and the terminal
on CPython, and the two read one file. A damaged record is refused with one `InputError`
naming the field (`answers[3].at: not an ISO UTC time`), never read in part.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from loo_lessons.engine.errors import InputError
from loo_lessons.engine.sources import RULES

#: The format's name and version, the first key of every record.
FORMAT = "loo-progress/1"
#: The kinds of graded answer (added to, never renamed).
KINDS: tuple[str, ...] = (
    "pick",
    "pool",
    "settle",
    "quiz",
    "practice",
    "task-decision",
    "evening-decision",
)
#: Limits a reader keeps: a record larger or fuller than these is refused, not read in part.
MAX_BYTES = 8_000_000
MAX_ANSWERS = 20_000
MAX_RULES_PER_ANSWER = 12
MAX_TEXT = 200
#: The longest an answer may have taken (a day: a page left open is not a measurement).
MAX_SECONDS = 86_400.0

_ID = re.compile(r"[^\x00-\x1f\x7f]{1,200}")
_RULE = re.compile(r"R\d\d")
_AT = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,6})?(Z|\+00:00)")


def parse_at(text: object, where: str) -> datetime:
    """An ISO UTC time (`2026-12-08T09:30:00.000Z`, as a browser writes it, or `+00:00`)."""
    if not isinstance(text, str) or not _AT.fullmatch(text):
        raise InputError(where, "not an ISO UTC time such as 2026-12-08T09:30:00Z")
    try:
        when = datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(UTC)
    except ValueError:
        raise InputError(where, f"{text[:40]!r} is no date") from None
    # to the millisecond, as the record writes it: a time read back is the time written
    return when.replace(microsecond=when.microsecond // 1000 * 1000)


def format_at(when: datetime) -> str:
    """`when` as the record writes it: UTC, milliseconds and a Z (what JavaScript's
    `toISOString` writes, so the book and Python write one string for one moment)."""
    if when.tzinfo is None:
        raise InputError("at", "a time without a time zone (the clock passed in must be UTC)")
    u = when.astimezone(UTC)
    return u.strftime("%Y-%m-%dT%H:%M:%S.") + f"{u.microsecond // 1000:03d}Z"


@dataclass(frozen=True, slots=True)
class Where:
    """Where an answer was given: the page (a lesson's key such as `notebooks/05-leading`,
    `practice`, `terminal`) and a way back to the position (`back`): a shipped scenario's
    name, a class code and index (`lead-10-42#3`) or a generated question (`quiz:lead:1234`)."""

    page: str
    back: str = ""

    def to_json(self) -> dict[str, str]:
        """The mapping the record stores."""
        return {"page": self.page, "back": self.back}


@dataclass(frozen=True, slots=True)
class Answer:
    """One graded answer: what was asked (`id`, `kind`, `rules`), right or wrong, when, how
    long it took (None: not measured, as in a record upgraded from the book's old progress),
    and where. A wrong answer may name the rules she missed (`missed`: the rules of the
    verdicts on what she got wrong, among `rules`); when it names none, every rule it tests
    counts as missed."""

    id: str
    kind: str
    rules: tuple[str, ...]
    correct: bool
    at: datetime
    seconds: float | None
    where: Where
    missed: tuple[str, ...] = ()

    @property
    def at_fault(self) -> tuple[str, ...]:
        """The rules a wrong answer counts against (none for a right one)."""
        if self.correct:
            return ()
        return self.missed or self.rules

    @property
    def key(self) -> tuple[str, str]:
        """What makes an answer one answer: its item and its moment (a merge keeps one of each)."""
        return (self.id, format_at(self.at))

    def to_json(self) -> dict[str, Any]:
        """The mapping the record stores."""
        return {
            "id": self.id,
            "kind": self.kind,
            "rules": list(self.rules),
            "correct": self.correct,
            "at": format_at(self.at),
            "seconds": self.seconds,
            "where": self.where.to_json(),
            **({"missed": list(self.missed)} if self.missed else {}),
        }


def _rule_list(x: object, where: str) -> tuple[str, ...]:
    if not isinstance(x, list) or len(x) > MAX_RULES_PER_ANSWER:
        raise InputError(where, f"a list of at most {MAX_RULES_PER_ANSWER} rule ids")
    for i, r in enumerate(x):
        if not isinstance(r, str) or not _RULE.fullmatch(r) or r not in RULES:
            raise InputError(f"{where}[{i}]", "not a rule id R01 to R63")
    return tuple(dict.fromkeys(x))


def _text(x: object, where: str, *, empty: bool = False) -> str:
    if not isinstance(x, str):
        raise InputError(where, f"expected text, got {type(x).__name__}")
    if (x or not empty) and not _ID.fullmatch(x):
        raise InputError(where, f"text of 1 to {MAX_TEXT} printable characters")
    return x


def answer_from_json(data: object, where: str = "answer") -> Answer:
    """One answer read from its mapping, every field checked (`InputError` names it)."""
    if not isinstance(data, Mapping):
        raise InputError(where, "expected an object")
    missing = [k for k in ("id", "kind", "rules", "correct", "at") if k not in data]
    if missing:
        raise InputError(f"{where}.{missing[0]}", "missing")
    unknown = sorted(set(data) - {"id", "kind", "rules", "correct", "at", "seconds", "where", "missed"})
    if unknown:
        raise InputError(f"{where}.{str(unknown[0])[:30]}", "not a field of an answer")
    ident = _text(data["id"], f"{where}.id")
    kind = data["kind"]
    if kind not in KINDS:
        raise InputError(f"{where}.kind", f"one of {', '.join(KINDS)}")
    rules = _rule_list(data["rules"], f"{where}.rules")
    missed = _rule_list(data.get("missed", []), f"{where}.missed")
    if not set(missed) <= set(rules):
        raise InputError(f"{where}.missed", "a rule missed is one of the answer's rules")
    correct = data["correct"]
    if not isinstance(correct, bool):
        raise InputError(f"{where}.correct", "true or false")
    at = parse_at(data["at"], f"{where}.at")
    seconds = data.get("seconds")
    if seconds is not None:
        if isinstance(seconds, bool) or not isinstance(seconds, int | float):
            raise InputError(f"{where}.seconds", "a number of seconds, or null")
        if not 0 <= seconds <= MAX_SECONDS:
            raise InputError(f"{where}.seconds", f"from 0 to {MAX_SECONDS:.0f}")
        seconds = float(seconds)
    place = data.get("where", {"page": ""})
    if not isinstance(place, Mapping):
        raise InputError(f"{where}.where", "expected an object {page, back}")
    extra = sorted(set(place) - {"page", "back"})
    if extra:
        raise InputError(f"{where}.where.{str(extra[0])[:30]}", "not a field of where")
    page = _text(place.get("page", ""), f"{where}.where.page", empty=True)
    back = _text(place.get("back", ""), f"{where}.where.back", empty=True)
    if correct and missed:
        raise InputError(f"{where}.missed", "a right answer misses no rule")
    return Answer(ident, str(kind), rules, correct, at, seconds, Where(page, back), missed)


@dataclass(frozen=True)
class Record:
    """A learner's record: every graded answer, in time order, each once. The per-rule state
    is `mastery.states(record)`; `document.dumps` writes it beside the answers for other
    readers."""

    answers: tuple[Answer, ...] = field(default=())

    def __post_init__(self) -> None:
        if len(self.answers) > MAX_ANSWERS:
            raise InputError("answers", f"more than {MAX_ANSWERS:,} answers")

    @staticmethod
    def of(answers: Iterable[Answer]) -> Record:
        """A record of `answers`, sorted by time (then id), one of each (id, at)."""
        kept: dict[tuple[str, str], Answer] = {}
        for a in answers:
            kept.setdefault(a.key, a)
        return Record(tuple(sorted(kept.values(), key=lambda a: (a.at, a.id))))

    def add(self, answer: Answer) -> Record:
        """This record with one more answer (the same (id, at) again changes nothing)."""
        return Record.of((*self.answers, answer))

    def merge(self, other: Record) -> Record:
        """Both records' answers, each (id, at) once: merging is commutative and idempotent,
        so a record downloaded from the book and loaded into JupyterLab (and back) loses and
        doubles nothing."""
        return Record.of((*self.answers, *other.answers))

    def ids(self) -> frozenset[str]:
        """Every item id answered (a practice never asks one of these again)."""
        return frozenset(a.id for a in self.answers)


def from_json(data: object) -> Record:
    """A record read from its mapping: the format named, every answer checked. The `rules`
    state, derived from the answers, is checked for its shape and then derived again (the
    answers are the record; the state a summary of them)."""
    if not isinstance(data, Mapping):
        raise InputError("record", "expected an object with format and answers")
    fmt = data.get("format")
    if fmt != FORMAT:
        raise InputError("format", f"expected {FORMAT!r}, got {str(fmt)[:40]!r}")
    unknown = sorted(set(data) - {"format", "answers", "rules"})
    if unknown:
        raise InputError(str(unknown[0])[:30], "not a field of a loo-progress/1 record")
    answers = data.get("answers")
    if not isinstance(answers, list):
        raise InputError("answers", "expected a list")
    if len(answers) > MAX_ANSWERS:
        raise InputError("answers", f"more than {MAX_ANSWERS:,} answers")
    rules = data.get("rules", {})
    if not isinstance(rules, Mapping):
        raise InputError("rules", "expected an object {rule id: state}")
    for r, s in rules.items():
        if r not in RULES:
            raise InputError(f"rules.{str(r)[:10]}", "not a rule id R01 to R63")
        if not isinstance(s, Mapping):
            raise InputError(f"rules.{r}", "expected an object")
    return Record.of(answer_from_json(a, f"answers[{i}]") for i, a in enumerate(answers))


def loads(text: str | bytes) -> Record:
    """A record from the file's text: JSON, at most `MAX_BYTES`, else one line naming why."""
    if len(text) > MAX_BYTES:
        raise InputError("record", f"larger than {MAX_BYTES // 1_000_000} MB")
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError) as e:
        msg = e.msg if isinstance(e, json.JSONDecodeError) else str(e)
        where = f" (line {e.lineno})" if isinstance(e, json.JSONDecodeError) else ""
        raise InputError("record", f"not JSON{where}: {msg[:80]}") from None
    if isinstance(data, Mapping) and "format" not in data and "answers" not in data:
        return upgrade_book(data)  # the book's progress before loo-progress/1
    return from_json(data)


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is not JSON")


# --- the book's progress before loo-progress/1 --------------------------------------------------

#: A quiz question's id: TOPIC-SEED-INDEX (the quiz generators' `qid`).
_QUESTION = re.compile(r"([a-z]+)-(\d{1,9})-(\d{1,3})")
#: The most questions regenerated to find an old answer's rule ids (the rest keep none).
MAX_REGENERATED = 2_000


def question_rules(qid: str) -> tuple[str, ...]:
    """The rule ids of the generated quiz question `qid` (`lead-42-3`), dealt again from its
    topic, seed and index (the generators are deterministic); () when `qid` is none."""
    return _rules_of([qid]).get(qid, ())


def _rules_of(qids: Iterable[str]) -> dict[str, tuple[str, ...]]:
    """The rule ids of each generated quiz question among `qids`, each bank (topic, seed) dealt
    once, up to its last index asked, and at most `MAX_REGENERATED` questions in all."""
    from loo_lessons import quiz  # the generators: only when an old record is upgraded

    banks: dict[tuple[str, int], int] = {}
    for qid in qids:
        m = _QUESTION.fullmatch(qid)
        if m is not None and m.group(1) in quiz.TOPICS:
            key = (m.group(1), int(m.group(2)))
            banks[key] = max(banks.get(key, 0), int(m.group(3)) + 1)
    out: dict[str, tuple[str, ...]] = {}
    dealt = 0
    for (topic, seed), count in sorted(banks.items()):
        if dealt + count > MAX_REGENERATED:
            continue
        dealt += count
        try:
            bank = quiz.generate(topic, count, seed)
        except ValueError:
            continue
        out.update((q.id, q.rule_ids) for q in bank)
    return out


def upgrade_book(lessons: Mapping[str, Any], known: Record | None = None) -> Record:
    """The book's progress before this format (`looProgress.all()`: {lesson: {answers:
    {id: {correct, at, kind?}}, ...}}) as a `loo-progress/1` record. Each answer keeps its
    moment, its lesson (as `where.page`) and its id (scoped by the lesson, so upgrading twice
    and merging doubles nothing); a quiz question's rule ids are found by dealing it again,
    a pick's are not known (it keeps none, and counts for no rule). No time was measured.
    Answers `known` holds already (upgraded before) are checked but not upgraded again: no
    quiz is dealt again for them (the book's page hands its older answers over every time)."""
    read: list[tuple[str, str, str, bool, datetime]] = []
    kept = {a.key for a in known.answers} if known is not None else set()
    for lesson, rec in lessons.items():
        where = f"lessons.{str(lesson)[:40]}"
        page = _text(lesson, where)
        if not isinstance(rec, Mapping):
            raise InputError(where, "expected an object with answers")
        answers = rec.get("answers", {})
        if not isinstance(answers, Mapping):
            raise InputError(f"{where}.answers", "expected an object {id: {correct, at}}")
        for qid, a in answers.items():
            aw = f"{where}.answers.{str(qid)[:40]}"
            _text(qid, aw)
            if not isinstance(a, Mapping):
                raise InputError(aw, "expected an object {correct, at}")
            if not isinstance(a.get("correct"), bool):
                raise InputError(f"{aw}.correct", "true or false")
            at = parse_at(a.get("at"), f"{aw}.at")
            kind = a.get("kind", "quiz")
            if known is not None and (f"{page}#{qid}", format_at(at)) in kept:
                continue
            read.append((page, qid, kind if kind in KINDS else "quiz", bool(a["correct"]), at))
            if len(read) > MAX_ANSWERS:
                raise InputError("answers", f"more than {MAX_ANSWERS:,} answers")
    # a quiz answer's id ends with its question's (`quiz-0:lead-42-3`)
    rules = _rules_of(qid.rsplit(":", 1)[-1] for _, qid, kind, _, _ in read if kind == "quiz")
    return Record.of(
        Answer(
            f"{page}#{qid}",
            kind,
            rules.get(qid.rsplit(":", 1)[-1], ()) if kind == "quiz" else (),
            correct,
            at,
            None,
            Where(page, qid.rsplit(":", 1)[-1]),
        )
        for page, qid, kind, correct, at in read
    )


def answer(
    item: str,
    kind: str,
    rules: Sequence[str],
    correct: bool,
    at: datetime,
    *,
    seconds: float | None = None,
    page: str = "",
    back: str = "",
    missed: Sequence[str] = (),
) -> Answer:
    """One answer, checked as a record's are: what a task, a pick or an evening calls to put
    a graded decision into the record (`Record.add(answer(...))`)."""
    return answer_from_json(
        {
            "id": item,
            "kind": kind,
            "rules": list(rules),
            "correct": correct,
            "at": format_at(at),
            "seconds": None if seconds is None else round(float(seconds), 1),
            "where": {"page": page, "back": back},
            "missed": list(missed),
        }
    )


__all__ = [
    "FORMAT",
    "KINDS",
    "MAX_ANSWERS",
    "MAX_BYTES",
    "Answer",
    "Record",
    "Where",
    "answer",
    "answer_from_json",
    "format_at",
    "from_json",
    "loads",
    "parse_at",
    "question_rules",
    "upgrade_book",
]
