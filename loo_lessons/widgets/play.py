"""Play one deal live against bots: `PlayTable(seed, players=5, rules="hoffmann", seat=1)`.

The game itself is `controllers.play.PlayGame` (pure Python: the same controller runs in the
book's page, in Pyodide); this module is its JupyterLab back end, the anywidget whose
`request` trait carries the browser's clicks to the kernel. Every button has a Python twin
that does exactly what the click does (`choose(key)`, `hint()`, `undo()`, `restart()`,
`save(path)`, and `PlayTable.load(path)`), so the whole game can be driven and tested without
a browser. A "save" click from the browser writes only inside the working directory.

The built book shows the position as it was built (the `pick` or `table` component), which
the page's engine replaces with the live table (`book_html`).
"""

from __future__ import annotations

from typing import Any

import traitlets

from loo_lessons.widgets.bundle import esm
from loo_lessons.widgets.controllers.play import (
    PLAY_STATE,
    Hint,
    IllegalChoice,
    PlayGame,
    SavedTranscript,
    UnknownChoice,
    inside_working_directory,
)
from loo_lessons.widgets.live import _Component


class PlayTable(PlayGame, _Component):
    """One deal against bots, from the learner's seat (see `controllers.play.PlayGame`)."""

    component = "play"
    _esm = esm("play")
    request = traitlets.Dict().tag(sync=True)
    show_hint = traitlets.Bool(False).tag(sync=True)
    tried = traitlets.Unicode(None, allow_none=True).tag(sync=True)
    save_name = traitlets.Unicode("").tag(sync=True)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.observe(self._on_request, names="request")

    def _repr_mimebundle_(self, **kwargs: Any) -> tuple[dict[Any, Any], dict[Any, Any]] | None:
        bundle = super()._repr_mimebundle_(**kwargs)
        if bundle is not None:
            bundle[0]["text/html"] = self.book_html()
        return bundle


__all__ = [
    "PLAY_STATE",
    "Hint",
    "IllegalChoice",
    "PlayTable",
    "SavedTranscript",
    "UnknownChoice",
    "inside_working_directory",
]
