"""The controllers of the components that only show: a row of cards and a table. They take
no event; Python changes what they show (`update`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar

from loo_lessons.explain.table import Position, as_scenario_or_hand, table_view
from loo_lessons.widgets.controllers.base import Controller, traits_of
from loo_lessons.widgets.controllers.pick import shown_seats


class CardsController(Controller):
    """`CardRow(["QH", "10S"], title="Seat 3 holds", size="large")`."""

    component = "cards"
    TRAITS: ClassVar[dict[str, Any]] = traits_of("cards")

    def __init__(
        self,
        cards: Iterable[str | None] | None = None,
        *,
        title: str | None = None,
        size: str = "large",
        **traits: Any,
    ) -> None:
        super().__init__(**traits)
        if cards is not None:
            self.data = {"cards": list(cards), "title": title, "size": size, "label": title or "cards"}


class TableController(Controller):
    """`TableView(position, title=, reveal=)`: seats, who deals, who is in, cards, the miss,
    the trick, the pool."""

    component = "table"
    TRAITS: ClassVar[dict[str, Any]] = traits_of("table")

    def __init__(
        self,
        position: Position | None = None,
        *,
        title: str | None = None,
        reveal: bool | Iterable[int] = True,
        **traits: Any,
    ) -> None:
        super().__init__(**traits)
        self._reveal = shown_seats(reveal)
        if position is not None:
            self.update(position, title=title)

    def update(self, position: Position, *, title: str | None = None) -> None:
        """Show another position (e.g. the same hand after a move)."""
        view = table_view(as_scenario_or_hand(position), reveal=self._reveal)
        self._apply({"data": {"view": view, "title": title}})
