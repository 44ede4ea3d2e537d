"""Results a teacher can trust: `loo-lessons quiz results` grades every answer again from the
class code and refuses, one line each naming the pupil and the problem, what the code cannot
have produced (tests/forged_results/: wrong marks, foreign and malformed codes, answers not
among the choices, more answers than questions, duplicates, impersonation by name, escape
codes, formula cells); honest results give the right table; files are bounded."""

from __future__ import annotations

import io
import json
import os
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from loo_lessons import lessons as L
from loo_lessons import quiz
from loo_lessons.cli import main
from loo_lessons.quiz.classroom import (
    Found,
    PupilResult,
    from_records,
    grade,
    merge,
    question_table,
    read,
    rule_table,
    table,
    table_csv,
    table_text,
)
from loo_lessons.quiz.results import (
    AnswerRecord,
    Submission,
    from_code,
    page_submission,
    submission_from_json,
)
from loo_lessons.scenario.read import MAX_BYTES

HERE = Path(__file__).resolve().parent / "forged_results"
EXPECTED: dict[str, str] = json.loads((HERE / "expected.json").read_text(encoding="utf-8"))


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        rc = main(list(argv))
    return rc, out.getvalue(), err.getvalue()


def test_the_folder_fits_the_questions_the_codes_deal_now() -> None:
    """The folder was written from lead-5-42's questions; when the generators change, the
    questions a code deals change too (and so does every result exported before)."""
    import runpy

    _, bea = runpy.run_path(str(HERE / "make_forged.py"))["honest"]()
    assert (HERE / "honest" / "bea.txt").read_text(encoding="utf-8").splitlines()[
        1
    ] == bea.code(), (
        "lead-5-42 deals other questions now: run python tests/forged_results/make_forged.py"
    )


def test_honest_results_give_the_right_table() -> None:
    room = merge([HERE / "honest"])
    assert room.refusals == ()
    qs = quiz.for_code("lead-5-42")
    ada, bea = room.pupils
    assert (ada.name, bea.name) == ("Ada", "Bea")
    # marks computed here from the answers the files hold, by the questions themselves
    assert ada.first.marks == (True, False, None, True, True)
    assert ada.first.seconds == (3.5, 8.0, None, 4.0, 2.5)
    assert [a.number for a in bea.attempts] == [1, 2]
    assert bea.attempts[0].right == 0 and bea.attempts[1].right == 5
    columns, rows = table(room.pupils)
    assert columns[:7] == [
        "name",
        "class_code",
        "attempt",
        "right",
        "answered",
        "questions",
        "seconds",
    ]
    assert [(r["name"], r["attempt"], r["right"], r["answered"], r["seconds"]) for r in rows] == [
        ("Ada", 1, 3, 4, 18.0),
        ("Bea", 1, 0, 5, 10.0),
        ("Bea", 2, 5, 5, 15.0),
    ]
    # per question and per rule: first attempts only (a re-take does not hide a miss)
    _, per_q = question_table(room.pupils)
    assert [(r["question_id"], r["right"], r["answered"]) for r in per_q] == [
        (qs[0].id, 1, 2),
        (qs[1].id, 0, 2),
        (qs[2].id, 0, 1),
        (qs[3].id, 1, 2),
        (qs[4].id, 1, 2),
    ]
    _, per_rule = rule_table(room.pupils)
    missed = {r["rule_id"]: (r["missed"], r["answered"]) for r in per_rule}
    want: dict[str, list[int]] = {}
    for i, q in enumerate(qs):
        for rid in q.rule_ids:
            m = want.setdefault(rid, [0, 0])
            for mark in (ada.first.marks[i], bea.first.marks[i]):
                if mark is not None:
                    m[0] += not mark
                    m[1] += 1
    assert missed == {k: (v[0], v[1]) for k, v in want.items()}
    assert [r["missed"] for r in per_rule] == sorted((r["missed"] for r in per_rule), reverse=True)
    assert all(r["rule"].startswith("\u201c") and r["book"] for r in per_rule)
    text = table_text(room.pupils)
    assert "Rules the class missed most" in text and per_rule[0]["rule_id"] in text


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_forged_result_is_refused_with_its_line(name: str) -> None:
    rc, out, err = run("quiz", "results", str(HERE / "honest"), str(HERE / "forged" / name))
    assert rc == 2
    lines = [ln for ln in err.splitlines() if ln.startswith("refused: ")]
    assert lines and len(lines) == len(err.splitlines()), err
    assert any(EXPECTED[name] in ln and name in ln for ln in lines), err
    assert "\x1b" not in out + err and "Mallory" not in out and "HYPERLINK" not in out
    if name != "bea_forged.txt":
        # the honest results are still tabled, untouched
        assert "Ada" in out and "Bea" in out
    else:
        # never merged silently, never dropping the honest one (issue 24): Bea's two
        # different results are both shown and both reported, each with its file
        assert sum("different results" in ln for ln in lines) == 2
        honest = merge([HERE / "honest"]).pupils
        room = merge([HERE / "honest", HERE / "forged" / name])
        assert all(p in room.pupils for p in honest)
        assert table_text(honest).split("\n")[2] in out  # the honest rows, untouched


