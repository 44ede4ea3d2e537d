"""The class results service: a JupyterHub service the hub starts and authenticates.

Started by the hub (deploy/jupyterhub/jupyterhub_config.py) as
``python -m loo_lessons.classroom.service --db FILE``. Every request is identified by the
hub's OAuth (`jupyterhub.services.auth.HubOAuth`): a browser's login cookie or a pupil's own
token (a kernel's ``JUPYTERHUB_API_TOKEN``). Under ``/services/class-results/``:

- ``POST answers``: one answer (`quiz.results.AnswerRecord` as JSON); stored as the
  logged-in pupil's once the class code is found to have produced it (`answers.check`).
  A record naming another pupil: 403; a second answer to a question of the same attempt, or
  an attempt that is not the pupil's next: 409 (an answer is final once posted); a body too
  big: 413 (over `READ_AT_MOST` bytes: 400, unread); not JSON, or nested thousands deep: 400.
  Nothing refused is stored.
- ``GET`` (the page): a teacher (a hub admin or a member of the hub group ``teachers``) sees
  the class codes answered; ``dashboard?code=…`` every pupil × question (a row per attempt)
  and the rules the class missed most, refreshed every few seconds: the tables of
  ``loo-lessons quiz results`` (`quiz.classroom`) made from the stored answers;
  ``csv?code=…`` the same table as CSV. A pupil sees only their own results (``mine``); the
  class's pages answer them 403.

Every name and text from a pupil is escaped in HTML; the rule words come from the engine.
"""

from __future__ import annotations

import argparse
import contextlib
import html
import json
import logging
import os
import resource
import secrets
import signal
import stat
import sys
import time
import urllib.parse
import urllib.request
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from jupyterhub.services.auth import HubAuth, HubOAuthCallbackHandler, HubOAuthenticated
from jupyterhub.utils import url_path_join
from tornado import ioloop, web

from loo_lessons.classroom.answers import AnswerError, canonical, from_body
from loo_lessons.classroom.store import ClassResults, Store
from loo_lessons.quiz.classroom import practice_link, rule_table, table, table_csv

NAME = "class-results"
TEACHERS_GROUP = "teachers"
REFRESH_SECONDS = 5
#: How long a teacher lookup (admin flag, groups) is trusted.
LOOKUP_SECONDS = 30.0
#: The longest request body a hub service reads, in bytes. Tornado's own limit is 100 MB, which a
#: pupil could make the service hold before its 10,000-byte check (`answers.MAX_BODY`, the tables'
#: `MAX_BODY`) refused it; a longer body is now refused from its headers, unread (tornado answers
#: 400). Bodies up to this are read and refused in one line (413) when over the service's own limit.
READ_AT_MOST = 65_536

_STYLE = """
body{font-family:system-ui,sans-serif;margin:1.5rem;max-width:80rem}
table{border-collapse:collapse;margin:1rem 0}td,th{border:1px solid #999;padding:.25rem .5rem}
td.right{background:#dfd}td.wrong{background:#fdd}blockquote{margin:.2rem 0 .2rem 1rem}
"""


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def page(title: str, body: str, *, refresh: int = 0, style: str = "", cls: str = "", head: str = "") -> str:
    """A whole HTML page of a class service with `title` and `body` (already escaped): the
    services' style and `style` after it, `head` (HTML) at the end of the head, `cls` on the
    body; `refresh` (seconds) reloads it, for the teacher's live pages."""
    meta = f'<meta http-equiv="refresh" content="{refresh}">' if refresh else ""
    return (
        f'<!doctype html><html lang="en"><head><meta charset="utf-8">{meta}'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{_e(title)}</title><style>{_STYLE}{style}</style>{head}</head>"
        f'<body class="{_e(cls)}"><h1>{_e(title)}</h1>{body}</body></html>'
    )


#: The book's address as the results service knows it (where the class reads the book), for
#: the practice link of the rules the class missed most; unset, the link is the book's page
#: relative to the book's root (`book/practice.html#practice=…`), for the teacher to add to it.
BOOK_URL_VARIABLE = "LOO_BOOK_URL"


