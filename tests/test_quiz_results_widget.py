"""A live quiz keeps a teacher's record: one row per first answer, saved as CSV."""

from __future__ import annotations

from pathlib import Path

from loo_lessons.views.frames import quiz_results_csv
from loo_lessons.widgets.live import QuizRunner


def _answer(q: QuizRunner, keys: list[str]) -> None:
    for k in keys:
        q.click(k)
    if q.question is not None and q.question["multi"]:
        q.check()


def test_results_frame_records_answers_in_order(tmp_path: Path) -> None:
    quiz = QuizRunner("follow", seed=3, count=3)
    first = quiz.question
    assert first is not None
    _answer(quiz, list(first["answer"]) if first["multi"] else [first["answer"][0]])
    quiz.next()
    second = quiz.question
    assert second is not None
    wrong = [c["key"] for c in second["choices"] if c["key"] not in second["answer"]]
    if wrong:
        _answer(quiz, wrong[:1])
    df = quiz.results()
    assert list(df.columns) == [
        "topic",
        "question_id",
        "rule_ids",
        "answer_given",
        "correct",
        "seconds",
    ]
    assert df.iloc[0]["question_id"] == first["id"] and bool(df.iloc[0]["correct"]) is True
    assert set(df.iloc[0]["rule_ids"].split(";")) == set(first["rule_ids"])
    if wrong:
        assert len(df) == 2 and bool(df.iloc[1]["correct"]) is False
    assert (df["seconds"] >= 0).all()
    # answering the same question again (inspecting another choice) adds no row
    quiz.click(second["choices"][0]["key"])
    assert len(quiz.results()) == len(df)
    path = tmp_path / "class.csv"
    df.to_csv(path, index=False)
    back = quiz_results_csv(path)
    assert list(back["question_id"]) == list(df["question_id"])
