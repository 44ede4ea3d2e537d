"""A deck deals the hands; the scenario may then go on to any later moment, and penalties
that a position makes impossible are refused (contract: hands are what a seat holds now)."""

from __future__ import annotations

from pathlib import Path

import pytest

from loo_lessons.explain import explain_json, explain_text
from loo_lessons.scenario import load_file, loads
from loo_lessons.scenario.errors import ScenarioError

GOOD = Path(__file__).parent / "good_scenarios"

# The first 13 cards deal 3 players + the miss, one at a time from the elder hand (seat 1),
# the miss last in each round (R03); the 13th card is turned up (R04).
DECK = "[2C, 5D, 9S, 3H, 6C, 10D, KS, 4H, 7C, JD, AS, 5H, QC]"


def test_deck_then_a_play_then_the_next_seat() -> None:
    sc = loads(
        f"players: 3\ndealer: 0\ndeck: {DECK}\ndeclarations: {{1: play, 2: play, 0: play}}\n"
        "tricks: [[[1, 2C]]]\n"
    )
    j = explain_json(sc)
    # seat 1 was dealt 2C 6C 7C; seat 2 5D 10D JD; seat 0 9S KS AS; miss 3H 4H 5H; QC turned
    assert j["trumps"] == "C" and j["to_act"] == 2
    assert j["legal"] == ["10D", "5D", "JD"]  # void in clubs with no trump: any card (R35)
    assert j["hands"]["1"] == ["2C", "6C", "7C"]  # the deal itself is still reported


def test_deck_then_the_miss_taken_and_led_from() -> None:
    sc = loads(
        f"players: 3\ndealer: 0\ndeck: {DECK}\n"
        "declarations: {1: take_miss, 2: pass, 0: play}\ntricks: []\n"
    )
    j = explain_json(sc)
    assert j["to_act"] == 1 and j["miss_holder"] == 1
    # the miss is 3H 4H 5H with clubs trumps: no trump, so a free lead (R28)
    assert j["legal"] == ["3H", "4H", "5H"]


def test_dealer_forced_to_throw_up_gives_the_lone_stander_the_pool() -> None:
    # R53: he looked at another's cards before declaring, so he must throw up; the lone
    # stander is then the only one left and takes the pool.
    text = (
        "players: 3\ndealer: 0\nturn_up: 7D\ndeclarations: {1: play, 2: pass, 0: pass}\n"
        "penalties: [{seat: 0, offence: look_at_anothers_hand}]\n"
    )
    j = explain_json(loads(text))
    assert j["phase"] == "settled"
    assert j["settlement"]["pool_awarded_to"] == 1
    assert j["settlement"]["awarded_by"]["rule_id"] == "R53"


# --- the contract's additions (issue 9, item 4): answered with what can be known ------------

FOUR_STOOD = "players: 4\ndealer: 0\nturn_up: 2S\n"


def test_who_won_this_trick_with_only_the_trick_given() -> None:
    # [000] "the cards ranking as at Whist" and R33 "head the trick": with no trump played,
    # the highest card of the suit led wins (R37); the winner leads next, R29 [000]: "The
    # winner of each trick leads to the next". Nobody's hand is given, and nothing is refused.
    j = explain_json(loads(FOUR_STOOD + "tricks:\n  - [[1, KC], [2, AC], [3, 4C], [0, 7C]]\n"))
    assert j["tricks"][0]["winner"] == 2
    assert j["phase"] == "play" and j["to_act"] == 2 and j["leader"] == 2
    assert "legal" not in j and "illegal" not in j
    assert j["hand_needed"] == "hands.2"
    assert any("hands.2" in n for n in j["notes"])


def test_a_trumped_trick_with_only_the_trick_given() -> None:
    # spades are trumps (the turn-up 2S, R04 [000]: "The card next following is turned up,
    # and fixes the trump suit"): seat 2's 3S beats the king of clubs led
    j = explain_json(loads(FOUR_STOOD + "tricks:\n  - [[1, KC], [2, 3S], [3, 4C], [0, 7C]]\n"))
    assert j["tricks"][0]["winner"] == 2 and j["to_act"] == 2


def test_seat_to_act_without_a_hand_is_answered() -> None:
    """The file that used to be refused ("seat 2 is to play now, so its hand must be given")."""
    sc = load_file(GOOD / "seat-to-play-hand-not-given.yaml")
    j = explain_json(sc)
    assert j["to_act"] == 2 and j["leader"] == 1 and j["hand_needed"] == "hands.2"
    assert "legal" not in j and j["tricks"][0]["winner"] is None
    text = explain_text(sc)
    assert "Now seat 2" in text and "hands.2" in text and "Legal:" not in text


