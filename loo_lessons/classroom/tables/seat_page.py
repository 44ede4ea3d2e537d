"""The pupil's seat page of the class tables service: the `seat` widget in a browser with no
JupyterLab, on the hub.

A pupil opens ``/services/class-tables/seat`` (the hub logs them in), types the table's code
(or follows ``seat?table=CODE``) and plays. The page draws the seat widget's own component
(`widgets/js/seat.js`, served whole as ``seat.js``) through a small model (``seat-page.js``)
that carries the pupil's clicks to the service's JSON API and its views back, by WebSocket or
by long-poll. Nothing here or there decides a rule: the service's referee does.
"""

from __future__ import annotations

import html
from functools import cache
from pathlib import Path

from loo_lessons.classroom.service import page
from loo_lessons.widgets.bundle import esm

_STYLE = "body{max-width:46rem}#seat{margin-top:.5rem}@media (max-width:40rem){body{margin:.5rem}}"


@cache
def component() -> bytes:
    """The seat widget's component as one ES module (its helpers inlined)."""
    return esm("seat").encode()


@cache
def back_end() -> bytes:
    """The page's model: the service's JSON API, WebSocket and long-poll (seat_page.js)."""
    return (Path(__file__).with_name("seat_page.js")).read_bytes()


def seat_html(name: str, xsrf: str) -> str:
    """The seat page for pupil `name`: the widget, which joins the table in the address (if any)."""
    head = (
        f'<meta name="loo-xsrf" content="{html.escape(xsrf, quote=True)}">'
        '<script type="module" src="seat-page.js"></script>'
    )
    body = (
        f"<p>Logged in as {html.escape(name)}. The table follows the others' moves as they"
        " are made; a reload keeps your seat.</p>"
        '<div id="seat"><noscript>This page needs JavaScript.</noscript></div>'
    )
    return page("A class table", body, style=_STYLE, head=head)
