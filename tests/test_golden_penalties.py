"""Golden tests from the seed texts: Peel's penalties (R50–R63, seed 004).

Amounts use Peel's usual stakes (rules-digest.md, penalty table): 3 for the deal, 6 for a
full loo, 3 for a single loo. The rulings come from `loo_lessons.engine.penalties.ruling_for`; their
effect on the money from `hand.penalise(seat, Offence.X)` and the settlement.

The base deal: five stand, dealer 0, trumps hearts, nobody holds a heart; played out, seat 1
takes two tricks (AS, KS) and seat 2 one (AC), seats 3, 4 and 0 are looed.
"""

from __future__ import annotations

import random
from pathlib import Path

import _golden
import pytest
from _golden import HANDS5, MISS5, cards, finish, legal, position, run

from loo_lessons.engine.cards import parse_card
from loo_lessons.engine.errors import IllegalAction
from loo_lessons.engine.game import Hand
from loo_lessons.engine.laws import Law
from loo_lessons.engine.options import RuleOptions, preset
from loo_lessons.engine.penalties import (
    OFFENCE_FOR_LAW,
    Consequence,
    Destination,
    Offence,
    Size,
    ruling_for,
)
from loo_lessons.engine.settle import Stakes
from loo_lessons.engine.table import Table
from loo_lessons.scenario import loads
from loo_lessons.scenario.errors import ScenarioError

DECLARE5 = "play play play play play"
TRICKS5 = "AS 5D 7D 10D 4C  KS 6D 8D JD 5C  3C AC 9D QD 6C"
PEEL_STAKES = Stakes.make(stake=3, loo=6)  # single loo 3

DECLARING_OFFENCES = (
    Offence.LOOK_AT_OWN_CARDS_EARLY,
    Offence.DECLARE_OUT_OF_TURN,
    Offence.LOOK_AT_MISS,
    Offence.LOOK_AT_THROWN_UP,
    Offence.LOOK_AT_STOCK,
)
#: The play-phase offences seed 004 lists, all "looed" with a full loo to the next pool.
PLAY_OFFENCES = (
    Offence.FAIL_TO_LEAD_ACE,
    Offence.FAIL_TO_LEAD_KING,
    Offence.FAIL_TO_LEAD_HIGHEST,
    Offence.REVOKE,
    Offence.FAIL_TO_TRUMP,
    Offence.PLAY_OUT_OF_TURN,
    Offence.EXPOSE_CARDS,
    Offence.BREAK_TRUMP_AFTER_TRICK,
)


def make_hand(
    hands: dict[int, str] = HANDS5,
    miss: str | None = MISS5,
    turn_up: str = "2H",
    rules: RuleOptions | str = "peel",
    *,
    stakes: Stakes = PEEL_STAKES,
) -> Hand:
    """The base deal under Peel's rules and stakes, unless told otherwise; dealer 0."""
    return _golden.make_hand(hands, miss, turn_up, rules, stakes=stakes)


def offence_of_illegal_play(hand: Hand, code: str) -> tuple[Law, Offence]:
    """Play a forbidden card: the move is refused; name the law and the offence it would be."""
    with pytest.raises(IllegalAction) as e:
        hand.apply(code)
    assert e.value.verdict is not None
    law = e.value.verdict.law_for(parse_card(code))
    assert law is not None
    return law, OFFENCE_FOR_LAW[law]


def assert_full_loo_to_next_pool(offence: Offence) -> None:
    r = ruling_for(offence, declared=True)
    assert r.size is Size.FULL_LOO
    assert r.destination is Destination.NEXT_POOL
    assert r.amount(3, 6) == 6
    assert Consequence.REPLAY in r.consequences
    assert Consequence.WINNINGS_WITHHELD in r.consequences


# --- R50–R52: looked a single -------------------------------------------------------------------


