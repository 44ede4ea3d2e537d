"""Golden tests from the seed texts: the dealer's special cases (R14–R20), under both
values of `lone_stander_rule` where the seeds' answer does not depend on it.

Expected answers are worked out by hand from seeds 000 (Hoffmann) and 003 (Peel).
"""

from __future__ import annotations

import pytest
from _golden import cards, code, forbidding_rule, legal, make_hand, run

from loo_lessons.engine.declare import Declaration
from loo_lessons.engine.errors import IllegalAction
from loo_lessons.engine.game import Hand, Phase
from loo_lessons.engine.laws import Law
from loo_lessons.engine.options import RuleOptions, preset
from loo_lessons.engine.settle import Stakes
from loo_lessons.engine.sources import RULES, seed_text
from loo_lessons.explain import law_json

# Four at the table, dealer seat 0, trumps hearts (2H turned); nobody holds a heart.
HANDS4 = {1: "AS KS 3C", 2: "AC 5D 6D", 3: "7D 8D 9D", 0: "4C 5C 6C"}
MISS4 = "2D 3D 4D"
TURN = "2H"
LONE_STANDER = ("seeds", "enquire_within")


def opts(lone_stander_rule: str = "seeds", rules: str = "hoffmann") -> RuleOptions:
    return preset(rules).with_(lone_stander_rule=lone_stander_rule)


# --- R14 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("rule", LONE_STANDER)
@pytest.mark.parametrize("pool", [3, 9])
def test_R14_all_before_the_dealer_throw_up_dealer_takes_the_pool(rule: str, pool: int) -> None:
    """[003] “each of the players in front of the dealer has thrown up his own cards, and neither has taken the miss”
    [003] “then the dealer is entitled to the amount in the pool, no matter what his cards are.”
    [000] “In the event of all save the dealer "passing," the dealer is entitled to the pool.”"""
    hand = make_hand(HANDS4, MISS4, TURN, opts(rule), stakes=Stakes.make(pool=pool))
    run(hand, "pass pass pass")
    # no declaration and no play is asked of the dealer, whatever his (poor) cards
    assert hand.phase is Phase.SETTLED and hand.to_act is None
    assert hand.tricks == []
    assert hand.awarded_to == 0 and hand.award_law is not None
    assert hand.award_law.rule == "R14"
    s = hand.settlement
    assert s is not None
    assert s.pool_awarded_to == 0 and s.receives == {0: pool}
    assert s.looed == () and s.loo_pays == {}
    assert s.next_pool == 3  # nothing but the next dealer's stake (R40)


# --- R15 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("rule", LONE_STANDER)
@pytest.mark.parametrize(
    ("moves", "taker"), [("take_miss pass pass pass", 1), ("pass take_miss pass pass", 2)]
)
def test_R15_miss_taken_and_all_the_rest_throw_up_miss_holder_takes_pool(
    rule: str, moves: str, taker: int
) -> None:
    """[000] “Should one player take miss, and all the rest throw up their cards, he is entitled to the pool.”"""
    hand = make_hand(HANDS4, MISS4, TURN, opts(rule), stakes=Stakes.make(pool=6))
    run(hand, moves)
    assert hand.phase is Phase.SETTLED and hand.tricks == []
    assert hand.awarded_to == taker
    s = hand.settlement
    assert s is not None and s.receives == {taker: 6} and s.looed == ()
    assert s.next_pool == 3


# --- R16 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("rule", LONE_STANDER)
def test_R16_only_the_miss_holder_stands_dealer_may_stand_or_not(rule: str) -> None:
    """[003] “the dealer may stand, or not, as he chooses; but if he also throws up his cards, then the holder of miss”
    [003] “being the only standing hand, takes the whole amount of the pool.”"""
    hand = make_hand(HANDS4, MISS4, TURN, opts(rule), stakes=Stakes.make(pool=9))
    run(hand, "take_miss pass pass")
    assert hand.to_act == 0
    assert legal(hand) == {"play", "pass"}
    assert hand.verdict().why is Law.DEALER_MAY_STAND_OR_NOT
    assert forbidding_rule(hand, "take_miss") == "R09"  # the miss is gone
    assert forbidding_rule(hand, "play_miss_for_pool") is not None
    # he throws up: the miss-holder takes the whole pool
    gives_up = make_hand(HANDS4, MISS4, TURN, opts(rule), stakes=Stakes.make(pool=9))
    run(gives_up, "take_miss pass pass pass")
    assert gives_up.settlement is not None
    assert gives_up.settlement.receives == {1: 9} and gives_up.settlement.looed == ()
    # he stands: the two of them play it out, the miss-holder (elder hand) leading
    run(hand, "play")
    assert hand.phase is Phase.PLAY and hand.players_in == (1, 0) and hand.to_act == 1


