"""Golden tests from the seed texts: dividing the pool, loos, the next pool, single and must,
unlimited and capped loo (R38–R49).

The centre piece is Hoffmann's own worked example (seed 000): five play, one takes two
tricks and another one, three are looed. With a stake of 3 the first takes 2, the second 1,
each looed player pays 3, and the next pool is 9 + the new dealer's 3 = 12.
"""

from __future__ import annotations

import random

import pytest
from _golden import HANDS5, MISS5, finish, make_hand, run

from loo_lessons.engine.errors import InputError
from loo_lessons.engine.game import Action, Hand, Phase
from loo_lessons.engine.options import OPTION_SPECS, preset
from loo_lessons.engine.settle import Settlement, Stakes, settle
from loo_lessons.engine.table import Chooser, Table
from loo_lessons.explain import explain_text
from loo_lessons.scenario import loads
from loo_lessons.scenario.errors import ScenarioError

# HANDS5, MISS5 (from _golden): five at the table, dealer 0, trumps hearts; nobody holds a heart.
# Played out with everyone standing: seat 1 takes two tricks (AS, KS), seat 2 one (AC).
PLAY5 = "play play play play play  AS 5D 7D 10D 4C  KS 6D 8D JD 5C  3C AC 9D QD 6C"

# Seats 1, 2, 3 stand, 4 and the dealer throw up; each of the three takes one trick.
SINGLE5 = {1: "AS 3C 4D", 2: "AC 6D 7C", 3: "AD 8S 9S", 4: "10D JD QD", 0: "4C 5C 6C"}
SINGLE_MISS = "KD 8C 9C"
SINGLE_PLAY = "play play play pass pass  AS 7C 8S  3C AC 9S  6D AD 4D"


def five_play(
    pool: int, tricks: dict[int, int], loo_cap: int | None = None, **rules: object
) -> Settlement:
    """settle() for five players all standing, with the given trick counts (in seat order)."""
    order = [seat for seat, n in sorted(tricks.items()) for _ in range(n)]
    return settle(
        players=5,
        stakes=Stakes.make(pool=pool, loo_cap=loo_cap),
        options=preset("hoffmann").with_(**rules),
        players_in=(1, 2, 3, 4, 0),
        trick_winners=order,
    )


# --- R38 / R39 / R40: Hoffmann's worked example -------------------------------------------------------


def test_R38_R39_R40_hoffmann_worked_example_played_card_by_card() -> None:
    """[000] “the pool is divided, in the proportion of one-third to each trick.”
    [000] “The first takes two-thirds, and the second one-third.”
    [000] “The remaining three players are "looed," _i.e._ mulcted in the same amount as was originally placed in the pool”
    [000] “these "loos," as they are called, with alike contribution from the new dealer, form the pool for the next hand.”"""
    for rules in ("hoffmann", "peel"):
        s = finish(make_hand(HANDS5, MISS5, rules=rules), PLAY5)
        assert s.pool == 3
        assert s.tricks_won == {1: 2, 2: 1}
        assert s.receives == {1: 2, 2: 1}
        assert sorted(s.looed) == [0, 3, 4]
        assert s.loo_pays == {3: 3, 4: 3, 0: 3}
        assert s.left_in_pool == 0
        assert s.next_pool == 9 + 3 == 12
        assert not s.is_single and not s.next_is_must


def test_R38_R39_R40_hoffmann_worked_example_as_a_scenario() -> None:
    """[000] “The first takes two-thirds, and the second one-third.”"""
    sc = loads(
        """
title: Hoffmann's example
players: 5
dealer: 0
stake: 3
declarations: {1: play, 2: play, 3: play, 4: play, 0: play}
tricks_won: {1: 2, 2: 1}
"""
    )
    s = sc.final_settlement
    assert s is not None
    assert s.receives == {1: 2, 2: 1}
    assert s.loo_pays == {3: 3, 4: 3, 0: 3}
    assert s.next_pool == 12


