"""The lessons' play-this-deal tasks, defined once: `L.task("id")` deals the task named here.

Each task is kept with its lesson, not in the learner's cell: the deal (its seed, the table,
the seat), the kinds of decision it asks, the title shown above the table (never the
answer), the rules it teaches and its point in a few words. The ids key the reader's stored
progress: they never change. The seeds are chosen by `tools/task_seeds.py` (which holds, per
task, the test its deal must pass) and pinned by tests/test_task_runs.py: played following the
coach and against it, every decision asked tests something the lesson teaches.
"""

from __future__ import annotations

from dataclasses import dataclass

from loo_lessons.engine.errors import InputError


@dataclass(frozen=True, slots=True)
class Task:
    """One play-this-deal task: its deal and table, what it asks, and what it teaches."""

    id: str
    lesson: int
    seed: int
    #: the kinds of decision the learner may be asked (declare, lead, follow); of those, only
    #: the ones that test something are asked (`sim.asking`)
    asks: tuple[str, ...]
    title: str
    #: the rule ids the task's asked decisions turn on
    teaches: tuple[str, ...]
    #: the lesson's point the task tests, in a few words
    point: str
    players: int = 5
    rules: str = "hoffmann"
    seat: int = 1
    dealer: int = 0
    must: bool = False
    #: the other seats' bots (one name for all, or one per other seat)
    bots: str | tuple[str, ...] = "sensible"
    #: what the point is tested by: "law" (an asked decision the engine's verdict on turns on
    #: one of `teaches`) or "strategy" (an asked decision the coach separates: whether the hand
    #: is worth the risk of a loo, the lesson's point, is the coach's to weigh)
    by: str = "law"


