"""Front-end components without a browser: data, models, click(), static export.

The positions come from the shipped scenario library, whose answers were worked out by
hand from the books (each file's `expect:`); the assertions below restate those answers
(rule ids, legal cards, payments) as the books give them, not as the engine prints them.
Hypothesis fires random click sequences at every live component: nothing raises and the
state never becomes inconsistent (score <= answered <= questions, steps in range, …).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import loo_lessons
from loo_lessons import quiz
from loo_lessons.engine.cards import parse_card
from loo_lessons.engine.game import Hand
from loo_lessons.explain.steps import stepper_steps
from loo_lessons.explain.table import table_view
from loo_lessons.quiz.model import Question
from loo_lessons.quiz.pick import pick_question
from loo_lessons.quiz.pool_sum import pool_data
from loo_lessons.scenario import load_file
from loo_lessons.views.html import SUIT_PATHS, CardsView, DealView, TrickView, card_html, card_svg
from loo_lessons.widgets import bundle, static
from loo_lessons.widgets.controllers.quiz import QuizController, quiz_reduce
from loo_lessons.widgets.live import (
    CardRow,
    PickCard,
    PoolCalculator,
    QuizRunner,
    Stepper,
    TableView,
    played_out,
)

SCENARIOS = Path(loo_lessons.__file__).parent / "scenarios"
JS = Path(loo_lessons.__file__).parent / "widgets" / "js"


def scenario(name: str) -> Any:
    return load_file(SCENARIOS / f"{name}.yaml")


def bank() -> list[dict[str, Any]]:
    """Four questions whose answers the books give plainly (see each scenario's description)."""
    return [
        # R23: holding the ace of trumps he must lead it (4H and 9D are forbidden by R23)
        pick_question(scenario("lead-ace-of-trumps"), qid="ace", topic="lead"),
        # R30: the winner of trick 1 holds a trump (6S): he must lead it, not the QD
        pick_question(scenario("trump-after-trick-lead-a-trump"), qid="tat", topic="trick"),
        # R27: only two declared, QH and JH in sequence: either may be led, not the 9C
        pick_question(scenario("lead-two-declared-sequence"), qid="seq", topic="lead"),
        # R18: one stood on his own cards, the miss untaken: the dealer may not pass
        pick_question(scenario("dealer-lone-stander"), qid="lone", topic="dealer"),
    ]


# --- the JS modules and the build step -----------------------------------------------------


@pytest.mark.parametrize("name", bundle.COMPONENTS)
def test_every_component_bundles_to_one_module(name: str) -> None:
    code = bundle.esm(name)
    assert len(re.findall(r"^export default", code, re.M)) == 1
    assert "render({ model, el })" in code
    assert not re.search(r"^\s*import\b", code, re.M), "every import must be inlined"
    script = bundle.script(name)
    assert "export " not in script and "const __component = " in script
    # nothing is fetched: the only URL is the SVG namespace, which is a name, not a request
    urls = set(re.findall(r"https?://[^\s\"'`)]+", code))
    assert urls <= {"http://www.w3.org/2000/svg"}
    # in the code, not in its comments: a JSDoc type names its module as import("./types")
    bare = _without_comments(code)
    assert "fetch(" not in bare and "XMLHttpRequest" not in bare and "import(" not in bare


def _without_comments(js: str) -> str:
    """The JavaScript without its /* */ and // comments (a // after a colon, as in a URL in a
    string, stays)."""
    js = re.sub(r"/\*.*?\*/", "", js, flags=re.S)
    return re.sub(r"(^|[\s;,{}()])//.*$", r"\1", js, flags=re.M)


def test_components_use_only_the_four_model_calls() -> None:
    """get, set, save_changes, on: anywidget's model, the static stand-in and the book's
    engine model all have them. `dispatch` (an event for the book's Python controller) is
    used only where the model has it (anywidget's and the static one do not)."""
    used: set[str] = set()
    for f in JS.glob("*.js"):
        if f.stem in ("engine", "worker"):  # the book's back end: it provides the model
            continue
        text = f.read_text()
        used |= set(re.findall(r"\bmodel\.(\w+)", text))
        calls = len(re.findall(r"\bmodel\.dispatch\(", text))
        guarded = len(re.findall(r'typeof model\.dispatch [!=]== "function"', text))
        assert calls <= guarded, f"{f.name}: model.dispatch used without checking for it"
    assert used == {"get", "set", "save_changes", "on", "dispatch"}


def test_bundler_refuses_name_clashes_and_unknown_imports(monkeypatch: pytest.MonkeyPatch) -> None:
    files = {
        "a": 'import { x } from "./b.js";\nexport function x2() {}\nconst y = 1;\nexport default {};\n',
        "b": "export function x() {}\nconst y = 2;\nexport default {};\n",
        "c": 'import { nothere } from "./b.js";\nexport default {};\n',
    }
    monkeypatch.setattr(bundle, "source", lambda name: files[name])
    bundle.esm.cache_clear()
    try:
        with pytest.raises(bundle.BundleError, match="y is declared in both"):
            bundle.esm("a")
        with pytest.raises(bundle.BundleError, match="does not export"):
            bundle.esm("c")
    finally:
        bundle.esm.cache_clear()
        bundle.script.cache_clear()


def test_python_and_js_draw_the_same_suit_shapes() -> None:
    js = (JS / "cards.js").read_text()
    for suit, path in SUIT_PATHS.items():
        assert f'{suit}: "{path}"' in js


# --- _repr_html_ helpers (view_html) ----------------------------------------------------------


def test_card_svg_has_label_symbol_and_colour() -> None:
    qh = card_svg("QH")
    assert 'aria-label="queen of hearts"' in qh and 'role="img"' in qh
    assert "#c1121f" in qh and SUIT_PATHS["H"] in qh  # red AND the heart shape
    ts = card_svg(parse_card("10S"))
    assert 'aria-label="ten of spades"' in ts and "#111111" in ts and SUIT_PATHS["S"] in ts
    assert ">10</text>" in ts
    assert 'aria-label="face-down card"' in card_svg(None)
    assert 'width="108"' in card_html(parse_card("AH"))  # big enough to project


def test_cards_and_trick_views() -> None:
    row = CardsView(["AH", "7C"], label="seat 1's hand")._repr_html_()
    assert row.count("<svg") == 2 and 'aria-label="seat 1&#x27;s hand"' in row
    assert "no cards" in CardsView([])._repr_html_()
    tv = TrickView([(1, "AH"), (2, "4D"), (3, "7D")], winner=1)
    html = tv._repr_html_()
    assert "seat 1 wins" in html and "seat 2" in html and "won by seat 1" in html
    sc = scenario("settle-hoffmann-worked-example-played-out")
    first = sc.hand.completed_tricks()[0]
    assert "seat 1 wins" in TrickView.from_trick(first)._repr_html_()  # R23: the AH takes it
    deal = DealView(Hand.from_seed(3, 4))._repr_html_()
    assert deal.count("<svg") == 4 * 3 + 1  # four hands and the turn-up


# --- the data ---------------------------------------------------------------------------------


def test_table_view_of_a_position() -> None:
    # spades trumps; trick 1: seat 1 9C, seat 2 KC, seat 3 trumps with 5S and wins (R35, R37)
    v = table_view(scenario("trump-after-trick-lead-a-trump"))
    seats = {s["seat"]: s for s in v["seats"]}
    assert v["dealer"] == 0 and v["elder"] == 1 and v["trumps"] == "S" and v["turn_up"] == "2S"
    assert seats[0]["role"] == "dealer" and seats[1]["role"] == "elder"
    assert seats[0]["status"] == "out" and seats[3]["status"] == "in"
    assert seats[3]["tricks_won"] == 1 and seats[3]["cards"] == ["6S", "QD"]
    assert v["to_act"] == 3 and v["trick"] == []
    assert v["tricks"] == [{"leader": 1, "plays": [[1, "9C"], [2, "KC"], [3, "5S"]], "winner": 3}]
    hidden = table_view(scenario("trump-after-trick-lead-a-trump"), reveal={3})
    assert [s["cards"] for s in hidden["seats"]] == [None, None, None, ["6S", "QD"]]
    declaring = table_view(scenario("dealer-lone-stander"))
    assert declaring["miss"] == [None, None, None]  # untaken, face down
    assert {s["seat"]: s["status"] for s in declaring["seats"]}[0] == "to_declare"


def test_pick_question_matches_the_books() -> None:
    q = pick_question(scenario("trump-after-trick-lead-a-trump"))
    Question.from_json(q)  # a valid question of the shared schema
    assert q["kind"] == "pick_card" and q["answer"] == ["6S"] and not q["multi"]
    assert q["verdicts"]["QD"]["rule_id"] == "R30" and not q["verdicts"]["QD"]["correct"]
    assert "trump after trick" in q["verdicts"]["QD"]["quote"]
    seq = pick_question(scenario("lead-two-declared-sequence"))
    assert seq["multi"] and set(seq["answer"]) == {"QH", "JH"}
    assert seq["verdicts"]["9C"]["rule_id"] == "R27"
    lone = pick_question(scenario("dealer-lone-stander"))
    assert lone["kind"] == "pick_declaration"
    assert set(lone["answer"]) == {"play", "take_miss", "play_miss_for_pool"}
    assert lone["verdicts"]["pass"]["rule_id"] == "R18"
    with pytest.raises(ValueError, match="nobody is to act"):
        pick_question(scenario("settle-hoffmann-worked-example-played-out"))


def test_pool_data_of_hoffmanns_worked_example() -> None:
    # [000]: "The first takes two-thirds, and the second one-third." "The remaining three
    # players are looed"; the loos and the new dealer's stake form the next pool (R38-R40)
    d = pool_data(scenario("settle-hoffmann-worked-example-played-out"))
    e = d["expected"]
    assert e["receives.1"] == 6 and e["receives.3"] == 3
    assert [e[f"pays.{s}"] for s in (0, 2, 4)] == [3, 3, 3]
    assert e["pays.1"] == e["pays.3"] == 0 and e["left"] == 0 and e["next_pool"] == 3 * 3 + 3
    assert {w["rule_id"] for w in d["working"]} >= {"R38", "R39", "R40"}
    assert any("tricks 1, 2" in r["tricks"] for r in d["seats"])


def test_stepper_steps_tell_the_deal() -> None:
    sc = scenario("settle-hoffmann-worked-example-played-out")
    steps = stepper_steps(sc)
    kinds = [s["kind"] for s in steps]
    assert kinds[0] == "deal" and kinds[-1] == "settle"
    assert kinds.count("declare") == 5 and kinds.count("play") == 15
    first = steps[kinds.index("play")]
    assert first["title"].startswith("Seat 1") and "leads the A♥" in first["title"]
    assert first["laws"][0]["rule_id"] == "R23"  # holding the ace of trumps, bound to lead it
    ends = [s for s in steps if "is complete" in s["text"]]
    assert [re.search(r"seat (\d) wins", s["text"]).group(1) for s in ends] == ["1", "1", "3"]  # type: ignore[union-attr]
    assert all(any(x["rule_id"] == "R37" for x in s["laws"]) for s in ends)
    assert ends[0]["view"]["trick_winner"] == 1 and len(ends[0]["view"]["trick"]) == 5
    assert steps[-1]["working"][-1]["text"].endswith("= 12.")
    assert sc.hand.actions  # the original is untouched by the replay
    assert len(sc.hand.winners) == 3


def test_stepper_of_a_deal_without_play() -> None:
    steps = stepper_steps(scenario("dealer-everyone-threw-up"))
    assert steps[-1]["kind"] == "settle"
    assert steps[-1]["laws"][0]["rule_id"] == "R14"


# --- live widgets: click() does what the browser does -----------------------------------------


def test_pick_card_click() -> None:
    """Every pick is select-then-Check (issue 15): a first click reveals nothing, whatever the
    number of right answers; Check grades; then a click shows that choice's verdict."""
    w = PickCard(scenario("trump-after-trick-lead-a-trump"))
    assert w.answer == ["6S"]  # one right answer, and still a Check
    assert w.picked == [] and w.verdict is None and w.first_correct is None
    v = w.click("QD")
    assert v["rule_id"] == "R30" and v["correct"] is False
    assert w.current is None and not w.revealed and w.first_correct is False  # nothing shown yet
    w.click("6S")
    w.click("QD")  # deselected
    assert w.picked == ["6S"] and w.current is None and not w.revealed
    w.check()
    assert w.revealed and w.correct is True
    w.click("QD")
    assert w.picked == ["6S"] and w.current == "QD" and w.verdict is not None and w.verdict["rule_id"] == "R30"
    with pytest.raises(KeyError):
        w.click("AS")
    w.reset()
    assert (w.picked, w.current, w.revealed) == ([], None, False)
    w.check()  # nothing selected: nothing graded
    assert not w.revealed
    w.show()
    assert w.revealed
    assert 'data-loo-component="pick"' in w.static_html()
    frozen = w.static()
    w.reset()  # the static copy keeps the state it was made with
    assert frozen.state["revealed"] is True and frozen._repr_html_() != w.static_html()


def test_quiz_runner_grades_and_scores_per_topic() -> None:
    r = QuizRunner(questions=bank(), title="t")
    assert r.score == {
        "answered": 0,
        "right": 0,
        "total": 4,
        "topics": [
            {"topic": "lead", "questions": 2, "answered": 0, "right": 0},
            {"topic": "trick", "questions": 1, "answered": 0, "right": 0},
            {"topic": "dealer", "questions": 1, "answered": 0, "right": 0},
        ],
    }
    v = r.click("4H")  # wrong: R23, the ace of trumps must be led
    assert v is not None and v["rule_id"] == "R23" and not v["correct"]
    assert r.score["right"] == 0 and r.score["answered"] == 1
    assert r.click("AH") is not None  # answered: a second click only shows that verdict
    assert r.score["right"] == 0 and r.inspect == "AH"
    r.next()
    assert r.click("6S") == r.questions[1]["verdicts"]["6S"]
    assert r.score["right"] == 1 and r.score["answered"] == 2
    r.next()
    assert r.click("QH") is None  # multi: selecting, not yet graded
    r.click("JH")
    r.click("QH")
    assert r.selected == ["JH"]
    r.click("QH")
    r.check()
    assert r.responses[2] == {"picked": ["QH", "JH"], "correct": True, "revealed": False}
    r.next()
    r.show()  # gave up: answered, not right
    assert r.responses[3] == {"picked": [], "correct": False, "revealed": True}
    r.next()
    assert r.index == 4 and r.question is None
    assert r.score["right"] == 2 and r.score["answered"] == 4
    assert {t["topic"]: t["right"] for t in r.score["topics"]} == {
        "lead": 1,
        "trick": 1,
        "dealer": 0,
    }
    with pytest.raises(IndexError):
        r.click("AH")
    r.next()
    assert r.index == 4
    r.restart()
    assert r.index == 0 and r.responses == [None] * 4 and r.score["answered"] == 0


def test_quiz_new_questions_from_python_and_from_the_browser() -> None:
    calls: list[tuple[Any, ...]] = []

    def gen(topic: str | None, seed: int, count: int, preset: str | None) -> list[Any]:
        calls.append((topic, seed, count, preset))
        return bank()[: 1 + seed % 4]

    r = QuizRunner("lead", seed=1, count=3, generator=gen)
    assert calls == [("lead", 1, 3, None)] and len(r.questions) == 2
    r.click(r.questions[0]["answer"][0])
    r.new_request += 1  # what the widget's "New questions" button sends
    assert calls[-1] == ("lead", 2, 3, None) and len(r.questions) == 3
    assert r.responses == [None] * 3 and r.index == 0

    def broken(topic: str | None, seed: int, count: int, preset: str | None) -> list[Any]:
        raise ValueError("no such topic")

    ctl = r.controller
    assert isinstance(ctl, QuizController)
    ctl._generator = broken
    r.press("new")
    assert "no such topic" in r.data["error"]


def test_quiz_runner_uses_the_quiz_generator() -> None:
    r = QuizRunner("follow", seed=3, count=4)
    assert [q["id"] for q in r.questions] == [q.id for q in quiz.generate("follow", 4, 3)]
    mixed = QuizRunner(None, seed=0, count=len(quiz.TOPICS))
    assert sorted(q["topic"] for q in mixed.questions) == sorted(quiz.TOPICS)


def test_pool_calculator() -> None:
    p = PoolCalculator(scenario("settle-hoffmann-worked-example-played-out"))
    marks = p.check()
    # blanks count as 0: right for seats 0, 2, 4 receiving, seats 1, 3 paying, and "left"
    assert marks["right"] == 6 and marks["total"] == 12
    for f, v in (("receives.1", 6), ("receives.3", 3), ("pays.0", 3), ("pays.2", 3), ("pays.4", 3)):
        p.enter(f, v)
    assert not p.checked  # typing un-checks
    p.enter("next_pool", 9)  # forgot the new dealer's stake (R40)
    res = p.check()
    assert res["right"] == 11 and not res["byField"]["next_pool"]
    p.enter("next_pool", 12)
    assert p.check()["right"] == 12
    p.enter("pays.0", None)
    assert "pays.0" not in p.entries
    with pytest.raises(KeyError):
        p.enter("receives.9", 1)
    p.show()
    assert p.revealed
    p.hide()  # the same button pressed again (issue 23)
    assert not p.revealed and p.entries
    p.show()
    p.reset()
    assert p.entries == {} and not p.checked and not p.revealed
    # from a bare Settlement (no table around it): the same expected values
    s = scenario("settle-hoffmann-worked-example-played-out").final_settlement
    bare = PoolCalculator(s)
    assert bare.expected == p.expected


def test_pick_card_from_a_question_mapping() -> None:
    q = bank()[2]  # R27: QH or JH, in sequence
    w = PickCard(q)
    assert w.question == q and w.click("9C")["rule_id"] == "R27"
    assert w.first_correct is False and set(w.answer) == {"QH", "JH"}


def test_stepper_and_table_and_cards() -> None:
    s = Stepper(scenario("settle-hoffmann-worked-example-played-out"))
    n = len(s.steps)
    s.prev()
    assert s.step == 0
    s.next()
    s.next()
    assert s.step == 2 and s.current["kind"] == "declare"
    s.last()
    assert s.step == n - 1 and s.current["kind"] == "settle"
    s.next()
    assert s.step == n - 1
    s.goto(-5)
    assert s.step == 0
    s.load(played_out(7, 4, "peel"))
    assert s.step == 0 and s.steps[-1]["kind"] == "settle"
    r = Stepper.random_deal(11, 3)
    assert r.steps[0]["kind"] == "deal"
    t = TableView(scenario("follow-over-trump"), title="x")
    assert t.data["view"]["to_act"] == 3
    t.update(scenario("lead-ace-of-trumps"))
    assert t.data["view"]["to_act"] == 1
    assert CardRow(["AH", None]).data["cards"] == ["AH", None]


def test_played_out_uses_only_legal_moves() -> None:
    h = played_out(5, 5, "hoffmann")
    assert h.settlement is not None
    replay = h.transcript().replay()  # apply() checks every move again
    assert replay.settlement == h.settlement


# --- static export ----------------------------------------------------------------------------


def test_component_html_is_self_contained_and_safe() -> None:
    evil = "</script><script>alert(1)</script><!--"
    frag = static.component_html("cards", {"data": {"cards": ["AH"], "title": evil}})
    assert "</script><script>alert(1)" not in frag and "<!--" not in frag.replace("<noscript>", "")
    assert frag.count("<script") == 2 and 'type="module"' in frag
    assert not re.search(r"\b(src|href)=", frag)
    assert static.embedded_states(frag)[0]["data"]["title"] == evil
    assert "alert(1)" not in frag  # the state is encoded: not in the page's text at all
    with pytest.raises(ValueError, match="unknown state keys"):
        static.component_html("pick", {"picks": []})
    with pytest.raises(ValueError, match="unknown component"):
        static.component_html("poker", {})


def test_quiz_page_is_a_whole_offline_page() -> None:
    qs = [Question.from_json(q) for q in bank()]
    page = static.quiz_page(qs, "Lead & trumps <quiz>")
    assert (
        page.startswith("<!DOCTYPE html>")
        and "<title>Lead &amp; trumps &lt;quiz&gt;</title>" in page
    )
    assert "Content-Security-Policy" in page and "default-src 'none'" in page
    (embedded,) = static.embedded_states(page)
    assert [q["id"] for q in embedded["questions"]] == ["ace", "tat", "seq", "lone"]
    assert embedded["data"]["live"] is False and embedded["responses"] == [None] * 4


def test_static_and_core_need_no_jupyter() -> None:
    code = (
        "import sys, loo_lessons.engine.game, loo_lessons.explain, loo_lessons.views.html\n"
        "assert not [m for m in sys.modules if m.startswith('loo_lessons.widgets')]\n"
        "import loo_lessons.widgets.static, loo_lessons.explain.table, loo_lessons.quiz.pick\n"
        "bad = {'anywidget', 'ipywidgets', 'traitlets'} & set(sys.modules)\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


# --- random click sequences ---------------------------------------------------------------------

QUIZ_EVENTS = st.one_of(
    st.sampled_from(["check", "show", "next", "prev", "restart"]).map(lambda t: {"type": t}),
    st.sampled_from(
        ["AH", "4H", "9D", "6S", "QD", "QH", "JH", "9C", "play", "pass", "take_miss", "zz"]
    ).map(lambda k: {"type": "choice", "key": k}),
)


def check_quiz(r: QuizRunner) -> None:
    n = len(r.questions)
    s = r.score
    assert 0 <= s["right"] <= s["answered"] <= s["total"] == n
    assert len(r.responses) == n and 0 <= r.index <= n
    for q, resp in zip(r.questions, r.responses, strict=True):
        keys = [c["key"] for c in q["choices"]]
        if resp is not None:
            assert set(resp["picked"]) <= set(keys)
            if resp["picked"]:
                assert resp["correct"] == Question.from_json(q).grade(resp["picked"])
            else:
                assert resp["revealed"] and not resp["correct"]
    q = r.question
    if q is not None:
        assert set(r.selected) <= {c["key"] for c in q["choices"]}
        assert r.inspect is None or r.inspect in {c["key"] for c in q["choices"]}
    else:
        assert r.selected == [] and r.inspect is None


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(QUIZ_EVENTS, max_size=40))
def test_random_quiz_clicks(events: list[dict[str, Any]]) -> None:
    r = QuizRunner(questions=bank())
    expected: dict[str, Any] = {
        "index": 0,
        "responses": [None] * 4,
        "selected": [],
        "inspect": None,
    }
    for ev in events:
        q = r.question
        if ev["type"] == "choice":
            if q is None or ev["key"] not in [c["key"] for c in q["choices"]]:
                with pytest.raises((KeyError, IndexError)):
                    r.click(ev["key"])
                continue
            r.click(ev["key"])
        else:
            r.press(ev["type"])
        expected = quiz_reduce(r.questions, expected, ev)
        check_quiz(r)
    assert {k: getattr(r, k) for k in expected} == expected


@settings(max_examples=40, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(["6S", "QD", "AH", "show", "check", "reset"])), max_size=25))
def test_random_pick_clicks(events: list[str]) -> None:
    w = PickCard(scenario("trump-after-trick-lead-a-trump"))
    for e in events:
        if e == "show":
            w.show()
        elif e == "check":
            w.check()
        elif e == "reset":
            w.reset()
        elif e in w.choices:
            assert w.click(e)["correct"] == (e == "6S")
        else:
            with pytest.raises(KeyError):
                w.click(e)
        assert len(set(w.picked)) == len(w.picked) and set(w.picked) <= set(w.choices)
        assert w.current is None or w.revealed  # no verdict shows before the answer is revealed


