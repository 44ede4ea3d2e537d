"""A deck deals the hands; the scenario may then go on to any later moment, and penalties
that a position makes impossible are refused (contract: hands are what a seat holds now)."""

from __future__ import annotations

from loo_lessons.explain import explain_json
from loo_lessons.scenario import loads

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
