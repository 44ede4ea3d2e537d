"""The widget controllers: pure Python over the engine (event + state -> next state).

One controller per component, the same class behind both back ends: in JupyterLab the
anywidget adapters (`widgets.live`, `widgets.play`, `widgets.present`) sync its traits
through the kernel; in the book `controllers.browser` runs it in Pyodide in a Web Worker
(`js/engine.js`). Standard library and the engine only: no ipywidgets, anywidget,
traitlets, pandas or matplotlib (tests/test_live_book.py checks the imports).
"""

from __future__ import annotations

from loo_lessons.widgets.controllers.base import Model, Refused
from loo_lessons.widgets.controllers.components import (
    Controller,
    DeclarationsController,
    ExploreController,
    PickController,
    PoolController,
    PresentController,
    QuizController,
    StepperController,
)
from loo_lessons.widgets.controllers.play import PlayController, PlayGame

__all__ = [
    "Controller",
    "DeclarationsController",
    "ExploreController",
    "Model",
    "PickController",
    "PlayController",
    "PlayGame",
    "PoolController",
    "PresentController",
    "QuizController",
    "Refused",
    "StepperController",
]
