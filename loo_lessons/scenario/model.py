"""`Scenario`: a loaded, checked scenario and the position it describes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from loo_lessons.engine.deal import Dealt
from loo_lessons.engine.game import Hand, Phase, Setup
from loo_lessons.engine.options import RuleOptions
from loo_lessons.engine.settle import Settlement

from .text import clean_text

#: Every card in the pack (R01).
PACK_SIZE = 52


@dataclass
class Scenario:
    """A loaded, validated scenario and the position it describes."""

    data: dict[str, Any]
    options: RuleOptions
    setup: Setup
    hand: Hand
    dealt: Dealt | None = None
    settlement: Settlement | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def title(self) -> str | None:
        """The scenario's `title:`, cleaned of control characters, or None."""
        t = self.data.get("title")
        return clean_text(str(t)) if t is not None else None

    @property
    def phase(self) -> Phase:
        """The phase: the engine's, and only the engine's."""
        return self.hand.phase

    @property
    def final_settlement(self) -> Settlement | None:
        """How the deal was settled: the engine's settlement of a deal given by its `tricks_won`,
        else the hand's own; None before the end."""
        return self.settlement or self.hand.settlement

    @property
    def hand_needed(self) -> int | None:
        """The seat to act, when its hand was not given: what it may do cannot be said."""
        h = self.hand
        if h.phase is Phase.PLAY and h.to_act in h.partial:
            return h.to_act
        return None

    @property
    def before_first_trick(self) -> bool:
        """No card has been played, and no trick is said to have been won."""
        return self.settlement is None and not any(self.hand.tricks)

    def deal_counts(self) -> dict[str, int]:
        """How the pack was shared out (R03, R04): the contract's count keys."""
        s = self.setup
        to_players = 3 * s.players
        miss = 0 if s.must else 3  # R45: no miss in a must
        return {
            "cards_to_players": to_players,
            "miss_cards": miss,
            "turn_up_cards": 1,
            "stock_remaining": PACK_SIZE - to_players - miss - 1,
        }
