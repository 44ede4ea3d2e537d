"""The controllers of the pick, pool, quiz, stepper, presenter and explorer components.

Each is the component's model as plain attributes (`Model`) plus `receive(message)`: an
`{"event": {...}}` the component dispatched, or `{"sync": {trait: value}}` trait values it
set. Grading is "is the key in the engine's answer?" (`widgets.state`); new questions come
from `loo_lessons.quiz`; verdicts, steps and settlements from the engine (`widgets.data`).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from loo_lessons import quiz
from loo_lessons.engine.errors import LooError
from loo_lessons.engine.game import Hand, Phase
from loo_lessons.engine.options import OPTION_SPECS, PRESETS
from loo_lessons.widgets.controllers.base import (
    Model,
    Refused,
    event_type,
    int_in,
    is_int,
    one_of,
)
from loo_lessons.widgets.data import (
    Position,
    as_scenario_or_hand,
    pick_question,
    play_out,
    pool_data,
    stepper_steps,
)
from loo_lessons.widgets.state import pick_reduce, pool_reduce, quiz_reduce, step_reduce
from loo_lessons.widgets.static import DEFAULT_STATE

#: The most questions one "New questions" may ask for, and the largest seed.
MAX_COUNT = 50
MAX_SEED = 2**31 - 1
FACES: tuple[str, ...] = ("up", "hidden")

Generator = Callable[[str | None, int, int, str | None], Sequence[Any]]


class Controller(Model):
    """A component's controller: `receive(message)` returns the traits it changed.

    Subclasses set `component` (the JS module), `EVENTS` (the event types it takes),
    `SYNCED` (the traits the component may set) and implement `_event` and `_normalise`."""

    component: ClassVar[str] = ""
    EVENTS: ClassVar[tuple[str, ...]] = ()
    SYNCED: ClassVar[tuple[str, ...]] = ()
    data: dict[str, Any]

    def receive(self, message: Mapping[str, Any]) -> dict[str, Any]:
        """One message from the front end; never raises for a bad one (it is refused in
        `data["refused"]`, which every component draws)."""
        try:
            if not isinstance(message, Mapping) or len(message) != 1:
                raise Refused("a message is {event: ...} or {sync: ...}")
            if "event" in message:
                ev = message["event"]
                if not isinstance(ev, Mapping):
                    raise Refused("an event is an object with a type")
                self._event(event_type(ev, self.EVENTS), ev)
            elif "sync" in message:
                changes = message["sync"]
                if not isinstance(changes, Mapping):
                    raise Refused("sync takes an object of trait values")
                bad = sorted(str(k)[:30] for k in changes if k not in self.SYNCED)
                if bad:
                    raise Refused(f"this widget does not take {', '.join(bad)}")
                self._sync(changes)
            else:
                raise Refused("a message is {event: ...} or {sync: ...}")
            self._clear_refusal()
        except LooError as e:
            self._refuse(str(e))
        except (KeyError, ValueError, TypeError, IndexError, RecursionError) as e:
            self._refuse(f"refused: {type(e).__name__}: {str(e)[:160]}")
        return self.take_changes()

    def _refuse(self, why: str) -> None:
        data = dict(getattr(self, "data", {}) or {})
        data["refused"] = why[:300]
        self._apply({"data": data})

    def _clear_refusal(self) -> None:
        data = getattr(self, "data", {}) or {}
        if data.get("refused"):
            self._apply({"data": {k: v for k, v in data.items() if k != "refused"}})

    def _event(self, kind: str, ev: Mapping[str, Any]) -> None:
        raise Refused(f"this widget takes no {kind} event")

    def _sync(self, changes: Mapping[str, Any]) -> None:
        """Trait values from the component (its JS reducer ran): kept only when they are
        a state the Python reducer would give too (`_normalise`)."""
        merged = {**{k: getattr(self, k) for k in self.SYNCED}, **copy.deepcopy(dict(changes))}
        normal = self._normalise(merged)
        for k in changes:
            if normal.get(k) != merged.get(k):
                raise Refused(f"{k}: a value this widget cannot be in")
        self._apply({k: normal[k] for k in changes})

    def _normalise(self, st: Mapping[str, Any]) -> dict[str, Any]:
        return dict(st)


class RequestController(Controller):
    """A controller whose component sends its events as a `request` trait ({n, type, ...}),
    which both back ends sync as they are (the kernel's anywidget, the book's engine model):
    the explorer, the lab and the search."""

    SYNCED: ClassVar[tuple[str, ...]] = ("request",)
    request: dict[str, Any]

    def _sync(self, changes: Mapping[str, Any]) -> None:
        if "request" not in changes:
            return  # traits the component keeps for itself (the lab's bar)
        req = changes["request"]
        if not isinstance(req, Mapping):
            raise Refused("a request is an object {n, type, ...}")
        self._apply({"request": dict(req)})
        if req:
            ev = {k: v for k, v in req.items() if k != "n"}
            self._event(event_type(ev, self.EVENTS), ev)


def _traits(name: str) -> dict[str, Any]:
    return copy.deepcopy(DEFAULT_STATE[name])


# --- pick ---------------------------------------------------------------------------------------


class PickController(Controller):
    component = "pick"
    TRAITS = _traits("pick")
    EVENTS = ("choice", "check", "show", "reset")
    SYNCED = ("picked", "current", "revealed")
    picked: list[str]
    current: str | None
    revealed: bool

    @classmethod
    def of(cls, position: Position, **kw: Any) -> PickController:
        return cls(data={"question": pick_question(position, **kw), "title": None})

    def _question(self) -> Mapping[str, Any]:
        q: Mapping[str, Any] = self.data.get("question") or {}
        return q

    def _event(self, kind: str, ev: Mapping[str, Any]) -> None:
        q = self._question()
        if kind == "choice":
            one_of(ev.get("key"), [c["key"] for c in q.get("choices") or []], "key")
        st = {k: getattr(self, k) for k in self.SYNCED}
        self._apply(pick_reduce(q, st, ev))

    def _normalise(self, st: Mapping[str, Any]) -> dict[str, Any]:
        return pick_reduce(self._question(), st, {"type": "none"})


# --- pool ---------------------------------------------------------------------------------------


class PoolController(Controller):
    component = "pool"
    TRAITS = _traits("pool")
    EVENTS = ("enter", "check", "show", "reset")
    SYNCED = ("entries", "checked", "revealed")
    #: The largest number a box takes (no pool in these books comes near it).
    LIMIT = 10**6

    @classmethod
    def of(cls, position: Any, title: str | None = None) -> PoolController:
        return cls(data=pool_data(position, title=title))

    def _fields(self) -> list[Mapping[str, Any]]:
        return list(self.data.get("fields") or [])

    def _event(self, kind: str, ev: Mapping[str, Any]) -> None:
        if kind == "enter":
            one_of(ev.get("id"), [f["id"] for f in self._fields()], "id")
            v = ev.get("value")
            if v is not None:
                int_in(v, -self.LIMIT, self.LIMIT, "value")
        st = {k: getattr(self, k) for k in self.SYNCED}
        self._apply(pool_reduce(self._fields(), st, ev))

    def _normalise(self, st: Mapping[str, Any]) -> dict[str, Any]:
        entries = st.get("entries")
        if isinstance(entries, Mapping):
            for v in entries.values():
                if is_int(v) and abs(v) > self.LIMIT:
                    raise Refused(f"entries: numbers from -{self.LIMIT} to {self.LIMIT}")
        return pool_reduce(self._fields(), st, {"type": "none"})


# --- stepper and presenter ----------------------------------------------------------------------


def played_out(seed: int, players: int = 5, preset: str | None = None) -> Hand:
    """The deal of `seed`, every move drawn (from the same seed) among the engine's legal ones."""
    hand = Hand.from_seed(seed, players, 0, preset)
    rng = random.Random(seed)
    while hand.to_act is not None:
        legal = hand.legal_actions()
        hand.apply(legal[rng.randrange(len(legal))])
    return hand


