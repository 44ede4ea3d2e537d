"""Every widget: its name, its controller and its JS component, in one place.

Both back ends make widgets from here: the kernel's anywidget adapter
(`backends.kernel`, JupyterLab) and the page's worker (`backends.browser`, the book). A new
widget is a controller (`controllers/<name>.py`), its JS component (`js/<name>.js`) and one
line below. Controllers are imported when first needed (a page with no lab does not pay for
importing the simulator).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from loo_lessons.widgets.controllers.base import Controller


class Entry(NamedTuple):
    module: str  # in loo_lessons.widgets.controllers
    cls: str
    js: str  # the component that draws it: js/<js>.js


REGISTRY: dict[str, Entry] = {
    "cards": Entry("show", "CardsController", "cards"),
    "table": Entry("show", "TableController", "table"),
    "pick": Entry("pick", "PickController", "pick"),
    "pool": Entry("pool", "PoolController", "pool"),
    "quiz": Entry("quiz", "QuizController", "quiz"),
    "stepper": Entry("steps", "StepperController", "stepper"),
    "present": Entry("present", "PresentController", "present"),
    "explore": Entry("explore", "ExploreController", "explore"),
    "declarations": Entry("explore", "DeclarationsController", "explore"),
    "play": Entry("play", "PlayController", "play"),
    "evening": Entry("evening", "EveningController", "evening"),
    "lab": Entry("lab", "LabController", "lab"),
    "search": Entry("search", "SearchController", "search"),
}


def controller_class(kind: str) -> type[Controller]:
    """The controller class of widget `kind` (KeyError for an unknown one)."""
    entry = REGISTRY[kind]
    cls: type[Controller] = getattr(importlib.import_module(f"loo_lessons.widgets.controllers.{entry.module}"), entry.cls)
    return cls