def dashboard_html(results: ClassResults, csv_url: str, book_url: str | None = None) -> str:
    """The teacher's table for one class code (`quiz.classroom.table`: a row per pupil and
    attempt, a column per question) and the rules the class missed most
    (`quiz.classroom.rule_table`) with a practice link for them (`book_url`, the book's
    address; None: `$LOO_BOOK_URL`, or relative), every text escaped."""
    columns, rows = table(results.pupils)
    marks = [c for c in columns if c.startswith("q") and c[1:].isdigit()]
    head = "".join(f"<th>{_e(c.upper())}</th>" for c in marks)
    lines = []
    for row in rows:
        cells = []
        for c in marks:
            mark = row[c]
            if mark == "":
                cells.append("<td></td>")
            else:
                cells.append('<td class="right">✓</td>' if mark else '<td class="wrong">✗</td>')
        lines.append(
            f"<tr><th>{_e(row['name'])}</th><td>{_e(row['attempt'])}</td>"
            f"<td>{_e(row['right'])}/{_e(row['answered'])}</td><td>{_e(row['seconds'])}</td>"
            + "".join(cells)
            + "</tr>"
        )
    _, rules = rule_table(results.pupils)
    missed = "".join(
        f"<li><b>{_e(r['rule_id'])}</b>: missed in {_e(r['missed'])} of {_e(r['answered'])}"
        f" first-attempt answers<blockquote>{_e(r['rule'])} ({_e(r['book'])})</blockquote></li>"
        for r in rules
    )
    book = os.environ.get(BOOK_URL_VARIABLE, "") if book_url is None else book_url
    link = practice_link(rules, book if book.startswith(("http://", "https://", "/")) else "")
    practise = (
        f'<p class="practice">Practice for the class: <a href="{_e(link)}">{_e(link)}</a>'
        " (a short session of new positions on these rules, for each pupil who opens it)</p>"
        if link
        else ""
    )
    refused = "".join(f"<li>{_e(r.line())}</li>" for r in results.refusals)
    return page(
        f"Class {results.class_code}",
        f"<p>{len(results.pupils)} pupils; a row per pupil and attempt. This page refreshes"
        f' itself. <a href="{_e(csv_url)}">Download the table (CSV)</a></p>'
        "<table><tr><th>pupil</th><th>attempt</th><th>right</th><th>seconds</th>"
        f"{head}</tr>{''.join(lines)}</table>"
        f"<h2>Rules the class missed most</h2>{practise}<ul>{missed or '<li>no answers yet</li>'}</ul>"
        + (f"<h2>Not counted</h2><ul>{refused}</ul>" if refused else ""),
        refresh=REFRESH_SECONDS,
    )


class Base(HubOAuthenticated, web.RequestHandler):  # type: ignore[misc]
    """What every page of the results service shares: the hub's login, the answers' store, who is a
    teacher, and errors as one plain line."""

    store: Store
    lookups: dict[str, tuple[float, bool]]

    def initialize(self, store: Store, lookups: dict[str, tuple[float, bool]]) -> None:
        """Keep the answers' store and the cache of teacher look-ups shared by every request."""
        self.store = store
        self.lookups = lookups

    def user_name(self) -> str:
        """The logged-in hub user's name; services and tokens that are not a user are refused
        (403)."""
        user = self.current_user
        if not user or user.get("kind", "user") != "user":
            raise web.HTTPError(403, "only the hub's users may use the class results")
        return str(user["name"])

    def is_teacher(self, name: str) -> bool:
        """A hub admin or a member of the `teachers` group (`hub_teacher`)."""
        return hub_teacher(self.hub_auth, self.lookups, name)

    def teacher(self) -> str:
        """The logged-in user's name if a teacher; a pupil is refused (403)."""
        name = self.user_name()
        if not self.is_teacher(name):
            raise web.HTTPError(403, "the class's results are for its teachers")
        return name

    def code(self) -> str:
        """The class code the request names, in its canonical form; a bad code is refused (400)
        with the one line saying why."""
        try:
            return canonical(self.get_argument("code"))
        except AnswerError as e:
            raise web.HTTPError(400, str(e)) from None

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        """Answer an error as one plain line, `status: reason`, never a traceback."""
        reason = self._reason
        exc = kwargs.get("exc_info", (None, None, None))[1]
        if isinstance(exc, web.HTTPError) and exc.log_message:
            reason = exc.log_message
        self.set_header("Content-Type", "text/plain; charset=utf-8")
        self.finish(f"{status_code}: {reason}\n")


class AnswersHandler(Base):
    """`POST answers`: a pupil hands in a quiz's answers for a class code."""

    @web.authenticated
    def post(self) -> None:
        """Check the posted answers (the pupil is the logged-in user, never what the body says) and
        keep them; refused answers keep nothing and answer the reason."""
        name = self.user_name()
        try:
            checked = from_body(self.request.body, name)
            self.store.add(checked)  # nothing kept when refused (Conflict: 409)
        except AnswerError as e:
            raise web.HTTPError(e.status, str(e)) from None
        self.set_status(201)
        self.finish({"pupil": name, "class_code": checked.class_code})