def _deal_args(ev: Mapping[str, Any], *, players: int, rules: str) -> tuple[int, int, str]:
    seed = int_in(ev.get("seed"), 0, MAX_SEED, "seed")
    n = int_in(ev.get("players", players), 2, 10, "players")
    preset = one_of(ev.get("rules", rules), list(PRESETS), "rules")
    return seed, n, str(preset)


class StepperController(Controller):
    component = "stepper"
    TRAITS = _traits("stepper")
    EVENTS = ("next", "prev", "first", "last", "goto", "deal")
    SYNCED = ("step",)
    step: int

    def _count(self) -> int:
        return len(self.data.get("steps") or [])

    def _event(self, kind: str, ev: Mapping[str, Any]) -> None:
        if kind == "goto":
            int_in(ev.get("step"), 0, max(0, self._count() - 1), "step")
        if kind == "deal":
            seed, n, rules = _deal_args(ev, players=5, rules="hoffmann")
            hand = seeded_hand(seed, n, rules)  # as L.stepper(seed) deals it
            title = f"Seed {seed}, {n} players, {rules}'s rules"
            data = {**self.data, "steps": stepper_steps(hand), "title": title}
            self._apply({"data": {**data, "seed": seed, "players": n, "rules": rules}, "step": 0})
            return
        self._apply(step_reduce(self._count(), {"step": self.step}, ev))

    def _normalise(self, st: Mapping[str, Any]) -> dict[str, Any]:
        return step_reduce(self._count(), st, {"type": "none"})


