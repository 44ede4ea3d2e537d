"""The learner's record by rule (`loo-progress/1`), the scheduler per rule, and practice
sessions: a simulated learner who always gets R24 and R32 wrong and everything else right,
over days of the clock moved on."""

from __future__ import annotations

import json
import random
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from loo_lessons.engine.errors import InputError
from loo_lessons.progress import mastery, store
from loo_lessons.progress.document import dumps, to_json
from loo_lessons.progress.practice import (
    RULE_SOURCES,
    Item,
    Session,
    draw,
    graded,
    item_id,
    plan,
    question_back,
)
from loo_lessons.progress.record import FORMAT, Record, answer, from_json, loads, upgrade_book
from loo_lessons.quiz import generate
from loo_lessons.quiz.model import Question

START = datetime(2026, 12, 1, 18, 0, tzinfo=UTC)
WEAK = frozenset({"R24", "R32"})


def wrong_pick(q: Question, weak: frozenset[str]) -> list[str]:
    """A wrong answer, one whose wrong verdicts cite a weak rule when the question has one."""
    options: list[list[str]] = [[c.key] for c in q.choices if not q.verdicts[c.key].correct]
    if q.multi:
        options += [[k for k in q.answer if k != left] for left in q.answer]
    options = [o for o in options if o and not q.grade(o)]
    assert options, q.id
    only = [o for o in options if graded(q, o)[1] and set(graded(q, o)[1]) <= weak]
    some = [o for o in options if set(graded(q, o)[1]) & weak]
    return (only or some or options)[0]


def learner(item: Item) -> list[str]:
    """Always wrong on R24 and R32, always right on everything else."""
    q = item.question
    return wrong_pick(q, WEAK) if WEAK & set(q.rule_ids) else list(q.answer)


def a_day(record: Record, now: datetime, seed: int) -> tuple[Record, list[Item]]:
    """One session: every item answered, 40 seconds apart."""
    s = Session(record, now, seed=seed)
    items = []
    while (item := s.next()) is not None:
        s.answer(learner(item), now, seconds=20.0)
        items.append(item)
        now += timedelta(seconds=40)
    return s.record, items


@pytest.fixture(scope="module")
def days() -> list[tuple[datetime, Record, list[Item]]]:
    """Twelve days of practice, one session a day at about the same time."""
    record = Record()
    out = []
    for d in range(12):
        now = START + timedelta(days=d, minutes=7 * d)
        record, items = a_day(record, now, seed=d)
        out.append((now, record, items))
    return out


def test_weak_rules_make_up_most_of_her_reviews(days: list[tuple[datetime, Record, list[Item]]]) -> None:
    after_first = [i for _, _, items in days[1:] for i in items]
    weak = [i for i in after_first if WEAK & set(i.question.rule_ids)]
    assert len(weak) > len(after_first) / 2, Counter(i.rule for i in after_first)
    assert len([i for i in after_first if i.rule in WEAK]) > len(after_first) / 3
    # and every later day serves both of them again (they never stop being due)
    for _, _, items in days[1:]:
        assert {i.rule for i in items} >= WEAK


def test_rules_she_gets_right_space_out(days: list[tuple[datetime, Record, list[Item]]]) -> None:
    """A rule she never misses is served (due) on day 0, then when it is due again: a day
    later, then two, then four; in twelve days at most four times, where a weak rule is served
    every day. (Another rule's item may test it too: that counts, and moves its due day.)"""
    now, record, _ = days[-1]
    st = mastery.states(record)
    served: dict[str, set[int]] = {}
    for d, (_, _, items) in enumerate(days):
        for i in items:
            served.setdefault(i.rule, set()).add(d)
    strong = [r for r in served if r in st and st[r].wrong == 0 and 0 in served[r]]
    assert len(strong) >= 5
    for r in strong:
        assert len(served[r]) <= 4, (r, sorted(served[r]))
        assert st[r].stability >= timedelta(days=4), (r, st[r])
    for r in WEAK:
        assert served[r] == set(range(1, 12)) or served[r] == set(range(12))
        assert st[r].stability <= timedelta(minutes=30)
        assert st[r].sure(now + timedelta(days=1)) < 0.5


