"""The live components: anywidget classes over the same JS modules as the static export.

Python computes every piece of data (loo_lessons.widgets.data, from the engine); the
browser draws it and sends clicks back as state. `click(key)` and the other methods here
do exactly what the browser's buttons do (they run loo_lessons.widgets.state, the mirror
of the JS reducers), so everything can be driven and tested without a browser.

Callbacks never print: errors and messages go into trait values (`data["error"]`, a
Label's value), never `with output:` (see design.md, "Traps measured").
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, ClassVar

import anywidget
import traitlets

from loo_lessons import quiz
from loo_lessons.quiz.results import ResultLog
from loo_lessons.widgets.bundle import esm
from loo_lessons.widgets.controllers.components import (
    EXPLORE_OPTIONS,
    Controller,
    DeclarationsController,
    ExploreController,
    QuizGame,
    default_generator,
    played_out,
    question_json,
)
from loo_lessons.widgets.data import (
    Position,
    as_scenario_or_hand,
    pick_question,
    pool_data,
    stepper_steps,
    table_view,
)
from loo_lessons.widgets.state import (
    pick_reduce,
    pool_reduce,
    pool_results,
    quiz_reduce,
    quiz_score,
    step_reduce,
)
from loo_lessons.widgets.static import DEFAULT_STATE, Static, component_html

TOPICS: tuple[str, ...] = quiz.TOPICS

Generator = Callable[[str | None, int, int, str | None], Sequence[Any]]


class _Component(anywidget.AnyWidget):  # type: ignore[misc,unused-ignore]
    """A component: `data` computed in Python, plus the state traits the browser changes.

    The traits in `_SYNCED` are checked whenever they change (from the browser or from
    Python): a value the component's reducer would never give is put back to the nearest
    state it would give, and the widget says so (`data["refused"]`); nothing is raised in
    the kernel (issue 10: out-of-range values from the browser broke later reads)."""

    component: ClassVar[str] = ""
    _SYNCED: ClassVar[tuple[str, ...]] = ()
    data = traitlets.Dict().tag(sync=True)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if self._SYNCED:
            self.observe(self._check_synced, names=list(self._SYNCED))

    def _normalise(self, st: Mapping[str, Any]) -> dict[str, Any]:
        return dict(st)

    def set_state(self, sync_data: Any) -> None:
        """What the browser synced: a value of the wrong type (or one a callback refuses) is
        said in the widget instead of raising in the kernel's comm handler."""
        try:
            super().set_state(sync_data)
        except Exception as e:  # from the browser: shown, never a traceback in the kernel log
            self.data = {**self.data, "refused": f"refused: {type(e).__name__}: {str(e)[:200]}"}

    def _check_synced(self, change: Mapping[str, Any]) -> None:
        st = {k: getattr(self, k) for k in self._SYNCED}
        try:
            normal = self._normalise(st)
        except Exception:  # a value no reducer can read: back to the value before
            normal = {**st, change["name"]: change["old"]}
        if normal != st:
            self._apply(
                {
                    **{k: v for k, v in normal.items() if v != st[k]},
                    "data": {**self.data, "refused": f"{change['name']}: a value this widget cannot be in"},
                }
            )

    def _live_spec(self) -> dict[str, Any] | None:
        """How the book's engine makes this widget live (controllers.browser.KINDS)."""
        return None

    def book_html(self) -> str:
        """What the book shows: the static component, which the page's engine takes over."""
        state = self.state()
        spec = self._live_spec()
        if spec is not None and isinstance(state.get("data"), dict) and "live" in state["data"]:
            state["data"] = {**state["data"], "live": False}  # until the engine is there
        return component_html(self.component, state, live=spec)

    def state(self) -> dict[str, Any]:
        """The model state (trait values), as the static export embeds it."""
        return {k: copy.deepcopy(getattr(self, k)) for k in DEFAULT_STATE[self.component]}

    def static_html(self) -> str:
        """This component as a self-contained HTML fragment (no kernel needed)."""
        return component_html(self.component, self.state())

    def static(self) -> Static:
        """This component, as it is now, as an object notebooks show as static HTML."""
        return Static(self.component, self.state())

    def _repr_mimebundle_(self, **kwargs: Any) -> tuple[dict[Any, Any], dict[Any, Any]] | None:
        """The live widget view, plus this component as static HTML: JupyterLab shows the
        widget; the built book (no kernel) shows the static component, still clickable."""
        bundle = super()._repr_mimebundle_(**kwargs)
        if bundle is not None:
            bundle[0]["text/html"] = self.book_html()
        return bundle

    def _apply(self, new: Mapping[str, Any]) -> None:
        with self.hold_sync():
            for k, v in new.items():
                setattr(self, k, v)


