"""A teacher's tools around the quiz: class codes, pupils' results merged into one table, the
quiz command's limits, and pick questions graded only on "Check" (the Python side; the
browser side is tests/test_quiz_browser.py)."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from loo_lessons import lessons as L
from loo_lessons import quiz
from loo_lessons.cli import main
from loo_lessons.quiz import class_code
from loo_lessons.quiz.results import EXPORT_COLUMNS, Attempt, Submission, check_name, from_code
from loo_lessons.widgets import static
from loo_lessons.widgets.controllers.pick import pick_reduce
from loo_lessons.widgets.live import PickCard, default_generator


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        rc = main(list(argv))
    return rc, out.getvalue(), err.getvalue()


# --- class codes -----------------------------------------------------------------------------


@given(
    topic=st.sampled_from(class_code.CODE_TOPICS),
    count=st.integers(1, class_code.MAX_COUNT),
    seed=st.integers(0, class_code.MAX_SEED),
)
def test_a_class_code_round_trips(topic: str, count: int, seed: int) -> None:
    text = class_code.format(topic=topic, count=count, seed=seed)
    assert text == f"{topic}-{count}-{seed}"
    c = class_code.parse(f"  {text.upper()} ")
    assert (c.topic, c.count, c.seed) == (topic, count, seed)
    assert class_code.format(c) == text and str(c) == text
    assert class_code.url_fragment(c) == f"#class={text}"


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "lead",
        "lead-10",
        "lead-0-4",
        "lead-10-x",
        "cards-10-4",
        "lead-501-1",
        "lead-10-1234567",
        "lead_10_42",
        "lead-10-42-1",
        "-10-42",
        "lead--10-42",
    ],
)
def test_a_bad_class_code_is_one_line(bad: str) -> None:
    with pytest.raises(ValueError) as e:
        class_code.parse(bad)
    assert str(e.value).startswith("class code:") and "\n" not in str(e.value)


@settings(max_examples=200)
@given(st.text(max_size=30))
def test_any_text_is_a_code_or_a_value_error(text: str) -> None:
    try:
        c = class_code.parse(text)
    except ValueError:
        return
    assert class_code.parse(class_code.format(c)) == c


def test_a_code_deals_what_generate_deals() -> None:
    ten = quiz.for_code("lead-10-42")
    assert [q.to_json() for q in ten] == [q.to_json() for q in quiz.generate("lead", 10, 42)]
    # a smaller count is the same questions cut short: one bank serves every count
    assert [q.id for q in quiz.for_code("lead-4-42")] == [q.id for q in ten[:4]]
    mixed = quiz.for_code(class_code.parse("mixed-11-3"))
    # every topic in turn from topic 3 % 9, each topic's questions its own quiz's, in order
    assert [q.topic for q in mixed] == [quiz.TOPICS[(3 + i) % 9] for i in range(11)]
    for t in quiz.TOPICS:
        mine = [q.to_json() for q in mixed if q.topic == t]
        assert mine == [q.to_json() for q in quiz.generate(t, len(mine), 3)]
    assert [q.id for q in default_generator()(None, 3, 11, None)] == [q.id for q in mixed]
    assert len({q.topic for q in mixed}) == len(quiz.TOPICS)


def test_the_quiz_page_holds_its_codes_bank() -> None:
    qs = quiz.for_code("pool-3-8")
    text = static.quiz_page(qs, class_code="pool-3-8", print_key=False)
    assert "#class=pool-3-8" in text and "pool-3-8" in text
    (state_,) = static.embedded_states(text)
    data = state_["data"]
    assert data["class_code"] == "pool-3-8" and data["print_key"] is False
    assert data["banks"] == {}  # its own questions are its code's bank, not embedded twice
    assert [q["id"] for q in state_["questions"]] == [q.id for q in qs]
    more = static.quiz_page(qs, class_code="pool-3-8", banks={"pool-9": quiz.for_code("pool-2-9")})
    assert "pool-9" in static.embedded_states(more)[0]["data"]["banks"]
    with pytest.raises(ValueError):
        static.quiz_page(qs, class_code="pool-3")
    assert static.bank_key("Pool-3-8") == "pool-8"


# --- results: answers, not marks (more in test_quiz_results_forged.py) ---------------------------

answer_st = st.one_of(
    st.none(),
    st.lists(st.sampled_from(["AH", "KH", "stand", "10C"]), min_size=1, max_size=3, unique=True),
)


@given(name=st.text(max_size=30), data=st.data())
def test_a_result_code_round_trips(name: str, data: st.DataObject) -> None:
    try:
        name = check_name(name, "name")
    except ValueError as e:  # control characters, a leading formula sign
        assert "\n" not in str(e)
        return
    n = data.draw(st.integers(1, 12))
    attempts = tuple(
        Attempt(
            i + 1,
            tuple(
                None if a is None else tuple(a)
                for a in data.draw(st.lists(answer_st, min_size=n, max_size=n))
            ),
            tuple(
                data.draw(
                    st.lists(st.one_of(st.none(), st.floats(0, 9999)), min_size=n, max_size=n)
                )
            ),
        )
        for i in range(data.draw(st.integers(1, 3)))
    )
    sub = Submission(name, "lead-10-42", tuple(f"lead-42-{i}" for i in range(n)), attempts)
    assert from_code(sub.code()) == sub
    assert len(sub.records()) == sum(a is not None for t in attempts for a in t.answers)


@settings(max_examples=200)
@given(st.text(max_size=200))
def test_a_damaged_result_code_is_a_value_error(text: str) -> None:
    try:
        from_code("loo2." + text)
    except ValueError as e:
        assert "\n" not in str(e)


def write_csv(path: Path, name: str, code: str, answers: list[str], seconds: list[str]) -> None:
    lines = [",".join(EXPORT_COLUMNS)]
    qs = quiz.for_code(code)
    for i, (a, s) in enumerate(zip(answers, seconds, strict=True)):
        lines.append(f'"{name}",{code},1,{i + 1},{qs[i].id},{a},{s},,,')
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def right_wrong(code: str) -> tuple[list[str], list[str]]:
    """Per question of the code, a right and a wrong answer (keys joined with ;)."""
    good, bad = [], []
    for q in quiz.for_code(code):
        good.append(";".join(q.answer if q.multi else q.answer[:1]))
        others = [c.key for c in q.choices if c.key not in q.answer]
        bad.append(others[0] if others else ";".join(q.answer[:-1]))
    return good, bad


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("name,class_code\nAda,lead-3-42\n", "missing columns"),
        (
            "name,class_code,question,topic,question_id,rule_ids,answer_given,correct,seconds\nA,lead-3-42,1,,,,,yes,\n",
            "marks, not answers",
        ),
        (",".join(EXPORT_COLUMNS) + "\nAda,lead-3-42,1,x,lead-42-0,AH,1,,,\n", "question"),
        (",".join(EXPORT_COLUMNS) + "\nAda,lead-3-42,1,1,lead-42-0,AH,1,maybe,,\n", "correct"),
        (",".join(EXPORT_COLUMNS) + "\nAda,lead-3-42,1,1,lead-42-0,AH,soon,,,\n", "seconds"),
        (",".join(EXPORT_COLUMNS) + "\nAda,nope,1,1,lead-42-0,AH,1,,,\n", "not a class code"),
        ("hello\nno codes here\n", "neither"),
        ("loo2.!!!!\n", "damaged"),
    ],
)
def test_a_bad_results_file_is_one_line(tmp_path: Path, content: str, words: str) -> None:
    f = tmp_path / "r.csv"
    f.write_text(content, encoding="utf-8")
    rc, out, err = run("quiz", "results", str(f))
    assert rc == 2 and out == "" and err.count("\n") == 1, err
    assert words in err and "r.csv" in err


def test_quiz_results_command(tmp_path: Path) -> None:
    good, bad = right_wrong("lead-2-42")
    write_csv(tmp_path / "ada.csv", "Ada", "lead-2-42", [good[0], bad[1]], ["3", "4"])
    rc, out, err = run("quiz", "results", str(tmp_path / "ada.csv"))
    assert rc == 0 and err == ""
    head, row = out.splitlines()[1:3]
    assert head.split() == [
        "name",
        "class_code",
        "attempt",
        "right",
        "answered",
        "questions",
        "seconds",
        "q1",
        "q2",
    ]
    assert row.split() == ["Ada", "lead-2-42", "1", "1", "2", "2", "7.0", "1", "0"]
    rc, out, _ = run("quiz", "results", str(tmp_path / "ada.csv"), "--csv")
    assert out.splitlines()[1] == "Ada,lead-2-42,1,1,2,2,7.0,1,0"
    frame = L.quiz_results(str(tmp_path))
    assert list(frame["right"]) == [1]
    (tmp_path / "empty").mkdir()
    for missing in (tmp_path / "none.csv", tmp_path / "empty"):
        rc, out, err = run("quiz", "results", str(missing))
        assert rc == 2 and err.count("\n") == 1


# --- the quiz command's limits ------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["--topic", "lead", "--count", "501"],
        ["--topic", "lead", "--count", "-1"],
        ["--topic", "lead", "--html", "/no/such/folder/q.html"],
        ["--topic", "lead", "--html", "."],
        ["--code", "lead-ten-42"],
        ["--code", "lead-3-42", "--topic", "lead"],
        ["--count", "3"],
    ],
)
def test_the_quiz_command_refuses_in_one_line(argv: list[str]) -> None:
    rc, out, err = run("quiz", *argv)
    assert rc == 2 and out == "" and err.startswith("error: ") and err.count("\n") == 1, err


def test_quiz_html_with_a_code_and_a_key(tmp_path: Path) -> None:
    page = tmp_path / "q.html"
    rc, out, _ = run("quiz", "--code", "must-4-9", "--html", str(page), "--key")
    assert rc == 0 and "class code must-4-9" in out
    text = static.decoded_html(page.read_text(encoding="utf-8"))
    assert '"print_key":true' in text and "teacher&#x27;s copy" in text
    rc, out, _ = run("quiz", "--topic", "must", "--count", "4", "--seed", "9", "--json")
    assert [q["id"] for q in json.loads(out)["questions"]] == [
        q.id for q in quiz.for_code("must-4-9")
    ]


# --- pick: several answers are graded only on Check ------------------------------------------


def test_a_pick_with_several_answers_grades_only_on_check() -> None:
    q = next(
        q.to_json()
        for q in quiz.generate("lead", 20, 11)
        if q.multi and 1 < len(q.answer) < len(q.choices)
    )
    w = PickCard(q)
    right, missed = q["answer"][0], q["answer"][1]
    w.click(right)
    assert (w.picked, w.current, w.revealed) == ([right], None, False)
    w.click(right)  # a second click deselects
    assert w.picked == []
    w.check()  # nothing selected: nothing to grade
    assert not w.revealed
    w.click(right)
    w.check()
    assert w.revealed and w.picked == [right]
    w.click(missed)  # after Check a click explains, never changes the selection
    assert w.picked == [right] and w.current == missed
    # a one-answer question too: the first click reveals nothing, Check grades (issue 15)
    one = next(q.to_json() for q in quiz.generate("trick", 20, 1) if not q.multi)
    key = one["choices"][0]["key"]
    st0 = pick_reduce(one, {}, {"type": "choice", "key": key})
    assert st0 == {"picked": [key], "current": None, "revealed": False}
    assert pick_reduce(one, st0, {"type": "check"})["revealed"] is True


def test_a_live_quiz_deals_any_class_code() -> None:
    from loo_lessons.widgets.live import QuizRunner

    r = QuizRunner("lead", seed=5, count=6)
    assert r.data["class_code"] == "lead-6-5"
    assert "class_code" not in QuizRunner(questions=quiz.generate("lead", 2, 1)).data
    assert "class_code" not in QuizRunner("lead", seed=5, count=6, preset="peel").data
    assert QuizRunner(None, seed=2, count=3).data["class_code"] == "mixed-3-2"
    r.click(r.questions[0]["choices"][0]["key"])
    r.class_request = "Follow-3-2"  # what the browser sends for a code its page does not hold
    assert [q["id"] for q in r.questions] == [q.id for q in quiz.for_code("follow-3-2")]
    assert r.data["class_code"] == "follow-3-2" and r.class_request == ""
    assert r.responses == [None] * 3 and r.index == 0
    r.new_questions()  # "New questions": the next seed, and its code
    assert r.data["class_code"] == "follow-3-3"
    assert [q["id"] for q in r.questions] == [q.id for q in quiz.for_code("follow-3-3")]
    r.use_code("follow-three")
    assert r.data["error"].startswith("class code:") and len(r.questions) == 3
