"""The book engine's worker under crafted messages (issue 15: a crafted `#scenario=` link of
deep JSON switched the playground's engine off; the worker answered with non-JSON). In
Chromium, against the built book's worker, both as the visit's SharedWorker and as a
dedicated Worker: every message gets exactly one answer, an object whose `result` is JSON
text or whose `error` is one line, and the engine answers a good request after any of them.
Hypothesis draws the messages; the deep-JSON link is opened in the playground itself."""

from __future__ import annotations

import json
import urllib.parse
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest
from _book_site import built_site
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from loo_lessons import lessons as L

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page


READY_MS = 120_000
DEEP = "[" * 9000 + "]" * 9000  # ~18 KB of nesting
GOOD = {"id": 9_007_199_254_740_990, "op": "run", "args": ["explain", json.dumps({"text": L.scenario_text(L.scenario_names()[0])})]}

#: Opens both kinds of worker on the page and keeps a `send(kind, messages)` that posts the
#: messages, then GOOD, and resolves with every answer once GOOD's has come back.
SETUP = """async () => {
  const url = document.querySelector('meta[name=loo-build]') ? "../_static/loo-engine/worker.js" : null;
  const shared = new SharedWorker(url, { name: "crafted" });
  const ports = { shared: shared.port, dedicated: new Worker(url) };
  const ready = (p) => new Promise((res, rej) => {
    p.onmessage = (e) => { if (e.data && e.data.type === "ready") res(); if (e.data && e.data.type === "failed") rej(e.data.error); };
  });
  await Promise.all(Object.values(ports).map(ready));
  window.crafted = (kind, messages, good) => new Promise((resolve) => {
    const p = ports[kind];
    const answers = [];
    p.onmessage = (e) => {
      answers.push(e.data);
      if (e.data && e.data.id === good.id) resolve(answers);
    };
    for (const m of messages) p.postMessage(m);
    p.postMessage(good);
  });
  return true;
}"""

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**9), 10**9) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=8), kids, max_size=4),
    max_leaves=12,
)
ops = st.sampled_from(["create", "send", "drop", "run", "eval", "__proto__", "constructor", ""])
args = st.lists(
    st.one_of(
        st.integers(-(2**60), 2**60),
        st.text(max_size=40),
        json_values.map(json.dumps),
        st.sampled_from(["play", "explain", "hands", "quiz", DEEP, '{"text": "' + DEEP + '"}']),
    ),
    max_size=4,
)
messages = st.one_of(
    json_values,
    st.fixed_dictionaries({"id": st.integers(0, 10**6), "op": ops, "args": args}),
    st.fixed_dictionaries({"id": json_values, "op": ops, "args": json_values}),
)


@pytest.fixture(scope="module")
def page(browser: Browser) -> Iterator[Page]:
    from loo_lessons.cli.bench_browser import serve

    site = built_site()
    with serve(site) as origin:
        ctx = browser.new_context()
        try:
            ctx.set_default_timeout(READY_MS)
            pg = ctx.new_page()
            pg.goto(f"{origin}/notebooks/01-welcome.html")
            assert pg.evaluate(SETUP) is True
            pg.origin = origin  # type: ignore[attr-defined]
            yield pg
        finally:
            ctx.close()


def _check(answers: list[Any], sent: int) -> None:
    assert len(answers) == sent + 1, answers
    for a in answers:
        assert isinstance(a, dict) and set(a) in ({"id", "result"}, {"id", "error"}), a
        assert a["id"] is None or isinstance(a["id"], int)
        if "result" in a:
            json.loads(a["result"])
        else:
            assert isinstance(a["error"], str) and a["error"] and "\n" not in a["error"]
    good = json.loads(answers[-1]["result"])
    assert not good.get("error") and good.get("json"), good


@pytest.mark.parametrize("kind", ["shared", "dedicated"])
def test_known_crafted_messages(page: Page, kind: str) -> None:
    crafted: list[Any] = [
        42, "x", None, [], {}, {"id": 1}, {"id": 1, "op": "eval", "args": ["1"]},
        {"id": "1", "op": "run", "args": []}, {"id": 2, "op": "run", "args": "explain"},
        {"id": 3, "op": "send", "args": [1e300, "{}"]}, {"id": 4, "op": "send", "args": [99999, "{}"]},
        {"id": 5, "op": "create", "args": ["play", "{", "{"]}, {"id": 6, "op": "run", "args": ["explain", DEEP]},
        {"id": 7, "op": "run", "args": ["explain", json.dumps({"text": DEEP})]},
        {"id": 8, "op": "run", "args": ["explain", json.dumps({"text": "a: " + "{" * 150})]},
        {"id": 9, "op": "run", "args": ["nope", "{}"]}, {"id": 10, "op": "drop", "args": [-1]},
    ]
    answers = page.evaluate("([k, m, g]) => crafted(k, m, g)", [kind, crafted, GOOD])
    _check(answers, len(crafted))
    refused = {a["id"]: a["error"] for a in answers if "error" in a}
    assert "nested too deeply" in refused[6] and "nested too deeply" in refused[7]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(batch=st.lists(messages, max_size=6), kind=st.sampled_from(["shared", "dedicated"]))