def _shown(reveal: bool | Iterable[int]) -> bool | frozenset[int]:
    """`reveal` as the data functions take it: every hand (True), none (False), or these seats."""
    return reveal if isinstance(reveal, bool) else frozenset(reveal)


class _Steps(_Component):
    """A component that steps through `data["steps"]` (the stepper and the presenter): the
    buttons and keys run `_dispatch`, which keeps the step in range (`step_reduce`)."""

    step = traitlets.Int(0).tag(sync=True)
    _SYNCED: ClassVar[tuple[str, ...]] = ("step",)

    def _normalise(self, st: Mapping[str, Any]) -> dict[str, Any]:
        return step_reduce(len(self.steps), st, {"type": "none"})

    def _live_spec(self) -> dict[str, Any] | None:
        return {"kind": self.component, "args": {}}

    @property
    def steps(self) -> list[dict[str, Any]]:
        s: list[dict[str, Any]] = self.data["steps"]
        return s

    @property
    def current(self) -> dict[str, Any]:
        """The step on screen (its title, text, laws, and the table view)."""
        return self.steps[self.step]

    def _dispatch(self, event: Mapping[str, Any]) -> None:
        self._apply(step_reduce(len(self.steps), {"step": self.step}, event))

    def next(self) -> None:
        """Forward one step (→)."""
        self._dispatch({"type": "next"})

    def prev(self) -> None:
        """Back one step (←)."""
        self._dispatch({"type": "prev"})

    def first(self) -> None:
        """The first step (Home)."""
        self._dispatch({"type": "first"})

    def last(self) -> None:
        """The last step (End)."""
        self._dispatch({"type": "last"})

    def goto(self, step: int) -> None:
        self._dispatch({"type": "goto", "step": step})


class CardRow(_Component):
    """A row of cards: `CardRow(["QH", "10S"], title="Seat 3 holds")`."""

    component = "cards"
    _esm = esm("cards")

    def __init__(
        self,
        cards: Iterable[str | None],
        *,
        title: str | None = None,
        size: str = "large",
        **kwargs: Any,
    ) -> None:
        super().__init__(
            data={"cards": list(cards), "title": title, "size": size, "label": title or "cards"},
            **kwargs,
        )


class TableView(_Component):
    """The table of a position: seats, who deals, who is in, cards, the miss, the trick, the pool."""

    component = "table"
    _esm = esm("table")

    def __init__(
        self,
        position: Position,
        *,
        title: str | None = None,
        reveal: bool | Iterable[int] = True,
        **kwargs: Any,
    ) -> None:
        self._reveal = _shown(reveal)
        super().__init__(data=self._data(position, title), **kwargs)

    def _data(self, position: Position, title: str | None) -> dict[str, Any]:
        pos = as_scenario_or_hand(position)
        return {"view": table_view(pos, reveal=self._reveal), "title": title}

    def update(self, position: Position, *, title: str | None = None) -> None:
        """Show another position (e.g. the same hand after a move)."""
        self.data = self._data(position, title)


