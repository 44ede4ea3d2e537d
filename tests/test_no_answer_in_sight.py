"""Issue 34: no answer in sight before the learner acts, JupyterLab opens ready, and the lessons'
prose says what the widgets under it show.

- The words said after a pick are kept with its definition (`lessons/picks.py`), never in a cell:
  no cell passes `after=` to a pick, and no cell, heading or markdown holds those words or the
  engine's explanation of the answer.
- A component's state travels in the page encoded: the answer's words are not in the page's HTML
  before a click (the built book's pages are read in `test_built_pages_hold_no_answer`).
- Every lesson opens in JupyterLab with one line saying how to start, and its code collapsed.
- A figure in the prose (a pool of 9, two looed, 300 hands) is the widget's own.
- No learner-facing string names a source by its file number ("seed 004").
"""

from __future__ import annotations

import ast
import html
import json
import re
from pathlib import Path
from typing import Any

import pytest

from loo_lessons import lessons as L
from loo_lessons.lessons.picks import PICKS
from loo_lessons.quiz.pick import pick_question
from loo_lessons.views.prose import plain, prose
from loo_lessons.widgets.static import decoded_html, embedded_states

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
SITE = ROOT / "book" / "_build" / "html"


def _cells(nb: Path) -> list[dict[str, Any]]:
    cells: list[dict[str, Any]] = json.loads(nb.read_text(encoding="utf-8"))["cells"]
    return cells


def _src(cell: dict[str, Any]) -> str:
    return "".join(cell["source"])


def _calls(source: str, name: str) -> list[ast.Call]:
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    return [
        n
        for n in ast.walk(tree)
        if isinstance(n, ast.Call)
        and isinstance(n.func, ast.Attribute)
        and isinstance(n.func.value, ast.Name)
        and n.func.value.id == "L"
        and n.func.attr == name
    ]


def _sentences(text: str) -> list[str]:
    """The longer clauses of an answer's words (what a copy of it would repeat)."""
    return [s.strip() for s in re.split(r"[.:;!?]\s", text) if len(s.strip()) >= 25]


def answer_texts() -> dict[str, list[str]]:
    """Each lesson pick's answer words: the lesson's own (its `after`), clause by clause, and the
    engine's sentences naming what is allowed ("Only K♠ is allowed (R24)"). The rules' own
    sentences are not answers: a fold of the books' words may hold them."""
    out: dict[str, list[str]] = {}
    for name, d in PICKS.items():
        words = _sentences(plain(prose(d.after))) if d.after else []
        if d.position is not None:
            q = pick_question(L.scenario(d.position), prompt=d.prompt)
            words += re.findall(r"[^.:]*? (?:is|are) allowed \(R\d\d\)", str(q["explanation"]))
        out[name] = [w.strip() for w in words if w.strip()]
    return out


def test_the_scan_finds_an_answer_copied_into_a_cell() -> None:
    said = answer_texts()["05-king-when-ace-turned"]
    assert said and any(s in "x. " + said[0] + " y" for s in said)


@pytest.mark.parametrize("nb", NOTEBOOKS, ids=lambda p: p.stem)
def test_no_cell_or_heading_holds_a_picks_answer(nb: Path) -> None:
    answers = answer_texts()
    faults = []
    for i, cell in enumerate(_cells(nb)):
        text = " ".join(_src(cell).split())
        for call in _calls(_src(cell), "pick"):
            if any(k.arg == "after" for k in call.keywords):
                faults.append(f"cell {i}: a pick's words after Check written in the cell")
        for name, said in answers.items():
            for s in said:
                if " ".join(s.split()) in text:
                    faults.append(f"cell {i}: holds the answer of pick {name}: {s!r}")
        for line in _src(cell).splitlines():
            if cell["cell_type"] == "markdown" and line.startswith("#"):
                for name, said in answers.items():
                    if any(s.lower() in line.lower() for s in said):
                        faults.append(f"cell {i}: the heading {line!r} answers pick {name}")
    assert faults == [], faults


def test_every_lesson_pick_is_asked_by_its_id_and_its_words_fit_the_engine() -> None:
    """Each pick kept in the package is asked by one lesson, and the words it says after Check
    name a rule the engine's verdicts on that position cite (or the lesson's own variants)."""
    asked = set()
    for nb in NOTEBOOKS:
        for cell in _cells(nb):
            for call in _calls(_src(cell), "pick"):
                for a in call.args[:1]:
                    if isinstance(a, ast.Constant) and a.value in PICKS:
                        asked.add(a.value)
                for k in call.keywords:
                    if k.arg == "words" and isinstance(k.value, ast.Constant):
                        asked.add(str(k.value.value))
    assert asked == set(PICKS)
    for name, d in PICKS.items():
        if d.position is None or d.after is None:
            continue
        q = pick_question(L.scenario(d.position))
        cited = set(re.findall(r"\bR\d\d\b", d.after))
        assert cited & set(q["rule_ids"]) or not cited, (name, cited, q["rule_ids"])


