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
from typing import TYPE_CHECKING, Any

import ipywidgets

from loo_lessons.engine.cards import Card, parse_card
from loo_lessons.engine.errors import LooError, ScenarioError
from loo_lessons.engine.game import Hand
from loo_lessons.engine.options import PRESETS, RuleOptions, options_from
from loo_lessons.engine.penalties import Offence, ruling_for
from loo_lessons.engine.sources import RULES
from loo_lessons.explain import explain_json, explain_text
from loo_lessons.scenario import Scenario, load, loads
from loo_lessons.views.html import CardsView
from loo_lessons.widgets import live
from loo_lessons.widgets.controllers.components import EXPLORE_OPTIONS
from loo_lessons.widgets.data import play_out
from loo_lessons.widgets.static import Html, Static

if TYPE_CHECKING:
    from loo_lessons.sim.search import Found

Position = Scenario | Hand | str


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
    from loo_lessons.scenario import read_text

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


def cards(codes: str | Iterable[str | Card], title: str | None = None) -> CardsView:
    """Draw some cards: `cards("KH 7C 2D")`."""
    items = codes.split() if isinstance(codes, str) else list(codes)
    return CardsView([parse_card(c) for c in items], label=title or "cards")


# --- views ------------------------------------------------------------------------------------


def table(position: Position, title: str | None = None, reveal: bool | Iterable[int] = True) -> Any:
    """The table of a position: seats, dealer, elder hand, who is in, the miss, the trick, the pool."""
    return live.TableView(_position(position), title=title, reveal=reveal)


