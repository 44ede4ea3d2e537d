"""The two back ends are one Python path (issue 15).

Every widget of the registry is made twice: as the JupyterLab anywidget
(`backends.kernel`, a real anywidget instance, messages injected as the comm delivers
them) and in the book's worker (`backends.browser`: create/send, JSON text both ways). The
same messages go to both; after each, the two states are equal trait by trait. A
Hypothesis state machine per widget sends valid and crafted messages (wrong types, unknown
events and traits, huge numbers, deep JSON, out-of-range keys): nothing escapes, a bad
message leaves a one-line refusal in `data["refused"]`, and the state stays one the
component can draw.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from loo_lessons import lessons as L
from loo_lessons.explain.table import action_key
from loo_lessons.widgets import live
from loo_lessons.widgets.backends import browser as B
from loo_lessons.widgets.backends.kernel import KernelWidget
from loo_lessons.widgets.controllers.quiz import QuizController
from loo_lessons.widgets.evening import EveningTable, PassPlayTable
from loo_lessons.widgets.play import PlayTable
from loo_lessons.widgets.present import Presenter
from loo_lessons.widgets.registry import REGISTRY

#: Each widget of the registry, as a notebook makes it.
MAKERS: dict[str, Callable[[], KernelWidget]] = {
    "cards": lambda: live.CardRow(["QH", "10S", None], title="Seat 3 holds"),
    "table": lambda: live.TableView(L.scenario("follow-suit")),
    "pick": lambda: live.PickCard(L.scenario("lead-king-when-ace-turned")),
    "pool": lambda: live.PoolCalculator(L.scenario("settle-hoffmann-worked-example")),
    "quiz": lambda: live.QuizRunner("lead", seed=1, count=3),
    "stepper": lambda: live.Stepper(L.scenario("follow-suit")),
    "present": lambda: Presenter(7, players=4),
    "explore": lambda: live.Explorer(
        L.scenario("follow-under-trump-hoffmann").data, ("must_head_in_suit", "void_trump_rule")
    ),
    "declarations": lambda: live.DeclarationsExplorer(L.scenario("declare-declined-miss-goes-round").data),
    "play": lambda: PlayTable(5, 4, "hoffmann", 1),
    "evening": lambda: EveningTable(21, rollouts=10),
    "passplay": lambda: PassPlayTable(21, 4, people=(0, 2), names=("Ann", "Bob")),
    "lab": lambda: live.Lab(hands=12, players=4),
    "search": lambda: live.Search(count=30),
    "seat": lambda: live.TableSeat(),  # off the hub (no service named): joins refused alike
    # the record kept in the page's way (no file), the seed fixed: both deal the same items
    "practice": lambda: live.Practice(["R28", "R24"], keep="page", seed=2, size=2),
}


def test_every_registered_widget_is_tested_here() -> None:
    assert set(MAKERS) == set(REGISTRY)


def untimed(x: Any) -> Any:
    """`x` without the run times the lab reports (a clock, not a state)."""
    if isinstance(x, dict):
        return {k: untimed(v) for k, v in x.items() if k != "seconds"}
    if isinstance(x, list):
        return [untimed(v) for v in x]
    return x


class Pair:
    """One widget behind both back ends, fed the same messages."""

    def __init__(self, kind: str, w: KernelWidget | None = None) -> None:
        self.kind = kind
        self.w = MAKERS[kind]() if w is None else w
        spec = self.w.controller.live_spec() or {"kind": kind, "args": {}}
        assert spec["kind"] == kind
        made = json.loads(B.create(kind, json.dumps(spec["args"]), json.dumps(self.w.controller.state())))
        assert "error" not in made, made
        self.id: int = made["id"]
        self.page: dict[str, Any] = made["state"]

    def kernel_state(self) -> dict[str, Any]:
        out: dict[str, Any] = json.loads(json.dumps({k: getattr(self.w, k) for k in self.w.controller.TRAITS}))
        return out

    def send(self, message: Any) -> None:
        """`message` as each back end receives it: to the kernel through its comm (a sync
        as an update, anything else as a custom message), to the worker as JSON text."""
        if isinstance(message, dict) and set(message) == {"sync"}:
            self.w._handle_msg({"content": {"data": {"method": "update", "state": message["sync"]}}})
        else:
            self.w._handle_msg({"content": {"data": {"method": "custom", "content": message}}})
        answer = json.loads(B.send(self.id, json.dumps(message)))
        assert "error" not in answer, answer
        self.page.update(answer["changes"])

    def same(self) -> None:
        k, page = untimed(self.kernel_state()), untimed(self.page)
        assert set(k) == set(page)
        for name in k:
            assert k[name] == page[name], f"{self.kind}.{name} differs between the back ends"

    def drop(self) -> None:
        B.drop(self.id)
        self.w.close()


#: The same event sequence for every widget: a few clicks each component sends.
SEQUENCES: dict[str, Callable[[Pair], list[Any]]] = {
    "cards": lambda p: [{"sync": {"data": p.w.data}}],  # what it shows, sent back unchanged
    "table": lambda p: [{"sync": {"data": p.w.data}}],
    "pick": lambda p: [
        {"event": {"type": "choice", "key": p.w.choices[0]}},
        {"sync": {"picked": p.w.choices[:2]}},
        {"event": {"type": "check"}},
        {"event": {"type": "choice", "key": p.w.choices[-1]}},
        {"event": {"type": "reset"}},
        {"event": {"type": "show"}},
    ],
    "pool": lambda p: [
        {"event": {"type": "enter", "id": p.w.fields[0], "value": 7}},
        {"sync": {"entries": {p.w.fields[-1]: 3}}},
        {"event": {"type": "check"}},
        {"event": {"type": "show"}},
    ],
    "quiz": lambda p: [
        {"event": {"type": "choice", "key": p.w.questions[0]["choices"][0]["key"]}},
        {"event": {"type": "next"}},
        {"sync": {"index": 2}},
        {"event": {"type": "show"}},
        {"sync": {"new_request": 1}},
        {"event": {"type": "new"}},
        {"sync": {"class_request": "lead-2-5"}},
    ],
    "stepper": lambda p: [
        {"event": {"type": "next"}},
        {"event": {"type": "last"}},
        {"sync": {"step": 2}},
        {"event": {"type": "deal", "seed": 42, "players": 4, "rules": "peel"}},
    ],
    "present": lambda p: [
        {"event": {"type": "toggle"}},
        {"event": {"type": "goto", "step": 3}},
        {"sync": {"faces": "up", "step": 1}},
        {"event": {"type": "deal", "seed": 8}},
    ],
    "explore": lambda p: [
        {"sync": {"request": {"n": 1, "type": "preset", "preset": "peel"}}},
        {"sync": {"request": {"n": 2, "type": "option", "key": "void_trump_rule", "value": p.w.rules["void_trump_rule"]}}},
    ],
    "declarations": lambda p: [
        {"sync": {"request": {"n": 1, "type": "declare", "seat": 1, "value": "take miss"}}},
        {"sync": {"request": {"n": 2, "type": "declare", "seat": 2, "value": "throw up"}}},
    ],
    "play": lambda p: [
        {"sync": {"request": {"n": 1, "type": "hint"}}},
        {"sync": {"request": {"n": 2, "type": "choose", "key": p.w.legal[0]}}},
        {"sync": {"request": {"n": 3, "type": "undo"}}},
        {"sync": {"show_hint": True}},
    ],
    "evening": lambda p: [
        {"sync": {"request": {"n": 1, "type": "coach"}}},
        {"sync": {"request": {"n": 2, "type": "choose", "key": p.w.legal[0]}}},
        {"sync": {"request": {"n": 3, "type": "undo"}}},
    ],
    "passplay": lambda p: [
        {"sync": {"request": {"n": 1, "type": "show"}}},
        {"sync": {"request": {"n": 2, "type": "choose", "key": action_key(p.w.hand.legal_actions()[0])}}},
        {"sync": {"request": {"n": 3, "type": "undo"}}},
        {"sync": {"request": {"n": 4, "type": "start", "names": ["Ann", "", "Cy"], "seed": 4, "preset": "peel", "loo": "limited"}}},
    ],
    "lab": lambda p: [{"sync": {"request": {"n": 1, "type": "run", "hands": 10, "by": "position"}}}],
    "search": lambda p: [
        {"sync": {"request": {"n": 1, "type": "compare", "seed": 3, "players": 4}}},
    ],
    # selecting and unselecting (an answer is timed: its record holds the moment, which differs)
    "practice": lambda p: [
        {"sync": {"request": {"n": 1, "type": "choice", "key": p.w.data["item"]["question"]["choices"][0]["key"]}}},
        {"sync": {"request": {"n": 2, "type": "choice", "key": p.w.data["item"]["question"]["choices"][-1]["key"]}}},
        {"sync": {"request": {"n": 3, "type": "choice", "key": p.w.data["item"]["question"]["choices"][0]["key"]}}},
    ],
    "seat": lambda p: [
        {"sync": {"request": {"n": 1, "type": "join", "table": "K7QMRT"}}},
        {"sync": {"request": {"n": 2, "type": "move", "key": "AS"}}},
        {"sync": {"request": {"n": 3, "type": "deal"}}},
        {"sync": {"request": {}}},  # the trait's first value, sent back: nothing asked, the refusal gone
    ],
}


@pytest.mark.parametrize("kind", sorted(REGISTRY))
def test_the_same_events_give_the_same_state_in_both_back_ends(kind: str) -> None:
    p = Pair(kind)
    try:
        p.same()
        for message in SEQUENCES[kind](p):
            p.send(message)
            p.same()
        refused = p.w.data.get("refused")
        assert not refused, refused  # every sequence above is what the component sends
    finally:
        p.drop()


def test_a_task_plays_alike_in_both_back_ends() -> None:
    """A play-this-deal task (lesson 3's): a refused declaration, then the learner's one
    decision; the stand-in plays the rest; the score is the same in both back ends."""
    p = Pair("play", L.task("declaring-deal-1"))
    try:
        p.same()
        p.send({"sync": {"request": {"n": 1, "type": "choose", "key": "take_miss"}}})
        p.same()
        assert p.page["tried"] == "take_miss" and p.page["data"]["task"]["refused"] == 1
        p.send({"sync": {"request": {"n": 2, "type": "choose", "key": "play"}}})
        p.same()
        score = p.page["data"]["task"]["score"]
        assert p.page["data"]["over"] and score is not None and score["refused"] == 1
    finally:
        p.drop()


def test_a_refused_value_is_put_back_in_the_page() -> None:
    """The page holds what it sent; the kernel sends the controller's value back."""
    w = live.QuizRunner("lead", seed=1, count=3)
    sent: list[Any] = []
    w.send_state = lambda key=None: sent.append(key)
    w._handle_msg({"content": {"data": {"method": "update", "state": {"index": 99}}}})
    assert w.index == 0 and "index" in w.data["refused"] and ["index"] in sent


def test_the_page_gets_its_echo_first_then_the_controllers_values() -> None:
    """ipywidgets' page ignores the kernel's values for a trait it sent until the kernel
    echoes it: the adapter echoes what arrived, then sends what the controller holds."""
    w = live.Stepper(L.scenario("follow-suit"))
    said: list[Any] = []
    w._send = lambda msg, buffers=None: said.append(msg)
    w._handle_msg({"content": {"data": {"method": "update", "state": {"step": 2}}}})
    assert said[0] == {"method": "echo_update", "state": {"step": 2}, "buffer_paths": []}
    assert w.step == 2
    said.clear()
    w._handle_msg({"content": {"data": {"method": "update", "state": {"step": 10**9}}}})
    assert said[0]["method"] == "echo_update" and w.step == 2
    assert any(m["method"] == "update" and m["state"].get("step") == 2 for m in said[1:])  # put back


def test_quiz_result_log_and_new_questions_are_the_controllers_in_both_places() -> None:
    p = Pair("quiz")
    try:
        p.send({"event": {"type": "choice", "key": p.w.questions[0]["answer"][0]}})
        p.send({"event": {"type": "check"}})
        p.send({"event": {"type": "show"}})
        p.send({"event": {"type": "new"}})
        p.same()
        assert p.w.data["seed"] == 2 == p.page["data"]["seed"]
        ctl = p.w.controller
        assert isinstance(ctl, QuizController) and len(ctl._log.results) == 1
    finally:
        p.drop()


# --- crafted messages ----------------------------------------------------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**30), 10**30) | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=4), c, max_size=3),
    max_leaves=8,
)


