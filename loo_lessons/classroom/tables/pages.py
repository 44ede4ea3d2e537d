"""The teacher's pages of the class's tables: every table live, and one for the projector.

Built from `referee.Table.public_json` only (names, whose turn, the tricks played, the pool,
the balances, the ledger's lines with their rule ids and the book's words): no pupil's cards
are ever on them, so any table may be projected. Each page keeps itself live: its script
(`live.js`) asks the service for the page's live part again once any table has changed (a
long-poll), and without JavaScript the page reloads every `REFRESH_SECONDS`. The teacher's
page also holds the form that opens a table (`setup_from_form` reads it) and a Stop button
per table. Every name and text is escaped.
"""

from __future__ import annotations

import html
import urllib.parse
from typing import Any

from loo_lessons.classroom.service import page
from loo_lessons.classroom.tables.referee import CLASS_BOUNDS, Table
from loo_lessons.engine.cards import Suit
from loo_lessons.explain.words import card_label, declaration_of, declared_words
from loo_lessons.sim.bots import BOTS

REFRESH_SECONDS = 2
_STYLE = """
table{margin:.5rem 0}td,th{padding:.2rem .5rem}
.turn{background:#ffd}.project{font-size:1.8rem}.project table{font-size:1.6rem}
"""


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


_STYLE += """
form.open{display:grid;grid-template-columns:minmax(0,22rem) minmax(12rem,1fr);gap:.4rem .8rem;align-items:center;
max-width:48rem;padding:.8rem;border:1px solid #999}form.open button{grid-column:2;justify-self:start}
input,select,button{font:inherit;min-height:2.2rem}.code{font-size:3rem;letter-spacing:.2em;font-weight:bold}
.refused{color:#a00;font-weight:bold}form.stop{display:inline}section{overflow-x:auto}
form.open{box-sizing:border-box}form.open>*{min-width:0;max-width:100%}
@media (max-width:40rem){body{margin:.6rem}form.open{grid-template-columns:minmax(0,1fr)}form.open button{grid-column:1}
.code{font-size:2rem}}
"""
def _bot_words() -> dict[str, str]:
    """The bots a teacher may seat in empty places (the sensible one first), each with the
    first sentence of what its class says it is like."""
    words = {}
    for name in sorted(BOTS, key=lambda n: n != "sensible"):
        doc = " ".join((type(BOTS[name]).__doc__ or "").split())
        words[name] = f"{name}: {doc.split('. ')[0].rstrip('.')}"
    return words


BOT_WORDS = _bot_words()


def live_page(title: str, body: str, *, news: int, xsrf: str, cls: str = "", before: str = "") -> str:
    """A teacher's page whose `body` stays live: the script asks for it again (``?after=``
    the room's `news`) once any table changes; without JavaScript the page reloads. `before`:
    what stands above the live part (the form)."""
    script = (
        f'<meta name="loo-xsrf" content="{_e(xsrf)}">'
        f'<noscript><meta http-equiv="refresh" content="{REFRESH_SECONDS}"></noscript>'
        '<script src="live.js" defer></script>'
    )
    live = f'{before}<main id="live" data-news="{news}" aria-live="polite">{body}</main>'
    return page(title, live, style=_STYLE, cls=cls, head=script)


def _seats(j: dict[str, Any]) -> str:
    declared = {seat: declared_words(declaration_of(d)) for seat, d in j["public"]["declarations"]}
    rows = []
    for s in j["seats"]:
        who = s["name"] or f"bot ({s['bot']})"
        if s["name"] and s["away"]:
            who += f" — away, bot ({s['bot']}) plays"
        turn = ' class="turn"' if j["to_act"] == s["seat"] else ""
        rows.append(
            f"<tr{turn}><td>{s['seat']}</td><td>{_e(who)}</td><td>{_e(declared.get(s['seat'], ''))}</td>"
            f"<td>{_e(j['balances'][s['seat']])}</td></tr>"
        )
    head = "<tr><th>seat</th><th>player</th><th>declared</th><th>counters</th></tr>"
    return f"<table>{head}{''.join(rows)}</table>"