def _quote_html(rule_id: str) -> str:
    """A rule's summary and every passage it quotes, each with its book."""
    r = RULES[rule_id]
    quotes = "".join(
        f"<br><em>“{html.escape(q.text)}”</em> <small>— {html.escape(q.book)} [{q.seed}]</small>"
        for q in r.quotes
    )
    return (
        f'<blockquote class="loo-quote"><strong>{rule_id}</strong> — {html.escape(r.summary.replace("*", ""))}'
        f"{quotes}</blockquote>"
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


def _summary_cells(j: Mapping[str, Any]) -> tuple[str, str]:
    if "refused" in j:
        return "refused", html.escape(str(j["refused"]))
    if j.get("settlement"):
        s = j["settlement"]
        got = ", ".join(f"seat {k} receives {v}" for k, v in s["receives"].items()) or "nobody wins"
        loos = (
            ", ".join(f"seat {k} pays {v}" for k, v in s["loo_pays"].items()) or "nobody is looed"
        )
        must = "; the next deal is a must" if s.get("next_is_must") else ""
        single = "; a single" if s.get("is_single") else ""
        return "settled", f"{got}; {loos}; next pool {s['next_pool']}{single}{must}"
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


def explore(position: Position, options: Iterable[str] = EXPLORE_OPTIONS) -> Any:
    """Change the preset or an option and see the verdict, and its reason, change: live in
    JupyterLab and in the book (its engine runs the same controller in the page); without
    either, the verdict under each book and under the scenario's own rules."""
    sc = _position(position)
    if isinstance(sc, Hand):
        raise LooError("explore() takes a scenario")
    return live.Explorer(sc.data, options, before=compare(sc)._repr_html_())


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


def play(
    seed: int,
    players: int = 5,
    rules: str = "hoffmann",
    seat: int = 1,
    *,
    bots: str | Iterable[str] = "sensible",
) -> Any:
    """Play one deal live against bots from `seat` (the elder hand by default): the hint,
    undo, the settlement and "save transcript". Returns a `PlayTable`; its methods
    `choose(key)`, `hint()`, `undo()`, `save(path)` do what its buttons do. `bots`: one bot
    for every other seat, or a list of one per other seat (random-legal, cautious, bold,
    sensible)."""
    from loo_lessons.widgets.play import PlayTable

    return PlayTable(seed, players, rules, seat, bots if isinstance(bots, str) else list(bots))


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

    from loo_lessons.engine.table import Table
    from loo_lessons.sim.bots import BOTS, bot_move

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


# --- presenting one deal to a class ------------------------------------------------------------


def present(seed: int, players: int = 5, rules: str = "hoffmann") -> Any:
    """A seeded deal for the whole class: very large cards, every hand face up or hidden (a
    toggle), step by step forwards and back (buttons or the arrow keys), each step's rule said
    plainly with its id and the book's words, and the seed and the rules in big type so that
    anyone can deal the same cards. The same deal as `stepper(seed)`."""
    from loo_lessons.widgets.present import Presenter

    return Presenter(seed, players=players, rules=rules)


# --- edge cases: searching seeded deals; one deal under both books ---------------------------


def predicates() -> Any:
    """The named searches of loo_lessons.sim.search and what each one looks for (a DataFrame)."""
    import pandas as pd

    from loo_lessons.sim.search import PREDICATES

    rows = [{"search": name, "finds": words} for name, (words, _) in PREDICATES.items()]
    return pd.DataFrame(rows).set_index("search")


def _first_found(name: str, seeds: Iterable[int], rules: str, players: int, bots: str) -> Found:
    """The first hit of the named search (loo_lessons.sim.search.find) among `seeds`."""
    from loo_lessons.sim.search import find as search

    found = search(name, rules=rules, players=players, seeds=seeds, bots=bots, limit=1)
    if not found:
        raise LooError(f"no deal among these seeds gives {name!r}: search more seeds")
    return found[0]


def find(
    name: str,
    seeds: Iterable[int] = range(5000),
    rules: str = "hoffmann",
    players: int = 5,
    bots: str = "random-legal",
) -> Scenario:
    """The first deal among `seeds` (each dealt from its seed and played by `bots`) at which
    the named search holds, as a scenario: the same seeds find the same position anywhere.
    Its title names the seed and the moment."""
    return _first_found(name, seeds, rules, players, bots).load()


def find_yaml(
    name: str,
    seeds: Iterable[int] = range(5000),
    rules: str = "hoffmann",
    players: int = 5,
    bots: str = "random-legal",
) -> Html:
    """What `find` finds, written as a scenario file (YAML): save it and
    `loo-lessons explain FILE` shows the same position."""
    import yaml

    found = _first_found(name, seeds, rules, players, bots)
    text = yaml.safe_dump(found.scenario, sort_keys=False, default_flow_style=None, width=88)
    return Html(f'<pre class="loo-yaml" style="white-space:pre-wrap">{html.escape(text)}</pre>')


def _comparison(seed: int, players: int, presets: Iterable[str], moves_by: str) -> Any:
    from loo_lessons.sim.compare import compare as replay

    return replay(seed, players, moves_by=moves_by, presets=tuple(presets))


def _why_differ(step: Any, labels: tuple[str, ...]) -> str:
    from loo_lessons.widgets.controllers.search import why_differ

    return why_differ(step, labels)


def search(
    name: str = "ace-turned-elder-king",
    rules: str = "hoffmann",
    players: int = 5,
    seed: int = 0,
) -> Any:
    """The edge-case search and the preset comparison as a widget: choose a search and the
    seeds, press Find for the first deal where it holds (the position, each choice with its
    rule, and its scenario file); give a seed and press Compare to replay that deal under
    both books. Live in JupyterLab and in the book (its engine runs the search in the page)."""
    return live.Search(name=name, rules=rules, players=players, seed=seed, find=True, compare=True)


def compare_deal(
    seed: int,
    players: int = 5,
    presets: Iterable[str] = ("hoffmann", "peel"),
    moves_by: str = "sensible",
    differences_only: bool = False,
) -> Any:
    """One deal (its seed) played under each preset by the same bots, step by step (a
    DataFrame): for each preset the seat to act, what he may do, what he did. `verdicts
    differ` marks a step where the very same position has different legal moves; `why`
    names what each book forbids there and the rule. Once a book forces another move the
    lines part (`same position` turns False)."""
    c = _comparison(seed, players, presets, moves_by)
    df = c.frame()
    df["why"] = [_why_differ(s, c.labels) if s.verdicts_differ else "" for s in c.steps]
    df = df.rename(columns={"same_position": "same position", "verdicts_differ": "verdicts differ"})
    if differences_only:
        df = df[df["verdicts differ"] | ~df["same position"]]
    return df


def compare_money(
    seed: int,
    players: int = 5,
    presets: Iterable[str] = ("hoffmann", "peel"),
    moves_by: str = "sensible",
) -> Any:
    """The settlement of one deal (its seed) under each preset (a DataFrame, one row per
    preset): the tricks each seat took, who was looed, each seat's net counters (received -
    loos) and the next deal's pool."""
    import pandas as pd

    c = _comparison(seed, players, presets, moves_by)
    rows = []
    for lab in c.labels:
        s = c.settlements[lab]
        tricks = " ".join(f"{k}:{v}" for k, v in sorted(s["tricks_won"].items())) or "—"
        rows.append(
            {
                "rules": lab,
                "tricks (seat:tricks)": tricks,
                "looed": " ".join(str(x) for x in s["looed"]) or "—",
                "single": bool(s["is_single"]),
                **{f"seat {seat}": int(c.nets[lab].get(seat, 0)) for seat in range(players)},
                "next pool": int(s["next_pool"]),
            }
        )
    return pd.DataFrame(rows).set_index("rules")


def compare_seeds(
    seeds: Iterable[int] = range(100),
    players: int = 5,
    presets: Iterable[str] = ("hoffmann", "peel"),
    moves_by: str = "sensible",
) -> Any:
    """Every deal among `seeds` where the presets part company (a DataFrame, one row per
    seed): the steps where the same position gets a different verdict, the step where the
    lines part, whether the money differs, the rules involved, and each preset's next pool."""
    import pandas as pd

    names = tuple(presets)
    rows = []
    for seed in seeds:
        c = _comparison(seed, players, names, moves_by)
        diffs = c.verdict_differences
        if not diffs and c.parted_at is None and not c.money_differs:
            continue
        rules = sorted(
            {
                rid
                for s in diffs
                for lab in c.labels
                for a, rid in s.forbidden[lab].items()
                if any(a in s.legal[o] for o in c.labels)
            }
        )
        rows.append(
            {
                "seed": seed,
                "verdicts differ at step": " ".join(str(s.index) for s in diffs) or "—",
                "lines part at step": "—" if c.parted_at is None else str(c.parted_at),
                "money differs": c.money_differs,
                "rules": " ".join(rules) or "—",
                **{f"next pool: {lab}": c.settlements[lab]["next_pool"] for lab in c.labels},
            }
        )
    columns = [
        "seed",
        "verdicts differ at step",
        "lines part at step",
        "money differs",
        "rules",
        *[f"next pool: {lab}" for lab in names],
    ]
    return pd.DataFrame(rows, columns=columns).set_index("seed")


# --- the strategy lab: Monte Carlo with bots ---------------------------------------------------


class _ProgressBar(ipywidgets.IntProgress):  # type: ignore[misc]
    """A progress bar for a simulation; only its value changes as chunks finish. Without a
    kernel (the built book) it shows one line saying what was simulated."""

    def __init__(self, total: int, what: str) -> None:
        super().__init__(
            value=0,
            min=0,
            max=max(1, total),
            description="Simulating",
            style={"description_width": "initial"},
        )
        self._what = what

    def update(self, done: int, total: int) -> None:
        self.value = done  # value only: one small message per chunk

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any] | None:
        data: dict[str, Any] | None = super()._repr_mimebundle_(**kwargs)
        if data is not None:
            data["text/html"] = (
                f"<p class='loo-progress-note'>Simulated {html.escape(self._what)}.</p>"
            )
        return data


