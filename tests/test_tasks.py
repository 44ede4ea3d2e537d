"""Play-this-deal tasks (issue 18, deliver 1): `PlayController(task=, asks=)` and `L.task`.

A task asks the learner only the kinds of decision its lesson has taught; the stand-in bot
makes his seat's others, in the open; a forbidden choice is refused with the engine's law;
the deal is scored; the same seed and the same clicks give the same deal and score.
"""

from __future__ import annotations

import contextlib
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from loo_lessons import lessons as L
from loo_lessons.engine.errors import InputError
from loo_lessons.explain.words import card_label
from loo_lessons.scenario.errors import ScenarioError
from loo_lessons.sim.asking import TASK_ROLLOUTS
from loo_lessons.sim.coach import coach
from loo_lessons.sim.coach import review as sim_review
from loo_lessons.sim.game import DECISIONS, decision_kind
from loo_lessons.widgets.backends import browser as B
from loo_lessons.widgets.controllers.coaching import Coaching
from loo_lessons.widgets.controllers.play import IllegalChoice, PlayController

#: The tasks the lessons set (notebooks/03–10), as `L.task` is called there.
LESSON_TASKS = {
    "03": dict(seed=1, asks=("declare",), seat=3),
    "04": dict(seed=5, asks=("declare",), seat=0),
    "05": dict(seed=26, asks=("declare", "lead"), seat=1),
    "06": dict(seed=14, asks=DECISIONS, seat=3),
    "07": dict(seed=43, asks=DECISIONS, seat=2),
    "08": dict(seed=3, asks=DECISIONS, seat=1),
    "09": dict(seed=3, asks=DECISIONS, seat=1, must=True),
    "10": dict(seed=1, asks=DECISIONS, seat=1, rules="peel"),
}


def make(lesson: str) -> PlayController:
    kw = dict(LESSON_TASKS[lesson])
    seed = kw.pop("seed")
    return PlayController(seed, task=f"lesson-{lesson}", **kw)  # type: ignore[arg-type]


def play_through(c: PlayController, rng: random.Random) -> list[str]:
    """Random legal choices until the deal is over; checks every decision asked is one the
    task names. Returns the kinds asked, in order."""
    asked = []
    while not c.over:
        assert c.my_turn, "the deal waits for the learner only at his own decisions"
        kind = decision_kind(c.hand)
        assert kind in c.asks
        asked.append(kind)
        c.choose(rng.choice(c.legal))
    return asked


@pytest.mark.parametrize("lesson", sorted(LESSON_TASKS))
def test_each_lesson_task_asks_only_what_it_names(lesson: str) -> None:
    c = make(lesson)
    asked = play_through(c, random.Random(int(lesson)))
    assert asked and asked[0] == "declare"
    # the seat's other moves were made by the stand-in, and the log says so
    made_for = [
        e
        for e in c.data["log"]
        if "made for you by the sensible bot" in e or e.startswith(("Your last card", "Played for you"))
    ]
    mine = [m for m in c.moves() if m["seat"] == c.seat]
    assert len(mine) == len(asked) + len(made_for)
    if set(c.asks) != set(DECISIONS):
        assert all(k == "declare" or k in c.asks for k in asked)
    score = c.score()
    assert score is not None and c.data["task"]["score"] == score


def test_a_declaring_task_plays_the_hand_for_the_learner() -> None:
    c = make("03")
    assert c.legal == ["play", "pass"]  # seat 2 took the miss before him (R09)
    c.choose("play")
    assert c.over and c.decisions == 1
    assert any("made for you" in e for e in c.data["log"])