def test_the_whole_folder_refuses_every_forgery_and_keeps_the_honest() -> None:
    room = merge([HERE / "honest", HERE / "forged"])
    honest = merge([HERE / "honest"]).pupils
    assert all(p in room.pupils for p in honest)  # no forgery drops an honest result
    assert [p.name for p in room.pupils if p not in honest] == ["bea"]  # shown beside, and
    assert sum("different results" in r.line() for r in room.refusals) == 2  # both reported
    for name, words in EXPECTED.items():
        assert any(words in r.line() and name in r.line() for r in room.refusals), name
    for r in room.refusals:
        assert "\n" not in r.line() and "\x1b" not in r.line()


def test_only_names_on_the_class_list_count(tmp_path: Path) -> None:
    """`quiz results --class-list FILE` (issue 24): a made-up name with every answer right is
    reported and not counted; the listed pupils are."""
    listing = tmp_path / "class.txt"
    listing.write_text("# class 4B\nAda\n\nbea\n", encoding="utf-8")
    qs = quiz.for_code("lead-5-42")
    made_up = page_submission(qs, [([{"picked": list(q.answer)} for q in qs], [1.0] * 5)], "Zed", "lead-5-42")
    (tmp_path / "zed.txt").write_text(made_up.code(), encoding="utf-8")
    rc, out, err = run("quiz", "results", str(HERE / "honest"), str(tmp_path / "zed.txt"), "--class-list", str(listing))
    assert rc == 2 and "Ada" in out and "Bea" in out and "Zed" not in out
    (line,) = err.splitlines()
    assert "Zed" in line and "not on the class list" in line
    rc, out, err = run("quiz", "results", str(HERE / "honest"), "--class-list", str(tmp_path / "none.txt"))
    assert rc == 2 and err.startswith("error: --class-list") and err.count("\n") == 1


def test_a_foreign_class_code_is_refused_when_the_class_is_named(tmp_path: Path) -> None:
    qs = quiz.for_code("follow-3-1")
    other = page_submission(qs, [([{"picked": [qs[0].answer[0]]}], [1.0])], "Una", "follow-3-1")
    (tmp_path / "una.txt").write_text(other.code(), encoding="utf-8")
    rc, out, err = run(
        "quiz", "results", str(HERE / "honest"), str(tmp_path), "--code", "Lead-5-42"
    )
    assert rc == 2 and "Una: class code follow-3-1 is not this class's (lead-5-42)" in err
    assert "Ada" in out
    rc, _, err = run("quiz", "results", str(tmp_path), "--code", "lead-5")
    assert rc == 2 and err.startswith("error: --code:") and err.count("\n") == 1


