"""The teacher's pages of the class's tables: every table live, and one for the projector.

Built from `referee.Table.public_json` only (names, whose turn, the tricks played, the pool,
the balances, the ledger's lines with their rule ids and the book's words): no pupil's cards
are ever on them, so any table may be projected. The pages refresh themselves every
`REFRESH_SECONDS`; every name and text is escaped.
"""

from __future__ import annotations

import html
import urllib.parse
from typing import Any

from loo_lessons.classroom.service import page
from loo_lessons.classroom.tables.referee import Table
from loo_lessons.engine.cards import Suit
from loo_lessons.explain.words import card_label

REFRESH_SECONDS = 2
_STYLE = """
table{margin:.5rem 0}td,th{padding:.2rem .5rem}
.turn{background:#ffd}.project{font-size:1.8rem}.project table{font-size:1.6rem}
"""


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _page(title: str, body: str, cls: str = "") -> str:
    return page(title, body, refresh=REFRESH_SECONDS, style=_STYLE, cls=cls)


def _seats(j: dict[str, Any]) -> str:
    rows = []
    for s in j["seats"]:
        who = s["name"] or f"bot ({s['bot']})"
        if s["name"] and s["away"]:
            who += f" — away, bot ({s['bot']}) plays"
        turn = ' class="turn"' if j["to_act"] == s["seat"] else ""
        rows.append(
            f"<tr{turn}><td>{s['seat']}</td><td>{_e(who)}</td><td>{_e(j['balances'][s['seat']])}</td></tr>"
        )
    return "<table><tr><th>seat</th><th>player</th><th>counters</th></tr>" + "".join(rows) + "</table>"


def _summary(j: dict[str, Any]) -> str:
    p = j["public"]
    deals = j["deals"] or "until stopped"
    state = "over" if j["over"] else f"seat {j['to_act']} to act" if j["to_act"] is not None else ""
    # in the book's words, never card codes: the projector shows this page to the class
    tricks = "; ".join(", ".join(f"seat {s} {card_label(c)}" for s, c in t) for t in p["tricks"]) or "none yet"
    turn_up = card_label(p["turn_up"], the=True) if p["turn_up"] else "not turned yet"
    trumps = Suit(p["trumps"]).name.lower() if p["trumps"] else "not known yet"
    return (
        f"<p>Deal {_e(j['deal'])} of {_e(deals)}, {_e(p['phase'])}, {_e(state)}. Pool {_e(j['pool'])};"
        f" the turn-up: {_e(turn_up)}; trumps: {_e(trumps)}."
        f" Tricks: {_e(tricks)}.</p>"
    )


def _ledger(j: dict[str, Any]) -> str:
    items = []
    for d in j["ledger"]:
        lines = "".join(f"<li>{_e(x['text'])} ({_e(x['rule_id'])}; {_e(x['book'])})</li>" for x in d["lines"])
        items.append(f"<li>Deal {_e(d['deal'])}, pool {_e(d['pool'])}<ul>{lines}</ul></li>")
    return f"<h3>Ledger</h3><ol>{''.join(items)}</ol>" if items else ""


def tables_html(tables: list[Table]) -> str:
    """Every table, live: its seats, whose turn, the tricks, the pool, the ledger."""
    parts = []
    for t in tables:
        j = t.public_json()
        link = f"table?table={urllib.parse.quote(t.id)}"
        parts.append(
            f'<section><h2>Table {_e(t.id)}</h2><p><a href="{_e(link)}">this table</a> ·'
            f' <a href="{_e(link)}&amp;project=1">project it</a></p>{_summary(j)}{_seats(j)}{_ledger(j)}</section>'
        )
    return _page("The class's tables", "".join(parts) or "<p>No table is open yet.</p>")


def table_html(t: Table, *, project: bool = False) -> str:
    """One table; `project`: large, for the class to see (no cards are ever shown)."""
    j = t.public_json()
    body = _summary(j) + _seats(j) + ("" if project else _ledger(j))
    return _page(f"Table {t.id}", body, "project" if project else "")
