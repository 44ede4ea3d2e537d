"""Golden tests from the seed texts: leading (R21–R31).

Positions are built from scenario YAML (`loo_lessons.scenario.loads`) or with `Hand`
directly; every expected set of legal leads is worked out by hand from seeds 000, 003, 004.
"""

from __future__ import annotations

from collections.abc import Mapping

import pytest
from _golden import HANDS5, MISS5, forbidding_rule, legal, make_hand, position, run

from loo_lessons.engine.errors import IllegalAction
from loo_lessons.engine.game import Hand
from loo_lessons.engine.options import RuleOptions, preset


def first_lead(
    held: str, turn_up: str, players_in: int, rules: str | Mapping[str, object] = "hoffmann"
) -> Hand:
    """The elder hand (seat 1) to lead to the first trick; everyone at the table stood."""
    hand = position(held, [], rules, turn_up, players_in)
    assert hand.leader == 1
    return hand


# --- R21 / R22: who leads -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("moves", "leader"),
    [
        ("play play play play play", 1),
        ("pass play take_miss pass play", 2),
        ("pass pass play play play", 3),
        ("pass pass pass take_miss play", 4),
    ],
)
def test_R21_the_elder_hand_among_those_playing_leads(moves: str, leader: int) -> None:
    """[000] “The elder hand (as among those who have declared to play) now leads a card.”
    [003] “the one nearest the dealer's left having to lead.”"""
    for rules in ("hoffmann", "peel"):
        hand = make_hand(HANDS5, MISS5, "2H", rules)
        run(hand, moves)
        assert hand.leader == leader and hand.to_act == leader


def test_R22_by_agreement_the_miss_holder_leads() -> None:
    """[003] “It is, however, sometimes agreed that the holder of miss for the time being shall lead”"""
    agreed = preset("hoffmann").with_(first_leader="miss_holder")
    hand = make_hand(HANDS5, MISS5, "2H", agreed)
    run(hand, "pass play take_miss pass play")
    assert hand.miss_holder == 3 and hand.leader == 3 and hand.to_act == 3
    # without the agreement the elder hand among the players leads
    usual = make_hand(HANDS5, MISS5, "2H", "hoffmann")
    run(usual, "pass play take_miss pass play")
    assert usual.leader == 2
    # with the agreement but nobody holding the miss, the elder hand leads
    untaken = make_hand(HANDS5, MISS5, "2H", agreed)
    run(untaken, "pass play play pass play")
    assert untaken.leader == 2


# --- R23 / R24: the ace, and the king with the ace turned up (A4: before every other rule) ---------


@pytest.mark.parametrize("rules", ["hoffmann", "peel"])
@pytest.mark.parametrize(
    ("held", "players_in"),
    [
        ("AH 5H 3C", 4),  # ace with another trump: not "one of them", the ace
        ("AH 3C 4D", 4),  # a lone ace
        ("AH KH 3C", 2),  # two declared, A K in sequence: still the ace (A4)
        ("AH 3H 2H", 3),
    ],
)
def test_R23_leader_must_lead_ace_of_trumps(held: str, players_in: int, rules: str) -> None:
    """[000] “If he holds the ace of trumps he is bound to lead it”
    [003] “If the leader holds the ace of trumps he must lead it”"""
    hand = first_lead(held, "9H", players_in, rules)
    assert legal(hand) == {"AH"}
    for other in held.split()[1:]:
        assert forbidding_rule(hand, other) == "R23"
    with pytest.raises(IllegalAction):
        hand.apply(held.split()[1])


@pytest.mark.parametrize("rules", ["hoffmann", "peel"])
@pytest.mark.parametrize(
    ("held", "players_in"),
    [
        ("KH 5H 3C", 4),  # lead "one" would allow 5H: the king rule comes first
        ("KH 3C 4D", 4),  # a lone king (A4)
        ("KH QH 3C", 2),  # two declared, K Q in sequence: still the king (A4)
    ],
)
def test_R24_ace_turned_up_leader_must_lead_the_king(
    held: str, players_in: int, rules: str
) -> None:
    """[000] “if an ace be turned up, and he holds the king of the same suit, he is bound to lead the latter.”
    [003] “if the ace is turned up, and he holds the king, he must start off with that card.”"""
    hand = first_lead(held, "AH", players_in, rules)
    assert legal(hand) == {"KH"}
    for other in held.split()[1:]:
        assert forbidding_rule(hand, other) == "R24"
    # without the ace turned up the king is no special card
    not_turned = first_lead("KH 3C 4D", "2H", 4, rules)
    assert legal(not_turned) == {"KH", "3C", "4D"}
    # and with the ace of another suit turned up the rule does not bite
    other_suit = first_lead("KH 3C 4D", "AS", 4, rules)
    assert legal(other_suit) == {"KH", "3C", "4D"}