class PickCard(_Component):
    """Pick a card (or a declaration): the answer shows at once, each choice explained."""

    component = "pick"
    _esm = esm("pick")
    picked = traitlets.List(traitlets.Unicode()).tag(sync=True)
    current = traitlets.Unicode(None, allow_none=True).tag(sync=True)
    revealed = traitlets.Bool(False).tag(sync=True)
    _SYNCED = ("picked", "current", "revealed")

    def _normalise(self, st: Mapping[str, Any]) -> dict[str, Any]:
        return pick_reduce(self.question, st, {"type": "none"})

    def _live_spec(self) -> dict[str, Any] | None:
        return {"kind": "pick", "args": {}}

    def __init__(
        self,
        position: Position | Mapping[str, Any],
        *,
        title: str | None = None,
        prompt: str | None = None,
        reveal: bool | Iterable[int] = True,
        **kwargs: Any,
    ) -> None:
        if isinstance(position, Mapping) and "choices" in position and "verdicts" in position:
            question = dict(position)  # already a question in the quiz schema
        else:
            question = pick_question(position, prompt=prompt, reveal=_shown(reveal))
        super().__init__(data={"question": question, "title": title}, **kwargs)

    @property
    def question(self) -> dict[str, Any]:
        q: dict[str, Any] = self.data["question"]
        return q

    def _dispatch(self, event: Mapping[str, Any]) -> None:
        st = {"picked": self.picked, "current": self.current, "revealed": self.revealed}
        self._apply(pick_reduce(self.question, st, event))

    def click(self, key: str) -> dict[str, Any]:
        """What a click on choice `key` does in the browser; returns its verdict."""
        if key not in [c["key"] for c in self.question["choices"]]:
            raise KeyError(f"{key!r} is not one of the choices {self.choices}")
        self._dispatch({"type": "choice", "key": key})
        return self.verdict_for(key)

    def check(self) -> None:
        """The "Check" button (a question with several answers is graded only then)."""
        self._dispatch({"type": "check"})

    def show(self) -> None:
        """The "Show the answer" button."""
        self._dispatch({"type": "show"})

    def reset(self) -> None:
        """The "Start again" button."""
        self._dispatch({"type": "reset"})

    @property
    def choices(self) -> list[str]:
        return [str(c["key"]) for c in self.question["choices"]]

    @property
    def answer(self) -> list[str]:
        return list(self.question["answer"])

    def verdict_for(self, key: str) -> dict[str, Any]:
        v: dict[str, Any] = self.question["verdicts"][key]
        return v

    @property
    def verdict(self) -> dict[str, Any] | None:
        """The verdict on screen (the last choice clicked), or None."""
        return self.verdict_for(self.current) if self.current is not None else None

    @property
    def first_correct(self) -> bool | None:
        """Was the first choice clicked allowed? None before any click."""
        return self.picked[0] in self.answer if self.picked else None


class PoolCalculator(_Component):
    """Who receives and who pays: entries checked against the engine's settlement."""

    component = "pool"
    _esm = esm("pool")
    entries = traitlets.Dict().tag(sync=True)
    checked = traitlets.Bool(False).tag(sync=True)
    revealed = traitlets.Bool(False).tag(sync=True)
    _SYNCED = ("entries", "checked", "revealed")

    def __init__(self, position: Any, *, title: str | None = None, **kwargs: Any) -> None:
        super().__init__(data=pool_data(position, title=title), **kwargs)

    def _normalise(self, st: Mapping[str, Any]) -> dict[str, Any]:
        return pool_reduce(self.data["fields"], st, {"type": "none"})

    def _live_spec(self) -> dict[str, Any] | None:
        return {"kind": "pool", "args": {}}

    def _dispatch(self, event: Mapping[str, Any]) -> None:
        st = {"entries": self.entries, "checked": self.checked, "revealed": self.revealed}
        self._apply(pool_reduce(self.data["fields"], st, event))

    @property
    def fields(self) -> list[str]:
        return [str(f["id"]) for f in self.data["fields"]]

    def enter(self, field: str, value: int | None) -> None:
        """Type `value` (None: clear the box) into the box `field` ("receives.3", "pays.1",
        "left", "next_pool")."""
        if field not in self.fields:
            raise KeyError(f"{field!r} is not a box here: {self.fields}")
        self._dispatch({"type": "enter", "id": field, "value": value})

    def check(self) -> dict[str, Any]:
        """The "Check" button; returns the marks."""
        self._dispatch({"type": "check"})
        return self.results

    def show(self) -> None:
        """The "Show the working" button."""
        self._dispatch({"type": "show"})

    def reset(self) -> None:
        """The "Clear" button."""
        self._dispatch({"type": "reset"})

    @property
    def results(self) -> dict[str, Any]:
        return pool_results(self.data, self.entries)

    @property
    def expected(self) -> dict[str, int]:
        e: dict[str, int] = self.data["expected"]
        return e


