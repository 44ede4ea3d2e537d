"""What the lesson notebooks call: one line each, no logic in the notebooks.

Everything shown here comes from the engine (verdicts, settlements, quiz banks) and is
drawn by the components in `loo_lessons.widgets`. Each object works live in JupyterLab
and, with no kernel (the built book), shows a static version that still answers clicks;
controls that need the live engine say so.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping
from importlib import resources
from typing import Any

import ipywidgets

from .cards import Card, parse_card
from .errors import LooError, ScenarioError
from .explain import explain_json, explain_text
from .game import Hand
from .options import OPTION_SPECS, PRESETS, RuleOptions, options_from
from .penalties import Offence, ruling_for
from .scenario import Scenario, load, loads
from .sources import RULES
from .view_html import CardsView
from .widgets import live
from .widgets.static import Static

Position = Scenario | Hand | str

_NEEDS_KERNEL = (
    '<p class="loo-live-note" style="font-size:.9em;opacity:.8">▶ The controls of this '
    "example need the live engine: run this lesson in JupyterLab (<code>make lessons</code>). "
    "Shown here as it was when the book was built.</p>"
)


# --- positions ------------------------------------------------------------------------------


def scenario_names() -> list[str]:
    """The shipped scenarios (loo_lessons/scenarios), by name."""
    folder = resources.files("loo_lessons").joinpath("scenarios")
    return sorted(e.name.rsplit(".", 1)[0] for e in folder.iterdir() if e.name.endswith(".yaml"))


def scenario_text(name: str) -> str:
    return resources.files("loo_lessons").joinpath("scenarios", f"{name}.yaml").read_text("utf-8")


def scenario(name_or_yaml: str, **changes: Any) -> Scenario:
    """A shipped scenario by name (`scenario("lead-king-when-ace-turned")`), or YAML text.

    Keyword changes override the scenario's keys, e.g. `rules="peel"`.
    """
    text = (
        name_or_yaml if "\n" in name_or_yaml or ":" in name_or_yaml else scenario_text(name_or_yaml)
    )
    if not changes:
        return loads(text)
    from .scenario import read_text

    data = read_text(text)
    data.update(changes)
    return load(data)


def _position(p: Position) -> Scenario | Hand:
    return scenario(p) if isinstance(p, str) else p


def deal(
    seed: int, players: int = 5, dealer: int = 0, rules: str = "hoffmann", must: bool = False
) -> Hand:
    """A reproducible deal: the same seed gives the same cards on every machine."""
    return Hand.from_seed(seed, players=players, dealer=dealer, options=rules, must=must)


def play_out(hand: Hand, seed: int = 0) -> Hand:
    """Play a hand to the end with sensible bots (seeded), and return it."""
    import random

    from .sim.bots import BOTS, bot_move

    rng = random.Random(seed)
    bot = BOTS["sensible"]
    while hand.to_act is not None:
        hand.apply(bot_move(hand, bot, rng))
    return hand


def cards(codes: str | Iterable[str | Card], title: str | None = None) -> CardsView:
    """Draw some cards: `cards("KH 7C 2D")`."""
    items = codes.split() if isinstance(codes, str) else list(codes)
    return CardsView([parse_card(c) for c in items], label=title or "cards")


# --- views ------------------------------------------------------------------------------------


def table(position: Position, title: str | None = None, reveal: bool | Iterable[int] = True) -> Any:
    """The table of a position: seats, dealer, elder hand, who is in, the miss, the trick, the pool."""
    return live.TableView(_position(position), title=title, reveal=reveal)


class Html:
    """A piece of HTML that notebooks and the book both show."""

    def __init__(self, body: str) -> None:
        self.body = body

    def _repr_html_(self) -> str:
        return self.body

    def __repr__(self) -> str:
        return "Html(...)"


def _quote_html(rule_id: str, which: int = 0) -> str:
    r = RULES[rule_id]
    q = r.quotes[which]
    return (
        f'<blockquote class="loo-quote"><strong>{rule_id}</strong> — {html.escape(r.summary)}'
        f"<br><em>“{html.escape(q.text)}”</em><br><small>{html.escape(q.book)} [{q.seed}]"
        "</small></blockquote>"
    )


def rule(*rule_ids: str) -> Html:
    """Show rules with the book's own words: `rule("R23", "R24")`."""
    return Html("".join(_quote_html(r) for r in rule_ids))