# --- R17 / R18 ---------------------------------------------------------------------------------


@pytest.mark.parametrize("rule", LONE_STANDER)
def test_R17_one_stood_dealer_may_play_own_cards_or_take_miss(rule: str) -> None:
    """[000] “Should only one player have declared to play, and not have taken miss, the dealer may play either his own cards or take miss”
    [003] “then the dealer, if he cannot stand on his own cards, may take the miss.”"""
    hand = make_hand(HANDS4, MISS4, TURN, opts(rule))
    run(hand, "play pass pass")
    assert hand.to_act == 0
    assert {"play", "take_miss"} <= legal(hand)
    # taking the miss "on his own account": he plays it as his hand and may be looed
    run(hand, "take_miss")
    assert hand.miss_holder == 0 and hand.for_pool is None
    assert hand.hand_of(0) == tuple(cards(MISS4))
    assert hand.players_in == (1, 0)
    run(hand, "AS 2D KS 3D 3C 4D")  # seat 1 takes all three tricks
    s = hand.settlement
    assert s is not None
    assert s.receives == {1: 3} and s.looed == (0,) and s.loo_pays == {0: 3}
    assert s.next_pool == 3 + 3


def test_R17_enquire_within_reading_dealer_may_give_up_the_stakes() -> None:
    """[000] “Should only one player have declared to play, and not have taken miss, the dealer may play either his own cards or take miss”

    Under the outside reading (`lone_stander_rule: enquire_within`, V7) the dealer 'may either
    play or give up the stakes': he may pass, the lone stander then takes the pool, and
    playing the miss for the pool is not offered."""
    hand = make_hand(HANDS4, MISS4, TURN, opts("enquire_within"), stakes=Stakes.make(pool=6))
    run(hand, "play pass pass")
    assert legal(hand) == {"play", "take_miss", "pass"}
    assert forbidding_rule(hand, "play_miss_for_pool") == "R17"
    run(hand, "pass")
    assert hand.phase is Phase.SETTLED and hand.awarded_to == 1
    assert hand.settlement is not None and hand.settlement.receives == {1: 6}


def _allowing(hand: Hand, action: str) -> Law:
    return next(law for a, law in hand.verdict().allowed_by if code(a) == action)


def test_V7_the_law_that_allows_giving_up_the_stakes_cites_enquire_within() -> None:
    """Issue 12: under `lone_stander_rule: enquire_within` the dealer's throw-up is allowed by
    the variant (V7), so it cites Enquire Within, named as outside the seed texts, and not a
    seed quote: the seeds' own R17/R18 passages forbid him to pass."""
    hand = make_hand(HANDS4, MISS4, TURN, opts("enquire_within"))
    run(hand, "play pass pass")
    law = _allowing(hand, "pass")
    q = law.quote
    assert q.outside and q.text == "may either play or give up the stakes"  # V7's words
    assert "Enquire Within" in q.book and "outside the seed texts" in q.book
    assert law.as_json()["variant"] == "V7" and law.as_json()["source"] == "outside:V7"
    # not a quote that forbids the pass: none of the seeds' R17/R18 passages
    assert q.text not in {x.text for rid in ("R17", "R18") for x in RULES[rid].quotes}
    assert all(q.text not in seed_text(s) for s in ("000", "003", "004"))
    # the explanation a learner reads names the book as outside the seeds
    j = law_json(law, hand.options)
    assert j["quote"] == q.text and "outside the seed texts" in j["book"]


def test_V7_under_the_seeds_reading_nothing_changes() -> None:
    """Under `lone_stander_rule: seeds` every law the dealer's options cite is quoted from
    the seed texts, as before (R17 allows play and take miss, R18 the miss for the pool and
    forbids the pass)."""
    for rules in ("hoffmann", "peel"):
        hand = make_hand(HANDS4, MISS4, TURN, opts("seeds", rules))
        run(hand, "play pass pass")
        v = hand.verdict()
        laws = [law for _, law in (*v.allowed_by, *v.forbidden)]
        assert laws and all(not law.quote.outside for law in laws)
        assert all(law.quote in RULES[law.rule].quotes for law in laws)
        assert _allowing(hand, "play_miss_for_pool") is Law.MISS_FOR_POOL
        assert forbidding_rule(hand, "pass") == "R18"