def _summary(j: dict[str, Any]) -> str:
    p = j["public"]
    deals = j["deals"] or "until stopped"
    seated = sum(1 for x in j["seats"] if x["name"])
    state = (
        "over"
        if j["over"]
        else f"waiting for the teacher's Start ({seated} of {j['players']} seats have a pupil)"
        if j["waiting"]
        else f"seat {j['to_act']} to act"
        if j["to_act"] is not None
        else ""
    )
    # in the book's words, never card codes: the projector shows this page to the class
    tricks = "; ".join(", ".join(f"seat {s} {card_label(c)}" for s, c in t) for t in p["tricks"]) or "none yet"
    turn_up = card_label(p["turn_up"], the=True) if p["turn_up"] else "not turned yet"
    trumps = Suit(p["trumps"]).name.lower() if p["trumps"] else "not known yet"
    if j.get("demo"):
        state = "the bots' demo, " + ("waiting for the teacher's Start" if j["waiting"] and not j["over"] else state)
    return (
        f"<p>Deal {_e(j['deal'])} of {_e(deals)}, {_e(p['phase'])}, {_e(state)}. Pool {_e(j['pool'])};"
        f" the turn-up: {_e(turn_up)}; trumps: {_e(trumps)}."
        f" Tricks: {_e(tricks)}.</p>"
    )


def _ledger(j: dict[str, Any]) -> str:
    items = []
    for d in j["ledger"]:
        lines = "".join(f"<li>{_e(x['text'])} ({_e(x['rule_id'])}; {_e(x['book'])})</li>" for x in d["lines"])
        stopped = ", stopped before it was played out" if d.get("abandoned") else ""
        items.append(f"<li>Deal {_e(d['deal'])}{stopped}, pool {_e(d['pool'])}<ul>{lines}</ul></li>")
    return f"<h3>Ledger</h3><ol>{''.join(items)}</ol>" if items else ""


def tables_body(tables: list[Table], xsrf: str) -> str:
    """Every table, newest first: its seats, whose turn, the tricks, the pool, the ledger, and
    (while it plays) a button that stops it."""
    parts = []
    for t in reversed(tables):
        j = t.public_json()
        link = f"table?table={urllib.parse.quote(t.id)}"
        stop = "" if t.finished() else _button("stop", t.id, xsrf, "Stop this table", f"Stop table {t.id}?")
        if j["waiting"] and not t.finished():
            stop = _button("start", t.id, xsrf, "Start this table") + stop
        parts.append(
            f'<section><h2>Table {_e(t.id)}</h2><div><a href="{_e(link)}">this table</a> ·'
            f' <a href="{_e(link)}&amp;project=1">project it</a>{stop}</div>{_summary(j)}{_seats(j)}{_ledger(j)}</section>'
        )
    return "".join(parts) or "<p>No table is open yet.</p>"


def _options(name: str, choices: dict[str, str], chosen: str) -> str:
    return "".join(
        f'<option value="{_e(k)}"{" selected" if k == chosen else ""}>{_e(v)}</option>' for k, v in choices.items()
    )


#: The form's fields and what each starts as.
FORM_DEFAULTS = {
    "players": "5", "rules": "hoffmann", "stake": "3", "loo_kind": "fixed", "loo_amount": "",
    "deals": "3", "bots": "sensible", "seed": "",
}


def _button(action: str, code: str, xsrf: str, label: str, confirm: str = "") -> str:
    """A button of one table (Start, Stop): a form posting its code, with the page's token."""
    ask = f' onclick="return confirm(\'{_e(confirm)}\')"' if confirm else ""
    return (
        f' · <form class="stop" method="post" action="{action}"><input type="hidden" name="_xsrf"'
        f' value="{_e(xsrf)}"><input type="hidden" name="table" value="{_e(code)}">'
        f'<button type="submit"{ask}>{_e(label)}</button></form>'
    )