def test_a_missed_rule_comes_back_within_the_session_on_a_new_position(
    days: list[tuple[datetime, Record, list[Item]]],
) -> None:
    _, record, items = days[0]
    ids = [a.id for a in record.answers]
    assert len(ids) == len(set(ids))  # never the same position twice
    first_wrong = next(n for n, i in enumerate(items) if i.rule in WEAK)
    again = [n for n, i in enumerate(items) if i.rule == items[first_wrong].rule and n > first_wrong]
    assert again and again[0] <= first_wrong + 3


def test_no_position_is_asked_again_on_any_day(days: list[tuple[datetime, Record, list[Item]]]) -> None:
    _, record, _ = days[-1]
    ids = [a.id for a in record.answers]
    assert len(ids) == len(set(ids)) > 40


def test_mistakes_lead_back_to_their_positions(days: list[tuple[datetime, Record, list[Item]]]) -> None:
    now, record, _ = days[-1]
    rows = {row["rule"]: row for row in mastery.summary(record, now + timedelta(hours=1))}
    assert rows["R24"]["due"] and rows["R24"]["wrong"] > 5 and rows["R24"]["sure"] < 100
    m = rows["R24"]["mistakes"][0]
    q = question_back(m["back"])
    assert "R24" in q.rule_ids
    assert item_id(q) == m["id"]
    assert all(not r["mistakes"] for r in rows.values() if r["rule"] not in WEAK and r["wrong"] == 0)


def test_nothing_is_lost_over_a_save_and_a_reload(
    days: list[tuple[datetime, Record, list[Item]]], tmp_path: Path
) -> None:
    now, record, _ = days[-1]
    path = tmp_path / "loo-progress.json"
    store.save(record, path, now)
    back = store.load(path)
    assert back == record
    assert mastery.states(back) == mastery.states(record)
    data = json.loads(path.read_text())
    assert data["format"] == FORMAT and data["rules"]["R24"]["wrong"] == mastery.states(record)["R24"].wrong
    # the next day's session from the reloaded record is the one from the record kept in memory
    tomorrow = now + timedelta(days=1)
    assert plan(back, tomorrow) == plan(record, tomorrow)


def test_merging_loses_and_doubles_nothing(days: list[tuple[datetime, Record, list[Item]]]) -> None:
    _, r5, _ = days[5]
    _, r11, _ = days[11]
    book = Record.of(r11.answers[::2])  # answers split between the book and JupyterLab
    lab = Record.of(r11.answers[1::2])
    assert book.merge(lab) == r11 == lab.merge(book)
    assert r11.merge(r11) == r11 and r5.merge(r11) == r11
    # an export, loaded into the other and exported back: the same record
    assert loads(dumps(book.merge(loads(dumps(lab))))) == r11


