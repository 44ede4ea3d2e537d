"""Every widget in one list: its name, its controller and its JS component, and the
component's starting state. It imports nothing, so that the bundler (`bundle.COMPONENTS`) and
the static pages (`static.DEFAULT_STATE`) read it without importing a controller; `registry`
makes the controllers from it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple


class Entry(NamedTuple):
    """One widget in the list: its controller's module and class, its JavaScript component, and the
    component's starting state."""

    module: str  # in loo_lessons.widgets.controllers
    cls: str
    js: str  # the component that draws it: js/<js>.js
    state: Mapping[str, Any]  # the component's traits and their starting values


_PLAY: dict[str, Any] = {"data": {}, "request": {}, "show_hint": False, "tried": None, "save_name": ""}
_QUIZ: dict[str, Any] = {
    "data": {},
    "questions": [],
    "index": 0,
    "responses": [],
    "selected": [],
    "inspect": None,
    "new_request": 0,
    "class_request": "",
}
_EXPLORE: dict[str, Any] = {"data": {}, "rules": {}, "request": {}}


REGISTRY: dict[str, Entry] = {
    "cards": Entry("show", "CardsController", "cards", {"data": {}}),
    "table": Entry("show", "TableController", "table", {"data": {}}),
    "pick": Entry("pick", "PickController", "pick", {"data": {}, "picked": [], "current": None, "revealed": False}),
    "pool": Entry("pool", "PoolController", "pool", {"data": {}, "entries": {}, "checked": False, "revealed": False}),
    "quiz": Entry("quiz", "QuizController", "quiz", _QUIZ),
    "stepper": Entry("steps", "StepperController", "stepper", {"data": {}, "step": 0}),
    "present": Entry("present", "PresentController", "present", {"data": {}, "step": 0, "faces": "up"}),
    # the play table needs the kernel: its static form is drawn by `pick` and `table`
    "play": Entry("play", "PlayController", "play", _PLAY),
    # an evening of Loo: the play table, deal after deal, with the ledger (needs the engine)
    "evening": Entry("evening", "EveningController", "evening", _PLAY),
    # pass-and-play: the evening on one device, a pass screen hiding the cards between people
    "passplay": Entry("pass_play", "PassPlayController", "passplay", _PLAY),
    # a pupil's seat at a class table on the hub (the tables service referees; needs the hub)
    "seat": Entry("seat", "SeatController", "seat", {"data": {}, "request": {}}),
    # the option explorer needs the engine (the book's, or the kernel's)
    "explore": Entry("explore", "ExploreController", "explore", _EXPLORE),
    "declarations": Entry("explore", "DeclarationsController", "explore", _EXPLORE),
    # the strategy lab runs its simulations in Python (the kernel, or the book's engine)
    "lab": Entry("lab", "LabController", "lab", {"data": {}, "request": {}, "progress": {}}),
    # the edge-case search and the preset comparison (Python deals and replays)
    "search": Entry("search", "SearchController", "search", {"data": {}, "request": {}}),
    # practice by rule: new positions for what is due or missed, recorded in loo-progress/1
    "practice": Entry("practice", "PracticeController", "practice", {"data": {}, "request": {}}),
}

#: Every JS component, once each, in the registry's order.
COMPONENTS: tuple[str, ...] = tuple(dict.fromkeys(e.js for e in REGISTRY.values()))


__all__ = ["COMPONENTS", "REGISTRY", "Entry"]
