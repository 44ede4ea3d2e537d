"""The quiz and pick components as a class uses them, in Chromium: pick questions graded only
on "Check", focus kept on the controls, a class code dealing the same questions on two pages,
a pupil's export merged by `loo-lessons quiz results`, and the printed sheet with its key."""

from __future__ import annotations

import io
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

from _browser import open_page
from playwright.sync_api import Browser, Page

from loo_lessons import quiz
from loo_lessons.cli import main
from loo_lessons.quiz.classroom import merge
from loo_lessons.quiz.results import from_code
from loo_lessons.widgets import static
from loo_lessons.widgets.controllers.pick import pick_reduce
from loo_lessons.widgets.live import PickCard


def run(*argv: str) -> tuple[int, str]:
    buf = io.StringIO()
    with redirect_stdout(buf):
        rc = main(list(argv))
    return rc, buf.getvalue()


def focused(page: Page) -> str | None:
    got: str | None = page.evaluate(
        "() => document.activeElement && document.activeElement.getAttribute('data-focus')"
    )
    return got


def model(page: Page, key: str, i: int = 0) -> Any:
    return page.evaluate(f"() => window.looLessons[{i}].model.get({key!r})")


def multi_question() -> dict[str, Any]:
    """A "select every card" question with some cards allowed and some not."""
    for q in quiz.generate("lead", 20, 11):
        if q.multi and 1 < len(q.answer) < len(q.choices):
            return q.to_json()
    raise AssertionError("no multi question")


def test_pick_with_several_answers_grades_only_on_check(browser: Browser, tmp_path: Path) -> None:
    q = multi_question()
    pick = PickCard(q)
    path = tmp_path / "p.html"
    path.write_text(static.page("Pick", pick.static_html()), encoding="utf-8")
    page, w = open_page(browser, path)
    right, missed = q["answer"][0], q["answer"][1]
    wrong = next(c["key"] for c in q["choices"] if c["key"] not in q["answer"])
    choice = page.locator(f'.loo-choices [data-key="{right}"]')
    choice.click()
    # a click selects: nothing is graded, no verdict, no answer
    assert choice.get_attribute("aria-pressed") == "true"
    assert page.locator(".loo-answer, .loo-verdict").count() == 0
    page.locator(f'.loo-choices [data-key="{wrong}"]').click()
    page.locator(f'.loo-choices [data-key="{wrong}"]').click()  # and deselects
    check = page.locator('button[data-action="check"]')
    check.focus()
    page.keyboard.press("Enter")
    assert page.locator(".loo-answer").is_visible()
    assert "loo-missed" in (
        page.locator(f'.loo-choices [data-key="{missed}"]').get_attribute("class") or ""
    )
    assert "loo-right" in (choice.get_attribute("class") or "")
    assert focused(page) == "pick-ctl"  # focus stays on the control slot ("Start again")
    # the Python mirror agrees, event by event
    st: dict[str, Any] = {"picked": [], "current": None, "revealed": False}
    for ev in (
        {"type": "choice", "key": right},
        {"type": "choice", "key": wrong},
        {"type": "choice", "key": wrong},
        {"type": "check"},
    ):
        st = pick_reduce(q, st, ev)
    assert {k: model(page, k) for k in st} == st
    page.locator('button[data-action="reset"]').click()
    page.locator('button[data-action="show"]').click()
    assert focused(page) == "pick-show" and page.locator(".loo-answer").is_visible()
    assert not w.errors and not w.external


def test_a_class_code_gives_the_same_questions_on_two_pages(
    browser: Browser, tmp_path: Path
) -> None:
    rc, _ = run(
        "quiz",
        "--topic",
        "follow",
        "--count",
        "8",
        "--seed",
        "42",
        "--html",
        str(tmp_path / "a.html"),
    )
    assert rc == 0
    (tmp_path / "b.html").write_text(
        static.quiz_page(quiz.for_code("follow-8-42"), class_code="follow-8-42"), encoding="utf-8"
    )
    want = [q.id for q in quiz.for_code("follow-5-42")]
    # in the URL ...
    a, wa = open_page(browser, tmp_path / "a.html")
    a.goto((tmp_path / "a.html").as_uri() + "#class=follow-5-42")
    a.reload()
    a.wait_for_selector(".loo")
    assert [q["id"] for q in model(a, "questions")] == want
    # ... or typed
    b, wb = open_page(browser, tmp_path / "b.html")
    b.locator("[data-class-code]").fill("Follow-5-42")
    b.locator('button[data-action="class-code"]').click()
    assert [q["id"] for q in model(b, "questions")] == want
    # a code the page does not hold says so, in one line, and keeps the questions
    b.locator("[data-class-code]").fill("lead-5-7")
    b.locator("[data-class-code]").press("Enter")
    assert "does not hold" in b.get_by_role("alert").inner_text()
    assert [q["id"] for q in model(b, "questions")] == want
    assert not wa.errors and not wb.errors and not wa.external and not wb.external