def test_saving_merges_with_what_the_file_holds(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    a = answer("x", "quiz", ["R24"], False, START)
    b = answer("y", "pick", ["R32"], True, START + timedelta(minutes=1))
    store.save(Record.of([a]), path)
    store.save(Record.of([b]), path)
    assert store.load(path).answers == (a, b)


def test_the_books_old_progress_upgrades(tmp_path: Path) -> None:
    asked = generate("lead", 3, 7)[2]  # the third question of a lesson's quiz, seed 7
    old = {
        "notebooks/05-leading": {
            "title": "Leading",
            "url": "notebooks/05-leading.html",
            "answers": {
                f"quiz-0:{asked.id}": {"correct": False, "at": "2026-11-30T10:00:00.123Z", "kind": "quiz"},
                "pick-1": {"correct": True, "at": "2026-11-30T10:01:00.000Z", "kind": "pick"},
            },
            "components": {},
            "stopped": {"anchor": "x", "title": "X"},
            "tasks": {},
        }
    }
    rec = loads(json.dumps(old))
    assert rec == upgrade_book(old)
    first, second = rec.answers
    assert first.rules == asked.rule_ids and not first.correct and first.seconds is None
    assert first.where.page == "notebooks/05-leading" and first.where.back == asked.id
    assert second.kind == "pick" and second.rules == () and second.correct
    # upgraded again and merged: nothing doubled; what a record holds already is not upgraded
    # again (no quiz dealt again); then kept as loo-progress/1
    assert rec.merge(upgrade_book(old)) == rec
    assert upgrade_book(old, known=rec) == Record()
    assert upgrade_book(old, known=Record.of(rec.answers[:1])) == Record.of(rec.answers[1:])
    assert from_json(json.loads(dumps(rec))) == rec
    assert set(to_json(rec)["rules"]) == set(asked.rule_ids)


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("[]", "record"),
        ("{", "record"),
        ('{"format": "loo-progress/2", "answers": []}', "format"),
        ('{"format": "loo-progress/1", "answers": {}}', "answers"),
        ('{"format": "loo-progress/1", "answers": [], "extra": 1}', "extra"),
        ('{"format": "loo-progress/1", "answers": [{"id": "a"}]}', "answers[0].kind"),
        ('{"format": "loo-progress/1", "answers": [{"id": "a", "kind": "nap", "rules": [], "correct": true, "at": "2026-12-01T00:00:00Z"}]}', "answers[0].kind"),
        ('{"format": "loo-progress/1", "answers": [{"id": "a", "kind": "quiz", "rules": ["R99"], "correct": true, "at": "2026-12-01T00:00:00Z"}]}', "answers[0].rules[0]"),
        ('{"format": "loo-progress/1", "answers": [{"id": "a", "kind": "quiz", "rules": [], "correct": 1, "at": "2026-12-01T00:00:00Z"}]}', "answers[0].correct"),
        ('{"format": "loo-progress/1", "answers": [{"id": "a", "kind": "quiz", "rules": [], "correct": true, "at": "yesterday"}]}', "answers[0].at"),
        ('{"format": "loo-progress/1", "answers": [{"id": "a", "kind": "quiz", "rules": [], "correct": true, "at": "2026-12-01T00:00:00+02:00"}]}', "answers[0].at"),
        ('{"format": "loo-progress/1", "answers": [{"id": "a", "kind": "quiz", "rules": [], "correct": true, "at": "2026-12-01T00:00:00Z", "seconds": -1}]}', "answers[0].seconds"),
        ('{"format": "loo-progress/1", "answers": [{"id": "a", "kind": "quiz", "rules": [], "correct": true, "at": "2026-12-01T00:00:00Z", "seconds": NaN}]}', "record"),
        ('{"format": "loo-progress/1", "answers": [{"id": "", "kind": "quiz", "rules": [], "correct": true, "at": "2026-12-01T00:00:00Z"}]}', "answers[0].id"),
        ('{"format": "loo-progress/1", "answers": [{"id": "a", "kind": "quiz", "rules": ["R24"], "missed": ["R32"], "correct": false, "at": "2026-12-01T00:00:00Z"}]}', "answers[0].missed"),
        ('{"format": "loo-progress/1", "answers": [], "rules": {"R77": {}}}', "rules.R77"),
        ('{"notebooks/05-leading": {"answers": {"q": {"correct": true, "at": "now"}}}}', "lessons.notebooks/05-leading.answers.q.at"),
        ("[" * 100_000 + "]" * 100_000, "record"),
    ],
)
def test_a_damaged_record_is_refused_in_one_line_naming_the_field(text: str, field: str) -> None:
    with pytest.raises(InputError) as e:
        loads(text)
    assert e.value.field == field
    assert "\n" not in str(e.value) and len(str(e.value)) < 200


