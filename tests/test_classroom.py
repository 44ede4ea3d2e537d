"""The class hub's pieces without a hub: the class list, the answer record and its grading
by the engine, the answers' store, the teacher's page and CSV, and `post` outside a hub."""

from __future__ import annotations

import ast
import json
import os
import re
import stat
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from loo_lessons import regular_file
from loo_lessons.classroom import pupils
from loo_lessons.classroom.answers import AnswerError, AnswerRecord, check, from_body
from loo_lessons.classroom.store import Store
from loo_lessons.cli import main
from loo_lessons.quiz import post
from loo_lessons.quiz.classroom import (
    Found,
    PupilResult,
    from_records,
    grade,
    questions_of,
    table,
    table_csv,
)

CODE = "lead-4-11"


def test_each_name_opens_with_its_own_password_only(tmp_path: Path) -> None:
    path = tmp_path / "class-list"
    issued = pupils.add_pupils(path, ["ann", "bob"])
    assert set(issued) == {"ann", "bob"} and issued["ann"] != issued["bob"]
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert issued["ann"] not in path.read_text()  # only hashes are kept
    assert pupils.check(path, "ann", issued["ann"])
    assert not pupils.check(path, "bob", issued["ann"])
    assert not pupils.check(path, "ann", issued["ann"] + "x")
    assert not pupils.check(path, "cat", issued["ann"])
    assert not pupils.check(path, "ann", None)
    again = pupils.add_pupils(path, ["ann"])  # a new password replaces the old one
    assert pupils.check(path, "ann", again["ann"]) and not pupils.check(path, "ann", issued["ann"])
    assert pupils.check(path, "bob", issued["bob"])


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("ann\n", "line 1: not NAME scrypt"),
        ("Root scrypt$1\n", "line 1: pupil name 'Root'"),
        ("ann scrypt$a\nann scrypt$b\n", "line 2: ann is listed twice"),
        ("x" * (pupils.MAX_BYTES + 1), "larger than"),
    ],
)
def test_a_file_that_is_not_a_class_list_is_refused_in_one_line(
    tmp_path: Path, text: str, problem: str
) -> None:
    path = tmp_path / "class-list"
    path.write_text(text)
    with pytest.raises(pupils.ClassListError, match=problem):
        pupils.read(path)
    assert not pupils.check(path, "ann", "whatever-password")


def test_an_account_of_the_machine_is_never_made_a_pupil(tmp_path: Path) -> None:
    with pytest.raises(pupils.ClassListError, match="root: already an account of this machine"):
        pupils.add_pupils(tmp_path / "class-list", ["ann", "root"])
    assert not (tmp_path / "class-list").exists()  # nothing written


def test_add_pupils_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "class-list"
    assert main(["class", "add-pupils", str(path), "ann", "bob"]) == 0
    lines = capsys.readouterr().out.split("\n")
    name, password = lines[0].split()
    assert name == "ann" and pupils.check(path, "ann", password)
    assert main(["class", "add-pupils", str(path), "../etc"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "pupil name '../etc'" in err


@given(st.text(max_size=30))
@settings(max_examples=200, deadline=None)
def test_a_name_is_a_safe_unix_user_name_or_refused(name: str) -> None:
    try:
        pupils.check_name(name)
    except pupils.ClassListError as e:
        assert "\n" not in str(e)
    else:
        assert name[0].isascii() and name[0].isalpha() and name == name.lower()
        assert all(c.isascii() and (c.isalnum() or c in "-_") for c in name)


def record(i: int, keys: list[str] | None = None, **more: object) -> dict[str, object]:
    q = questions_of(CODE)[i]
    return {
        "class_code": CODE,
        "question_id": q.id,
        "answer": keys or list(q.answer),
        "seconds": None,
        "attempt": 1,
        **more,
    }


def checked(data: object, pupil: str = "ann") -> AnswerRecord:
    record = AnswerRecord.from_json(data)
    return check(replace(record, pupil=pupil))


def test_an_answer_is_checked_against_the_class_code() -> None:
    r = checked({**record(0, seconds=3.5), "class_code": " LEAD-4-11 "})
    assert (r.class_code, r.seconds, r.pupil) == (CODE, 3.5, "ann")


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        ([], "object"),
        ({**record(0), "correct": True}, "unknown fields correct"),
        ({**record(0), "class_code": "lead-4"}, "not a class code"),
        ({**record(0), "question_id": "lead-11-9"}, "deals no question"),
        ({**record(0), "answer": ["=1+1"]}, "not one of its choices"),
        ({**record(0), "seconds": -1}, "seconds"),
        ({**record(0), "seconds": float("nan")}, "seconds"),
        ({**record(0), "attempt": 0}, "attempt"),
        ({**record(0), "attempt": True}, "attempt"),
        ({**record(0), "pupil": 7}, "name"),
    ],
)
def test_what_the_code_cannot_have_produced_is_refused(data: object, problem: str) -> None:
    with pytest.raises(ValueError, match=problem) as e:
        checked(data)
    assert "\n" not in str(e.value)


