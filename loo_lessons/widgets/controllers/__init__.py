"""The widget controllers: pure Python over the engine (event + state -> next state).

One file per component, holding all of its logic; the same object runs behind both back ends
(`widgets.backends.kernel`, JupyterLab; `widgets.backends.browser`, the book's worker), made
from `widgets.registry`. Standard library and the engine only: no ipywidgets, anywidget,
traitlets, pandas or matplotlib (tests/test_live_book.py checks the imports).
"""

from __future__ import annotations

from loo_lessons.widgets.controllers.base import Controller, Model, Refused, RequestController
from loo_lessons.widgets.controllers.explore import DeclarationsController, ExploreController
from loo_lessons.widgets.controllers.pick import PickController
from loo_lessons.widgets.controllers.pool import PoolController
from loo_lessons.widgets.controllers.present import PresentController
from loo_lessons.widgets.controllers.quiz import QuizController
from loo_lessons.widgets.controllers.steps import StepperController

__all__ = [
    "Controller",
    "DeclarationsController",
    "ExploreController",
    "Model",
    "PickController",
    "PoolController",
    "PresentController",
    "QuizController",
    "Refused",
    "RequestController",
    "StepperController",
]