def explain(position: Position) -> Html:
    """The engine's explanation of a position (as `loo-lessons explain` prints it)."""
    sc = _position(position)
    if isinstance(sc, Hand):
        raise LooError("explain() takes a scenario; use table() or stepper() for a hand")
    return Html(
        f'<pre class="loo-explain" style="white-space:pre-wrap">'
        f"{html.escape(explain_text(sc))}</pre>"
    )


def verdict(position: Position) -> dict[str, Any]:
    """The contract's JSON answer for a scenario (what `explain --json` prints)."""
    sc = _position(position)
    if isinstance(sc, Hand):
        raise LooError("verdict() takes a scenario")
    return explain_json(sc)


def _summary_cells(j: Mapping[str, Any]) -> tuple[str, str]:
    if "refused" in j:
        return "refused", html.escape(str(j["refused"]))
    if j.get("settlement"):
        s = j["settlement"]
        got = ", ".join(f"seat {k} receives {v}" for k, v in s["receives"].items()) or "nobody wins"
        loos = (
            ", ".join(f"seat {k} pays {v}" for k, v in s["loo_pays"].items()) or "nobody is looed"
        )
        return "settled", f"{got}; {loos}; next pool {s['next_pool']}"
    legal = ", ".join(j["legal"])
    why = j.get("why") or {}
    reasons = "; ".join(
        f"{k}: {v['rule_id']} {html.escape(v['reason'])}" for k, v in j["illegal"].items()
    )
    return (
        f"seat {j['to_act']} to {j['phase']}",
        f"<strong>{legal}</strong> ({why.get('rule_id', '')}) "
        f"<br><small>not: {reasons or '—'}</small>",
    )


def _under(sc: Scenario, opts: RuleOptions) -> dict[str, Any]:
    data = dict(sc.data)
    data["rules"] = opts.to_dict()
    try:
        return explain_json(load(data))
    except ScenarioError as e:
        return {"refused": str(e)}


