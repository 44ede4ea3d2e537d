"""The presenter: a teacher's view of one seeded deal, big enough to project to a class.

`Presenter(seed, players, rules, faces)` deals `Hand.from_seed(seed, players, 0, rules)`,
plays it out with the `sensible` bots (their draws from `random.Random(seed)`: the very deal
`lessons.stepper(seed)` shows) and steps through it with the engine's explanation of every
step (`data.stepper_steps`): the rule that allowed the move, its id and the book's words.

The front end (`js/present.js`) draws very large cards (150 px wide), every hand face up or
hidden (a toggle), Back / Forward buttons and the arrow keys, and the seed and the rules in
big type, so that "seed 42, Hoffmann's rules" deals the class the same cards anywhere.

`next()`, `back()`, `toggle_faces()` (and `first()`, `last()`, `goto()`) do what the
buttons and keys do: they run `present_reduce`, the mirror of the JS `presentReduce`.

Without a kernel (the built book) the presenter is static HTML that still steps and
toggles in the browser: every step is precomputed.
"""

from __future__ import annotations

import copy
import hashlib
import json
import random
from collections.abc import Mapping
from typing import Any, ClassVar

import traitlets

from ..errors import LooError
from ..game import Hand
from ..options import PRESETS
from .bundle import esm, script
from .data import stepper_steps
from .live import _Component
from .static import MODEL_STANDIN, json_for_html

NAME = "present"
FACES: tuple[str, ...] = ("up", "hidden")
#: The state traits and their starting values (the static export fills in the same).
DEFAULT_STATE: dict[str, Any] = {"data": {}, "step": 0, "faces": "up"}
#: The width of every card the presenter draws, in CSS pixels (js/present.js).
CARD_WIDTH_PX = 150


def present_reduce(count: int, st: Mapping[str, Any], ev: Mapping[str, Any]) -> dict[str, Any]:
    """presentReduce: `next`, `prev`, `first`, `last`, `goto` (step), `toggle`, `faces`
    (faces). The step stays in 0 .. count - 1 and faces in ("up", "hidden")."""
    last = max(0, count - 1)
    raw = st.get("step")
    step = min(max(raw, 0), last) if isinstance(raw, int) and not isinstance(raw, bool) else 0
    faces = "hidden" if st.get("faces") == "hidden" else "up"
    kind = ev.get("type")
    if kind == "next":
        step = min(step + 1, last)
    elif kind == "prev":
        step = max(step - 1, 0)
    elif kind == "first":
        step = 0
    elif kind == "last":
        step = last
    elif kind == "goto":
        target = ev.get("step")
        if isinstance(target, int) and not isinstance(target, bool):
            step = min(max(target, 0), last)
    elif kind == "toggle":
        faces = "hidden" if faces == "up" else "up"
    elif kind == "faces" and ev.get("faces") in FACES:
        faces = str(ev["faces"])
    return {"step": step, "faces": faces}


def seeded_hand(seed: int, players: int = 5, rules: str = "hoffmann") -> Hand:
    """The deal of `seed` (dealer seat 0), played to the end by the `sensible` bots."""
    from ..sim.bots import BOTS, bot_move

    hand = Hand.from_seed(seed, players=players, dealer=0, options=rules)
    rng = random.Random(seed)
    bot = BOTS["sensible"]
    while hand.to_act is not None:
        hand.apply(bot_move(hand, bot, rng))
    return hand


def full_state(state: Mapping[str, Any]) -> dict[str, Any]:
    """The presenter's state with defaults filled in; unknown keys are refused."""
    unknown = sorted(set(state) - set(DEFAULT_STATE))
    if unknown:
        raise ValueError(f"present: unknown state keys {unknown} (known: {sorted(DEFAULT_STATE)})")
    out: dict[str, Any] = json.loads(json.dumps(DEFAULT_STATE))
    out.update(json.loads(json.dumps(dict(state))))
    return out


