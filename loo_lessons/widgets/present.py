"""The presenter in JupyterLab: `Presenter(seed, players, rules, faces)`, the present
controller (`controllers.present`) behind the generic anywidget adapter. `next()`, `back()`,
`toggle_faces()` (and `first()`, `last()`, `goto()`) do what the buttons and keys do."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from loo_lessons.widgets.backends.kernel import KernelWidget
from loo_lessons.widgets.controllers.present import (
    CARD_WIDTH_PX,
    FACES,
    present_data,
    present_reduce,
)
from loo_lessons.widgets.static import component_html

NAME = "present"


def present_html(state: Mapping[str, Any]) -> str:
    """The presenter as a self-contained HTML fragment (no kernel, no network)."""
    return component_html(NAME, state)


class Presenter(KernelWidget, kind="present"):
    """A seeded deal for the whole class: huge cards, hands face up or hidden, step by step."""


__all__ = ["CARD_WIDTH_PX", "FACES", "NAME", "Presenter", "present_data", "present_html", "present_reduce"]