def compare(
    position: Position, presets: Iterable[str] = ("hoffmann", "peel"), **changes: Any
) -> Html:
    """The same position under each preset (and under a preset with some options changed)."""
    sc = _position(position)
    if isinstance(sc, Hand):
        raise LooError("compare() takes a scenario")
    rows = []
    for name in presets:
        rows.append((name, _under(sc, PRESETS[name].options)))
    if changes:
        base = next(iter(presets))
        opts = options_from({"preset": base, **changes})
        label = base + " with " + ", ".join(f"{k}={v}" for k, v in changes.items())
        rows.append((label, _under(sc, opts)))
    body = "".join(
        f"<tr><th scope='row'>{html.escape(n)}</th><td>{a}</td><td>{b}</td></tr>"
        for n, j in rows
        for a, b in [_summary_cells(j)]
    )
    title = html.escape(sc.title or "This position")
    return Html(
        f"<table class='loo-compare'><caption>{title}: the verdict under each book"
        "</caption><thead><tr><th>rules</th><th>moment</th><th>verdict</th></tr></thead>"
        f"<tbody>{body}</tbody></table>"
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


def explore(
    position: Position,
    options: Iterable[str] = (
        "two_trumps_lead",
        "two_declared_rule",
        "must_head_in_suit",
        "void_trump_rule",
        "trump_after_trick_two_trumps",
        "lone_stander_rule",
        "pool_remainder",
    ),
) -> Any:
    """Change the preset or an option and see the verdict change (live); the book shows
    the verdict under both presets."""
    sc = _position(position)
    if isinstance(sc, Hand):
        raise LooError("explore() takes a scenario")
    start = sc.options
    preset = ipywidgets.Dropdown(
        options=list(PRESETS),
        description="Preset",
        value=next((n for n, p in PRESETS.items() if p.options == start), "hoffmann"),
    )
    toggles: dict[str, Any] = {}
    for key in options:
        spec = OPTION_SPECS[key]
        toggles[key] = ipywidgets.Dropdown(
            options=[str(v).lower() if isinstance(v, bool) else v for v in spec.values],
            value=_as_choice(start.to_dict()[key]),
            description=key,
            style={"description_width": "initial"},
            layout={"width": "max-content"},
        )
    pick = live.PickCard(sc)
    status = ipywidgets.HTML(value="")

    def refresh(_: Any = None) -> None:
        try:
            chosen = {
                k: (w.value == "true") if w.value in ("true", "false") else w.value
                for k, w in toggles.items()
            }
            data = dict(sc.data)
            data["rules"] = {"preset": preset.value, **chosen}
            new = load(data)
            fresh = live.PickCard(new)
            with pick.hold_sync():
                pick.data = fresh.data
                pick.picked, pick.current, pick.revealed = [], None, False
            status.value = ""
        except ScenarioError as e:  # shown as a value, never printed from a callback
            status.value = f"<b>Refused:</b> {html.escape(str(e))}"

    def from_preset(_: Any) -> None:
        opts = PRESETS[preset.value].options.to_dict()
        for k, w in toggles.items():
            w.unobserve(refresh, names="value")
            w.value = _as_choice(opts[k])
            w.observe(refresh, names="value")
        refresh()

    preset.observe(from_preset, names="value")
    for w in toggles.values():
        w.observe(refresh, names="value")
    box = ipywidgets.VBox(
        [preset, ipywidgets.HBox(list(toggles.values()), layout={"flex_flow": "row wrap"})]
    )
    return _LiveBox([box, status, pick], compare(sc)._repr_html_() + pick.static_html())


def _as_choice(v: object) -> object:
    return str(v).lower() if isinstance(v, bool) else v


def pick(position: Position, title: str | None = None, prompt: str | None = None) -> Any:
    """Pick a card or a declaration: the answer, the rule and the book's words at once."""
    return live.PickCard(_position(position), title=title, prompt=prompt)


def pool(position: Position, title: str | None = None) -> Any:
    """The pool calculator: fill in who receives and who pays; checked against the engine."""
    return live.PoolCalculator(_position(position), title=title)


def quiz(
    topic: str | None,
    seed: int = 1,
    count: int = 6,
    preset: str | None = None,
    title: str | None = None,
) -> Any:
    """A quiz from the topic's generator (fixed seed: the book is reproducible). Live, its
    "New questions" button asks the engine for more."""
    return live.QuizRunner(topic, seed=seed, count=count, preset=preset, title=title)


def stepper(
    position: Position | int, players: int = 5, rules: str = "hoffmann", title: str | None = None
) -> Any:
    """Step through a whole hand: the deal, the declarations, each trick, the settlement."""
    if isinstance(position, int):
        position = play_out(deal(position, players=players, rules=rules), seed=position)
    return live.Stepper(_position(position), title=title)


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
        f"{str(r.size).replace('_', ' ')} ({amount} counters), paid {where}. Also: {cons}.</p>"
        f"<p>{html.escape(r.note)}</p>{quotes}</div>"
    )


def penalty_table(offences: Iterable[str] | None = None, declared: bool = False) -> Any:
    """Peel's penalty table as a pandas DataFrame (amounts at stake 3, full loo 6)."""
    import pandas as pd

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
    return pd.DataFrame(rows)


def ledger(
    seed: int,
    players: int = 5,
    deals: int = 8,
    rules: str | Mapping[str, Any] = "hoffmann",
    bank: int = 100,
) -> Any:
    """A running table, deal after deal, with sensible bots: the ledger as a DataFrame."""
    import random

    import pandas as pd

    from .sim.bots import BOTS, bot_move
    from .table import Table

    opts = options_from(rules)
    t = Table.seeded(players, seed, opts, bank=bank)
    rng = random.Random(seed)
    bot = BOTS["sensible"]
    rows = []
    for _ in range(deals):
        must = t.next_must
        pool_before = t.pool
        rec = t.play_deal(lambda h: bot_move(h, bot, rng))
        s = rec.settlement
        rows.append(
            {
                "deal": rec.number,
                "dealer": rec.dealer,
                "must": must,
                "pool": pool_before,
                "tricks": " ".join(f"{k}:{v}" for k, v in sorted(s.tricks_won.items())) or "—",
                "looed": " ".join(map(str, s.looed)) or "—",
                "loo each": next(iter(s.loo_pays.values()), 0),
                "next pool": s.next_pool,
                "single": s.is_single,
                **{f"seat {i}": b for i, b in enumerate(rec.balances)},
            }
        )
    return pd.DataFrame(rows).set_index("deal")


def static(widget: Any) -> Static:
    """A live component as static HTML (what the book shows)."""
    return widget.static()  # type: ignore[no-any-return]