@pytest.mark.parametrize(
    "offence",
    [Offence.LOOK_AT_OWN_CARDS_EARLY, Offence.DECLARE_OUT_OF_TURN, Offence.LOOK_AT_STOCK],
)
def test_R50_looking_early_or_declaring_out_of_turn_single_loo_into_the_pool_at_once(
    offence: Offence,
) -> None:
    """[004] “Any player looking at his cards before it is his turn to do so, or declaring out of turn”
    [004] “or at any part of the undealt portion of the pack, is looed a single, and pays the penalty into the pool at once”"""
    r = ruling_for(offence)
    assert r.size is Size.SINGLE_LOO and r.destination is Destination.POOL_NOW
    assert r.amount(3, 6) == 3
    hand = make_hand()
    rec = hand.penalise(3, offence)  # before seat 3's turn to declare
    assert rec.amount == 3
    run(hand, "play play")
    assert hand.to_act == 3 and "play" in legal(hand)  # he may still play
    s = finish(hand, "play play play " + TRICKS5)
    # "into the pool at once": this deal's pool is 3 + 3 and is divided now
    assert s.pool == 6 and s.penalties_now == 3
    assert s.receives == {1: 4, 2: 2}
    assert s.loo_pays == {3: 6, 4: 6, 0: 6}
    assert s.next_pool == 18 + 3


@pytest.mark.parametrize("offence", [Offence.LOOK_AT_MISS, Offence.LOOK_AT_THROWN_UP])
def test_R51_looking_at_the_miss_or_thrown_up_cards_single_loo(offence: Offence) -> None:
    """[004] “or looking at the miss without taking it, or looking at either of the thrown up cards”"""
    r = ruling_for(offence)
    assert r.size is Size.SINGLE_LOO and r.destination is Destination.POOL_NOW
    hand = make_hand()
    run(hand, "play pass")
    hand.penalise(4, offence)
    s = finish(
        hand, "play play play " + TRICKS5.replace(" 5D", "").replace(" 6D", "").replace(" AC", "")
    )
    assert s.penalties_now == 3 and s.pool == 6
    # seat 2 threw up, so his AC is out: seat 1 takes two tricks, the dealer's 6C the third
    assert hand.winners == [1, 1, 0]
    assert s.receives == {1: 4, 0: 2}
    assert s.loo_pays == {3: 6, 4: 6}


def test_R52_still_may_play_except_after_looking_at_an_opponents_hand() -> None:
    """[004] “he is not debarred by any of these irregularities (except when he looks at either of the opponents hands) from taking part in the play”"""
    for offence in DECLARING_OFFENCES:
        r = ruling_for(offence)
        assert Consequence.MAY_STILL_PLAY in r.consequences
        hand = make_hand()
        hand.penalise(1, offence)
        assert legal(hand) == {"play", "take_miss", "pass"}
    hand = make_hand()
    hand.penalise(1, Offence.LOOK_AT_ANOTHERS_HAND)
    assert legal(hand) == {"pass"}


# --- R53 / R54: looking at another player's cards ----------------------------------------------------


def test_R53_looking_at_anothers_cards_full_loo_and_throw_up_unexposed() -> None:
    """[004] “If he looks at the cards of any other player he is looed the full loo, and must throw up his own cards, unexposed”"""
    r = ruling_for(Offence.LOOK_AT_ANOTHERS_HAND, declared=False)
    assert r.size is Size.FULL_LOO
    assert Consequence.MUST_THROW_UP in r.consequences
    hand = make_hand()
    run(hand, "play")
    rec = hand.penalise(2, Offence.LOOK_AT_ANOTHERS_HAND)
    assert rec.amount == 6
    assert legal(hand) == {"pass"}
    v = hand.verdict()
    assert {str(a): law.rule for a, law in v.forbidden}["play"] == "R53"
    with pytest.raises(IllegalAction):
        hand.apply("play")
    run(hand, "pass play play play")
    assert 2 not in hand.players_in
    assert set(cards(HANDS5[2])) <= set(hand.discards)  # thrown up face down
    s = finish(hand, "AS 7D 10D 4C  KS 8D JD 5C  3C 9D QD 6C")
    assert 2 not in s.looed and 2 not in s.receives
    # the full loo is in the money (which pool the seed does not say: A20)
    assert s.penalties_now + s.penalties_next == 6
    assert sum(s.receives.values()) + s.left_in_pool == s.pool
    assert s.pool + s.penalties_next == 3 + 6