def test_plays_of_an_unknown_hand_are_checked_as_far_as_they_can_be() -> None:
    # R23 [000]: "If he holds the ace of trumps he is bound to lead it". Seat 1's hand is not
    # given, but he plays AH to the second trick, so he held it when he led 9C to the first:
    # that lead was illegal whatever else he held.
    base = "players: 3\ndealer: 0\nturn_up: 7H\ndeclarations: {1: play, 2: play, 0: play}\n"
    with pytest.raises(ScenarioError) as info:
        loads(base + "tricks:\n  - [[1, 9C], [2, 2C], [0, 3C]]\n  - [[1, AH]]\n")
    assert info.value.field == "tricks[0][0]" and "R23" in info.value.problem
    # the same lead with 8D played later could have been legal (he need not have held a trump)
    j = explain_json(loads(base + "tricks:\n  - [[1, 9C], [2, 2C], [0, 3C]]\n  - [[1, 8D]]\n"))
    assert j["tricks"][0]["winner"] == 1 and j["to_act"] == 2


def test_trick_winners_divide_an_odd_pool_without_the_cards() -> None:
    # R38 [000]: "the pool is divided, in the proportion of one-third to each trick"; a pool
    # of 10 does not divide, and under Peel's early_tricks_preference (A11, V12) the odd
    # counter goes to the first trick: the order of the winners decides who gets it.
    base = (
        "rules: peel\nplayers: 4\ndealer: 0\npool: 10\n"
        "declarations: {1: play, 2: pass, 3: play, 0: play}\n"
    )
    with pytest.raises(ScenarioError) as info:
        loads(base + "tricks_won: {1: 2, 3: 1}\n")
    assert info.value.field == "tricks_won" and "trick_winners" in info.value.problem
    first = explain_json(loads(base + "trick_winners: [1, 3, 1]\n"))
    assert first["phase"] == "settled"
    assert first["settlement"]["receives"] == {"1": 7, "3": 3}
    assert first["settlement"]["looed"] == [0]  # R39: he played and took no trick
    later = explain_json(loads(base + "trick_winners: [3, 1, 1]\n"))
    assert later["settlement"]["receives"] == {"1": 6, "3": 4}


def test_trick_winners_must_be_players_in_and_three() -> None:
    base = (
        "rules: peel\nplayers: 4\ndealer: 0\ndeclarations: {1: play, 2: pass, 3: play, 0: play}\n"
    )
    with pytest.raises(ScenarioError, match="seat 2 did not play"):
        loads(base + "trick_winners: [1, 2, 1]\n")
    with pytest.raises(ScenarioError) as info:
        loads(base + "trick_winners: [1, 3]\n")
    assert info.value.field == "trick_winners"


@pytest.mark.parametrize(
    ("text", "players", "miss"),
    [
        ("players: 5\ndealer: 0\n", 5, 3),  # declaring, no deck
        ("players: 17\nmust: true\ndealer: 0\ndeclarations: {1: play}\n", 17, 0),  # R45
        (f"players: 3\ndealer: 0\ndeck: {DECK}\n", 3, 3),  # the deal itself
        (
            "players: 3\ndealer: 0\nturn_up: 7H\ndeclarations: {1: play, 2: play, 0: play}\n"
            "tricks: []\n",
            3,
            3,
        ),  # play about to begin
    ],
)
def test_positions_before_the_first_trick_report_the_counts_of_the_deal(
    text: str, players: int, miss: int
) -> None:
    # R03 [000]: "Three cards are dealt, one by one, to each player, also an extra hand,
    # known as "miss.""; R04: "The card next following is turned up"; R45: no miss in a must
    j = explain_json(loads(text))
    assert j["cards_to_players"] == 3 * players
    assert j["miss_cards"] == miss
    assert j["turn_up_cards"] == 1
    assert j["stock_remaining"] == 52 - 3 * players - miss - 1


def test_no_counts_once_a_card_is_played() -> None:
    j = explain_json(loads(FOUR_STOOD + "tricks:\n  - [[1, KC]]\n"))
    assert "cards_to_players" not in j


def test_the_phase_is_the_engines() -> None:
    """One phase: what `explain --json` says is `Hand.phase`, for the deal itself too."""
    for text in (
        f"players: 3\ndealer: 0\ndeck: {DECK}\n",
        "players: 5\ndealer: 0\n",
        FOUR_STOOD + "tricks:\n  - [[1, KC]]\n",
    ):
        sc = loads(text)
        assert explain_json(sc)["phase"] == sc.hand.phase.value
    assert loads(f"players: 3\ndealer: 0\ndeck: {DECK}\n").hand.phase.value == "deal"


def test_the_deal_shown_is_declared_from_in_words_too() -> None:
    # R05 [000]: "The dealer then asks each player, beginning with the elder hand, whether he
    # will play or "take miss."": the deal itself (Phase.DEAL) waits for the elder's word
    sc = loads(f"players: 3\ndealer: 0\ndeck: {DECK}\n")
    assert explain_json(sc)["legal"] == ["pass", "play", "take_miss"]
    assert "Now seat 1 (the elder hand) is to declare." in explain_text(sc)