def test_a_later_export_of_the_same_page_counts_once(tmp_path: Path) -> None:
    qs = quiz.for_code("lead-5-42")
    first = [{"picked": [q.answer[0]]} if not q.multi else {"picked": list(q.answer)} for q in qs]
    early = page_submission(qs, [(first[:2], [1.0, 2.0])], "Vic", "lead-5-42")
    late = page_submission(
        qs, [(first, [1.0, 2.0, 3, 4, 5]), (first, [1.0] * 5)], "Vic", "lead-5-42"
    )
    (tmp_path / "a.txt").write_text(early.code() + "\n" + late.code() + "\n", encoding="utf-8")
    room = merge([tmp_path])
    assert room.refusals == () and len(room.pupils) == 1
    assert len(room.pupils[0].attempts) == 2


def test_huge_files_fifos_devices_and_folders_are_refused_before_reading(tmp_path: Path) -> None:
    huge = tmp_path / "huge.csv"
    with huge.open("w", encoding="utf-8") as f:
        f.write("name,class_code,attempt,question,question_id,answer_given,seconds,correct\n")
        f.write(("x" * 99 + "\n") * (MAX_BYTES // 100 + 10))
    fifo = tmp_path / "pipe.csv"
    os.mkfifo(fifo)
    # no writer: opening it would block forever
    inner = tmp_path / "inner.csv"
    inner.mkdir()
    for target, words in (
        (huge, "larger than the limit"),
        (fifo, "not a file"),
        (Path("/dev/zero"), "not a file"),
    ):
        rc, out, err = run("quiz", "results", str(target))
        assert rc == 2 and out == "", err
        assert words in err and err.count("\n") == 1, err
    # a folder inside a folder is not read as a file
    rc, _, err = run("quiz", "results", str(tmp_path))
    assert "inner.csv" in err and "directory" in err
    # a long path is cut at its start: the file's name, at its end, is still said
    deep = tmp_path.joinpath(*["a-long-folder-name"] * 8)
    deep.mkdir(parents=True)
    os.mkfifo(deep / "pipe-deep.csv")
    rc, _, err = run("quiz", "results", str(deep / "pipe-deep.csv"))
    assert rc == 2 and "…" in err and "pipe-deep.csv" in err and err.count("\n") == 1, err


def test_too_many_files_are_refused(tmp_path: Path) -> None:
    from loo_lessons.quiz import classroom

    rc, _, err = run(
        "quiz", "results", *[str(tmp_path / f"{i}.csv") for i in range(classroom.MAX_FILES + 1)]
    )
    assert rc == 2 and "more than" in err and err.count("\n") == 1


def test_the_csv_written_has_no_formula_cells() -> None:
    r = PupilResult("@Zed", "lead-5-42", ())
    text = table_csv([r])
    assert text.splitlines()[0].startswith("name,")
    # a name can only get here through the Python API: still neutralised
    from loo_lessons.quiz.classroom import PupilAttempt, cell

    row = table_csv([PupilResult("-2+3", "lead-5-42", (PupilAttempt(1, (True,), (1.0,)),))])
    assert row.splitlines()[1].startswith("'-2+3,")
    assert cell("=1+1") == "'=1+1" and cell("Ada") == "Ada" and cell(3) == 3
    assert cell("a\x1b[2Jb\nc") == "a\ufffd[2Jb c"


def test_the_lessons_facade_warns_of_each_refusal() -> None:
    with pytest.warns(UserWarning, match="different results"):
        frame = L.quiz_results(str(HERE / "honest"), str(HERE / "forged" / "bea_forged.txt"))
    assert list(frame["name"]) == ["Ada", "Bea", "Bea", "bea"]  # the honest Bea's two attempts kept
    assert len(frame.attrs["refused"]) == 2
    assert list(frame.attrs["rules"].columns) == ["rule_id", "missed", "answered", "rule", "book"]
    clean = L.quiz_results(str(HERE / "honest"), code="lead-5-42")
    assert list(clean["attempt"]) == [1, 1, 2] and clean.attrs["refused"] == []


def test_answer_records_round_trip_and_regroup() -> None:
    sub = from_code((HERE / "honest" / "bea.txt").read_text(encoding="utf-8").splitlines()[1])
    records = sub.records()
    assert len(records) == 10 and {r.attempt for r in records} == {1, 2}
    for r in records:
        assert AnswerRecord.from_json(json.loads(json.dumps(r.to_json()))) == r
    (back,) = from_records(records)
    assert back == sub
    g = grade(Found(back, "hub"))
    assert isinstance(g, PupilResult) and [a.right for a in g.attempts] == [0, 5]


@pytest.mark.parametrize(
    "bad",
    [
        {},
        {"class_code": "lead-5-42"},
        {
            "class_code": "lead-5-42",
            "question_id": "q",
            "answer": "AH",
            "seconds": 1,
            "attempt": 1,
            "pupil": "A",
        },
        {
            "class_code": "lead-5-42",
            "question_id": "q",
            "answer": ["AH"],
            "seconds": -1,
            "attempt": 1,
            "pupil": "A",
        },
        {
            "class_code": "lead-5-42",
            "question_id": "q",
            "answer": ["AH"],
            "seconds": 1,
            "attempt": 0,
            "pupil": "A",
        },
        {
            "class_code": "lead-5-42",
            "question_id": "q",
            "answer": ["A;H"],
            "seconds": 1,
            "attempt": 1,
            "pupil": "A",
        },
        {
            "class_code": "lead-5-42",
            "question_id": "q",
            "answer": ["AH"],
            "seconds": 1,
            "attempt": 1,
            "pupil": "=A",
        },
        {
            "class_code": "lead-5-42",
            "question_id": "q",
            "answer": ["AH"],
            "seconds": 1,
            "attempt": 1,
            "pupil": "A",
            "x": 1,
        },
    ],
)
def test_a_bad_answer_record_is_one_line(bad: dict[str, object]) -> None:
    with pytest.raises(ValueError) as e:
        AnswerRecord.from_json(bad)
    assert "\n" not in str(e.value)


@settings(max_examples=150, deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
        lambda c: (
            st.lists(c, max_size=4) | st.dictionaries(st.sampled_from("ncqtaks"), c, max_size=5)
        ),
        max_leaves=20,
    )
)
def test_any_result_json_is_read_or_refused_in_one_line(body: object) -> None:
    try:
        sub = submission_from_json(body, "code")
    except ValueError as e:
        assert "\n" not in str(e)
        return
    assert isinstance(sub, Submission)
    g = grade(Found(sub, "code"))
    if isinstance(g, PupilResult):
        assert all(len(a.marks) == len(quiz.for_code(g.class_code)) for a in g.attempts)
    else:
        assert "\n" not in g.line()


@settings(max_examples=100, deadline=None)
@given(cells=st.lists(st.text(max_size=12), max_size=10), tail=st.text(max_size=120))
def test_any_results_csv_is_read_or_refused_in_one_line(
    cells: list[str], tail: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    f = tmp_path_factory.mktemp("r") / "r.csv"
    head = (
        "name,class_code,attempt,question,question_id,answer_given,seconds,correct,topic,rule_ids"
    )
    f.write_text(head + "\n" + ",".join(cells) + "\n" + tail, encoding="utf-8", errors="replace")
    try:
        items = read(f)
    except ValueError as e:
        assert "\n" not in str(e)
        return
    for item in items:
        if isinstance(item, Found):
            g = grade(item)
            line = g.line() if not isinstance(g, PupilResult) else g.name
        else:
            line = item.line()
        assert "\n" not in line and "\x1b" not in line


def test_codes_and_bytes_are_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from loo_lessons.quiz import classroom

    for code in ("lead-1-1", "lead-1-2"):
        (q,) = quiz.for_code(code)
        sub = page_submission([q], [([{"picked": list(q.answer[:1])}], [1.0])], f"P{code}", code)
        (tmp_path / f"{code}.txt").write_text(sub.code(), encoding="utf-8")
    monkeypatch.setattr(classroom, "MAX_CODES", 1)
    room = merge([tmp_path])
    assert len(room.pupils) == 1 and "more than 1 class codes" in room.refusals[0].line()
    monkeypatch.setattr(
        classroom, "MAX_TOTAL_BYTES", 2 * (tmp_path / "lead-1-1.txt").stat().st_size - 1
    )
    rc, out, err = run("quiz", "results", str(tmp_path))
    assert rc == 2 and out == "" and "in all" in err and err.count("\n") == 1
