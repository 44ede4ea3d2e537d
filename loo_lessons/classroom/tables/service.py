"""The class tables service: a JupyterHub service the hub starts and authenticates.

Started by the hub (deploy/jupyterhub/jupyterhub_config.py) as ``python -m
loo_lessons.classroom.tables.service --db FILE``. Every request is identified by the hub's
OAuth, as the results service's (`classroom.service`): a browser's login cookie or a pupil's
own token. Under ``/services/class-tables/``, JSON in and out:

- ``POST api/tables`` (a teacher: a hub admin or in the group ``teachers``): open a table
  (`referee.table_setup`'s keys: players 3–8, rules, stake, loo, loo_cap, deals or none for
  "until stopped", bots, seed, bank, wait for the teacher's Start (the default), demo: bots
  only); its code comes back. ``GET api/tables``: every table's public facts.
  ``POST api/start`` ``{"table": CODE}``: a waiting table starts; ``POST api/stop``: it stops.
- ``POST api/join`` ``{"table": CODE}``: the pupil takes a seat (their own again after a
  reload); one table at a time. ``GET api/view?table=CODE``: their seat's view
  (`referee.Table.seat_json`: never another seat's cards, the miss or the stock).
  ``POST api/move`` ``{"table", "seat", "move", "number"}``: a move, with the move number the
  pupil saw; the view after it. ``GET api/wait?table=CODE&after=V``: the view once the
  table's version is past V (a long-poll, for a proxy that refuses WebSockets).
  ``api/ws?table=CODE``: a WebSocket sending the same view at once and after every change.
- ``GET`` (the page): a teacher sees every table live (whose turn, tricks, pool, ledger);
  ``table?table=CODE`` one table, ``&project=1`` for the projector (no pupil's cards are ever
  on the teacher's pages).

A refusal is one line, ``{"error": ...}`` with its status (400 bad input or a body nested
too deep, 403 not your seat, 409 out of turn or a stale number, 413 too big, 422 against
the rules with the rule's id and the book's words, 429 a flood, or more than
`room.MAX_OPEN` WebSockets and long-polls open at once); nothing refused is stored, and a
refused move is told to the seat that made it, nobody else. A body announced longer than the
results service's `READ_AT_MOST` is refused unread (400). The log counts refusals, once a
minute (`classroom.service.quiet_log`).

The service signs its cookies with a secret kept beside its database (``--cookie-secret``,
made once, mode 0600): after a restart every open page and socket carries on, and they
reconnect by themselves.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from jupyterhub.services.auth import HubOAuthenticated
from jupyterhub.utils import url_path_join
from tornado import web, websocket

from loo_lessons.classroom.service import (
    SecretError,
    hub_address,
    kept_secret,
    quick_exit,
    quiet_log,
    routes,
    serve,
)
from loo_lessons.classroom.service import hub_teacher as is_hub_teacher
from loo_lessons.classroom.tables.pages import (
    live_page,
    open_form,
    opened_html,
    refused_html,
    setup_from_form,
    table_body,
    tables_body,
)
from loo_lessons.classroom.tables.referee import Illegal, TableError
from loo_lessons.classroom.tables.room import Room
from loo_lessons.classroom.tables.seat_page import back_end, component, seat_html
from loo_lessons.classroom.tables.store import Store

NAME = "class-tables"
#: The largest body a request may have (a move is a few dozen bytes, a setup a few hundred; as
#: the results service, so a body nested 5,000 deep is read and refused as too deep, 400).
MAX_BODY = 10_000
#: How long a long-poll waits before answering with the view as it is.
WAIT_SECONDS = 20.0
#: A version or a news number as ``?after=`` gives it: ASCII digits, as many as a JavaScript
#: number holds exactly (a minus one too: "nothing seen yet").
_AFTER = re.compile(r"-1|[0-9]{1,15}")

Teacher = Callable[["Base", str], bool]


def hub_teacher(handler: Base, name: str) -> bool:
    """A hub admin or a member of the `teachers` group (the results service's `hub_teacher`, its
    look-ups kept in the application's settings)."""
    return is_hub_teacher(handler.hub_auth, handler.settings["lookups"], name)


def after_of(text: str, what: str) -> int:
    """``?after=`` as a number, or a `TableError` (400) saying what it should be: any other
    text (``²``, ``1e3``, a hundred digits) is refused, never a fault."""
    if not _AFTER.fullmatch(text):
        raise TableError(f"after: expected {what}, a whole number")
    return int(text)


def body_json(body: bytes) -> dict[str, Any]:
    """A request's body as a JSON object, or a `TableError` (413 too big, 400 otherwise)."""
    if len(body) > MAX_BODY:
        e = TableError(f"body: at most {MAX_BODY} bytes")
        e.status = 413
        raise e
    try:
        found = json.loads(body or b"{}")
    except RecursionError:  # thousands of nested brackets: refused, never a 500
        raise TableError("body: nested too deeply") from None
    except (ValueError, UnicodeDecodeError):
        raise TableError("body: not JSON") from None
    if not isinstance(found, dict):
        raise TableError("body: expected a JSON object")
    return found


class Base(HubOAuthenticated, web.RequestHandler):  # type: ignore[misc]
    """What every handler shares: the room, who is asking, one-line refusals."""

    room: Room

    def initialize(self, room: Room) -> None:
        """Take the room the app was made with (tornado calls this for each request)."""
        self.room = room

    def get_current_user(self) -> Any:
        """The hub's user asking (through the hub's OAuth), or the one a test names."""
        identify = self.settings.get("identify")  # tests without a hub name the user themselves
        return identify(self.request) if identify is not None else super().get_current_user()

    def user_name(self) -> str:
        """The logged-in hub user's name (not a service's), flood-checked, or 403/429."""
        user = self.current_user
        if not user or user.get("kind", "user") != "user":
            raise web.HTTPError(403, "only the hub's users may sit at the class's tables")
        name = str(user["name"])
        self.room.flood(name)
        return name

    def teacher(self) -> str:
        """The name of a teacher asking, or 403."""
        name = self.user_name()
        is_teacher: Teacher = self.settings["is_teacher"]
        if not is_teacher(self, name):
            raise web.HTTPError(403, "the class's tables are opened and watched by its teachers")
        return name

    def xsrf(self) -> str:
        """The token a page's forms and script send back (the hub's xsrf check for a request a
        browser makes with the login cookie)."""
        token = self.xsrf_token
        return token.decode() if isinstance(token, bytes) else str(token)

    def send(self, data: dict[str, Any], status: int = 200) -> None:
        """Answer `data` as JSON, never cached."""
        self.set_status(status)
        self.set_header("Content-Type", "application/json; charset=utf-8")
        self.set_header("Cache-Control", "no-store")
        self.finish(json.dumps(data))

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        """A refusal as one line of JSON: the error, the status and, for an illegal move, the law."""
        exc = kwargs.get("exc_info", (None, None, None))[1]
        law = None
        if isinstance(exc, TableError):
            status_code, reason = exc.status, str(exc)
            law = exc.law if isinstance(exc, Illegal) else None
        elif isinstance(exc, web.HTTPError) and exc.log_message:
            reason = exc.log_message
        else:
            reason = self._reason
        self.set_status(status_code)
        self.clear_header("Content-Type")
        self.send({"error": reason, "status": status_code, "law": law}, status_code)

    def _handle_request_exception(self, e: BaseException) -> None:
        if isinstance(e, TableError):  # a refusal, not a fault: no traceback in the log
            self.send_error(e.status, exc_info=(type(e), e, e.__traceback__))
            return
        super()._handle_request_exception(e)

    def log_exception(self, typ: Any, value: Any, tb: Any) -> None:
        """Log a fault, but not a refusal (a table's one-line error is not a fault)."""
        if isinstance(value, TableError):
            return
        super().log_exception(typ, value, tb)


class TablesHandler(Base):
    """``api/tables``: a teacher lists the tables (GET) or opens one (POST)."""

    def get(self) -> None:
        """List every table (a teacher only)."""
        self.teacher()
        self.send({"tables": [t.public_json() for t in self.room.tables.values()]})

    def post(self) -> None:
        """Open a table from the setup in the body (a teacher only): 201 with its code."""
        self.teacher()
        t = self.room.open(body_json(self.request.body))
        self.send({"table": t.id, "setup": t.setup.as_json(), "view": t.public_json()}, 201)


class StartStopHandler(Base):
    """``api/start`` and ``api/stop``: a teacher starts a table that waited for its pupils, or
    stops one."""

    def post(self) -> None:
        """Start or stop the table named in the body (a teacher only): its view."""
        self.teacher()
        code = body_json(self.request.body).get("table")
        t = self.room.start(code) if self.request.path.endswith("/start") else self.room.stop(code)
        self.send(t.public_json())


class JoinHandler(Base):
    """``api/join``: a pupil sits at a table by its code (their seat again on a reload)."""

    def post(self) -> None:
        """Sit the pupil at the table named in the body (their own seat again if they had one): the seat's view."""
        name = self.user_name()
        t, seat = self.room.join(name, body_json(self.request.body).get("table"))
        self.send_view(t.id, seat)

    def view(self, code: str, seat: int) -> str:
        """The seat's view with the table's version (for ``api/wait?after=``), as JSON: built
        once per change of the table (`Room.view`)."""
        return self.room.view(code, seat)

    def send_view(self, code: str, seat: int) -> None:
        """Answer the seat's view, never cached."""
        self.set_header("Content-Type", "application/json; charset=utf-8")
        self.set_header("Cache-Control", "no-store")
        self.finish(self.view(code, seat))


class ViewHandler(JoinHandler):
    """``api/view``: a pupil's seat's view."""

    def get(self) -> None:
        """The pupil's seat's view at the table named in the query."""
        name = self.user_name()
        t, seat = self.room.seat_of(name, self.get_argument("table", ""))
        self.send_view(t.id, seat)


class MoveHandler(JoinHandler):
    """``api/move``: a pupil's move, checked by the referee; the view after it."""

    def post(self) -> None:
        """Make the pupil's move (table, seat, move, the number they saw), checked by the referee: the view after it."""
        name = self.user_name()
        b = body_json(self.request.body)
        t = self.room.move(name, b.get("table"), b.get("seat"), b.get("move"), b.get("number"))
        seat = t.seat_of(name)
        assert seat is not None
        self.send_view(t.id, seat)


class WaitHandler(JoinHandler):
    """``api/wait``: the long-poll, the view once the table has changed."""

    async def get(self) -> None:
        """Wait until the table's version passes `after` (or a while), then give the seat's view.
        A pupil holds at most `room.MAX_OPEN` long-polls and WebSockets at once."""
        name = self.user_name()
        t, _ = self.room.seat_of(name, self.get_argument("table", ""))
        after = after_of(self.get_argument("after", "-1"), "the version the view showed")
        self.room.hold(name)
        try:
            await self.room.wait(t.id, after, self.settings.get("wait_seconds", WAIT_SECONDS))
        finally:
            self.room.release(name)
        t, seat = self.room.seat_of(name, t.id)
        self.send_view(t.id, seat)


class SocketHandler(HubOAuthenticated, websocket.WebSocketHandler):  # type: ignore[misc]
    """A seat's WebSocket: its view at once and after every change at the table."""

    room: Room
    code: str
    seat: int

    def initialize(self, room: Room) -> None:
        """Take the room the app was made with; no table yet."""
        self.room = room
        self.code = ""
        self.holder = ""  # the pupil whose count of open connections this socket is in

    def get_current_user(self) -> Any:
        """The hub's user asking (through the hub's OAuth), or the one a test names."""
        identify = self.settings.get("identify")
        return identify(self.request) if identify is not None else super().get_current_user()

    async def get(self, *args: Any, **kwargs: Any) -> None:
        """Open the socket for a pupil seated at the table in the query; anyone else gets a one-line refusal."""
        user = self.current_user
        try:
            if not user or user.get("kind", "user") != "user":
                raise TableError("only the hub's users may sit at the class's tables")
            name = str(user["name"])
            self.room.flood(name)
            t, seat = self.room.seat_of(name, self.get_argument("table", ""))
            self.room.hold(name)  # at most MAX_OPEN at once (429)
        except TableError as e:
            self.set_status(403 if e.status == 400 else e.status)
            self.set_header("Content-Type", "application/json; charset=utf-8")
            self.finish(json.dumps({"error": str(e), "status": self.get_status()}))
            return
        self.code, self.seat, self.holder = t.id, seat, name
        try:
            await super().get(*args, **kwargs)
        finally:
            if self.ws_connection is None and self.holder:  # the handshake failed: never opened
                self.room.release(self.holder)
                self.holder = ""

    def open(self, *args: Any, **kwargs: Any) -> None:
        """Listen to the table and send the seat's view at once."""
        self.room.socket(self.code, self.seat, True)
        self.room.listeners[self.code][self.push] = self.seat
        self.push(self.code)

    def push(self, code: str) -> None:
        """Send the seat's view (a closed socket is forgotten)."""
        try:
            self.write_message(self.room.view(code, self.seat))
        except websocket.WebSocketClosedError:
            self.room.listeners[code].pop(self.push, None)

    def log_exception(self, typ: Any, value: Any, tb: Any) -> None:
        """A socket closed under a push is not a fault worth a traceback."""
        if isinstance(value, websocket.WebSocketClosedError):
            return
        super().log_exception(typ, value, tb)

    def on_message(self, message: str | bytes) -> None:
        """A seat says nothing on its WebSocket (moves are POSTed): messages are ignored."""

    def on_close(self) -> None:
        """Stop listening; the seat is marked as no longer watched."""
        if self.code:
            self.room.listeners[self.code].pop(self.push, None)
            self.room.socket(self.code, self.seat, False)
        if self.holder:
            self.room.release(self.holder)
            self.holder = ""


class LiveHandler(Base):
    """A teacher's live page: the whole page, or (``?after=`` the room's news the page shows)
    its live part once any table has changed, as JSON for `live.js`."""

    title = ""

    def body(self) -> str:
        """The page's live part."""
        raise NotImplementedError

    def whole(self, body: str) -> str:
        """The whole page around its live part."""
        return live_page(self.title, body, news=self.room.news, xsrf=self.xsrf())

    @web.authenticated
    async def get(self) -> None:
        """The page, or its live part after the next change (a teacher only)."""
        name = self.teacher()
        text = self.get_argument("after", None)
        if text is None:
            self.set_header("Cache-Control", "no-store")
            self.finish(self.whole(self.body()))
            return
        after = after_of(text, "the news the page showed")
        self.room.hold(name)
        try:
            await self.room.wait_news(after, self.settings.get("wait_seconds", WAIT_SECONDS))
        finally:
            self.room.release(name)
        self.send({"news": self.room.news, "html": self.body()})


class HomeHandler(LiveHandler):
    """The service's page for a teacher: the form that opens a table, and every table, live."""

    title = "The class's tables"

    def body(self) -> str:
        """Every table, newest first."""
        return tables_body(list(self.room.tables.values()), self.xsrf())

    def whole(self, body: str, said: str = "", values: dict[str, str] | None = None) -> str:
        """The form (with what the last opening said, and the values sent) above the tables."""
        if not said:
            opened = self.room.tables.get(self.get_argument("opened", "").upper())
            said = opened_html(opened.id) if opened is not None else ""
        form = open_form(self.xsrf(), said, values)
        return live_page(self.title, body, news=self.room.news, xsrf=self.xsrf(), before=form)

    @web.authenticated
    def post(self) -> None:
        """Open the table the form asks for (a teacher only), through the JSON API's one check;
        its code on the page, or the one line saying why not (400, nothing stored)."""
        self.teacher()
        form = {k: self.get_body_argument(k, "")[:100] for k in self.request.body_arguments if k != "_xsrf"}
        try:
            t = self.room.open(setup_from_form(form))
        except (TableError, ValueError) as e:
            self.set_status(400)
            self.finish(self.whole(self.body(), refused_html(str(e)), form))
            return
        self.redirect(f"{self.request.path}?opened={t.id}", status=303)


class ButtonHandler(Base):
    """``start`` and ``stop``: a table's Start and Stop buttons on the teacher's page."""

    @web.authenticated
    def post(self) -> None:
        """Start or stop the table the button names (a teacher only), then back to the tables."""
        self.teacher()
        t = self.room.table(self.get_body_argument("table", ""))
        if self.request.path.endswith("/stop"):
            self.room.stop(t.id)
        elif not t.started and not t.finished():  # a second press (a double click) changes nothing
            self.room.start(t.id)
        self.redirect(url_path_join(self.request.path, ".."), status=303)


class TableHandler(LiveHandler):
    """``table``: one table for a teacher, or for the projector (``project=1``), live."""

    def body(self) -> str:
        """The table's live part (large and without the ledger for the projector)."""
        return table_body(self.room.table(self.get_argument("table", "")), project=self.project)

    @property
    def project(self) -> bool:
        """Is this the projector's page?"""
        return self.get_argument("project", "") == "1"

    def whole(self, body: str) -> str:
        """The table's page, large for the projector."""
        t = self.room.table(self.get_argument("table", ""))
        return live_page(
            f"Table {t.id}", body, news=self.room.news, xsrf=self.xsrf(), cls="project" if self.project else ""
        )


class SeatHandler(Base):
    """``seat``: a pupil's seat page (the seat widget in the browser, on the hub)."""

    @web.authenticated
    def get(self) -> None:
        """The page; it joins the table in the address (``?table=CODE``) or asks for the code."""
        name = self.user_name()
        self.set_header("Cache-Control", "no-store")
        self.finish(seat_html(name, self.xsrf()))


class ModuleHandler(web.RequestHandler):
    """``seat.js`` and ``seat-page.js``: the seat page's scripts (loaded from nowhere else)."""

    def initialize(self, room: Room) -> None:
        """Every route is given the room; the scripts need none of it."""

    def get(self) -> None:
        """The seat widget's component, or the page's model."""
        self.set_header("Content-Type", "text/javascript; charset=utf-8")
        self.set_header("Cache-Control", "no-cache")
        self.finish(component() if self.request.path.endswith("/seat.js") else back_end())


class ScriptHandler(web.RequestHandler):
    """``live.js``: the teacher's pages' script (loads nothing from another host)."""

    def initialize(self, room: Room) -> None:
        """Every route is given the room; the script needs none of it."""

    def get(self) -> None:
        """The script, as a file of this package."""
        self.set_header("Content-Type", "text/javascript; charset=utf-8")
        self.set_header("Cache-Control", "no-cache")
        self.finish((Path(__file__).parent / "live.js").read_bytes())


def make_app(
    room: Room,
    prefix: str,
    is_teacher: Teacher = hub_teacher,
    cookie_secret: bytes | None = None,
    **settings: Any,
) -> web.Application:
    """The service's tornado application under `prefix`, its cookies signed with
    `cookie_secret` (the one kept beside the database; a fresh one if None); `settings` for
    tests (`identify`, a function from a request to a user model; `wait_seconds`)."""
    pages = {
        "": HomeHandler,
        "table": TableHandler,
        "start": ButtonHandler,
        "stop": ButtonHandler,
        "live.js": ScriptHandler,
        "seat": SeatHandler,
        "seat.js": ModuleHandler,
        "seat-page.js": ModuleHandler,
        "api/tables": TablesHandler,
        "api/stop": StartStopHandler,
        "api/start": StartStopHandler,
        "api/join": JoinHandler,
        "api/view": ViewHandler,
        "api/move": MoveHandler,
        "api/wait": WaitHandler,
        "api/ws": SocketHandler,
    }
    app = web.Application(
        routes(prefix, pages, {"room": room}),
        cookie_secret=cookie_secret or os.urandom(32),
        log_function=quiet_log,
        is_teacher=is_teacher,
        lookups={},
        websocket_max_message_size=MAX_BODY,
        **settings,
    )
    return app


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m loo_lessons.classroom.tables.service``, as the hub starts it."""
    p = argparse.ArgumentParser(prog="python -m loo_lessons.classroom.tables.service")
    p.add_argument("--db", required=True, help="the tables' SQLite file")
    p.add_argument(
        "--away-seconds", type=float, default=30.0, help="how long a quiet pupil's seat waits for them"
    )
    p.add_argument(
        "--cookie-secret",
        help="the file of the secret that signs the service's cookies (made once, mode 0600;"
        " default: class-tables-cookie-secret beside --db)",
    )
    args = p.parse_args(argv)
    if not args.away_seconds > 0:
        print("error: --away-seconds: expected a number of seconds above 0", file=sys.stderr)
        return 2
    where = hub_address(NAME)
    if where is None:
        return 2
    kept = Path(args.cookie_secret or Path(args.db).resolve().with_name(f"{NAME}-cookie-secret"))
    try:
        secret = kept_secret(kept)
    except SecretError as e:
        print(f"error: --cookie-secret: {e}", file=sys.stderr)
        return 2
    room = Room(Store(Path(args.db)), random.Random(), away_seconds=args.away_seconds)
    host, port, prefix = where

    def sweep() -> None:  # each second the quiet pupils' bots take their turns, a demo's a move
        room.sweep()

    serve(make_app(room, prefix, cookie_secret=secret), host, port, every_second=sweep)
    room.keep()  # the flood check's window outlives a restart
    return 0


if __name__ == "__main__":  # pragma: no cover
    quick_exit(main())
