"""Front-end components for the lessons: live in JupyterLab, static in the book.

Each component is one JS module (`js/<name>.js`: cards, table, pick, pool, quiz, stepper,
present, play) with a single `render({model, el})` that uses only model.get / set /
save_changes / on. The same module runs

- live, as an anywidget (`TableView`, `PickCard`, `PoolCalculator`, `QuizRunner`,
  `Stepper`, `CardRow`, `Presenter`, `PlayTable`), clicks syncing back to Python; and
- static, with no kernel, offline, from file:// (`static.component_html`,
  `static.quiz_page`): the state is embedded as JSON and a tiny model stand-in replaces
  the kernel. (The play table needs the kernel: without one it shows its position with
  the `pick` and `table` components.)

Each widget is one controller (`controllers/<name>.py`, pure Python: all of its logic),
made live by one of two generic back ends (`backends.kernel`: anywidget; `backends.browser`:
the book page's worker), both from one registry (`registry`). anywidget, ipywidgets and
traitlets are imported only by the live classes (loaded on first use), so the controllers
and `static` work without Jupyter installed.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from loo_lessons.explain.steps import stepper_steps
from loo_lessons.explain.table import settlement_working, table_view
from loo_lessons.quiz.pick import pick_question
from loo_lessons.quiz.pool_sum import pool_data
from loo_lessons.widgets.static import Static, component_html, quiz_page

if TYPE_CHECKING:
    from loo_lessons.widgets.evening import EveningTable, PassPlayTable
    from loo_lessons.widgets.live import (
        CardRow,
        DeclarationsExplorer,
        Explorer,
        Lab,
        PickCard,
        PoolCalculator,
        QuizRunner,
        Search,
        Stepper,
        TableView,
    )
    from loo_lessons.widgets.play import PlayTable
    from loo_lessons.widgets.present import Presenter

#: The live classes, each with the module that defines it (imported on first use).
_LIVE: dict[str, str] = {
    "CardRow": "live",
    "Explorer": "live",
    "DeclarationsExplorer": "live",
    "Lab": "live",
    "Search": "live",
    "PickCard": "live",
    "PoolCalculator": "live",
    "QuizRunner": "live",
    "Stepper": "live",
    "TableView": "live",
    "Presenter": "present",
    "PlayTable": "play",
    "EveningTable": "evening",
    "PassPlayTable": "evening",
}

__all__ = [
    "CardRow",
    "DeclarationsExplorer",
    "EveningTable",
    "Explorer",
    "Lab",
    "PassPlayTable",
    "PickCard",
    "PlayTable",
    "PoolCalculator",
    "Presenter",
    "QuizRunner",
    "Search",
    "Static",
    "Stepper",
    "TableView",
    "component_html",
    "pick_question",
    "pool_data",
    "quiz_page",
    "settlement_working",
    "stepper_steps",
    "table_view",
]


def __getattr__(name: str) -> Any:
    if name in _LIVE:
        module = importlib.import_module(f".{_LIVE[name]}", __name__)
        return getattr(module, name)
    raise AttributeError(f"module 'loo_lessons.widgets' has no attribute {name!r}")