@pytest.mark.parametrize(
    ("pool", "tricks", "receives"),
    [
        (9, {1: 2, 2: 1}, {1: 6, 2: 3}),
        (9, {1: 1, 2: 1, 3: 1}, {1: 3, 2: 3, 3: 3}),
        (9, {4: 3}, {4: 9}),
        (6, {1: 2, 2: 1}, {1: 4, 2: 2}),
        (12, {0: 1, 4: 2}, {0: 4, 4: 8}),
    ],
)
def test_R38_one_third_of_the_pool_to_each_trick(
    pool: int, tricks: dict[int, int], receives: dict[int, int]
) -> None:
    """[000] “the pool is divided, in the proportion of one-third to each trick.”"""
    s = five_play(pool, tricks)
    assert s.receives == receives
    assert sum(s.receives.values()) == pool and s.left_in_pool == 0


def test_R39_a_loo_is_the_amount_originally_staked_not_the_pool() -> None:
    """[000] “The remaining three players are "looed," _i.e._ mulcted in the same amount as was originally placed in the pool”"""
    # a pool of 12 carried forward, stake 3: the loo is still 3 in limited loo
    s = five_play(12, {1: 2, 2: 1})
    assert s.receives == {1: 8, 2: 4}
    assert s.loo_pays == {3: 3, 4: 3, 0: 3}
    assert s.next_pool == 9 + 3
    # a stake of 6: each loo is 6
    h = make_hand(HANDS5, MISS5, stakes=Stakes.make(stake=6))
    s6 = finish(h, PLAY5)
    assert s6.receives == {1: 4, 2: 2}
    assert s6.loo_pays == {3: 6, 4: 6, 0: 6}
    assert s6.next_pool == 18 + 6


def choose_always_play(rng: random.Random) -> Chooser:
    def choose(hand: Hand) -> Action:
        acts = list(hand.legal_actions())
        if hand.phase is Phase.DECLARE:
            return next(a for a in acts if str(a) == "play")
        return acts[rng.randrange(len(acts))]

    return choose


@pytest.mark.parametrize("seed", range(4))
def test_R40_next_pool_is_the_loos_and_the_new_dealers_stake(seed: int) -> None:
    """[000] “these "loos," as they are called, with alike contribution from the new dealer, form the pool for the next hand.”"""
    table = Table.seeded(5, seed, "hoffmann", stake=3, bank=100)
    choose = choose_always_play(random.Random(seed))
    total = table.total()
    for _ in range(6):
        before = list(table.balances)
        dealer = table.dealer
        rec = table.play_deal(choose)
        s = rec.settlement
        new_dealer = (dealer + 1) % 5  # the deal passes to the left
        assert table.dealer == new_dealer
        assert s.next_pool == sum(s.loo_pays.values()) + s.left_in_pool + 3
        assert table.pool == s.next_pool
        for seat in range(5):
            paid = s.loo_pays.get(seat, 0) + (3 if seat == new_dealer else 0)
            assert table.balances[seat] == before[seat] + s.receives.get(seat, 0) - paid
        assert table.total() == total  # counters are neither made nor lost


# --- R41–R45: single and must ------------------------------------------------------------------------


