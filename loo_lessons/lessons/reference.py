"""The books' own words: rules with their quotes, the engine's explanation and verdict,
a scenario checked, and Peel's penalties."""

from __future__ import annotations

import html
from collections.abc import Iterable
from typing import Any

from loo_lessons.engine.errors import LooError
from loo_lessons.engine.game import Hand
from loo_lessons.engine.penalties import Offence, ruling_for
from loo_lessons.engine.sources import RULES
from loo_lessons.explain import explain_json, explain_text
from loo_lessons.explain.playground import explanation_html
from loo_lessons.explain.words import book_name, counters, quote_html
from loo_lessons.lessons.book import Answer, playground_link
from loo_lessons.lessons.cards import Position, _position
from loo_lessons.scenario import loads
from loo_lessons.views import frames
from loo_lessons.widgets.static import Html

# Long lines wrap between words: JupyterLab's output CSS breaks a <pre> anywhere
# (word-break: break-all), which split "bound" into "boun/d" in a 1280-px window.
WRAP_BY_WORDS = "white-space:pre-wrap;word-break:normal;overflow-wrap:break-word"


#: The one-click fold of reference material on a lesson page (issue 23: an idea, a task, a few
#: words; the books' full words stay verbatim and cited, one click away).
BOOKS_WORDS = "The books' words"


def _quote_html(rule_id: str) -> str:
    """A rule's summary, and every passage it quotes, each with its book, folded behind
    "The books' words" (open in print and for a screen reader that asks)."""
    r = RULES[rule_id]
    quotes = "".join(
        f"<p>“{quote_html(q)}” <small>— {html.escape(book_name(q))}</small></p>" for q in r.quotes
    )
    return (
        f'<blockquote class="loo-quote loo-rule-card" data-rule="{rule_id}"><strong>{rule_id}</strong> — '
        f"{html.escape(r.summary.replace('*', ''))}"
        f'<details class="loo-books-words"><summary>{BOOKS_WORDS} ({_books(rule_id)})</summary>{quotes}</details>'
        "</blockquote>"
    )


def _books(rule_id: str) -> str:
    """The books a rule quotes, by their authors' names: "Hoffmann", "Hoffmann and Peel"."""
    names = []
    for q in RULES[rule_id].quotes:
        who = "Peel" if "Peel" in book_name(q) else "Hoffmann"
        if who not in names:
            names.append(who)
    return " and ".join(names)


def rule(*rule_ids: str) -> Html:
    """Show rules: each rule's id and summary, the books' own words one click away:
    `rule("R23", "R24")`."""
    return Html("".join(_quote_html(r) for r in rule_ids))


def fold(*shown: Any, summary: str = "More") -> Html:
    """Reference material folded behind one click (`summary`): the HTML of each object shown
    (a comparison, an explanation, a table) inside a closed ``<details>``. For what a learner may
    look at but need not read before the next thing to do."""
    parts = []
    for obj in shown:
        to_html = getattr(obj, "_repr_html_", None)
        if to_html is None:
            raise LooError(f"fold() shows views with HTML; got {type(obj).__name__}")
        parts.append(str(to_html()))
    return Html(
        f'<details class="loo-more"><summary>{html.escape(summary)}</summary>{"".join(parts)}</details>'
    )


def explain(position: Position) -> Html:
    """The engine's explanation of a position (as `loo-lessons explain` prints it)."""
    sc = _position(position)
    if isinstance(sc, Hand):
        raise LooError("explain() takes a scenario; use table() or stepper() for a hand")
    # the CLI's explanation, its citations set as quotations (a view, not a terminal dump)
    return Html(
        f'<div class="loo-explain">{explanation_html(explain_text(sc))}</div>'
        + playground_link(position)
    )


def verdict(position: Position) -> Answer:
    """The contract's JSON answer for a scenario (what `explain --json` prints)."""
    sc = _position(position)
    if isinstance(sc, Hand):
        raise LooError("verdict() takes a scenario")
    return Answer(explain_json(sc))


def check(yaml_text: str) -> Html:
    """Does this scenario (YAML text) load? Either "loads fine" with the moment it describes,
    or the one message it is refused with (field: problem). Never raises."""
    try:
        j = explain_json(loads(yaml_text))
    except LooError as e:  # ScenarioError names the field; any other refusal is shown too
        field = getattr(e, "field", None)
        problem = getattr(e, "problem", str(e))
        where = f"<code>{html.escape(field)}</code>: " if field else ""
        return Html(
            '<p class="loo-check loo-check-refused"><strong>Refused</strong> — '
            f"{where}{html.escape(problem)}</p>"
        )
    except Exception as e:  # never raise in a lesson: show it, and say it is the engine's fault
        return Html(
            '<p class="loo-check loo-check-refused"><strong>The engine failed</strong> on this '
            f"scenario (please report it): {html.escape(type(e).__name__)}: "
            f"{html.escape(str(e))}</p>"
        )
    if j.get("settlement"):
        s = j["settlement"]
        moment = f"phase settled; next pool {s['next_pool']}"
    elif j["to_act"] is None:
        moment = f"phase {j['phase']}"
    else:
        legal = ", ".join(j["legal"]) or "nothing"
        moment = f"phase {j['phase']}; seat {j['to_act']} to act; legal: {legal}"
    body = f"<strong>Loads fine</strong> — {html.escape(moment)}"
    return Html(f'<p class="loo-check loo-check-ok">{body}</p>')


def penalty(offence: str, declared: bool = False, single_loo: int = 3, full_loo: int = 6) -> Html:
    """Peel's penalty for an offence (seed 004), with amounts in Peel's usual stakes."""
    off = Offence.parse(offence)
    r = ruling_for(off, declared=declared)
    amount = r.amount(single_loo, full_loo)
    where = {
        "pool_now": "into this pool, at once",
        "next_pool": "into the next deal's pool",
        "nowhere": "nowhere (no penalty is listed)",
    }[str(r.destination)]
    quotes = "".join(_quote_html(rid) for rid in r.rules)
    cons = ", ".join(c.value.replace("_", " ") for c in r.consequences) or "—"
    return Html(
        f"<div class='loo-penalty'><p><strong>{html.escape(off.info.words.capitalize())}</strong>: "
        f"{str(r.size).replace('_', ' ')} ({counters(amount)}), paid {where}. Also: {cons}.</p>"
        f"<p>{html.escape(r.note)}</p>{quotes}</div>"
    )


def penalty_table(offences: Iterable[str] | None = None, declared: bool = False) -> Any:
    """Peel's penalty table as a pandas DataFrame (amounts at stake 3, full loo 6)."""
    rows = []
    for off in offences or [o.name.lower() for o in Offence]:
        o = Offence.parse(off)
        r = ruling_for(o, declared=declared)
        rows.append(
            {
                "offence": o.info.words,
                "size": str(r.size).replace("_", " "),
                "amount": r.amount(3, 6),
                "paid into": str(r.destination).replace("_", " "),
                "also": ", ".join(c.value.replace("_", " ") for c in r.consequences),
                "rules": " ".join(r.rules),
            }
        )
    return frames.records(rows)