def answer_page(page: Page, n: int) -> list[bool | None]:
    """Answer every question: right, wrong, then skip one; return what each should score."""
    qs = model(page, "questions")
    expected: list[bool | None] = []
    for i in range(n):
        q = qs[i]
        if i % 3 == 2:
            page.locator('button[data-action="next"]').click()
            expected.append(None)
            continue
        keys = (
            list(q["answer"])
            if i % 3 == 0
            else [next(c["key"] for c in q["choices"] if c["key"] not in q["answer"])]
        )
        for k in keys:
            page.locator(f'.loo-choices [data-key="{k}"]').first.click()
        if q["multi"]:
            page.locator('button[data-action="check"]').click()
            assert focused(page) == "primary"  # the Next button took Check's place
        expected.append(i % 3 == 0)
        page.locator('button[data-action="next"]').click()
    return expected


def test_a_pupils_export_round_trips_through_quiz_results(browser: Browser, tmp_path: Path) -> None:
    out = tmp_path / "lead.html"
    rc, said = run("quiz", "--code", "lead-5-42", "--html", str(out))
    assert rc == 0 and "lead-5-42" in said
    page, w = open_page(browser, out)
    page.locator("[data-pupil-name]").fill('Ada, "the" pupil')
    expected = answer_page(page, 5)
    assert page.locator(".loo-sendback").is_visible()
    with page.expect_download() as dl:
        page.locator('button[data-action="export-csv"]').click()
    folder = tmp_path / "class"
    folder.mkdir()
    csv_path = folder / "ada.csv"
    dl.value.save_as(csv_path)
    page.locator('button[data-action="export-code"]').click()
    code = page.locator("[data-result-code]").input_value()
    assert code.startswith("loo2.")
    room = merge([csv_path])
    assert room.refusals == ()
    (got,) = room.pupils
    assert got.name == 'Ada, "the" pupil' and got.class_code == "lead-5-42"
    assert list(got.first.marks) == expected  # graded again by the engine, as the page did
    # seconds are recorded for every answer, blank only where nothing was answered
    assert all((s is not None and s >= 0) == (e is not None) for s, e in zip(got.first.seconds, expected, strict=True))
    # the pasted code carries the same answers (keys, not positions) and seconds
    pasted = from_code(code)
    ids = [q.id for q in quiz.for_code("lead-5-42")]
    assert list(pasted.question_ids) == ids and pasted.pupil == got.name
    assert [r.question_id for r in pasted.records()] == [
        i for i, e in zip(ids, expected, strict=True) if e is not None
    ]
    # "Start again": a second attempt, the first kept
    page.locator('button[data-action="restart"]').click()
    answer_all_right(page, 5)
    page.locator('button[data-action="export-code"]').click()
    again = from_code(page.locator("[data-result-code]").input_value())
    assert [a.number for a in again.attempts] == [1, 2]
    assert again.attempts[0] == pasted.attempts[0]
    (folder / "codes.txt").write_text(f"From Ada:\n{again.code()}\nthanks\n", encoding="utf-8")
    rc, table = run("quiz", "results", str(folder), "--csv")
    assert rc == 0
    lines = table.strip().splitlines()
    assert lines[0] == "name,class_code,attempt,right,answered,questions,seconds,q1,q2,q3,q4,q5"
    marks = ",".join("" if e is None else str(int(e)) for e in expected)
    right = sum(1 for e in expected if e)
    answered = sum(1 for e in expected if e is not None)
    # the CSV and the later code are one pupil (the code holds the CSV's attempt): one row each
    assert len(lines) == 3
    assert lines[1].startswith(f'"Ada, ""the"" pupil",lead-5-42,1,{right},{answered},5,')
    assert lines[1].endswith(marks)
    assert lines[2].startswith('"Ada, ""the"" pupil",lead-5-42,2,5,5,5,')
    assert not w.errors and not w.external


def answer_all_right(page: Page, n: int) -> None:
    qs = model(page, "questions")
    for i in range(n):
        q = qs[i]
        for k in q["answer"] if q["multi"] else q["answer"][:1]:
            page.locator(f'.loo-choices [data-key="{k}"]').first.click()
        if q["multi"]:
            page.locator('button[data-action="check"]').click()
        page.locator('button[data-action="next"]').click()