def open_form(xsrf: str, said: str = "", values: dict[str, str] | None = None) -> str:
    """The form that opens a table, filled with `values` (what the teacher sent, after a
    refusal) or the defaults; `said`: the last opening's outcome (already HTML)."""
    v = {**FORM_DEFAULTS, **(values or {})}
    wait = " checked" if values is None or values.get("wait") == "on" else ""  # waits, unless unticked
    demo = " checked" if values is not None and values.get("demo") == "on" else ""

    def number(key: str, label: str, required: bool = False, top: int | None = None) -> str:
        need = " required" if required else ""
        most = f' max="{top}"' if top is not None else ""
        return (
            f'<label for="f-{key}">{_e(label)}</label><input id="f-{key}" name="{key}" type="number"'
            f' min="{0 if key == "seed" else 1}"{most} value="{_e(v[key])}"{need}>'
        )

    players = {str(n): str(n) for n in range(3, 9)}
    books = {"hoffmann": "Hoffmann, Hoyle's Games Modernized", "peel": "Peel, Round Games with Cards"}
    loos = {
        "fixed": "a fixed loo (limited loo)",
        "pool": "the whole pool (unlimited loo)",
        "pool_capped": "the pool, up to a cap",
    }
    return (
        f'<h2>Open a table</h2>{said}<form class="open" method="post" action="">'
        f'<input type="hidden" name="_xsrf" value="{_e(xsrf)}">'
        f'<label for="f-players">Players at the table</label>'
        f'<select id="f-players" name="players">{_options("players", players, v["players"])}</select>'
        f'<label for="f-rules">The book\'s rules</label>'
        f'<select id="f-rules" name="rules">{_options("rules", books, v["rules"])}</select>'
        + number("stake", f"Stake (counters the dealer puts in, 1 to {CLASS_BOUNDS['stake'][1]})", True,
                 CLASS_BOUNDS["stake"][1])
        + f'<label for="f-loo">A loo costs</label>'
        f'<select id="f-loo" name="loo_kind">{_options("loo_kind", loos, v["loo_kind"])}</select>'
        + number("loo_amount", "The fixed loo, or the cap (counters; blank: the stake, or 10 stakes)",
                 top=CLASS_BOUNDS["loo_cap"][1])
        + number("deals", "Deals (blank: until you stop the table)")
        + f'<label for="f-bots">Bots in the empty seats</label>'
        f'<select id="f-bots" name="bots">{_options("bots", BOT_WORDS, v["bots"])}</select>'
        + number("seed", "Seed (blank: any deal)")
        + '<label for="f-wait">Wait for my Start (the pupils sit down first; else the first to sit'
        f' down starts it)</label><input id="f-wait" name="wait" type="checkbox"{wait}>'
        + '<label for="f-demo">Bots only: a demo for the projector (nobody sits; the bots play a'
        f' move a second once started)</label><input id="f-demo" name="demo" type="checkbox"{demo}>'
        + '<button type="submit">Open the table</button></form>'
    )


def setup_from_form(form: dict[str, str]) -> dict[str, Any]:
    """The setup the form asks for, as the JSON API takes it (`referee.table_setup` checks
    it): numbers read as whole numbers, blanks left out, the loo's kind made the rules' option
    (V8: a fixed loo, R39; the pool, R46–R48; the pool up to a cap, R49). A `ValueError`
    names the field that is not a whole number."""

    def whole(key: str) -> int | None:
        text = form.get(key, "").strip()
        if not text:
            return None
        if not text.isdigit() or len(text) > 9:
            raise ValueError(f"{key}: expected a whole number, got {text[:20]!r}")
        return int(text)

    setup: dict[str, Any] = {
        "bots": form.get("bots", "sensible"),
        "wait": form.get("wait") == "on",
        "demo": form.get("demo") == "on",
    }
    for key in ("players", "stake", "deals", "seed"):
        n = whole(key)
        if n is not None:
            setup[key] = n
    kind = form.get("loo_kind", "fixed")
    amount = whole("loo_amount")
    rules = form.get("rules", "hoffmann")
    if kind == "fixed":
        setup["rules"] = rules
        if amount is not None:
            setup["loo"] = amount
    elif kind in ("pool", "pool_capped"):
        setup["rules"] = {"preset": rules, "loo_amount": kind}
        if kind == "pool_capped" and amount is not None:
            setup["loo_cap"] = amount
    else:
        raise ValueError(f"loo_kind: expected fixed, pool or pool_capped, got {kind[:20]!r}")
    return setup


def opened_html(code: str) -> str:
    """What the form says once a table is open: its code, large, to write on the board."""
    return (
        f'<p>Table opened. Its code, for the pupils: <span class="code">{_e(code)}</span></p>'
    )


def refused_html(line: str) -> str:
    """What the form says when the service refused the table: the one line."""
    return f'<p class="refused" role="alert">Not opened: {_e(line)}</p>'


def table_body(t: Table, *, project: bool = False) -> str:
    """One table's live part; `project`: large, for the class to see (no cards are ever shown)."""
    j = t.public_json()
    return _summary(j) + _seats(j) + ("" if project else _ledger(j))

