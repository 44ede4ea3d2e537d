"""Play one deal live against bots in JupyterLab: `PlayTable(seed, players=5, rules="hoffmann",
seat=1)`, the play controller (`controllers.play`) behind the generic anywidget adapter.
Every button has a Python twin (`choose(key)`, `hint()`, `undo()`, `restart()`, `save(path)`,
and `PlayTable.load(path)`). A "save" click from the browser writes only inside the working
directory.
"""

from __future__ import annotations

import os
from typing import Any

from loo_lessons.widgets.backends.kernel import KernelWidget
from loo_lessons.widgets.controllers.play import (
    PLAY_STATE,
    Hint,
    IllegalChoice,
    PlayController,
    SavedTranscript,
    UnknownChoice,
    inside_working_directory,
)


class PlayTable(KernelWidget, kind="play"):
    """One deal against bots, from the learner's seat (see `controllers.play.PlayController`)."""

    @classmethod
    def load(cls, path: str | os.PathLike[str], **kwargs: Any) -> PlayTable:
        """A saved game, live again at the same point (`PlayController.load`)."""
        return cls.wrap(PlayController.load(path, **kwargs))

    def save(self, path: str | os.PathLike[str] | None = None) -> SavedTranscript:
        """Write the transcript (`PlayController.save`); its `load()` gives this widget back."""
        saved = self.controller.save(path)  # type: ignore[attr-defined]
        self._push()
        return SavedTranscript(saved.path, saved.data, opener=type(self).load)


__all__ = [
    "PLAY_STATE",
    "Hint",
    "IllegalChoice",
    "PlayTable",
    "SavedTranscript",
    "UnknownChoice",
    "inside_working_directory",
]
