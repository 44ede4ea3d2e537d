"""The edge-case search and the preset comparison as a widget's controller.

"Find a deal": the first seeded deal at which a named search holds
(`sim.search.find`, the bots' draws from each deal's seed), shown as the position (a pick
question, every choice with its rule) and as a scenario file (YAML) that `explain` reads.
"Compare a deal": one seeded deal replayed under both books by the same bots
(`sim.compare.compare`): the steps where the very same position gets a different verdict,
with what each book forbids and why, where the lines part, and each seat's money.
Pure Python: the book's engine runs it in the page, the kernel in JupyterLab.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from loo_lessons.engine.errors import LooError
from loo_lessons.engine.options import PRESETS
from loo_lessons.explain.words import action_label
from loo_lessons.sim.bots import BOTS
from loo_lessons.widgets.controllers.base import (
    MAX_SEED,
    Refused,
    RequestController,
    int_in,
    one_of,
)

#: The most seeds one search in the page may deal (each is a whole deal played out).
MAX_SEEDS = 5000


def why_differ(step: Any, labels: tuple[str, ...]) -> str:
    """What one rule set forbids that another allows at this step, with the rule ids."""
    parts = []
    for lab in labels:
        others = set().union(*(set(step.legal[o]) for o in labels if o != lab))
        barred = sorted(a for a in others if a not in step.legal[lab] and a in step.forbidden[lab])
        if barred:
            said = ", ".join(f"{action_label(a)} ({step.forbidden[lab][a]})" for a in barred)
            parts.append(f"{lab} forbids {said}")
    return "; ".join(parts)


class SearchController(RequestController, component="search"):
    """The edge-case search and the preset comparison: "Find a deal" (the first seeded deal where a
    named search holds) and "Compare a deal" (one deal under both books: where the verdicts
    part, with the rule ids)."""

    EVENTS: ClassVar[tuple[str, ...]] = ("find", "compare")

    def __init__(
        self,
        name: str = "ace-turned-elder-king",
        rules: str = "hoffmann",
        players: int = 5,
        start: int = 0,
        count: int = 2000,
        bots: str = "random-legal",
        seed: int = 0,
        *,
        find: bool = False,
        compare: bool = False,
        **traits: Any,
    ) -> None:
        super().__init__(**traits)
        self._args = {"name": name, "rules": rules, "players": players, "start": start, "count": count, "bots": bots, "seed": seed}
        if not self.data:
            from loo_lessons.sim.search import PREDICATES

            self.data = {
                "searches": [{"name": n, "words": w} for n, (w, _) in PREDICATES.items()],
                "presets": list(PRESETS),
                "bots": list(BOTS),
                "find": {"name": name, "rules": rules, "players": players, "start": start, "count": count, "bots": bots},
                "compare": {"seed": seed, "players": players},
                "found": None,
                "not_found": None,
                "comparison": None,
                "live": True,
            }
        if find:
            self._event("find", {"type": "find"})
        if compare:
            self._event("compare", {"type": "compare"})
        self.take_changes()

    def live_spec(self) -> dict[str, Any] | None:
        """How the book's engine makes this widget again: the `search` kind with its position,
        rules, table and seed."""
        return {"kind": "search", "args": self._args}

    def find(self, **settings: Any) -> dict[str, Any] | None:
        """"Find": the first deal where the search holds (None: not among these seeds)."""
        self._ask("find", **settings)
        out: dict[str, Any] | None = self.data.get("found")
        return out

    def compare(self, **settings: Any) -> dict[str, Any]:
        """"Compare": one seeded deal under both books."""
        self._ask("compare", **settings)
        out: dict[str, Any] = self.data["comparison"]
        return out

    def _event(self, kind: str, ev: Mapping[str, Any]) -> None:
        if kind == "find":
            self._find(ev)
        else:
            self._compare(ev)

    def _find(self, ev: Mapping[str, Any]) -> None:
        from loo_lessons.quiz.pick import pick_question
        from loo_lessons.quiz.pool_sum import pool_data
        from loo_lessons.scenario import dump, load
        from loo_lessons.sim.search import PREDICATES, find

        s = self.data["find"]
        name = str(one_of(ev.get("name", s["name"]), list(PREDICATES), "search"))
        rules = str(one_of(ev.get("rules", s["rules"]), list(PRESETS), "rules"))
        players = int_in(ev.get("players", s["players"]), 2, 10, "players")
        start = int_in(ev.get("start", s["start"]), 0, MAX_SEED, "from seed")
        count = int_in(ev.get("count", s["count"]), 1, MAX_SEEDS, "seeds")
        bots = str(one_of(ev.get("bots", s["bots"]), list(BOTS), "bots"))
        settings = {"name": name, "rules": rules, "players": players, "start": start, "count": count, "bots": bots}
        hits = find(name, rules=rules, players=players, seeds=range(start, start + count), bots=bots, limit=1)
        if not hits:
            self._apply({"data": {**self.data, "find": settings, "found": None,
                                  "not_found": f"no deal among seeds {start} to {start + count - 1} gives {name}: search more seeds"}})
            return
        f = hits[0]
        sc = load(f.scenario)
        decided = sc.final_settlement is None and sc.hand.to_act is not None
        found = {
            "seed": f.seed,
            "moment": f.moment.value,
            "title": f.scenario.get("title"),
            "description": PREDICATES[name][0],
            "yaml": dump(f.scenario, compact=True),
            "question": pick_question(sc) if decided else None,
            "pool": None if decided else pool_data(sc),
        }
        self._apply({"data": {**self.data, "find": settings, "found": found, "not_found": None}})

    def _compare(self, ev: Mapping[str, Any]) -> None:
        from loo_lessons.sim.compare import compare

        s = self.data["compare"]
        seed = int_in(ev.get("seed", s["seed"]), 0, MAX_SEED, "seed")
        players = int_in(ev.get("players", s["players"]), 2, 10, "players")
        try:
            c = compare(seed, players, moves_by="sensible", presets=tuple(PRESETS))
        except LooError as e:
            raise Refused(str(e)) from None
        labels = c.labels
        steps = [
            {
                "step": st.index,
                "seat": st.seat[labels[0]],
                "legal": {lab: list(st.legal[lab]) for lab in labels},
                "why": why_differ(st, labels),
            }
            for st in c.verdict_differences
        ]
        money = [
            {"seat": seat, **{lab: int(v) for lab, v in nets.items()}}
            for seat, nets in c.money().items()
        ]
        comparison = {
            "seed": seed,
            "players": players,
            "labels": list(labels),
            "steps": steps,
            "parted_at": c.parted_at,
            "money": money,
            "money_differs": c.money_differs,
            "next_pool": {lab: int(c.settlements[lab]["next_pool"]) for lab in labels},
        }
        self._apply({"data": {**self.data, "compare": {"seed": seed, "players": players}, "comparison": comparison}})