def test_R18_seeds_dealer_cannot_pass_he_plays_the_miss_for_the_pool() -> None:
    """[000] “if he does not care to do either, he is bound to take miss and play for the pool”
    [003] “he must play the miss for the benefit of the pool, against the single player who declared to play on his own cards”"""
    hand = make_hand(HANDS4, MISS4, TURN, opts("seeds"))
    run(hand, "play pass pass")
    assert legal(hand) == {"play", "take_miss", "play_miss_for_pool"}
    assert forbidding_rule(hand, "pass") == "R18"
    with pytest.raises(IllegalAction) as e:
        hand.apply("pass")
    assert e.value.verdict is not None
    assert e.value.verdict.law_for(Declaration.PASS) is Law.LONE_STANDER_NO_PASS
    run(hand, "play_miss_for_pool")
    assert hand.for_pool == 0 and hand.miss_holder == 0
    assert hand.hand_of(0) == tuple(cards(MISS4))
    assert hand.players_in == (1, 0) and hand.phase is Phase.PLAY
    # not the lone-stander case: nobody else may play the miss for the pool
    other = make_hand(HANDS4, MISS4, TURN, opts("seeds"))
    run(other, "play play pass")
    assert forbidding_rule(other, "play_miss_for_pool") == "R18"
    assert "pass" in legal(other)


def test_R18_R19_enquire_within_reading_has_no_miss_for_the_pool() -> None:
    """[000] “if he does not care to do either, he is bound to take miss and play for the pool”

    Only the seeds' reading (`lone_stander_rule: seeds`) has the miss played for the pool;
    the outside reading lets the dealer give up the stakes instead (V7)."""
    hand = make_hand(HANDS4, MISS4, TURN, opts("enquire_within"))
    run(hand, "play pass pass")
    assert "play_miss_for_pool" not in legal(hand)
    with pytest.raises(IllegalAction):
        hand.apply("play_miss_for_pool")


# --- R19 ---------------------------------------------------------------------------------------

# Three at the table, dealer 0. Seat 1 stands alone, seat 2 throws up, the dealer plays the
# miss for the pool. Trumps hearts; nobody holds one.


def test_R19_what_the_miss_wins_for_the_pool_stays_in_the_pool() -> None:
    """[000] “the proceeds of any tricks he may make remain in the pool, to abide the result of the next round.”
    [003] “anything he may then win with the miss is left in the pool for the next deal.”"""
    hand = make_hand({1: "AS 3C 4D", 2: "2C 2S 3S", 0: "5C 6C 7C"}, "AC AD 5S", TURN)
    run(hand, "play pass play_miss_for_pool")
    # seat 1 wins the first trick; the miss wins the second (AC) and the third (AD)
    run(hand, "AS 5S  3C AC  AD 4D")
    assert hand.winners == [1, 0, 0]
    s = hand.settlement
    assert s is not None
    assert s.receives == {1: 1}  # one third of the pool of 3
    assert 0 not in s.receives  # the miss's two thirds are not the dealer's
    assert s.left_in_pool == 2
    assert s.looed == ()  # seat 1 took a trick; the miss took two
    assert s.next_pool == 2 + 3  # what stays + the next dealer's stake


def test_R19_miss_for_the_pool_takes_every_trick_the_lone_stander_is_looed() -> None:
    """[003] “anything he may then win with the miss is left in the pool for the next deal.”"""
    hand = make_hand({1: "2S 3C 4D", 2: "2C 3S 4S", 0: "5C 6C 7C"}, "AS AC AD", TURN)
    run(hand, "play pass play_miss_for_pool")
    run(hand, "2S AS  AC 3C  AD 4D")
    s = hand.settlement
    assert s is not None
    assert s.receives == {} and s.left_in_pool == 3  # the whole pool stays
    assert s.looed == (1,) and s.loo_pays == {1: 3}  # he played and took no trick (R39)
    assert s.next_pool == 3 + 3 + 3  # what stays + his loo + the next dealer's stake


# --- R20 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("rule", LONE_STANDER)
def test_R20_rare_contingencies_still_have_laws(rule: str) -> None:
    """[003] “These contingencies are seldom, if ever, met with in actual play”

    R20 is a remark: the engine carries it as a citation only. What it asks for is that the
    rare cases be governed by laws, so each contingency must reach a named ruling."""
    assert "R20" in RULES
    cases = {
        "pass pass pass": "R14",  # everyone threw up before the dealer
        "take_miss pass pass pass": "R15",  # the miss-holder alone
    }
    for moves, rid in cases.items():
        h = make_hand(HANDS4, MISS4, TURN, opts(rule))
        run(h, moves)
        assert h.award_law is not None and h.award_law.rule == rid
    h = make_hand(HANDS4, MISS4, TURN, opts(rule))
    run(h, "take_miss pass pass")
    why = h.verdict().why
    assert why is not None and why.rule == "R16"
    h = make_hand(HANDS4, MISS4, TURN, opts(rule))
    run(h, "play pass pass")
    v = h.verdict()
    named = {law.rule for _, law in v.allowed_by} | {law.rule for _, law in v.forbidden}
    assert named & {"R17", "R18"}
