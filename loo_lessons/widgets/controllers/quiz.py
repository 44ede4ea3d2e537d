"""The quiz's controller: a bank of questions, one at a time, graded, explained, scored per
topic; "New questions" deals the next seed; a class code deals its own bank; each first
answer is recorded for the teacher (`results()`). `quiz_reduce` is mirrored by `quizReduce`
in js/quiz.js. Grading is "is the key in the engine's answer?"; the questions, answers and
verdicts come from `loo_lessons.quiz`.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, ClassVar, TypeGuard

from loo_lessons import quiz
from loo_lessons.engine.errors import LooError
from loo_lessons.quiz.results import MAX_SECONDS, AnswerRecord, ResultLog
from loo_lessons.widgets.controllers.base import (
    MAX_COUNT,
    MAX_SEED,
    Controller,
    Refused,
    as_int,
    button,
    int_in,
    is_int,
    one_of,
)
from loo_lessons.widgets.controllers.pick import choice_keys

__all__ = ["MAX_COUNT", "MAX_SEED"]

Generator = Callable[[str | None, int, int, str | None], Sequence[Any]]
State = dict[str, Any]
TOPICS: tuple[str, ...] = quiz.TOPICS


def quiz_reduce(questions: Sequence[Mapping[str, Any]], st: Mapping[str, Any], ev: Mapping[str, Any]) -> State:
    """quizReduce: `choice` (key), `check`, `show`, `next`, `prev`, `restart`."""
    n = len(questions)
    raw_index = as_int(st.get("index"))
    index = min(max(raw_index, 0), n) if raw_index is not None else 0
    given = st.get("responses")
    given_list: list[Any] = given if isinstance(given, list) else []
    responses: list[Any] = [
        given_list[i] if i < len(given_list) and isinstance(given_list[i], Mapping) else None
        for i in range(n)
    ]
    q = questions[index] if index < n else None
    keys = choice_keys(q) if q is not None else []
    raw_sel = st.get("selected")
    selected = [k for k in raw_sel if k in keys] if isinstance(raw_sel, list) else []
    inspect = st.get("inspect") if st.get("inspect") in keys else None
    resp = responses[index] if q is not None else None
    kind = ev.get("type")

    def put(r: dict[str, Any]) -> None:
        responses[index] = r

    if kind == "choice":
        key = ev.get("key")
        if q is not None and key in keys:
            if resp is not None:
                inspect = key
            elif q.get("multi"):
                selected = [k for k in selected if k != key] if key in selected else [*selected, key]
            else:
                put({"picked": [key], "correct": grade_keys(q, [key]), "revealed": False})
                inspect = key
    elif kind == "check":
        if q is not None and q.get("multi") and resp is None and selected:
            picked = [k for k in keys if k in selected]
            put({"picked": picked, "correct": grade_keys(q, picked), "revealed": False})
            inspect = None
    elif kind == "show":
        if q is not None:
            put(
                {**resp, "revealed": True}
                if resp is not None
                else {"picked": [], "correct": False, "revealed": True}
            )
    elif kind == "next":
        if index < n:
            index, selected, inspect = index + 1, [], None
    elif kind == "prev":
        if index > 0:
            index, selected, inspect = index - 1, [], None
    elif kind == "restart":
        index, responses, selected, inspect = 0, [None] * n, [], None
    return {"index": index, "responses": responses, "selected": selected, "inspect": inspect}


def grade_keys(q: Mapping[str, Any], picked: Sequence[str]) -> bool:
    """gradeKeys: right iff the key is an answer (one-answer question) or the keys are
    exactly the answers (a several-answer question)."""
    answer = list(q.get("answer") or [])
    if q.get("multi"):
        return len(picked) == len(set(answer)) == len(set(picked)) and all(k in answer for k in picked)
    return len(picked) == 1 and picked[0] in answer


def regraded(q: Mapping[str, Any], r: object) -> dict[str, Any] | None:
    """A response the page gave (None or {picked, correct, revealed}) graded again: the keys
    that are choices of `q`, each once, in the order shown; its mark the engine's."""
    if not isinstance(r, Mapping):
        return None
    given = r.get("picked")
    picked = [k for k in choice_keys(q) if isinstance(given, list) and k in given]
    if not q.get("multi"):
        picked = picked[:1] if isinstance(given, list) and len(given) == 1 else []
    revealed = r.get("revealed") is True
    if not picked and not revealed:
        return None
    return {"picked": picked, "correct": bool(picked) and grade_keys(q, picked), "revealed": revealed}