def test_any_message_gets_one_json_answer_and_the_engine_goes_on(page: Page, batch: list[Any], kind: str) -> None:
    answers = page.evaluate("([k, m, g]) => crafted(k, m, g)", [kind, batch, GOOD])
    _check(answers, len(batch))


def test_a_crafted_scenario_link_leaves_the_playground_live(page: Page) -> None:
    origin = page.origin  # type: ignore[attr-defined]
    pg = page.context.new_page()
    pg.goto(f"{origin}/book/playground.html#scenario={urllib.parse.quote(DEEP)}")
    pg.wait_for_function("() => window.looEngine && window.looEngine.state === 'ready'", timeout=READY_MS)
    again = pg.evaluate("(text) => looEngine.run('explain', {text})", L.scenario_text(L.scenario_names()[0]))
    assert not again.get("error") and again.get("json"), again
    assert pg.evaluate("() => looEngine.state") == "ready"
    # typed into the page: a text the worker will not pass to Python (nested too deeply, or a
    # paste over 2 MB) gets its one-line refusal, and the next text is answered live (issue 25)
    good = L.scenario_text(L.scenario_names()[0])
    answer = pg.locator("#loo-pg-answer")
    for text, why in ((good + "\n# " + "[" * 101, "nested too deeply"), ("x" * (2 * 2**20 + 1), "too long")):
        pg.evaluate("(t) => { document.getElementById('loo-pg-text').value = t; }", text)
        pg.click("#loo-pg-explain")
        pg.wait_for_function("() => document.querySelector('#loo-pg-status').textContent === 'Refused by the engine.'")
        line = answer.locator(".loo-refused").inner_text()
        assert line.startswith("Refused: ") and why in line and "\n" not in line, line
        assert answer.get_attribute("data-how") == "engine"
        assert pg.locator("#loo-pg-status").get_attribute("data-engine") == "ready"
        pg.fill("#loo-pg-text", good.replace("title: ", "title: again — ", 1))
        pg.click("#loo-pg-explain")
        pg.wait_for_function("() => document.querySelector('#loo-pg-answer').dataset.ok === 'true'")
        assert answer.get_attribute("data-how") == "engine" and "again" in answer.inner_text()
    pg.close()


def test_the_page_times_the_coach_for_the_bench(page: Page, capsys: pytest.CaptureFixture[str]) -> None:
    """`bench --browser`'s coach line from the page's own answers (few rollouts: shape, not
    speed): the fixed `coach` request times the positions `bench` times in CPython."""
    from loo_lessons.cli.bench_browser import coach_report
    from loo_lessons.sim.decisions import KINDS, coach_positions
    from loo_lessons.widgets.backends.browser import FUNCTIONS

    def ask(name: str, args: dict[str, Any]) -> Any:
        msg = {"id": 9_007_199_254_740_900, "op": "run", "args": [name, json.dumps(args)]}
        (answer,) = page.evaluate("(m) => crafted('dedicated', [], m)", msg)
        return json.loads(answer["result"])

    coach = ask("coach_timing", {"rollouts": 5})
    moves = [len(h.legal_actions()) for _, h in coach_positions()]
    assert [(d["kind"], d["moves"], d["rollouts"]) for d in coach["decisions"]] == [
        (k, m, 5) for k, m in zip(KINDS, moves, strict=True)
    ]
    assert all(d["seconds"] > 0 for d in coach["decisions"])
    assert ask("coach_timing", {"rollouts": 1001}) == {"error": "Refused: rollouts: 1 to 1000"}
    hand_ms = float(ask("hands", {"hands": 20})["ms_per_hand"])
    capsys.readouterr()
    got = coach_report(coach, FUNCTIONS["coach_timing"]({"rollouts": 5}), hand_ms, FUNCTIONS["hands"]({"hands": 20})["ms_per_hand"])
    line = capsys.readouterr().out
    assert line.startswith("browser: the coach, 5 play-outs of each legal move, in the page: declaring (")
    assert "page / CPython: " in line and "random hands in the page" in line
    assert all(v > 0 for v in got.values())
