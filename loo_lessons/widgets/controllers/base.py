"""What every widget controller shares: the model traits as plain attributes, and the one
way a message from a front end gets in.

A controller turns a message (an event the component sends, or trait values it synced) and
its state into the next state. It is pure Python over the engine: no ipywidgets, anywidget,
traitlets, pandas or matplotlib, so the very same class runs in JupyterLab (under the
anywidget adapter, which syncs the traits) and in the reader's browser (Pyodide in a Web
Worker, `controllers.browser`).

Messages are refused unless they are exactly what the component sends: an unknown message,
an unknown trait or an out-of-range value gets a one-line refusal in `data["refused"]`
(drawn by every component), never an exception.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any, ClassVar

from loo_lessons.engine.errors import LooError


class Refused(LooError):
    """A message the component would never send (the widget shows this message)."""


def is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def int_in(x: object, low: int, high: int, what: str) -> int:
    """`x` as an int in low..high, or Refused naming `what`."""
    if not isinstance(x, int) or isinstance(x, bool) or not low <= x <= high:
        raise Refused(f"{what} must be a whole number from {low} to {high}")
    return x


def one_of(x: object, allowed: tuple[Any, ...] | list[Any], what: str) -> Any:
    if x not in allowed:
        shown = ", ".join(str(a) for a in list(allowed)[:8])
        raise Refused(f"{what} must be one of {shown}")
    return x


def event_type(message: Mapping[str, Any], types: tuple[str, ...]) -> str:
    kind = message.get("type")
    if kind not in types:
        raise Refused(f"unknown event {str(kind)[:40]!r} (this widget takes {', '.join(types)})")
    return str(kind)


class Model:
    """The traits of a component as plain attributes: the browser back end of a controller
    (in JupyterLab the anywidget class provides the same attributes as synced traits)."""

    TRAITS: ClassVar[dict[str, Any]] = {}

    def __init__(self, **traits: Any) -> None:
        unknown = sorted(set(traits) - set(self.TRAITS))
        if unknown:
            raise TypeError(f"unknown traits {unknown}")
        self._changed: dict[str, Any] = {}
        for k, v in self.TRAITS.items():
            object.__setattr__(self, k, copy.deepcopy(traits.get(k, v)))

    def _apply(self, new: Mapping[str, Any]) -> None:
        for k, v in new.items():
            setattr(self, k, v)
            self._changed[k] = v

    def state(self) -> dict[str, Any]:
        """Every trait, as the component's model holds it."""
        return {k: copy.deepcopy(getattr(self, k)) for k in self.TRAITS}

    def take_changes(self) -> dict[str, Any]:
        """The traits changed since the last call (what goes back to the page)."""
        out, self._changed = self._changed, {}
        return copy.deepcopy(out)
