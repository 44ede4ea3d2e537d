"""The deal (R01–R04): three cards each, one at a time from the elder hand, the miss, the turn-up."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from operator import itemgetter
from typing import Any, Protocol

from .cards import Card, Suit, shuffled_pack
from .errors import InputError
from .options import MissDealPosition

MISS = -1  # the miss's place in the dealing order

#: A18: 3n + 3 (miss) + 1 (turn-up) <= 52, so 16 players with a miss; 17 in a must (no miss).
MIN_PLAYERS = 2
MAX_PLAYERS_WITH_MISS = 16
MAX_PLAYERS_WITHOUT_MISS = 17


def check_table_size(players: int, with_miss: bool, field: str = "players") -> None:
    """Nothing, if `players` can sit down: 2 to 16 with a miss, 17 without one (A18: three cards
    each, three for the miss and the turn-up, from 52). Raises `InputError` naming `field`
    otherwise."""
    if isinstance(players, bool) or not isinstance(players, int):
        raise InputError(field, f"expected a whole number of players, got {players!r}")
    top = MAX_PLAYERS_WITH_MISS if with_miss else MAX_PLAYERS_WITHOUT_MISS
    if not MIN_PLAYERS <= players <= top:
        why = (
            "with a miss (3 cards each, 3 for the miss and the turn-up: A18); 17 only in a must"
            if with_miss
            else "(3 cards each and the turn-up: A18)"
        )
        raise InputError(field, f"{players} players cannot sit down: {MIN_PLAYERS} to {top} {why}")


@lru_cache(maxsize=256)  # a handful of tables; every deal asks
def round_order(
    players: int, dealer: int, with_miss: bool, position: MissDealPosition
) -> tuple[int, ...]:
    """Who receives each card of one round: elder hand first, the dealer last (R03, R05)."""
    seats = [(dealer + 1 + i) % players for i in range(players)]
    if not with_miss:
        order = tuple(seats)
    elif position is MissDealPosition.FIRST_EACH_ROUND:
        order = (MISS, *seats)
    else:
        # after the dealer's own card and at the end of the round are the same place (V13)
        order = (*seats, MISS)
    _cutter_for(order)
    return order


@dataclass(frozen=True, slots=True)
class Dealt:
    """The result of a deal: each seat's three cards, the miss, the turn-up, the stock left."""

    hands: tuple[tuple[Card, ...], ...]
    miss: tuple[Card, ...] | None
    turn_up: Card
    stock: tuple[Card, ...]

    @property
    def trumps(self) -> Suit:
        """The suit of the turn-up, which is trumps for the deal (R04)."""
        return self.turn_up.suit  # R04


def deal_from(
    pack: Sequence[Card],
    players: int,
    dealer: int,
    *,
    must: bool = False,
    position: MissDealPosition = MissDealPosition.END_OF_EACH_ROUND,
) -> Dealt:
    """Deal from `pack` (top first): three rounds one card at a time, then turn up the next card."""
    order = round_order(players, dealer, not must, position)  # R45: no miss in a must
    return Dealt(*cut(pack, players, order))


#: A deal's cards: each seat's three (in seat order), the miss (None in a must), the turn-up,
#: and the stock left.
Cards = tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...] | None, Card, tuple[Card, ...]]


def cut(pack: Sequence[Card], players: int, order: Sequence[int]) -> Cards:
    """The cards `pack` deals (top first) to the places of `order` (`round_order`: seats, and
    `MISS` for the miss): three rounds one card at a time (R03), then the next card turned up
    (R04); the rest is the stock. Raises `InputError` naming `deck` for too few cards."""
    n = len(order)
    need = 3 * n + 1
    if len(pack) < need:
        raise InputError("deck", f"{len(pack)} cards are too few: this deal needs the top {need}")
    cards = tuple(pack)  # one copy: the hands, the turn-up and the stock are slices of it
    cutter = _CUTTERS.get(order) if order.__class__ is tuple else None
    if cutter is None or cutter[0] != players:
        return _cut_by_places(cards, players, order)
    # every deal at a table cuts the same slices: taken by one `itemgetter`, in C
    got = cutter[1](cards)
    return got[:players], got[players] if cutter[2] else None, got[-2], got[-1]


def _cut_by_places(cards: tuple[Card, ...], players: int, order: Sequence[int]) -> Cards:
    """`cut`'s slices taken place by place (and the first form its `itemgetter` is tested
    against)."""
    n = len(order)
    # one card at a time, round by round: the k-th place in a round receives the cards
    # k, k + n, k + 2n of the pack (n = places in a round), so each hand is one slice
    hands: list[tuple[Card, ...]] = [()] * players
    miss: tuple[Card, ...] | None = None
    end = 3 * n
    for place, seat in enumerate(order):
        if seat == MISS:
            miss = cards[place:end:n]
        else:
            hands[seat] = cards[place:end:n]
    return tuple(hands), miss, cards[end], cards[end + 1 :]


class _Slicer(Protocol):
    def __call__(self, cards: tuple[Card, ...], /) -> tuple[Any, ...]: ...


#: For each dealing order met (`round_order`'s tuples; a table has one per dealer): its
#: players, the `itemgetter` of every seat's slice (in seat order), the miss's (if any), the
#: turn-up's card and the stock's slice, and whether there is a miss. Made when the order is
#: made, so a table deals by it from its first hand.
_CUTTERS: dict[tuple[int, ...], tuple[int, _Slicer, bool]] = {}


def _cutter_for(order: tuple[int, ...]) -> None:
    """Keep `order`'s cutter in `_CUTTERS`, when each of its seats 0..k-1 has one place and
    the miss at most one (every order `round_order` makes)."""
    seats = [s for s in order if s != MISS]
    if sorted(seats) != list(range(len(seats))) or len(order) - len(seats) > 1:
        return
    n, players = len(order), len(seats)
    end = 3 * n
    place = {seat: k for k, seat in enumerate(order)}
    parts: list[slice | int] = [slice(place[s], end, n) for s in range(players)]
    with_miss = MISS in place
    if with_miss:
        parts.append(slice(place[MISS], end, n))
    parts += [end, slice(end + 1, None)]
    _CUTTERS[order] = (players, itemgetter(*parts), with_miss)


def deal(
    rng: random.Random,
    players: int,
    dealer: int,
    *,
    must: bool = False,
    position: MissDealPosition = MissDealPosition.END_OF_EACH_ROUND,
) -> Dealt:
    """Shuffle with the injected RNG and deal: the same seed always gives the same deal."""
    check_table_size(players, not must)
    return deal_from(shuffled_pack(rng), players, dealer, must=must, position=position)


def next_dealer(dealer: int, players: int) -> int:
    """The deal passes to the left (R05: play goes round to the left)."""
    return (dealer + 1) % players
