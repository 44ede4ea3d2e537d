"""The practice widget (controllers/practice.py) and `loo-lessons practice`: a session played
by clicks, recorded in the learner's file, a missed rule back within the session; a damaged
file said in one line and never overwritten; the terminal's session by typed keys."""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from loo_lessons.cli import main
from loo_lessons.progress import mastery, store
from loo_lessons.progress.practice import question_back
from loo_lessons.widgets.controllers.practice import PracticeController

START = datetime(2026, 12, 1, 18, 0, tzinfo=UTC)


class Clock:
    """A clock the test moves on."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now

    def tick(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


def a_wrong_key(q: dict[str, Any]) -> str:
    """A choice that is not allowed, if there is one (else the first allowed one)."""
    wrong = [str(c["key"]) for c in q["choices"] if not q["verdicts"][c["key"]]["correct"]]
    return wrong[0] if wrong else str(q["answer"][0])


def test_a_session_by_clicks_is_recorded_in_her_file(tmp_path: Path) -> None:
    path = tmp_path / "loo-progress.json"
    clock = Clock()
    ctl = PracticeController(["R24", "R28"], path=str(path), seed=3, size=4, clock=clock)
    d = ctl.data
    assert d["live"] and d["n"] == 1 and d["of"] == 4 and d["item"]["rule"] == "R24"
    assert d["result"] is None and "answer" in d["item"]["question"]  # graded on the page's side too
    q = d["item"]["question"]
    # Check with nothing selected is refused in one line; a wrong pick is marked and recorded
    ctl.check()
    assert "select a choice first" in ctl.data["refused"]
    wrong = next(c["key"] for c in q["choices"] if not q["verdicts"][c["key"]]["correct"])
    ctl.click(wrong)
    assert ctl.data["picked"] == [wrong] and "refused" not in ctl.data
    clock.tick(12)
    ctl.check()
    d = ctl.data
    assert d["result"]["correct"] is False and d["result"]["comeback"]
    assert d["result"]["missed"][0].startswith("R24: ")
    assert d["of"] == 5  # R24 comes back, on a new position
    kept = store.load(path)
    assert len(kept.answers) == 1
    a = kept.answers[0]
    assert not a.correct and a.seconds == 12.0 and a.missed == ("R24",) and a.where.page == "practice"
    assert question_back(a.where.back).to_json() == q
    ctl.check()  # answered: Check again is refused, nothing recorded twice
    assert "press Next" in ctl.data["refused"]
    ctl.click(q["answer"][0])  # a click now shows that choice's verdict
    assert ctl.data["current"] == q["answer"][0]
    rules = []
    while not ctl.data["done"]:
        ctl.next()
        if ctl.data["done"]:
            break
        item = ctl.data["item"]
        rules.append(item["rule"])
        for k in item["question"]["answer"]:
            ctl.click(k)
        clock.tick(20)
        ctl.check()
        assert ctl.data["result"]["correct"]
    assert rules == ["R28", "R24", "R24", "R28"]  # the plan R24 R28 R24 R28, the missed R24 two items on
    d = ctl.data
    assert d["score"] == {"right": 4, "answered": 5}
    rows = {r["rule"]: r for r in d["mastery"]}
    assert rows["R24"]["wrong"] == 1 and rows["R24"]["mistakes"][0]["back"] == a.where.back
    assert len(store.load(path).answers) == 5
    ids = [x.id for x in store.load(path).answers]
    assert len(set(ids)) == 5  # never the same position twice


def test_show_the_answer_counts_as_missed(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    ctl = PracticeController(["R32"], path=str(path), seed=5, size=1, clock=Clock())
    ctl.show()
    assert ctl.data["result"]["correct"] is False and ctl.data["result"]["picked"] == []
    st = mastery.states(store.load(path))
    assert st["R32"].wrong == 1


def test_a_new_session_starts_from_what_is_due(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    clock = Clock()
    first = PracticeController(["R32", "R28"], path=str(path), seed=1, size=2, clock=clock)
    q = first.data["item"]["question"]
    first.click(a_wrong_key(q))
    first.check()
    first.next()
    q = first.data["item"]["question"]
    for k in q["answer"]:
        first.click(k)
    first.check()
    clock.tick(3600)
    later = PracticeController(path=str(path), seed=2, clock=clock)  # no rules: what is due
    assert later.data["item"]["rule"] == "R32"
    assert {r for r in later.session.queue} <= {"R32"}


def test_a_damaged_file_is_said_in_one_line_and_kept(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    bad = [{"id": 3, "kind": "quiz", "rules": [], "correct": True, "at": "2026-12-01T00:00:00Z"}]
    path.write_text(json.dumps({"format": "loo-progress/1", "answers": bad}))
    ctl = PracticeController(path=str(path), seed=1, clock=Clock())
    assert ctl.data["error"].startswith("Your progress could not be read: p.json: answers[0].id")
    # answering does not overwrite the damaged file (it says so instead)
    q = ctl.data["item"]["question"]
    for k in q["answer"]:
        ctl.click(k)
    ctl.check()
    assert "could not be saved" in ctl.data["error"]
    assert json.loads(path.read_text())["answers"] == bad


def test_in_the_page_the_record_travels_with_the_widget() -> None:
    clock = Clock()
    ctl = PracticeController(["R28"], keep="page", seed=1, size=1, clock=clock)
    q = ctl.data["item"]["question"]
    for k in q["answer"]:
        ctl.click(k)
    ctl.check()
    rec = ctl.data["record"]
    assert rec["format"] == "loo-progress/1" and len(rec["answers"]) == 1
    assert ctl.live_spec() == {"kind": "practice", "args": {"rules": ["R28"], "size": 1, "keep": "page", "seed": 1}}
    again = PracticeController(["R28"], keep="page", record=json.dumps(rec), seed=2, size=1, clock=clock)
    assert again.data["item"]["rule"] == "R28" and len(again.record.answers) == 1


def test_bad_arguments_are_refused_in_one_line() -> None:
    from loo_lessons.engine.errors import LooError

    makers: list[Callable[[], object]] = [
        lambda: PracticeController(["R02"], keep="page"),
        lambda: PracticeController("R24", keep="page"),
        lambda: PracticeController(keep="cloud"),
        lambda: PracticeController(keep="page", size=0),
    ]
    for make in makers:
        with pytest.raises(LooError) as e:
            make()
        assert "\n" not in str(e.value)


# --- the terminal -------------------------------------------------------------------------------


def _run(argv: list[str], typed: str, monkeypatch: pytest.MonkeyPatch) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    monkeypatch.setattr("sys.stdin", io.StringIO(typed))
    monkeypatch.setattr("sys.stdout", out)
    monkeypatch.setattr("sys.stderr", err)
    code = main(argv)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("LOO_PROGRESS", str(tmp_path / "loo-progress.json"))
    yield tmp_path / "loo-progress.json"


def test_the_terminal_practice_asks_grades_and_records(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # "?" shows the answer (missed), then Enter with nothing typed, then quit
    code, out, err = _run(["practice", "--rules", "R28", "--count", "3", "--seed", "4"], "?\n\nq\n", monkeypatch)
    assert code == 0, err
    assert "R28" in out and "Not right" in out and "comes back" in out
    kept = store.load(home)
    assert len(kept.answers) == 1 and not kept.answers[0].correct


def test_the_terminal_practice_takes_numbers_and_card_words(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from loo_lessons.progress.practice import Session
    from loo_lessons.progress.record import Record

    s = Session(Record(), START, seed=4, rules=["R28"], size=1)
    item = s.next()
    assert item is not None
    q = item.question
    numbers = " ".join(str(1 + [c.key for c in q.choices].index(k)) for k in q.answer)
    code, out, err = _run(["practice", "--rules", "R28", "--count", "1", "--seed", "4", "--now", "2026-12-01T18:00:00Z"], f"{numbers}\n", monkeypatch)
    assert code == 0, err
    assert "✓ Right" in out and "1 right of 1" in out
    assert store.load(home).answers[0].correct


def test_the_terminal_shows_mastery_and_refuses_a_damaged_file(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, err = _run(["practice", "--rules", "R28", "--count", "1", "--seed", "4"], "?\n", monkeypatch)
    assert code == 0
    code, out, err = _run(["practice", "--status"], "", monkeypatch)
    assert code == 0 and "R28" in out and "due" in out
    home.write_text('{"format": "loo-progress/1", "answers": "none"}')
    code, out, err = _run(["practice", "--status"], "", monkeypatch)
    assert code == 2 and err.count("\n") == 1 and "answers" in err
    code, out, err = _run(["practice", "--rules", "R02"], "", monkeypatch)
    assert code == 2 and "rules" in err and err.count("\n") == 1


def test_the_notebooks_call_makes_the_kernels_widget(tmp_path: Path) -> None:
    from loo_lessons import lessons as L

    w = L.practice("R24, R32", path=str(tmp_path / "p.json"), size=2)
    try:
        assert w.data["rules"] == ["R24", "R32"] and w.data["item"]["rule"] == "R24"
        w.controller.show()
        w.controller.next()
        assert not w.controller.record.answers[0].correct  # shown, not known: it counts as missed
        assert len(store.load(tmp_path / "p.json").answers) == 1
    finally:
        w.close()


# --- the book's page ----------------------------------------------------------------------------


def test_the_page_hands_over_its_record_its_older_answers_and_its_link() -> None:
    from loo_lessons.progress.document import to_json
    from loo_lessons.progress.record import Record, answer
    from loo_lessons.quiz import generate

    clock = Clock()
    kept = Record.of([answer("x", "quiz", ["R24"], False, START - timedelta(days=1), missed=["R24"])])
    asked = generate("follow", 2, 3)[1]
    lessons = {"notebooks/06-following": {"answers": {f"quiz-0:{asked.id}": {"correct": True, "at": "2026-11-30T10:00:00.000Z"}}}}
    ctl = PracticeController(keep="page", seed=4, clock=clock)
    ctl.receive({"sync": {"request": {"n": 1, "type": "load", "record": to_json(kept), "lessons": lessons, "rules": ["R32"]}}})
    d = ctl.data
    assert "refused" not in d and d["error"] is None
    assert d["rules"] == ["R32"] and d["item"]["rule"] == "R32"
    assert len(d["record"]["answers"]) == 2  # the kept answer and the upgraded one
    assert set(d["record"]["rules"]) == {"R24", *asked.rule_ids}
    # a damaged record: one line, and a session from nothing; a link of no rule: what is due
    ctl.receive({"sync": {"request": {"n": 2, "type": "load", "record": {"format": "x"}, "rules": ["R02"]}}})
    d = ctl.data
    assert d["error"] == "This link names no rule practice can ask about: practising what is due instead."
    ctl.receive({"sync": {"request": {"n": 3, "type": "load", "record": {"format": "x"}, "rules": None}}})
    assert ctl.data["error"].startswith("Your progress could not be read: format:")
    # in JupyterLab the record is the file's: the page's hand-over is refused
    lab = PracticeController(keep="page", seed=4, clock=clock)
    lab._keep = "file"
    lab.receive({"sync": {"request": {"n": 1, "type": "load", "record": None}}})
    assert "only the book's page" in lab.data["refused"]


def test_the_progress_page_merges_a_file_or_refuses_it_in_one_line() -> None:
    from loo_lessons.progress.book import merge_file, summary
    from loo_lessons.progress.document import dumps, to_json
    from loo_lessons.progress.record import Record, answer
    from loo_lessons.widgets.backends import browser as B

    mine = Record.of([answer("a", "quiz", ["R24"], False, START, missed=["R24"])])
    theirs = Record.of([answer("b", "practice", ["R32"], True, START + timedelta(hours=1)), *mine.answers])
    out = merge_file(to_json(mine), None, dumps(theirs), START + timedelta(hours=2))
    assert out["ok"] and out["answers"] == 2 and out["added"] == 1
    again = merge_file(out["record"], None, dumps(theirs), START + timedelta(hours=2))
    assert again["added"] == 0  # loaded twice: nothing doubled
    bad = merge_file(to_json(mine), None, '{"format": "loo-progress/1", "answers": [{"id": "a"}]}', START)
    assert bad == {"ok": False, "error": "answers[0].kind: missing"}
    rows = summary(out["record"], None, START + timedelta(hours=2))
    assert rows["due"] == ["R24"] and [r["rule"] for r in rows["rows"]] == ["R24", "R32"]
    # through the page's worker, as the progress page calls it
    via = json.loads(B.run("progress_merge", json.dumps({"record": to_json(mine), "text": "{"})))
    assert via["ok"] is False and via["error"].startswith("record: not JSON")


def test_a_file_from_the_book_merges_into_jupyterlabs(home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from loo_lessons import lessons as L
    from loo_lessons.progress.document import dumps
    from loo_lessons.progress.record import Record, answer

    book = Record.of([answer("b", "practice", ["R32"], False, START, missed=["R32"])])
    lab = Record.of([answer("l", "quiz", ["R24"], True, START)])
    store.save(lab, home)
    downloaded = tmp_path / "downloaded.json"
    downloaded.write_text(dumps(book))
    assert L.merge_progress(str(downloaded)) == "1 answer added, 2 in all"
    assert L.merge_progress(str(downloaded)) == "0 answers added, 2 in all"  # nothing doubled
    code, out, err = _run(["practice", "--merge", str(downloaded)], "", monkeypatch)
    assert code == 0 and "0 answers added" in out
    downloaded.write_text('{"format": "loo-progress/1", "answers": [1]}')
    code, out, err = _run(["practice", "--merge", str(downloaded)], "", monkeypatch)
    assert code == 2 and err == "error: downloaded.json: answers[0]: expected an object\n"
    assert store.load(home) == book.merge(lab)


def test_the_notebooks_table_by_rule(home: Path) -> None:
    from loo_lessons import lessons as L
    from loo_lessons.progress.record import Record, answer

    store.save(Record.of([answer("a", "practice", ["R24"], False, START, missed=["R24"], back="quiz:lead:2:5"),
                          answer("b", "quiz", ["R32"], True, START)]))
    df = L.progress()
    assert list(df.index) == ["R24", "R32"]
    assert df.loc["R24", "due"] == "now" and df.loc["R24", "last mistake"] == "quiz:lead:2:5"
    assert df.loc["R32", "wrong"] == 0 and df.loc["R24", "sure %"] <= 50


def test_a_mistake_is_dealt_again_from_its_way_back() -> None:
    from loo_lessons.progress.practice import item_back

    clock = Clock()
    first = PracticeController(["R24"], keep="page", seed=4, size=2, clock=clock)
    q = first.data["item"]["question"]
    first.click(a_wrong_key(q))
    first.check()
    back = first.data["item"]["back"]
    rec = first.data["record"]
    again = PracticeController(keep="page", seed=9, size=3, clock=clock)
    again.receive({"sync": {"request": {"n": 1, "type": "load", "record": rec, "back": back}}})
    d = again.data
    assert d["error"] is None and d["item"]["back"] == back and d["item"]["question"] == q
    assert d["of"] <= 3 and d["item"]["rule"] == item_back(back).rule == "R24"
    again.receive({"sync": {"request": {"n": 2, "type": "load", "record": rec, "back": "quiz:nap:1:1"}}})
    assert "no position" in again.data["error"] and again.data["item"] is not None
