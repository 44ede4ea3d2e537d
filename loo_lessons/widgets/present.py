"""The presenter: a teacher's view of one seeded deal, big enough to project to a class.

`Presenter(seed, players, rules, faces)` deals `Hand.from_seed(seed, players, 0, rules)`,
plays it out with the `sensible` bots (their draws from `random.Random(seed)`: the very deal
`lessons.stepper(seed)` shows) and steps through it with the engine's explanation of every
step (`data.stepper_steps`): the rule that allowed the move, its id and the book's words.

The front end (`js/present.js`) draws very large cards (150 px wide), every hand face up or
hidden (a toggle), Back / Forward buttons and the arrow keys, and the seed and the rules in
big type, so that "seed 42, Hoffmann's rules" deals the class the same cards anywhere.

`next()`, `back()`, `toggle_faces()` (and `first()`, `last()`, `goto()`) do what the
buttons and keys do: they run `present_reduce` (controllers.components, the controller the
book's engine runs too), the mirror of the JS `presentReduce`.

Without a kernel (the built book) the presenter is static HTML that still steps and
toggles in the browser: every step is precomputed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import traitlets

from loo_lessons.engine.errors import LooError
from loo_lessons.widgets.bundle import esm
from loo_lessons.widgets.controllers.components import (
    FACES,
    present_data,
    present_reduce,
    seeded_hand,
)
from loo_lessons.widgets.live import _Steps
from loo_lessons.widgets.static import component_html

NAME = "present"
#: The width of every card the presenter draws, in CSS pixels (js/present.js).
CARD_WIDTH_PX = 150


def present_html(state: Mapping[str, Any]) -> str:
    """The presenter as a self-contained HTML fragment (no kernel, no network):
    `static.component_html("present", state)`."""
    return component_html(NAME, state)


class Presenter(_Steps):
    """A seeded deal for the whole class: huge cards, hands face up or hidden, step by step,
    each step's rule said plainly with its id and the book's words."""

    component: ClassVar[str] = NAME
    _esm = esm(NAME)
    faces = traitlets.Enum(FACES, default_value="up").tag(sync=True)
    _SYNCED = ("step", "faces")

    def _normalise(self, st: Mapping[str, Any]) -> dict[str, Any]:
        return present_reduce(len(self.steps), st, {"type": "none"})

    def __init__(
        self,
        seed: int,
        players: int = 5,
        rules: str = "hoffmann",
        faces: str = "up",
        **kwargs: Any,
    ) -> None:
        if faces not in FACES:
            raise LooError(f"faces is 'up' or 'hidden' (got {faces!r})")
        data = present_data(seed, players, rules)
        self.hand = seeded_hand(seed, players, rules)
        super().__init__(data=data, faces=faces, **kwargs)

    # --- what is on screen (and `steps`, `current`, `step`) -------------------------------
    @property
    def seed(self) -> int:
        return int(self.data["seed"])

    @property
    def players(self) -> int:
        return int(self.data["players"])

    @property
    def rules(self) -> str:
        return str(self.data["rules"])

    @property
    def hidden(self) -> bool:
        return bool(self.faces == "hidden")

    # --- the buttons and keys: next, prev, first, last, goto (from _Steps), and ------------
    def _dispatch(self, event: Mapping[str, Any]) -> None:
        self._apply(
            present_reduce(len(self.steps), {"step": self.step, "faces": self.faces}, event)
        )

    def back(self) -> None:
        """The "◀ Back" button (←)."""
        self.prev()

    def toggle_faces(self) -> None:
        """The "Hide the hands" / "Show the hands" button (F)."""
        self._dispatch({"type": "toggle"})

    def show_faces(self, up: bool = True) -> None:
        """Every hand face up (True) or hidden (False)."""
        self._dispatch({"type": "faces", "faces": "up" if up else "hidden"})
