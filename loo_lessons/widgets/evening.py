"""An evening of Loo live in JupyterLab: `EveningTable(seed, players=5, rules="hoffmann",
seat=1)`, the evening controller (`controllers.evening`) behind the generic anywidget
adapter. Every button has a Python twin (`choose(key)`, `hint()`, `ask_coach()`, `review()`,
`undo()`, `next_deal()`, `play_deal()`, `save(path)`, and `EveningTable.load(path)`)."""

from __future__ import annotations

import os
from typing import Any

from loo_lessons.widgets.backends.kernel import KernelWidget
from loo_lessons.widgets.controllers.evening import EveningController


class EveningTable(KernelWidget, kind="evening"):
    """Deal after deal at one table, from the learner's seat (see `controllers.evening`)."""

    @classmethod
    def load(cls, path: str | os.PathLike[str], **kwargs: Any) -> EveningTable:
        """A saved evening, live again where it was left."""
        return cls.wrap(EveningController.load(path, **kwargs))


__all__ = ["EveningTable"]