POOL_FIELDS = [f["id"] for f in pool_data(scenario("settle-peel-loo-of-six"))["fields"]]


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.tuples(st.sampled_from(POOL_FIELDS), st.one_of(st.none(), st.integers(-3, 20))),
            st.sampled_from(["check", "show", "reset"]),
        ),
        max_size=30,
    )
)
def test_random_pool_entries(events: list[Any]) -> None:
    p = PoolCalculator(scenario("settle-peel-loo-of-six"))
    for e in events:
        if isinstance(e, tuple):
            p.enter(*e)
            assert not p.checked
        else:
            getattr(p, e)()
        res = p.results
        assert set(p.entries) <= set(p.fields) and 0 <= res["right"] <= res["total"] == len(
            p.fields
        )
        assert res["right"] == sum((p.entries.get(f) or 0) == p.expected[f] for f in p.fields)


@settings(max_examples=40, deadline=None)
@given(
    st.integers(0, 10_000),
    st.integers(2, 7),
    st.lists(st.sampled_from(["next", "prev", "first", "last", "goto"]), max_size=30),
    st.integers(-3, 40),
)
def test_random_stepper_moves(seed: int, players: int, moves: list[str], target: int) -> None:
    s = Stepper(played_out(seed, players))
    n = len(s.steps)
    # one step for the deal, one per move, one for the settlement
    assert n == 2 + len(played_out(seed, players).actions)
    for m in moves:
        if m == "goto":
            s.goto(target)
        else:
            getattr(s, m)()
        assert 0 <= s.step < n
    json.dumps(s.data)  # everything sent to the browser is plain JSON


