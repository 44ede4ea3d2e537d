"""Lessons 3–10 read as short steps: an idea, something to do, the engine's feedback (issue 18).

Read from the notebooks themselves, so a lesson rewritten later is held to the same pace:
- never more than `WORDS_BEFORE_DOING` words of prose before the learner has something to do
  (a pick, a task, an explorer, a stepper, a pool to fill in, a quiz);
- at least three play-this-deal tasks (`L.task`) in each lesson, the first in its first half;
- every task named once in the whole book, its cell `L.task("id")` and nothing else (the task's
  definition lives in `lessons.tasks`, the one list `tools/task_seeds.TASKS` reads too), the
  markdown above it naming the registry's deal, its heading no answer;
- each task's seed one in which the task's point comes up when the learner plays as the sensible
  bot would (tests/test_task_runs.py plays every task following the coach and against it).
"""

from __future__ import annotations

import ast
import json
import random
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from loo_lessons.lessons.tasks import TASKS as REGISTRY
from loo_lessons.sim.bots import BOTS, bot_move
from loo_lessons.sim.game import decision_kind
from loo_lessons.widgets.controllers.play import PlayController
from tools.task_seeds import TASKS, played

ROOT = Path(__file__).resolve().parent.parent
STEPPED = sorted(p for p in (ROOT / "notebooks").glob("*.ipynb") if "03" <= p.name[:2] <= "10")

#: The calls that give the learner something to do, and an answer from the engine.
DOING = {"pick", "task", "explore", "explore_declarations", "stepper", "pool", "quiz"}
#: Prose a learner reads, at most, before the next thing to do (about a minute and a half).
WORDS_BEFORE_DOING = 300


@dataclass(frozen=True)
class TaskCall:
    lesson: str
    name: str
    args: dict[str, Any]


def cells(nb: Path) -> list[tuple[str, str]]:
    return [(c["cell_type"], "".join(c["source"])) for c in json.loads(nb.read_text())["cells"]]


def calls(source: str) -> list[ast.Call]:
    return [
        n
        for n in ast.walk(ast.parse(source))
        if isinstance(n, ast.Call)
        and isinstance(n.func, ast.Attribute)
        and isinstance(n.func.value, ast.Name)
        and n.func.value.id == "L"
    ]


def task_calls() -> list[TaskCall]:
    """Every `L.task("id")` in lessons 3–10, with its task's definition (`lessons.tasks`)."""
    out = []
    for nb in STEPPED:
        for kind, src in cells(nb):
            if kind != "code":
                continue
            for c in calls(src):
                assert isinstance(c.func, ast.Attribute)
                if c.func.attr != "task":
                    continue
                assert len(c.args) == 1 and not c.keywords, f"{nb.stem}: L.task takes only the task's id"
                name = ast.literal_eval(c.args[0])
                t = REGISTRY[name]
                args = {
                    "name": name, "seed": t.seed, "asks": t.asks, "players": t.players,
                    "rules": t.rules, "seat": t.seat, "dealer": t.dealer, "must": t.must, "bots": t.bots,
                }
                out.append(TaskCall(nb.stem, name, args))
    return out


TASK_CALLS = task_calls()


def words(markdown: str) -> int:
    return len(re.findall(r"[A-Za-z0-9’'-]+", markdown))


@pytest.mark.parametrize("nb", STEPPED, ids=lambda p: p.stem)
def test_never_a_long_read_before_something_to_do(nb: Path) -> None:
    read, longest, at = 0, 0, ""
    heading = "the start"
    for kind, src in cells(nb):
        if kind == "markdown":
            read += words(src)
            heads = re.findall(r"^#+ (.+)$", src, re.M)
            heading = heads[-1] if heads else heading
        elif {c.func.attr for c in calls(src) if isinstance(c.func, ast.Attribute)} & DOING:
            if read > longest:
                longest, at = read, heading
            read = 0
    assert longest <= WORDS_BEFORE_DOING, (
        f"{nb.stem}: {longest} words to read before the task after “{at}”"
    )


