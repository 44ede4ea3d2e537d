"""The controllers of the components that only show: a row of cards and a table. They take
no event; Python changes what they show (`update`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from loo_lessons.explain.table import Position, as_scenario_or_hand, table_view
from loo_lessons.widgets.controllers.base import Controller, PositionController


class CardsController(Controller, component="cards"):
    """`CardRow(["QH", "10S"], title="Seat 3 holds", size="large")`."""

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


class TableController(PositionController, component="table"):
    """`TableView(position, title=, reveal=)`: seats, who deals, who is in, cards, the miss,
    the trick, the pool."""

    def _show(self, position: Any, title: str | None) -> dict[str, Any]:
        return {"view": table_view(as_scenario_or_hand(position), reveal=self._reveal), "title": title}

    def update(self, position: Position, *, title: str | None = None) -> None:
        """Show another position (e.g. the same hand after a move)."""
        self._apply({"data": self._show(position, title)})