def present_reduce(count: int, st: Mapping[str, Any], ev: Mapping[str, Any]) -> dict[str, Any]:
    """presentReduce: `next`, `prev`, `first`, `last`, `goto` (step) as `step_reduce`, and
    `toggle`, `faces` (faces). The step stays in 0 .. count - 1 and faces in ("up", "hidden")."""
    step = step_reduce(count, st, ev)["step"]
    faces = "hidden" if st.get("faces") == "hidden" else "up"
    kind = ev.get("type")
    if kind == "toggle":
        faces = "hidden" if faces == "up" else "up"
    elif kind == "faces" and ev.get("faces") in FACES:
        faces = str(ev["faces"])
    return {"step": step, "faces": faces}


def seeded_hand(seed: int, players: int = 5, rules: str = "hoffmann") -> Hand:
    """The deal of `seed` (dealer seat 0), played to the end by the `sensible` bots."""
    return play_out(Hand.from_seed(seed, players=players, dealer=0, options=rules), seed)


def present_data(seed: int, players: int = 5, rules: str = "hoffmann") -> dict[str, Any]:
    """The presenter's data: the seeded deal, every step explained (`data.stepper_steps`)."""
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise LooError(f"the seed is a whole number, 0 or more (got {seed!r})")
    if rules not in PRESETS:
        raise LooError(f"unknown rules {rules!r} (known: {', '.join(PRESETS)})")
    hand = seeded_hand(seed, players, rules)
    return {
        "seed": seed,
        "players": players,
        "rules": rules,
        "book": PRESETS[rules].book,
        "call": f'L.present({seed}, players={players}, rules="{rules}")',
        "steps": stepper_steps(hand),
    }


class PresentController(Controller):
    component = "present"
    TRAITS = _traits("present")
    EVENTS = ("next", "prev", "first", "last", "goto", "toggle", "faces", "deal")
    SYNCED = ("step", "faces")
    step: int
    faces: str

    def _count(self) -> int:
        return len(self.data.get("steps") or [])

    def _event(self, kind: str, ev: Mapping[str, Any]) -> None:
        if kind == "goto":
            int_in(ev.get("step"), 0, max(0, self._count() - 1), "step")
        if kind == "faces":
            one_of(ev.get("faces"), FACES, "faces")
        if kind == "deal":
            d = self.data
            seed, n, rules = _deal_args(
                ev, players=int(d.get("players", 5)), rules=str(d.get("rules", "hoffmann"))
            )
            self._apply({"data": present_data(seed, n, rules), "step": 0})
            return
        st = {"step": self.step, "faces": self.faces}
        self._apply(present_reduce(self._count(), st, ev))

    def _normalise(self, st: Mapping[str, Any]) -> dict[str, Any]:
        return present_reduce(self._count(), st, {"type": "none"})


# --- quiz ---------------------------------------------------------------------------------------


def question_json(q: Any) -> dict[str, Any]:
    """A question as the schema's mapping (a Question object or a mapping already)."""
    if isinstance(q, Mapping):
        return copy.deepcopy(dict(q))
    to_json = getattr(q, "to_json", None)
    if to_json is None:
        raise TypeError(f"not a question: {q!r}")
    out: dict[str, Any] = to_json()
    return out