class QuizRunner(QuizGame, _Component):
    """A quiz over a bank of questions: one at a time, graded, explained, scored per topic.

    The bank is `questions` (Question objects or schema mappings), or is made by
    loo_lessons.quiz.generate(topic, seed, count, preset). "New questions" (in the widget,
    or `new_questions()`) makes a fresh bank with the next seed.
    """

    component = "quiz"
    _esm = esm("quiz")
    questions: traitlets.List[Any] = traitlets.List().tag(sync=True)
    index = traitlets.Int(0).tag(sync=True)
    responses: traitlets.List[Any] = traitlets.List().tag(sync=True)
    selected = traitlets.List(traitlets.Unicode()).tag(sync=True)
    inspect = traitlets.Unicode(None, allow_none=True).tag(sync=True)
    new_request = traitlets.Int(0).tag(sync=True)
    #: A class code typed in the browser that its banks do not hold: Python deals it.
    class_request = traitlets.Unicode("").tag(sync=True)
    _SYNCED = ("index", "responses", "selected", "inspect")

    def _normalise(self, st: Mapping[str, Any]) -> dict[str, Any]:
        return quiz_reduce(self.questions, st, {"type": "none"})

    def _live_spec(self) -> dict[str, Any] | None:
        if self._generator is not None:
            return None  # a generator of the notebook's own: the book cannot make more
        return {
            "kind": "quiz",
            "args": {"topic": self.topic, "seed": self.seed, "count": self.count, "preset": self.preset},
        }

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
        **kwargs: Any,
    ) -> None:
        self._setup(topic, seed, count, preset, generator)
        bank = self._first_bank(questions)
        super().__init__(
            questions=bank,
            responses=[None] * len(bank),
            data=self._first_data(title, questions),
            **kwargs,
        )
        self.observe(self._on_new_request, names="new_request")
        self.observe(self._on_class_request, names="class_request")
        # a teacher's record: when each question came on screen, and each first answer
        self._shown_at: dict[int, float] = {0: time.monotonic()}
        self._log = ResultLog()
        self.observe(self._on_index, names="index")
        self.observe(self._on_responses, names="responses")

    def _on_index(self, change: Mapping[str, Any]) -> None:
        self._shown_at.setdefault(int(change["new"]), time.monotonic())

    def _on_responses(self, change: Mapping[str, Any]) -> None:
        old = change["old"] if isinstance(change["old"], list) else []
        new = change["new"] if isinstance(change["new"], list) else []
        for i, r in enumerate(new):
            was = old[i] if i < len(old) else None
            if not isinstance(r, Mapping) or not isinstance(r.get("picked"), list):
                continue  # not an answer (the synced value is put back by _check_synced)
            if was is None and i < len(self.questions) and r["picked"]:
                now = time.monotonic()  # read once: a second read is later than `now`
                seconds = max(0.0, now - self._shown_at.get(i, now))
                self._log.record(self.questions[i], list(r["picked"]), seconds=seconds)

    def results(self) -> Any:
        """The answers given so far, one row each (topic, question_id, rule_ids,
        answer_given, correct, seconds): a pandas DataFrame a teacher can save as CSV."""
        from loo_lessons.views.frames import quiz_results  # quiz/ is plain Python

        return quiz_results(self._log.results)

    def _on_class_request(self, change: Mapping[str, Any]) -> None:
        if isinstance(change["new"], str) and change["new"]:
            self.use_code(change["new"][:40])

    def _on_new_request(self, change: Mapping[str, Any]) -> None:
        try:
            self.new_questions()
        except Exception as e:  # shown in the widget, never lost in a callback
            self.data = {**self.data, "error": f"Could not make new questions: {e}"}

    def _dispatch(self, event: Mapping[str, Any]) -> None:
        self._apply(quiz_reduce(self.questions, self._quiz_state(), event))

    @property
    def question(self) -> dict[str, Any] | None:
        """The question on screen (None on the final score screen)."""
        if self.index < len(self.questions):
            q: dict[str, Any] = self.questions[self.index]
            return q
        return None

    def click(self, key: str) -> dict[str, Any] | None:
        """What a click on choice `key` of the current question does in the browser.
        Returns the verdict of that choice once the question is answered, else None."""
        q = self.question
        if q is None:
            raise IndexError("the quiz is over: no question on screen")
        if key not in [c["key"] for c in q["choices"]]:
            raise KeyError(f"{key!r} is not one of the choices {[c['key'] for c in q['choices']]}")
        self._dispatch({"type": "choice", "key": key})
        answered = self.responses[self.index] is not None
        if not answered:
            return None
        v: dict[str, Any] = q["verdicts"][key]
        return v

    def check(self) -> None:
        """The "Check" button (questions with several right answers)."""
        self._dispatch({"type": "check"})

    def show(self) -> None:
        """The "Show the answer" button."""
        self._dispatch({"type": "show"})

    def next(self) -> None:
        """The "Next question" button."""
        self._dispatch({"type": "next"})

    def prev(self) -> None:
        """The "Back" button."""
        self._dispatch({"type": "prev"})

    def restart(self) -> None:
        """The "Start again" button."""
        self._dispatch({"type": "restart"})

    def press(self, name: str) -> None:
        """Any control button by name: check, show, next, prev, restart, new."""
        if name == "new":
            self.new_request += 1
            return
        if name not in ("check", "show", "next", "prev", "restart"):
            raise KeyError(f"no button {name!r}")
        self._dispatch({"type": name})

    @property
    def score(self) -> dict[str, Any]:
        """Right and answered, overall and per topic."""
        return quiz_score(self.questions, self.responses)