def _in_kernel() -> bool:
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython comes with ipywidgets
        return False
    shell = get_ipython()
    return shell is not None and getattr(shell, "kernel", None) is not None


_SIMULATIONS: dict[tuple[int, int, int, str, str], Any] = {}


def _simulation(hands: int, players: int, seed: int, rules: str, bots: str) -> Any:
    """simulate(...) once per set of arguments (seeded, so a second run would be identical);
    while it runs, a progress bar in JupyterLab."""
    from loo_lessons.sim.montecarlo import simulate as run

    key = (hands, players, seed, rules, bots)
    if key not in _SIMULATIONS:
        bar = _ProgressBar(hands, f"{hands:,} hands, {players} players, seed {seed}")
        if _in_kernel():
            from IPython.display import display

            display(bar)  # type: ignore[no-untyped-call]
        result = run(hands, players, seed, rules, bots, progress=bar.update)
        if len(_SIMULATIONS) >= 16:
            _SIMULATIONS.pop(next(iter(_SIMULATIONS)))
        _SIMULATIONS[key] = result
    return _SIMULATIONS[key]


def lab(
    hands: int = 300,
    players: int = 5,
    seed: int = 1,
    rules: str = "hoffmann",
    bots: str = "sensible",
    by: str = "trumps",
) -> Any:
    """The strategy lab as a widget: set the hands, players, seed, rules, bots and what to
    group by, press Run and watch the progress bar; then the headline rates and who takes a
    trick, as a table and as bars. Live in JupyterLab and in the book (its engine runs the
    simulation in the page: keep it to a few thousand hands there). The book shows the first
    run's numbers until the engine has loaded."""
    return live.Lab(hands=hands, players=players, seed=seed, rules=rules, bots=bots, by=by, run=True)