def default_generator() -> Generator:
    """loo_lessons.quiz.generate: one topic, or (topic None) every topic in turn."""

    def call(topic: str | None, seed: int, count: int, preset: str | None) -> Sequence[Any]:
        if topic is not None:
            return quiz.generate(topic, count, seed, preset=preset)
        return quiz.generate_mixed(count, seed, preset=preset)

    return call


class QuizGame:
    """The quiz's rules of the game over its traits (questions, index, responses, selected,
    inspect, new_request, data): shared by the browser controller and the anywidget."""

    topic: str | None
    seed: int
    count: int
    preset: str | None
    _generator: Generator | None
    questions: list[Any]
    index: int
    responses: list[Any]
    selected: list[str]
    inspect: str | None
    new_request: int
    data: dict[str, Any]

    if TYPE_CHECKING:  # provided by the host: Controller (the book) or _Component (JupyterLab)

        def _apply(self, new: Mapping[str, Any]) -> None: ...

    def _setup(
        self, topic: str | None, seed: int, count: int, preset: str | None, generator: Generator | None
    ) -> None:
        self.topic, self.seed, self.count, self.preset = topic, seed, count, preset
        self._generator = generator

    def _make(self, topic: str | None, seed: int, count: int, preset: str | None) -> list[dict[str, Any]]:
        gen = self._generator or default_generator()
        return [question_json(q) for q in gen(topic, seed, count, preset)]

    def _first_bank(self, questions: Iterable[Any] | None) -> list[dict[str, Any]]:
        """The bank given, or the generator's for the settings."""
        if questions is not None:
            return [question_json(q) for q in questions]
        return self._make(self.topic, self.seed, self.count, self.preset)

    def _first_data(self, title: str | None, questions: Iterable[Any] | None) -> dict[str, Any]:
        data: dict[str, Any] = {"title": title, "live": True, "error": None}
        code = self._class_code(questions)
        if code is not None:
            data["class_code"] = code  # the page holds this code's bank: its questions
        return data

    def _class_code(self, questions: Iterable[Any] | None = None) -> str | None:
        """The class code that deals this quiz's questions, when there is one."""
        if questions is not None or self._generator is not None or self.preset is not None:
            return None
        try:
            return str(quiz.ClassCode(self.topic or "mixed", self.count, self.seed))
        except ValueError:
            return None

    def use_code(self, code: str) -> None:
        """Deal the questions of a class code ("lead-10-42"); a bad code is shown as an error."""
        try:
            c = quiz.class_code.parse(code)
        except ValueError as e:
            self._apply({"data": {**self.data, "error": str(e)}})
            return
        bank = [question_json(q) for q in quiz.for_code(c)]
        self.topic = None if c.topic == "mixed" else c.topic
        self.seed, self.count, self.preset = c.seed, c.count, None
        self._deal(bank, {**self.data, "error": None, "class_code": str(c)}, class_request="")

    def _deal(self, bank: list[dict[str, Any]], data: dict[str, Any], **more: Any) -> None:
        """A fresh bank on screen: the first question, nothing answered."""
        self._apply(
            {
                "questions": bank,
                "index": 0,
                "responses": [None] * len(bank),
                "selected": [],
                "inspect": None,
                "data": data,
                **more,
            }
        )

    def new_questions(self, seed: int | None = None) -> None:
        """A fresh bank (the next seed unless one is given); the score starts again."""
        self.seed = self.seed + 1 if seed is None else seed
        bank = self._make(self.topic, self.seed, self.count, self.preset)
        data = {**self.data, "error": None, "seed": self.seed}
        if "class_code" in data:  # the new bank has its own code
            data["class_code"] = self._class_code()
        self._deal(bank, data)

    def _quiz_state(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "responses": self.responses,
            "selected": self.selected,
            "inspect": self.inspect,
        }


