"""The strategy lab: Monte Carlo with bots, as tables and plots."""

from __future__ import annotations

import html
import inspect
from collections.abc import Iterable, Mapping
from typing import Any, TypedDict, Unpack

import ipywidgets

from loo_lessons.engine.errors import LooError
from loo_lessons.engine.options import options_from
from loo_lessons.lessons.shows import Call, keywords, shows
from loo_lessons.sim.tally import honours_words
from loo_lessons.views import frames
from loo_lessons.widgets.controllers.lab import LabController


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


class Simulation(TypedDict, total=False):
    """What `simulate`, `trick_rates` and the lab are told to simulate, as keywords: `hands`
    seeded hands (hand i dealt from its own seed) at a table of `players`, from `seed`, under
    `rules` (a preset), `bots` in every seat. Not told: `SIMULATION`."""

    hands: int
    players: int
    seed: int
    rules: str
    bots: str


class LabSettings(Simulation, total=False):
    """The lab's settings: a simulation and what its trick rates are grouped `by`."""

    by: str


#: What a table simulates when it is not told otherwise.
SIMULATION = Simulation(hands=3000, players=5, seed=1, rules="hoffmann", bots="sensible")
#: What the lab runs when it is not told otherwise: its controller's defaults (300 hands).
LAB: dict[str, Any] = {
    k: p.default
    for k, p in inspect.signature(LabController).parameters.items()
    if k in LabSettings.__optional_keys__
}

_SIMULATIONS: dict[tuple[int, int, int, str, str], Any] = {}


def _settings(given: Mapping[str, Any]) -> tuple[int, int, int, str, str]:
    """hands, players, seed, rules and bots: those given, else `SIMULATION`'s."""
    for name in given:
        if name not in SIMULATION:
            raise LooError(f"{name}: not a setting of a simulation ({', '.join(SIMULATION)})")
    s = {**SIMULATION, **given}
    return int(s["hands"]), int(s["players"]), int(s["seed"]), str(s["rules"]), str(s["bots"])


