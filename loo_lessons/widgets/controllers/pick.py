"""The pick component's controller: pick the cards (or declarations) the rules allow, then
Check; each choice's verdict, rule id, reason and the book's words come from the engine.

Every pick is graded only on Check, whatever the number of right answers, so neither the
buttons nor the first click give the answer away: clicks select and deselect, Check (or
"Show the answer") reveals, and then a click shows that choice's verdict (`pick_reduce`,
mirrored by `pickReduce` in js/pick.js).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from loo_lessons.explain.table import Position
from loo_lessons.quiz.pick import pick_question
from loo_lessons.views.prose import after_note
from loo_lessons.widgets.controllers.base import (
    PositionController,
    button,
    one_of,
)

State = dict[str, Any]


def choice_keys(q: Mapping[str, Any]) -> list[str]:
    """The keys of a question's choices, in the order shown."""
    choices = q.get("choices")
    if not isinstance(choices, list):
        return []
    return [str(c["key"]) for c in choices if isinstance(c, Mapping) and "key" in c]


def pick_reduce(q: Mapping[str, Any], st: Mapping[str, Any], ev: Mapping[str, Any]) -> State:
    """pickReduce: `choice` (key), `check`, `show`, `reset`. Before the answer is revealed
    clicks select and deselect; `check` (with something selected) or `show` reveals; then a
    click shows that choice's verdict."""
    keys = choice_keys(q)
    raw = st.get("picked")
    picked = [k for k in raw if k in keys] if isinstance(raw, list) else []
    current = st.get("current") if st.get("current") in keys else None
    revealed = bool(st.get("revealed"))
    kind = ev.get("type")
    if kind == "choice":
        key = ev.get("key")
        if key in keys:
            if not revealed:
                picked = [k for k in picked if k != key] if key in picked else [*picked, key]
                current = None
            else:
                current = key
    elif kind == "check":
        if picked:
            revealed = True
    elif kind == "show":
        revealed = True
    elif kind == "reset":
        picked, current, revealed = [], None, False
    return {"picked": picked, "current": current, "revealed": revealed}


class PickController(PositionController, component="pick"):
    """`PickCard(position, title=, prompt=, reveal=, after=)`: a position (a scenario, a Hand)
    or a question already in the quiz schema; `after`, the lesson's words on the answer, shown
    only once the pick is checked (views/prose.py)."""

    EVENTS: ClassVar[tuple[str, ...]] = ("choice", "check", "show", "reset")
    SYNCED: ClassVar[tuple[str, ...]] = ("picked", "current", "revealed")
    picked: list[str]
    current: str | None
    revealed: bool

    def __init__(
        self, position: Any = None, *, prompt: str | None = None, after: str | None = None, **kw: Any
    ) -> None:
        self._prompt = prompt
        # the lesson's words on the answer, drawn by the component once the pick is checked
        self._after = after_note(after)
        super().__init__(position, **kw)

    def _show(self, position: Any, title: str | None) -> dict[str, Any]:
        after = {"after": self._after} if self._after else {}
        if isinstance(position, Mapping) and "choices" in position and "verdicts" in position:
            return {"question": dict(position), "title": title, **after}  # a quiz-schema question
        question = pick_question(position, prompt=self._prompt, reveal=self._reveal)
        return {"question": question, "title": title, **after}

    @classmethod
    def of(cls, position: Position, **kw: Any) -> PickController:
        """A pick widget for `position` (a scenario, a hand, a scenario's name, or a quiz
        question)."""
        return cls(position, **kw)

    def live_spec(self) -> dict[str, Any] | None:
        """How the book's engine makes this widget again: the `pick` kind (its question travels in
        its state)."""
        return {"kind": "pick", "args": {}}

    @property
    def question(self) -> dict[str, Any]:
        """The question asked: its prompt, choices, answer and a verdict for every choice (the
        quiz's question schema)."""
        q = self.data.get("question") if isinstance(self.data, Mapping) else None
        return dict(q) if isinstance(q, Mapping) else {}

    @property
    def choices(self) -> list[str]:
        """The keys of the question's choices: card codes ("QH") or declarations ("stand")."""
        return choice_keys(self.question)

    @property
    def answer(self) -> list[str]:
        """The keys of the right choices, as the question holds them."""
        return list(self.question.get("answer") or [])

    def verdict_for(self, key: str) -> dict[str, Any]:
        """The verdict shown for choice `key`: right or wrong, the rule id, the book's quote and
        name."""
        v: dict[str, Any] = self.question["verdicts"][key]
        return v

    @property
    def verdict(self) -> dict[str, Any] | None:
        """The verdict on screen (the last choice clicked once revealed), or None."""
        return self.verdict_for(self.current) if self.current is not None else None

    @property
    def first_correct(self) -> bool | None:
        """Was the first choice selected allowed? None before any click."""
        return self.picked[0] in self.answer if self.picked else None

    @property
    def correct(self) -> bool | None:
        """Once checked: was the selection exactly the allowed choices? None before."""
        if not self.revealed or not self.picked:
            return None
        return set(self.picked) == set(self.answer)

    def _event(self, kind: str, ev: Mapping[str, Any]) -> None:
        if kind == "choice":
            one_of(ev.get("key"), self.choices, "key")
        self._apply(pick_reduce(self.question, {k: getattr(self, k) for k in self.SYNCED}, ev))

    def _normalise(self, st: Mapping[str, Any]) -> dict[str, Any]:
        return pick_reduce(self.question, st, {"type": "none"})

    # --- the buttons ------------------------------------------------------------------------------
    def click(self, key: str) -> dict[str, Any]:
        """What a click on choice `key` does in the browser (select it, or once revealed
        show its verdict); returns its verdict."""
        if key not in self.choices:
            raise KeyError(f"{key!r} is not one of the choices {self.choices}")
        self._event("choice", {"type": "choice", "key": key})
        return self.verdict_for(key)

    check = button("check", 'The "Check" button: grades the selection (nothing selected: nothing happens).')
    show = button("show", 'The "Show the answer" button.')
    reset = button("reset", 'The "Start again" button.')
