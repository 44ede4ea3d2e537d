"""The class tables service from a notebook on the hub: a teacher opens tables, a pupil plays.

In JupyterLab on the class hub a kernel holds its user's own token (``JUPYTERHUB_API_TOKEN``)
and the service's address (``LOO_CLASS_TABLES_URL``, set by the hub's recipe), so
``Tables()`` needs no argument there::

    from loo_lessons.class_tables import Tables
    code = Tables().open(players=5, deals=3, stake=3, bots="sensible")   # a teacher

Every call answers the service's JSON; a refusal is a `TablesRefused` holding the service's
one line (and its status). Nothing here decides a rule: the service's referee does.
"""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.parse
import urllib.request
from typing import Any


class TablesRefused(Exception):
    """The service refused a request: `status` and its one line."""

    def __init__(self, status: int, line: str) -> None:
        super().__init__(f"{status}: {line}")
        self.status = status


class Tables:
    """The tables service at `url` (default ``LOO_CLASS_TABLES_URL``), as the user of `token`
    (default ``JUPYTERHUB_API_TOKEN``)."""

    def __init__(self, url: str | None = None, token: str | None = None) -> None:
        url = url or os.environ.get("LOO_CLASS_TABLES_URL", "")
        token = token or os.environ.get("JUPYTERHUB_API_TOKEN", "")
        if not url or not token:
            raise TablesRefused(0, "LOO_CLASS_TABLES_URL, JUPYTERHUB_API_TOKEN: run this on the class hub")
        self.url = url.rstrip("/") + "/api/"
        self.token = token

    def _call(self, path: str, body: dict[str, Any] | None = None, timeout: float = 30) -> dict[str, Any]:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(
            self.url + path, data=data, headers={"Authorization": f"token {self.token}"}
        )
        try:
            with urllib.request.urlopen(request, timeout=timeout) as r:
                found: dict[str, Any] = json.load(r)
                return found
        except urllib.error.HTTPError as e:
            try:
                line = str(json.load(e).get("error", e.reason))
            except ValueError:
                line = str(e.reason)
            raise TablesRefused(e.code, line) from None

    def open(self, **setup: Any) -> str:
        """Open a table (players, rules, stake, loo, loo_cap, deals, bots, seed, bank; wait,
        True unless told: the table waits for `start`; demo: bots only, for the projector); its
        code."""
        return str(self._call("tables", setup)["table"])

    def tables(self) -> list[dict[str, Any]]:
        """Every table's public facts (a teacher's)."""
        found: list[dict[str, Any]] = self._call("tables")["tables"]
        return found

    def stop(self, code: str) -> dict[str, Any]:
        """Stop table `code` (a teacher's)."""
        return self._call("stop", {"table": code})

    def start(self, code: str) -> dict[str, Any]:
        """Start table `code`, opened with ``wait=True`` once its pupils sat down (a teacher's)."""
        return self._call("start", {"table": code})

    def join(self, code: str) -> dict[str, Any]:
        """Sit at table `code` (your seat again if you sit there); your seat's view."""
        return self._call("join", {"table": code})

    def view(self, code: str) -> dict[str, Any]:
        """Your seat's view at table `code`."""
        return self._call("view?" + urllib.parse.urlencode({"table": code}))

    def move(self, code: str, view: dict[str, Any], key: str) -> dict[str, Any]:
        """Make move `key` (one of ``view["legal"]``'s keys) at the seat and number of `view`."""
        body = {"table": code, "seat": view["seat"], "move": key, "number": view["number"]}
        return self._call("move", body)

    def wait(self, code: str, after: int) -> dict[str, Any]:
        """Your view once the table's version is past `after` (or after the service's wait)."""
        query = urllib.parse.urlencode({"table": code, "after": after})
        return self._call("wait?" + query, timeout=60)