def simulate(
    hands: int = 3000,
    players: int = 5,
    seed: int = 1,
    rules: str = "hoffmann",
    bots: str = "sensible",
) -> Any:
    """Play `hands` seeded hands with bots and give the headline rates (a one-row DataFrame).
    Hand i is dealt from its own seed, so the same arguments give the same numbers anywhere
    (`loo-lessons simulate --hands 100000 --players 5 --seed 1` in a terminal does 100,000)."""
    import pandas as pd

    res = _simulation(hands, players, seed, rules, bots)
    ov = res.overview()
    row = {
        "hands": int(ov["hands"]),
        "players": players,
        "seed": seed,
        "pool taken without play": round(ov["awarded_rate"], 3),
        "players in a hand played (mean)": round(ov["mean_in_play"], 2),
        "players who stood and were looed": round(ov["loo_rate_of_players"], 3),
        "singles": round(ov["single_rate"], 3),
    }
    return pd.DataFrame([row]).set_index("hands")


_BY = {
    "trumps": "trumps",
    "honours": "honours",
    "seat": "position",
    "position": "position",
}


def trick_rates(
    by: str = "trumps",
    hands: int = 3000,
    players: int = 5,
    seed: int = 1,
    rules: str = "hoffmann",
    bots: str = "sensible",
) -> Any:
    """How often a hand that was played takes a trick, and is looed, by the kind of hand
    (a DataFrame): `by` "trumps" (trumps in the three cards played), "honours" (ace / king
    of trumps held) or "seat" (1 = elder hand ... the dealer last)."""
    if by not in _BY:
        raise LooError(f"by is one of {', '.join(_BY)} (got {by!r})")
    res = _simulation(hands, players, seed, rules, bots)
    df = res.trick_rates(_BY[by])
    if by == "honours":
        df.index = [_honours_label(bool(a), bool(k)) for a, k in df.index.to_list()]
        df.index.name = "trump honours held"
    elif _BY[by] == "position":
        df.index.name = "seat (1 = elder hand)"
    else:
        df.index.name = "trumps held"
    df = df.rename(
        columns={
            "took_trick": "took a trick",
            "looed": "looed",
            "tricks": "tricks (mean)",
            "net": "net counters (mean)",
        }
    )
    return df.round(3)


def _honours_label(ace: bool, king: bool) -> str:
    if ace and king:
        return "ace and king"
    return "ace" if ace else "king" if king else "neither"


_PLOT_CLASS: dict[str, type[Any]] = {}


def _plot_class() -> type[Any]:
    """A Figure subclass shown as a PNG; matplotlib is imported on first use only."""
    if "plot" not in _PLOT_CLASS:
        from matplotlib.figure import Figure

        class Plot(Figure):
            """A matplotlib Figure that notebooks and the book show as a PNG (made without
            pyplot, so it is shown once, where the cell returns it)."""

            def _repr_png_(self) -> bytes:
                import io

                buf = io.BytesIO()
                self.savefig(buf, format="png", dpi=100)
                return buf.getvalue()

        _PLOT_CLASS["plot"] = Plot
    return _PLOT_CLASS["plot"]


def _figure(width: float = 8.5, height: float = 4.0) -> Any:
    return _plot_class()(figsize=(width, height), layout="constrained")


