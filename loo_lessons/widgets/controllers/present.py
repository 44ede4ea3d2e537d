"""The presenter's controller: a teacher's view of one seeded deal, big enough to project.

`Presenter(seed, players, rules, faces)` deals `Hand.from_seed(seed, players, 0, rules)`,
plays it out with the `sensible` bots (their draws from `random.Random(seed)`: the very deal
`lessons.stepper(seed)` shows) and steps through it with the engine's explanation of every
step. js/present.js draws very large cards, every hand face up or hidden, Back / Forward and
the arrow keys (`present_reduce`, mirrored by `presentReduce`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from loo_lessons.engine.errors import LooError
from loo_lessons.engine.game import Hand
from loo_lessons.engine.options import PRESETS
from loo_lessons.explain.steps import stepper_steps
from loo_lessons.widgets.controllers.base import button, one_of
from loo_lessons.widgets.controllers.steps import (
    StepperController,
    seeded_hand,
    step_reduce,
)

FACES: tuple[str, ...] = ("up", "hidden")
#: The width of every card the presenter draws, in CSS pixels (js/present.js).
CARD_WIDTH_PX = 150


def present_reduce(count: int, st: Mapping[str, Any], ev: Mapping[str, Any]) -> dict[str, Any]:
    """presentReduce: `next`, `prev`, `first`, `last`, `goto` (step) as `step_reduce`, and
    `toggle`, `faces` (faces). The step stays in 0 .. count - 1 and faces in ("up", "hidden")."""
    step = step_reduce(count, st, ev)["step"]
    faces = "hidden" if st.get("faces") == "hidden" else "up"
    kind = ev.get("type")
    if kind == "toggle":
        faces = "hidden" if faces == "up" else "up"
    elif kind == "faces" and ev.get("faces") in FACES:
        faces = str(ev["faces"])
    return {"step": step, "faces": faces}


def present_data(seed: int, players: int = 5, rules: str = "hoffmann") -> dict[str, Any]:
    """The presenter's data: the seeded deal, every step explained (`stepper_steps`)."""
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise LooError(f"the seed is a whole number, 0 or more (got {seed!r})")
    if rules not in PRESETS:
        raise LooError(f"unknown rules {rules!r} (known: {', '.join(PRESETS)})")
    hand = seeded_hand(seed, players, rules)
    return {
        "seed": seed,
        "players": players,
        "rules": rules,
        "book": PRESETS[rules].book,
        "call": f'L.present({seed}, players={players}, rules="{rules}")',
        "steps": stepper_steps(hand),
    }


class PresentController(StepperController, component="present"):
    """`Presenter(seed, players=5, rules="hoffmann", faces="up")`."""

    EVENTS: ClassVar[tuple[str, ...]] = ("next", "prev", "first", "last", "goto", "toggle", "faces", "deal")
    SYNCED: ClassVar[tuple[str, ...]] = ("step", "faces")
    faces: str

    def __init__(
        self,
        seed: int | None = None,
        players: int = 5,
        rules: str = "hoffmann",
        faces: str | None = None,
        **traits: Any,
    ) -> None:
        if faces is not None:
            if faces not in FACES:
                raise LooError(f"faces is 'up' or 'hidden' (got {faces!r})")
            traits["faces"] = faces
        super().__init__(**traits)
        self._hand: Hand | None = None
        if seed is not None:
            self.data = present_data(seed, players, rules)

    def live_spec(self) -> dict[str, Any] | None:
        """How the book's engine makes this widget again: the `present` kind (its deal travels in
        its state)."""
        return {"kind": "present", "args": {}}

    def _deal(self, seed: int, n: int, rules: str) -> None:
        self._hand = None
        self._apply({"data": present_data(seed, n, rules), "step": 0})

    def _step(self, kind: str, ev: Mapping[str, Any]) -> None:
        if kind == "faces":
            one_of(ev.get("faces"), FACES, "faces")
        st = {"step": self.step, "faces": self.faces}
        self._apply(present_reduce(self._count(), st, ev))

    def _normalise(self, st: Mapping[str, Any]) -> dict[str, Any]:
        return present_reduce(self._count(), st, {"type": "none"})

    # --- what is on screen (and `steps`, `current`, `step`) --------------------------------------
    @property
    def hand(self) -> Hand:
        """The deal shown, played to the end."""
        if self._hand is None:
            self._hand = seeded_hand(self.seed, self.players, self.rules)
        return self._hand

    @property
    def seed(self) -> int:
        """The seed of the deal shown, so the same deal comes again."""
        return int(self.data["seed"])

    @property
    def players(self) -> int:
        """How many play at the table shown."""
        return int(self.data["players"])

    @property
    def rules(self) -> str:
        """The preset the deal is played under (`hoffmann` or `peel`)."""
        return str(self.data["rules"])

    @property
    def hidden(self) -> bool:
        """Whether every hand is drawn face down (the faces toggle) rather than face up."""
        return self.faces == "hidden"

    # --- the buttons and keys: next, prev, first, last, goto (from the stepper), and -------------
    def goto(self, step: int) -> None:
        """Step `step` (0-based; kept in range)."""
        st = {"step": self.step, "faces": self.faces}
        self._apply(present_reduce(self._count(), st, {"type": "goto", "step": step}))

    def back(self) -> None:
        """The "◀ Back" button (←)."""
        self.prev()

    toggle_faces = button("toggle", 'The "Hide the hands" / "Show the hands" button (F).')

    def show_faces(self, up: bool = True) -> None:
        """Every hand face up (True) or hidden (False)."""
        self._event("faces", {"type": "faces", "faces": "up" if up else "hidden"})
