"""The class results service: a JupyterHub service the hub starts and authenticates.

Started by the hub (deploy/jupyterhub/jupyterhub_config.py) as
``python -m loo_lessons.classroom.service --db FILE``. Every request is identified by the
hub's OAuth (`jupyterhub.services.auth.HubOAuth`): a browser's login cookie or a pupil's own
token (a kernel's ``JUPYTERHUB_API_TOKEN``). Under ``/services/class-results/``:

- ``POST answers``: one answer (`answers.Answer` as JSON); stored as the logged-in pupil's,
  graded again by the engine from the class code. A record naming another pupil: 403.
- ``GET`` (the page): a teacher (a hub admin or a member of the hub group ``teachers``) sees
  the class codes answered; ``dashboard?code=…`` every pupil × question and the class's
  per-rule mastery, refreshed every few seconds; ``csv?code=…`` every answer as CSV. A pupil
  sees only their own answers (``mine``); the class's pages answer them 403.

Every name and text from a pupil is escaped in HTML; the rule words come from the engine.
"""

from __future__ import annotations

import argparse
import html
import json
import os
import sys
import time
import urllib.parse
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from jupyterhub.services.auth import HubOAuthCallbackHandler, HubOAuthenticated
from jupyterhub.utils import url_path_join
from tornado import ioloop, web

from loo_lessons.classroom.answers import Answer, AnswerError, canonical, grade
from loo_lessons.classroom.store import ClassView, Store

NAME = "class-results"
TEACHERS_GROUP = "teachers"
MAX_BODY = 10_000
REFRESH_SECONDS = 5
#: How long a teacher lookup (admin flag, groups) is trusted.
LOOKUP_SECONDS = 30.0

_STYLE = """
body{font-family:system-ui,sans-serif;margin:1.5rem;max-width:80rem}
table{border-collapse:collapse;margin:1rem 0}td,th{border:1px solid #999;padding:.25rem .5rem}
td.right{background:#dfd}td.wrong{background:#fdd}blockquote{margin:.2rem 0 .2rem 1rem}
"""


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def page(title: str, body: str, *, refresh: bool = False) -> str:
    meta = f'<meta http-equiv="refresh" content="{REFRESH_SECONDS}">' if refresh else ""
    return (
        f'<!doctype html><html lang="en"><head><meta charset="utf-8">{meta}'
        f"<title>{_e(title)}</title><style>{_STYLE}</style></head>"
        f"<body><h1>{_e(title)}</h1>{body}</body></html>"
    )


def dashboard_html(view: ClassView, csv_url: str) -> str:
    """The teacher's table for one class code, and the class's weakest rules first."""
    head = "".join(f'<th title="{_e(qid)}">Q{n}</th>' for n, qid in enumerate(view.question_ids, 1))
    rows = []
    for pupil in view.pupils:
        cells = []
        for n in range(1, len(view.question_ids) + 1):
            cell = view.cells.get((pupil, n))
            if cell is None:
                cells.append("<td></td>")
            else:
                mark, kind = ("✓", "right") if cell.first_correct else ("✗", "wrong")
                tries = f" ({cell.attempts} tries)" if cell.attempts > 1 else ""
                cells.append(f'<td class="{kind}">{mark}{tries}</td>')
        rows.append(
            f"<tr><th>{_e(pupil)}</th><td>{view.right(pupil)}/{view.answered(pupil)}</td>"
            + "".join(cells)
            + "</tr>"
        )
    mastery = "".join(
        f"<li><b>{_e(m.rule_id)}</b>: {m.right} of {m.answered} first answers right"
        f"<blockquote>“{_e(m.words)}” ({_e(m.book)})</blockquote></li>"
        for m in view.mastery
    )
    return page(
        f"Class {view.class_code}",
        f"<p>{len(view.pupils)} pupils; each cell is the pupil's first answer to the question"
        " (later tries counted). This page refreshes itself."
        f' <a href="{_e(csv_url)}">Download every answer (CSV)</a></p>'
        f"<table><tr><th>pupil</th><th>right</th>{head}</tr>{''.join(rows)}</table>"
        f"<h2>Rules, weakest first</h2><ul>{mastery or '<li>no answers yet</li>'}</ul>",
        refresh=True,
    )


