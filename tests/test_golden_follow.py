"""Golden tests from the seed texts: following and winning tricks (R32–R37).

Positions are scenario YAML (`loo_lessons.scenario.loads`): four stood, dealer 0, trumps
hearts (8H turned); seat 1 leads. Expected answers are worked out by hand from seeds 000
and 003.
"""

from __future__ import annotations

import pytest
from _golden import forbidding_rule, legal, position

from loo_lessons.engine.cards import parse_card
from loo_lessons.engine.errors import IllegalAction
from loo_lessons.engine.game import Hand
from loo_lessons.engine.penalties import Offence, Size, ruling_for
from loo_lessons.engine.play import trick_winner


def follow(played: list[tuple[int, str]], held: str, rules: str | dict[str, object]) -> Hand:
    """The seat after the last card of `played` (an unfinished first trick) to play."""
    return position(held, played, rules)


# --- R32 ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", ["hoffmann", "peel"])
def test_R32_play_goes_to_the_left_and_follows_suit(rules: str) -> None:
    """[003] “The play proceeds from left to right, and each player, in turn, has to follow suit if he can”"""
    hand = follow([(1, "10C")], "3C 9H 4D", rules)
    assert hand.to_act == 2  # the player on the leader's left
    assert legal(hand) == {"3C"}
    assert forbidding_rule(hand, "9H") == "R32"
    assert forbidding_rule(hand, "4D") == "R32"
    with pytest.raises(IllegalAction):
        hand.apply("9H")
    hand.apply("3C")
    assert hand.to_act == 3


# --- R33 / R34: heading in the suit led ------------------------------------------------------------


def test_R33_hoffmann_must_head_the_trick_if_able() -> None:
    """[000] “each player must follow suit, if possible, and he must "head the trick," _i.e._ play a higher card to it, if able to do so.”"""
    hand = follow([(1, "10C")], "QC 3C 5D", "hoffmann")
    assert legal(hand) == {"QC"}
    assert forbidding_rule(hand, "3C") == "R33"
    # unable to head: any card of the suit
    assert legal(follow([(1, "10C")], "9C 3C 5D", "hoffmann")) == {"9C", "3C"}
    # heading means beating the card now winning, not only the card led
    assert legal(follow([(1, "10C"), (2, "KC")], "QC 3C 5D", "hoffmann")) == {"QC", "3C"}
    assert legal(follow([(1, "10C"), (2, "KC")], "AC 3C 5D", "hoffmann")) == {"AC"}
    # once the trick is trumped no club can head it: any club follows (A8)
    assert legal(follow([(1, "10C"), (2, "2H")], "AC 3C 5D", "hoffmann")) == {"AC", "3C"}


def test_R34_peel_heading_in_suit_is_the_players_aim_not_a_law() -> None:
    """[003] “he will play as high as possible [21] if he has the power to head the trick.”

    A remark in seed 003 (footnote [21] is not in the seed), and seed 004 lists no penalty
    for not heading in the suit led: under Peel any card of the suit may be played."""
    hand = follow([(1, "10C")], "QC 3C 5D", "peel")
    assert legal(hand) == {"QC", "3C"}
    assert forbidding_rule(hand, "5D") == "R32"  # he must still follow suit
    assert ruling_for(Offence.FAIL_TO_HEAD_IN_SUIT).size is Size.NONE
    # the same switch on the Hoffmann preset
    off = follow([(1, "10C")], "QC 3C 5D", {"preset": "hoffmann", "must_head_in_suit": False})
    assert legal(off) == {"QC", "3C"}


# --- R35 / R36: void in the suit led ------------------------------------------------------------------