def present_html(state: Mapping[str, Any]) -> str:
    """The presenter as a self-contained HTML fragment (no kernel, no network), in the same
    form as `static.component_html`: state embedded as JSON, the module inlined."""
    st = full_state(state)
    blob = json_for_html(st)
    code = script(NAME)
    if "</script" in code.lower() or "<!--" in code:
        raise ValueError("present.js contains '</script' or '<!--': it cannot be inlined")
    uid = hashlib.sha256(f"{NAME}\0{blob}".encode()).hexdigest()[:12]
    return (
        f'<div class="loo-static" data-loo-component="{NAME}" data-loo-id="{uid}">'
        f'<script type="application/json" class="loo-state">{blob}</script>'
        '<noscript><p class="loo-noscript">This presenter needs JavaScript.</p></noscript>'
        "</div>\n"
        '<script type="module">\n'
        f"{MODEL_STANDIN}"
        f"{code}\n"
        "{\n"
        f"  const el = document.querySelector('div[data-loo-id=\"{uid}\"]:not([data-loo-mounted])');\n"
        '  el.setAttribute("data-loo-mounted", "");\n'
        '  const model = looModel(JSON.parse(el.querySelector("script.loo-state").textContent));\n'
        "  window.looLessons = window.looLessons || [];\n"
        f'  window.looLessons.push({{ name: "{NAME}", el, model }});\n'
        "  __component.render({ model, el });\n"
        "}\n"
        "</script>\n"
    )


class PresentStatic:
    """The presenter as static HTML (what the book shows): it still steps and toggles."""

    def __init__(self, state: Mapping[str, Any]) -> None:
        self.state = full_state(state)

    def __repr__(self) -> str:
        return f"PresentStatic(seed={self.state['data'].get('seed')!r})"

    def _repr_html_(self) -> str:
        return present_html(self.state)


class Presenter(_Component):
    """A seeded deal for the whole class: huge cards, hands face up or hidden, step by step,
    each step's rule said plainly with its id and the book's words."""

    component: ClassVar[str] = NAME
    _esm = esm(NAME)
    step = traitlets.Int(0).tag(sync=True)
    faces = traitlets.Enum(FACES, default_value="up").tag(sync=True)

    def __init__(
        self,
        seed: int,
        players: int = 5,
        rules: str = "hoffmann",
        faces: str = "up",
        **kwargs: Any,
    ) -> None:
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise LooError(f"the seed is a whole number, 0 or more (got {seed!r})")
        if rules not in PRESETS:
            raise LooError(f"unknown rules {rules!r} (known: {', '.join(PRESETS)})")
        if faces not in FACES:
            raise LooError(f"faces is 'up' or 'hidden' (got {faces!r})")
        self.hand = seeded_hand(seed, players, rules)
        call = f'L.present({seed}, players={players}, rules="{rules}")'
        data = {
            "seed": seed,
            "players": players,
            "rules": rules,
            "book": PRESETS[rules].book,
            "call": call,
            "steps": stepper_steps(self.hand),
        }
        super().__init__(data=data, faces=faces, **kwargs)

    # --- the model, as the static export embeds it -------------------------------------
    def state(self) -> dict[str, Any]:
        return {k: copy.deepcopy(getattr(self, k)) for k in DEFAULT_STATE}

    def static_html(self) -> str:
        return present_html(self.state())

    def static(self) -> PresentStatic:  # type: ignore[override]
        return PresentStatic(self.state())

    # --- what is on screen ---------------------------------------------------------------
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
    def steps(self) -> list[dict[str, Any]]:
        s: list[dict[str, Any]] = self.data["steps"]
        return s

    @property
    def current(self) -> dict[str, Any]:
        """The step on screen (its title, text, laws, and the table view)."""
        return self.steps[self.step]

    @property
    def hidden(self) -> bool:
        return bool(self.faces == "hidden")

    # --- the buttons and keys --------------------------------------------------------------
    def _dispatch(self, event: Mapping[str, Any]) -> None:
        self._apply(
            present_reduce(len(self.steps), {"step": self.step, "faces": self.faces}, event)
        )

    def next(self) -> None:
        """The "Forward ▶" button (→)."""
        self._dispatch({"type": "next"})

    def back(self) -> None:
        """The "◀ Back" button (←)."""
        self._dispatch({"type": "prev"})

    prev = back

    def first(self) -> None:
        """Home."""
        self._dispatch({"type": "first"})

    def last(self) -> None:
        """End."""
        self._dispatch({"type": "last"})

    def goto(self, step: int) -> None:
        self._dispatch({"type": "goto", "step": step})

    def toggle_faces(self) -> None:
        """The "Hide the hands" / "Show the hands" button (F)."""
        self._dispatch({"type": "toggle"})

    def show_faces(self, up: bool = True) -> None:
        """Every hand face up (True) or hidden (False)."""
        self._dispatch({"type": "faces", "faces": "up" if up else "hidden"})
