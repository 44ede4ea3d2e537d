"""The components' state transitions, in Python: the mirror of the reducers in `js/`.

A click in the browser runs `pickReduce`/`quizReduce`/`poolReduce`/`stepReduce` (JS) and
sends the new state to Python; `click(key)` on a live widget runs the functions below and
sends the new state to the browser. Both must agree exactly: the browser tests replay
random event sequences in Chromium and compare the final state with these functions.

None of this decides a rule: grading is "is the key in the engine's answer?", and the
answer, verdicts and expected values all come precomputed from the engine.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

Event = Mapping[str, Any]
State = dict[str, Any]


def _keys(q: Mapping[str, Any]) -> list[str]:
    return [str(c["key"]) for c in q.get("choices") or []]


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _as_int(x: object) -> int | None:
    return x if isinstance(x, int) and not isinstance(x, bool) else None


# --- pick ------------------------------------------------------------------------------------


def pick_reduce(q: Mapping[str, Any], st: Mapping[str, Any], ev: Event) -> State:
    """pickReduce: `choice` (key), `check`, `show`, `reset`.

    One answer: the first click grades. Several (`multi`): clicks select and deselect, and
    only `check` grades (then a click shows that choice's verdict)."""
    keys = _keys(q)
    raw = st.get("picked")
    picked = [k for k in raw if k in keys] if isinstance(raw, list) else []
    current = st.get("current") if st.get("current") in keys else None
    revealed = bool(st.get("revealed"))
    multi = bool(q.get("multi"))
    kind = ev.get("type")
    if kind == "choice":
        key = ev.get("key")
        if key in keys:
            if multi and not revealed:
                picked = [k for k in picked if k != key] if key in picked else [*picked, key]
                current = None
            elif multi:
                current = key
            else:
                if key not in picked:
                    picked = [*picked, key]
                current = key
    elif kind == "check":
        if multi and picked:
            revealed = True
    elif kind == "show":
        revealed = True
    elif kind == "reset":
        picked, current, revealed = [], None, False
    return {"picked": picked, "current": current, "revealed": revealed}


# --- quiz ------------------------------------------------------------------------------------


def quiz_reduce(questions: Sequence[Mapping[str, Any]], st: Mapping[str, Any], ev: Event) -> State:
    """quizReduce: `choice` (key), `check`, `show`, `next`, `prev`, `restart`."""
    n = len(questions)
    raw_index = _as_int(st.get("index"))
    index = min(max(raw_index, 0), n) if raw_index is not None else 0
    given = st.get("responses")
    given_list: list[Any] = given if isinstance(given, list) else []
    responses: list[Any] = [
        given_list[i] if i < len(given_list) and isinstance(given_list[i], Mapping) else None
        for i in range(n)
    ]
    q = questions[index] if index < n else None
    keys = _keys(q) if q is not None else []
    raw_sel = st.get("selected")
    selected = [k for k in raw_sel if k in keys] if isinstance(raw_sel, list) else []
    inspect = st.get("inspect") if st.get("inspect") in keys else None
    resp = responses[index] if q is not None else None
    answer = list(q.get("answer") or []) if q is not None else []
    kind = ev.get("type")

    def put(r: dict[str, Any]) -> None:
        responses[index] = r

    if kind == "choice":
        key = ev.get("key")
        if q is not None and key in keys:
            if resp is not None:
                inspect = key
            elif q.get("multi"):
                selected = (
                    [k for k in selected if k != key] if key in selected else [*selected, key]
                )
            else:
                put({"picked": [key], "correct": key in answer, "revealed": False})
                inspect = key
    elif kind == "check":
        if q is not None and q.get("multi") and resp is None and selected:
            picked = [k for k in keys if k in selected]
            correct = len(picked) == len(set(answer)) and all(k in answer for k in picked)
            put({"picked": picked, "correct": correct, "revealed": False})
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
    return {
        "answered": answered,
        "right": right,
        "total": len(questions),
        "topics": list(topics.values()),
    }


# --- pool ------------------------------------------------------------------------------------


def pool_reduce(fields: Sequence[Mapping[str, Any]], st: Mapping[str, Any], ev: Event) -> State:
    """poolReduce: `enter` (id, value: int or None for blank), `check`, `show`, `reset`."""
    ids = [str(f["id"]) for f in fields]
    given = st.get("entries")
    given_map: Mapping[str, Any] = given if isinstance(given, Mapping) else {}
    entries = {i: given_map[i] for i in ids if _is_int(given_map.get(i))}
    checked = bool(st.get("checked"))
    revealed = bool(st.get("revealed"))
    kind = ev.get("type")
    if kind == "enter":
        fid = ev.get("id")
        if fid in ids:
            value = ev.get("value")
            if _is_int(value):
                entries[str(fid)] = value
            else:
                entries.pop(str(fid), None)
            checked = False
    elif kind == "check":
        checked = True
    elif kind == "show":
        revealed = True
    elif kind == "reset":
        entries, checked, revealed = {}, False, False
    return {"entries": entries, "checked": checked, "revealed": revealed}


def pool_results(data: Mapping[str, Any], entries: Mapping[str, Any]) -> dict[str, Any]:
    """poolResults: each field right or wrong (a blank counts as 0), and how many are right."""
    out: dict[str, bool] = {}
    expected = data.get("expected") or {}
    for f in data.get("fields") or []:
        v = entries.get(f["id"])
        given = v if _is_int(v) else 0
        out[f["id"]] = given == expected.get(f["id"])
    return {"byField": out, "right": sum(out.values()), "total": len(out)}


# --- stepper ---------------------------------------------------------------------------------


def step_reduce(count: int, st: Mapping[str, Any], ev: Event) -> State:
    """stepReduce: `next`, `prev`, `first`, `last`, `goto` (step)."""
    last = max(0, count - 1)
    raw = _as_int(st.get("step"))
    step = min(max(raw, 0), last) if raw is not None else 0
    kind = ev.get("type")
    if kind == "next":
        step = min(step + 1, last)
    elif kind == "prev":
        step = max(step - 1, 0)
    elif kind == "first":
        step = 0
    elif kind == "last":
        step = last
    elif kind == "goto" and (target := _as_int(ev.get("step"))) is not None:
        step = min(max(target, 0), last)
    return {"step": step}