def quiz_score(questions: Sequence[Mapping[str, Any]], responses: Sequence[Any]) -> dict[str, Any]:
    """quizScore: right and answered overall and per topic (topics in order of appearance)."""
    topics: dict[str, dict[str, Any]] = {}
    answered = right = 0
    for i, q in enumerate(questions):
        t = str(q.get("topic") or "questions")
        row = topics.setdefault(t, {"topic": t, "questions": 0, "answered": 0, "right": 0})
        row["questions"] += 1
        r = responses[i] if i < len(responses) else None
        if isinstance(r, Mapping):
            row["answered"] += 1
            answered += 1
            if r.get("correct"):
                row["right"] += 1
                right += 1
    return {"answered": answered, "right": right, "total": len(questions), "topics": list(topics.values())}


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


class QuizController(Controller, component="quiz"):
    """`QuizRunner(topic=None, seed=0, count=5, preset=None, *, questions=, title=, generator=)`:
    the bank is `questions` (Question objects or schema mappings), or is made by
    `loo_lessons.quiz.generate(topic, count, seed, preset)`."""

    EVENTS: ClassVar[tuple[str, ...]] = ("choice", "check", "show", "next", "prev", "restart", "new")
    SYNCED: ClassVar[tuple[str, ...]] = ("index", "responses", "selected", "inspect", "new_request", "class_request")
    questions: list[Any]
    index: int
    responses: list[Any]
    selected: list[str]
    inspect: str | None
    new_request: int
    class_request: str

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
        self.topic, self.seed, self.count, self.preset = topic, seed, count, preset
        self._generator = generator
        # a teacher's record: when each question came on screen, and each first answer
        self._shown_at: dict[int, float] = {0: time.monotonic()}
        self._log = ResultLog()
        self._attempt = 1  # "Start again" makes the next; a new bank starts at 1
        #: Called (by the kernel's widget) when something changes outside a message.
        self.on_change: Callable[[], None] | None = None
        if not traits.get("questions"):
            bank = self._first_bank(questions)
            traits = {
                "questions": bank,
                "responses": [None] * len(bank),
                "data": self._first_data(title, questions),
                **traits,
            }
        super().__init__(**traits)

    def live_spec(self) -> dict[str, Any] | None:
        """How the book's engine makes this widget again: the `quiz` kind with its topic, seed,
        count and preset; None for a generator of the notebook's own, which the book cannot run."""
        if self._generator is not None:
            return None  # a generator of the notebook's own: the book cannot make more
        return {
            "kind": "quiz",
            "args": {"topic": self.topic, "seed": self.seed, "count": self.count, "preset": self.preset},
        }

    # --- the bank --------------------------------------------------------------------------------
    def _make(self, topic: str | None, seed: int, count: int, preset: str | None) -> list[dict[str, Any]]:
        gen = self._generator or default_generator()
        return [question_json(q) for q in gen(topic, seed, count, preset)]

    def _first_bank(self, questions: Iterable[Any] | None) -> list[dict[str, Any]]:
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
            self._apply({"data": {**self.data, "error": str(e)}, "class_request": ""})
            return
        self._deal(self._code_bank(c), {**self.data, "error": None, "class_code": str(c)}, class_request="")

    def _code_bank(self, c: quiz.ClassCode) -> list[dict[str, Any]]:
        """Class code `c`'s questions, as the engine deals them; "New questions" goes on from it."""
        self.topic = None if c.topic == "mixed" else c.topic
        self.seed, self.count, self.preset = c.seed, c.count, None
        return [question_json(q) for q in quiz.for_code(c)]

    def take_over(self) -> None:
        """The state a page hands over when the book's engine comes: while Pyodide started,
        the page dealt a class code it holds and graded answers itself. The engine deals that
        code's questions again (a page whose questions are not the code's gets the code dealt
        afresh) and grades every answer again; an answer the page timed (`seconds` in its
        response) is recorded, and posted under a class hub, like one given here."""
        code = self.data.get("class_code") if isinstance(self.data, Mapping) else None
        try:
            c = quiz.class_code.parse(code) if isinstance(code, str) and code else None
        except ValueError:
            c = None
        if c is not None:
            bank = self._code_bank(c)
            if [q["id"] for q in bank] != [q.get("id") if isinstance(q, Mapping) else None for q in self.questions]:
                self._deal(bank, {**self.data, "error": None, "class_code": str(c)})
                return
            self.questions = bank
        raw: list[Any] = self.responses if isinstance(self.responses, list) else []
        given = [raw[i] if i < len(raw) else None for i in range(len(self.questions))]
        self.responses = [regraded(q, r) for q, r in zip(self.questions, given, strict=True)]
        for i, (r, g) in enumerate(zip(self.responses, given, strict=True)):
            timed = g.get("seconds") if isinstance(g, Mapping) else None
            if r is not None and r["picked"] and is_seconds(timed):
                self._note(i, r["picked"], float(timed))
        self._apply(self._normalise(self._state()))

    def _deal(self, bank: list[dict[str, Any]], data: dict[str, Any], **more: Any) -> None:
        """A fresh bank on screen: the first question, nothing answered."""
        self._shown_at = {0: time.monotonic()}
        self._attempt = 1
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
        nxt = self.seed + 1 if seed is None else seed
        try:
            bank = self._make(self.topic, int_in(nxt, 0, MAX_SEED, "seed"), self.count, self.preset)
        except (LooError, ValueError, KeyError, TypeError) as e:  # shown in the widget
            self._apply({"data": {**self.data, "error": f"Could not make new questions: {e}"}})
            return
        self.seed = nxt
        data = {**self.data, "error": None, "seed": self.seed}
        if "class_code" in data:  # the new bank has its own code
            data["class_code"] = self._class_code()
        self._deal(bank, data)

    # --- the record a teacher reads --------------------------------------------------------------
    def _apply(self, new: Mapping[str, Any]) -> None:
        old = self.responses if isinstance(getattr(self, "responses", None), list) else []
        super()._apply(new)
        if "index" in new and is_int(new["index"]):
            self._shown_at.setdefault(int(new["index"]), time.monotonic())
        if "responses" in new and "questions" not in new:
            if any(r is not None for r in old) and all(r is None for r in self.responses):
                self._attempt += 1  # "Start again" on the same questions
            self._record(old, self.responses)

    def _record(self, old: list[Any], new: list[Any]) -> None:
        for i, r in enumerate(new):
            was = old[i] if i < len(old) else None
            if not isinstance(r, Mapping) or not isinstance(r.get("picked"), list):
                continue
            if was is None and i < len(self.questions) and r["picked"]:
                now = time.monotonic()  # read once: a second read is later than `now`
                self._note(i, list(r["picked"]), max(0.0, now - self._shown_at.get(i, now)))

    def _note(self, i: int, picked: list[str], seconds: float) -> None:
        """Question `i` answered with `picked` in `seconds`: the teacher's record, and the
        class hub's dashboard."""
        result = self._log.record(self.questions[i], picked, seconds=seconds)
        self._post(result.question_id, picked, seconds)

    def _post(self, question_id: str, picked: list[str], seconds: float) -> None:
        """Under the class hub, the answer goes to the teacher's dashboard as this pupil
        (`quiz.post`: nothing elsewhere, never an error in the widget)."""
        code = self.data.get("class_code") if isinstance(self.data, Mapping) else None
        if not isinstance(code, str) or not code:
            return  # not a class's quiz: nothing a dashboard could re-grade
        from loo_lessons.quiz import post  # standard library only

        # the pupil is the hub's login, never the record's word: left blank
        post.answer(
            AnswerRecord(code, question_id, tuple(picked), round(seconds, 1), self._attempt, ""),
            refused=self.service_refused,
        )

    def service_refused(self, line: str) -> None:
        """The results service kept an answer out (e.g. 409: the question was answered
        already in this attempt: an answer is final once posted): its line, on the quiz."""
        shown = " ".join(str(line).split())[:300]
        self._apply({"data": {**self.data, "error": f"The class results did not keep this answer: {shown}"}})
        if self.on_change is not None:  # the kernel's widget shows it now, not at the next click
            self.on_change()

    def results(self) -> Any:
        """The answers given so far, one row each (topic, question_id, rule_ids,
        answer_given, correct, seconds): a pandas DataFrame a teacher can save as CSV."""
        from loo_lessons.views.frames import quiz_results  # pandas: only when asked

        return quiz_results(self._log.results)

    # --- messages --------------------------------------------------------------------------------
    def _state(self) -> dict[str, Any]:
        return {"index": self.index, "responses": self.responses, "selected": self.selected, "inspect": self.inspect}

    def receive(self, message: object) -> dict[str, Any]:
        """As every controller's; and a class code whose bank the page holds (the page sets
        the questions itself, then syncs them with the code): Python deals that code."""
        sync = message.get("sync") if isinstance(message, Mapping) and len(message) == 1 else None
        if isinstance(sync, Mapping) and "questions" in sync and not self._holds("questions", sync["questions"]):
            data = sync.get("data")
            code = data.get("class_code") if isinstance(data, Mapping) else None
            if isinstance(code, str):
                message = {"sync": {"class_request": code}}
        return super().receive(message)

    def _event(self, kind: str, ev: Mapping[str, Any]) -> None:
        if kind == "new":
            self.new_questions()
            return
        if kind == "choice":
            q = self.question
            if q is None:
                raise Refused("the quiz is over: no question on screen")
            one_of(ev.get("key"), choice_keys(q), "key")
        self._apply(quiz_reduce(self.questions, self._state(), ev))

    def _sync(self, changes: Mapping[str, Any]) -> None:
        if "index" in changes and changes["index"] != self.index:
            # a selection belongs to its question: another question starts with none
            changes = {**changes, "selected": []}
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
            n = int_in(changes["new_request"], 0, MAX_SEED, "new_request")
            rest = {k: v for k, v in changes.items() if k != "new_request"}
            if rest:
                super()._sync(rest)
            if n != self.new_request:
                self._apply({"new_request": n})
                self.new_questions()
            return
        super()._sync(changes)

    def _normalise(self, st: Mapping[str, Any]) -> dict[str, Any]:
        return quiz_reduce(self.questions, st, {"type": "none"})

    # --- Python's twins of the buttons -----------------------------------------------------------
    @property
    def question(self) -> dict[str, Any] | None:
        """The question on screen (None on the final score screen)."""
        if 0 <= self.index < len(self.questions):
            q: dict[str, Any] = self.questions[self.index]
            return q
        return None

    def click(self, key: str) -> dict[str, Any] | None:
        """What a click on choice `key` of the current question does in the browser.
        Returns the verdict of that choice once the question is answered, else None."""
        q = self.question
        if q is None:
            raise IndexError("the quiz is over: no question on screen")
        if key not in choice_keys(q):
            raise KeyError(f"{key!r} is not one of the choices {choice_keys(q)}")
        self._event("choice", {"type": "choice", "key": key})
        if self.responses[self.index] is None:
            return None
        v: dict[str, Any] = q["verdicts"][key]
        return v

    check = button("check", 'The "Check" button (questions with several right answers).')
    show = button("show", 'The "Show the answer" button.')
    next = button("next", 'The "Next question" button.')
    prev = button("prev", 'The "Back" button.')
    restart = button("restart", 'The "Start again" button.')

    def press(self, name: str) -> None:
        """Any control button by name: check, show, next, prev, restart, new."""
        if name not in ("check", "show", "next", "prev", "restart", "new"):
            raise KeyError(f"no button {name!r}")
        if name == "new":
            self._apply({"new_request": self.new_request + 1})
        self._event(name, {"type": name})

    @property
    def score(self) -> dict[str, Any]:
        """Right and answered, overall and per topic."""
        return quiz_score(self.questions, self.responses)


def is_seconds(x: object) -> TypeGuard[int | float]:
    """Seconds a page measured: a number from 0 to `results.MAX_SECONDS`."""
    return isinstance(x, int | float) and not isinstance(x, bool) and 0 <= x <= MAX_SECONDS