@pytest.mark.parametrize("pool", [3, 12])
def test_R41_three_play_each_takes_a_trick_nobody_looed_next_pool_is_the_stake(pool: int) -> None:
    """[000] “that only three players declare to play, and that each of them takes one trick. In such case no one is looed”
    [000] “the only fund to form the pool for the next round is the contribution of the dealer.”"""
    h = make_hand(SINGLE5, SINGLE_MISS, stakes=Stakes.make(pool=pool))
    s = finish(h, SINGLE_PLAY)
    assert h.players_in == (1, 2, 3)
    assert h.winners == [1, 2, 3]
    assert s.receives == {1: pool // 3, 2: pool // 3, 3: pool // 3}
    assert s.looed == () and s.loo_pays == {}
    assert s.next_pool == 3
    assert s.is_single
    assert s.next_is_must  # single_makes_must: true (Hoffmann's "usual" rule)
    h2 = make_hand(SINGLE5, SINGLE_MISS, rules=preset("hoffmann").with_(single_makes_must=False))
    s2 = finish(h2, SINGLE_PLAY)
    assert s2.is_single and not s2.next_is_must and s2.next_pool == 3
    # three at the table, all three play, a trick each
    three = loads(
        """
players: 3
dealer: 0
pool: 9
declarations: {1: play, 2: play, 0: play}
tricks_won: {1: 1, 2: 1, 0: 1}
"""
    ).final_settlement
    assert three is not None
    assert three.receives == {1: 3, 2: 3, 0: 3} and three.looed == ()
    assert three.next_pool == 3 and three.is_single and three.next_is_must


def test_R42_the_next_hand_is_called_a_single() -> None:
    """[000] “The next hand in such case is known as a "single,"”

    The engine names it with the settlement's `is_single` flag (set on the hand in which the
    three each took a trick: the next hand is the single) and in the explanation text."""
    sc = loads(
        """
players: 5
dealer: 0
declarations: {1: play, 2: play, 3: play, 4: pass, 0: pass}
tricks_won: {1: 1, 2: 1, 3: 1}
"""
    )
    s = sc.final_settlement
    assert s is not None and s.is_single
    assert "single" in explain_text(sc)
    # three play but one of them takes two: no single
    assert not five_play(3, {1: 2, 2: 1}).is_single
    not_single = loads(
        """
players: 5
declarations: {1: play, 2: play, 3: play, 4: pass, 0: pass}
tricks_won: {1: 2, 3: 1}
"""
    ).final_settlement
    assert not_single is not None and not not_single.is_single and not_single.looed == (2,)


def test_R43_after_a_single_usually_a_must_everyone_bound_to_play() -> None:
    """[000] “it is a usual, though not invariable, rule, to make it what is called a "must,"”
    [000] “meaning that every one, whatever his cards, is bound to play.”"""
    for single_makes_must in (True, False):
        rules = preset("hoffmann").with_(single_makes_must=single_makes_must)
        table = Table(5, rules, random.Random(1), stake=3, bank=100)
        hand = make_hand(SINGLE5, SINGLE_MISS, rules=rules, stakes=Stakes.make(pool=table.pool))
        run(hand, SINGLE_PLAY)
        table.settle_hand(hand)
        assert table.pool == 3  # the single's pool: the new dealer's stake alone
        nxt = table.new_hand()
        assert nxt.setup.must is single_makes_must
        if single_makes_must:
            assert nxt.miss is None
            while nxt.phase is Phase.DECLARE:
                assert [str(a) for a in nxt.legal_actions()] == ["play"]
                v = nxt.verdict()
                assert any(law.rule == "R43" for a, law in v.forbidden if str(a) == "pass")
                nxt.apply("play")
            assert nxt.players_in == (2, 3, 4, 0, 1)  # dealer 1 now: all five, in rotation
        else:
            assert "pass" in [str(a) for a in nxt.legal_actions()]


@pytest.mark.parametrize("players", range(3, 18))
def test_R44_a_must_produces_at_least_n_minus_three_loos(players: int) -> None:
    """[000] “This necessarily produces as many loos (less three) as there are players”"""
    for seed in range(5):
        rng = random.Random(1000 * players + seed)
        hand = Hand.from_seed(seed, players=players, must=True)
        assert hand.miss is None
        while hand.to_act is not None:
            acts = list(hand.legal_actions())
            hand.apply(acts[rng.randrange(len(acts))])
        s = hand.settlement
        assert s is not None
        assert len(hand.players_in) == players  # every one played
        assert len(s.looed) >= players - 3
        assert len(s.looed) == players - len(s.tricks_won)
        assert s.next_pool >= 3 * (players - 3) + 3  # "a full pool for the next hand"


def test_R45_no_miss_in_a_must() -> None:
    """[000] “In the case of a "must" there is no miss.”"""
    hand = Hand.from_seed(11, players=5, must=True)
    assert hand.miss is None
    assert sum(hand.accounted().values()) == 52
    v = hand.verdict()
    assert {str(a): law.rule for a, law in v.forbidden}["take_miss"] == "R45"
    with pytest.raises(ScenarioError) as e:
        loads("players: 4\nmust: true\nturn_up: 2H\nmiss: [3C, 4C, 5C]\n")
    assert e.value.field == "miss"
    # 17 can sit down to a must (3 x 17 + the turn-up = 52), not with a miss
    assert Hand.from_seed(1, players=17, must=True).miss is None
    with pytest.raises(InputError):
        Hand.from_seed(1, players=17)


# --- R46–R49: unlimited and capped loo --------------------------------------------------------------


def test_R46_unlimited_loo_equals_the_pool() -> None:
    """[000] “the payment for a loo is sometimes made equal to the amount which may chance to be in the pool for the time being.”"""
    s = five_play(12, {1: 2, 2: 1}, loo_amount="pool")
    assert s.receives == {1: 8, 2: 4}
    assert s.loo_pays == {3: 12, 4: 12, 0: 12}
    assert s.next_pool == 36 + 3
    sc = loads(
        """
players: 5
rules: {preset: hoffmann, loo_amount: pool}
pool: 12
declarations: {1: play, 2: play, 3: play, 4: play, 0: play}
tricks_won: {1: 2, 2: 1}
"""
    )
    assert sc.final_settlement is not None and sc.final_settlement.next_pool == 39


def test_R47_unlimited_loo_grows_until_a_single_brings_it_back() -> None:
    """[000] “until the occurrence of a single (_i.e._ three players only declaring to play, and each taking one trick) brings it back to its normal proportions.”"""
    first = five_play(3, {1: 2, 2: 1}, loo_amount="pool")
    assert first.loo_pays[3] == 3 and first.next_pool == 12
    second = five_play(first.next_pool, {1: 2, 2: 1}, loo_amount="pool")
    assert second.loo_pays[3] == 12 and second.next_pool == 39
    # a single: three in, a trick each: the next pool is the dealer's stake alone
    single = settle(
        players=5,
        stakes=Stakes.make(pool=second.next_pool),
        options=preset("hoffmann").with_(loo_amount="pool"),
        players_in=(1, 2, 3),
        trick_winners=[1, 2, 3],
    )
    assert single.receives == {1: 13, 2: 13, 3: 13} and single.is_single
    assert single.next_pool == 3
    back = five_play(single.next_pool, {1: 2, 2: 1}, loo_amount="pool")
    assert back.loo_pays == {3: 3, 4: 3, 0: 3}  # the loo is back to the stake


def test_R48_this_form_is_called_unlimited() -> None:
    """[000] “Loo in this shape is known as "unlimited."”

    A name only: the engine names it by the option value `loo_amount: pool`, whose reading
    cites R48 and the settlement cites R46/R47."""
    reading = OPTION_SPECS["loo_amount"].reading("pool")
    assert "R48" in reading.rules and "nlimited" in reading.meaning
    assert {"R46", "R47"} <= set(five_play(3, {1: 3}, loo_amount="pool").rules)
    assert "R46" not in five_play(3, {1: 3}).rules


@pytest.mark.parametrize(("pool", "loo"), [(12, 10), (10, 10), (6, 6), (30, 10)])
def test_R49_a_maximum_loo_is_customary(pool: int, loo: int) -> None:
    """[000] “it is customary to fix a _maximum_ beyond which no further advance shall be permitted.”"""
    s = five_play(pool, {1: 2, 2: 1}, loo_amount="pool_capped", loo_cap=10)
    assert s.loo_pays == {3: loo, 4: loo, 0: loo}
    assert s.next_pool == 3 * loo + (pool % 3) + 3
    with pytest.raises(ScenarioError) as e:
        loads("players: 5\nrules: {preset: hoffmann, loo_amount: pool_capped}\n")
    assert e.value.field == "loo_cap"