class HomeHandler(Base):
    """The service's front page: the teacher's list of class codes; a pupil is sent to their own
    answers."""

    @web.authenticated
    def get(self) -> None:
        """List the class codes that have answers, each a link to its dashboard (teachers only)."""
        name = self.user_name()
        if not self.is_teacher(name):
            self.redirect(url_path_join(self.hub_auth.base_url, "mine"))
            return
        codes = "".join(
            f'<li><a href="dashboard?code={_e(urllib.parse.quote(c))}">{_e(c)}</a></li>'
            for c in self.store.codes()
        )
        self.finish(
            page(
                "Class results",
                f"<p>Class codes answered (most recent first):</p><ul>{codes or '<li>none yet</li>'}</ul>",
                refresh=REFRESH_SECONDS,
            )
        )


class DashboardHandler(Base):
    """`dashboard?code=`: the teacher's live table of a class's answers."""

    @web.authenticated
    def get(self) -> None:
        """Draw the class's results for the code, refreshing itself, with a link to the CSV."""
        self.teacher()
        code = self.code()
        csv_url = f"csv?code={urllib.parse.quote(code)}"
        self.finish(dashboard_html(self.store.results(code), csv_url))


class CsvHandler(Base):
    """`csv?code=`: a class's results as a CSV file, for the teacher's spreadsheet."""

    @web.authenticated
    def get(self) -> None:
        """Send the class's table of pupils' results as a CSV download."""
        self.teacher()
        code = self.code()
        self.set_header("Content-Type", "text/csv; charset=utf-8")
        self.set_header("Content-Disposition", f'attachment; filename="class-{code}.csv"')
        self.finish(table_csv(self.store.results(code).pupils))


class MineHandler(Base):
    """`mine`: a pupil's own attempts, for every class code."""

    @web.authenticated
    def get(self) -> None:
        """List the logged-in pupil's attempts: code, attempt number, right of answered."""
        name = self.user_name()
        parts = []
        for code in self.store.codes():
            for r in self.store.results(code, pupil=name).pupils:
                for a in r.attempts:
                    parts.append(
                        f"<li>{_e(code)}, attempt {a.number}: {a.right} right of"
                        f" {a.answered} answered</li>"
                    )
        self.finish(page(f"{name}'s answers", f"<ul>{''.join(parts) or '<li>none yet</li>'}</ul>"))


def make_app(store: Store, prefix: str, cookie_secret: bytes | None = None) -> web.Application:
    """The results service's Tornado application with its pages below `prefix` and the hub's OAuth
    callback; its cookies signed with `cookie_secret` (`kept_secret`; a fresh one if None)."""
    lookups: dict[str, tuple[float, bool]] = {}
    pages = {
        "": HomeHandler,
        "answers": AnswersHandler,
        "dashboard": DashboardHandler,
        "csv": CsvHandler,
        "mine": MineHandler,
    }
    return web.Application(
        routes(prefix, pages, {"store": store, "lookups": lookups}),
        cookie_secret=cookie_secret or os.urandom(32),
        log_function=quiet_log,
    )


class SecretError(Exception):
    """The cookie secret's file cannot be used (one line: the file and why)."""


def kept_secret(path: Path) -> bytes:
    """The service's cookie secret, kept in `path` beside its database (mode 0600), made once:
    a restarted service signs with the same secret, so the hub's login cookies of every open
    page (and the xsrf tokens made from them) stay good. A file others may read is refused."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return _read_secret(path)
    except OSError as e:
        raise SecretError(f"{path}: {e.strerror}") from None
    secret = secrets.token_bytes(32)
    with os.fdopen(fd, "w") as f:
        f.write(secret.hex() + "\n")
    return secret


def _read_secret(path: Path) -> bytes:
    """The secret kept in `path`, checked: the file private (0600), the secret whole."""
    mode = stat.S_IMODE(path.stat().st_mode)
    if mode & 0o077:
        raise SecretError(f"{path}: others may read it (mode {mode:o}): chmod 600 {path}")
    try:
        secret = bytes.fromhex(path.read_text().strip())
    except ValueError:
        raise SecretError(f"{path}: not a secret this service wrote (hex digits)") from None
    if len(secret) < 32:
        raise SecretError(f"{path}: too short a secret ({len(secret)} bytes; 32 or more)")
    return secret


def secret_for(db: str, name: str) -> bytes | None:
    """The cookie secret kept beside database `db` (``NAME-cookie-secret``), or None, said in
    one line, when it cannot be used."""
    try:
        return kept_secret(Path(db).resolve().with_name(f"{name}-cookie-secret"))
    except SecretError as e:
        print(f"error: cookie secret: {e}", file=sys.stderr)
        return None


#: The refusals counted since the log last said so (`quiet_log`), and when it did.
_refused = {"count": 0, "since": 0.0}
#: The log says how many requests were refused at most this often (seconds).
REFUSALS_EVERY = 60.0


def quiet_log(handler: web.RequestHandler) -> None:
    """Tornado's request log, quiet for a class: a fault (5xx) is logged with its request; a
    refusal (4xx: a flood, a tab too many, a bad move) is only counted and said once a minute
    at most, so a hostile pupil's thousand requests are one line, not a thousand."""
    status = handler.get_status()
    log = logging.getLogger("tornado.access")
    if status >= 500:
        log.error("%d %s %.0fms", status, handler._request_summary(), 1000 * handler.request.request_time())
        return
    if status < 400:
        return
    _refused["count"] += 1
    now = time.monotonic()
    if now - _refused["since"] >= REFUSALS_EVERY:
        log.warning("%d request(s) refused in the last minute (the last: %d %s)", _refused["count"], status,
                    handler._request_summary()[:120])
        _refused["count"], _refused["since"] = 0, now