def test_a_pick_component_state_is_not_readable_in_the_page() -> None:
    p = L.pick("10-must-trump")
    page = p.book_html()
    assert "five of spades" not in page and "R36" not in page and "heads the trick" not in page
    (state,) = [s for s in embedded_states(page) if "data" in s]
    assert "Only the five of spades" in json.dumps(state, ensure_ascii=False)
    assert "R36" in decoded_html(page)


# --- JupyterLab opens ready ------------------------------------------------------------------------


@pytest.mark.parametrize("nb", NOTEBOOKS, ids=lambda p: p.stem)
def test_a_lesson_opens_with_how_to_start_and_its_code_collapsed(nb: Path) -> None:
    cells = _cells(nb)
    first = cells[0]
    assert first["cell_type"] == "markdown" and "Run All Cells" in _src(first)
    assert len(_src(first).strip().splitlines()) == 1  # one line
    assert "remove-cell" in first["metadata"].get("tags", [])  # the book has no "Run" menu
    for i, cell in enumerate(cells):
        if cell["cell_type"] != "code":
            continue
        shown = "show-input" in cell["metadata"].get("tags", [])  # lesson 11's scenario files
        hidden = cell["metadata"].get("jupyter", {}).get("source_hidden") is True
        assert hidden != shown, f"cell {i}: its code is {'hidden' if hidden else 'shown'}"


def test_make_lessons_says_how_to_start() -> None:
    make = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = make.split("\nlessons:", 1)[1].split("\n\n", 1)[0]
    assert "Run All Cells" in recipe


# --- figures in the prose are the widget's --------------------------------------------------------

NUMBERS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "twelve": 12, "fifteen": 15, "hundred": 100, "thousand": 1000,
}  # fmt: skip


def number(word: str) -> int:
    """'9', '3,000', 'three', 'three thousand', 'three hundred'."""
    w = word.lower().replace(",", "")
    if w.isdigit():
        return int(w)
    total = 1
    parts = w.split()
    total = NUMBERS[parts[0]]
    for p in parts[1:]:
        total *= NUMBERS[p]
    return total


_NUM = r"(\d[\d,]*|(?:one|two|three|four|five|six|seven|eight|nine|ten|twelve|fifteen)(?: (?:hundred|thousand))?)"


def figures(text: str) -> dict[str, set[int]]:
    """The figures a paragraph states: pools, loos and hands."""
    t = " ".join(text.split())
    return {
        "pool": {number(m) for m in re.findall(rf"\bpool of {_NUM}\b", t, re.I)},
        "looed": {number(m) for m in re.findall(rf"\b{_NUM} looed\b", t, re.I)},
        "hands": {number(m) for m in re.findall(rf"\b{_NUM} hands\b", t, re.I)},
    }


def shown(source: str) -> dict[str, set[int]]:
    """The figures of the widgets a code cell makes: a settled position's pool and looed, a
    lab's or simulation's hands."""
    out: dict[str, set[int]] = {"pool": set(), "looed": set(), "hands": set()}
    for name in ("pool", "pick"):
        for call in _calls(source, name):
            if not call.args or not isinstance(call.args[0], ast.Constant):
                continue
            arg = str(call.args[0].value)
            found = PICKS.get(arg)
            sc = L.scenario(found.position if found and found.position else arg)
            if sc.data.get("pool") is not None:
                out["pool"].add(int(sc.data["pool"]))
            if sc.settlement is not None:
                out["looed"].add(len(sc.settlement.looed))
    for name in ("lab", "simulate", "expected_counters", "miss_value", "trick_rates", "session"):
        for call in _calls(source, name):
            for k in call.keywords:
                if k.arg == "hands" and isinstance(k.value, ast.Constant):
                    out["hands"].add(int(str(k.value.value)))
    return out


def test_the_figures_check_catches_lesson_14s_old_prose() -> None:
    said = figures("In unlimited loo a loo costs the whole pool (R46). A pool of 15, three looed: settle it.")
    widget = shown('L.pool("unlimited-loo-equals-the-pool")')
    assert said["pool"] == {15} and widget["pool"] == {9} and said["looed"] == {3} != widget["looed"]
    assert figures("Three thousand hands at a table of five")["hands"] == {3000}
    assert shown("L.lab(hands=300, players=5, seed=1)")["hands"] == {300}