class QuizController(QuizGame, Controller):
    component = "quiz"
    TRAITS = _traits("quiz")
    EVENTS = ("choice", "check", "show", "next", "prev", "restart", "new")
    SYNCED = ("index", "responses", "selected", "inspect", "new_request", "class_request")

    def __init__(
        self,
        topic: str | None = None,
        seed: int = 0,
        count: int = 5,
        preset: str | None = None,
        *,
        questions: Iterable[Any] | None = None,
        title: str | None = None,
        generator: Generator | None = None,
        **traits: Any,
    ) -> None:
        self._setup(topic, seed, count, preset, generator)
        if not traits.get("questions"):
            bank = self._first_bank(questions)
            traits = {
                "questions": bank,
                "responses": [None] * len(bank),
                "data": self._first_data(title, questions),
                **traits,
            }
        Controller.__init__(self, **traits)

    def _apply(self, new: Mapping[str, Any]) -> None:
        Controller._apply(self, new)

    def _event(self, kind: str, ev: Mapping[str, Any]) -> None:
        if kind == "new":
            self.new_questions()
            return
        if kind == "choice":
            q = self.questions[self.index] if self.index < len(self.questions) else None
            if q is None:
                raise Refused("the quiz is over: no question on screen")
            one_of(ev.get("key"), [c["key"] for c in q.get("choices") or []], "key")
        self._apply(quiz_reduce(self.questions, self._quiz_state(), ev))

    def _sync(self, changes: Mapping[str, Any]) -> None:
        if "class_request" in changes:  # a class code the page's banks do not hold
            code = changes["class_request"]
            if not isinstance(code, str) or len(code) > 40:
                raise Refused("class_request: a class code such as lead-10-42")
            rest = {k: v for k, v in changes.items() if k != "class_request"}
            if rest:
                self._sync(rest)
            if code:
                self.use_code(code)
            return
        if "new_request" in changes:
            n = changes["new_request"]
            int_in(n, 0, 2**31 - 1, "new_request")
            rest = {k: v for k, v in changes.items() if k != "new_request"}
            if rest:
                super()._sync(rest)
            if n != self.new_request:
                self._apply({"new_request": n})
                self.new_questions()
            return
        super()._sync(changes)

    def _normalise(self, st: Mapping[str, Any]) -> dict[str, Any]:
        out = quiz_reduce(self.questions, st, {"type": "none"})
        out["new_request"] = st.get("new_request")
        return out


# --- the option explorer ------------------------------------------------------------------------

EXPLORE_OPTIONS: tuple[str, ...] = (
    "two_trumps_lead",
    "two_declared_rule",
    "must_head_in_suit",
    "void_trump_rule",
    "trump_after_trick_two_trumps",
    "lone_stander_rule",
    "pool_remainder",
)


def _preset_of(options: Mapping[str, Any]) -> str | None:
    return next((n for n, p in PRESETS.items() if p.options.to_dict() == dict(options)), None)


class ExploreController(RequestController):
    """Change the preset or an option of a scenario and see the verdict, and its reason,
    change: the position is loaded again under the rules chosen, by the engine."""

    component = "explore"
    TRAITS = _traits("explore")
    EVENTS = ("preset", "option")
    rules: dict[str, Any]

    def __init__(
        self,
        scenario: Mapping[str, Any] | None = None,
        options: Iterable[str] = EXPLORE_OPTIONS,
        **traits: Any,
    ) -> None:
        super().__init__(**traits)
        if scenario is not None:
            self.data: dict[str, Any] = {"scenario": dict(scenario), "keys": list(options)}
            sc = as_scenario_or_hand(dict(scenario))
            opts = sc.options.to_dict() if not isinstance(sc, Hand) else {}
            self._load(dict(opts))
            self.take_changes()

    def _load(self, rules: dict[str, Any]) -> None:
        from loo_lessons.scenario import load

        d = self.data
        keys = list(d.get("keys") or [])
        preset = _preset_of(rules)
        out: dict[str, Any] = {
            "scenario": d["scenario"],
            "keys": keys,
            "preset": preset,
            "presets": list(PRESETS),
            "options": [
                {
                    "key": k,
                    "values": list(OPTION_SPECS[k].values),
                    "value": rules.get(k),
                    "meaning": OPTION_SPECS[k].meaning,
                }
                for k in keys
            ],
            "title": d["scenario"].get("title"),
        }
        data = dict(d["scenario"])
        data["rules"] = rules
        try:
            sc = load(data)
            settled = sc.final_settlement is not None or sc.hand.to_act is None
            if settled:
                out["kind"], out["pool"] = "pool", pool_data(sc)
            else:
                out["kind"], out["question"] = "pick", pick_question(sc)
            out["verdict_refused"] = None
        except LooError as e:
            out["kind"], out["verdict_refused"] = "refused", str(e)
        out["live"] = True
        self._apply({"data": out, "rules": rules})

    def _event(self, kind: str, ev: Mapping[str, Any]) -> None:
        if kind == "preset":
            name = one_of(ev.get("preset"), list(PRESETS), "preset")
            # the preset sets the options shown; the scenario keeps its own other options
            # (a loo_cap of its own stays with its loo_amount)
            shown = PRESETS[name].options.to_dict()
            keys = list(self.data.get("keys") or [])
            self._load({**self.rules, **{k: shown[k] for k in keys}})
            return
        key = one_of(ev.get("key"), list(self.data.get("keys") or []), "key")
        value = one_of(ev.get("value"), list(OPTION_SPECS[key].values), f"rules.{key}")
        self._load({**self.rules, key: value})