def hub_teacher(auth: HubAuth, lookups: dict[str, tuple[float, bool]], name: str) -> bool:
    """Whether hub user `name` is a teacher: a hub admin or a member of the `teachers` group,
    asked of the hub with the service's own token (`auth`), the answer kept in `lookups` and
    trusted for `LOOKUP_SECONDS` (a teacher made or unmade on the hub counts within that)."""
    seen = lookups.get(name)
    if seen and time.monotonic() - seen[0] < LOOKUP_SECONDS:
        return seen[1]
    url = url_path_join(auth.api_url, "users", urllib.parse.quote(name, safe=""))
    request = urllib.request.Request(url, headers={"Authorization": f"token {auth.api_token}"})
    with urllib.request.urlopen(request, timeout=10) as r:
        model: dict[str, Any] = json.load(r)
    teacher = bool(model.get("admin")) or TEACHERS_GROUP in (model.get("groups") or [])
    lookups[name] = (time.monotonic(), teacher)
    return teacher


def routes(prefix: str, pages: Mapping[str, type[web.RequestHandler]], args: dict[str, Any]) -> list[Any]:
    """A hub service's routes: each of `pages` (its path below `prefix`, "" for the service's
    own page) with its handler, every handler given `args`, and the hub's OAuth callback."""
    found: list[Any] = [(url_path_join(prefix, path) if path else prefix, h, args) for path, h in pages.items()]
    return [*found, (url_path_join(prefix, "oauth_callback"), HubOAuthCallbackHandler)]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the results service as the hub starts it (`--db` the answers' SQLite file; the hub gives
    the address); returns 2 with one line when not run by the hub."""
    p = argparse.ArgumentParser(prog="python -m loo_lessons.classroom.service")
    p.add_argument("--db", required=True, help="the answers' SQLite file")
    args = p.parse_args(argv)
    where = hub_address(NAME)
    if where is None:
        return 2
    secret = secret_for(args.db, NAME)
    if secret is None:
        return 2
    host, port, prefix = where
    serve(make_app(Store(Path(args.db)), prefix, secret), host, port)
    return 0


def hub_address(name: str) -> tuple[str, int, str] | None:
    """Where the hub runs service `name`: its host, port and path prefix (the hub's
    environment), or None, said in one line, when it is not run by the hub."""
    url = urllib.parse.urlparse(os.environ.get("JUPYTERHUB_SERVICE_URL", ""))
    prefix = os.environ.get("JUPYTERHUB_SERVICE_PREFIX", f"/services/{name}/")
    if not url.port:
        print("error: JUPYTERHUB_SERVICE_URL: run by the hub (no port given)", file=sys.stderr)
        return None
    return url.hostname or "127.0.0.1", url.port, prefix


def serve(
    app: web.Application, host: str, port: int, every_second: Callable[[], None] | None = None
) -> None:
    """Serve `app` at the hub's `host` and `port` until Ctrl-C or the hub's stop, calling
    `every_second` (if any) each second. Ctrl-C at the hub's terminal reaches this process too, and the hub's
    stop sends SIGTERM: either ends the service quietly (what was accepted is committed). A body
    over `READ_AT_MOST` bytes is refused unread. The process may open as many files as its hard
    limit allows (the unit's `LimitNOFILE`), not only the soft 1,024."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        with contextlib.suppress(ValueError, OSError):  # an unlimited hard limit is no soft one
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    loop = ioloop.IOLoop.current()
    # before listening: a stop that comes as soon as the port answers is a quiet stop too
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: loop.add_callback_from_signal(loop.stop))
    app.listen(port, host, max_body_size=READ_AT_MOST)
    if every_second is not None:
        ioloop.PeriodicCallback(every_second, 1000).start()
    loop.start()


def quick_exit(code: int) -> None:
    """End a service's process with `code` once it has stopped serving: what it keeps is
    committed already, so the interpreter's own teardown of the hub's libraries (a second or
    more on a busy machine, which the hub's stop waits out, service after service) is skipped."""
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


if __name__ == "__main__":  # pragma: no cover
    quick_exit(main())