def _paragraphs(text: str) -> list[str]:
    text = re.sub(r"```.*?```", "", text, flags=re.S)  # a terminal's command has its own figures
    text = re.sub(r"</?details[^>]*>|<summary>.*?</summary>", "", text)
    return [p for p in re.split(r"\n\s*\n", text) if p.strip() and not p.lstrip().startswith("#")]


@pytest.mark.parametrize("nb", NOTEBOOKS, ids=lambda p: p.stem)
def test_figures_in_the_prose_are_the_widgets_it_describes(nb: Path) -> None:
    """The pool, loos and hands of the words right above a widget (the last paragraph before its
    cell), and of the first sentence right under it (a fold saying what it counted), are the
    widget's own."""
    cells = _cells(nb)
    faults = []
    for i, cell in enumerate(cells):
        if cell["cell_type"] != "code":
            continue
        widget = shown(_src(cell))
        said: list[tuple[int, str]] = []
        if i and cells[i - 1]["cell_type"] == "markdown" and (above := _paragraphs(_src(cells[i - 1]))):
            said.append((i - 1, above[-1]))
        if i + 1 < len(cells) and cells[i + 1]["cell_type"] == "markdown" and (below := _paragraphs(_src(cells[i + 1]))):
            said.append((i + 1, re.split(r"(?<=[.:])\s", below[0].strip(), maxsplit=1)[0]))
        for where, text in said:
            for kind, values in figures(text).items():
                if values and widget[kind] and not values <= widget[kind]:
                    faults.append(
                        f"cell {where}: the prose says {kind} {sorted(values)}, the widget in cell {i} "
                        f"shows {sorted(widget[kind])}"
                    )
    assert faults == [], faults


# --- sources by their books' names --------------------------------------------------------------

SEED_NUMBER = re.compile(r"\bseeds? (?:text )?00[034]\b", re.I)


def _strings(path: Path) -> list[tuple[int, str]]:
    """A module's string constants, docstrings aside (those are for the code's readers)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = {
        id(n.body[0].value)
        for n in ast.walk(tree)
        if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and n.body
        and isinstance(n.body[0], ast.Expr)
        and isinstance(n.body[0].value, ast.Constant)
    }
    return [
        (n.lineno, n.value)
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs
    ]


def test_no_learner_reads_a_source_by_its_file_number() -> None:
    """A learner reads "Peel, Round Games with Cards", never "seed 004": in the lessons, the
    package's strings (quiz explanations, option and variant words) and the book's pages."""
    faults = []
    for nb in NOTEBOOKS:
        for i, cell in enumerate(_cells(nb)):
            if cell["cell_type"] == "markdown" and SEED_NUMBER.search(_src(cell)):
                faults.append(f"{nb.name} cell {i}")
    for path in sorted((ROOT / "loo_lessons").rglob("*.py")):
        for line, s in _strings(path):
            if SEED_NUMBER.search(s):
                faults.append(f"{path.relative_to(ROOT)}:{line}: {s[:60]!r}")
    for page in sorted((ROOT / "book").glob("*.md")):
        if SEED_NUMBER.search(page.read_text(encoding="utf-8")):
            faults.append(str(page.relative_to(ROOT)))
    assert faults == [], faults
    # and lesson 10's quiz explanations say the book's name (they said "Seed 004" 20 times)
    from loo_lessons.quiz import generate

    said = json.dumps([q.to_json() for q in generate("penalty", 40, 10)], ensure_ascii=False)
    assert not SEED_NUMBER.search(said) and "Round Games with Cards" in said


# --- the built book ---------------------------------------------------------------------------------


def test_built_pages_hold_no_answer() -> None:
    """The built lesson pages, before any click: no pick's answer words in their HTML (not in a
    DOM attribute, the embedded state, nor the "Show code" fold)."""
    from _book_site import built_site

    site = built_site()
    answers = answer_texts()
    faults = []
    for page in sorted((site / "notebooks").glob("*.html")):
        text = " ".join(html.unescape(page.read_text(encoding="utf-8")).split())
        for name, said in answers.items():
            for s in said:
                if " ".join(s.split()) in text:
                    faults.append(f"{page.name}: the answer of pick {name}: {s!r}")
    assert faults == [], faults


# --- the prose defects of issue 34, each with the check that would have caught it ----------------


def _markdown(name: str) -> str:
    nb = next(p for p in NOTEBOOKS if p.name.startswith(name))
    return "\n".join(_src(c) for c in _cells(nb) if c["cell_type"] == "markdown")


def test_a_picks_explanation_never_says_one_sentence_twice() -> None:
    """The allowed choice and the refused ones were given the same sentence in 11 of 20 picks:
    now each sentence is said once, and each choice's own line differs by its verdict."""
    for name, d in PICKS.items():
        if d.position is None:
            continue
        q = pick_question(L.scenario(d.position))
        said = [s.strip() for s in re.split(r"(?<=[.])\s", str(q["explanation"])) if s.strip()]
        assert len(said) == len(set(said)), (name, said)
        allowed = {v["reason"] for v in q["verdicts"].values() if v["correct"]}
        refused = {v["reason"] for v in q["verdicts"].values() if not v["correct"]}
        assert not allowed & refused, (name, allowed & refused)


