"""What every widget controller shares: the model traits as plain attributes, and the one
way a message from a front end gets in.

A controller turns a message (an event the component sends, or trait values it synced) and
its state into the next state. It is pure Python over the engine: no ipywidgets, anywidget,
traitlets, pandas or matplotlib, so the very same object runs in JupyterLab (wrapped by the
generic anywidget adapter, `widgets.backends.kernel`) and in the reader's browser (Pyodide
in a Web Worker, `widgets.backends.browser`).

Messages are refused unless they are exactly what the component sends: an unknown message,
an unknown trait or an out-of-range value gets a one-line refusal in `data["refused"]`
(drawn by every component), never an exception.
"""

from __future__ import annotations

import copy
import json
import math
from collections.abc import Callable, Iterable, Mapping
from typing import Any, ClassVar

from loo_lessons.engine.errors import LooError
from loo_lessons.widgets.static import DEFAULT_STATE, Static, component_html

#: The largest seed a widget takes, and the most questions one "New questions" may ask for.
MAX_SEED = 2**31 - 1
MAX_COUNT = 50
#: How deep and how long a message from a front end may be (a component sends a few KB).
MAX_DEPTH = 40
MAX_CHARS = 2_000_000


class Refused(LooError):
    """A message the component would never send (the widget shows this message)."""


def as_int(x: object) -> int | None:
    """`x` if it is a whole number, else None (a bool, though an int to Python, is not one)."""
    return x if isinstance(x, int) and not isinstance(x, bool) else None


def is_int(x: object) -> bool:
    """Whether `x` is a whole number (`as_int`)."""
    return as_int(x) is not None


def int_in(x: object, low: int, high: int, what: str) -> int:
    """`x` as an int in low..high, or Refused naming `what`."""
    if not isinstance(x, int) or isinstance(x, bool) or not low <= x <= high:
        raise Refused(f"{what} must be a whole number from {low} to {high}")
    return x


def one_of(x: object, allowed: tuple[Any, ...] | list[Any], what: str) -> Any:
    """`x` if it is one of `allowed`; anything else (unhashable values too) is refused naming
    `what` and the first choices."""
    try:
        ok = x in allowed
    except TypeError:  # an unhashable or uncomparable value
        ok = False
    if not ok:
        shown = ", ".join(str(a) for a in list(allowed)[:8])
        raise Refused(f"{what} must be one of {shown}")
    return x


def event_type(message: Mapping[str, Any], types: tuple[str, ...]) -> str:
    """The `type` of a component's message if this widget takes it; else refused naming the event
    and the ones it takes."""
    kind = message.get("type")
    if not isinstance(kind, str) or kind not in types:
        takes = f"this widget takes {', '.join(types)}" if types else "this widget takes no events"
        raise Refused(f"unknown event {str(kind)[:40]!r} ({takes})")
    return kind


def _where(what: str, key: str) -> str:
    return f"{what}.{key[:20]}" if key.isidentifier() else f"{what}[{key[:20]!r}]"


def checked_json(value: object, what: str = "message") -> None:
    """Refuse what no component sends, naming where it is (`message.sync.request.n: NaN is
    not JSON`): a value that is not plain JSON (NaN and infinity are not, nor text that is no
    UTF-8, such as a lone surrogate: the state would not cross to the page, nor render),
    nested too deep, or too long."""

    def text(s: str, where: str) -> None:
        try:
            s.encode("utf-8")
        except UnicodeEncodeError:
            raise Refused(f"{where}: text that is not UTF-8 (a lone surrogate)") from None

    def walk(v: object, depth: int, where: str) -> None:
        if depth > MAX_DEPTH:
            raise Refused(f"{what} is nested too deep")
        if isinstance(v, Mapping):
            for k, x in v.items():
                if not isinstance(k, str):
                    raise Refused(f"{where}: keys are text")
                text(k, where)
                walk(x, depth + 1, _where(where, k))
        elif isinstance(v, list | tuple):
            for i, x in enumerate(v):
                walk(x, depth + 1, f"{where}[{i}]")
        elif isinstance(v, str):
            text(v, where)
        elif isinstance(v, float) and not math.isfinite(v):
            raise Refused(f"{where}: {v} is not JSON")
        elif not (v is None or isinstance(v, bool | int | float)):
            raise Refused(f"{where}: {type(v).__name__} is not JSON")

    walk(value, 0, what)
    try:
        size = len(json.dumps(value, allow_nan=False))
    except (ValueError, TypeError, RecursionError) as e:
        raise Refused(f"{what} is not JSON") from e
    if size > MAX_CHARS:
        raise Refused(f"{what} is too long")