def test_a_record_too_large_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    path.write_text(" " * 8_000_001)
    with pytest.raises(InputError, match="larger than the limit"):
        store.load(path)
    with pytest.raises(InputError, match="is a directory"):
        store.load(tmp_path)
    assert store.load(tmp_path / "none.json") == Record()


def test_the_scheduler_doubles_on_success_and_resets_on_a_miss() -> None:
    s = mastery.RuleState.first("R28", True, START)
    assert s.stability == timedelta(days=1) and not s.is_due(START + timedelta(hours=23))
    assert s.sure(START) == 1.0 and abs(s.sure(START + timedelta(days=1)) - 0.9) < 1e-9
    s2 = s.after(True, START + timedelta(days=1))
    assert s2.stability == timedelta(days=2)
    # ten right answers in a minute prove no more than one
    early = s
    for k in range(10):
        early = early.after(True, START + timedelta(seconds=6 * (k + 1)))
    assert early.stability < timedelta(days=1, minutes=2)
    miss = s2.after(False, START + timedelta(days=3))
    assert miss.stability == mastery.RELEARN and miss.is_due(START + timedelta(days=3, minutes=11))
    # relearned: the next day it is back to a day, then doubles again
    back = miss.after(True, START + timedelta(days=4))
    assert timedelta(days=1) <= back.stability <= timedelta(days=1, minutes=10)


def test_a_wrong_answer_counts_against_the_rules_it_missed() -> None:
    a = answer("q", "quiz", ["R24", "R28"], False, START, missed=["R24"])
    st = mastery.states(Record.of([answer("p", "quiz", ["R28"], True, START - timedelta(days=1)), a]))
    assert st["R24"].wrong == 1 and st["R28"].wrong == 0 and st["R28"].right == 1
    whole = mastery.states(Record.of([answer("q", "quiz", ["R24", "R28"], False, START)]))
    assert whole["R24"].wrong == whole["R28"].wrong == 1


def test_a_teachers_rules_make_the_session(days: list[tuple[datetime, Record, list[Item]]]) -> None:
    assert plan(Record(), START, rules=["R24", "R32", "R02"], size=5) == ["R24", "R32", "R24", "R32", "R24"]
    with pytest.raises(InputError, match="rules"):
        plan(Record(), START, rules=["R02"])


@pytest.mark.parametrize("rule", sorted(RULE_SOURCES))
def test_every_rule_practice_serves_has_new_positions(rule: str) -> None:
    rng = random.Random(rule)
    first = draw(rule, rng)
    assert first is not None and rule in first.question.rule_ids
    second = draw(rule, rng, {first.id})
    assert second is not None and second.id != first.id
    assert question_back(first.back).to_json() == first.question.to_json()


def test_a_way_back_that_is_none_is_refused() -> None:
    for bad in ("quiz:lead:3:1", "quiz:nap:1:1", "lead-10-42", "quiz:lead:1:" + "9" * 20):
        with pytest.raises(InputError, match="back"):
            question_back(bad)


def test_an_answer_to_no_item_is_refused() -> None:
    s = Session(Record(), START, seed=1, rules=["R28"], size=1)
    item = s.next()
    assert item is not None
    with pytest.raises(InputError, match="picked"):
        s.answer(["ZZ"], START)
    s.answer(list(item.question.answer), START)
    assert s.finished and s.score() == (1, 1)
    with pytest.raises(InputError, match="session is over"):
        s.answer(["KH"], START)


def test_a_task_records_one_decision_with_one_call(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    a = answer("task:declaring-deal-1:declare", "task-decision", ["R06"], True, START, seconds=4.0,
               page="notebooks/03-declaring", back="declaring-deal-1")
    assert store.record(a, path).answers == (a,)
    assert store.record(a, path).answers == (a,)  # the same decision twice: kept once
