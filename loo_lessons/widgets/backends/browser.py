"""The book's back end: what the page's Web Worker calls in Pyodide (see js/engine.js).

Every call takes and returns JSON text (one copy across the worker boundary, no proxies):

- `create(kind, args, state)`: a controller of that kind (`registry.REGISTRY`), made from its arguments
  and the state the page shows now (`Controller.take_over`: the quiz grades again what the
  page graded before the engine came); returns `{"id", "state"}` (every trait);
- `send(id, message)`: one message from the component (`{"event": ...}` or `{"sync": ...}`);
  returns `{"changes"}` (the traits that changed);
- `drop(id)`: forget a controller;
- `run(name, args)`: one of `FUNCTIONS` (the playground's `explain`; the progress page's `progress_merge` and
  `progress_summary`; the bench's `hands` and
  `coach`, fixed timings whose only argument is a count).

Nothing here raises for a bad call: the answer is `{"error": "..."}` and the page shows it.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from loo_lessons.widgets.controllers.base import Refused, checked_json
from loo_lessons.widgets.registry import REGISTRY, controller_class

if TYPE_CHECKING:
    from loo_lessons.widgets.controllers.base import Controller

#: The widgets the page can make (`registry`).
KINDS = REGISTRY

#: Set by the book's worker: posts a progress line (JSON text) to the page.
PROGRESS: Callable[[str], None] | None = None

#: How many controllers one page may hold at once (a page has a few dozen widgets at most).
MAX_LIVE = 500

_live: dict[int, Controller] = {}
_next = [0]


def _answer(f: Callable[[], Any]) -> str:
    """Always JSON text: the answer, or {"error": one line}."""
    try:
        return json.dumps(f(), ensure_ascii=False)
    except Exception as e:  # anything at all: the worker answers in JSON and lives on
        return json.dumps({"error": " ".join(f"{type(e).__name__}: {e}".split())[:300]})


def _mapping(text: str, what: str) -> Mapping[str, Any]:
    if not isinstance(text, str):
        raise Refused(f"{what} must be JSON text")
    value = json.loads(text) if text else {}
    if not isinstance(value, Mapping):
        raise Refused(f"{what} must be an object")
    return value


def create(kind: str, args: str = "{}", state: str = "{}") -> str:
    """Make a live widget of `kind` in the page's worker from JSON `args` and the traits of `state`
    it knows; JSON text of its id and first state, or `{"error": one line}` (an unknown kind,
    too many live widgets)."""
    def make() -> dict[str, Any]:
        if kind not in KINDS:
            raise Refused(f"unknown widget {kind[:40]!r} (known: {', '.join(KINDS)})")
        if len(_live) >= MAX_LIVE:
            raise Refused("too many live widgets on this page")
        cls = controller_class(kind)
        given = _mapping(args, "args")
        traits = {k: v for k, v in _mapping(state, "state").items() if k in cls.TRAITS}
        data = traits.get("data")
        if isinstance(data, dict) and "live" in data:
            traits["data"] = {**data, "live": True}  # the page shows it static until now
        checked_json(given, "args")
        checked_json(traits, "state")
        ctl = cls(**given, **traits)
        if traits:
            ctl.take_over()  # what the page did before the engine came, checked by it
        ctl.files = False  # the page downloads what a kernel would write
        ctl.take_changes()
        _next[0] += 1
        cid = _next[0]
        _live[cid] = ctl

        def post(done: int, total: int) -> None:
            if PROGRESS is not None:
                PROGRESS(json.dumps({"type": "progress", "id": cid, "done": done, "total": total}))

        ctl.on_progress = post
        return {"id": _next[0], "state": ctl.state()}

    return _answer(make)


def send(cid: int, message: str) -> str:
    """Hand one message (JSON text) from the component of live widget `cid` to its controller; JSON
    text of the traits that changed, or `{"error": one line}`."""
    def go() -> dict[str, Any]:
        ctl = _live.get(int(cid))
        if ctl is None:
            raise Refused(f"no live widget {cid}")
        if not isinstance(message, str):
            raise Refused("message must be JSON text")
        # whatever it holds, the controller refuses it or takes it, as the kernel's does
        return {"changes": ctl.receive(json.loads(message) if message else None)}

    return _answer(go)


def drop(cid: int) -> str:
    """Forget live widget `cid` (its component left the page); JSON text saying whether it was
    there."""
    return _answer(lambda: {"dropped": _live.pop(int(cid), None) is not None})


# --- one-off functions ---------------------------------------------------------------------------


def _explain(args: Mapping[str, Any]) -> dict[str, Any]:
    """The `explain` command for a scenario typed in the page (YAML or JSON text): the
    playground's own answer ({ok, text, html, json, error}: explain.playground.answer)."""
    from loo_lessons.explain.playground import answer

    text = args.get("text")
    if not isinstance(text, str):
        raise Refused("text: the scenario, as YAML or JSON text")
    return dict(answer(text))


