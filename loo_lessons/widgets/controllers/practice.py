"""The practice widget's controller: a session of about ten new positions for the rules that
are due or missed (`progress.practice.Session`), one item a screen, graded on Check by the
question's verdicts (the rule, the reason and the book's words), recorded in the learner's
`loo-progress/1` record.

Where the record lives: in JupyterLab a file of the learner's folder (`keep="file"`, the path
`progress.store.default_path()` unless given); in the book the page's browser storage
(`keep="page"`: the page passes the record in as text, and takes it back from
`data["record"]` after every answer). The clock is passed in (`clock`), so a test moves it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, ClassVar

from loo_lessons.engine.errors import InputError
from loo_lessons.progress import mastery, store
from loo_lessons.progress.document import to_json
from loo_lessons.progress.practice import SIZE, Item, Session, item_back, practised, rule_words
from loo_lessons.progress.record import MAX_SECONDS, Record, from_json, loads, upgrade_book
from loo_lessons.widgets.controllers.base import (
    MAX_SEED,
    Refused,
    RequestController,
    int_in,
    one_of,
)

Clock = Callable[[], datetime]
#: Where the record may live: a file of the learner's folder, or the page's storage.
KEEPS = ("file", "page")


def now_utc() -> datetime:
    """The clock the widget reads unless another is passed in (aware, UTC)."""
    return datetime.now(UTC)


class PracticeController(RequestController, component="practice"):
    """`Practice(rules=None, path=None, keep="file", size=10)`: a practice session over the
    learner's record; `rules` (e.g. `["R24", "R32"]`, a teacher's link) makes the session of
    those rules alone. Its buttons: a choice, Check, Show the answer, Next, and Practise again."""

    EVENTS: ClassVar[tuple[str, ...]] = ("choice", "check", "show", "next", "start", "load")

    def __init__(
        self,
        rules: Sequence[str] | None = None,
        *,
        path: str | None = None,
        keep: str = "file",
        record: str | None = None,
        size: int = SIZE,
        seed: int | None = None,
        clock: Clock | None = None,
        **traits: Any,
    ) -> None:
        super().__init__(**traits)
        self._keep = str(one_of(keep, KEEPS, "keep"))
        self._path = Path(path) if path is not None else None
        self._clock: Clock = clock or now_utc
        self._size = int_in(size, 1, 30, "size")
        self._rules = self._checked_rules(rules)
        self._seed = seed
        self._rng = random.Random(seed) if seed is not None else random.SystemRandom()
        self._shown_at: datetime | None = None
        self._error: str | None = None
        try:
            kept = self._load(record)
        except InputError as e:  # a damaged record: said on the widget, never overwritten
            self._error = f"Your progress could not be read: {e}"
            kept = Record()
        self._start(kept)
        self.take_changes()

    @staticmethod
    def _checked_rules(rules: Sequence[str] | None) -> list[str] | None:
        if rules is None:
            return None
        if isinstance(rules, str) or not isinstance(rules, Sequence):
            raise InputError("rules", "a list of rule ids such as ['R24', 'R32']")
        chosen = practised(str(r).strip().upper() for r in rules)
        if not chosen:
            raise InputError("rules", "none of these rules has practice questions")
        return chosen

    def _load(self, text: str | None) -> Record:
        if self._keep == "page":
            return loads(text) if text else Record()
        return store.load(self._path)

    def live_spec(self) -> dict[str, Any] | None:
        """How the book's engine makes this widget again: the `practice` kind with its rules,
        size and seed (when one was fixed); the page passes its own record in."""
        args: dict[str, Any] = {"rules": self._rules, "size": self._size, "keep": "page"}
        if self._seed is not None:
            args["seed"] = self._seed
        return {"kind": "practice", "args": args}

    # --- the session ----------------------------------------------------------------------------
    def _now(self) -> datetime:
        now = self._clock()
        if now.tzinfo is None:
            raise InputError("clock", "the clock must give UTC times")
        return now

    def _start(self, record: Record, first: Item | None = None) -> None:
        self.session = Session(
            record,
            self._now(),
            seed=self._rng.randrange(MAX_SEED),
            size=self._size,
            rules=self._rules,
            first=first,
        )
        self._picked: list[str] = []
        self._current: str | None = None
        self._result: dict[str, Any] | None = None
        self._deal()

    def _deal(self) -> None:
        item = self.session.next()
        self._shown_at = self._now() if item is not None else None
        self._picked, self._current, self._result = [], None, None
        self._draw()

    @property
    def item(self) -> Item | None:
        """The item on screen (None once the session is over)."""
        return self.session.current if self._result is None else self.session.done[-1][0]

    def _answer(self, picked: list[str]) -> None:
        item = self.session.current
        if item is None:
            raise Refused("the session is over: press Practise again")
        now = self._now()
        took = (now - self._shown_at).total_seconds() if self._shown_at is not None else None
        seconds = None if took is None else min(max(took, 0.0), MAX_SECONDS)
        planned = len(self.session.queue)
        a = self.session.answer(picked, now, seconds)
        self._save()
        comeback = len(self.session.queue) > planned
        self._result = {
            "correct": a.correct,
            "picked": list(picked),
            "missed": [rule_words(r) for r in a.at_fault],
            "comeback": comeback,
        }
        self._draw()

    def _save(self) -> None:
        if self._keep == "file":
            try:
                store.save(self.session.record, self._path, self._now())
            except (InputError, OSError) as e:
                self._error = f"Your answer is counted here but could not be saved: {e}"

    # --- events ---------------------------------------------------------------------------------
    def _event(self, kind: str, ev: Mapping[str, Any]) -> None:
        if kind == "start":
            self._start(self.session.record)
            return
        if kind == "load":
            self._load_page(ev)
            return
        if kind == "next":
            if self._result is None and self.session.current is not None:
                raise Refused("answer this one first (or press Show the answer)")
            self._deal()
            return
        item = self.item
        if item is None:
            raise Refused("the session is over: press Practise again")
        if kind != "choice" and self._result is not None:
            raise Refused("this one is answered: press Next")
        keys = [c.key for c in item.question.choices]
        if kind == "choice":
            key = str(one_of(ev.get("key"), keys, "key"))
            if self._result is None:  # a draft until Check
                self._picked = [k for k in self._picked if k != key] if key in self._picked else [*self._picked, key]
            else:  # once graded, a click shows why that choice is right or wrong
                self._current = key
            self._draw()
        elif kind == "check":
            if not self._picked:
                raise Refused("select a choice first, then press Check")
            self._answer(list(self._picked))
        else:  # show: she does not know; the answer is shown and counts as missed
            self._answer([])

    def _load_page(self, ev: Mapping[str, Any]) -> None:
        """The book's page hands over what it keeps (`record`: its loo-progress/1 record, or
        null; `lessons`: the older per-lesson answers, upgraded and merged in) and the rules its
        link names (`rules`, from `#practice=R24,R32`, or null), and a mistake to look at again
        first (`back`, from `#back=quiz:lead:2:1234`, the progress page's link): a new session
        from them. A damaged record is said in one line, and the session starts from what could
        be read."""
        if self._keep != "page":
            raise Refused("load: only the book's page hands its record over")
        rules = ev.get("rules")
        if rules is not None and (not isinstance(rules, list) or len(rules) > 63):
            raise Refused("rules: a list of rule ids such as R24, R32")
        self._error = None
        record = Record()
        try:
            given = ev.get("record")
            if given is not None:
                record = from_json(given)
            old = ev.get("lessons")
            if old is not None:
                if not isinstance(old, Mapping):
                    raise InputError("lessons", "expected an object {lesson: {answers}}")
                record = record.merge(upgrade_book(old, known=record))
        except InputError as e:
            self._error = f"Your progress could not be read: {e}"
        try:
            self._rules = self._checked_rules([str(r)[:4] for r in rules]) if rules else None
        except InputError:
            self._rules = None
            self._error = "This link names no rule practice can ask about: practising what is due instead."
        first = None
        back = ev.get("back")
        if back is not None:
            try:
                first = item_back(back)
            except InputError:
                self._error = "This link names no position practice can deal again: practising what is due instead."
        self._start(record, first)

    # --- Python's twins of the buttons ---------------------------------------------------------
    def click(self, key: str) -> None:
        """A click on choice `key`: select it (before Check) or show its verdict (after)."""
        self._ask("choice", key=key)

    def check(self) -> None:
        """The "Check" button: grade the selection, record it."""
        self._ask("check")

    def show(self) -> None:
        """The "Show the answer" button (counts as missed)."""
        self._ask("show")

    def next(self) -> None:
        """The "Next" button: the next item, or the end of the session."""
        self._ask("next")

    def again(self) -> None:
        """The "Practise again" button: a new session from the record as it is now."""
        self._ask("start")

    @property
    def record(self) -> Record:
        """The learner's record, with this session's answers."""
        return self.session.record

    # --- what the component draws ---------------------------------------------------------------
    def _draw(self) -> None:
        s = self.session
        item = self.item
        right, answered = s.score()
        now = self._now()
        data: dict[str, Any] = {
            "live": True,
            "title": "Practice" if self._rules is None else f"Practice: {', '.join(self._rules)}",
            "rules": self._rules,
            "n": answered + (1 if self._result is None and item is not None else 0),
            "of": len(s.planned_rules()),
            "item": None
            if item is None
            else {"rule": item.rule, "words": rule_words(item.rule), "question": item.question.to_json(), "back": item.back},
            "picked": list(self._picked if self._result is None else self._result["picked"]),
            "current": self._current,
            "result": self._result,
            "score": {"right": right, "answered": answered},
            "done": item is None,
            "error": self._error,
        }
        if item is None:
            met = {i.rule for i, _ in s.done} | {r for _, a in s.done for r in a.rules}
            data["mastery"] = [row for row in mastery.summary(s.record, now) if row["rule"] in met]
            data["due"] = len(mastery.due(s.record, now))
        if self._keep == "page":
            data["record"] = to_json(s.record, now)
        self._apply({"data": data})


__all__ = ["KEEPS", "PracticeController", "now_utc"]