class Explorer(_Component):
    """One position under rules the learner chooses (`controllers.ExploreController`, the
    controller the book's engine runs too): change the preset or an option, the engine loads
    the position again and the verdict and its reasons change. `choose_preset(name)` and
    `set_option(key, value)` do what the selects do."""

    component = "explore"
    _esm = esm("explore")
    rules = traitlets.Dict().tag(sync=True)
    request = traitlets.Dict().tag(sync=True)

    def __init__(
        self,
        scenario: Mapping[str, Any],
        options: Iterable[str] = EXPLORE_OPTIONS,
        *,
        before: str = "",
        **kwargs: Any,
    ) -> None:
        self._args: dict[str, Any] = {"scenario": dict(scenario), "options": list(options)}
        self._ctl: Controller = ExploreController(**self._args)
        self._before = before  # shown above it in the book (e.g. the verdict under each book)
        super().__init__(**self._ctl.state(), **kwargs)
        self.observe(self._on_request, names="request")

    def _on_request(self, change: Mapping[str, Any]) -> None:
        self._apply(self._ctl.receive({"sync": {"request": change["new"]}}))

    def _request(self, **ev: Any) -> None:
        n = int(self.request.get("n", 0)) + 1 if isinstance(self.request.get("n"), int) else 1
        self.request = {**ev, "n": n}

    def choose_preset(self, name: str) -> None:
        """The Preset select."""
        self._request(type="preset", preset=name)

    def set_option(self, key: str, value: Any) -> None:
        """One option's select."""
        self._request(type="option", key=key, value=value)

    @property
    def verdict(self) -> dict[str, Any]:
        """What the component shows: {kind: pick, question} | {kind: pool, pool} | refused."""
        return {k: self.data.get(k) for k in ("kind", "question", "pool", "verdict_refused")}

    def _live_spec(self) -> dict[str, Any] | None:
        return {"kind": "explore", "args": self._args}

    def book_html(self) -> str:
        return self._before + super().book_html()


class DeclarationsExplorer(Explorer):
    """One position in which someone is to declare, with what the players before declared
    chosen by the learner (`controllers.DeclarationsController`, which the book's engine
    runs too): the verdict, the refusal with its rule, or what happens when nobody is left
    to declare. `declare(seat, word)` does what a seat's select does."""

    def __init__(self, scenario: Mapping[str, Any], *, before: str = "", **kwargs: Any) -> None:
        self._args = {"scenario": dict(scenario)}
        self._ctl = DeclarationsController(**self._args)
        self._before = before
        _Component.__init__(self, **self._ctl.state(), **kwargs)
        self.observe(self._on_request, names="request")

    def declare(self, seat: int, word: str) -> None:
        """A seat's select: "stand", "take miss" or "throw up"."""
        self._request(type="declare", seat=seat, value=word)

    @property
    def verdict(self) -> dict[str, Any]:
        """What the component shows: {kind: pick, question} | refused | explained."""
        keys = ("kind", "question", "verdict_refused", "explained")
        return {k: self.data.get(k) for k in keys}

    def _live_spec(self) -> dict[str, Any] | None:
        return {"kind": "declarations", "args": self._args}