# --- the declarations explorer ------------------------------------------------------------------

#: A declaration as the learner reads it, and as a scenario file writes it.
DECLARATION_WORDS: dict[str, str] = {"stand": "play", "take miss": "take_miss", "throw up": "pass"}


class DeclarationsController(RequestController):
    """Change what the players before have declared and see what the one to act may declare
    now, and why: the position is loaded again with those declarations, by the engine. A
    position the rules refuse (two players taking the one miss) is shown as the refusal
    with its rule; when nobody is left to declare, the engine's explanation of what happens
    instead. Drawn by the explore component (`data["mode"] == "declarations"`)."""

    component = "explore"
    TRAITS = _traits("explore")
    EVENTS = ("declare",)

    def __init__(self, scenario: Mapping[str, Any] | None = None, **traits: Any) -> None:
        super().__init__(**traits)
        if scenario is not None:
            from loo_lessons.scenario import load

            sc = load(dict(scenario))
            hand = sc.hand
            if hand.phase is not Phase.DECLARE or hand.to_act is None:
                raise LooError("explore_declarations() takes a scenario in which someone is to declare")
            declared = {int(k): str(v) for k, v in (scenario.get("declarations") or {}).items()}
            if not declared:
                raise LooError("explore_declarations() needs players who have declared already")
            n, elder = hand.setup.players, hand.setup.elder
            order = sorted(declared, key=lambda s: (s - elder) % n)
            self.data: dict[str, Any] = {
                "scenario": dict(scenario),
                "seats": order,
                "title": scenario.get("title"),
            }
            self._load({seat: declared[seat] for seat in order})
            self.take_changes()

    def _load(self, declared: Mapping[int, str]) -> None:
        from loo_lessons.explain import explain_text
        from loo_lessons.scenario import load

        d = self.data
        words = {v: k for k, v in DECLARATION_WORDS.items()}
        out: dict[str, Any] = {
            "scenario": d["scenario"],
            "seats": d["seats"],
            "title": d.get("title"),
            "mode": "declarations",
            "declarations": [
                {"seat": seat, "values": list(DECLARATION_WORDS), "value": words.get(declared[seat], "stand")}
                for seat in d["seats"]
            ],
        }
        data = dict(d["scenario"])
        data.pop("expect", None)  # the file's expected verdict is for the position as written
        data["declarations"] = dict(declared)
        try:
            sc = load(data)
        except LooError as e:
            out["kind"], out["verdict_refused"] = "refused", str(e)
        else:
            out["verdict_refused"] = None
            if sc.hand.to_act is None or sc.hand.phase is not Phase.DECLARE:
                out["kind"], out["explained"] = "explained", explain_text(sc)
            else:
                out["kind"], out["question"] = "pick", pick_question(sc)
        out["live"] = True
        self._apply({"data": out})

    def _event(self, kind: str, ev: Mapping[str, Any]) -> None:
        seat = one_of(ev.get("seat"), list(self.data.get("seats") or []), "seat")
        word = one_of(ev.get("value"), list(DECLARATION_WORDS), "value")
        declared = {
            int(x["seat"]): DECLARATION_WORDS[x["value"]] for x in self.data.get("declarations") or []
        }
        declared[seat] = DECLARATION_WORDS[word]
        self._load(declared)
