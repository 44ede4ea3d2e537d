"""One position under each book, and live: change a preset or an option, see the verdict change."""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping
from typing import Any

import ipywidgets

from loo_lessons.engine.errors import LooError, ScenarioError
from loo_lessons.engine.game import Hand, Phase
from loo_lessons.explain import explain_text
from loo_lessons.lessons.book import comparison_rows, playground_link
from loo_lessons.lessons.cards import Position, _position
from loo_lessons.lessons.reference import WRAP_BY_WORDS
from loo_lessons.scenario import load
from loo_lessons.widgets import live
from loo_lessons.widgets.controllers.components import EXPLORE_OPTIONS
from loo_lessons.widgets.static import Html

_NEEDS_KERNEL = (
    '<p class="loo-live-note" style="font-size:.9em;opacity:.8">▶ The controls of this '
    "example need the live engine: run this lesson in JupyterLab (<code>make lessons</code>). "
    "Shown here as it was when the book was built.</p>"
)


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
    legal = ", ".join(j["legal"])
    why = j.get("why") or {}
    reasons = "; ".join(
        f"{k}: {v['rule_id']} {html.escape(v['reason'])}" for k, v in j["illegal"].items()
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


class _LiveBox(ipywidgets.VBox):  # type: ignore[misc]
    """Controls around a component; without a kernel, the static version and a note."""

    def __init__(self, children: list[Any], fallback: str) -> None:
        super().__init__(children)
        self._fallback = fallback

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any] | None:
        data: dict[str, Any] | None = super()._repr_mimebundle_(**kwargs)
        if data is not None:
            data["text/html"] = _NEEDS_KERNEL + self._fallback
        return data


def _show(widget: Any, fresh: Any) -> None:
    """Put a freshly built component's state into the one on the page (same class)."""
    with widget.hold_sync():
        widget.data = fresh.data
        for trait in ("picked", "current", "revealed", "entries", "checked"):
            if widget.has_trait(trait):
                setattr(widget, trait, getattr(fresh, trait))


def explore(position: Position, options: Iterable[str] = EXPLORE_OPTIONS) -> Any:
    """Change the preset or an option and see the verdict, and its reason, change: live in
    JupyterLab and in the book (its engine runs the same controller in the page); without
    either, the verdict under each book and under the scenario's own rules."""
    sc = _position(position)
    if isinstance(sc, Hand):
        raise LooError("explore() takes a scenario")
    return live.Explorer(sc.data, options, before=compare(sc)._repr_html_())


def _as_choice(v: object) -> object:
    return str(v).lower() if isinstance(v, bool) else v


_DECLARATIONS = {"stand": "play", "take miss": "take_miss", "throw up": "pass"}


def explore_declarations(position: Position) -> Any:
    """Change what the players before have declared and see what the one to act may declare
    now, and why (live). A position the rules refuse (two players taking the one miss) is
    not drawn: the refusal is shown with its rule. When the change leaves nobody to
    declare, the engine's explanation of what happens instead is shown. The book shows the
    position as it is."""
    sc = _position(position)
    if isinstance(sc, Hand) or sc.hand.phase is not Phase.DECLARE or sc.hand.to_act is None:
        raise LooError("explore_declarations() takes a scenario in which someone is to declare")
    declared = {int(k): str(v) for k, v in (sc.data.get("declarations") or {}).items()}
    if not declared:
        raise LooError("explore_declarations() needs players who have declared already")
    words = {v: k for k, v in _DECLARATIONS.items()}
    order = sorted(declared, key=lambda s: (s - sc.hand.setup.elder) % sc.hand.setup.players)
    menus = {
        seat: ipywidgets.Dropdown(
            options=list(_DECLARATIONS),
            value=words.get(declared[seat], "stand"),
            description=f"Seat {seat}",
            layout={"width": "max-content"},
        )
        for seat in order
    }
    pick = live.PickCard(sc)
    status = ipywidgets.HTML(value="")

    def refresh(_: Any = None) -> None:
        data = dict(sc.data)
        data.pop("expect", None)  # the file's expected verdict is for the position as written
        data["declarations"] = {seat: _DECLARATIONS[w.value] for seat, w in menus.items()}
        try:
            new = load(data)
        except ScenarioError as e:  # shown as a value, never printed from a callback
            pick.layout.display = "none"
            status.value = (
                f"<p class='loo-refused'><b>The rules refuse this position:</b> "
                f"{html.escape(str(e))}</p>"
            )
            return
        if new.hand.to_act is None or new.hand.phase is not Phase.DECLARE:
            pick.layout.display = "none"
            status.value = (
                "<p><b>Nobody is left to declare.</b> What happens instead:</p>"
                f'<pre class="loo-explain" style="{WRAP_BY_WORDS}">'
                f"{html.escape(explain_text(new))}</pre>"
            )
            return
        _show(pick, live.PickCard(new))
        pick.layout.display = None
        status.value = ""

    for w in menus.values():
        w.observe(refresh, names="value")
    box = ipywidgets.HBox(list(menus.values()), layout={"flex_flow": "row wrap"})
    return _LiveBox([box, status, pick], pick.static_html())
