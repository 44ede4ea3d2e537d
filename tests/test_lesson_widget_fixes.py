"""The lessons' widget regressions of issue 15, mended in the controllers (so JupyterLab and
the book, which run the same controller, both show the fix)."""

from __future__ import annotations

import json

import pytest

from loo_lessons import lessons as L
from loo_lessons.engine.game import Hand
from loo_lessons.explain.steps import TRICK_WINNER, stepper_steps
from loo_lessons.sim.game import play_out
from loo_lessons.widgets.backends import browser as B
from loo_lessons.widgets.controllers.explore import ExploreController
from loo_lessons.widgets.controllers.pick import PickController
from loo_lessons.widgets.controllers.present import PresentController
from loo_lessons.widgets.controllers.steps import StepperController

#: The explorers of lessons 1, 2, 5, 6, 7, 13 and 14 (scenario, options shown).
EXPLORERS: list[tuple[str, tuple[str, ...]]] = [
    ("lead-two-trumps-hoffmann-lead-one", ("two_trumps_lead",)),
    ("deal-three-cards-each-miss-and-turn-up", ("miss_deal_position",)),
    ("dealer-lone-stander", ("lone_stander_rule",)),
    ("follow-under-trump-hoffmann", ("must_head_in_suit", "void_trump_rule")),
    ("lead-two-declared-equal-value", ("two_trumps_lead", "two_declared_rule", "equal_value_via_visible_cards", "first_leader")),
    ("trump-after-trick-two-trumps-hoffmann", ("trump_after_trick", "trump_after_trick_two_trumps", "two_trumps_lead")),
    ("unlimited-capped-maximum", ("loo_amount", "pool_remainder")),
]


@pytest.mark.parametrize(("name", "options"), EXPLORERS)
def test_choosing_a_preset_shows_its_name_not_custom(name: str, options: tuple[str, ...]) -> None:
    ctl = ExploreController(L.scenario(name).data, options)
    for preset in ("peel", "hoffmann", "peel"):
        ctl.receive({"sync": {"request": {"n": 1, "type": "preset", "preset": preset}}})
        assert ctl.data["preset"] == preset and not ctl.data.get("refused")
        assert {o["key"]: o["value"] for o in ctl.data["options"]} == {
            k: v for k, v in ctl.rules.items() if k in {o["key"] for o in ctl.data["options"]}
        }


def test_lesson_14s_loo_amount_explorer_takes_fixed_and_pool() -> None:
    """The scenario's own cap (`loo_cap: 6`) goes with a capped loo only: it used to make the
    engine refuse every other loo_amount."""
    ctl = ExploreController(L.scenario("unlimited-capped-maximum").data, ("loo_amount", "pool_remainder"))
    paid = {}
    for amount in ("fixed", "pool", "pool_capped"):
        ctl.receive({"sync": {"request": {"n": 1, "type": "option", "key": "loo_amount", "value": amount}}})
        assert ctl.data["kind"] == "pool", ctl.data.get("verdict_refused")
        assert not ctl.data.get("refused") and not ctl.data.get("verdict_refused")
        paid[amount] = ctl.data["pool"]["expected"]
    assert len({json.dumps(p, sort_keys=True) for p in paid.values()}) == 3  # three different settlements


def test_a_box_that_changes_nothing_is_not_offered() -> None:
    """Lesson 5: `first_leader` cannot change who leads in a position where the elder hand
    holds the miss; the explorer does not offer it there, and offers it where it matters."""
    there = ExploreController(L.scenario("lead-two-declared-equal-value").data, ("two_trumps_lead", "two_declared_rule", "first_leader"))
    assert "first_leader" in there.data["inert"]
    assert "first_leader" not in [o["key"] for o in there.data["options"]]
    assert "two_trumps_lead" not in there.data["inert"]  # it matters once two_declared_rule is none
    where = ExploreController(L.scenario("lead-miss-holder-elder-hand-leads").data, ("first_leader",))
    assert [o["key"] for o in where.data["options"]] == ["first_leader"]
    before = where.data["question"]["view"]
    where.receive({"sync": {"request": {"n": 1, "type": "option", "key": "first_leader", "value": "miss_holder"}}})
    assert where.data["question"]["view"] != before  # another seat is to lead


