"""Nothing answered before it is asked (issue 23.3), read from the lessons' notebooks.

For every `L.pick(...)` the markdown after it, up to the next thing to do, names none of the
answer's cards (as 7♥ or "seven of hearts") and not the rule that decides it; for every
`L.task(...)`, none of the cards the learner is dealt. The answers come from the engine, never
from the lesson: the lesson's own words on the answer belong in the call's `after=`.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from loo_lessons import lessons as L
from loo_lessons.engine.cards import Card
from loo_lessons.lessons.picks import pick_def
from loo_lessons.lessons.tasks import task_named

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
#: The calls that give the learner something to do: the prose after a pick or task ends there.
DOING = {"pick", "task", "explore", "explore_declarations", "stepper", "pool", "quiz", "play"}
SUITS = {"C": ("♣", "clubs"), "D": ("♦", "diamonds"), "H": ("♥", "hearts"), "S": ("♠", "spades")}
RANKS = {
    "A": ("ace",), "K": ("king",), "Q": ("queen",), "J": ("jack", "knave"), "10": ("ten",),
    "9": ("nine",), "8": ("eight",), "7": ("seven",), "6": ("six",), "5": ("five",),
    "4": ("four",), "3": ("three",), "2": ("two",),
}  # fmt: skip


def card_names(code: str) -> list[str]:
    """The ways prose names a card: 7♥, "seven of hearts"."""
    rank, suit = code[:-1], code[-1]
    symbol, word = SUITS[suit]
    return [f"{rank}{symbol}"] + [f"{r} of {word}" for r in RANKS[rank]]


def said(prose: str, code: str) -> str | None:
    for name in card_names(code):
        # 10♥ is not 0♥; "ace of spades" not "grace of spadesmen"
        if re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", prose, re.I):
            return name
    return None


def _calls(source: str) -> list[ast.Call]:
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
    ]


def _literal(node: ast.expr) -> Any:
    return ast.literal_eval(node)


def answer_of(call: ast.Call) -> tuple[list[str], list[str]] | None:
    """The cards and rule ids that answer `call` (a pick or a task), from the engine; None when
    its position is not written in the call (a variable: the test of that lesson shows it)."""
    assert isinstance(call.func, ast.Attribute)
    try:
        args = [_literal(a) for a in call.args]
        {k.arg: _literal(k.value) for k in call.keywords if k.arg}
    except ValueError:
        return None
    if call.func.attr == "pick":
        found = pick_def(args[0]) if isinstance(args[0], str) else None
        position = found.position if found is not None else args[0]
        if position is None:
            return None
        verdict = L.verdict(position)
        legal = [str(x) for x in verdict["legal"]]
        cards = [c for c in legal if re.fullmatch(r"(?:10|[2-9JQKA])[CDHS]", c)]
        return cards, [str(verdict["why"]["rule_id"])]
    t = task_named(args[0])  # the task's deal is kept with its lesson (lessons.tasks)
    hand = L.deal(t.seed, players=t.players, dealer=t.dealer, rules=t.rules, must=t.must)
    held: Iterable[Card] = hand.held[t.seat]
    return [c.code for c in held], []


def _label(call: ast.Call) -> str:
    """The call's title, or the name of its position: how a fault is named."""
    for k in call.keywords:
        if k.arg == "title" and isinstance(k.value, ast.Constant):
            return repr(k.value.value)
    first = call.args[0] if call.args else None
    if isinstance(first, ast.Constant) and "\n" not in str(first.value):
        return repr(first.value)
    return f"at line {call.lineno}"


def told_too_soon(cells: list[tuple[str, str]]) -> list[str]:
    """Each place where the markdown after a pick or task names its answer."""
    faults = []
    for i, (kind, src) in enumerate(cells):
        if kind != "code":
            continue
        for call in _calls(src):
            assert isinstance(call.func, ast.Attribute)
            if call.func.attr not in ("pick", "task"):
                continue
            answer = answer_of(call)
            if answer is None:
                continue
            cards, rules = answer
            prose = []
            for kind2, src2 in cells[i + 1 :]:
                if (
                    kind2 == "code"
                    and {c.func.attr for c in _calls(src2) if isinstance(c.func, ast.Attribute)}
                    & DOING
                ):
                    break
                if kind2 == "markdown":
                    prose.append(src2)
            # what the page shows before the learner acts: not what is folded (a closed <details>)
            text = re.sub(r"<details.*?</details>", "", "\n".join(prose), flags=re.S)
            label = f"{call.func.attr} {_label(call)}"
            for code in cards:
                if (name := said(text, code)) is not None:
                    faults.append(f"{label}: the prose after it names {name}")
            for rule in rules:
                if re.search(rf"\b{rule}\b", text):
                    faults.append(f"{label}: the prose after it cites {rule}")
    return faults


def cells_of(text: str) -> list[tuple[str, str]]:
    return [(c["cell_type"], "".join(c["source"])) for c in json.loads(text)["cells"]]


def test_card_names() -> None:
    assert card_names("10H") == ["10♥", "ten of hearts"]
    assert said("lead the Ace of Spades now", "AS") == "ace of spades"
    assert said("the 10♥ and the J♣", "10H") == "10♥"
    assert not said("the 10♥", "AH") and not said("the K♥s", "KS")


@pytest.mark.parametrize("nb", NOTEBOOKS, ids=lambda p: p.stem)
def test_no_answer_in_the_prose_after_a_pick_or_task(nb: Path) -> None:
    faults = told_too_soon(cells_of(nb.read_text(encoding="utf-8")))
    assert faults == [], faults


#: Lesson 5 as it stood before issue 23 (commit a13d3a3): its answer printed under its task.
OLD_LESSON_5 = [
    ("code", 'L.task("leading-ace-deal-89", 89, asks=["lead"], title="Deal 89: you are the elder hand. Lead.")'),
    ("markdown", "Your first lead had to be the ace of spades (R23). It was your only trump, so once "
     "it had won, nothing tied your next lead.\n\n## Two or more trumps: lead one, or lead the highest"),
    ("code", 'L.task("leading-deal-26", 26, asks=["declare", "lead"], title="Deal 26: Declare and lead.")'),
]  # fmt: skip


def test_the_check_finds_the_old_lesson_5s_answer_printed_under_its_task() -> None:
    faults = told_too_soon(OLD_LESSON_5)
    assert faults and all("ace of spades" in f for f in faults), faults
    # and it is the prose that is caught: the same lesson with that sentence in `after=` passes
    moved = [OLD_LESSON_5[0], ("markdown", "## Two or more trumps"), OLD_LESSON_5[2]]
    assert told_too_soon(moved) == []


def test_a_pick_followed_by_its_rule_is_caught() -> None:
    cells = [
        ("code", 'L.pick("lead-ace-of-trumps")'),
        ("markdown", f"Lead it: {L.verdict('lead-ace-of-trumps')['why']['rule_id']} binds you."),
    ]
    assert told_too_soon(cells), cells