@pytest.mark.parametrize("nb", STEPPED, ids=lambda p: p.stem)
def test_tasks_come_early_and_more_than_once(nb: Path) -> None:
    found = cells(nb)
    total = sum(words(s) for k, s in found if k == "markdown")
    read, first = 0, None
    tasks = 0
    for kind, src in found:
        if kind == "markdown":
            read += words(src)
        elif any(isinstance(c.func, ast.Attribute) and c.func.attr == "task" for c in calls(src)):
            tasks += 1
            first = read if first is None else first
    assert tasks >= 3, f"{nb.stem}: {tasks} play-this-deal task(s)"
    assert first is not None and first <= total / 2, (
        f"{nb.stem}: the first task comes after {first} of {total} words"
    )


def test_every_lesson_task_has_one_name_and_a_seed_entry() -> None:
    names = [t.name for t in TASK_CALLS]
    assert len(names) == len(set(names)), (
        "a task name is used twice (the progress keeps scores by name)"
    )
    assert set(names) == set(TASKS), "tools/task_seeds.TASKS and the lessons' tasks differ"


@pytest.mark.parametrize("t", TASK_CALLS, ids=lambda t: t.name)
def test_the_task_deal_brings_its_point_up(t: TaskCall) -> None:
    w = TASKS[t.name]
    a = t.args
    bots = a["bots"] if isinstance(a["bots"], str) else tuple(a["bots"])
    assert (a["players"], a["seat"], a["dealer"], a["rules"], a["must"], bots) == (
        w.players,
        w.seat,
        w.dealer,
        w.rules,
        w.must,
        w.bots,
    ), f"{t.name}: the lesson's call and tools/task_seeds.TASKS disagree"
    h, seen = played(a["seed"], w)
    assert seen and w.test(h, seen), (
        f"{t.name}: seed {a['seed']} does not bring the task's point up"
    )
    # the learner who plays as the sensible bot meets that very deal in the widget
    c = PlayController(
        a["seed"],
        a["players"],
        a["rules"],
        a["seat"],
        a["bots"] if isinstance(a["bots"], str) else list(a["bots"]),
        dealer=a["dealer"],
        must=a["must"],
        task=t.name,
        asks=list(a["asks"]),
    )
    # (moves that test nothing are played for him with the coach's move, which may not be the
    # bot's: the deal is the same until then, and every decision he is asked is of his kinds)
    sensible = BOTS["sensible"]
    while not c.over:
        assert c.my_turn and decision_kind(c.hand) in a["asks"]
        c.choose(bot_move(c.hand, sensible, random.Random(0)))
    assert c.hand.actions[:1] == h.actions[:1]


def test_each_lessons_task_cell_is_its_id_and_its_heading_its_deal() -> None:
    """The task's definition lives in the package: the cell holds only its id, and the markdown
    right above it names the registry's deal (a heading gives no answer away)."""
    for nb in STEPPED:
        found = cells(nb)
        for i, (kind, src) in enumerate(found):
            if kind == "code" and "L.task(" in src:
                name = re.fullmatch(r'L\.task\("([a-z0-9-]+)"\)\s*', src)
                assert name, f"{nb.stem}: {src[:60]!r}"
                t = REGISTRY[name.group(1)]
                assert t.lesson == int(nb.stem[:2])
                above_kind, above = found[i - 1]
                if above_kind == "markdown":
                    deals = re.findall(r"\bDeal (\d+)", above)
                    assert deals and int(deals[-1]) == t.seed, f"{t.id}: the markdown above says deal {deals}"
                    for head in re.findall(r"^#+ Task: (.+)$", above, re.M):
                        assert head.lower().startswith("deal") or "?" in head or head in ALLOWED_HEADINGS, head
                assert f"Deal {t.seed}" in t.title


#: Task headings that name the situation, not the move to make.
ALLOWED_HEADINGS = {"asked first", "the miss may be gone", "name the case", "declare, then lead", "every decision",
                    "play the deal, then settle it", "a whole must", "follow and lead at Peel's table",
                    "every decision at Peel's table"}
