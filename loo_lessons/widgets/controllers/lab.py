"""The strategy lab's controller: small seeded simulations, summed up without pandas.

`LabController` runs `sim.montecarlo.simulate` (the same seeded hands as the lessons and the
`simulate` command: hand i from its own seed) with a progress callback, and reduces its
columns to plain aggregates: the headline rates (`SimResult.overview`) and how often a hand
that was played takes a trick and is looed, by the kind of hand (`plain_trick_rates`, the
pandas-free twin of `SimResult.trick_rates`). The lab component (js/lab.js) draws them as a
table and as SVG bars. The same controller runs in the book's page (Pyodide) and in the
kernel (`widgets.live.Lab`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from loo_lessons.engine.options import PRESETS
from loo_lessons.sim.bots import BOTS
from loo_lessons.sim.montecarlo import SimResult, simulate
from loo_lessons.sim.tally import group_label
from loo_lessons.widgets.controllers.base import MAX_SEED, RequestController, int_in, one_of

#: The most hands one run in the page may ask for (the page runs them on one core).
MAX_HANDS = 5000
BY: tuple[str, ...] = ("trumps", "honours", "position")


def plain_trick_rates(res: SimResult, by: str = "trumps") -> list[dict[str, Any]]:
    """One row per kind of hand played (`by`: trumps, honours or position): hands, the
    share that took a trick, the share looed, mean tricks, mean net counters: the
    simulation's own running tally (`Tally.trick_rates`, what `SimResult.trick_rates` shows),
    labelled for the lab."""
    table = res.tally.trick_rates(by)
    width = len(table.index)
    rows = []
    for row in table.rows:
        values = dict(zip(table.columns, row[width:], strict=True))
        rows.append(
            {
                "label": group_label(by, row[:width]),
                "hands": values.pop("hands"),
                **{k: round(float(v or 0), 3) for k, v in values.items()},
            }
        )
    return rows


class LabController(RequestController, component="lab"):
    """A run of seeded hands with bots: the learner picks hands, players, seed, rules, bots
    and what to group by; the results come back as plain numbers."""

    EVENTS: ClassVar[tuple[str, ...]] = ("run",)
    SYNCED: ClassVar[tuple[str, ...]] = ("request", "progress")  # progress: the bar the component starts at 0
    request: dict[str, Any]
    progress: dict[str, Any]

    def __init__(
        self,
        hands: int = 300,
        players: int = 5,
        seed: int = 1,
        rules: str = "hoffmann",
        bots: str = "sensible",
        by: str = "trumps",
        *,
        run: bool = False,
        **traits: Any,
    ) -> None:
        super().__init__(**traits)
        #: called as chunks finish: (done, total); the book's worker posts it to the page
        self.on_progress: Callable[[int, int], None] | None = None
        if not self.data:
            self.data = {
                "settings": {"hands": hands, "players": players, "seed": seed, "rules": rules, "bots": bots, "by": by},
                "limits": {"hands": MAX_HANDS, "players": [2, 10]},
                "presets": list(PRESETS),
                "bots": list(BOTS),
                "by_options": list(BY),
                "result": None,
                "live": True,
            }
        if run:
            self._run(self.data["settings"])
            self.take_changes()

    def live_spec(self) -> dict[str, Any] | None:
        """How the book's engine makes this widget again: the `lab` kind, with its settings."""
        return {"kind": "lab", "args": dict(self.data.get("settings") or {})}

    def _event(self, kind: str, ev: Mapping[str, Any]) -> None:
        self._run(ev)

    def run(self, **settings: Any) -> dict[str, Any]:
        """"Run" (the settings not given stay); returns the result."""
        self._ask("run", **settings)
        out: dict[str, Any] = self.data.get("result") or {}
        return out

    def _run(self, ev: Mapping[str, Any]) -> None:
        s = dict(self.data["settings"])
        hands = int_in(ev.get("hands", s["hands"]), 1, MAX_HANDS, "hands")
        players = int_in(ev.get("players", s["players"]), 2, 10, "players")
        seed = int_in(ev.get("seed", s["seed"]), 0, MAX_SEED, "seed")
        rules = str(one_of(ev.get("rules", s["rules"]), list(PRESETS), "rules"))
        bots = str(one_of(ev.get("bots", s["bots"]), list(BOTS), "bots"))
        by = str(one_of(ev.get("by", s["by"]), list(BY), "by"))
        settings = {"hands": hands, "players": players, "seed": seed, "rules": rules, "bots": bots, "by": by}

        def report(done: int, total: int) -> None:
            self.progress = {"done": done, "total": total}
            if self.on_progress is not None:
                self.on_progress(done, total)

        # about twenty steps of the bar, whatever the size (the result does not depend on it)
        chunk = max(10, -(-hands // 20))
        res = simulate(hands, players, seed, rules, bots, progress=report, chunk=chunk)
        ov = res.overview()
        self._apply(
            {
                "data": {
                    **self.data,
                    # counted, so that Run with the same settings (the same seeded hands,
                    # the same numbers) still shows that it ran again
                    "runs": int(self.data.get("runs") or 0) + 1,
                    "settings": settings,
                    "result": {
                        "overview": {k: round(v, 4) for k, v in ov.items()},
                        "rates": plain_trick_rates(res, by),
                        "by": by,
                        "seconds": round(res.seconds, 3),
                    },
                },
                "progress": {"done": hands, "total": hands},
            }
        )