def test_R54_after_standing_he_pays_first_plays_on_and_his_winnings_stay() -> None:
    """[004] “in which case he has to play to the tricks, having first paid his loo into the pool”
    [004] “in the event of his cards securing either of the tricks the amount won is left in the pool for the next deal.”"""
    r = ruling_for(Offence.LOOK_AT_ANOTHERS_HAND, declared=True)
    assert r.size is Size.FULL_LOO
    assert Consequence.MUST_PLAY_ON in r.consequences
    assert Consequence.WINNINGS_WITHHELD in r.consequences
    hand = make_hand()
    run(hand, DECLARE5)
    rec = hand.penalise(2, Offence.LOOK_AT_ANOTHERS_HAND)
    assert rec.amount == 6
    run(hand, "AS")
    assert hand.to_act == 2 and legal(hand) == {"AC", "5D", "6D"}  # he plays on
    s = finish(hand, TRICKS5.split(" ", 1)[1])
    assert hand.winners == [1, 1, 2]
    third = s.pool // 3
    assert s.pool % 3 == 0
    assert s.withheld == {2: third} and 2 not in s.receives
    assert s.receives == {1: 2 * third}
    assert s.left_in_pool == third
    assert 2 not in s.looed and s.loo_pays == {3: 6, 4: 6, 0: 6}
    assert s.next_pool == 18 + third + 3 + s.penalties_next
    assert s.pool + s.penalties_next == 3 + 6  # his full loo, paid


# --- R55–R60: irregularities in the play ----------------------------------------------------------


def test_R55_not_leading_the_ace_or_the_king_with_the_ace_turned_is_looed() -> None:
    """[004] “If he holds ace, or with ace turned up holds king, and fails to lead it, he is looed”"""
    for rules in ("peel", "hoffmann"):
        law, offence = offence_of_illegal_play(position("AH 5H 3C", [], rules), "3C")
        assert law is Law.LEAD_ACE and law.value.penalty_rule == "R55"
        assert offence is Offence.FAIL_TO_LEAD_ACE and "R55" in offence.info.rules
        law, offence = offence_of_illegal_play(position("KH 5H 3C", [], rules, "AH"), "5H")
        assert law is Law.LEAD_KING and law.value.penalty_rule == "R55"
        assert offence is Offence.FAIL_TO_LEAD_KING
    assert_full_loo_to_next_pool(Offence.FAIL_TO_LEAD_ACE)
    assert_full_loo_to_next_pool(Offence.FAIL_TO_LEAD_KING)


def test_R56_not_leading_the_highest_of_two_or_more_trumps_is_looed() -> None:
    """[004] “similarly, with two or more trumps if he fails to lead the highest he is looed.”"""
    law, offence = offence_of_illegal_play(position("9H 5H KC", [], "peel"), "5H")
    assert law is Law.LEAD_HIGHEST and law.value.penalty_rule == "R56"
    assert offence is Offence.FAIL_TO_LEAD_HIGHEST
    assert_full_loo_to_next_pool(Offence.FAIL_TO_LEAD_HIGHEST)


def test_R57_not_following_suit_when_able_is_looed() -> None:
    """[004] “Any player neglecting to follow the suit led, when he is able to do so”"""
    for rules in ("peel", "hoffmann"):
        law, offence = offence_of_illegal_play(position("3C 9H 4D", [(1, "10C")], rules), "9H")
        assert law is Law.FOLLOW_SUIT and law.value.penalty_rule == "R57"
        assert offence is Offence.REVOKE
    assert_full_loo_to_next_pool(Offence.REVOKE)


def test_R58_not_trumping_when_a_trump_would_head_the_trick_is_looed() -> None:
    """[004] “or omitting to trump a suit, when by so doing he can head the trick, is likewise looed”"""
    law, offence = offence_of_illegal_play(position("5H 3D 4S", [(1, "10C")], "peel"), "3D")
    assert law is Law.TRUMP_TO_HEAD and law.value.penalty_rule == "R58"
    assert offence is Offence.FAIL_TO_TRUMP
    # trumped higher already: his 5H cannot head the trick, so discarding is no offence
    higher = position("5H 3D 4S", [(1, "10C"), (2, "QH")], "peel")
    higher.apply("3D")
    assert_full_loo_to_next_pool(Offence.FAIL_TO_TRUMP)


def test_R59_playing_out_of_turn_or_exposing_cards_is_looed() -> None:
    """[004] “as also is any one playing out of turn, or exposing or mentioning the value of his own, or opponents unplayed cards”
    [004] “or of either of those in the miss, or among the undealt portion of the pack.”"""
    assert_full_loo_to_next_pool(Offence.PLAY_OUT_OF_TURN)
    assert_full_loo_to_next_pool(Offence.EXPOSE_CARDS)
    # a scenario that plays out of turn is refused, naming the play
    with pytest.raises(ScenarioError) as e:
        loads(
            """
players: 4
turn_up: 8H
declarations: {1: play, 2: play, 3: play, 0: play}
tricks:
  - [[1, 10C], [3, 2C]]
"""
        )
    assert e.value.field == "tricks[0][1]" and "out of turn" in e.value.problem


