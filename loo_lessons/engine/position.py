"""A position written as a contract scenario (shared/scenario-format.md), like a FEN.

`position_mapping(hand)` is the one writer of positions: quizzes and searches save what
they found with it, and `IllegalAction` carries its JSON text (an immutable copy of the
position the move was refused in). JSON only, with the standard library.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

from .cards import Card, Suit, in_hand_order
from .options import DEFAULT_PRESET, RuleOptions, preset_of
from .penalties import Offence
from .setup import Setup

# What a position is read from, described here rather than imported: `game.Hand` writes its
# positions with this module, so this module must not import `game` (no import circle). The
# table a hand is dealt at is `setup.Setup` itself, a module of its own for that reason.


class _Penalty(Protocol):
    @property
    def seat(self) -> int: ...
    @property
    def offence(self) -> Offence: ...


class _Position(Protocol):
    """What `position_mapping` reads of a hand (`game.Hand` is one)."""

    @property
    def setup(self) -> Setup: ...
    @property
    def options(self) -> RuleOptions: ...
    @property
    def turn_up(self) -> Card | None: ...
    @property
    def trumps(self) -> Suit | None: ...
    @property
    def declared(self) -> Mapping[int, object]: ...
    @property
    def rotation(self) -> tuple[int, ...]: ...
    @property
    def tricks(self) -> Sequence[Sequence[tuple[int, Card]]]: ...
    @property
    def partial(self) -> frozenset[int]: ...
    @property
    def held(self) -> Sequence[Sequence[Card]]: ...
    @property
    def miss(self) -> Sequence[Card] | None: ...
    @property
    def miss_holder(self) -> int | None: ...
    @property
    def players_in(self) -> tuple[int, ...]: ...
    @property
    def awarded_to(self) -> int | None: ...
    @property
    def penalties(self) -> Sequence[_Penalty]: ...


def rules_of(options: RuleOptions) -> str | dict[str, Any]:
    """The `rules:` value naming `options`: a preset's name, or the preset plus every option."""
    found = preset_of(options)
    return found.name if found else {"preset": DEFAULT_PRESET, **options.to_dict()}


def position_mapping(
    hand: _Position,
    rules: str | Mapping[str, Any] | None = None,
    *,
    seats: Iterable[int] | None = None,
    tricks: bool = True,
    turn_up: bool = True,
    miss: bool = True,
) -> dict[str, Any]:
    """The position of `hand` now, as a contract scenario mapping (JSON-ready).

    `rules` defaults to the hand's own options (`rules_of`). `seats` are the seats whose
    current cards are written (default: every seat whose cards are known and that holds cards
    or has played); thrown-up hands are never needed (nobody may look at them, R11). With
    `miss`, the miss is written: untaken, or the cards of the seat that took it. Penalties
    recorded are written under the package's `penalties` key.
    """
    s = hand.setup
    st = s.stakes
    out: dict[str, Any] = {
        "rules": rules_of(hand.options) if rules is None else rules,
        "players": s.players,
        "dealer": s.dealer,
    }
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
        [x for x in range(s.players) if x not in hand.partial and (hand.held[x] or x in played)]
        if seats is None
        else [x for x in sorted(seats) if hand.held[x]]
    )
    if shown:
        out["hands"] = {
            str(x): [c.code for c in in_hand_order(hand.held[x], hand.trumps)] for x in shown
        }
    if miss and not s.must:
        if hand.miss:
            out["miss"] = [c.code for c in hand.miss]
        elif hand.miss_holder is not None and hand.miss_holder not in hand.partial:
            taker = hand.miss_holder
            out["miss"] = [c.code for c in (*hand.held[taker], *played.get(taker, []))]
    if tricks and hand.players_in and hand.awarded_to is None:
        out["tricks"] = [[[seat, c.code] for seat, c in t] for t in hand.tricks if t]
    if hand.penalties:
        out["penalties"] = [
            {"seat": p.seat, "offence": p.offence.name.lower()} for p in hand.penalties
        ]
    return out


def position_text(hand: _Position) -> str:
    """The position of `hand` as scenario JSON text (standard library; sorted, stable)."""
    return json.dumps(position_mapping(hand), ensure_ascii=False)