def trick_rates_plot(
    by: str = "trumps",
    hands: int = 3000,
    players: int = 5,
    seed: int = 1,
    rules: str = "hoffmann",
    bots: str = "sensible",
) -> Any:
    """`trick_rates` as bars: the share of hands played that took a trick and that were looed."""
    df = trick_rates(by, hands, players, seed, rules, bots)
    fig = _figure()
    ax = fig.add_subplot()
    labels = [str(x) for x in df.index]
    xs = list(range(len(labels)))
    w = 0.4
    ax.bar([x - w / 2 for x in xs], df["took a trick"], w, label="took a trick", color="#1e6a44")
    ax.bar([x + w / 2 for x in xs], df["looed"], w, label="looed", color="#c1121f", hatch="//")
    for x, n in zip(xs, df["hands"], strict=True):
        ax.annotate(f"{n} hands", (x, 1.02), ha="center", fontsize=9)
    ax.set_xticks(xs, labels)
    ax.set_xlabel(str(df.index.name))
    ax.set_ylabel("share of hands played")
    ax.set_ylim(0, 1.12)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1))
    ax.set_title(f"Who takes a trick: {hands:,} hands, {players} players, seed {seed}, {rules}")
    return fig


_DECLARATION_COLUMNS = {
    "play": "stand",
    "take_miss": "take miss",
    "pass": "throw up",
    "play_miss_for_pool": "miss for the pool",
}


def expected_counters(
    tables: Iterable[int] = (3, 4, 5, 6),
    hands: int = 3000,
    seed: int = 1,
    rules: str = "hoffmann",
    bots: str = "sensible",
) -> Any:
    """Mean counters (received - loos; the dealer's stake aside) of each declaration, by table
    size and seat (1 = elder hand ... the dealer last), from `hands` hands at each table size
    (a DataFrame). The bots chose, so each mean is over the hands a bot chose it with."""
    import pandas as pd

    frames = [_simulation(hands, p, seed, rules, bots).expected_counters() for p in tables]
    df = pd.concat(frames)
    df = df.rename(columns=_DECLARATION_COLUMNS)
    order = [c for c in _DECLARATION_COLUMNS.values() if c in df.columns]
    df = df[order]
    df.index = df.index.set_names(["players", "seat"])
    return df.round(2)


def expected_counters_plot(
    tables: Iterable[int] = (3, 4, 5, 6),
    hands: int = 3000,
    seed: int = 1,
    rules: str = "hoffmann",
    bots: str = "sensible",
) -> Any:
    """`expected_counters` as lines: standing and taking the miss, seat by seat, one line per
    table size (throwing up is always 0: a passer wins nothing and pays nothing)."""
    from matplotlib.ticker import MaxNLocator

    df = expected_counters(tables, hands, seed, rules, bots)
    fig = _figure(10, 4)
    axes = fig.subplots(1, 2, sharey=True)
    for ax, col in zip(axes, ("stand", "take miss"), strict=True):
        for players in df.index.get_level_values("players").unique():
            part = df.loc[players]
            if col in part:
                ax.plot(part.index, part[col], marker="o", label=f"{players} players")
        ax.axhline(0, color="#888888", linewidth=1, linestyle="--")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_title(f"{col} (mean counters)")
        ax.set_xlabel("seat (1 = elder hand, last = dealer)")
    axes[0].set_ylabel("counters per hand")
    axes[1].legend(loc="upper left", bbox_to_anchor=(1.01, 1))
    return fig


def _hand_label(trumps: int, ace: bool, king: bool) -> str:
    words = f"{trumps} trump{'' if trumps == 1 else 's'}"
    honours = [w for w, held in (("ace", ace), ("king", king)) if held]
    return words + (f" ({' and '.join(honours)})" if honours else "")


def miss_value(
    hands: int = 3000,
    players: int = 5,
    seed: int = 1,
    position: int = 1,
    rules: str = "hoffmann",
    bots: str = "sensible",
) -> Any:
    """The value of the miss, both ways on the very same deals (a DataFrame): the seat at
    `position` (1 = elder hand) stands, takes the miss, or throws up, and the rest play on
    with the same bots and the same draws. Mean counters of each choice by the hand dealt;
    `value of the miss` = take miss - stand."""
    from loo_lessons.sim.montecarlo import paired_miss_value

    res = paired_miss_value(hands, players, seed, rules, bots, position=position)
    df = res.table()
    df.index = [_hand_label(int(t), bool(a), bool(k)) for t, a, k in df.index.to_list()]
    df.index.name = "hand dealt"
    df = df.rename(
        columns={
            "stand": "stand",
            "take_miss": "take miss",
            "throw_up": "throw up",
            "value_of_miss": "value of the miss",
        }
    )
    df["best"] = df["best"].map(lambda b: str(b).replace("_", " "))
    return df.round(2)


