"""What a table keeps from one deal for the next (a declaring seat's legal actions and their
verdict, the settlement of a deal without penalties) is what the hand would work out afresh,
and no hand can change what another is handed."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from test_settlement_made import settled_afresh

from loo_lessons.engine.cards import FULL_PACK
from loo_lessons.engine.declare import Declaration, declare_ruling
from loo_lessons.engine.game import Hand, Phase, Setup, Verdict
from loo_lessons.engine.options import PRESETS, preset
from loo_lessons.engine.settle import Stakes


def _fresh_declare_verdict(hand: Hand) -> Verdict:
    """The declaring verdict worked out from the rules, without any memo."""
    seat = hand.to_act
    assert seat is not None
    s = hand.setup
    r = declare_ruling(
        is_dealer=seat == s.dealer,
        must=s.must,
        miss_untaken=hand.miss is not None and hand.miss_holder is None,
        standers_before=sum(1 for d in hand.declared.values() if d is Declaration.PLAY),
        miss_holder_before=hand.miss_holder is not None,
        options=hand.options,
        forced_pass=seat in hand.forced_pass,
    )
    return Verdict(hand.phase, seat, r.legal, r.why, r.allowed_by, r.forbidden)


@settings(max_examples=30, deadline=None)
@given(
    rules=st.sampled_from(sorted(PRESETS)),
    players=st.integers(2, 6),
    must=st.booleans(),
    seed=st.integers(0, 2**32),
)
def test_many_deals_at_one_table_declare_and_settle_as_if_each_were_the_first(
    rules: str, players: int, must: bool, seed: int
) -> None:
    setup = Setup(players, seed % players, preset(rules), Stakes.make(players=players), must)
    rng = random.Random(seed)
    for _ in range(60):
        hand = Hand.dealt(setup, rng)
        while hand.to_act is not None:
            legal = hand.legal_actions()
            if hand.phase is not Phase.PLAY:
                fresh = _fresh_declare_verdict(hand)
                assert legal.verdict() == fresh == hand.verdict()
                assert tuple(legal) == fresh.legal
            hand.apply_unchecked(legal[rng.randrange(len(legal))])
        made = hand.settlement
        assert made is not None
        again = settled_afresh(hand)
        assert made == again and made.lines == again.lines
        # a view that scribbles on one deal's settlement changes no other deal's: a later
        # deal settled the same way at this table still equals `settle`'s
        for d in (made.tricks_won, made.receives, made.loo_pays, made.withheld):
            d[99] = 99


def test_a_deal_shown_as_dealt_says_so_in_the_kept_verdict() -> None:
    setup = Setup(4, 1, preset("hoffmann"), Stakes.make(players=4))
    shown = Hand.from_pack(setup, list(FULL_PACK), shows_deal=True)
    plain = Hand.from_pack(setup, list(FULL_PACK))
    assert shown.phase is Phase.DEAL and plain.phase is Phase.DECLARE
    assert shown.legal_actions().verdict().phase is Phase.DEAL
    assert plain.legal_actions().verdict().phase is Phase.DECLARE
    assert tuple(shown.legal_actions()) == tuple(plain.legal_actions())