def test_R60_winner_of_the_first_trick_breaking_trump_after_trick_is_looed() -> None:
    """[004] “If the winner of the first trick remains with a trump, and fails to lead it”
    [004] “or having two trumps left fails to lead the highest, he is looed.”"""
    # three stand; seat 2 wins the first trick with AS, then must lead a trump
    for held, bad, expected in (
        ("AS 5H KC", "KC", Law.TRUMP_AFTER_TRICK),
        ("AS 9H 6H", "6H", Law.TRUMP_AFTER_TRICK_HIGHEST),
    ):
        hand = make_hand({1: "5S 6C 7C", 2: held, 0: "8S 9D 10D"}, "KD QD JD", "2H")
        run(hand, "play play play 5S AS 8S")
        assert hand.to_act == 2
        law, offence = offence_of_illegal_play(hand, bad)
        assert law is expected and law.value.penalty_rule == "R60"
        assert offence is Offence.BREAK_TRUMP_AFTER_TRICK
    assert_full_loo_to_next_pool(Offence.BREAK_TRUMP_AFTER_TRICK)


# --- R61–R63: what follows a play-phase penalty -------------------------------------------------------


@pytest.mark.parametrize("offence", PLAY_OFFENCES)
def test_R61_every_play_penalty_is_a_full_loo_to_the_next_pool(offence: Offence) -> None:
    """[004] “In all these cases the penalty is the amount of a full loo, and it is added to the pool for the next deal.”"""
    assert_full_loo_to_next_pool(offence)
    # the king must be led only with the ace turned up (R24): the engine refuses the offence
    # otherwise, so that one is charged at a table where AH is turned up (nobody holds a heart)
    hand = make_hand(turn_up="AH" if offence is Offence.FAIL_TO_LEAD_KING else "2H")
    run(hand, DECLARE5 + " AS 5D")
    rec = hand.penalise(3, offence)
    assert rec.amount == 6
    s = finish(hand, "7D 10D 4C  KS 6D 8D JD 5C  3C AC 9D QD 6C")
    assert s.pool == 3 and s.receives == {1: 2, 2: 1}  # this deal's pool is untouched
    assert s.penalties_next == 6 and s.penalties_now == 0
    assert s.loo_pays == {3: 6, 4: 6, 0: 6}  # and he took no trick: looed as well (R39)
    assert s.next_pool == 18 + 6 + 3


def test_R61_penalties_move_counters_not_make_them() -> None:
    """[004] “In all these cases the penalty is the amount of a full loo, and it is added to the pool for the next deal.”"""
    table = Table(5, preset("peel"), random.Random(5), stake=3, loo=6, bank=100)
    total = table.total()
    hand = make_hand(stakes=Stakes.make(stake=3, loo=6, pool=table.pool))
    run(hand, DECLARE5)
    hand.penalise(3, Offence.REVOKE)
    run(hand, TRICKS5)
    table.settle_hand(hand)
    # dealer 0 staked 3 and is looed 6; seat 1 wins 2 and stakes 3 as the new dealer;
    # seat 3 pays his loo and the penalty
    assert table.balances == [100 - 3 - 6, 100 + 2 - 3, 100 + 1, 100 - 6 - 6, 100 - 6]
    assert table.pool == 27 and table.total() == total


def test_R62_the_cards_are_replayed_in_proper_order() -> None:
    """[004] “The cards must he replayed in proper order”"""
    for offence in PLAY_OFFENCES:
        assert Consequence.REPLAY in ruling_for(offence).consequences
    # an illegal card is refused and the position stays as it was: the proper card follows
    hand = position("3C 9H 4D", [(1, "10C")], "peel")
    before = (hand.to_act, hand.hand_of(2), list(hand.current_trick))
    with pytest.raises(IllegalAction):
        hand.apply("9H")
    assert (hand.to_act, hand.hand_of(2), list(hand.current_trick)) == before
    hand.apply("3C")
    assert hand.to_act == 3 and [c.code for _, c in hand.current_trick] == ["10C", "3C"]


