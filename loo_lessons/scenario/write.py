"""Positions back to scenario text: what quizzes and search write, and `load` reads again."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from loo_lessons.engine.cards import Card, in_hand_order
from loo_lessons.engine.game import Hand


def position_mapping(
    hand: Hand,
    rules: str | Mapping[str, Any],
    *,
    seats: Iterable[int] | None = None,
    tricks: bool = True,
    turn_up: bool = True,
    miss: bool = True,
) -> dict[str, Any]:
    """The position of `hand` now, as a contract scenario mapping (JSON-ready).

    `seats` are the seats whose current cards are written (default: every seat that holds
    cards or has played); thrown-up hands are never needed (nobody may look at them, R11).
    With `miss`, the miss is written: untaken, or the cards of the seat that took it.
    """
    s = hand.setup
    st = s.stakes
    out: dict[str, Any] = {"rules": rules, "players": s.players, "dealer": s.dealer}
    if turn_up and hand.turn_up is not None:
        out["turn_up"] = hand.turn_up.code
    elif turn_up and hand.trumps is not None:
        out["trumps"] = hand.trumps.value
    out["stake"] = st.stake
    if st.loo != st.stake:  # the loader's defaults: loo = stake, single loo = loo // 2
        out["loo"] = st.loo
    if st.single_loo != max(1, st.loo // 2):
        out["single_loo"] = st.single_loo
    if st.loo_cap is not None:
        out["loo_cap"] = st.loo_cap
    out["pool"] = st.pool
    if s.must:
        out["must"] = True
    decl = {str(x): str(hand.declared[x]) for x in hand.rotation if x in hand.declared}
    if decl:
        out["declarations"] = decl
    played: dict[int, list[Card]] = {}
    for trick in hand.tricks:
        for seat, card in trick:
            played.setdefault(seat, []).append(card)
    shown = (
        [x for x in range(s.players) if hand.held[x] or x in played]
        if seats is None
        else [x for x in sorted(seats) if hand.held[x]]
    )
    if shown:
        out["hands"] = {
            str(x): [c.code for c in in_hand_order(hand.held[x], hand.trumps)] for x in shown
        }
    if miss and not s.must:
        if hand.miss is not None:
            out["miss"] = [c.code for c in hand.miss]
        elif hand.miss_holder is not None:
            taker = hand.miss_holder
            out["miss"] = [c.code for c in (*hand.held[taker], *played.get(taker, []))]
    if tricks and hand.players_in and hand.awarded_to is None:
        out["tricks"] = [[[seat, c.code] for seat, c in t] for t in hand.tricks if t]
    return out


def dump(data: Mapping[str, Any]) -> str:
    """A scenario mapping as YAML (card codes as strings); JSON where PyYAML is absent."""
    try:
        import yaml
    except ImportError:
        return json.dumps(json.loads(json.dumps(dict(data))), indent=2, ensure_ascii=False) + "\n"
    return yaml.safe_dump(json.loads(json.dumps(dict(data))), sort_keys=False, allow_unicode=True)