def button(kind: str, doc: str) -> Any:
    """A controller method that does what one of its component's buttons does: the event
    `kind`, with nothing more (`next = button("next", "Forward one step.")`)."""

    def press(self: Controller) -> None:
        self._event(kind, {"type": kind})

    press.__name__ = press.__qualname__ = kind
    press.__doc__ = doc
    return press


def traits_of(component: str) -> dict[str, Any]:
    """The component's traits and their starting values (`static.DEFAULT_STATE`)."""
    return copy.deepcopy(DEFAULT_STATE[component])


class Model:
    """The traits of a component as plain attributes, and the changes not yet sent."""

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


class Controller(Model):
    """A component's controller: `receive(message)` returns the traits it changed.

    Subclasses name their component (the JS module) once, in the class statement
    (`class PoolController(Controller, component="pool")`), set `EVENTS` (the event types it
    takes) and `SYNCED` (the traits the component may set) and implement `_event` and
    `_normalise`.
    Their Python methods (click, next, ...) are what the buttons do; the kernel adapter
    forwards them and pushes the changed traits to the page."""

    component: ClassVar[str] = ""
    EVENTS: ClassVar[tuple[str, ...]] = ()
    SYNCED: ClassVar[tuple[str, ...]] = ()
    data: dict[str, Any]
    #: Called while a long run goes on, (done, total): each back end shows it its way.
    on_progress: Callable[[int, int], None] | None = None
    #: May a message write a file? (In the page there is no file system worth writing: the
    #: browser back end sets False and the page downloads instead.)
    files: bool = True

    def __init_subclass__(cls, component: str = "", **kwargs: Any) -> None:
        # the component is named once: its traits are the component's (`static.DEFAULT_STATE`),
        # so a controller and its component cannot disagree on them
        super().__init_subclass__(**kwargs)
        if component:
            cls.component = component
            cls.TRAITS = traits_of(component)

    def take_over(self) -> None:
        """Made by the book's engine from the state its page showed until then (the page
        worked while the engine started): what needs the engine's word is done again here.
        Nothing, for most widgets."""

    def receive(self, message: object) -> dict[str, Any]:
        """One message from the front end; never raises for a bad one (it is refused in
        `data["refused"]`, which every component draws)."""
        try:
            checked_json(message)  # first: what cannot cross as JSON is named wherever it is
            if not isinstance(message, Mapping) or len(message) != 1:
                raise Refused("a message is {event: ...} or {sync: ...}")
            if "event" in message:
                ev = message["event"]
                if not isinstance(ev, Mapping):
                    raise Refused("an event is an object with a type")
                self._event(event_type(ev, self.EVENTS), ev)
            elif "sync" in message:
                changes = message["sync"]
                if not isinstance(changes, Mapping):
                    raise Refused("sync takes an object of trait values")
                # a trait the page may not set is refused, unless it is sent back unchanged
                bad = sorted(str(k)[:30] for k in changes if k not in self.SYNCED and not self._holds(k, changes[k]))
                if bad:
                    raise Refused(f"this widget does not take {', '.join(bad)}")
                self._sync({k: v for k, v in changes.items() if k in self.SYNCED})
            else:
                raise Refused("a message is {event: ...} or {sync: ...}")
            self._clear_refusal()
        except LooError as e:
            self._refuse(str(e))
        except (KeyError, ValueError, TypeError, IndexError, AttributeError, RecursionError, OverflowError) as e:
            self._refuse(f"refused: {type(e).__name__}: {str(e)[:160]}")
        return self.take_changes()

    def _holds(self, name: object, value: object) -> bool:
        if not isinstance(name, str) or name not in self.TRAITS:
            return False
        now = getattr(self, name)
        if isinstance(now, Mapping) and isinstance(value, Mapping):  # a refusal shown is the page's too
            now = {k: v for k, v in now.items() if k != "refused"}
            value = {k: v for k, v in value.items() if k != "refused"}
        return bool(now == value)

    def _refuse(self, why: str) -> None:
        data = getattr(self, "data", None)
        data = dict(data) if isinstance(data, Mapping) else {}
        data["refused"] = " ".join(why.split())[:300]
        self._apply({"data": data})

    def _clear_refusal(self) -> None:
        data = getattr(self, "data", {}) or {}
        if data.get("refused"):
            self._apply({"data": {k: v for k, v in data.items() if k != "refused"}})

    def _event(self, kind: str, ev: Mapping[str, Any]) -> None:
        raise Refused(f"this widget takes no {kind} event")

    def _sync(self, changes: Mapping[str, Any]) -> None:
        """Trait values from the component (its JS reducer ran): kept only when they are
        a state the Python reducer would give too (`_normalise`)."""
        merged = {**{k: getattr(self, k) for k in self.SYNCED}, **copy.deepcopy(dict(changes))}
        normal = self._normalise(merged)
        for k in changes:
            if normal.get(k) != merged.get(k):
                raise Refused(f"{k}: a value this widget cannot be in")
        self._apply({k: normal[k] for k in changes})

    def _normalise(self, st: Mapping[str, Any]) -> dict[str, Any]:
        return dict(st)

    # --- what notebooks and the book show ----------------------------------------------------
    def live_spec(self) -> dict[str, Any] | None:
        """How the book's engine makes this widget again (`registry`, and its arguments);
        None: it cannot (the page shows it static)."""
        return None

    def book_html(self) -> str:
        """What the book shows: the static component, which the page's engine takes over."""
        state = self.state()
        spec = self.live_spec()
        if spec is not None and isinstance(state.get("data"), dict) and "live" in state["data"]:
            state["data"] = {**state["data"], "live": False}  # until the engine is there
        return component_html(self.component, state, live=spec)

    def static_html(self) -> str:
        """This component as a self-contained HTML fragment (no kernel needed)."""
        return component_html(self.component, self.state())

    def static(self) -> Static:
        """This component, as it is now, as an object notebooks show as static HTML."""
        return Static(self.component, self.state())