def test_the_stepper_shows_the_seed_of_its_deal() -> None:
    hand = play_out(Hand.from_seed(42, 5, 0, "hoffmann"), seed=42)
    st = StepperController(hand)
    assert (st.data["seed"], st.data["players"], st.data["rules"]) == (42, 5, "hoffmann")
    assert L.stepper(42).data["seed"] == 42
    st.receive({"event": {"type": "deal", "seed": 7}})
    assert st.data["seed"] == 7 and st.data["rules"] == "hoffmann"


def test_the_trick_note_is_in_a_learners_words_with_its_rule_and_book() -> None:
    steps = stepper_steps(play_out(Hand.from_seed(42, 5, 0, "hoffmann"), seed=42))
    laws = [law for s in steps for law in s["laws"] if law["rule_id"] == "R37"]
    assert len(laws) == 3  # once a trick, where a trick is complete
    for law in laws:
        assert law["reason"] == TRICK_WINNER and law["quote"] and law["book"]
        assert "No seed" not in law["reason"] and "EB 1911" not in law["reason"]
    shown = PresentController(42).data["steps"]
    assert all(law["reason"] == TRICK_WINNER for s in shown for law in s["laws"] if law["rule_id"] == "R37")


def test_a_pick_with_one_answer_has_a_check_and_gives_nothing_away() -> None:
    ctl = PickController(L.scenario("trump-after-trick-lead-a-trump"))
    assert ctl.answer == ["6S"]
    wrong = next(k for k in ctl.choices if k != "6S")
    ctl.receive({"event": {"type": "choice", "key": wrong}})
    assert (ctl.picked, ctl.current, ctl.revealed) == ([wrong], None, False)
    ctl.receive({"event": {"type": "check"}})
    assert ctl.revealed and ctl.correct is False
    made = json.loads(B.create("pick", "{}", json.dumps(PickController(L.scenario("trump-after-trick-lead-a-trump")).state())))
    said = json.loads(B.send(made["id"], json.dumps({"event": {"type": "choice", "key": "6S"}})))
    assert said["changes"]["revealed"] is False
    B.drop(made["id"])


@pytest.mark.parametrize("seed", range(4))
def test_undo_in_the_terminal_puts_the_bots_draws_back_as_the_widget_does(seed: int) -> None:
    """The terminal game and the play widget are one loop (`sim.game.BotGame`): after undo,
    the same decision gets the same answers from the bots, in both."""
    import io

    from loo_lessons.views.terminal import play_terminal
    from loo_lessons.widgets.controllers.play import PlayController

    out = io.StringIO()
    play_terminal(seed, players=5, seat=1, input=io.StringIO("1\nu\n1\nq\n"), output=out, bots="random-legal")
    parts = out.getvalue().split("== Your turn")
    first, again = parts[1].split("> ", 1)[1], parts[3].split("> ", 1)[1]
    assert "Undone" in parts[2] and first == again
    assert first.count("Declaring is over") <= 1  # each move said once, as it is made
    game = PlayController(seed, 5, "hoffmann", 1, "random-legal")
    move = game.legal[0]
    game.choose(move)
    after = [m["key"] for m in game.moves()]
    game.undo()
    game.choose(move)
    assert [m["key"] for m in game.moves()] == after


def test_a_class_code_the_page_holds_is_dealt_by_python_too() -> None:
    """quiz.js deals a code whose bank the page holds by itself and syncs the questions with
    the code: the controller (either back end) deals the same code, instead of refusing the
    questions and drifting from what the page shows."""
    from loo_lessons.widgets.controllers.quiz import QuizController

    ctl = QuizController("lead", seed=1, count=3)
    bank = ctl.questions
    page = {
        "data": {**ctl.data, "class_code": "lead-2-1"},
        "questions": bank[:2],
        "index": 0,
        "responses": [None, None],
        "selected": [],
        "inspect": None,
    }
    ctl.receive({"sync": page})
    assert not ctl.data.get("refused") and ctl.data["class_code"] == "lead-2-1"
    assert ctl.questions == bank[:2] and ctl.responses == [None, None] and ctl.index == 0
    ctl.receive({"sync": {"questions": [{"bogus": 1}], "data": {"class_code": "no"}}})
    assert "not a class code" in ctl.data["error"] and ctl.questions == bank[:2]  # said; nothing changes