# --- R25 / R26: two or more trumps -----------------------------------------------------------------


def test_R25_hoffmann_two_trumps_lead_one_of_them() -> None:
    """[000] “If he has two trumps he is bound to lead one of them.”"""
    hand = first_lead("9H 5H KC", "2H", 4, "hoffmann")
    assert legal(hand) == {"9H", "5H"}
    assert forbidding_rule(hand, "KC") == "R25"
    # three trumps: any of them (A5)
    assert legal(first_lead("9H 5H 3H", "2H", 4, "hoffmann")) == {"9H", "5H", "3H"}
    # the same under Peel's "rule of some players"
    some = first_lead("9H 5H KC", "2H", 4, {"preset": "peel", "two_trumps_lead": "one"})
    assert legal(some) == {"9H", "5H"}


def test_R26_peel_two_or_three_trumps_lead_the_highest() -> None:
    """[003] “If he has two or three trumps (of any denomination) he must lead the highest.”
    [003] “the rule to lead the _highest_ of two or three must govern the point.”"""
    hand = first_lead("9H 5H KC", "2H", 4, "peel")
    assert legal(hand) == {"9H"}
    assert forbidding_rule(hand, "5H") == "R26"
    assert forbidding_rule(hand, "KC") == "R26"
    assert legal(first_lead("9H 5H 3H", "2H", 4, "peel")) == {"9H"}
    # "of any denomination": small trumps too
    assert legal(first_lead("3H 2H KC", "9H", 5, "peel")) == {"3H"}


# --- R27: only two declared ----------------------------------------------------------------------


def test_R27_two_declared_lead_the_highest_trump() -> None:
    """[000] “If only two persons have declared to play, and the holder holds two or more trumps, he must lead the _highest_”"""
    hand = first_lead("QH 9H 3C", "2H", 2, "hoffmann")
    assert legal(hand) == {"QH"}
    assert forbidding_rule(hand, "9H") == "R27"
    assert forbidding_rule(hand, "3C") == "R27"


def test_R27_trumps_in_sequence_either_may_be_led() -> None:
    """[000] “unless his highest trumps are in sequence or of equal value,[28] when he may lead either of them.”"""
    for visible in (True, False):
        rules = {"preset": "hoffmann", "equal_value_via_visible_cards": visible}
        assert legal(first_lead("QH JH 3C", "2H", 2, rules)) == {"QH", "JH"}
        assert legal(first_lead("QH JH 5H", "2H", 2, rules)) == {"QH", "JH"}  # not 5H


def test_R27_equal_value_through_the_turn_up() -> None:
    """[000] “unless his highest trumps are in sequence or of equal value,[28] when he may lead either of them.”

    Footnote [28] is missing (A1). With `equal_value_via_visible_cards` the jack turned up
    makes Q and 10 of equal value; without it only touching ranks count."""
    seen = first_lead(
        "QH 10H 3C", "JH", 2, {"preset": "hoffmann", "equal_value_via_visible_cards": True}
    )
    assert legal(seen) == {"QH", "10H"}
    unseen = first_lead(
        "QH 10H 3C", "JH", 2, {"preset": "hoffmann", "equal_value_via_visible_cards": False}
    )
    assert legal(unseen) == {"QH"}
    assert forbidding_rule(unseen, "10H") == "R27"
    # a turn-up of another rank does not close the gap
    other = first_lead(
        "QH 10H 3C", "9H", 2, {"preset": "hoffmann", "equal_value_via_visible_cards": True}
    )
    assert legal(other) == {"QH"}


def test_R27_equal_value_through_a_card_played_in_an_earlier_trick() -> None:
    """[000] “unless his highest trumps are in sequence or of equal value,[28] when he may lead either of them.”

    Two in: seat 1 leads KH (K Q in sequence), seat 0 must follow with JH. Leading to the
    second trick seat 1 holds Q and 9: the 10 is turned up and the J has fallen."""
    for visible, expected in ((True, {"QH", "9H"}), (False, {"QH"})):
        rules = preset("hoffmann").with_(equal_value_via_visible_cards=visible)
        hand = make_hand({1: "KH QH 9H", 0: "JH 5S 6S"}, "AC 2C 3C", "10H", rules)
        run(hand, "play play")
        assert legal(hand) == {"KH", "QH"}  # in sequence
        run(hand, "KH JH")
        assert hand.to_act == 1
        assert legal(hand) == expected