# (trick so far, void follower's cards, legal under must_trump R35, legal under only_if_heads R36)
VOID_CASES = [
    # not yet trumped: any trump heads it, so both books make him trump
    ([(1, "10C")], "2H 5D 6S", {"2H"}, {"2H"}),
    ([(1, "10C")], "2H 9H 5D", {"2H", "9H"}, {"2H", "9H"}),
    # trumped lower than his trump: over-trump under both
    ([(1, "10C"), (2, "5H")], "QH 3H 4D", {"QH"}, {"QH"}),
    # trumped higher than all his trumps: the one place the two differ
    ([(1, "10C"), (2, "QH")], "5H 3D 4S", {"5H"}, {"5H", "3D", "4S"}),
    ([(1, "10C"), (2, "QH")], "5H 3H 4S", {"5H", "3H"}, {"5H", "3H", "4S"}),
    # no trump: discard anything
    ([(1, "10C")], "3D 4S 5D", {"3D", "4S", "5D"}, {"3D", "4S", "5D"}),
]


@pytest.mark.parametrize(("played", "held", "must_trump", "only_if_heads"), VOID_CASES)
def test_R35_hoffmann_void_must_trump_or_over_trump(
    played: list[tuple[int, str]], held: str, must_trump: set[str], only_if_heads: set[str]
) -> None:
    """[000] “If unable to follow suit, he is bound to trump, or if the trick be already trumped, to over-trump, if practicable.”"""
    hand = follow(played, held, "hoffmann")
    assert legal(hand) == must_trump
    for card in set(held.split()) - must_trump:
        assert forbidding_rule(hand, card) == "R35"


@pytest.mark.parametrize(("played", "held", "must_trump", "only_if_heads"), VOID_CASES)
def test_R36_peel_void_trump_only_if_it_heads_the_trick(
    played: list[tuple[int, str]], held: str, must_trump: set[str], only_if_heads: set[str]
) -> None:
    """[003] “he must play a trump if he has one, provided his trump is higher than any previously played to the trick”
    [003] “it is not compulsory to trump a suit when it is not possible to head the trick by doing so.”
    [003] “Failing the ability to head the trick, he may discard as he chooses.”"""
    hand = follow(played, held, "peel")
    assert legal(hand) == only_if_heads
    for card in set(held.split()) - only_if_heads:
        assert forbidding_rule(hand, card) == "R36"
    # the option alone makes the difference
    swapped = follow(played, held, {"preset": "hoffmann", "void_trump_rule": "only_if_heads"})
    assert legal(swapped) == only_if_heads


# --- R37: who wins the trick ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("plays", "winner"),
    [
        ([(1, "10C"), (2, "AD"), (3, "QC")], 3),  # an off-suit ace does not win
        ([(1, "10C"), (2, "2H"), (3, "AC")], 2),  # the lowest trump beats the suit led
        ([(1, "10C"), (2, "2H"), (3, "3H")], 3),  # the higher trump
        ([(1, "5H"), (2, "AS"), (3, "6H"), (0, "4H")], 3),  # trumps led
        ([(1, "2S"), (2, "3D"), (3, "4C")], 1),  # nobody follows: the card led wins
        ([(1, "KS"), (2, "AS")], 2),  # whist ranking: the ace is high
    ],
)
def test_R37_highest_trump_else_highest_of_the_suit_led_wins(
    plays: list[tuple[int, str]], winner: int
) -> None:
    """[000] “The full pack of fifty-two cards is used, the cards ranking as at Whist.”

    No seed states who wins a trick; it follows from whist ranking and "head the trick"
    (EB 1911: 'won by the highest card of the suit led, or, if trumped, by the highest trump')."""
    assert trick_winner([(s, parse_card(c)) for s, c in plays], parse_card("2H").suit) == winner


def test_R37_the_winner_of_a_played_trick_leads_next() -> None:
    """[000] “The full pack of fifty-two cards is used, the cards ranking as at Whist.”"""
    hand = follow([(1, "10C"), (2, "AD"), (3, "QC")], "4C 5S 6S", "peel")
    hand.apply("4C")
    assert hand.winners == [3] and hand.to_act == 3 and hand.leader == 3
