"""`Hand.legal_with`: the seat to play's choices if it held other cards, from the same rules."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from loo_lessons.engine.cards import FULL_PACK
from loo_lessons.engine.game import Hand, Phase
from loo_lessons.engine.options import preset


def _into_play(seed: int, players: int, book: str) -> Hand | None:
    rng = random.Random(seed)
    hand = Hand.from_seed(seed, players=players, options=book)
    stop = rng.randrange(0, 9)
    while hand.to_act is not None and (hand.phase is not Phase.PLAY or stop > 0):
        if hand.phase is Phase.PLAY:
            stop -= 1
        hand.apply_unchecked(rng.choice(hand.legal_actions()))
    return hand if hand.to_act is not None else None


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 7), st.sampled_from(["hoffmann", "peel"]))
def test_with_its_own_cards_it_is_legal_actions(seed: int, players: int, book: str) -> None:
    hand = _into_play(seed, players, book)
    if hand is None:
        return
    seat = hand.to_act
    assert seat is not None
    before = hand.snapshot()
    assert hand.legal_with(list(hand.held[seat])) == tuple(hand.legal_actions())
    assert hand.snapshot() == before  # asking about other cards leaves the position alone


@settings(max_examples=150, deadline=None)
@given(
    st.integers(0, 10_000),
    st.integers(2, 7),
    st.sampled_from(["hoffmann", "peel"]),
    st.randoms(use_true_random=False),
)
def test_other_cards_give_what_a_hand_holding_them_would(
    seed: int, players: int, book: str, r: random.Random
) -> None:
    hand = _into_play(seed, players, book)
    if hand is None:
        return
    seat = hand.to_act
    assert seat is not None
    # cards nobody has seen played (any of them could be in his hand, as far as the rules care)
    gone = {c for t in hand.tricks for _, c in t}
    cards = r.sample([c for c in FULL_PACK if c not in gone], len(hand.held[seat]))
    legal = hand.legal_with(cards)
    assert legal and set(legal) <= set(cards)
    # the same position with those cards really held: its own legal actions agree
    other = hand.copy()  # (nothing asked of `hand` yet: no ruling is kept to be copied)
    other.held[seat] = list(cards)
    assert tuple(other.legal_actions()) == legal
    # and under the other book's options, what that book would allow there
    peel = preset("peel" if book == "hoffmann" else "hoffmann")
    assert set(hand.legal_with(cards, peel)) <= set(cards)


def test_nothing_to_play_while_declaring_or_after_the_deal() -> None:
    hand = Hand.from_seed(3, players=4)
    assert hand.phase is Phase.DECLARE
    assert hand.legal_with(list(FULL_PACK[:3])) == ()
    while hand.to_act is not None:
        hand.apply_unchecked(hand.legal_actions()[0])
    assert hand.legal_with(list(FULL_PACK[:3])) == ()