@pytest.mark.parametrize(
    ("lesson", "moves", "wrong", "rule"),
    [
        ("03", [], "take_miss", "R09"),
        ("04", [], "play_miss_for_pool", "R18"),
        ("05", ["play"], "5H", "R27"),
        ("06", ["play"], "JH", "R32"),
        ("07", ["play", "KD"], "2C", "R30"),
        ("09", [], "pass", "R43"),
        ("10", ["play"], "6S", "R26"),
    ],
)
def test_a_forbidden_choice_is_refused_with_the_law(lesson: str, moves: list[str], wrong: str, rule: str) -> None:
    c = make(lesson)
    for m in moves:
        c.choose(m)
    before = list(c.hand.actions)
    with pytest.raises(IllegalChoice) as e:
        c.choose(wrong)
    law = e.value.law
    assert law is not None and law["rule_id"] == rule
    assert law["quote"] and law["book"] and rule in str(e.value)
    assert list(c.hand.actions) == before and c.tried == wrong
    assert c.data["task"]["refused"] == 1
    # said in a learner's words: the 5♥, "take the miss", never the key 5H or take_miss
    said = str(e.value)
    assert (card_label(wrong, the=True) in said) if "_" not in wrong and wrong != "pass" else True
    assert ("_" in wrong or wrong == "pass" or wrong not in said) and "_" not in said
    # the page's request: refused the same way, the error shown, nothing raised
    c.handle_request({"n": 1, "type": "choose", "key": wrong})
    assert c.data["task"]["refused"] == 2 and c.data["error"] and rule in c.data["error"]


def test_the_score_says_what_it_means() -> None:
    c = make("08")
    assert c.score() is None  # not before the end
    play_through(c, random.Random(8))
    s = c.score()
    assert s is not None
    st_ = c.hand.settlement
    assert st_ is not None
    assert s["result"] == st_.receives.get(1, 0) - st_.loo_pays.get(1, 0)
    assert s["tricks"] == sum(1 for w in c.hand.winners if w == 1)
    assert s["looed"] == (1 in st_.looed)
    assert f"{s['result']:+d}" in s["text"] and f"{s['baseline']:+d}" in s["text"]
    # the baseline is the stand-in making every decision of the seat
    bot = PlayController(3, task="all-bot", asks=DECISIONS, seat=1)
    assert bot.baseline() == s["baseline"]


