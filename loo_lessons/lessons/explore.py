"""One position under each book, and live: change a preset or an option, see the verdict change."""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping
from typing import Any

from loo_lessons.engine.errors import LooError
from loo_lessons.engine.game import Hand
from loo_lessons.explain.words import action_label
from loo_lessons.lessons.book import comparison_rows, playground_link
from loo_lessons.lessons.cards import Position, _position
from loo_lessons.widgets import live
from loo_lessons.widgets.controllers.explore import EXPLORE_OPTIONS
from loo_lessons.widgets.static import Html


def _summary_cells(j: Mapping[str, Any]) -> tuple[str, str]:
    if "refused" in j:
        return "refused", html.escape(str(j["refused"]))
    if j.get("settlement"):
        s = j["settlement"]
        said = " ".join(  # the settlement's own lines (explain.settlement), with their rules
            f"{html.escape(line['text'])} ({line['rule_id']})"
            for line in s["lines"]
            if line["kind"] not in ("pool", "next_pool")
        )
        return "settled", f"{said} Next pool {s['next_pool']}."
    # the game's words for each card and declaration (7♥, take miss), never the contract's keys
    legal = ", ".join(html.escape(action_label(k)) for k in j["legal"])
    why = j.get("why") or {}
    reasons = "; ".join(
        f"{html.escape(action_label(k))}: {v['rule_id']} {html.escape(v['reason'])}"
        for k, v in j["illegal"].items()
    )
    leading = j["phase"] == "play" and (not j["tricks"] or j["tricks"][-1]["winner"] is not None)
    moment = "lead" if leading else ("declare" if j["phase"] == "deal" else j["phase"])
    return (
        f"seat {j['to_act']} to {moment}",
        f"<strong>{legal}</strong> ({why.get('rule_id', '')}) "
        f"<br><small>not: {reasons or '—'}</small>",
    )


def compare(
    position: Position, presets: Iterable[str] = ("hoffmann", "peel"), **changes: Any
) -> Html:
    """The same position under each preset, then under the scenario's own rules when they
    differ from every preset, then under its own rules with `changes` (e.g.
    `loo_amount="pool"`): a comparison keeps the options the scenario sets."""
    sc = _position(position)
    if isinstance(sc, Hand):
        raise LooError("compare() takes a scenario")
    rows = comparison_rows(sc, presets, changes)
    body = "".join(
        f"<tr><th scope='row'>{html.escape(n)}</th>"
        f"<td class='{'loo-refused' if 'refused' in j else 'loo-moment'}'>{a}</td><td>{b}</td></tr>"
        for n, j in rows
        for a, b in [_summary_cells(j)]
    )
    title = html.escape(sc.title or "This position")
    return Html(
        f"<table class='loo-compare'><caption>{title}: the verdict under each book"
        "</caption><thead><tr><th>rules</th><th>moment</th><th>verdict</th></tr></thead>"
        f"<tbody>{body}</tbody></table>" + playground_link(position)
    )


def explore(position: Position, options: Iterable[str] = EXPLORE_OPTIONS) -> Any:
    """Change the preset or an option and see the verdict, and its reason, change: live in
    JupyterLab and in the book (its engine runs the same controller in the page); without
    either, the verdict under each book and under the scenario's own rules."""
    sc = _position(position)
    if isinstance(sc, Hand):
        raise LooError("explore() takes a scenario")
    return live.Explorer(sc.data, options, before=compare(sc)._repr_html_())


def explore_declarations(position: Position) -> Any:
    """Change what the players before have declared and see what the one to act may declare
    now, and why: live in JupyterLab and in the book (its engine runs the same controller in
    the page). A position the rules refuse (two players taking the one miss) is not drawn:
    the refusal is shown with its rule. When the change leaves nobody to declare, the
    engine's explanation of what happens instead is shown."""
    sc = _position(position)
    if isinstance(sc, Hand):
        raise LooError("explore_declarations() takes a scenario in which someone is to declare")
    return live.DeclarationsExplorer(sc.data)  # which refuses one in which nobody is
