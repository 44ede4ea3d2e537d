"""The stepper's controller: step through one deal (the deal, each declaration, each card and
trick, the settlement), each step explained by the engine (`step_reduce`, mirrored by
`stepReduce` in js/stepper.js). "New deal" deals another seed, played out by the bots.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from loo_lessons.engine.game import Hand
from loo_lessons.engine.options import PRESETS
from loo_lessons.explain import preset_matching
from loo_lessons.explain.steps import stepper_steps
from loo_lessons.explain.table import Position, as_scenario_or_hand
from loo_lessons.sim.game import play_out
from loo_lessons.widgets.controllers.base import (
    MAX_SEED,
    PositionController,
    as_int,
    button,
    int_in,
    one_of,
)

State = dict[str, Any]


def step_reduce(count: int, st: Mapping[str, Any], ev: Mapping[str, Any]) -> State:
    """stepReduce: `next`, `prev`, `first`, `last`, `goto` (step)."""
    last = max(0, count - 1)
    raw = as_int(st.get("step"))
    step = min(max(raw, 0), last) if raw is not None else 0
    kind = ev.get("type")
    if kind == "next":
        step = min(step + 1, last)
    elif kind == "prev":
        step = max(step - 1, 0)
    elif kind == "first":
        step = 0
    elif kind == "last":
        step = last
    elif kind == "goto" and (target := as_int(ev.get("step"))) is not None:
        step = min(max(target, 0), last)
    return {"step": step}


def played_out(seed: int, players: int = 5, preset: str | None = None) -> Hand:
    """The deal of `seed`, every move drawn (from the same seed) among the engine's legal ones."""
    hand = Hand.from_seed(seed, players, 0, preset)
    rng = random.Random(seed)
    while hand.to_act is not None:
        legal = hand.legal_actions()
        hand.apply(legal[rng.randrange(len(legal))])
    return hand


def seeded_hand(seed: int, players: int = 5, rules: str = "hoffmann") -> Hand:
    """The deal of `seed` (dealer seat 0), played to the end by the `sensible` bots."""
    return play_out(Hand.from_seed(seed, players=players, dealer=0, options=rules), seed)


def deal_args(ev: Mapping[str, Any], *, players: int, rules: str) -> tuple[int, int, str]:
    """A "New deal" form's seed, players and rules, checked."""
    seed = int_in(ev.get("seed"), 0, MAX_SEED, "seed")
    n = int_in(ev.get("players", players), 2, 10, "players")
    preset = one_of(ev.get("rules", rules), list(PRESETS), "rules")
    return seed, n, str(preset)


def deal_facts(position: Position) -> dict[str, Any]:
    """The seed, players and rules of the deal shown (what the "New deal" form starts from)."""
    pos = as_scenario_or_hand(position)
    hand = pos if isinstance(pos, Hand) else pos.hand
    out: dict[str, Any] = {"players": hand.setup.players}
    if hand.seed is not None:
        out["seed"] = hand.seed
    name = preset_matching(hand.options)
    if name is not None:
        out["rules"] = name
    return out


class StepperController(PositionController, component="stepper"):
    """`Stepper(position, title=, reveal=)`: a played deal (a Hand or a scenario)."""

    EVENTS: ClassVar[tuple[str, ...]] = ("next", "prev", "first", "last", "goto", "deal")
    SYNCED: ClassVar[tuple[str, ...]] = ("step",)
    step: int

    def _show(self, position: Any, title: str | None) -> dict[str, Any]:
        return {"steps": stepper_steps(position, reveal=self._reveal), "title": title, **deal_facts(position)}

    @classmethod
    def random_deal(cls, seed: int, players: int = 5, preset: str | None = None, **kw: Any) -> StepperController:
        """A deal from `seed`, played out with moves drawn at random among the legal ones."""
        return cls(played_out(seed, players, preset), **kw)

    def live_spec(self) -> dict[str, Any] | None:
        """How the book's engine makes this widget again: the `stepper` kind (its steps travel in
        its state)."""
        return {"kind": "stepper", "args": {}}

    @property
    def steps(self) -> list[dict[str, Any]]:
        """The steps through the deal (the deal, each declaration, each card and trick, the
        settlement), each explained by the engine."""
        s = self.data.get("steps") if isinstance(self.data, Mapping) else None
        return list(s) if isinstance(s, list) else []

    @property
    def current(self) -> dict[str, Any]:
        """The step on screen (its title, text, laws, and the table view)."""
        s: dict[str, Any] = self.steps[self.step]
        return s

    def _count(self) -> int:
        return len(self.steps)

    def _event(self, kind: str, ev: Mapping[str, Any]) -> None:
        # the events the stepper and the presenter share; each steps (or draws) in its own way
        if kind == "goto":
            int_in(ev.get("step"), 0, max(0, self._count() - 1), "step")
        if kind == "deal":
            d = self.data
            self._deal(
                *deal_args(
                    ev,
                    players=as_int(d.get("players")) or 5,
                    rules=str(d.get("rules") or "hoffmann"),
                )
            )
            return
        self._step(kind, ev)

    def _deal(self, seed: int, n: int, rules: str) -> None:
        hand = seeded_hand(seed, n, rules)  # as L.stepper(seed) deals it
        title = f"Seed {seed}, {n} players, {rules}'s rules"
        data = {**self.data, "steps": stepper_steps(hand), "title": title}
        self._apply({"data": {**data, "seed": seed, "players": n, "rules": rules}, "step": 0})

    def _step(self, kind: str, ev: Mapping[str, Any]) -> None:
        self._apply(step_reduce(self._count(), {"step": self.step}, ev))

    def _normalise(self, st: Mapping[str, Any]) -> dict[str, Any]:
        return step_reduce(self._count(), st, {"type": "none"})

    # --- the buttons and keys ------------------------------------------------------------------
    def load(self, position: Position, *, title: str | None = None) -> None:
        """Show another deal, from its first step."""
        self._apply({"data": self._show(position, title), "step": 0})

    next = button("next", "Forward one step (→).")
    prev = button("prev", "Back one step (←).")
    first = button("first", "The first step (Home).")
    last = button("last", "The last step (End).")

    def goto(self, step: int) -> None:
        """Step `step` (0-based; kept in range)."""
        self._apply(step_reduce(self._count(), {"step": self.step}, {"type": "goto", "step": step}))

    def deal(self, seed: int, players: int | None = None, rules: str | None = None) -> None:
        """The "New deal" form."""
        ev: dict[str, Any] = {"type": "deal", "seed": seed}
        if players is not None:
            ev["players"] = players
        if rules is not None:
            ev["rules"] = rules
        self._event("deal", ev)