def test_the_dealers_choices_against_a_lone_stander_cite_r17_and_r18() -> None:
    """Lesson 13 put stand and take miss under R18; R17 is the rule that allows them."""
    q = pick_question(L.find("dealer-miss-for-pool", seeds=range(1000)))
    assert "Stand and Take miss are allowed (R17)" in q["explanation"]
    assert "Play the miss for the pool is allowed (R18)" in q["explanation"]
    assert q["verdicts"]["play"]["rule_id"] == "R17" and q["verdicts"]["pass"]["rule_id"] == "R18"


def test_a_declaration_refused_in_the_explorer_is_in_the_games_words() -> None:
    """Lesson 3's instruction led to "declarations.2: seat 2 cannot take miss (take_miss)"."""
    box = L.explore_declarations("declare-declined-miss-goes-round")
    box.declare(1, "take miss")
    box.declare(2, "take miss")
    said = str(box.verdict["verdict_refused"])
    assert said.startswith("Seat 2 cannot take miss") and "R09" in said
    assert "declarations." not in said and not re.search(r"\b[a-z]+_[a-z_]+\b", said), said


def test_lesson_2_defines_a_must_before_its_quiz_asks_about_one() -> None:
    from loo_lessons.quiz import generate

    cells = _cells(next(p for p in NOTEBOOKS if p.name.startswith("02-")))
    quiz_at = next(i for i, c in enumerate(cells) if _calls(_src(c), "quiz"))
    asks = " ".join(q.to_json()["prompt"] for q in generate("deal", 10, 12))
    assert "a must" in asks
    before = " ".join(_src(c) for c in cells[:quiz_at] if c["cell_type"] == "markdown")
    assert "glossary.md#must" in before


def test_lesson_2_says_our_books_are_silent_on_where_the_miss_is_dealt() -> None:
    """Both seeds are silent: the lesson said the two books disagree."""
    prose_ = " ".join(_markdown("02-").split())
    assert "do not quite agree" not in prose_ and "Our two books do not say" in prose_


def test_lesson_10_says_what_a_penalty_costs_and_why_a_single_loo_is_1_or_3() -> None:
    """A single loo is half a full loo, rounded down (at least 1): the lesson says so, with both
    amounts its widgets and quiz charge, before the first settlement with a penalty."""
    from loo_lessons.engine.settle import AGREED_LOO_QUOTE

    text = " ".join(_markdown("10-").split())
    assert AGREED_LOO_QUOTE.text in text and "rounded down" in text
    for loo, single in ((6, 3), (3, 1)):
        assert max(1, loo // 2) == single
        assert re.search(rf"a loo is (?:the stake of )?{loo}\b[^.]*\b{single}\b|a loo is {loo}, so a single loo is {single}", text), (loo, single)


def test_the_evenings_ledger_says_the_dealers_stake() -> None:
    """The settlement said −3 for a looed dealer while the ledger said −6: the stake, unsaid.
    Each seat's change in the ledger is what the deal's lines give and take."""
    from loo_lessons.sim.evening import Evening, setup_of

    ev = Evening(setup_of(21, 5, "hoffmann", 1))
    for _ in range(3):
        while not ev.over:
            ev.decide(ev.hand.legal_actions()[0])
        ev.next_deal()
    before = [ev.setup.bank] * 5
    sign = {"tricks": 1, "loo": -1, "stake": -1}
    for row in ev.ledger(you=1):
        said = [0] * 5
        for line in row["lines"]:
            if line["kind"] in sign and line["seat"] is not None:
                said[line["seat"]] += sign[line["kind"]] * int(line["amount"])
        change = [a - b for a, b in zip(row["balances"], before, strict=True)]
        assert said == change, (row["deal"], said, change)
        before = row["balances"]
        assert any(line["kind"] == "stake" and line["rule_id"] == "R02" for line in row["lines"])
