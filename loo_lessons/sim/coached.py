"""The `coached` bot: plays the coach's choice. It sits above the coach it asks (`sim.coach`),
which plays its worlds out with the table's bots (`sim.bots`); nothing below imports this
module, so the three make no circle. `ALL_BOTS` (every bot a name can ask for: the table's and
`coached`), `get_bot` and `seat_bots` over them are what `simulate --bots` reads."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from loo_lessons.engine.game import Action
from loo_lessons.engine.observation import SeatView
from loo_lessons.sim import bots as _bots
from loo_lessons.sim.bots import BOTS, Bot
from loo_lessons.sim.coach import advise


@dataclass(frozen=True, slots=True)
class Coached:
    """Plays what the coach advises: each legal move played out a few dozen times over deals
    of the cards it cannot see, by sensible bots, and the move with the most counters on
    average chosen. Slow (a few hundred play-outs a decision): a strength test, not a
    table's everyday bot. Its seed comes from the `rng` it is given, so a seed replays it."""

    name: str = "coached"
    rollouts: int = 24

    def choose(self, view: SeatView, legal: Sequence[Action], rng: random.Random) -> Action:
        """The coach's best move for this seat, from `rollouts` play-outs seeded by `rng`."""
        return advise(view, rollouts=self.rollouts, seed=rng.getrandbits(32)).best


#: Every bot a name can ask for (`simulate --bots`): the table's, and the slow `coached`.
ALL_BOTS: dict[str, Bot] = {**BOTS, "coached": Coached()}


def get_bot(bot: str | Bot) -> Bot:
    """A bot by name (`random-legal`, `cautious`, `bold`, `sensible`, `coached`), or the bot
    itself."""
    return _bots.get_bot(bot, ALL_BOTS)


def seat_bots(
    bots: Sequence[str | Bot] | str | Bot | None, players: int, default: str = "sensible"
) -> tuple[Bot, ...]:
    """One bot per seat, any of `ALL_BOTS` (see `sim.bots.seat_bots`)."""
    return _bots.seat_bots(bots, players, default, ALL_BOTS)


__all__ = ["ALL_BOTS", "Coached", "get_bot", "seat_bots"]