def test_undo_and_start_again_are_counted_and_reset() -> None:
    c = make("06")
    c.choose("play")
    c.undo()
    c.choose("play")
    play_through(c, random.Random(1))
    s = c.score()
    assert s is not None and s["undone"] == 1
    c.restart()
    assert c.data["task"]["refused"] == 0 and c.score() is None


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    seat=st.integers(0, 4),
    asks=st.sets(st.sampled_from(DECISIONS), min_size=1),
    pick=st.integers(0, 2**32 - 1),
)
def test_any_task_is_reproducible_and_asks_only_its_decisions(seed: int, seat: int, asks: set[str], pick: int) -> None:
    runs = []
    for _ in range(2):
        c = PlayController(seed, seat=seat, task="t", asks=sorted(asks))
        play_through(c, random.Random(pick))
        runs.append((c.transcript(), c.score()))
    assert runs[0] == runs[1]
    # the coach's part holds together whatever the deal and the clicks
    s = runs[1][1]
    assert s is not None
    n, ws = s["decisions"], s["weighed"]
    assert n == len(ws) and n + s["forced"] == len(c.own_moves())
    assert 0 <= s["coach_choice"] <= n and 0 <= s["mistakes"] <= n - s["coach_choice"]
    assert s["given_up"] >= 0 and (s["given_up"] > 0) == any(w["cost"]["mean"] > 0 for w in ws)
    strategy = [d for d in s["asked"] if d["strategy"]]
    assert ("Strategy, not law" in s["text"]) == bool(strategy)
    # the parts the component draws one by one are the text, in order: the stars first, one
    # line per decision asked, the coach's note where it weighed a strategy decision
    assert s["text"] == " ".join(p["text"] for p in s["parts"])
    kinds = [p["kind"] for p in s["parts"]]
    assert kinds[:2] == ["stars", "deal"] and kinds[-1] == "terms"
    assert kinds.count("decision") == max(1, len(s["asked"])) and kinds.count("note") == bool(strategy)
    assert "no decision" not in s["text"]
    # no refusal in a random legal play: every forced move found first time, the rules' star
    assert s["forced_found"] == s["forced"] and s["stars"]["rules"]
    assert set(s["stars"]) == {"rules", "law", "coach"}
    assert s["stars"]["law"]  # no refusal, no undo
    assert s["stars"]["coach"] == all(d["choice"] for d in strategy)
    assert s["star_count"] == sum(s["stars"].values())
    assert ("★" * s["star_count"] + "☆" * (3 - s["star_count"])) in s["text"]
    # a learner's words only: no card code (7H), no snake_case key (take_miss)
    assert not re.search(r"\b(?:10|[2-9TJQKA])[SHDC]\b|[a-z]+_[a-z]+", s["text"]), s["text"]
    for w in ws:
        if w["played"] == w["best"]:
            assert w["cost"]["mean"] == 0 and w["choice"]
        assert not (w["choice"] and w["mistake"])
    for d in strategy:
        said = d["weighed"]["words"]  # capitalised after the law's sentence, not after a colon
        assert said in s["text"] or said[0].upper() + said[1:] in s["text"]


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        (dict(task="t", asks=["shuffle"]), "asks"),
        (dict(task="t", asks=[]), "asks"),
        (dict(task="t", asks="declare"), "asks"),
        (dict(task="t", asks=["lead", "lead"]), "asks"),
        (dict(asks=["declare"]), "asks"),
        (dict(task="no spaces please"), "task"),
        (dict(task="t", stand_in="clairvoyant"), "bot"),
    ],
)
def test_bad_task_arguments_are_one_line_naming_the_field(kwargs: dict[str, object], field: str) -> None:
    with pytest.raises(InputError) as e:
        PlayController(1, **kwargs)  # type: ignore[arg-type]
    assert field in str(e.value) and "\n" not in str(e.value)
    # and in the book's worker: an error answered, never a traceback
    made = json.loads(B.create("play", json.dumps({"seed": 1, **kwargs}), "{}"))
    assert "error" in made and "Traceback" not in made["error"]


def test_the_book_makes_the_same_task_again() -> None:
    w = L.task("must-deal-3")
    spec = w.controller.live_spec()
    assert spec is not None
    args = spec["args"]
    assert args["task"] == "must-deal-3" and args["must"] is True and args["asks"] == list(DECISIONS)
    made = json.loads(B.create("play", json.dumps(args), json.dumps(w.controller.state())))
    assert made["state"]["data"]["task"] == w.data["task"]
    assert made["state"]["data"]["cards"] == w.data["cards"]
    B.drop(made["id"])
    w.close()


def test_a_saved_task_loads_as_the_same_task(tmp_path: Path) -> None:
    c = make("05")
    c.choose("play")
    saved = c.save(tmp_path / "task.json")
    back = PlayController.load(saved)
    assert back.task == "lesson-05" and back.asks == ("declare", "lead")
    assert back.hand.actions == c.hand.actions and back.decisions == c.decisions
    while not c.over:  # the moves that test nothing are played for him, in both alike
        key = c.legal[0]
        c.choose(key)
        back.choose(key)
    assert back.score() == c.score() and back.over


@pytest.mark.parametrize(
    ("learner", "field"),
    [
        ({"asks": ["declare", "shuffle"]}, "transcript.learner.asks"),
        ({"asks": "declare"}, "transcript.learner.asks"),
        ({"task": 7}, "transcript.learner.task"),
        ({"task": "a b"}, "transcript.learner.task"),
    ],
)
def test_a_saved_task_with_a_bad_entry_is_refused_naming_it(
    tmp_path: Path, learner: dict[str, object], field: str
) -> None:
    c = make("05")
    data = c.transcript()
    data["learner"] |= learner
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ScenarioError) as e:
        PlayController.load(path)
    assert str(e.value).startswith(field) and "\n" not in str(e.value)