def test_R63_the_offenders_winnings_stay_in_the_pool_for_the_next_deal() -> None:
    """[004] “if the player who transgressed wins either of the tricks his winnings must be left in the pool for the next deal.”"""
    hand = make_hand()
    run(hand, DECLARE5)
    hand.penalise(1, Offence.FAIL_TO_LEAD_HIGHEST)
    s = finish(hand, TRICKS5)
    assert s.tricks_won == {1: 2, 2: 1}
    assert s.withheld == {1: 2} and s.receives == {2: 1}
    assert s.left_in_pool == 2
    assert s.loo_pays == {3: 6, 4: 6, 0: 6}
    assert s.next_pool == 18 + 2 + 6 + 3
    # not for single-loo (declaring) offences: those winnings are paid (A21)
    other = make_hand()
    other.penalise(1, Offence.LOOK_AT_OWN_CARDS_EARLY)
    s2 = finish(other, DECLARE5 + " " + TRICKS5)
    assert s2.withheld == {} and s2.receives == {1: 4, 2: 2}


def test_a_penalty_paid_at_once_is_in_the_pool_the_table_shows() -> None:
    """Peel: a player who declares out of turn "pays a single loo into the pool" at once (R50):
    the pool on the table holds it before the deal is settled, and the tricks divide that pool
    (R38)."""
    from loo_lessons.explain.table import table_view
    from loo_lessons.quiz.positions import view_of
    from loo_lessons.scenario import load_file

    shipped = Path(__file__).resolve().parent.parent / "loo_lessons" / "scenarios"
    sc = load_file(shipped / "penalty-declared-out-of-turn-may-still-play.yaml")
    h = sc.hand
    paid = [p.amount for p in h.penalties if p.ruling.destination.value == "pool_now"]
    assert paid and h.settlement is None
    assert h.pool_on_table == h.setup.stakes.pool + sum(paid)
    assert table_view(sc)["pool"] == h.pool_on_table
    # a quiz's table shows the stake its prompt states: the penalty is what it may ask
    assert view_of(sc)["pool"] == h.setup.stakes.pool


def test_R59_a_player_out_of_the_hand_who_names_a_card_is_refused_citing_R59_and_its_reading() -> None:
    """[004] “as also is any one playing out of turn, or exposing or mentioning the value of his
    own, or opponents unplayed cards”: does "any one" take in a player who threw up (R07)? The
    engine reads it as the players in the hand, and its refusal names R59 and that reading (A24,
    both sides in `DEFAULTS_DECIDED`)."""
    from loo_lessons.engine.errors import InputError
    from loo_lessons.engine.options import DEFAULTS_DECIDED

    hand = make_hand()
    run(hand, "pass play play play play")  # seat 1 throws up
    with pytest.raises(InputError) as e:
        hand.penalise(1, Offence.EXPOSE_CARDS)
    assert "R59" in e.value.problem and "A24" in e.value.problem and "R07" in e.value.problem
    assert "any one" in DEFAULTS_DECIDED["A24"] and "opponents" in DEFAULTS_DECIDED["A24"]
    assert hand.penalise(2, Offence.EXPOSE_CARDS).amount == 6  # a player in the hand is looed


def test_R53_in_a_must_he_throws_up_and_the_law_cites_R43_too() -> None:
    """[004] “If he looks at the cards of any other player he is looed the full loo, and must throw
    up his own cards, unexposed” against [000] R43 (a must: every one is bound to play). The
    engine lets R53 prevail; the law shown says so and cites both (A25)."""
    from loo_lessons.engine.options import DEFAULTS_DECIDED

    hand = Hand.from_seed(3, 5, 0, "peel", must=True)
    assert legal(hand) == {"play"}  # a must: nobody may pass (R43)
    assert hand.to_act is not None
    hand.penalise(hand.to_act, Offence.LOOK_AT_ANOTHERS_HAND)
    assert legal(hand) == {"pass"}
    v = hand.verdict()
    laws = {law for _, law in v.forbidden}
    assert laws == {Law.MUST_THROW_UP_IN_MUST}
    info = Law.MUST_THROW_UP_IN_MUST.value
    assert info.rule == "R53" and "R43" in info.reason and "A25" in info.reason
    assert "R54" in DEFAULTS_DECIDED["A25"] and "R43" in DEFAULTS_DECIDED["A25"]