def test_print_preview_shows_every_question_and_the_key(browser: Browser, tmp_path: Path) -> None:
    teacher, pupil = tmp_path / "t.html", tmp_path / "p.html"
    assert (
        run(
            "quiz",
            "--topic",
            "trick",
            "--count",
            "7",
            "--seed",
            "3",
            "--html",
            str(teacher),
            "--key",
        )[0]
        == 0
    )
    assert (
        run("quiz", "--topic", "trick", "--count", "7", "--seed", "3", "--html", str(pupil))[0] == 0
    )
    page, w = open_page(browser, teacher)
    assert not page.locator(".loo-print").is_visible()  # on screen: one question at a time
    page.emulate_media(media="print")
    qs = page.locator("[data-print-question]")
    assert qs.count() == 7 and all(qs.nth(i).is_visible() for i in range(7))
    assert page.locator(".loo-print svg").count() > 0  # the cards are kept
    assert page.locator(".loo-quiz-screen").is_hidden()
    assert all(not b.is_visible() for b in page.locator("button").all())  # buttons dropped
    key = page.locator("[data-print-key]")
    assert key.is_visible()
    items = key.locator("li")
    assert items.count() == 7
    first = quiz.generate("trick", 7, 3)[0]
    assert first.rule_ids[0] in items.nth(0).inner_text()
    sheet, w2 = open_page(browser, pupil)
    sheet.emulate_media(media="print")
    assert sheet.locator("[data-print-question]").count() == 7
    assert sheet.locator("[data-print-key]").count() == 0  # the pupils' copy has no key
    assert not w.errors and not w2.errors


def test_missed_declarations_are_marked_and_focus_stays(browser: Browser, tmp_path: Path) -> None:
    """A several-answer declaration question: the right answers not selected are marked
    missed (dashed, with words), and "Show the answer" leaves focus on the controls."""
    qs = [
        q
        for q in quiz.generate("declare", 20, 4)
        if q.multi and len(q.answer) >= 2 and q.kind == "pick_declaration"
    ][:2]
    assert len(qs) == 2
    path = tmp_path / "d.html"
    path.write_text(static.quiz_page(qs, "d"), encoding="utf-8")
    page, w = open_page(browser, path)
    first, missed = qs[0].answer[0], qs[0].answer[1]
    page.locator(f'.loo-choices [data-key="{first}"]').click()
    page.locator('button[data-action="check"]').click()
    m = page.locator(f'.loo-choices [data-key="{missed}"]')
    assert "loo-missed" in (m.get_attribute("class") or "") and "missed" in m.inner_text()
    assert m.evaluate("e => getComputedStyle(e).borderTopStyle") == "dashed"
    assert "You missed" in page.locator(".loo-feedback").inner_text()
    page.locator('button[data-action="next"]').click()
    show = page.locator('button[data-action="show"]')
    show.focus()
    page.keyboard.press("Enter")
    assert focused(page) == "show"  # "Next question" took the place of the pressed button
    assert page.locator(".loo-feedback").is_visible()
    assert "loo-missed" not in (page.locator(".loo-choices").inner_html())  # nothing was missed
    page.keyboard.press("Enter")  # and Enter goes on from there
    assert page.locator(".loo-prompt", has_text="Finished").is_visible()
    assert not w.errors and not w.external


def test_with_a_kernel_a_code_not_on_the_page_asks_python(browser: Browser, tmp_path: Path) -> None:
    """In JupyterLab (a live model, not the static stand-in) a code the page does not hold
    is sent to Python as `class_request` (QuizRunner.use_code deals it)."""
    path = tmp_path / "k.html"
    path.write_text(
        static.quiz_page(quiz.for_code("deal-2-1"), class_code="deal-2-1"), encoding="utf-8"
    )
    page, w = open_page(browser, path)
    page.evaluate(
        """() => { const m = window.looLessons[0].model; m.set('static_page', false);
                   m.set('data', {...m.get('data'), live: true}); }"""
    )
    page.locator("[data-class-code]").fill("must-4-9")
    page.locator('button[data-action="class-code"]').click()
    assert model(page, "class_request") == "must-4-9"
    assert page.get_by_role("alert").count() == 0
    # a code the page holds is dealt on the page, without asking
    page.evaluate("() => window.looLessons[0].model.set('class_request', '')")
    page.locator("[data-class-code]").fill("deal-1-1")
    page.locator('button[data-action="class-code"]').click()
    assert model(page, "class_request") == ""
    assert [q["id"] for q in model(page, "questions")] == ["deal-1-0"]
    assert not w.errors


def test_a_verdict_shows_the_quote_in_words_never_the_seed_markup(
    browser: Browser, tmp_path: Path
) -> None:
    """A loo verdict quotes Hoffmann's 'looed, _i.e._ mulcted': the page shows the quote's
    `words` (italics marks rendered away), while the JSON keeps the verbatim `quote`."""
    found = next(
        (q, k)
        for q in quiz.generate("pool", 30, 1)
        for k, v in q.to_json()["verdicts"].items()
        if "_i.e._" in v["quote"] and k in q.answer
    )
    q, key = found
    path = tmp_path / "q.html"
    path.write_text(static.quiz_page([q]), encoding="utf-8")
    page, w = open_page(browser, path)
    page.locator(f'.loo-choices [data-key="{key}"]').first.click()
    shown = page.locator(".loo-verdict blockquote.loo-quote").first.inner_text()
    assert "i.e. mulcted" in shown and "_" not in shown
    assert not w.errors and not w.external