class Base(HubOAuthenticated, web.RequestHandler):  # type: ignore[misc]
    store: Store
    lookups: dict[str, tuple[float, bool]]

    def initialize(self, store: Store, lookups: dict[str, tuple[float, bool]]) -> None:
        self.store = store
        self.lookups = lookups

    def user_name(self) -> str:
        user = self.current_user
        if not user or user.get("kind", "user") != "user":
            raise web.HTTPError(403, "only the hub's users may use the class results")
        return str(user["name"])

    def is_teacher(self, name: str) -> bool:
        """A hub admin or a member of the `teachers` group, asked of the hub with the
        service's own token (and trusted for `LOOKUP_SECONDS`)."""
        seen = self.lookups.get(name)
        if seen and time.monotonic() - seen[0] < LOOKUP_SECONDS:
            return seen[1]
        url = url_path_join(self.hub_auth.api_url, "users", urllib.parse.quote(name, safe=""))
        request = urllib.request.Request(
            url, headers={"Authorization": f"token {self.hub_auth.api_token}"}
        )
        with urllib.request.urlopen(request, timeout=10) as r:
            model: dict[str, Any] = json.load(r)
        teacher = bool(model.get("admin")) or TEACHERS_GROUP in (model.get("groups") or [])
        self.lookups[name] = (time.monotonic(), teacher)
        return teacher

    def teacher(self) -> str:
        name = self.user_name()
        if not self.is_teacher(name):
            raise web.HTTPError(403, "the class's results are for its teachers")
        return name

    def code(self) -> str:
        try:
            return canonical(self.get_argument("code"))
        except AnswerError as e:
            raise web.HTTPError(400, str(e)) from None

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        reason = self._reason
        exc = kwargs.get("exc_info", (None, None, None))[1]
        if isinstance(exc, web.HTTPError) and exc.log_message:
            reason = exc.log_message
        self.set_header("Content-Type", "text/plain; charset=utf-8")
        self.finish(f"{status_code}: {reason}\n")


class AnswersHandler(Base):
    @web.authenticated
    def post(self) -> None:
        name = self.user_name()
        body = self.request.body
        if len(body) > MAX_BODY:
            raise web.HTTPError(413, f"an answer is at most {MAX_BODY} bytes")
        try:
            record = Answer.from_json(json.loads(body))
            if record.pupil and record.pupil != name:
                raise web.HTTPError(403, f"{name} may post only their own answers")
            graded = grade(record)
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise web.HTTPError(400, "answer: not JSON") from None
        except AnswerError as e:
            raise web.HTTPError(400, str(e)) from None
        self.store.add(graded, name)
        self.set_status(201)
        self.finish({"pupil": name, "class_code": graded.class_code, "question": graded.number})


class HomeHandler(Base):
    @web.authenticated
    def get(self) -> None:
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
                refresh=True,
            )
        )


class DashboardHandler(Base):
    @web.authenticated
    def get(self) -> None:
        self.teacher()
        code = self.code()
        csv_url = f"csv?code={urllib.parse.quote(code)}"
        self.finish(dashboard_html(self.store.view(code), csv_url))


class CsvHandler(Base):
    @web.authenticated
    def get(self) -> None:
        self.teacher()
        code = self.code()
        self.set_header("Content-Type", "text/csv; charset=utf-8")
        self.set_header("Content-Disposition", f'attachment; filename="class-{code}.csv"')
        self.finish(self.store.csv(code))


class MineHandler(Base):
    @web.authenticated
    def get(self) -> None:
        name = self.user_name()
        parts = []
        for code in self.store.codes():
            view = self.store.view(code, pupil=name)
            if view.pupils:
                parts.append(
                    f"<li>{_e(code)}: {view.right(name)} right of {view.answered(name)} answered</li>"
                )
        self.finish(page(f"{name}'s answers", f"<ul>{''.join(parts) or '<li>none yet</li>'}</ul>"))


def make_app(store: Store, prefix: str) -> web.Application:
    lookups: dict[str, tuple[float, bool]] = {}
    args = {"store": store, "lookups": lookups}
    return web.Application(
        [
            (prefix, HomeHandler, args),
            (url_path_join(prefix, "answers"), AnswersHandler, args),
            (url_path_join(prefix, "dashboard"), DashboardHandler, args),
            (url_path_join(prefix, "csv"), CsvHandler, args),
            (url_path_join(prefix, "mine"), MineHandler, args),
            (url_path_join(prefix, "oauth_callback"), HubOAuthCallbackHandler),
        ],
        cookie_secret=os.urandom(32),
    )


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m loo_lessons.classroom.service")
    p.add_argument("--db", required=True, help="the answers' SQLite file")
    args = p.parse_args(argv)
    url = urllib.parse.urlparse(os.environ.get("JUPYTERHUB_SERVICE_URL", ""))
    prefix = os.environ.get("JUPYTERHUB_SERVICE_PREFIX", f"/services/{NAME}/")
    if not url.port:
        print("error: JUPYTERHUB_SERVICE_URL: run by the hub (no port given)", file=sys.stderr)
        return 2
    store = Store(Path(args.db))
    make_app(store, prefix).listen(url.port, url.hostname or "127.0.0.1")
    ioloop.IOLoop.current().start()
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