class Lab(_Component):
    """The strategy lab: small seeded simulations with a progress bar, summed up as plain
    numbers and drawn as a table and SVG bars (`controllers.lab.LabController`, which the
    book's engine runs in the page too). `run(**settings)` does what "Run" does."""

    component = "lab"
    _esm = esm("lab")
    request = traitlets.Dict().tag(sync=True)
    progress = traitlets.Dict().tag(sync=True)

    def __init__(self, **settings: Any) -> None:
        from loo_lessons.widgets.controllers.lab import LabController

        self._args = dict(settings)
        self._ctl = LabController(**settings)
        super().__init__(**self._ctl.state())
        self._ctl.on_progress = lambda done, total: setattr(
            self, "progress", {"done": done, "total": total}
        )
        self.observe(self._on_request, names="request")

    def _on_request(self, change: Mapping[str, Any]) -> None:
        self._apply(self._ctl.receive({"sync": {"request": change["new"]}}))

    def run(self, **settings: Any) -> dict[str, Any]:
        """Run the simulation (the settings not given stay); returns the result."""
        n = self.request.get("n", 0)
        self.request = {**settings, "type": "run", "n": (n if isinstance(n, int) else 0) + 1}
        out: dict[str, Any] = self.data.get("result") or {}
        return out

    def _live_spec(self) -> dict[str, Any] | None:
        return {"kind": "lab", "args": {k: v for k, v in self._args.items() if k != "run"}}


class Search(_Component):
    """The edge-case search and the preset comparison (`controllers.search.SearchController`,
    which the book's engine runs in the page too). `find(...)` and `compare(...)` do what
    the buttons do."""

    component = "search"
    _esm = esm("search")
    request = traitlets.Dict().tag(sync=True)

    def __init__(self, *, find: bool = False, compare: bool = False, **settings: Any) -> None:
        from loo_lessons.widgets.controllers.search import SearchController

        self._args = dict(settings)
        self._ctl = SearchController(**settings)
        if find:
            self._ctl.receive({"event": {"type": "find"}})
        if compare:
            self._ctl.receive({"event": {"type": "compare"}})
        self._ctl.take_changes()
        super().__init__(**self._ctl.state())
        self.observe(self._on_request, names="request")

    def _on_request(self, change: Mapping[str, Any]) -> None:
        self._apply(self._ctl.receive({"sync": {"request": change["new"]}}))

    def _ask(self, kind: str, settings: Mapping[str, Any]) -> None:
        n = self.request.get("n", 0)
        self.request = {**settings, "type": kind, "n": (n if isinstance(n, int) else 0) + 1}

    def find(self, **settings: Any) -> dict[str, Any] | None:
        """"Find": the first deal where the search holds (None: not among these seeds)."""
        self._ask("find", settings)
        out: dict[str, Any] | None = self.data.get("found")
        return out

    def compare(self, **settings: Any) -> dict[str, Any]:
        """"Compare": one seeded deal under both books."""
        self._ask("compare", settings)
        out: dict[str, Any] = self.data["comparison"]
        return out

    def _live_spec(self) -> dict[str, Any] | None:
        return {"kind": "search", "args": self._args}


class Stepper(_Steps):
    """Step through one deal: the deal, declarations, each card and trick, the settlement."""

    component = "stepper"
    _esm = esm("stepper")

    def __init__(
        self,
        position: Position,
        *,
        title: str | None = None,
        reveal: bool | Iterable[int] = True,
        **kwargs: Any,
    ) -> None:
        super().__init__(
            data={"steps": stepper_steps(position, reveal=_shown(reveal)), "title": title},
            **kwargs,
        )

    def load(self, position: Position, *, title: str | None = None) -> None:
        """Show another deal, from its first step."""
        self._apply(
            {
                "data": {"steps": stepper_steps(position), "title": title},
                "step": 0,
            }
        )

    @classmethod
    def random_deal(
        cls, seed: int, players: int = 5, preset: str | None = None, **kwargs: Any
    ) -> Stepper:
        """A deal from `seed`, played out with moves drawn at random among the legal ones."""
        return cls(played_out(seed, players, preset), **kwargs)


__all__ = [
    "CardRow",
    "DeclarationsExplorer",
    "Explorer",
    "Lab",
    "PickCard",
    "PoolCalculator",
    "QuizRunner",
    "Search",
    "Stepper",
    "TableView",
    "default_generator",
    "played_out",
    "question_json",
]