def miss_value_plot(
    hands: int = 3000,
    players: int = 5,
    seed: int = 1,
    position: int = 1,
    rules: str = "hoffmann",
    bots: str = "sensible",
) -> Any:
    """`miss_value` as bars: the mean counters of standing and of taking the miss, by hand."""
    df = miss_value(hands, players, seed, position, rules, bots)
    fig = _figure(9, 0.45 * len(df) + 1.4)
    ax = fig.add_subplot()
    ys = list(range(len(df)))[::-1]
    w = 0.4
    ax.barh([y + w / 2 for y in ys], df["stand"], w, label="stand", color="#1e6a44")
    ax.barh(
        [y - w / 2 for y in ys],
        df["take miss"],
        w,
        label="take miss",
        color="#0b57d0",
        hatch="//",
    )
    ax.axvline(0, color="#888888", linewidth=1)
    labels = [f"{i} ({n} deals)" for i, n in zip(df.index, df["hands"], strict=True)]
    ax.set_yticks(ys, labels)
    ax.set_xlabel("mean counters for that seat (throwing up is always 0)")
    ax.set_title(
        f"Stand or take the miss? Seat {position} of {players}, {hands:,} deals, seed {seed}"
    )
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1))
    return fig


_LOO_KINDS = {
    "fixed": "limited",
    "pool": "unlimited",
    "pool_capped": "unlimited, capped",
}


def session(
    deals: int = 60,
    players: int = 5,
    seed: int = 1,
    loo: Iterable[str] = ("fixed", "pool", "pool_capped"),
    bots: str = "sensible",
    stake: int = 3,
) -> Any:
    """A session of `deals` deals at one table under each loo (`loo_amount`: fixed, pool,
    pool_capped with a cap of 4 stakes), Hoffmann's rules otherwise (a DataFrame, one row per
    deal): the pool contested and what one loo cost under each. A single brings an unlimited
    pool back to the stake (R47)."""
    import pandas as pd

    from loo_lessons.sim.montecarlo import session as run

    cols: dict[str, Any] = {}
    for kind in loo:
        if kind not in _LOO_KINDS:
            raise LooError(f"loo is one of {', '.join(_LOO_KINDS)} (got {kind!r})")
        opts = options_from({"preset": "hoffmann", "loo_amount": kind})
        df = run(deals, players, seed, opts, bots, stake=stake).frame()
        name = _LOO_KINDS[kind]
        cols[f"pool ({name})"] = df["pool"]
        cols[f"a loo costs ({name})"] = df["loo_each"].where(df["loos"] > 0, 0)
        cols[f"single ({name})"] = df["single"]
    return pd.DataFrame(cols)


def session_plot(
    deals: int = 60,
    players: int = 5,
    seed: int = 1,
    loo: Iterable[str] = ("fixed", "pool", "pool_capped"),
    bots: str = "sensible",
    stake: int = 3,
) -> Any:
    """`session` as lines: the pool deal by deal under each loo, on a log scale when it grows
    a hundredfold; ▼ marks a deal that follows a single."""
    kinds = tuple(loo)
    df = session(deals, players, seed, kinds, bots, stake)
    fig = _figure(10, 4.2)
    ax = fig.add_subplot()
    styles = {"fixed": ("-", "#1e6a44"), "pool": ("--", "#c1121f"), "pool_capped": (":", "#0b57d0")}
    top = 0
    for kind in kinds:
        name = _LOO_KINDS[kind]
        line, colour = styles[kind]
        pools = df[f"pool ({name})"].astype(float)
        top = max(top, int(pools.max()))
        ax.step(
            df.index,
            pools,
            where="mid",
            linestyle=line,
            color=colour,
            linewidth=2,
            label=f"{name} ({kind})",
        )
    singles = df.index[df[f"single ({_LOO_KINDS[kinds[0]]})"]] + 1
    singles = singles[singles <= df.index.max()]
    ax.plot(
        singles, [stake] * len(singles), "v", color="#444444", markersize=8, label="after a single"
    )
    if top >= 100 * stake:
        ax.set_yscale("log")
    ax.set_xlabel("deal")
    ax.set_ylabel("pool (counters)" + (", log scale" if top >= 100 * stake else ""))
    ax.set_title(
        f"The pool over {deals} deals: {players} players, {bots} bots, seed {seed}, stake {stake}"
    )
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1))
    return fig
