"""Edge cases: searching seeded deals for a moment, and one deal played under each book."""

from __future__ import annotations

import html
from collections.abc import Iterable
from typing import Any

from loo_lessons.engine.errors import LooError
from loo_lessons.lessons.reference import WRAP_BY_WORDS
from loo_lessons.lessons.shows import Call, shows
from loo_lessons.scenario import Scenario, dump
from loo_lessons.views import frames
from loo_lessons.widgets.static import Html


def predicates() -> Any:
    """The named searches of loo_lessons.sim.search and what each one looks for (a DataFrame)."""
    from loo_lessons.sim.search import PREDICATES

    rows = [{"search": name, "finds": words} for name, (words, _) in PREDICATES.items()]
    return frames.records(rows, index="search")


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
    from loo_lessons.sim.search import find as search

    found = search(name, rules=rules, players=players, seeds=seeds, bots=bots, limit=1)
    if not found:
        raise LooError(f"no deal among these seeds gives {name!r}: search more seeds")
    return found[0].load()


@shows(find)
def find_yaml(found: Scenario, call: Call) -> Html:
    """What `find` finds, written as a scenario file (YAML): save it and
    `loo-lessons explain FILE` shows the same position."""
    text = dump(found.data, compact=True)
    return Html(f'<pre class="loo-yaml" style="{WRAP_BY_WORDS}">{html.escape(text)}</pre>')


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
    from loo_lessons.widgets import live

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
    df = frames.comparison(c)
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
    return frames.records(rows, index="rules")


def compare_seeds(
    seeds: Iterable[int] = range(100),
    players: int = 5,
    presets: Iterable[str] = ("hoffmann", "peel"),
    moves_by: str = "sensible",
) -> Any:
    """Every deal among `seeds` where the presets part company (a DataFrame, one row per
    seed): the steps where the same position gets a different verdict, the step where the
    lines part, whether the money differs, the rules involved, and each preset's next pool."""
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
    return frames.records(rows, columns=columns, index="seed")
