"""A pupil's seat at a class table on the hub: the `seat` widget's controller.

The table is the class tables service's (`classroom/tables`): its referee, the engine, deals,
checks every move and tells each seat only what that seat may know. This controller only
carries the pupil's clicks to the service (`loo_lessons.class_tables.Tables`: join by the
table's code, a move by its key) and the service's answers back: the seat's view as the
service sent it, or the service's one line when it refuses (a move against the rules is
refused with its rule id and the book's words, which the view then holds). It follows the
table live: a thread long-polls the service (`Tables.wait`) and hands each new view to the
page (`on_change`, the kernel back end's push). It decides no rule.

The book's page has no hub to ask (it is static, offline): there the widget is static and
says so; the hub's own seat page (`/services/class-tables/`) and JupyterLab on the hub play.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Protocol

from loo_lessons.class_tables import Tables, TablesRefused
from loo_lessons.widgets.controllers.base import Controller, Refused, is_int

#: The requests the component sends, each with the keys it may carry.
REQUEST_KEYS: dict[str, tuple[str, ...]] = {
    "join": ("n", "type", "table"),
    "move": ("n", "type", "key"),
}
#: After a failed long-poll (the network, the service restarting), wait this long and ask again.
RETRY_SECONDS = 2.0
#: Longest code and move key a request may carry.
MAX_CODE = 20
MAX_KEY = 12


class Service(Protocol):
    """What the seat asks of the tables service (`class_tables.Tables`)."""

    def join(self, code: str) -> dict[str, Any]:
        """Sit at table `code`: the seat's view."""
        ...

    def view(self, code: str) -> dict[str, Any]:
        """The seat's view at table `code`."""
        ...

    def move(self, code: str, view: dict[str, Any], key: str) -> dict[str, Any]:
        """Make move `key` at the seat and number of `view`: the view after it."""
        ...

    def wait(self, code: str, after: int) -> dict[str, Any]:
        """The seat's view once the table's version is past `after` (or after a while)."""
        ...


def _line(e: TablesRefused) -> str:
    """The service's one line, without the status number in front."""
    text = str(e)
    return text.split(": ", 1)[1] if f"{e.status}: " in text[:6] else text