def deep(n: int) -> Any:
    out: Any = 0
    for _ in range(n):
        out = {"a": [out]}
    return out


#: Messages no component sends: each must be refused, in one line.
SURELY_BAD: list[Any] = [
    {"event": {"type": "no-such-event"}},
    {"event": {"type": 7}},
    {"event": "next"},
    {"event": None},
    {"sync": {"no_such_trait": 1}},
    {"sync": []},
    {"sync": {"data": {"question": None, "steps": 5}}},
    {"event": {"type": "next", "deep": deep(200)}},
    {"sync": {"data": deep(60)}},
    {"event": {"type": "next"}, "sync": {}},
    [1, 2, 3],
    "text",
    None,
]


def _valid(p: Pair, data: st.DataObject) -> Any:
    """A message the component could send now (drawn from its state)."""
    w, kind = p.w, p.kind
    ints = st.integers(-2, 12)
    if kind == "pick":
        return data.draw(
            st.sampled_from([{"event": {"type": t}} for t in ("check", "show", "reset")])
            | st.builds(lambda k: {"event": {"type": "choice", "key": k}}, st.sampled_from(w.choices))
            | st.builds(lambda ks: {"sync": {"picked": ks}}, st.lists(st.sampled_from(w.choices), unique=True, max_size=3))
        )
    if kind == "pool":
        return data.draw(
            st.sampled_from([{"event": {"type": t}} for t in ("check", "show", "reset")])
            | st.builds(
                lambda f, v: {"event": {"type": "enter", "id": f, "value": v}},
                st.sampled_from(w.fields),
                st.none() | ints,
            )
        )
    if kind == "quiz":
        q = w.question
        keys = [c["key"] for c in q["choices"]] if q else ["x"]
        return data.draw(
            st.sampled_from([{"event": {"type": t}} for t in ("check", "show", "next", "prev", "restart")])
            | st.builds(lambda k: {"event": {"type": "choice", "key": k}}, st.sampled_from(keys))
            | st.builds(lambda i: {"sync": {"index": i}}, ints)
            | st.builds(lambda s: {"sync": {"selected": s}}, st.lists(st.sampled_from(keys), max_size=2))
        )
    if kind in ("stepper", "present"):
        return data.draw(
            st.sampled_from([{"event": {"type": t}} for t in ("next", "prev", "first", "last")])
            | st.builds(lambda i: {"event": {"type": "goto", "step": i}}, ints)
            | st.builds(lambda i: {"sync": {"step": i}}, ints)
        )
    if kind == "explore":
        key = data.draw(st.sampled_from(w.data["keys"]))
        return data.draw(
            st.builds(lambda n, pr: {"sync": {"request": {"n": n, "type": "preset", "preset": pr}}}, ints, st.sampled_from(["hoffmann", "peel", "zz"]))
            | st.builds(lambda n, v: {"sync": {"request": {"n": n, "type": "option", "key": key, "value": v}}}, ints, st.sampled_from([*w.data["options"][0]["values"], "zz"]) if w.data["options"] else st.just("zz"))
        )
    if kind == "declarations":
        return data.draw(
            st.builds(
                lambda n, s, v: {"sync": {"request": {"n": n, "type": "declare", "seat": s, "value": v}}},
                ints,
                st.sampled_from([1, 2, 3]),
                st.sampled_from(["stand", "take miss", "throw up"]),
            )
        )
    if kind == "play":
        keys = w.options or ["KH"]
        return data.draw(
            st.builds(lambda k: {"sync": {"request": {"n": 1, "type": "choose", "key": k}}}, st.sampled_from(keys))
            | st.sampled_from([{"sync": {"request": {"n": 1, "type": t}}} for t in ("hint", "undo", "restart")])
            | st.builds(lambda b: {"sync": {"show_hint": b}}, st.booleans())
        )
    return data.draw(st.sampled_from([{"event": {"type": "next"}}, {"sync": {}}]))


