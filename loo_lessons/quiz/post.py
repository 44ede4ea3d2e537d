"""What a quiz calls in a pupil's kernel: ``post.answer(record)``.

Under the class hub, the hub starts each pupil's server with ``LOO_CLASS_RESULTS_URL`` (the
results service's own address) and ``JUPYTERHUB_API_TOKEN`` (the pupil's own token, which a
kernel inherits); `answer` then posts the record there, in the background, as that pupil.
Anywhere else (JupyterLab on a laptop, the book, a test) it does nothing. It never raises
into the widget and never waits for the network: a lost post loses one row of the teacher's
table, never the pupil's quiz. Standard library only.

The quiz controller calls it once per answered question, with the record the service reads
(`quiz.results.AnswerRecord`; its pupil left blank: the service takes the hub's login):

    from loo_lessons.quiz import post
    post.answer(AnswerRecord("lead-10-42", "lead-42-0", ("5C",), 4.2, 1, ""))
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
from collections.abc import Callable, Mapping
from typing import Any, Protocol

URL_VARIABLE = "LOO_CLASS_RESULTS_URL"
TIMEOUT = 5.0


class Record(Protocol):
    """Anything that can be posted to the class's results service: it says itself as JSON."""

    def to_json(self) -> dict[str, Any]:
        """The record as the JSON body the results service reads."""
        ...


def under_hub() -> bool:
    """True when this kernel's server was started by a class hub with a results service."""
    return bool(os.environ.get(URL_VARIABLE) and os.environ.get("JUPYTERHUB_API_TOKEN"))


def send(record: Record | Mapping[str, Any]) -> int:
    """Post one record now and return the service's HTTP status (0: not under a hub, or the
    service could not be reached). Never raises."""
    return reply(record)[0]


def reply(record: Record | Mapping[str, Any]) -> tuple[int, str]:
    """Post one record now: the service's HTTP status and, for a refusal, its one line
    (`409: … is answered already …`); (0, "") when not under a hub or unreachable. Never
    raises."""
    url, token = os.environ.get(URL_VARIABLE), os.environ.get("JUPYTERHUB_API_TOKEN")
    if not url or not token:
        return 0, ""
    # imported only under a hub: elsewhere (the book's page) urllib and the email and http
    # packages it brings are never needed, and the page's standard library leaves them out
    import urllib.error
    import urllib.request

    try:
        data = dict(record) if isinstance(record, Mapping) else record.to_json()
        request = urllib.request.Request(
            url.rstrip("/") + "/answers",
            data=json.dumps(data).encode(),
            method="POST",
            headers={"Authorization": f"token {token}", "Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=TIMEOUT) as r:
            return int(r.status), ""
    except urllib.error.HTTPError as e:
        try:
            line = e.read(400).decode("utf-8", "replace").strip().splitlines()[0]
        except Exception:
            line = ""
        return int(e.code), line
    except Exception:  # never into the widget
        return 0, ""


def answer(record: Record | Mapping[str, Any], refused: Callable[[str], None] | None = None) -> None:
    """Post one answer in the background when under a class hub; otherwise nothing.
    `refused` hears the service's one line when it keeps the answer out (409: the question
    was answered already in this attempt, or the attempt is not the next)."""
    if under_hub():

        def post() -> None:
            status, line = reply(record)
            if refused is not None and status in (400, 403, 409):
                with contextlib.suppress(Exception):  # never into the widget's thread
                    refused(line or f"{status}: the class results did not keep this answer")

        threading.Thread(target=post, daemon=True).start()
