"""Writes this folder's forged and honest results (run it again if the questions of class
code lead-5-42 ever change): `python tests/forged_results/make_forged.py`.

honest/ holds what two pupils' pages export (Ada's CSV, Bea's result code with two attempts);
forged/ holds one forged or mutated result per file, and expected.json the words of the line
that refuses each. tests/test_quiz_results_forged.py reads them."""

from __future__ import annotations

import base64
import csv
import io
import json
from pathlib import Path
from typing import Any

from loo_lessons import quiz
from loo_lessons.quiz.results import EXPORT_COLUMNS, Submission, page_submission

HERE = Path(__file__).resolve().parent
CODE = "lead-5-42"


def right(q: quiz.Question) -> dict[str, Any]:
    return {"picked": list(q.answer) if q.multi else [q.answer[0]]}


def wrong(q: quiz.Question) -> dict[str, Any]:
    others = [c.key for c in q.choices if c.key not in q.answer]
    return {"picked": others[:1] if others else list(q.answer[:-1])}


def csv_text(rows: list[dict[str, Any]]) -> str:
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=list(EXPORT_COLUMNS), lineterminator="\r\n")
    w.writeheader()
    w.writerows(rows)
    return buf.getvalue()


def raw_code(body: dict[str, Any]) -> str:
    raw = json.dumps(body, separators=(",", ":")).encode()
    return "loo2." + base64.urlsafe_b64encode(raw).decode().rstrip("=")


def honest() -> tuple[Submission, Submission]:
    qs = quiz.for_code(CODE)
    ada = page_submission(
        qs,
        [([right(qs[0]), wrong(qs[1]), None, right(qs[3]), right(qs[4])], [3.5, 8, 0, 4, 2.5])],
        "Ada",
        CODE,
    )
    bea = page_submission(
        qs,
        [
            ([wrong(q) for q in qs], [2.0] * 5),
            ([right(q) for q in qs], [5.0, 4, 3, 2, 1]),
        ],
        "Bea",
        CODE,
    )
    return ada, bea


def main() -> None:
    qs = quiz.for_code(CODE)
    ada, bea = honest()
    (HERE / "honest").mkdir(exist_ok=True)
    (HERE / "honest" / "ada.csv").write_text(csv_text(ada.csv_rows(qs)), encoding="utf-8")
    (HERE / "honest" / "bea.txt").write_text(f"From Bea:\n{bea.code()}\n", encoding="utf-8")
    out = HERE / "forged"
    out.mkdir(exist_ok=True)
    expected: dict[str, str] = {}

    def put(name: str, text: str, words: str) -> None:
        (out / name).write_text(text, encoding="utf-8")
        expected[name] = words

    # wrong marks: a wrong answer marked "yes" in the CSV
    rows = ada.csv_rows(qs)
    rows[1]["correct"] = "yes"
    put("wrong_marks.csv", csv_text([{**r, "name": "Cy"} for r in rows]), "wrong marks")
    # marks only: the old result code (40 marks on a 10-question code)
    old = {"n": "Dee", "c": "lead-10-42", "r": "1" * 40, "s": [None] * 40}
    put("marks_only.txt", "loo1." + raw_code(old)[5:] + "\n", "marks, not answers")
    # a foreign code: questions of lead-5-42 under another code
    body = ada.to_json()
    put(
        "foreign_code.txt",
        raw_code({**body, "n": "Eve", "c": "lead-5-43"}) + "\n",
        "is not lead-5-43's question",
    )
    put("malformed_code.txt", raw_code({**body, "n": "Fay", "c": "lead-5"}) + "\n", "malformed")
    # an answer not among the question's choices
    t = json.loads(json.dumps(body["t"]))
    t[0]["k"][0] = "ZZ"
    put("not_a_choice.txt", raw_code({**body, "n": "Gus", "t": t}) + "\n", "not one of its choices")
    # more answers than questions
    more = {**body, "n": "Hal", "q": [*body["q"], "lead-42-5"]}
    more["t"] = [{"a": 1, "k": [*body["t"][0]["k"], "AH"], "s": [*body["t"][0]["s"], 1]}]
    put("more_answers.txt", raw_code(more) + "\n", "more answers than questions")
    # one question answered twice in one attempt
    rows = [{**r, "name": "Ivy"} for r in ada.csv_rows(qs)]
    put(
        "duplicate_rows.csv",
        csv_text([*rows, {**rows[1], "answer_given": rows[0]["answer_given"]}]),
        "given twice",
    )
    # impersonation: a 0/5 posted in Bea's name beside her real result
    fake = page_submission(qs, [([wrong(q) for q in qs], [1.0] * 5)], "bea", CODE)
    put("bea_forged.txt", fake.code() + "\n", "different results")
    # two results without a name
    one = page_submission(qs, [([right(q) for q in qs], [1.0] * 5)], "", CODE)
    two = page_submission(qs, [([wrong(q) for q in qs], [1.0] * 5)], " ", CODE)
    put("nameless.txt", f"{one.code()}\n{two.code()}\n", "without a name")
    # escape codes and a line break in a name; a formula for a name
    rows = [{**r, "name": "\x1b[2J\x1b[HMallory\nAda,lead-5-42,1,5,5,5"} for r in ada.csv_rows(qs)]
    put("escape_codes.csv", csv_text(rows), "control characters")
    rows = [{**r, "name": '=HYPERLINK("http://x","Ned")'} for r in ada.csv_rows(qs)]
    put("formula_cell.csv", csv_text(rows), "formula")
    # attempts renumbered (a re-take passed off as a first attempt)
    t2 = bea.to_json()
    put(
        "attempt_skipped.txt",
        raw_code({**t2, "n": "Ola", "t": t2["t"][1:]}) + "\n",
        "numbers them 1, 2",
    )
    (HERE / "expected.json").write_text(json.dumps(expected, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