def _coach(args: Mapping[str, Any]) -> dict[str, Any]:
    """The playground's "Ask the coach" for a scenario typed in the page: the coach's advice
    for the seat to act ({ok, text, html, json, error}: views.advice.advise)."""
    from loo_lessons.views.advice import advise

    text = args.get("text")
    if not isinstance(text, str):
        raise Refused("text: the scenario, as YAML or JSON text")
    return dict(advise(text))


def _hands(args: Mapping[str, Any]) -> dict[str, Any]:
    """Random legal hands played to the end: the bench's in-browser hand cost."""
    from loo_lessons.engine.game import Hand

    n = args.get("hands", 100)
    if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 100_000:
        raise Refused("hands: 1 to 100000")
    start = time.perf_counter()
    for i in range(n):
        h = Hand.from_seed(i, 5, 0, "hoffmann")
        rng = random.Random(i)
        while h.to_act is not None:
            legal = h.legal_actions()
            h.apply(legal[rng.randrange(len(legal))])
    seconds = time.perf_counter() - start
    return {"hands": n, "seconds": seconds, "ms_per_hand": 1000 * seconds / n}


#: Most rollouts a move the bench's `coach_timing` takes (its figure is for 1,000).
MAX_COACH_ROLLOUTS = 1000


def _coach_timing(args: Mapping[str, Any]) -> dict[str, Any]:
    """The coach timed on its fixed positions (`sim.decisions.time_coach`, the same as `bench`
    times in CPython): the bench's in-browser coach cost. Only the count of rollouts is taken."""
    from loo_lessons.sim.decisions import time_coach

    n = args.get("rollouts", MAX_COACH_ROLLOUTS)
    if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= MAX_COACH_ROLLOUTS:
        raise Refused(f"rollouts: 1 to {MAX_COACH_ROLLOUTS}")
    return {"decisions": [t.as_json() for t in time_coach(n, seed=1)]}


def _progress_merge(args: Mapping[str, Any]) -> dict[str, Any]:
    """The progress page's "Load a progress file": the file's text merged into the record the
    browser keeps (`progress.book.merge_file`), or the one line that refuses it."""
    from datetime import UTC, datetime

    from loo_lessons.progress.book import merge_file

    return merge_file(args.get("record"), args.get("lessons"), args.get("text"), datetime.now(UTC))


def _progress_summary(args: Mapping[str, Any]) -> dict[str, Any]:
    """The progress page's table by rule: how sure, what is due, the mistakes
    (`progress.book.summary`)."""
    from datetime import UTC, datetime

    from loo_lessons.progress.book import summary

    return summary(args.get("record"), args.get("lessons"), datetime.now(UTC))


FUNCTIONS: dict[str, Callable[[Mapping[str, Any]], dict[str, Any]]] = {
    "explain": _explain,
    "progress_merge": _progress_merge,
    "progress_summary": _progress_summary,
    "coach": _coach,
    "hands": _hands,
    "coach_timing": _coach_timing,
}


def run(name: str, args: str = "{}") -> str:
    """Run one of the page's named functions (`FUNCTIONS`: explain, coach, hands, coach_timing,
    progress_merge, progress_summary)
    with JSON `args`; its answer as JSON text, or `{"error": one line}`."""
    def go() -> dict[str, Any]:
        if name not in FUNCTIONS:
            raise Refused(f"unknown function {name[:40]!r} (known: {', '.join(FUNCTIONS)})")
        return FUNCTIONS[name](_mapping(args, "args"))

    return _answer(go)