def shown_seats(reveal: bool | Iterable[int]) -> bool | frozenset[int]:
    """`reveal` as the explain functions take it: every hand (True), none (False), or these seats."""
    return reveal if isinstance(reveal, bool) else frozenset(reveal)


class PositionController(Controller):
    """A controller made from one position (a Hand, a scenario, its file or its name), the
    hands shown to every seat, none or some (`reveal`): `_show` makes the data drawn."""

    def __init__(
        self,
        position: Any = None,
        *,
        title: str | None = None,
        reveal: bool | Iterable[int] = True,
        **traits: Any,
    ) -> None:
        super().__init__(**traits)
        self._reveal = shown_seats(reveal)
        if position is not None:
            self.data = self._show(position, title)

    def _show(self, position: Any, title: str | None) -> dict[str, Any]:
        raise NotImplementedError


class RequestController(Controller):
    """A controller whose component sends its events as a `request` trait ({n, type, ...}),
    which both back ends sync as they are: the explorer, the lab and the search."""

    SYNCED: ClassVar[tuple[str, ...]] = ("request",)
    request: dict[str, Any]

    def _sync(self, changes: Mapping[str, Any]) -> None:
        if "request" not in changes:
            return  # traits the component keeps for itself (the lab's bar)
        req = changes["request"]
        if not isinstance(req, Mapping):
            raise Refused("a request is an object {n, type, ...}")
        self._apply({"request": dict(req)})
        if req:
            ev = {k: v for k, v in req.items() if k != "n"}
            self._event(event_type(ev, self.EVENTS), ev)

    def _ask(self, kind: str, **ev: Any) -> None:
        """Python's twin of a click: the request the component would send (a bad one is
        refused in `data["refused"]`, as the page's would be)."""
        n = as_int(self.request.get("n")) if isinstance(self.request, Mapping) else None
        self.receive({"sync": {"request": {**ev, "type": kind, "n": (n or 0) + 1}}})
