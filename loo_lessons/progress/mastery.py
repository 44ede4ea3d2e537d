"""Mastery by rule: a small spaced-repetition scheduler, one card per rule (R01–R63).

Why not FSRS (the `fsrs` package): it schedules cards with a fitted 21-weight model and needs
`typing_extensions`, which the book's Pyodide (the standard library alone) does not have; and
a Loo rule is not a card: every practice item is a new position, so there is no card to fit.
The scheduler here is the part of FSRS that matters for a rule, kept in a few lines:

- each rule has a *stability* S: the time after which she is about 90% sure of it;
- how sure she is now is FSRS's forgetting curve, `(1 + 19/81 · t/S) ** -0.5` (t the time
  since her last answer on the rule): 1 just after an answer, 0.9 at t = S, falling slowly;
- a rule is *due* once that falls to 0.9 (t ≥ S);
- a right answer adds to S the time since the last one, up to S (or a day, while S is under
  a day): answered when due, S doubles (1 day, 2, 4, 8 …); answered early, it grows by the
  little time that passed, so ten right answers in a minute prove no more than one;
- a wrong answer sets S back to ten minutes: the rule comes back within the session, and
  again the next day, however sure she was. It counts against the rules she missed (the
  rules of the verdicts on what she got wrong, `Answer.missed`), not the others it tests.

A first answer starts S at a day (right) or ten minutes (wrong). A right answer counts for
every rule it tests. The clock is always passed in (`now`), never read here, so a test moves
it on by days. The state is derived from the record's answers by replaying them in order, so
it merges as the answers do.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from loo_lessons.engine.sources import RULES
from loo_lessons.progress.record import Answer, Record, format_at

DAY = timedelta(days=1)
#: Where a wrong answer sets a rule's stability: it comes back within the session.
RELEARN = timedelta(minutes=10)
#: The longest a rule is left alone.
MAX_STABILITY = timedelta(days=365)
#: FSRS's forgetting curve: recall (1 + FACTOR·t/S) ** DECAY is 0.9 at t = S.
FACTOR = 19 / 81
DECAY = -0.5
#: A rule is due once how sure she is falls to this.
DUE_AT = 0.9
#: How sure she can be of a rule she missed last time, at most.
AFTER_MISS = 0.5


def recall(elapsed: timedelta, stability: timedelta) -> float:
    """How likely she is to get a rule right `elapsed` after her last answer on it, for a
    rule of this `stability` (1.0 at once, 0.9 at `stability`, then slowly down)."""
    t = max(elapsed.total_seconds(), 0.0)
    return float((1 + FACTOR * t / stability.total_seconds()) ** DECAY)


@dataclass(frozen=True, slots=True)
class RuleState:
    """One rule's scheduler state: its stability, her last answer on it, and the counts."""

    rule: str
    stability: timedelta
    last: datetime
    right: int = 0
    wrong: int = 0
    last_correct: bool = True

    @property
    def due(self) -> datetime:
        """When the rule is next due (how sure she is falls to 90%)."""
        return self.last + self.stability

    def sure(self, now: datetime) -> float:
        """How sure she is of the rule at `now` (the recall probability, 0 to 1). After a miss
        it is at most `AFTER_MISS`: the curve says she remembers what she was just shown, but
        she did not know it when asked, and her page should not say 100% of that."""
        r = recall(now - self.last, self.stability)
        return r if self.last_correct else min(r, AFTER_MISS)

    def is_due(self, now: datetime) -> bool:
        """Whether the rule is due at `now`."""
        return now >= self.due

    def after(self, correct: bool, at: datetime) -> RuleState:
        """The state after one more answer on the rule, right or wrong, at `at`."""
        if not correct:
            return replace(self, stability=RELEARN, last=at, wrong=self.wrong + 1, last_correct=False)
        elapsed = max(at - self.last, timedelta(0))
        grown = self.stability + min(elapsed, max(self.stability, DAY))
        return replace(self, stability=min(grown, MAX_STABILITY), last=at, right=self.right + 1, last_correct=True)

    @staticmethod
    def first(rule: str, correct: bool, at: datetime) -> RuleState:
        """A rule's state after her first answer on it."""
        if correct:
            return RuleState(rule, DAY, at, right=1)
        return RuleState(rule, RELEARN, at, wrong=1, last_correct=False)

    def to_json(self, now: datetime | None = None) -> dict[str, Any]:
        """The state as the record stores it (days as a number; `sure` when `now` is given)."""
        out: dict[str, Any] = {
            "stability_days": round(self.stability / DAY, 6),
            "last": format_at(self.last),
            "due": format_at(self.due),
            "right": self.right,
            "wrong": self.wrong,
            "last_correct": self.last_correct,
        }
        if now is not None:
            out["sure"] = round(self.sure(now), 3)
        return out


def states(record: Record | Iterable[Answer]) -> dict[str, RuleState]:
    """Every rule's state, from the answers replayed in time order (rules in id order)."""
    answers = record.answers if isinstance(record, Record) else tuple(record)
    out: dict[str, RuleState] = {}
    for a in sorted(answers, key=lambda a: (a.at, a.id)):
        fault = a.at_fault
        for r in a.rules:
            if not a.correct and r not in fault:
                continue  # a wrong answer on another of its rules says nothing of this one
            s = out.get(r)
            out[r] = RuleState.first(r, a.correct, a.at) if s is None else s.after(a.correct, a.at)
    return dict(sorted(out.items()))


def due(record: Record, now: datetime) -> list[str]:
    """The rules due at `now`, the least sure first."""
    st = states(record)
    return sorted((r for r, s in st.items() if s.is_due(now)), key=lambda r: (st[r].sure(now), r))


def mistakes(record: Record, rule: str | None = None, limit: int = 50) -> list[Answer]:
    """Her wrong answers (on `rule`, or every one), the latest first: each with its way back."""
    wrong = [a for a in record.answers if not a.correct and (rule is None or rule in a.at_fault)]
    return sorted(wrong, key=lambda a: (a.at, a.id), reverse=True)[:limit]


def summary(record: Record, now: datetime) -> list[dict[str, Any]]:
    """What the learner's page shows, one row a rule she has met (in rule order): the rule and
    its words, how sure she is (a percentage), whether it is due and when, right and wrong,
    and her latest mistakes on it with where each was asked."""
    rows = []
    for r, s in states(record).items():
        rows.append(
            {
                "rule": r,
                "words": RULES[r].summary,
                "sure": round(100 * s.sure(now)),
                "due": s.is_due(now),
                "due_at": format_at(s.due),
                "right": s.right,
                "wrong": s.wrong,
                "mistakes": [
                    {"id": a.id, "at": format_at(a.at), **a.where.to_json()} for a in mistakes(record, r, 5)
                ],
            }
        )
    return rows


def reviews(record: Record, since: datetime | None = None) -> Mapping[str, int]:
    """How many answers tested each rule (since `since`, when given)."""
    out: dict[str, int] = {}
    for a in record.answers:
        if since is None or a.at >= since:
            for r in a.rules:
                out[r] = out.get(r, 0) + 1
    return dict(sorted(out.items()))


__all__ = [
    "AFTER_MISS",
    "DAY",
    "DUE_AT",
    "RELEARN",
    "RuleState",
    "due",
    "mistakes",
    "recall",
    "reviews",
    "states",
    "summary",
]