def test_R27_does_not_apply_with_more_than_three_declared() -> None:
    """[000] “(With {88} more than three declared players the last rule does not apply.)”"""
    two = first_lead("QH 9H 3C", "2H", 2, "hoffmann")
    assert legal(two) == {"QH"}
    for players_in in (4, 5):
        more = first_lead("QH 9H 3C", "2H", players_in, "hoffmann")
        assert legal(more) == {"QH", "9H"}  # back to "lead one of them" (R25)
        assert forbidding_rule(more, "3C") == "R25"
    # Peel has no two-declared rule: the highest, as always (R26)
    assert legal(first_lead("QH JH 3C", "2H", 2, "peel")) == {"QH"}


# --- R28: free lead -------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", ["hoffmann", "peel"])
@pytest.mark.parametrize(
    ("held", "players_in"),
    [("5S KC 3D", 4), ("5H KC 3D", 4), ("5H KC 3D", 2), ("QH 2S 3S", 3)],
)
def test_R28_in_all_other_cases_the_lead_is_free(held: str, players_in: int, rules: str) -> None:
    """[003] “In all other cases the leader may start off with whichever card he chooses.”"""
    hand = first_lead(held, "2H", players_in, rules)
    assert legal(hand) == set(held.split())
    v = hand.verdict()
    assert v.forbidden == ()
    assert v.why is not None and v.why.rule == "R28"


# --- R29–R31: later leads ---------------------------------------------------------------------------

# Three play, dealer 0, trumps hearts (2H turned). Seat 1 leads 5S; seat 2 must head it.
LATER = {1: "5S 6C 7C", 0: "8S 9D 10D"}
LATER_MISS = "KD QD JD"


def after_first_trick(seat2: str, rules: RuleOptions, first: str) -> Hand:
    hand = make_hand({**LATER, 2: seat2}, LATER_MISS, "2H", rules)
    run(hand, f"play play play 5S {first} 8S")
    assert hand.winners == [2] and hand.leader == 2 and hand.to_act == 2
    return hand


def test_R29_the_winner_leads_under_the_original_obligations() -> None:
    """[000] “The winner of each trick leads to the next. He is under the same obligations as the original leader”"""
    # even without trump after trick, the ace rule binds him (A7)
    no_tat = preset("hoffmann").with_(trump_after_trick=False)
    hand = after_first_trick("AH 4H 3C", no_tat, "4H")  # void in spades: he trumps with 4H
    assert legal(hand) == {"AH"}
    assert forbidding_rule(hand, "3C") == "R23"
    # two trumps left: Hoffmann "one of them", Peel "the highest"
    hoff = after_first_trick("AS 6H 5H", no_tat, "AS")
    assert legal(hoff) == {"6H", "5H"}
    peel = after_first_trick("AS 6H 5H", preset("peel").with_(trump_after_trick=False), "AS")
    assert legal(peel) == {"6H"}
    assert forbidding_rule(peel, "5H") == "R26"


@pytest.mark.parametrize("rules", ["hoffmann", "peel"])
def test_R30_trump_after_trick(rules: str) -> None:
    """[000] “and is further bound to lead a trump, if he has one. This latter obligation is briefly stated as "trump after trick."”"""
    hand = after_first_trick("AS 5H KC", preset(rules), "AS")
    assert legal(hand) == {"5H"}
    assert forbidding_rule(hand, "KC") == "R30"
    with pytest.raises(IllegalAction):
        hand.apply("KC")
    # without the rule his lead is free again (one trump, no ace)
    free = after_first_trick("AS 5H KC", preset(rules).with_(trump_after_trick=False), "AS")
    assert legal(free) == {"5H", "KC"}
    # no trump left: nothing to lead
    none = after_first_trick("AS KC QC", preset(rules), "AS")
    assert legal(none) == {"KC", "QC"}


def test_R31_two_trumps_left_after_winning_lead_the_highest_or_as_original() -> None:
    """[004] “If the winner of the first trick remains with a trump, and fails to lead it”
    [004] “or having two trumps left fails to lead the highest, he is looed.”"""
    highest = preset("hoffmann").with_(trump_after_trick_two_trumps="highest")
    hand = after_first_trick("AS 9H 6H", highest, "AS")
    assert legal(hand) == {"9H"}
    assert forbidding_rule(hand, "6H") == "R31"
    # Hoffmann's own reading (R29: "same obligations"): with "lead one", either trump
    original = preset("hoffmann")
    assert original.trump_after_trick_two_trumps == "as_original_lead"
    assert legal(after_first_trick("AS 9H 6H", original, "AS")) == {"9H", "6H"}
    # Peel's preset: the highest
    assert legal(after_first_trick("AS 9H 6H", preset("peel"), "AS")) == {"9H"}
