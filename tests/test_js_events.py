"""The JavaScript held to the Python's standard (issue 26): js/events.d.ts is what
tools/js_events.py makes from the controllers' EVENTS and play.py's REQUEST_KEYS, each
component's `send` is typed with its own controller's events (so `tsc`, in make jscheck,
refuses any other) and still bundles, and every file is checked (`// @ts-check`) by a strict
tsc config that make jscheck runs."""

from __future__ import annotations

import json
import re
from fnmatch import fnmatch
from pathlib import Path

import pytest

from loo_lessons.widgets import bundle
from loo_lessons.widgets.controllers.pass_play import PASS_REQUEST_KEYS
from loo_lessons.widgets.controllers.play import REQUEST_KEYS
from loo_lessons.widgets.registry import REGISTRY, controller_class
from tools import js_events

JS = Path(js_events.TARGET).parent


def test_events_d_ts_is_current() -> None:
    assert js_events.TARGET.read_text(encoding="utf-8") == js_events.render(), (
        "js/events.d.ts is stale: run python -m tools.js_events"
    )
    assert js_events.main(["--check"]) == 0


def test_every_declared_event_is_one_a_controller_accepts() -> None:
    declared = dict(re.findall(r"interface (\w+)Event \{ type: ([^;]+);", js_events.render()))
    for js, events in js_events.events_by_component().items():
        if not events:
            continue
        got = set(re.findall(r'"([a-z_-]+)"', declared[js[:1].upper() + js[1:]]))
        accepted = {e for kind, entry in REGISTRY.items() if entry.js == js for e in controller_class(kind).EVENTS}
        assert got == accepted, js


def test_the_play_requests_are_the_ones_play_py_accepts() -> None:
    # tsc (make jscheck) holds play.js's requests to this type: a request play.py would refuse
    # (an unknown type, a key it does not take) does not type-check
    union = re.search(r"type PlayRequest = (.+);", js_events.render())
    assert union is not None
    got = {
        m.group(1): tuple(re.findall(r"; (\w+): string", m.group(0)))
        for m in re.finditer(r'\{ type: "(\w+)"[^}]*\}', union.group(1))
    }
    assert got == {k: tuple(x for x in v if x not in ("n", "type")) for k, v in REQUEST_KEYS.items()}


def test_the_pass_and_play_requests_are_the_ones_pass_play_py_accepts() -> None:
    # tsc holds passplay.js's own requests (show, start, load) to types.d.ts PassplayRequest:
    # its types and their keys are the ones pass_play.py takes, and nothing else
    text = (JS / "types.d.ts").read_text(encoding="utf-8")
    union = re.search(r"^export type PassplayRequest =\n(.*?);$", text, re.M | re.S)
    assert union is not None
    got = {
        m.group(1): set(re.findall(r"; (\w+)\??:", m.group(0)))
        for m in re.finditer(r'\{ type: "(\w+)"[^}]*\}', union.group(1))
    }
    assert got == {k: set(v) - {"n", "type"} for k, v in PASS_REQUEST_KEYS.items()}
    traits = re.search(r"^export type PassplayTraits = \{\n(.*?)^\};$", text, re.M | re.S)
    assert traits is not None
    assert "request?: Requested<PassplayRequest | PlayRequest | EveningRequest>;" in traits.group(1)


@pytest.mark.parametrize("name", sorted({e.js for e in REGISTRY.values()}))
def test_a_component_sends_only_its_own_events(name: str) -> None:
    text = (JS / f"{name}.js").read_text(encoding="utf-8")
    # LooEvent (any component's) only types the shared helpers' parameter (cards.js act)
    typed = [t for t in re.findall(r"@param \{(\w+)Event\} ev", text) if t != "Loo"]
    assert set(typed) <= {name[:1].upper() + name[1:]}, (name, typed)
    if re.search(r"const send = \(ev\) =>", text):
        # a component whose events carry its controller's EVENTS as their type names them
        own = set(controller_class(next(k for k, e in REGISTRY.items() if e.js == name)).EVENTS)
        if own != {"request"}:  # play, evening: a request trait whose type play.py checks
            assert typed, f"{name}.js: its send is not typed with its events"
    assert bundle.esm(name)  # the JSDoc and // @ts-check lines bundle as before


#: A trait the static page's stand-in model adds to every component's state (static.py).
PAGE_ONLY = {"static_page"}


def declared_traits() -> dict[str, set[str]]:
    """Each `<Component>Traits` type of js/types.d.ts and the traits it declares."""
    text = (JS / "types.d.ts").read_text(encoding="utf-8")
    found: dict[str, set[str]] = {}
    # one line (`PlayTraits & { data?: EveningData };`) or a block (`{`, a field a line, `};`)
    for name, rhs in re.findall(r"^export type (\w+)Traits = ([^\n]*?|\{\n.*?^\});$", text, re.M | re.S):
        fields = set(re.findall(r"^\s*(\w+)\?:", rhs, re.M)) | set(re.findall(r"\{ (\w+)\?:", rhs))
        for base in re.findall(r"\b(\w+)Traits\b", rhs):
            fields |= found[base]  # (a base is declared before it is used)
        found[name] = fields
    return found


@pytest.mark.parametrize("name", sorted({e.js for e in REGISTRY.values()}))
def test_a_components_traits_are_typed_as_the_registry_has_them(name: str) -> None:
    # what a component gets from model.get is typed once (js/types.d.ts): the very traits its
    # controllers sync, as the registry lists them, and none it does not have
    state = {k for e in REGISTRY.values() if e.js == name for k in e.state}
    typed = declared_traits()[name[:1].upper() + name[1:]]
    assert typed - PAGE_ONLY == state, name


def test_every_javascript_file_is_in_a_strict_tsc_config() -> None:
    # make jscheck runs tsc over both configs: a file left out of them, or a config loosened,
    # would be unchecked without a word
    root = JS.parent.parent.parent
    page = json.loads((root / "jsconfig.json").read_text(encoding="utf-8"))
    worker = json.loads((root / "jsconfig.worker.json").read_text(encoding="utf-8"))
    assert page["compilerOptions"]["strict"] is True
    assert worker["extends"] == "./jsconfig.json" and "strict" not in worker["compilerOptions"]
    assert "noImplicitAny" not in page["compilerOptions"] | worker["compilerOptions"]

    def covered(config: dict[str, list[str]], rel: str) -> bool:
        return any(fnmatch(rel, g) for g in config["include"]) and not any(fnmatch(rel, g) for g in config["exclude"])

    files = [*JS.glob("*.js"), *(root / "book" / "_static").glob("*.js")]
    assert len(files) >= 20
    for f in files:
        rel = f.relative_to(root).as_posix()
        assert covered(page, rel) != covered(worker, rel), f"{rel}: in neither tsc config, or in both"
        assert f.read_text(encoding="utf-8").startswith("// @ts-check\n"), rel
    make = (root / "Makefile").read_text(encoding="utf-8")
    assert "tsc -p jsconfig.json" in make and "tsc -p jsconfig.worker.json" in make
