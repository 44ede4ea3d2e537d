"""The widget controllers (loo_lessons.widgets.controllers) without a browser.

They are the one back end of every component: the book's engine runs them in Pyodide, the
anywidget classes in the kernel. Checked here: they import nothing but the standard library
and the package (no ipywidgets, anywidget, traitlets, pandas, matplotlib); random and
hostile messages (Hypothesis) never raise, never leave a state the component cannot draw,
and are refused with a message in the widget; the browser entry points answer garbage with
an error, not an exception; the kernel's widgets put an out-of-range synced value back and
say so; the quiz's clock never gives a negative time; a browser "save" writes only inside
the working directory; a quiz the page hands to the book's engine is dealt and graded again
by it, its timed answers recorded.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_pass_play import assert_nothing_secret

from loo_lessons import lessons as L
from loo_lessons.explain.steps import stepper_steps
from loo_lessons.quiz.pick import pick_question
from loo_lessons.quiz.pool_sum import pool_data
from loo_lessons.widgets.backends import browser as B
from loo_lessons.widgets.controllers import (
    Controller,
    ExploreController,
    PickController,
    PoolController,
    PresentController,
    QuizController,
    Refused,
    StepperController,
)
from loo_lessons.widgets.controllers.explore import DeclarationsController
from loo_lessons.widgets.controllers.lab import LabController
from loo_lessons.widgets.controllers.pass_play import PassPlayController
from loo_lessons.widgets.controllers.play import PlayController, inside_working_directory
from loo_lessons.widgets.controllers.practice import PracticeController
from loo_lessons.widgets.controllers.present import present_data
from loo_lessons.widgets.controllers.search import SearchController
from loo_lessons.widgets.controllers.seat import SeatController
from loo_lessons.widgets.static import decoded_html

ROOT = Path(__file__).resolve().parent.parent

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**12), 10**12) | st.text(max_size=6),
    lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=4), c, max_size=3),
    max_leaves=6,
)


def test_controllers_need_no_jupyter_pandas_or_matplotlib() -> None:
    code = (
        "import sys, json\n"
        "import loo_lessons.widgets.backends.browser as b\n"
        "r = json.loads(b.create('play', json.dumps({'seed': 1})))\n"
        "assert r['state']['data']['my_turn']\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in "
        "('ipywidgets', 'anywidget', 'traitlets', 'pandas', 'matplotlib', 'IPython', 'numpy'))\n"
        "print(json.dumps(bad))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert json.loads(out.stdout) == []


# --- the controllers, fuzzed ------------------------------------------------------------------


def _pick() -> PickController:
    return PickController(data={"question": pick_question(L.scenario("lead-king-when-ace-turned"))})


def _pool() -> PoolController:
    return PoolController(data=pool_data(L.scenario("settle-hoffmann-worked-example")))


MAKERS: dict[str, Callable[[], Controller]] = {
    "pick": _pick,
    "pool": _pool,
    "stepper": lambda: StepperController(
        data={"steps": stepper_steps(L.scenario("follow-suit")), "title": None}
    ),
    "present": lambda: PresentController(data=present_data(7)),
    "quiz": lambda: QuizController("lead", 1, 3),
    "explore": lambda: ExploreController(
        scenario=L.scenario("follow-under-trump-hoffmann").data,
        options=("must_head_in_suit", "void_trump_rule"),
    ),
    "declarations": lambda: DeclarationsController(
        scenario=L.scenario("declare-declined-miss-goes-round").data
    ),
    "play": lambda: PlayController(5, 4, "hoffmann", 1),
    "passplay": lambda: PassPlayController(5, 4, "hoffmann", people=(0, 2)),
    "lab": lambda: LabController(hands=20, players=4),
    "search": lambda: SearchController(count=50),
    # off the hub: every join is refused in one line (tests/test_seat.py plays at a table)
    "seat": lambda: SeatController(follow=False),
    # the record in the page's storage: nothing written to the learner's folder
    "practice": lambda: PracticeController(keep="page", seed=1, size=3),
}


def _keys(ctl: Any) -> list[Any]:
    """Keys that mean something to this controller now (so that fuzzing also moves it)."""
    d = ctl.data
    if isinstance(ctl, PickController):
        return [c["key"] for c in d["question"]["choices"]]
    if isinstance(ctl, QuizController) and ctl.index < len(ctl.questions):
        return [c["key"] for c in ctl.questions[ctl.index]["choices"]]
    if isinstance(ctl, PoolController):
        return [f["id"] for f in d["fields"]]
    if isinstance(ctl, PlayController):
        return ctl.options or ["KH"]
    if isinstance(ctl, ExploreController):
        return list(d["keys"])
    if isinstance(ctl, DeclarationsController):
        return [*d["seats"], "stand", "take miss", "throw up"]
    if isinstance(ctl, PracticeController) and d.get("item"):
        return [c["key"] for c in d["item"]["question"]["choices"]]
    return [0, 1, 2]


def _message(data: st.DataObject, ctl: Any) -> Any:
    keys = _keys(ctl)
    types = [*ctl.EVENTS, "bogus", "__class__", *(("show", "start", "next") if isinstance(ctl, PassPlayController) else ())]
    ev: dict[str, Any] = {"type": data.draw(st.sampled_from(types) | JSON, label="type")}
    for name in ("key", "id", "value", "step", "seed", "players", "rules", "faces", "preset", "hands", "count", "name", "by", "seat"):
        if data.draw(st.booleans(), label=f"has {name}"):
            ev[name] = data.draw(
                st.sampled_from(keys) | st.integers(-3, 20) | st.sampled_from(["peel", "up", "x"]) | JSON,
                label=name,
            )
    if isinstance(ctl, PlayController | ExploreController | DeclarationsController | LabController | SearchController | PracticeController):
        req = {**ev, "n": data.draw(st.integers(-1, 50), label="n")}
        if isinstance(ctl, PlayController) and data.draw(st.booleans(), label="legal move"):
            req = {"n": 1, "type": "choose", "key": data.draw(st.sampled_from(ctl.legal or ["KH"]))}
        if isinstance(ctl, PlayController) and req.get("type") == "save":
            req["path"] = data.draw(st.sampled_from(["x.json", "/etc/passwd", "../y", ""]) | JSON)
        return data.draw(
            st.sampled_from([{"sync": {"request": req}}, {"event": {"type": "request", "request": req}}])
            | st.builds(lambda s: {"sync": s}, st.dictionaries(st.sampled_from([*ctl.SYNCED, "data", "zz"]), JSON, max_size=2)),
            label="message",
        )
    return data.draw(
        st.sampled_from([{"event": ev}])
        | st.builds(lambda s: {"sync": s}, st.dictionaries(st.sampled_from([*ctl.SYNCED, "data", "zz"]), JSON | st.sampled_from(keys), max_size=2))
        | JSON,
        label="message",
    )


def _drawable(kind: str, ctl: Any) -> None:
    """The state is one the component can draw (what its JS reducer would normalise to)."""
    state = ctl.state()
    json.dumps(state, allow_nan=False)  # crosses the worker boundary as strict JSON
    ctl.static_html().encode("utf-8")  # and renders as a page can hold it
    assert set(state) == set(type(ctl).TRAITS)
    assert ctl._normalise({k: state[k] for k in ctl.SYNCED if k != "request"}) is not None
    if kind in ("stepper", "present"):
        assert 0 <= ctl.step < max(1, len(ctl.data["steps"]))
    if kind == "present":
        assert ctl.faces in ("up", "hidden")
    if kind == "quiz":
        assert 0 <= ctl.index <= len(ctl.questions)
        assert len(ctl.responses) == len(ctl.questions)
    if kind == "pick":
        keys = _keys(ctl)
        assert all(k in keys for k in ctl.picked)
    if kind == "play":
        h = ctl.hand
        assert h.to_act is None or h.to_act == ctl.seat  # the bots never leave a move waiting
        assert ctl.data["over"] == (h.to_act is None)
    if kind == "passplay":
        assert_nothing_secret(ctl)  # the pass screen shows no card of any hand
    if kind == "explore":
        assert ctl.data["kind"] in ("pick", "pool", "refused")
    if kind == "declarations":
        assert ctl.data["kind"] in ("pick", "explained", "refused")
        assert [x["seat"] for x in ctl.data["declarations"]] == ctl.data["seats"] == [1, 2]
    if kind == "lab":
        r = ctl.data["result"]
        assert r is None or sum(x["hands"] for x in r["rates"]) >= 0
        assert 1 <= ctl.data["settings"]["hands"] <= 5000
    if kind == "search":
        assert 1 <= ctl.data["find"]["count"] <= 5000
    if kind == "practice":
        d = ctl.data
        assert d["done"] == (d["item"] is None)
        assert d["score"]["answered"] == len(d["record"]["answers"])
        assert all(k in _keys(ctl) for k in d["picked"])


@pytest.mark.parametrize("kind", list(MAKERS))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_messages_never_raise_and_leave_a_drawable_state(kind: str, data: st.DataObject) -> None:
    ctl = MAKERS[kind]()
    for _ in range(data.draw(st.integers(1, 6), label="messages")):
        msg = _message(data, ctl)
        changes = ctl.receive(msg)
        assert isinstance(changes, dict)
        json.dumps(changes)
        _drawable(kind, ctl)


#: What JSON cannot carry though Python's json writes it: NaN, infinities, a lone surrogate.
UNSENDABLE = st.sampled_from([math.nan, math.inf, -math.inf, "\ud800", "a\udfffb"])


def _planted(data: st.DataObject, value: Any, bad: Any, top: bool = False) -> tuple[Any, list[str]]:
    """`value` with `bad` planted at a random place inside it (its path, for the refusal)."""
    if isinstance(value, dict) and value and (top or data.draw(st.booleans(), label="deeper")):
        k = data.draw(st.sampled_from(sorted(value)), label="into")
        inner, path = _planted(data, value[k], bad)
        return {**value, k: inner}, [k, *path]
    return bad, []


@pytest.mark.parametrize("kind", ["play", "quiz", "pick", "explore"])
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_crafted_nan_or_lone_surrogate_is_refused_naming_where(kind: str, data: st.DataObject) -> None:
    """A message carrying NaN or a lone surrogate anywhere (the play table's `save_name` and
    `request`, any synced trait, any event) is refused in one line naming where it was; the
    state stays strict JSON and the static render stays UTF-8."""
    ctl = MAKERS[kind]()
    before = {k: v for k, v in ctl.state().items() if k != "data"}
    good = _message(data, ctl)
    if not isinstance(good, dict) or not good:
        good = {"sync": {}}
    if isinstance(ctl, PlayController) and data.draw(st.booleans(), label="a named trait"):
        name = data.draw(st.sampled_from(["save_name", "request"]), label="trait")
        good = {"sync": {name: {"n": 1, "type": "save", "path": "x"} if name == "request" else "x"}}
    bad = data.draw(UNSENDABLE, label="bad")
    msg, path = _planted(data, good, bad, top=True)
    ctl.receive(msg)
    why = ctl.data["refused"]
    assert "\n" not in why and len(why) <= 300
    assert why.startswith("message") and all(k in why for k in path if k.isidentifier()), (why, path)
    assert "not JSON" in why or "surrogate" in why
    assert {k: v for k, v in ctl.state().items() if k != "data"} == before  # nothing taken
    _drawable(kind, ctl)


def test_the_two_crafted_states_of_the_play_table_are_refused() -> None:
    """Issue 25: a lone surrogate in `save_name` broke the static render; NaN in `request`
    left a state that is not JSON. Both are refused in one line naming the field."""
    ctl = PlayController(5, 4, "hoffmann", 1)
    ctl.receive({"sync": {"save_name": "deal\udc80.json"}})
    assert ctl.data["refused"] == "message.sync.save_name: text that is not UTF-8 (a lone surrogate)"
    assert ctl.save_name == ""
    ctl.receive({"sync": {"request": {"n": math.nan, "type": "hint"}}})
    assert ctl.data["refused"] == "message.sync.request.n: nan is not JSON"
    assert ctl.request == PlayController(5, 4, "hoffmann", 1).request
    _drawable("play", ctl)


def test_refusals_are_shown_in_the_widget_and_cleared_by_the_next_good_message() -> None:
    ctl = _pick()
    changes = ctl.receive({"event": {"type": "choice", "key": "ZZ"}})
    assert "key must be one of" in changes["data"]["refused"] and ctl.picked == []
    ctl.receive({"sync": {"picked": ["ZZ"]}})
    assert "picked" in ctl.data["refused"] and ctl.picked == []
    ctl.receive({"nonsense": 1})
    assert "message is" in ctl.data["refused"]
    key = _keys(ctl)[0]
    changes = ctl.receive({"event": {"type": "choice", "key": key}})
    assert "refused" not in ctl.data and ctl.picked == [key]
    # the pool calculator refuses absurd numbers instead of keeping them
    pool = _pool()
    pool.receive({"event": {"type": "enter", "id": _keys(pool)[0], "value": 10**400}})
    assert pool.state()["entries"] == {} and "value" in pool.data["refused"]


def test_the_browser_entry_answers_garbage_with_an_error() -> None:
    assert "error" in json.loads(B.create("nope"))
    assert "error" in json.loads(B.create("pick", "[1]"))
    assert "error" in json.loads(B.create("pick", "{not json"))  # JSONDecodeError is a ValueError
    assert "error" in json.loads(B.send(10**9, "{}"))
    made = json.loads(B.create("quiz", json.dumps({"topic": "lead", "seed": 2, "count": 2})))
    assert "refused" in json.loads(B.send(made["id"], "[]"))["changes"]["data"]  # the controller says no, in the widget
    out = json.loads(B.send(made["id"], json.dumps({"event": {"type": "new"}})))
    assert len(out["changes"]["questions"]) == 2
    assert json.loads(B.drop(made["id"])) == {"dropped": True}
    assert "error" in json.loads(B.run("eval", "{}"))
    said = json.loads(B.run("explain", json.dumps({"text": L.scenario_text("lead-king-when-ace-turned")})))
    assert said["ok"] and "R24" in said["text"] and said["json"]["legal"] == ["KS"]
    assert "<blockquote" in said["html"]  # the citations set as quotations, not a terminal dump
    refused = json.loads(B.run("explain", json.dumps({"text": "players: 0\n"})))
    assert not refused["ok"] and refused["error"].startswith("error: players: ")


def test_the_book_saves_a_transcript_as_a_download_and_writes_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    ctl = PlayController(5, 4, "hoffmann", 1)
    ctl.files = False  # as the book's back end makes it (backends.browser.create)
    ctl.receive({"sync": {"request": {"n": 1, "type": "save", "path": "/tmp/evil.json"}}})
    dl = ctl.data["download"]
    assert dl["name"] == "evil.json" and json.loads(dl["text"])["seed"] == 5
    assert list(tmp_path.iterdir()) == []


def test_a_browser_save_lands_inside_the_working_directory_only(tmp_path: Path) -> None:
    assert inside_working_directory("game", tmp_path) == tmp_path / "game.json"
    assert inside_working_directory("a/b.json", tmp_path) == tmp_path / "a" / "b.json"
    for bad in ("/etc/passwd", "../x.json", "a/../../x.json", "~/x.json", "", "a\0b"):
        with pytest.raises(Refused):
            inside_working_directory(bad, tmp_path)
    (tmp_path / "d.json").mkdir()
    with pytest.raises(Refused, match="not a file"):
        inside_working_directory("d.json", tmp_path)


# --- the kernel's widgets: synced values checked ----------------------------------------------


def test_out_of_range_values_from_the_browser_are_put_back_and_said() -> None:
    from loo_lessons.widgets.live import PickCard, QuizRunner

    q = QuizRunner("lead", seed=1, count=3)
    q.index = 99  # what a broken or hostile front end could sync: refused, the state stays
    assert q.index == 0 and "index" in q.data["refused"]
    assert q.question is not None and q.score["total"] == 3  # later reads still work
    q.responses = "nonsense"
    assert q.responses == [None, None, None]
    p = PickCard(L.scenario("lead-king-when-ace-turned"))
    p.picked = ["ZZ", "KS"]
    assert p.picked == [] and "picked" in p.data["refused"]


def test_the_quiz_clock_never_goes_backwards(monkeypatch: pytest.MonkeyPatch) -> None:
    """Answering a question that was never put on screen by `index` (the browser synced the
    responses first) used to read the clock twice and record a negative time."""
    from loo_lessons.widgets import live

    q = live.QuizRunner("lead", seed=1, count=3)
    ticks = iter(float(i) for i in range(100, 0, -1))  # a clock that runs backwards
    monkeypatch.setattr("loo_lessons.widgets.controllers.quiz.time.monotonic", lambda: next(ticks))
    key = q.questions[2]["choices"][0]["key"]
    q.responses = [None, None, {"picked": [key], "correct": False, "revealed": False}]
    ctl = q.controller
    assert isinstance(ctl, QuizController)
    log = ctl._log
    assert len(log.results) == 1 and log.results[0].seconds >= 0


# --- the JupyterLab back end of the new widgets: the same controllers behind anywidgets -------


def test_the_explorer_lab_and_search_widgets_drive_the_same_controllers() -> None:
    ex = L.explore("follow-under-trump-hoffmann", options=("must_head_in_suit", "void_trump_rule"))
    twin = ExploreController(scenario=L.scenario("follow-under-trump-hoffmann").data, options=("must_head_in_suit", "void_trump_rule"))
    assert ex.data == twin.data and ex.verdict["question"]["answer"] == ["5S"]
    ex.choose_preset("peel")
    twin.receive({"event": {"type": "preset", "preset": "peel"}})
    assert ex.data == twin.data and ex.verdict["question"]["answer"] != ["5S"]
    ex.set_option("void_trump_rule", "zz")
    assert "rules.void_trump_rule" in ex.data["refused"]
    assert "data-loo-live=" in ex.book_html() and "the verdict under each book" in ex.book_html()

    dx = L.explore_declarations("declare-declined-miss-goes-round")
    dtwin = json.loads(B.create("declarations", json.dumps({"scenario": L.scenario("declare-declined-miss-goes-round").data})))
    assert dtwin["state"]["data"] == json.loads(json.dumps(dx.data))
    dx.declare(1, "take miss")
    said = B.send(dtwin["id"], json.dumps({"sync": {"request": {"n": 1, "type": "declare", "seat": 1, "value": "take miss"}}}))
    assert json.loads(said)["changes"]["data"] == json.loads(json.dumps(dx.data))
    assert '"kind":"declarations"' in decoded_html(dx.book_html()).replace("&quot;", '"')

    lab = L.lab(hands=120, players=4, seed=3)
    rates = lab.data["result"]["rates"]
    assert sum(r["hands"] for r in rates) > 0 and lab.progress == {"done": 120, "total": 120}
    again = lab.run(hands=60, by="honours")
    assert again["overview"]["hands"] == 60 and again["rates"][0]["label"] == "neither"
    lab.request = {"n": 99, "type": "run", "hands": 10**6}
    assert "hands" in lab.data["refused"]

    s = L.search("single", seed=0)
    assert s.data["found"]["title"].startswith("single: seed")
    assert s.compare(seed=0)["steps"][0]["why"].endswith("(R33)")
    s.request = {"n": 5, "type": "find", "name": "no-such-search"}
    assert "search must be one of" in s.data["refused"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_whatever_the_browser_syncs_the_kernel_does_not_raise(data: st.DataObject) -> None:
    """ipywidgets hands a comm message's state to `set_state`: wrong types, unknown keys,
    out-of-range values. Nothing raises (the kernel log stays clean); later reads work."""
    from loo_lessons.widgets.live import PickCard, PoolCalculator, QuizRunner, Stepper
    from loo_lessons.widgets.play import PlayTable
    from loo_lessons.widgets.present import Presenter

    makers: dict[str, Callable[[], Any]] = {
        "pick": lambda: PickCard(L.scenario("lead-king-when-ace-turned")),
        "pool": lambda: PoolCalculator(L.scenario("settle-hoffmann-worked-example")),
        "quiz": lambda: QuizRunner("lead", seed=1, count=2),
        "stepper": lambda: Stepper(L.scenario("follow-suit")),
        "present": lambda: Presenter(3),
        "play": lambda: PlayTable(2, 4, "hoffmann", 1),
    }
    kind = data.draw(st.sampled_from(sorted(makers)), label="widget")
    w = makers[kind]()
    names = [*w.keys, "zz"]
    for _ in range(data.draw(st.integers(1, 4), label="messages")):
        state = data.draw(st.dictionaries(st.sampled_from(names), JSON, max_size=3), label="sync")
        state.pop("data", None)  # Python's own trait: the component never sends it
        w.set_state(state)
    json.dumps(w.state())
    if kind == "quiz":
        assert 0 <= w.index <= len(w.questions) and w.score["total"] == 2
    if kind in ("stepper", "present"):
        assert w.current is not None
    if kind == "play":
        assert w.hand.to_act in (None, w.seat)


# --- the quiz a page hands to the book's engine -----------------------------------------------


def _handed(state: dict[str, Any]) -> tuple[dict[str, Any], QuizController]:
    made = json.loads(B.create("quiz", json.dumps({"topic": "lead", "seed": 5, "count": 6}), json.dumps(state)))
    assert "error" not in made, made
    ctl = B._live.pop(made["id"])
    assert isinstance(ctl, QuizController)
    return made["state"], ctl


def test_a_page_s_answers_are_graded_again_when_the_engine_comes(monkeypatch: pytest.MonkeyPatch) -> None:
    """What the page dealt and answered before the engine came (js/engine.js hands it over,
    the quiz's seconds with it): the engine deals the code's questions itself, grades every
    answer again (a mark the page claims is not kept; a key that is not a choice is dropped)
    and records the timed answers, posting them under a class hub."""
    from loo_lessons import quiz
    from loo_lessons.widgets.controllers.quiz import grade_keys, question_json

    posted: list[Any] = []
    monkeypatch.setattr("loo_lessons.quiz.post.answer", lambda r, **_: posted.append(r))
    own = json.loads(json.dumps([question_json(q) for q in quiz.for_code("lead-3-5")]))
    page = json.loads(json.dumps(own))
    page[0]["answer"] = ["nonsense"]  # the page's copy is not what the engine grades with
    right = list(own[0]["answer"])
    wrong = [k for k in (c["key"] for c in own[2]["choices"]) if k not in own[2]["answer"]][:1]
    state, ctl = _handed(
        {
            "questions": page,
            "data": {"class_code": "lead-3-5", "live": False, "title": None, "error": None},
            "index": 2,
            "responses": [
                {"picked": right, "correct": False, "revealed": False, "seconds": 4.5},
                {"picked": ["ZZ"], "correct": True, "revealed": False, "seconds": 1.0},
                {"picked": wrong, "correct": True, "revealed": False, "seconds": 2.0},
            ],
            "selected": [],
            "inspect": None,
        }
    )
    assert state["questions"] == own and state["data"]["class_code"] == "lead-3-5" and state["data"]["live"]
    assert state["responses"] == [
        {"picked": right, "correct": True, "revealed": False},
        None,
        {"picked": wrong, "correct": False, "revealed": False},
    ]
    assert state["index"] == 2
    assert [(r.question_id, r.answer_given, r.correct, r.seconds) for r in ctl._log.results] == [
        (own[0]["id"], tuple(right), True, 4.5),
        (own[2]["id"], tuple(wrong), False, 2.0),
    ]
    assert [(p.question_id, p.answer, p.seconds, p.attempt) for p in posted] == [
        (own[0]["id"], tuple(right), 4.5, 1),
        (own[2]["id"], tuple(wrong), 2.0, 1),
    ]
    assert grade_keys(own[0], right) and not grade_keys(own[2], wrong)


def test_a_page_whose_questions_are_not_its_code_s_gets_the_code_dealt() -> None:
    from loo_lessons import quiz
    from loo_lessons.widgets.controllers.quiz import question_json

    other = [question_json(q) for q in quiz.for_code("lead-6-5")][3:]
    state, ctl = _handed(
        {
            "questions": other,
            "data": {"class_code": "lead-3-5"},
            "responses": [{"picked": [other[0]["answer"][0]], "correct": True, "revealed": False, "seconds": 3}] + [None] * 2,
        }
    )
    assert [q["id"] for q in state["questions"]] == [q.id for q in quiz.for_code("lead-3-5")]
    assert state["responses"] == [None] * 3 and state["index"] == 0 and ctl._log.results == []


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(responses=st.lists(JSON | st.fixed_dictionaries({"picked": st.lists(st.text(max_size=3) | st.sampled_from(["AH", "KH", "QS", "5C"]), max_size=4), "revealed": st.booleans(), "seconds": JSON}), max_size=8))
def test_any_responses_a_page_hands_over_are_graded_or_dropped(responses: list[Any]) -> None:
    from loo_lessons import quiz
    from loo_lessons.widgets.controllers.pick import choice_keys
    from loo_lessons.widgets.controllers.quiz import grade_keys, question_json

    own = [question_json(q) for q in quiz.for_code("lead-3-5")]
    state, ctl = _handed({"questions": own, "data": {"class_code": "lead-3-5"}, "responses": responses})
    assert len(state["responses"]) == 3
    for q, r in zip(own, state["responses"], strict=True):
        if r is not None:
            assert set(r) == {"picked", "correct", "revealed"}
            assert all(k in choice_keys(q) for k in r["picked"]) and (r["picked"] or r["revealed"])
            assert r["correct"] == (bool(r["picked"]) and grade_keys(q, r["picked"]))
    assert all(r.seconds >= 0 for r in ctl._log.results)


def test_a_synced_index_change_clears_the_selection() -> None:
    """A crafted message moving the quiz to another question keeps no selection made on the
    first (issue 25.4), even of a key the next question also offers; the same question keeps it."""
    ctl = QuizController("lead", 5, 3)
    shared = sorted({c["key"] for c in ctl.questions[0]["choices"]} & {c["key"] for c in ctl.questions[1]["choices"]})
    assert shared  # seed 5: both questions offer this card
    ctl.receive({"sync": {"selected": shared}})
    assert ctl.selected == shared
    ctl.receive({"sync": {"index": 1, "selected": shared}})
    assert ctl.index == 1 and ctl.selected == []
    ctl.receive({"sync": {"selected": shared}})
    ctl.receive({"sync": {"index": 1}})
    assert ctl.selected == shared


def test_a_pool_form_names_the_rules_its_settlement_applies() -> None:
    """What the learner's record keeps with a filled-in form: the rules of the working's lines,
    each once (the page copies them, never works them out)."""
    d = pool_data(L.scenario("settle-hoffmann-worked-example"))
    cited = [str(w["rule_id"]) for w in d["working"] if w.get("rule_id")]
    assert cited and d["rule_ids"] == list(dict.fromkeys(cited))