def test_the_review_weighs_only_the_learners_own_decisions() -> None:
    c = make("03")  # he declares; the stand-in leads and follows for him
    c.choose("play")
    reviewed = c.review()
    # his declaration alone (the stand-in's cards are not his to answer for)
    assert [d["move"] for d in reviewed["decisions"]] == [2]
    assert reviewed["mistakes"] == sum(d["mistake"] for d in reviewed["decisions"])


# --- the coach's part of the score (issue 18, deliver 1 and 3) ---------------------------------


def coachs_best(c: PlayController) -> str:
    """The coach's first choice now, as the review weighs this very position (its rollouts and
    its seed for this move)."""
    return coach(
        c.hand, c.seat, rollouts=c.coaching.review_rollouts, seed=c.coaching.seed + len(c.hand.actions)
    ).moves[0].key


@pytest.mark.parametrize("lesson", ["03", "06", "08"])
def test_the_coach_part_is_the_review_of_his_own_decisions(lesson: str) -> None:
    c = make(lesson)
    c.choose("play")  # he stands (so that the stand-in has moves to make in lesson 3's task)
    play_through(c, random.Random(int(lesson) + 100))
    s = c.score()
    assert s is not None
    # the review on the same hand, worked out afresh, restricted to the learner's own moves
    fresh = Coaching(c.seat, c.rng_seed, TASK_ROLLOUTS, TASK_ROLLOUTS).review(c.hand, c.own_moves())
    decisions = fresh["decisions"]
    assert s["decisions"] == len(decisions) and s["mistakes"] == fresh["mistakes"]
    assert [(w["move"], w["played"], w["best"], w["cost"], w["mistake"]) for w in s["weighed"]] == [
        (d["move"], d["played"], d["best"], d["cost"], d["mistake"]) for d in decisions
    ]
    assert s["given_up"] == round(sum(d["cost"]["mean"] for d in decisions), 2)
    # the coach's choice: its first, or one its interval cannot tell from it
    assert s["coach_choice"] == sum(d["played"] == d["best"] or d["cost"]["low"] <= 0 for d in decisions)
    # only his own moves: never one the stand-in made for him; his forced moves are no decision
    mine = c.own_moves()
    seat_moves = {i for i, e in enumerate(c.moves()) if e["seat"] == c.seat}
    assert {w["move"] for w in s["weighed"]} <= mine <= seat_moves
    assert s["forced"] == len(mine) - s["decisions"]
    if set(c.asks) != set(DECISIONS):
        assert seat_moves - mine, "the stand-in made some of the seat's moves"
    # and "Review my decisions" shows the very same review
    assert c.review()["decisions"] == decisions