# --- every shipped scenario ---------------------------------------------------------------------

FILES = sorted(SCENARIOS.glob("*.yaml"))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_every_scenario_draws(path: Path) -> None:
    sc = load_file(path)
    expect = (yaml.safe_load(path.read_text(encoding="utf-8")) or {}).get("expect") or {}
    hand = sc.hand
    before = (list(hand.actions), len(hand.penalties), hand.settlement, hand.phase)
    steps = stepper_steps(sc)
    assert (list(hand.actions), len(hand.penalties), hand.settlement, hand.phase) == before
    over = sc.final_settlement is not None
    assert len(steps) == 1 + len(hand.actions) + len(hand.penalties) + over
    json.dumps(steps)
    view = table_view(sc)
    assert len(view["seats"]) == hand.setup.players
    if over:
        d = pool_data(sc)
        s = expect.get("settlement") or {}
        for seat, n in (s.get("receives") or {}).items():
            assert d["expected"][f"receives.{seat}"] == n, seat  # the hand-worked answer
        for seat, n in (s.get("loo_pays") or {}).items():
            assert d["expected"][f"pays.{seat}"] == n, seat
        if "next_pool" in s:
            assert d["expected"]["next_pool"] == s["next_pool"]
    elif hand.to_act is not None and sc.phase.value != "deal":
        q = pick_question(sc)
        Question.from_json(q)
        if "legal" in expect:
            assert sorted(q["answer"]) == sorted(expect["legal"])
        for key, rule_id in (expect.get("illegal_rule_ids") or {}).items():
            assert q["verdicts"][key]["rule_id"] == rule_id and not q["verdicts"][key]["correct"]