class SeatController(Controller, component="seat"):
    """A pupil's seat at a class table (see the module docstring). `code`: the table's code
    (else the component asks for it); `tables`: the service (default `Tables()`, the hub's
    address and the pupil's own login from the kernel's environment); `follow`: keep the view
    live with a long-polling thread."""

    EVENTS: ClassVar[tuple[str, ...]] = ("request",)
    SYNCED: ClassVar[tuple[str, ...]] = ("request",)
    request: dict[str, Any]
    #: Told when the view changed outside a message (the follower's news): the kernel pushes.
    on_change: Callable[[], None] | None = None

    def __init__(
        self, code: str | None = None, *, tables: Service | None = None, follow: bool = True, **traits: Any
    ) -> None:
        super().__init__(**traits)
        self._service = tables
        self._follow = follow
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._code = ""
        self._view: dict[str, Any] | None = None
        self._status = ""
        self._draw()
        if code is not None:
            self.join(code)

    # --- what the pupil does ------------------------------------------------------------------
    def join(self, code: str) -> None:
        """Sit at the table `code` (your own seat again if you sat there), then follow it."""
        if not isinstance(code, str) or not 0 < len(code.strip()) <= MAX_CODE:
            raise Refused("table: type the code your teacher gave (six letters and digits)")
        with self._lock:
            view = self._ask(lambda s: s.join(code.strip()))
            if view is None:
                self._draw()
                return
            self._code, self._view, self._status = str(view["table"]), view, ""
            self._draw()
        self._start()

    def move(self, key: str) -> None:
        """Play `key` (one of the view's legal moves, or any: the service's referee judges it)."""
        with self._lock:
            if self._view is None:
                raise Refused("move: sit at a table first")
            if not isinstance(key, str) or not 0 < len(key) <= MAX_KEY:
                raise Refused("move: a card or a declaration")
            view = self._view
            after = self._ask(lambda s: s.move(self._code, view, key))
            if after is None:  # refused: the seat's view holds the refusal, with the law
                after = self._ask(lambda s: s.view(self._code), quiet=True)
            if after is not None:
                self._take(after)
            self._draw()

    def refresh(self) -> None:
        """Ask the service for the seat's view again (the follower does this by itself)."""
        with self._lock:
            if not self._code:
                raise Refused("table: sit at a table first")
            view = self._ask(lambda s: s.view(self._code))
            if view is not None:
                self._take(view)
            self._draw()

    def close(self) -> None:
        """Stop following the table (the widget is closed)."""
        self._stop.set()

    # --- the service ----------------------------------------------------------------------------
    def _tables(self) -> Service:
        if self._service is None:
            self._service = Tables()  # refused in one line off the hub
        return self._service

    def _ask(self, call: Callable[[Service], dict[str, Any]], quiet: bool = False) -> dict[str, Any] | None:
        """The service's answer, or None with its one line shown (never raised)."""
        try:
            return call(self._tables())
        except TablesRefused as e:
            if not quiet:
                self._error = _line(e)
            return None
        except OSError as e:  # the hub or the network is away
            self._error = f"the class tables service did not answer ({type(e).__name__})"
            return None

    def _take(self, view: Mapping[str, Any]) -> bool:
        """Keep `view` if it is newer than the one held; whether it was."""
        held = self._view
        if held is not None and view.get("version", 0) < held.get("version", 0):
            return False
        self._view = dict(view)
        return True

    def _start(self) -> None:
        if not self._follow or (self._thread is not None and self._thread.is_alive()):
            return
        self._thread = threading.Thread(target=self._follow_table, name=f"loo-seat-{self._code}", daemon=True)
        self._thread.start()

    def _follow_table(self) -> None:
        """Long-poll the table until it is over or the widget closes; each new view drawn."""
        while not self._stop.is_set():
            with self._lock:
                view, code = self._view, self._code
            if view is None or view.get("over"):
                return
            try:
                news = self._tables().wait(code, int(view.get("version", 0)))
            except (TablesRefused, OSError) as e:
                with self._lock:
                    why = _line(e) if isinstance(e, TablesRefused) else "the class tables service is not answering"
                    self._status = f"Reconnecting… ({why}; this seat carries on by itself)"
                    self._draw()
                self._tell()
                self._stop.wait(RETRY_SECONDS)
                continue
            with self._lock:
                fresh = self._take(news) or bool(self._status)
                self._status = ""
                if fresh:
                    self._draw()
            if fresh:
                self._tell()

    def _tell(self) -> None:
        tell = self.on_change
        if tell is not None and not self._stop.is_set():
            tell()

    # --- what is drawn ------------------------------------------------------------------------------
    _error = ""

    def _draw(self) -> None:
        data: dict[str, Any] = {"table": self._code, "view": self._view, "status": self._status}
        if self._error:
            data["refused"] = self._error
        self._apply({"data": data})

    # --- the component's messages ------------------------------------------------------------------
    def _event(self, kind: str, ev: Mapping[str, Any]) -> None:
        self._request(ev.get("request"))

    def _sync(self, changes: Mapping[str, Any]) -> None:
        if "request" in changes:
            self._apply({"request": changes["request"]})
            self._request(changes["request"])

    def _request(self, ev: object) -> None:
        if not ev:
            return  # the request trait cleared (a fresh widget): nothing asked
        if not isinstance(ev, Mapping):
            raise Refused("a request is an object {n, type, ...}")
        kind = ev.get("type")
        if kind not in REQUEST_KEYS:
            raise Refused(f"unknown request {str(kind)[:40]!r} (the seat takes join, move)")
        extra = sorted(str(k)[:20] for k in ev if k not in REQUEST_KEYS[str(kind)])
        if extra:
            raise Refused(f"a {kind} request has no {', '.join(extra)}")
        if not is_int(ev.get("n", 0)) or ev.get("n", 0) < 0:
            raise Refused("n must be a whole number, 0 or more")
        if kind == "join":
            self.join(ev.get("table"))  # type: ignore[arg-type]  # checked in join
        else:
            self.move(ev.get("key"))  # type: ignore[arg-type]  # checked in move

    def receive(self, message: object) -> dict[str, Any]:
        """One message from the component; a refusal of the service's stays shown until the next."""
        with self._lock:
            self._error = ""
            return super().receive(message)

    def _clear_refusal(self) -> None:
        # a refusal the service gave this very message stays shown; an older one goes
        if not self._error:
            super()._clear_refusal()
