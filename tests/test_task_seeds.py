"""The tests tools/task_seeds.py puts to a deal for the lessons' short tasks say no where the
point cannot come up, checked against the deal's own cards (test_lesson_steps.py checks only
that they say yes for the seeds the lessons use)."""

from __future__ import annotations

from dataclasses import replace

from loo_lessons.lessons.tasks import TASKS as REGISTRY
from tools.task_seeds import (
    TASKS,
    Wanted,
    bound_to_trump_after_trick,
    chose,
    declined_miss,
    had_to_head,
    highest_of_two_trumps,
    led_the_best_trump,
    lone_stander,
    played,
    plays_with_suit_led,
    trumped_a_plain_suit,
    trumped_to_win,
    two_trumps_after_winning,
)


def test_a_miss_taken_before_him_has_not_come_round() -> None:
    h, _ = played(1, TASKS["declaring-deal-1"])  # seat 2 takes the miss before seat 3
    assert h.declared[2].value == "take_miss" and not declined_miss(h, 3)
    h, _ = played(351, TASKS["declaring-miss-deal-351"])
    assert declined_miss(h, 4)
    assert not declined_miss(h, 2)  # only one declares before seat 2


def test_a_lone_miss_holder_is_not_a_lone_stander() -> None:
    h, _ = played(5, TASKS["dealer-deal-5"])  # Case 2: the miss-holder alone (R16)
    assert h.declared[1].value == "take_miss" and not lone_stander(h)


def test_the_lone_stander_needs_the_cautious_players() -> None:
    w = TASKS["dealer-lone-deal-3"]
    h, seen = played(3, w)
    assert lone_stander(h) and "pass" not in seen[0][2]
    # the same deal with sensible players in front of the dealer: a weak hand takes the miss
    h, seen = played(3, replace(w, bots="sensible"))
    assert not lone_stander(h) and "pass" in seen[0][2]


def test_a_lead_tied_to_one_trump_by_another_rule_is_not_the_best_trump() -> None:
    h, seen = played(26, TASKS["leading-deal-26"])  # two in, two trumps: the highest (R27)
    first = next(legal for kind, _, legal, _ in seen if kind == "lead")
    assert first == ("KH",) and h.turn_up is not None and str(h.turn_up) == "7H"
    assert not led_the_best_trump(h, seen)
    h, seen = played(89, TASKS["leading-ace-deal-89"])
    assert led_the_best_trump(h, seen)


def test_no_heading_and_no_trump_after_trick_where_the_cards_cannot_bring_them_up() -> None:
    h, seen = played(14, TASKS["following-deal-14"])  # lesson 6's closing task
    trumps = h.trumps.value if h.trumps is not None else None
    follows = [
        (opts, led) for (kind, opts, _, _), led in plays_with_suit_led(h, seen) if kind == "follow"
    ]
    leads = [opts for (kind, opts, _, _), _ in plays_with_suit_led(h, seen) if kind == "lead"]
    # he never holds two cards of the suit led, and never leads holding a trump
    assert follows and all(sum(c[-1] == led for c in opts) <= 1 for opts, led in follows)
    assert leads and not any(c[-1] == trumps for opts in leads for c in opts)
    assert not had_to_head(h, seen) and not bound_to_trump_after_trick(h, seen)


def test_each_short_task_brings_up_its_own_point_only() -> None:
    h, seen = played(154, TASKS["following-head-deal-154"])
    assert had_to_head(h, seen)
    # his first lead is free (R28), and no lead after a trick binds him to trumps (R30)
    assert not bound_to_trump_after_trick(h, seen)

    # deal 32, seat 3 (once a lesson 7 task): he wins the first trick and must lead his trump
    h, seen = played(32, Wanted(5, 3, 0, "hoffmann", False, lambda h, s: True))
    assert bound_to_trump_after_trick(h, seen)
    follows = [
        (opts, led) for (kind, opts, _, _), led in plays_with_suit_led(h, seen) if kind == "follow"
    ]
    assert all(sum(c[-1] == led for c in opts) <= 1 for opts, led in follows)
    assert not had_to_head(h, seen)


def test_lessons_7_to_10_tests_say_no_where_their_point_cannot_come_up() -> None:
    # deal 32, seat 3: he wins the first trick with one trump left, so his lead is forced
    h, seen = played(32, Wanted(5, 3, 0, "hoffmann", False, lambda h, s: True))
    assert h.winners[:1] == [3] and not two_trumps_after_winning(h, seen, 3)
    assert not chose(seen, ("lead", "follow"))
    # deal 98, seat 2: he follows in the suit led, so no trump of his beats a plain suit
    h, seen = played(98, TASKS["winning-deal-98"])
    assert chose(seen, ("follow",)) and not trumped_to_win(h, seen, 2)
    # deal 229, seat 3: he takes a trump lead with the ace, trumps being the suit led
    h, seen = played(229, TASKS["winning-two-trumps-deal-229"])
    assert h.winners[0] == 3 and not trumped_to_win(h, seen, 3)
    # under Peel's rules (the task's) only the higher of his two trumps may be led (R31); under
    # Hoffmann's either may (R25), and nothing tests him there
    assert highest_of_two_trumps(h, seen, 3) and not two_trumps_after_winning(h, seen, 3)
    h, seen = played(229, replace(TASKS["winning-two-trumps-deal-229"], rules="hoffmann"))
    assert two_trumps_after_winning(h, seen, 3) and not highest_of_two_trumps(h, seen, 3)


def test_a_void_follower_with_a_plain_card_must_trump() -> None:
    h, seen = played(REGISTRY["winning-trump-wins-deal-15"].seed, TASKS["winning-trump-wins-deal-15"])
    assert trumped_a_plain_suit(h, seen, 2)
    # deal 15 (the task's old deal): void, he held only trumps, so the law refused nothing
    h, seen = played(15, TASKS["winning-trump-wins-deal-15"])
    assert trumped_to_win(h, seen, 2) and not trumped_a_plain_suit(h, seen, 2)