def test_the_coach_weighs_the_deal_once_when_it_ends(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    real = sim_review

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr("loo_lessons.widgets.controllers.coaching.review", counted)
    c = make("08")
    rng = random.Random(3)
    while not c.over:
        assert calls == []  # nothing weighed before the end
        c.choose(rng.choice(c.legal))
    first = c.score()
    for _ in range(3):
        c.handle_request({"n": 1, "type": "hint"})  # refused (the deal is over), data redrawn
    assert c.score() == first and c.data["task"]["score"] == first and calls == [1]
    c.review()  # the button's review: already weighed
    assert calls == [1]


def test_playing_the_coachs_best_is_all_the_coachs_choice() -> None:
    c = make("08")
    while not c.over:
        c.choose(coachs_best(c))
    s = c.score()
    assert s is not None
    n = s["decisions"]
    assert n >= 2 and s["coach_choice"] == n and s["mistakes"] == 0 and s["given_up"] == 0
    assert all(w["played"] == w["best"] for w in s["weighed"])
    assert "★★★" in s["text"] and s["star_count"] == 3
    assert "gave up" not in s["text"]


def test_throwing_up_the_ace_and_king_of_trumps_is_a_mistake_named() -> None:
    c = PlayController(78, seat=1, task="ak-trumps", asks=["declare"])
    h = c.hand
    assert {x.code for x in h.held[1] if x.suit is h.trumps} >= {"AH", "KH"} and "pass" in c.legal
    c.choose("pass")
    s = c.score()
    assert s is not None
    assert (s["decisions"], s["coach_choice"], s["mistakes"]) == (1, 0, 1)
    (w,) = s["weighed"]
    assert w["played"] == "pass" and w["best"] == "play" and w["mistake"] and not w["choice"]
    assert s["given_up"] == w["cost"]["mean"] > 0.5
    assert "★★☆" in s["text"] and not s["stars"]["coach"]
    assert f"throwing up gave up about {w['cost']['mean']:.1f} counters on average, a mistake" in s["text"]
    assert "the coach would have stood" in s["text"] and "Strategy, not law" in s["text"]


def test_a_costly_lead_names_the_card_and_the_coachs_card() -> None:
    c = make("08")
    rng = random.Random(8)
    while not c.over:  # the worst lead the coach sees, every time he leads
        if decision_kind(c.hand) == "lead" and len(c.legal) > 1:
            advice = coach(c.hand, c.seat, rollouts=c.coaching.review_rollouts, seed=c.coaching.seed + len(c.hand.actions))
            c.choose(advice.moves[-1].key)
        else:
            c.choose(rng.choice(c.legal))
    s = c.score()
    assert s is not None
    costly = [w for w in s["weighed"] if w["kind"] == "lead" and not w["choice"]]
    assert costly, s["weighed"]
    for w in costly:
        played, best = card_label(w["played"], the=True), card_label(w["best"], the=True)
        assert re.search(f"[Ll]eading {re.escape(played)} gave up about", s["text"])
        assert f"the coach would have led {best}" in s["text"]
    assert s["coach_choice"] < s["decisions"] and s["given_up"] > 0


@pytest.mark.parametrize(
    ("kwargs", "moves", "why"),
    [
        (dict(seed=3, asks=["follow"]), [], "Nothing in this deal tested you"),
        (dict(seed=3, asks=["declare"], must=True), ["play"], "You found it first time"),
        (dict(seed=3, asks=["declare"], must=True), ["pass", "play"], "You found it after a refusal"),
    ],
)
def test_a_forced_move_found_is_scored_as_a_skill(kwargs: dict[str, Any], moves: list[str], why: str) -> None:
    """Finding the one move the rules allow is scored ("found first time", no refusal before
    it), never reported as "no decision"; a refusal before it costs that and the rules' star."""
    c = PlayController(task="none-to-weigh", seat=1, **kwargs)
    for m in moves:
        with contextlib.suppress(IllegalChoice):
            c.choose(m)
    s = c.score()
    assert s is not None and s["decisions"] == 0 and s["coach_choice"] == 0 and s["given_up"] == 0
    forced = len(set(moves) - {"pass"})
    assert s["forced"] == forced and s["forced_found"] == (forced if "pass" not in moves else 0)
    assert why in s["text"] and "no decision" not in s["text"]
    assert s["stars"]["rules"] == ("pass" not in moves)
    assert s["stars"]["coach"]  # nothing the coach could weigh went against it


def test_the_coach_part_is_reproducible_from_the_seed() -> None:
    scores = []
    for _ in range(2):
        c = make("06")
        play_through(c, random.Random(6))
        scores.append(c.score())
    assert scores[0] == scores[1] and scores[0] is not None and scores[0]["decisions"] >= 1
    # the table's seed seeds the coach: another seed for the bots and the coach, other figures
    other = PlayController(14, seat=3, task="lesson-06", rng_seed=15)
    play_through(other, random.Random(6))
    o = other.score()
    assert o is not None and o["rollouts"] == scores[0]["rollouts"]