def _simulation(simulation: Simulation) -> Any:
    """simulate(...) once per set of arguments (seeded, so a second run would be identical);
    while it runs, a progress bar in JupyterLab."""
    from loo_lessons.sim.montecarlo import simulate as run

    key = hands, players, seed, rules, bots = _settings(simulation)
    if key not in _SIMULATIONS:
        bar = _ProgressBar(hands, f"{hands:,} hands, {players} players, seed {seed}")
        if _in_kernel():
            from IPython.display import display

            display(bar)  # type: ignore[no-untyped-call]
        # twenty chunks: the bar moves in steps of 5% (the numbers do not depend on it)
        chunk = max(100, -(-hands // 20))
        result = run(hands, players, seed, rules, bots, progress=bar.update, chunk=chunk)
        if len(_SIMULATIONS) >= 16:
            _SIMULATIONS.pop(next(iter(_SIMULATIONS)))
        _SIMULATIONS[key] = result
    return _SIMULATIONS[key]


@keywords(LAB)
def lab(**settings: Unpack[LabSettings]) -> Any:
    """The strategy lab as a widget: set the hands, players, seed, rules, bots and what to
    group by (`LabSettings`, defaults `LAB`), press Run and watch the progress bar; then the
    headline rates and who takes a trick, as a table and as bars. Live in JupyterLab and in
    the book (its engine runs the simulation in the page: keep it to a few thousand hands
    there). The book shows the first run's numbers until the engine has loaded."""
    from loo_lessons.widgets import live

    return live.Lab(**settings, run=True)


@keywords(SIMULATION)
def simulate(**simulation: Unpack[Simulation]) -> Any:
    """Play `hands` seeded hands with bots (`Simulation`: hands=3000, players=5, seed=1,
    rules="hoffmann", bots="sensible" when not told) and give the headline rates (a one-row
    DataFrame). Hand i is dealt from its own seed, so the same arguments give the same numbers
    anywhere (`loo-lessons simulate --hands 100000 --players 5 --seed 1` in a terminal does
    100,000)."""
    res = _simulation(simulation)
    ov = res.overview()
    row = {
        "hands": int(ov["hands"]),
        "players": res.players,
        "seed": res.seed,
        "pool taken without play": round(ov["awarded_rate"], 3),
        "players in a hand played (mean)": round(ov["mean_in_play"], 2),
        "players who stood and were looed": round(ov["loo_rate_of_players"], 3),
        "singles": round(ov["single_rate"], 3),
    }
    return frames.records([row], index="hands")


#: The simulation's column names that do not read as words with `_` made a space.
_COLUMN_WORDS = {
    "took_trick": "took a trick",
    "tricks": "tricks (mean)",
    "net": "net counters (mean)",
    "value_of_miss": "value of the miss",
}


def _words(name: Any) -> str:
    """A simulation's name for a column or a choice (`take_miss`), as a learner reads it."""
    return _COLUMN_WORDS.get(str(name), str(name).replace("_", " "))


def _worded(df: Any) -> Any:
    """The table with its columns named in words."""
    return df.rename(columns=_words)


_BY = {
    "trumps": "trumps",
    "honours": "honours",
    "seat": "position",
    "position": "position",
}


@keywords(SIMULATION)
def trick_rates(by: str = "trumps", **simulation: Unpack[Simulation]) -> Any:
    """How often a hand that was played takes a trick, and is looed, by the kind of hand
    (a DataFrame): `by` "trumps" (trumps in the three cards played), "honours" (ace / king
    of trumps held) or "seat" (1 = elder hand ... the dealer last), in the `simulation` (as
    `simulate`'s)."""
    if by not in _BY:
        raise LooError(f"by is one of {', '.join(_BY)} (got {by!r})")
    res = _simulation(simulation)
    df = frames.table(res.trick_rates(_BY[by]))
    if by == "honours":
        df.index = [honours_words(bool(a), bool(k)) for a, k in df.index.to_list()]
        df.index.name = "trump honours held"
    elif _BY[by] == "position":
        df.index.name = "seat (1 = elder hand)"
    else:
        df.index.name = "trumps held"
    return _worded(df).round(3)


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


@shows(trick_rates)
def trick_rates_plot(df: Any, call: Call) -> Any:
    """`trick_rates` as bars: the share of hands played that took a trick and that were looed."""
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
    ax.set_title(
        f"Who takes a trick: {call['hands']:,} hands, {call['players']} players, "
        f"seed {call['seed']}, {call['rules']}"
    )
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
    runs = (Simulation(hands=hands, players=p, seed=seed, rules=rules, bots=bots) for p in tables)
    df = frames.concat(frames.table(_simulation(run).expected_counters()) for run in runs)
    df = df.rename(columns=_DECLARATION_COLUMNS)
    order = [c for c in _DECLARATION_COLUMNS.values() if c in df.columns]
    df = df[order]
    df.index = df.index.set_names(["players", "seat"])
    # a declaration the bots never chose at a seat has no mean: shown as a dash, not NaN
    return frames.dashed(df.round(2))


@shows(expected_counters)
def expected_counters_plot(df: Any, call: Call) -> Any:
    """`expected_counters` as lines: standing and taking the miss, seat by seat, one line per
    table size (throwing up is always 0: a passer wins nothing and pays nothing)."""
    from matplotlib.ticker import MaxNLocator

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
    df = frames.paired_table(res)
    df.index = [_hand_label(int(t), bool(a), bool(k)) for t, a, k in df.index.to_list()]
    df.index.name = "hand dealt"
    df = _worded(df)
    df["best"] = df["best"].map(_words)
    return df.round(2)


@shows(miss_value)
def miss_value_plot(df: Any, call: Call) -> Any:
    """`miss_value` as bars: the mean counters of standing and of taking the miss, by hand."""
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
        f"Stand or take the miss? Seat {call['position']} of {call['players']}, "
        f"{call['hands']:,} deals, seed {call['seed']}"
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
    from loo_lessons.sim.montecarlo import session as run

    cols: dict[str, Any] = {}
    for kind in loo:
        if kind not in _LOO_KINDS:
            raise LooError(f"loo is one of {', '.join(_LOO_KINDS)} (got {kind!r})")
        opts = options_from({"preset": "hoffmann", "loo_amount": kind})
        df = frames.session(run(deals, players, seed, opts, bots, stake=stake))
        name = _LOO_KINDS[kind]
        cols[f"pool ({name})"] = df["pool"]
        cols[f"a loo costs ({name})"] = df["loo_each"].where(df["loos"] > 0, 0)
        cols[f"single ({name})"] = df["single"]
    return frames.of_columns(cols)


@shows(session)
def session_plot(df: Any, call: Call) -> Any:
    """`session` as lines: the pool deal by deal under each loo, on a log scale when it grows
    a hundredfold; ▼ marks a deal that follows a single."""
    # the loos in the order `session` took them (its columns: `loo` may have been an iterator)
    kinds = [k for c in df.columns for k, name in _LOO_KINDS.items() if c == f"pool ({name})"]
    stake = call["stake"]
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
        f"The pool over {call['deals']} deals: {call['players']} players, {call['bots']} bots, "
        f"seed {call['seed']}, stake {stake}"
    )
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1))
    return fig