@given(
    st.dictionaries(
        st.sampled_from(["class_code", "question_id", "answer", "seconds", "attempt", "x"]),
        st.none() | st.booleans() | st.integers() | st.floats() | st.text() | st.lists(st.text()),
    )
)
@settings(max_examples=200, deadline=None)
def test_hostile_records_are_refused_never_crash(data: dict[str, object]) -> None:
    try:
        r = checked(data)
    except ValueError as e:
        assert "\n" not in str(e)
    else:
        assert r.class_code and r.pupil == "ann"


def test_the_dashboard_is_the_offline_table_of_the_same_answers() -> None:
    store = Store(":memory:")
    q = questions_of(CODE)
    wrong0 = next(c.key for c in q[0].choices if c.key not in q[0].answer)
    posted = [
        checked(record(0, [wrong0], seconds=2), "ann"),
        checked(record(1), "ann"),
        checked(record(0, attempt=2), "ann"),  # "Start again": a second attempt
        checked(record(0), "bob"),
    ]
    for r in posted:
        store.add(r)
    results = store.results(CODE)
    assert [p.name for p in results.pupils] == ["ann", "bob"] and not results.refusals
    ann = results.pupils[0]
    assert [(a.number, a.right, a.answered) for a in ann.attempts] == [(1, 1, 2), (2, 1, 1)]
    assert [p.name for p in store.results(CODE, pupil="bob").pupils] == ["bob"]
    # the same answers read the offline way give the same table
    offline = [grade(Found(s, "offline")) for s in from_records(posted)]
    graded = sorted((r for r in offline if isinstance(r, PupilResult)), key=lambda r: r.name)
    assert len(graded) == 2
    assert table_csv(results.pupils) == table_csv(graded)


def _body(data: object) -> bytes:
    return json.dumps(data).encode()


def test_an_answer_is_final_and_no_post_can_hide_earlier_rows() -> None:
    """Issue 24: a second answer to the same question of the same attempt is refused (409,
    one line), an attempt that is not the pupil's next (3 after 1, or absurd) is refused
    (409/400) and stores nothing, and a new attempt is a row beside the first."""
    store = Store(":memory:")
    q = questions_of(CODE)
    wrong0 = next(c.key for c in q[0].choices if c.key not in q[0].answer)
    for i in range(len(q)):
        store.add(from_body(_body(record(i, [wrong0] if i == 0 else None)), "ann"))
    before = store.records(CODE)
    refused = [
        (record(0), 409, "final once posted"),  # Q1 again, now right: not counted
        (record(1, attempt=3), 409, "next attempt at lead-4-11 is 2"),
        (record(1, attempt=10**6), 400, "attempt"),
        ({**record(1), "pupil": "bob"}, 403, "only their own"),
    ]
    for data, status, words in refused:
        with pytest.raises(AnswerError) as e:
            store.add(from_body(_body(data), "ann"))
        assert e.value.status == status and words in str(e.value) and "\n" not in str(e.value)
    assert store.records(CODE) == before  # nothing stored
    store.add(from_body(_body(record(0, attempt=2)), "ann"))  # "Start again": the next attempt
    results = store.results(CODE)
    assert not results.refusals
    (ann,) = results.pupils
    assert [(a.number, a.right, a.answered) for a in ann.attempts] == [(1, len(q) - 1, len(q)), (2, 1, 1)]
    _, rows = table(results.pupils)
    assert [r["attempt"] for r in rows] == [1, 2]  # shown beside each other on the grid and CSV


