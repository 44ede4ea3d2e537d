"""The settlement a deal makes through the fast paths (`settle_in_order`, the slots set one by
one) is the one `settle(...)` and `Settlement(...)` make: the same figures, still frozen."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from loo_lessons.engine.game import Hand, Setup
from loo_lessons.engine.options import PRESETS, preset
from loo_lessons.engine.settle import Settlement, Stakes, _settlement, settle

SEATS = st.integers(0, 16)
COUNTS = st.dictionaries(SEATS, st.integers(0, 99), max_size=5)
FIELDS = (
    st.integers(0, 999),
    st.none() | SEATS,
    COUNTS,
    COUNTS,
    st.lists(SEATS, max_size=5).map(tuple),
    COUNTS,
    st.integers(0, 99),
    COUNTS,
    st.integers(0, 99),
    st.integers(0, 99),
    st.integers(0, 999),
    st.booleans(),
    st.booleans(),
    st.lists(st.sampled_from(["R14", "R38", "R39", "R40", "R41"]), max_size=4).map(tuple),
    st.none(),
)


@given(st.tuples(*FIELDS))
def test_slots_set_one_by_one_make_the_dataclass_s_settlement(values: tuple[Any, ...]) -> None:
    fast = _settlement(*values)
    slow = Settlement(*values)
    assert type(fast) is Settlement
    assert fast == slow
    for f in dataclasses.fields(Settlement):
        assert getattr(fast, f.name) is getattr(slow, f.name)
    with pytest.raises(dataclasses.FrozenInstanceError):
        fast.pool = 1  # type: ignore[misc]


def _random_hand(setup: Setup, rng: random.Random) -> Hand:
    hand = Hand.dealt(setup, rng)
    while hand.to_act is not None:
        legal = hand.legal_actions()
        hand.apply_unchecked(legal[rng.randrange(len(legal))])
    return hand


def settled_afresh(hand: Hand) -> Settlement:
    """`settle()` worked out afresh from what decided the hand's settlement (no table's kept
    settlement, no slot-built short cut)."""
    setup = hand.setup
    return settle(
        players=setup.players,
        stakes=setup.stakes,
        options=setup.options,
        players_in=hand.players_in,
        trick_winners=None if hand.awarded_to is not None else hand.winners,
        for_pool=hand.for_pool,
        awarded_to=hand.awarded_to,
        award_law=hand.award_law,
    )


@given(
    rules=st.sampled_from(sorted(PRESETS)),
    players=st.integers(2, 8),
    must=st.booleans(),
    pool=st.integers(0, 40),
    seed=st.integers(0, 2**32),
)
def test_a_hand_settles_as_settle_does(
    rules: str, players: int, must: bool, pool: int, seed: int
) -> None:
    setup = Setup(players, 0, preset(rules), Stakes.make(players=players, pool=pool), must)
    hand = _random_hand(setup, random.Random(seed))
    made = hand.settlement
    assert made is not None
    again = settled_afresh(hand)
    assert made == again
    assert made.why == again.why
    assert made.lines == again.lines
