"""What the table tests share: the cards a message names, and what a seat may see."""

from __future__ import annotations

import re
from typing import Any

from loo_lessons.engine.cards import Card, parse_card
from loo_lessons.engine.game import Hand

_SIGNS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}
# a card code (10H, KD) or label (10♥), standing alone in the text
_CARD = re.compile(r"(?<![A-Za-z0-9])(10|[2-9JQKA])([SHDC♣♦♥♠])(?![A-Za-z0-9])")


def cards_in(message: Any) -> set[Card]:
    """Every card a JSON-ready message names anywhere (in any string, key or value)."""
    found: set[Card] = set()
    stack = [message]
    while stack:
        x = stack.pop()
        if isinstance(x, dict):
            stack.extend(x.keys())
            stack.extend(x.values())
        elif isinstance(x, list | tuple):
            stack.extend(x)
        elif isinstance(x, str):
            for rank, suit in _CARD.findall(x):
                found.add(parse_card(rank + _SIGNS.get(suit, suit)))
    return found


def seen_by(hand: Hand, seat: int | None) -> set[Card]:
    """The cards `seat` may know in `hand` (None: the projector's, every seat's hidden): its
    own cards and those it put down, the turn-up, the cards played."""
    out = {c for t in hand.tricks for _, c in t}
    if hand.turn_up is not None:
        out.add(hand.turn_up)
    if seat is not None:
        out |= set(hand.held[seat]) | set(hand.put_down_by(seat))
    return out