def test_a_body_nested_thousands_deep_is_a_400_and_stores_nothing() -> None:
    store = Store(":memory:")
    for body in (b"[" * 5000 + b"]" * 5000, b'{"a":' * 5000 + b"1" + b"}" * 5000, b"x" * 20_000, b"\xff"):
        with pytest.raises(AnswerError) as e:
            store.add(from_body(body, "ann"))
        assert e.value.status in (400, 413) and "\n" not in str(e.value)
    assert store.records(CODE) == []


def test_every_name_is_escaped_on_the_teachers_page() -> None:
    from loo_lessons.classroom.service import dashboard_html

    store = Store(":memory:")
    hostile = '<script>alert("x")</script>'
    store.add(checked(record(0), hostile))
    results = store.results(CODE)
    page = dashboard_html(results, "csv?code=" + CODE)
    assert hostile not in page and "&lt;script&gt;" in page
    assert results.pupils[0].name == hostile


def test_post_does_nothing_outside_a_hub_and_never_raises(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(post.URL_VARIABLE, raising=False)
    monkeypatch.delenv("JUPYTERHUB_API_TOKEN", raising=False)
    assert not post.under_hub()
    assert post.send(record(0)) == 0
    post.answer(record(0))  # nothing to do, nothing raised
    # under a hub whose service is gone: 0, never an exception into the widget
    monkeypatch.setenv(post.URL_VARIABLE, "http://127.0.0.1:9/services/class-results/")
    monkeypatch.setenv("JUPYTERHUB_API_TOKEN", "t")
    assert post.under_hub() and post.send(record(0)) == 0
    assert post.send({"not": object()}) == 0  # not JSON: still no exception


@pytest.mark.parametrize(
    ("argv", "problem"),
    [
        (["--pupils", "0"], "--pupils"),
        (["--pupils", "41"], "--pupils"),
        (["--timeout", "0"], "--timeout"),
    ],
)
def test_the_benchmark_is_bounded(
    argv: list[str], problem: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from loo_lessons.classroom import bench

    assert bench.main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {problem}") and err.count("\n") == 1


@pytest.mark.parametrize("module", [post, pupils])
def test_what_a_kernel_or_the_command_line_imports_is_the_standard_library(
    module: object,
) -> None:
    """`post` runs in every pupil's kernel (and the book's worker), `pupils` in a bare
    install's `loo-lessons class`: neither may pull in JupyterHub or the engine."""
    tree = ast.parse(Path(str(getattr(module, "__file__", ""))).read_text())
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            names.append(node.module or "")
    # the project's own stdlib-only helpers are allowed, checked the same way
    outside = [n for n in names if n.split(".")[0] not in sys.stdlib_module_names and n not in STDLIB_ONLY]
    assert outside == []


#: Modules of this package that import only the standard library (so others above may use them).
STDLIB_ONLY = ("loo_lessons.regular_file",)


def test_the_shared_file_reader_imports_only_the_standard_library() -> None:
    test_what_a_kernel_or_the_command_line_imports_is_the_standard_library(regular_file)


def test_a_class_list_that_is_a_fifo_is_refused_at_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Opening a FIFO waits for a writer; the class list is read as every file is (no waiting)."""
    fifo = tmp_path / "class-list"
    os.mkfifo(fifo)
    assert main(["class", "add-pupils", str(fifo), "ann"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "pipe" in err
    with pytest.raises(pupils.ClassListError, match="directory"):
        pupils.read(tmp_path)


def test_a_class_quiz_posts_each_answer_as_the_hub_pupil(monkeypatch: pytest.MonkeyPatch) -> None:
    """Under the hub, the quiz controller (both back ends' one path) posts each first answer
    with the pupil's token; "Start again" is the next attempt; every record is one the
    service accepts. A quiz without a class code posts nothing."""
    import json
    import threading
    import time
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    from loo_lessons.widgets.controllers.quiz import QuizController

    got: list[tuple[str, dict[str, object]]] = []

    class Catch(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            n = int(self.headers.get("Content-Length", "0"))
            got.append((self.headers.get("Authorization", ""), json.loads(self.rfile.read(n))))
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Catch)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        monkeypatch.setenv(post.URL_VARIABLE, f"http://127.0.0.1:{server.server_address[1]}/")
        monkeypatch.setenv("JUPYTERHUB_API_TOKEN", "pupil-token")

        def answer(c: QuizController) -> None:
            q = c.question
            assert q is not None
            c.click(str(q["answer"][0]))
            if c.responses[c.index] is None:
                c.check()

        c = QuizController("lead", seed=5, count=3)
        code = c.data["class_code"]
        answer(c)
        c.next()
        answer(c)
        c.restart()
        answer(c)
        answer(QuizController("lead", seed=5, count=3, preset="peel"))  # no class code: no post
        deadline = time.monotonic() + 20
        while len(got) < 3 and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.2)
    finally:
        server.shutdown()
    assert [a for a, _ in got] == ["token pupil-token"] * 3
    records = [r for _, r in got]
    assert sorted(int(str(r["attempt"])) for r in records) == [1, 1, 2]  # posts race: no order
    assert {r["class_code"] for r in records} == {code}
    ids = [q.id for q in questions_of(str(code))]
    assert sorted((str(r["question_id"]), str(r["attempt"])) for r in records) == sorted(
        [(ids[0], "1"), (ids[1], "1"), (ids[0], "2")]
    )
    for r in records:
        assert checked(r).class_code == code  # what the service stores for this pupil


def test_the_quiz_shows_the_services_refusal_of_a_second_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 24: the cell run again, Q1 answered again: the service answers 409 and the quiz
    says so in one line (pushed at once by the kernel's widget through `on_change`)."""
    from loo_lessons.widgets.controllers.quiz import QuizController

    line = "409: lead-5-0 is answered already in attempt 1: an answer is final once posted"
    monkeypatch.setattr(post, "under_hub", lambda: True)
    monkeypatch.setattr(post, "reply", lambda record: (409, line))

    class Now:  # the post's thread, run at once
        def __init__(self, target: Any, daemon: bool) -> None:
            self.target = target

        def start(self) -> None:
            self.target()

    monkeypatch.setattr("loo_lessons.quiz.post.threading.Thread", Now)
    c = QuizController("lead", seed=5, count=3)
    pushed: list[bool] = []
    c.on_change = lambda: pushed.append(True)
    q = c.question
    assert q is not None
    c.click(str(q["answer"][0]))
    if c.responses[c.index] is None:
        c.check()
    assert line in c.data["error"] and "\n" not in c.data["error"] and pushed == [True]


def test_the_teachers_page_hands_the_class_a_practice_link_for_the_rules_it_missed_most(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from loo_lessons.classroom.service import dashboard_html
    from loo_lessons.quiz.classroom import table_text

    q0, q1 = questions_of(CODE)[0], questions_of(CODE)[1]
    wrong = [next(c.key for c in q0.choices if c.key not in q0.answer)]
    store = Store(":memory:")
    store.add(checked(record(1), "ann"))
    # every answer right: nothing to practise, no link
    assert "practice.html" not in dashboard_html(store.results(CODE), "csv", book_url="")
    store.add(checked(record(0, wrong), "ann"))
    store.add(checked(record(0, wrong), "bob"))
    missed = [r for r in q0.rule_ids if r not in q1.rule_ids] or list(q0.rule_ids)
    page = dashboard_html(store.results(CODE), "csv", book_url="https://school.example/loo/")
    link = re.search(r'href="(https://school\.example/loo/book/practice\.html#practice=([R0-9,]+))"', page)
    assert link is not None, page
    named = link.group(2).split(",")
    # the rules the class missed most, first: every one the wrong question tests, none only
    # the right one tests
    assert set(missed[:3]) <= set(named) <= set(q0.rule_ids) and len(named) <= 3
    # no address known: the page's address from the book's root; never another scheme's
    monkeypatch.setenv("LOO_BOOK_URL", "javascript:alert(1)")
    page = dashboard_html(store.results(CODE), "csv")
    assert 'href="book/practice.html#practice=' + link.group(2) + '"' in page and "javascript" not in page
    # the offline merge's table says the same link
    assert "book/practice.html#practice=" + link.group(2) in table_text(store.results(CODE).pupils)