def _drawable(p: Pair) -> None:
    """A state the component can draw."""
    w, kind = p.w, p.kind
    refused = w.data.get("refused")
    assert refused is None or (isinstance(refused, str) and "\n" not in refused and len(refused) <= 300)
    if kind in ("stepper", "present"):
        assert 0 <= w.step < max(1, len(w.data["steps"]))
    if kind == "present":
        assert w.faces in ("up", "hidden")
    if kind == "quiz":
        assert 0 <= w.index <= len(w.questions)
        assert len(w.responses) == len(w.questions)
        s = w.score
        assert 0 <= s["right"] <= s["answered"] <= s["total"] == len(w.questions)
    if kind == "pick":
        assert set(w.picked) <= set(w.choices) and len(set(w.picked)) == len(w.picked)
        assert w.current is None or w.revealed
    if kind == "pool":
        assert set(w.entries) <= set(w.fields)
    if kind == "play":
        h = w.hand
        assert h.to_act is None or h.to_act == w.seat


def machine(kind: str) -> type[RuleBasedStateMachine]:
    class Both(RuleBasedStateMachine):
        @initialize()
        def make(self) -> None:
            self.p = Pair(kind)

        @rule(data=st.data())
        def valid(self, data: st.DataObject) -> None:
            self.p.send(_valid(self.p, data))

        @rule(bad=st.sampled_from(SURELY_BAD))
        def surely_bad(self, bad: Any) -> None:
            self.p.send(bad)
            assert isinstance(self.p.w.data.get("refused"), str)

        @rule(message=st.builds(lambda e: {"event": e}, JSON) | st.builds(lambda s: {"sync": s}, JSON) | JSON)
        def crafted(self, message: Any) -> None:
            self.p.send(message)

        @rule(
            msg=st.sampled_from(
                [
                    {},
                    {"content": None},
                    {"content": {"data": "x"}},
                    {"content": {"data": {"method": "update", "state": [1]}}},
                    {"content": {"data": {"method": "update"}}},
                    {"content": {"data": {"method": "nonsense"}}},
                    {"content": {"data": {"method": "custom", "content": deep(100)}}},
                ]
            )
        )
        def crafted_comm(self, msg: Any) -> None:
            """What only the kernel's comm can receive: never raises, the state stays."""
            before = self.p.kernel_state()
            self.p.w._handle_msg(msg)
            after = self.p.kernel_state()
            assert isinstance(after["data"].pop("refused", None), str)
            before["data"].pop("refused", None)
            assert after == before
            self.p.w.controller.data = before["data"] | ({"refused": self.p.page["data"]["refused"]} if "refused" in self.p.page["data"] else {})
            self.p.w._push()  # said in the kernel only: the state as it was, for the comparison

        @invariant()
        def consistent(self) -> None:
            if hasattr(self, "p"):
                self.p.same()
                _drawable(self.p)

        def teardown(self) -> None:
            if hasattr(self, "p"):
                self.p.drop()

    Both.__name__ = f"Both_{kind}"
    return Both


FAST = ("cards", "table", "pick", "pool", "quiz", "stepper", "present", "declarations", "play")
SLOW = ("explore",)  # each change loads the position under every option value


@pytest.mark.parametrize("kind", FAST + SLOW)
def test_crafted_and_valid_messages_through_both_back_ends(kind: str) -> None:
    Both = machine(kind)
    Both.TestCase.settings = settings(
        max_examples=8 if kind in SLOW else 15,
        stateful_step_count=8,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    Both.TestCase().runTest()


@pytest.mark.parametrize("kind", ["lab", "search"])
def test_the_simulating_widgets_refuse_crafted_messages_in_both_back_ends(kind: str) -> None:
    """The lab and the search run simulations: crafted messages only (each refused, both
    back ends the same), no fuzzing of real runs."""
    p = Pair(kind)
    try:
        for bad in [*SURELY_BAD, {"sync": {"request": {"n": 1, "type": "run" if kind == "lab" else "find", "hands": 10**30, "count": 10**30, "players": "x"}}}]:
            p.send(bad)
            p.same()
            assert isinstance(p.w.data.get("refused"), str)
    finally:
        p.drop()
