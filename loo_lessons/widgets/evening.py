"""An evening of Loo live in JupyterLab: `EveningTable(seed, players=5, rules="hoffmann",
seat=1)`, the evening controller (`controllers.evening`) behind the generic anywidget
adapter. Every button has a Python twin (`choose(key)`, `hint()`, `ask_coach()`, `review()`,
`undo()`, `next_deal()`, `play_deal()`, `save(path)`, and `EveningTable.load(path)`)."""

from __future__ import annotations

import os
from typing import Any

from loo_lessons.widgets.backends.kernel import KernelWidget
from loo_lessons.widgets.controllers.evening import EveningController
from loo_lessons.widgets.controllers.pass_play import PassPlayController


class EveningTable(KernelWidget, kind="evening"):
    """Deal after deal at one table, from the learner's seat (see `controllers.evening`)."""

    @classmethod
    def load(cls, path: str | os.PathLike[str], **kwargs: Any) -> EveningTable:
        """A saved evening, live again where it was left."""
        return cls.wrap(EveningController.load(path, **kwargs))


class PassPlayTable(KernelWidget, kind="passplay"):
    """An evening passed round one device: `PassPlayTable(seed, players=5, people=(0, 1, 2),
    names=("Ann", "Bob", "Cy"))`, a pass screen hiding the cards between people (see
    `controllers.pass_play`; `show()`, then `choose(key)`)."""

    @classmethod
    def load(cls, path: str | os.PathLike[str], **kwargs: Any) -> PassPlayTable:
        """A saved pass-and-play evening, live again on its pass screen."""
        return cls.wrap(PassPlayController.load(path, **kwargs))


__all__ = ["EveningTable", "PassPlayTable"]
