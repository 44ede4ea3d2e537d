"""Positions on the table: shipped scenarios, seeded deals, cards and the table view."""

from __future__ import annotations

from collections.abc import Iterable
from importlib import resources
from typing import Any

from loo_lessons.engine.cards import Card, parse_card
from loo_lessons.engine.game import Hand
from loo_lessons.scenario import Scenario, load, loads
from loo_lessons.views.html import CardsView
from loo_lessons.widgets import live

Position = Scenario | Hand | str


def scenario_names() -> list[str]:
    """The shipped scenarios (loo_lessons/scenarios), by name."""
    folder = resources.files("loo_lessons").joinpath("scenarios")
    return sorted(e.name.rsplit(".", 1)[0] for e in folder.iterdir() if e.name.endswith(".yaml"))


def scenario_text(name: str) -> str:
    """The YAML text of the shipped scenario `name` (from loo_lessons/scenarios)."""
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
