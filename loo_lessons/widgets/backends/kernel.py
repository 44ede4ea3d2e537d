"""The JupyterLab back end: one generic anywidget adapter around a widget's controller.

`KernelWidget` subclasses name a widget of the registry (`class PickCard(KernelWidget,
kind="pick")`): the traits are the controller's `TRAITS`, synced with the page; the
constructor is the controller's. Whatever the page sends (a trait sync, a custom message, a
crafted comm message) goes through `controller.receive`, exactly as the book's worker sends
it (`backends.browser`), and the controller's state is pushed back, so a refused value is
put back in the page too. Python's own calls (`click()`, `next()`, ...) are the controller's
methods, forwarded; a trait set from Python goes through the controller as well.
"""

from __future__ import annotations

import copy
import functools
import types
import warnings
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from typing import Any, ClassVar, Self

import anywidget
import traitlets

from loo_lessons.engine.errors import InputError
from loo_lessons.progress import store
from loo_lessons.progress.graded import graded
from loo_lessons.progress.record import answer
from loo_lessons.widgets.bundle import esm
from loo_lessons.widgets.controllers.base import Controller
from loo_lessons.widgets.registry import REGISTRY, controller_class


class KernelWidget(anywidget.AnyWidget):  # type: ignore[misc,unused-ignore]
    """A widget controller as an anywidget (see the module docstring)."""

    kind: ClassVar[str] = ""
    controller_class: ClassVar[type[Controller]]

    def __init_subclass__(cls, kind: str = "", **kwargs: Any) -> None:
        if kind:
            ctl = controller_class(kind)
            cls.kind = kind
            cls.controller_class = ctl
            cls._esm = esm(REGISTRY[kind].js)
            for name, default in ctl.TRAITS.items():
                trait = traitlets.Any(copy.deepcopy(default)).tag(sync=True)
                setattr(cls, name, trait)
                trait.class_init(cls, name)
        super().__init_subclass__(**kwargs)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._bind(self.controller_class(*args, **kwargs))

    @classmethod
    def wrap(cls, controller: Controller) -> Self:
        """This widget around a controller already made (e.g. `PlayController.load`)."""
        w: Self = cls.__new__(cls)
        w._bind(controller)
        return w

    def _bind(self, ctl: Controller) -> None:
        ctl.take_changes()
        self.__dict__["_controller"] = ctl
        self.__dict__["_pushing"] = False
        super().__init__(**ctl.state())
        if "progress" in ctl.TRAITS:
            ctl.on_progress = lambda done, total: self._push(("progress",))
        if hasattr(ctl, "on_change"):  # a change made outside a message (the quiz's post refused)
            ctl.on_change = self._push
        self.observe(self._from_python, names=list(ctl.TRAITS))
        # what the widget held graded when made is not the learner's answer here
        self.__dict__["_graded"] = {g.seen for g in graded(self.kind, ctl.state())}

    @property
    def controller(self) -> Controller:
        """The controller this widget shows (the same class the book's page runs)."""
        ctl: Controller = self.__dict__["_controller"]
        return ctl

    # --- controller -> page ----------------------------------------------------------------------
    def _push(self, names: Iterable[str] | None = None) -> None:
        """Every trait the controller holds now, into the widget (and so to the page)."""
        ctl = self.controller
        self.__dict__["_pushing"] = True
        try:
            with self.hold_sync():
                for k in names if names is not None else ctl.TRAITS:
                    v = getattr(ctl, k)
                    if getattr(self, k) != v:
                        setattr(self, k, copy.deepcopy(v))
        finally:
            self.__dict__["_pushing"] = False
        self._keep_graded()

    def _keep_graded(self) -> None:
        """Each answer newly graded (a pick checked, a question answered, a task's decisions)
        into the learner's record file (`progress.store`), with the rules Python gave it. Only
        here, in a kernel: the book's page keeps its own in the browser."""
        ctl = self.controller
        now = graded(self.kind, ctl.state())
        seen: set[tuple[str, str]] = self.__dict__.setdefault("_graded", set())
        at = datetime.now(UTC)
        for g in now:
            if g.seen in seen:
                continue
            seen.add(g.seen)
            try:
                store.record(answer(f"jupyterlab#{g.item}", g.kind, g.rules, g.correct, at, page="jupyterlab", back=g.back))
            except (InputError, OSError) as e:  # a damaged or unwritable file: said, never lost
                warnings.warn(f"loo-progress: not kept: {e}", stacklevel=2)
        # a pick or a form cleared to be tried again: its next Check is another answer
        seen &= {g.seen for g in now} | {s for s in seen if s[0].startswith(("quiz:", "task:"))}

    def _receive(self, message: object, sent: Iterable[str] = ()) -> None:
        self.controller.receive(message)
        self._push()
        # the page holds what it sent: it gets the controller's value back
        names = [k for k in sent if k in self.controller.TRAITS]
        if names:
            self.send_state(names)  # (no page attached: nothing is sent)

    # --- page -> controller ----------------------------------------------------------------------
    def _handle_msg(self, msg: Any) -> None:
        """A message from the page, as the comm delivers it: never raises in the kernel."""
        try:
            data = msg["content"]["data"]
            method = data["method"]
        except (KeyError, TypeError, IndexError):
            self._receive({"malformed": None})
            return
        if method == "update":
            state = data.get("state") if isinstance(data, Mapping) else None
            self.set_state(state)
        elif method == "request_state":
            self.send_state()
        elif method == "custom":
            self._receive(data.get("content"))
        else:
            self._receive({"method": str(method)[:40]})

    def set_state(self, sync_data: Any) -> None:
        """Trait values the page synced: through the controller, as the book's worker does.
        The page is told first that its values arrived (ipywidgets' echo: until then it
        ignores the kernel's values for those traits); then it gets the controller's."""
        sent = [k for k in sync_data if isinstance(k, str)] if isinstance(sync_data, Mapping) else []
        echo = {k: sync_data[k] for k in sent if k in self.keys and self.trait_metadata(k, "echo_update", default=True)}
        if echo:  # (the components send plain JSON: no binary buffers to take out)
            self._send({"method": "echo_update", "state": echo, "buffer_paths": []})
        self._receive({"sync": dict(sync_data) if isinstance(sync_data, Mapping) else sync_data}, sent)

    def _from_python(self, change: Mapping[str, Any]) -> None:
        """A trait set in Python (`w.step = 3`): what the page may set goes through the
        controller; the rest (`w.data = ...`) is Python's own to set."""
        if self.__dict__.get("_pushing"):
            return
        name, new = change["name"], change["new"]
        ctl = self.controller
        if name in ctl.SYNCED:
            ctl.receive({"sync": {name: new}})
        else:
            setattr(ctl, name, copy.deepcopy(new))
        self._push()

    # --- Python's calls: the controller's methods, forwarded ------------------------------------
    def __getattr__(self, name: str) -> Any:
        ctl = self.__dict__.get("_controller")
        if name.startswith("_") or ctl is None:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        value = getattr(ctl, name)
        if not callable(value) or isinstance(value, type):
            return value

        @functools.wraps(value)
        def call(*args: Any, **kwargs: Any) -> Any:
            try:
                out = value(*args, **kwargs)
            finally:
                self._push()
            return self if out is ctl else out

        return call

    def close(self) -> None:
        """Close the widget, and stop what its controller keeps running (the seat's follower)."""
        stop = getattr(self.__dict__.get("_controller"), "close", None)
        if callable(stop):
            stop()
        super().close()

    # --- what notebooks and the book show --------------------------------------------------------
    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        """The live widget view, plus the book's HTML: JupyterLab shows the widget; the built
        book (no kernel) shows the static component, which the page's engine takes over."""
        bundle = super()._repr_mimebundle_(**kwargs)
        if isinstance(bundle, tuple) and bundle:
            bundle[0]["text/html"] = self.controller.book_html()
        elif isinstance(bundle, dict):
            bundle["text/html"] = self.controller.book_html()
        return bundle


@functools.cache
def widget_class(kind: str) -> type[KernelWidget]:
    """A JupyterLab widget for any entry of the registry, made on first use: a new widget
    needs no class of its own here (`live`'s named classes only give notebooks nicer names)."""
    name = REGISTRY[kind].cls.removesuffix("Controller") + "Widget"
    made: type[KernelWidget] = types.new_class(name, (KernelWidget,), {"kind": kind})
    return made
