"""The widgets notebooks use in JupyterLab: each is its controller (`controllers/`) behind the
generic anywidget adapter (`backends.kernel`), made from the registry. The constructors are
the controllers'; every method a lesson or a test calls (`click()`, `next()`, `check()`, ...)
is the controller's, forwarded, so JupyterLab and the book run the same Python path.
"""

from __future__ import annotations

from typing import Any

from loo_lessons import quiz
from loo_lessons.widgets.backends.kernel import KernelWidget
from loo_lessons.widgets.controllers.explore import EXPLORE_OPTIONS
from loo_lessons.widgets.controllers.quiz import default_generator, question_json
from loo_lessons.widgets.controllers.steps import StepperController, played_out

TOPICS: tuple[str, ...] = quiz.TOPICS


class CardRow(KernelWidget, kind="cards"):
    """A row of cards: `CardRow(["QH", "10S"], title="Seat 3 holds")`."""


class TableView(KernelWidget, kind="table"):
    """The table of a position: seats, who deals, who is in, cards, the miss, the trick, the pool."""


class PickCard(KernelWidget, kind="pick"):
    """Pick the cards (or declarations) the rules allow, then Check; each choice explained."""


class PoolCalculator(KernelWidget, kind="pool"):
    """Who receives and who pays: entries checked against the engine's settlement."""


class QuizRunner(KernelWidget, kind="quiz"):
    """A quiz over a bank of questions: one at a time, graded, explained, scored per topic."""


class TableSeat(KernelWidget, kind="seat"):
    """A pupil's seat at a class table on the hub: `TableSeat("K7QMRT")` (the code the teacher
    gave), or `TableSeat()` and type it. The hub's tables service referees every move."""


class Stepper(KernelWidget, kind="stepper"):
    """Step through one deal: the deal, declarations, each card and trick, the settlement."""

    @classmethod
    def random_deal(cls, seed: int, players: int = 5, preset: str | None = None, **kwargs: Any) -> Stepper:
        """A deal from `seed`, played out with moves drawn at random among the legal ones."""
        return cls.wrap(StepperController.random_deal(seed, players, preset, **kwargs))


class Explorer(KernelWidget, kind="explore"):
    """One position under rules the learner chooses: `choose_preset(name)`, `set_option(key, value)`."""


class DeclarationsExplorer(KernelWidget, kind="declarations"):
    """One position in which someone is to declare, with what the players before declared
    chosen by the learner: `declare(seat, word)`."""


class Lab(KernelWidget, kind="lab"):
    """The strategy lab: small seeded simulations with a progress bar; `run(**settings)`."""


class Search(KernelWidget, kind="search"):
    """The edge-case search and the preset comparison: `find(...)`, `compare(...)`."""


class Practice(KernelWidget, kind="practice"):
    """Practice by rule: new positions for the rules due or missed, recorded in the learner's
    `loo-progress/1` file; `click(key)`, `check()`, `show()`, `next()`, `again()`."""


__all__ = [
    "EXPLORE_OPTIONS",
    "TOPICS",
    "CardRow",
    "DeclarationsExplorer",
    "Explorer",
    "Lab",
    "PickCard",
    "PoolCalculator",
    "Practice",
    "QuizRunner",
    "Search",
    "Stepper",
    "TableSeat",
    "TableView",
    "default_generator",
    "played_out",
    "question_json",
]
