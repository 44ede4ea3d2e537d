"""Every widget: its name, its controller and its JS component, in one place.

Both back ends make widgets from here: the kernel's anywidget adapter
(`backends.kernel`, JupyterLab) and the page's worker (`backends.browser`, the book); the
bundler's list of components (`bundle.COMPONENTS`) and the static pages' starting states
(`static.DEFAULT_STATE`) are read from here too. A new widget is a controller
(`controllers/<name>.py`), its JS component (`js/<name>.js`) and one entry in `kinds.REGISTRY`
(book/guides/adding-a-widget.md). Controllers are imported when first needed (a page with no
lab does not pay for importing the simulator).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from loo_lessons.widgets.kinds import COMPONENTS, REGISTRY, Entry

if TYPE_CHECKING:
    from loo_lessons.widgets.controllers.base import Controller


def controller_class(kind: str) -> type[Controller]:
    """The controller class of widget `kind` (KeyError for an unknown one)."""
    entry = REGISTRY[kind]
    cls: type[Controller] = getattr(importlib.import_module(f"loo_lessons.widgets.controllers.{entry.module}"), entry.cls)
    return cls


__all__ = ["COMPONENTS", "REGISTRY", "Entry", "controller_class"]