TASKS: dict[str, Task] = {
    t.id: t
    for t in (
        # --- lesson 3: declaring ---
        Task(
            "declaring-elder-deal-2", 3, 2, ("declare",), "Deal 2: you are the elder hand. Declare.",
            ("R05", "R06", "R18"), "asked first, every choice but the dealer's is open",
        ),
        Task(
            "declaring-miss-deal-351", 3, 351, ("declare",),
            "Deal 351: you are seat 4, three declare before you. Declare.",
            ("R08", "R09"), "does the miss reach you untaken?", seat=4,
        ),
        Task(
            "declaring-deal-1", 3, 1, ("declare",), "Deal 1: you are seat 3. Declare.",
            ("R09",), "the miss taken before your turn", seat=3,
        ),
        # --- lesson 4: the dealer's cases ---
        Task(
            "dealer-lone-deal-3", 4, 3, ("declare",),
            "Deal 3: you deal to three cautious players. Declare last.",
            ("R17", "R18"), "one stood alone: the dealer may not throw up",
            players=4, seat=0, bots="cautious",
        ),
        Task(
            "dealer-two-deal-2", 4, 2, ("declare",), "Deal 2: two at the table, you deal. Declare.",
            ("R17", "R18"), "the elder hand stood alone: name the case", players=2, seat=0,
        ),
        Task(
            "dealer-deal-5", 4, 5, ("declare",), "Deal 5: you deal. Declare last.",
            ("R15", "R16"), "one took the miss, the rest threw up: name the case", seat=0,
        ),
        # --- lesson 5: leading ---
        Task(
            "leading-ace-deal-89", 5, 89, ("lead",), "Deal 89: you are the elder hand. Lead.",
            ("R23", "R24"), "the first lead bound to the best trump",
        ),
        Task(
            "leading-two-trumps-deal-33", 5, 33, ("lead",), "Deal 33: you are the elder hand. Lead.",
            ("R25", "R27"), "holding two trumps, the lead is a trump",
        ),
        Task(
            "leading-deal-26", 5, 26, ("declare", "lead"),
            "Deal 26: you are the elder hand. Declare and lead.",
            ("R23", "R25", "R27"), "the first lead's laws, after your own declaration",
        ),
        # --- lesson 6: following ---
        Task(
            "following-peel-deal-340", 6, 340, ("follow",), "Deal 340 (Peel): you are seat 3. Follow.",
            ("R32", "R34"), "following suit; under Peel no law makes you head", seat=3, rules="peel",
        ),
        Task(
            "following-head-deal-154", 6, 154, ("follow",),
            "Deal 154: you are the elder hand. Follow.",
            ("R32", "R33"), "follow suit, and head the trick if you can", bots="bold",
        ),
        Task(
            "following-deal-14", 6, 14, ("declare", "lead", "follow"),
            "Deal 14: you are seat 3. Every decision is yours.",
            ("R32", "R33", "R35"), "must I follow suit, head the trick, trump?", seat=3,
        ),
        # --- lesson 7: winning tricks ---
        Task(
            "winning-trump-wins-deal-15", 7, 30, ("follow",), "Deal 30: you are seat 2. Follow.",
            ("R35", "R37"), "void in the suit led: trump, and any trump wins", seat=2,
        ),
        Task(
            "winning-deal-98", 7, 98, ("declare", "lead", "follow"),
            "Deal 98: you are seat 2. Every decision is yours.",
            ("R24", "R29", "R30"), "having won a trick, lead bound as the first leader", seat=2,
        ),
        Task(
            "winning-two-trumps-deal-229", 7, 229, ("lead",), "Deal 229 (Peel): you are seat 3. Lead.",
            ("R29", "R31", "R60"), "the winner of the first trick with two trumps left",
            seat=3, rules="peel",
        ),
        # --- lesson 8: the pool and loos ---
        Task(
            "settling-thirds-deal-4", 8, 4, ("declare",), "Deal 4: you are the elder hand. Declare.",
            ("R38", "R39"), "a trick is a third of the pool; no trick, a loo", by="strategy",
        ),
        Task(
            "settling-looed-deal-7", 8, 7, ("declare",), "Deal 7: you are the elder hand. Declare.",
            ("R39",), "is this hand worth the risk of a loo?", by="strategy",
        ),
        Task(
            "settling-deal-3", 8, 3, ("declare", "lead", "follow"),
            "Deal 3: you are the elder hand. Play, then settle.",
            ("R38", "R39", "R40"), "play the deal, then settle it", by="strategy",
        ),
        # --- lesson 9: singles, musts ---
        Task(
            "singles-three-tricks-deal-89", 9, 89, ("declare",),
            "Deal 89: you are the elder hand. Declare.",
            ("R41", "R42"), "three stood, a trick each: a single", by="strategy",
        ),
        Task(
            "must-trump-deal-2", 9, 2, ("follow", "lead"), "Deal 2 as a must: you are seat 2.",
            ("R43", "R35", "R30"), "in a must everyone plays; void, you trump", seat=2, must=True,
        ),
        Task(
            "must-deal-3", 9, 3, ("declare", "lead", "follow"), "Deal 3 as a must: everyone plays.",
            ("R43", "R44", "R45"), "a must: no throwing up, no miss", must=True,
        ),
        # --- lesson 10: penalties (Peel) ---
        Task(
            "penalties-lead-deal-70", 10, 70, ("lead",), "Deal 70, Peel's rules: you lead.",
            ("R23", "R55"), "a wrong lead is an offence", rules="peel",
        ),
        Task(
            "penalties-follow-deal-36", 10, 36, ("follow", "lead"),
            "Deal 36, Peel's rules: follow, then lead.",
            ("R30", "R34", "R60"), "trump after trick, or an offence", seat=3, rules="peel",
        ),
        Task(
            "penalties-deal-1", 10, 1, ("declare", "lead", "follow"),
            "Deal 1, Peel's rules: every decision is yours.",
            ("R26", "R56", "R61"), "every refused card an offence at a real table", rules="peel",
        ),
    )
}


def task_named(name: object) -> Task:
    """The task with this id (an `InputError` on `task`, one line, for any other)."""
    if not isinstance(name, str) or name not in TASKS:
        shown = str(name)[:40]
        raise InputError("task", f"{shown!r} is no lesson's task (see loo_lessons.lessons.tasks.TASKS)")
    return TASKS[name]


__all__ = ["TASKS", "Task", "task_named"]
