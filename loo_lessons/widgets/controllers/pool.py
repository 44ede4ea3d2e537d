"""The pool component's controller: who receives and who pays, typed by the learner and
checked against the engine's settlement (`pool_reduce`, mirrored by `poolReduce` in js/pool.js).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from loo_lessons.quiz.pool_sum import pool_data
from loo_lessons.widgets.controllers.base import (
    Controller,
    Refused,
    button,
    int_in,
    is_int,
    one_of,
)

State = dict[str, Any]
#: The largest number a box takes (no pool in these books comes near it).
LIMIT = 10**6


def _field_ids(fields: Sequence[Mapping[str, Any]]) -> list[str]:
    return [str(f["id"]) for f in fields if isinstance(f, Mapping) and "id" in f]


def pool_reduce(fields: Sequence[Mapping[str, Any]], st: Mapping[str, Any], ev: Mapping[str, Any]) -> State:
    """poolReduce: `enter` (id, value: int or None for blank), `check`, `show`, `hide`, `reset`."""
    ids = _field_ids(fields)
    given = st.get("entries")
    given_map: Mapping[str, Any] = given if isinstance(given, Mapping) else {}
    entries = {i: given_map[i] for i in ids if is_int(given_map.get(i))}
    checked = bool(st.get("checked"))
    revealed = bool(st.get("revealed"))
    kind = ev.get("type")
    if kind == "enter":
        fid = ev.get("id")
        if fid in ids:
            value = ev.get("value")
            if is_int(value):
                entries[str(fid)] = value
            else:
                entries.pop(str(fid), None)
            checked = False
    elif kind == "check":
        checked = True
    elif kind == "show":
        revealed = True
    elif kind == "hide":
        revealed = False
    elif kind == "reset":
        entries, checked, revealed = {}, False, False
    return {"entries": entries, "checked": checked, "revealed": revealed}


def pool_results(data: Mapping[str, Any], entries: Mapping[str, Any]) -> dict[str, Any]:
    """poolResults: each field right or wrong (a blank counts as 0), and how many are right."""
    out: dict[str, bool] = {}
    expected = data.get("expected") or {}
    for fid in _field_ids(data.get("fields") or []):
        v = entries.get(fid)
        given = v if is_int(v) else 0
        out[fid] = given == expected.get(fid)
    return {"byField": out, "right": sum(out.values()), "total": len(out)}


class PoolController(Controller, component="pool"):
    """`PoolCalculator(position, title=)`: a settled position, a Scenario or a Settlement."""

    EVENTS: ClassVar[tuple[str, ...]] = ("enter", "check", "show", "hide", "reset")
    SYNCED: ClassVar[tuple[str, ...]] = ("entries", "checked", "revealed")
    LIMIT = LIMIT
    entries: dict[str, Any]
    checked: bool
    revealed: bool

    def __init__(self, position: Any = None, *, title: str | None = None, **traits: Any) -> None:
        super().__init__(**traits)
        if position is not None:
            self.data = pool_data(position, title=title)

    @classmethod
    def of(cls, position: Any, title: str | None = None) -> PoolController:
        """A pool widget for a settled `position`: boxes for what each player receives and pays,
        what is left and the next pool (R38-R40)."""
        return cls(position, title=title)

    def live_spec(self) -> dict[str, Any] | None:
        """How the book's engine makes this widget again: the `pool` kind (its deal travels in its
        state)."""
        return {"kind": "pool", "args": {}}

    def _fields(self) -> list[Mapping[str, Any]]:
        return list(self.data.get("fields") or [])

    def _event(self, kind: str, ev: Mapping[str, Any]) -> None:
        if kind == "enter":
            one_of(ev.get("id"), self.fields, "id")
            v = ev.get("value")
            if v is not None:
                int_in(v, -LIMIT, LIMIT, "value")
        st = {k: getattr(self, k) for k in self.SYNCED}
        self._apply(pool_reduce(self._fields(), st, ev))

    def _normalise(self, st: Mapping[str, Any]) -> dict[str, Any]:
        entries = st.get("entries")
        if isinstance(entries, Mapping):
            for v in entries.values():
                if is_int(v) and abs(v) > LIMIT:
                    raise Refused(f"entries: numbers from -{LIMIT} to {LIMIT}")
        return pool_reduce(self._fields(), st, {"type": "none"})

    # --- Python's twins of the boxes and buttons --------------------------------------------------
    @property
    def fields(self) -> list[str]:
        """The ids of the widget's boxes ("receives.3", "pays.1", "left", "next_pool")."""
        return _field_ids(self._fields())

    def enter(self, field: str, value: int | None) -> None:
        """Type `value` (None: clear the box) into the box `field` ("receives.3", "pays.1",
        "left", "next_pool")."""
        if field not in self.fields:
            raise KeyError(f"{field!r} is not a box here: {self.fields}")
        self._event("enter", {"type": "enter", "id": field, "value": value})

    def check(self) -> dict[str, Any]:
        """The "Check" button; returns the marks."""
        self._event("check", {"type": "check"})
        return self.results

    show = button("show", 'The "Show the working" button.')
    hide = button("hide", 'The same button pressed again: "Hide the working".')
    reset = button("reset", 'The "Clear" button.')

    @property
    def results(self) -> dict[str, Any]:
        """The marks: each box right or wrong against the engine's settlement (a blank counts as
        0), and how many are right of how many."""
        return pool_results(self.data, self.entries)

    @property
    def expected(self) -> dict[str, int]:
        """What the engine's settlement puts in each box, by box id."""
        e: dict[str, int] = self.data["expected"]
        return e
