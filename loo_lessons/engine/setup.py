"""The table as it is set before a deal: how many players, the dealer, the rules, the stakes, and
whether the deal is a must.

A module of its own so that both `game` (which plays a deal at this table) and `position`
(which writes a deal's position down) read the one `Setup`: `game` imports `position`, so
`position` may not import `game`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from .cards import Card
from .deal import Dealt, deal_from
from .options import RuleOptions
from .settle import Stakes


@dataclass(frozen=True, slots=True)
class Setup:
    """What is fixed before the cards are dealt."""

    players: int
    dealer: int
    options: RuleOptions
    stakes: Stakes
    must: bool = False

    def deal_from(self, pack: Sequence[Card]) -> Dealt:
        """The deal `pack` makes at this table (`deal.deal_from`: its players and dealer, the
        miss where `miss_deal_position` puts it, none in a must)."""
        return deal_from(
            pack,
            self.players,
            self.dealer,
            must=self.must,
            position=self.options.miss_deal_position,
        )

    @property
    def elder(self) -> int:
        """The elder hand's seat, the dealer's left: first to declare (R05) and to lead (R21)."""
        return (self.dealer + 1) % self.players

    def rotation(self) -> tuple[int, ...]:
        """Seats in declaring order: the elder hand first, the dealer last (R05)."""
        return _rotation(self.players, self.dealer)


@lru_cache(maxsize=256)  # a handful of tables; a new hand asks for its rotation every deal
def _rotation(players: int, dealer: int) -> tuple[int, ...]:
    return tuple((dealer + 1 + i) % players for i in range(players))
