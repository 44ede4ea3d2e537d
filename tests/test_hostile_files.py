"""Hostile files (issue 10): whatever a scenario file or a saved game holds, `explain` gives a
valid answer (exit 0, one JSON object) or one short refusal (exit 2, one `error: FIELD:
problem` line under 400 characters that quotes no more than a short excerpt) — never a
traceback. The files are generated: mutations of the shipped scenarios, deep nesting, alias
bombs, huge numbers, random seat keys, random bytes, mutated transcripts.

No test times anything: the work is bounded instead (size, depth, values, digits), and the
generated files stay small, so these tests take seconds."""

from __future__ import annotations

import contextlib
import copy
import io
import json
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import loo_lessons
from loo_lessons.cli import main
from loo_lessons.engine.game import Hand
from loo_lessons.scenario import MAX_BYTES, load_file, loads, read_text
from loo_lessons.scenario.errors import ScenarioError
from loo_lessons.scenario.transcripts import read_transcript

HERE = Path(__file__).parent
SHIPPED = sorted(
    p
    for d in (Path(loo_lessons.__file__).parent / "scenarios", HERE / "good_scenarios")
    for p in d.iterdir()
    if p.suffix in (".yaml", ".json")
)
TEXTS = [p.read_text(encoding="utf-8") for p in SHIPPED]
ERROR_LINE = re.compile(r"error: [^\n:]{1,80}: [^\n]+\n")

HOSTILE = settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


def explain(path: Path) -> tuple[int, str, str]:
    """`loo-lessons explain PATH --json`, in process: exit code, stdout, stderr."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["explain", str(path), "--json"])
    return code, out.getvalue(), err.getvalue()


def assert_answer_or_refusal(path: Path, planted: str = "") -> None:
    """A valid answer, or one short line; `planted`, a long string the file holds, must never
    come back whole (a message quotes at most a short excerpt)."""
    code, out, err = explain(path)
    if code == 0:
        assert err == ""
        got = json.loads(out)
        assert got["phase"] in ("deal", "declare", "play", "settled")
        out.encode("utf-8")  # printable: no lone surrogate survived
        return
    assert code == 2, (code, err)
    assert out == ""
    assert ERROR_LINE.fullmatch(err), f"not one `error: FIELD: problem` line: {err!r}"
    assert len(err) < 400
    err.encode("utf-8")
    if len(planted) > 60:
        assert planted[:60] not in err


# --- mutations of the shipped scenarios ------------------------------------------------------

HOSTILE_SNIPPETS = [
    "!!python/object/apply:os.system ['echo hi']",
    '!!int "abc"',
    '!!float "x"',
    "!!binary aGk=",
    "&a [*a]",
    "*nowhere",
    "9" * 4400,
    "0x1",
    "010",
    "1_000",
    "1:30",
    ".nan",
    "-.inf",
    "2020-13-45",
    "'\\ud800'",
    '"\\ud800"',
    '"\\x1b[31m"',
    "~",
    "{}",
    "[]",
    "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
    "<<: {players: 3}",
    "---",
    "\t",
    "²",
    "①",
    "٣",
    "-1",
    "17",
    "true",
    "null",
]


@st.composite
def mutated(draw: st.DrawFn) -> str:
    text = draw(st.sampled_from(TEXTS))
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["replace", "insert", "delete", "line", "swap"]))
        n = max(1, len(text))
        at = draw(st.integers(0, n - 1))
        if kind == "replace":
            # replace one token (a run of non-space characters) with a hostile one
            m = re.compile(r"[^\s,:\[\]{}]+").search(text, at)
            if m:
                snippet = draw(st.sampled_from(HOSTILE_SNIPPETS) | st.text(max_size=8))
                text = text[: m.start()] + snippet + text[m.end() :]
        elif kind == "insert":
            snippet = draw(st.sampled_from(HOSTILE_SNIPPETS) | st.text(max_size=12))
            text = text[:at] + snippet + text[at:]
        elif kind == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 40)) :]
        elif kind == "line":
            lines = text.splitlines(keepends=True) or [""]
            i = draw(st.integers(0, len(lines) - 1))
            lines.insert(i, lines[i])  # a line (a key, a seat) given twice
            text = "".join(lines)
        else:
            lines = text.splitlines(keepends=True) or [""]
            i, j = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
            text = "".join(lines)
    return text


@HOSTILE
@given(text=mutated(), suffix=st.sampled_from([".yaml", ".json"]))
def test_mutated_scenarios_are_answered_or_refused(
    tmp_path_factory: pytest.TempPathFactory, text: str, suffix: str
) -> None:
    path = tmp_path_factory.mktemp("m") / f"mutated{suffix}"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    assert_answer_or_refusal(path)


HOSTILE_VALUES: list[Any] = [
    None,
    True,
    -1,
    0,
    99,
    10**30,
    "x" * 500,
    "",
    "AH",
    "play",
    "\ud800",
    [],
    {},
    [[[]]],
    {"stake": "3"},
    ["AH", "AH", "AH"],
    1.5,
    "0x1",
    "²",
    "pool_capped",
    "all_players",
    "must_trump",
]

DATA = [read_text(t) for t in TEXTS]
SCENARIO_VALUES: list[Any] = [
    *HOSTILE_VALUES,
    1,
    2,
    3,
    16,
    17,
    "KH",
    "10S",
    "TH",
    "2C",
    "pass",
    "take_miss",
    "play_miss_for_pool",
    "stand",
    [1, "AH"],
    [[1, "AH"]],
    [[[1, "AH"]]],
    {"1": "play"},
    {"1": ["AH", "KH", "QH"]},
    {"1": 3},
    [1, 2, 1],
    "peel",
    "hoffmann",
    {"preset": "peel"},
    {"seat": 1, "offence": "revoke"},
    [{"seat": 1, "offence": "look_at_miss"}],
]


def mutate(draw: st.DrawFn, data: Any, values: list[Any]) -> Any:
    """`data` with a few of its values (at any depth) replaced by one of `values`, removed,
    or repeated."""
    for _ in range(draw(st.integers(1, 3))):
        parent: Any = data
        key: Any = None
        node: Any = data
        while isinstance(node, dict | list) and node and (key is None or draw(st.booleans())):
            parent = node
            keys = sorted(node, key=str) if isinstance(node, dict) else list(range(len(node)))
            key = draw(st.sampled_from(keys))
            node = node[key]
        if key is None:
            continue
        op = draw(st.sampled_from(["replace", "replace", "delete", "append"]))
        if op == "replace":
            parent[key] = copy.deepcopy(draw(st.sampled_from(values)))
        elif op == "delete":
            del parent[key]
        elif isinstance(parent, list):
            parent.append(copy.deepcopy(parent[key]))
    return data


@st.composite
def mutated_data(draw: st.DrawFn) -> Any:
    """Near misses of the shipped scenarios, which reach every check of the loader."""
    data: Any = copy.deepcopy(draw(st.sampled_from(DATA)))
    data.pop("expect", None)
    return mutate(draw, data, SCENARIO_VALUES)


@HOSTILE
@given(data=mutated_data())
def test_near_misses_of_shipped_scenarios(
    tmp_path_factory: pytest.TempPathFactory, data: Any
) -> None:
    path = tmp_path_factory.mktemp("nm") / "near.json"
    path.write_text(json.dumps(data), encoding="utf-8", errors="surrogatepass")
    assert_answer_or_refusal(path)
    # and nothing impossible is accepted: what loads is a position the engine finds valid
    try:
        sc = load_file(path)
    except ScenarioError:
        return
    assert sc.hand.problems() == ()


# --- shapes no scenario has ------------------------------------------------------------------

BASE = "players: 4\ndealer: 0\nturn_up: 2S\n"


@HOSTILE
@given(
    depth=st.integers(1, 3000),
    json_form=st.booleans(),
    key=st.sampled_from(["x-deep", "hands", "rules", "notes"]),
)
def test_deep_nesting_is_refused_or_read(
    tmp_path_factory: pytest.TempPathFactory, depth: int, json_form: bool, key: str
) -> None:
    nest = "[" * depth + "]" * depth
    text = (
        f'{{"players": 4, "turn_up": "2S", "{key}": {nest}}}'
        if json_form
        else BASE + f"{key}: {nest}\n"
    )
    path = tmp_path_factory.mktemp("d") / ("deep.json" if json_form else "deep.yaml")
    path.write_text(text, encoding="utf-8")
    assert_answer_or_refusal(path)


@HOSTILE
@given(
    levels=st.integers(1, 12),
    width=st.integers(1, 12),
    key=st.sampled_from(["notes", "x-lol", "expect", "hands", "title"]),
    self_ref=st.booleans(),
)
def test_alias_bombs_are_refused_at_once(
    tmp_path_factory: pytest.TempPathFactory, levels: int, width: int, key: str, self_ref: bool
) -> None:
    """Billion laughs (each level nine aliases of the last), also under annotation keys the
    loader otherwise ignores, and an alias that contains itself."""
    lines = [f"{key}:"]
    for i in range(levels):
        items = ", ".join([f"*l{i - 1}" if i else '"lol"'] * width)
        lines.append(f"  l{i}: &l{i} [{items}]")
    if self_ref:
        lines.append("  loop: &me [*me]")
    path = tmp_path_factory.mktemp("a") / "bomb.yaml"
    path.write_text(BASE + "\n".join(lines) + "\n", encoding="utf-8")
    code, _, err = explain(path)
    if levels > 1 or self_ref:
        assert code == 2 and "alias" in err, err
    assert_answer_or_refusal(path)


@HOSTILE
@given(
    digits=st.integers(1, 6000),
    key=st.sampled_from(["players", "dealer", "stake", "pool", "loo", "x-n", "hands"]),
    json_form=st.booleans(),
    sign=st.sampled_from(["", "-", "+"]),
)
def test_huge_numbers_are_bounded_before_conversion(
    tmp_path_factory: pytest.TempPathFactory, digits: int, key: str, json_form: bool, sign: str
) -> None:
    number = (sign.lstrip("+") if json_form else sign) + "7" * digits
    entries = {"players": "4", "dealer": "0", "turn_up": '"2S"', key: number}
    if json_form:
        text = "{" + ", ".join(f'"{k}": {v}' for k, v in entries.items()) + "}"
    else:
        text = "".join(f"{k}: {v}\n" for k, v in entries.items())
    path = tmp_path_factory.mktemp("n") / ("n.json" if json_form else "n.yaml")
    path.write_text(text, encoding="utf-8")
    code, _, err = explain(path)
    if digits > 30:
        assert code == 2 and "digits" in err, err
    assert_answer_or_refusal(path, planted=number)


@HOSTILE
@given(
    seat=st.text(min_size=1, max_size=6) | st.integers(-(10**40), 10**40),
    field=st.sampled_from(["hands", "declarations", "tricks_won"]),
    json_form=st.booleans(),
)
def test_random_seat_keys(
    tmp_path_factory: pytest.TempPathFactory, seat: str | int, field: str, json_form: bool
) -> None:
    value: Any = {"hands": ["AH", "3C", "9D"], "declarations": "play", "tricks_won": 3}[field]
    data = {"players": 4, "dealer": 0, "turn_up": "2S", field: {str(seat): value}}
    path = tmp_path_factory.mktemp("s") / ("s.json" if json_form else "s.yaml")
    if json_form:
        path.write_text(json.dumps(data), encoding="utf-8")
    else:
        key = json.dumps(str(seat)) if isinstance(seat, str) else str(seat)
        rest = json.dumps(value)
        path.write_text(BASE + f"{field}:\n  {key}: {rest}\n", encoding="utf-8")
    code, _, err = explain(path)
    text = str(seat)
    if not re.fullmatch(r"\s*[0-9]{1,3}\s*", text) and code == 2:
        assert field in err or "file" in err
    if code == 0:  # only a decimal seat at the table is a seat
        assert re.fullmatch(r"\s*[0-9]{1,3}\s*", text) and 0 <= int(text) < 4
    assert_answer_or_refusal(path)


@HOSTILE
@given(raw=st.binary(max_size=400))
def test_random_bytes(tmp_path_factory: pytest.TempPathFactory, raw: bytes) -> None:
    path = tmp_path_factory.mktemp("b") / "bytes.yaml"
    path.write_bytes(raw)
    assert_answer_or_refusal(path)


@HOSTILE
@given(text=st.text(max_size=200), key=st.sampled_from(["title", "description", "notes"]))
def test_any_title_is_printed_clean(
    tmp_path_factory: pytest.TempPathFactory, text: str, key: str
) -> None:
    """Lone surrogates and terminal escapes in prose: the answer prints, cleaned."""
    path = tmp_path_factory.mktemp("t") / "t.json"
    path.write_text(json.dumps({key: text, "players": 3, "turn_up": "7H"}), encoding="utf-8")
    code, out, err = explain(path)
    assert code == 0, err
    assert "\x1b" not in out and "\x07" not in out
    out.encode("utf-8")
    # and the readable form too
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert main(["explain", str(path)]) == 0
    assert "\x1b" not in buf.getvalue()
    buf.getvalue().encode("utf-8")


# --- saved games -----------------------------------------------------------------------------


def _saved_game(seed: int, moves: int) -> dict[str, Any]:
    rng = random.Random(seed)
    h = Hand.from_seed(
        seed, players=rng.randint(2, 6), dealer=0, options=rng.choice(["peel", "hoffmann"])
    )
    for _ in range(moves):
        legal = h.legal_actions()
        if not legal:
            break
        h.apply(rng.choice(list(legal)))
    out = h.transcript().as_json()
    out["learner"] = {"seat": 1, "bots": "sensible", "rng_seed": seed}
    return out


@st.composite
def mutated_transcript(draw: st.DrawFn) -> Any:
    data = _saved_game(draw(st.integers(0, 50)), draw(st.integers(0, 40)))
    return mutate(draw, data, HOSTILE_VALUES)


@HOSTILE
@given(data=mutated_transcript())
def test_mutated_saved_games_are_read_or_refused(
    tmp_path_factory: pytest.TempPathFactory, data: Any
) -> None:
    from loo_lessons.widgets.play import PlayTable

    path = tmp_path_factory.mktemp("g") / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8", errors="surrogatepass")
    try:
        read_transcript(path)
        PlayTable.load(path)
    except ScenarioError as e:
        line = f"error: {e}\n"
        assert ERROR_LINE.fullmatch(line), line
        assert len(line) < 400


# --- the named cases, built here because they cannot be files in the repository --------------


def test_non_regular_files_are_refused_without_reading(tmp_path: Path) -> None:
    import os

    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)  # opening a FIFO with no writer would block for ever: it must not be opened
    for path, what in ((Path("/dev/zero"), "device"), (fifo, "pipe"), (tmp_path, "directory")):
        code, out, err = explain(path)
        assert code == 2 and out == "" and err.startswith("error: file: ") and what in err, err


def test_a_file_over_the_size_limit_is_refused_naming_the_limit(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_text("players: 4\ntitle: " + "a" * MAX_BYTES + "\n", encoding="utf-8")
    code, _, err = explain(path)
    assert code == 2 and "1 MB" in err and "aaaa" not in err
    with pytest.raises(ScenarioError, match="1 MB"):
        read_text("x: [" + "1, " * MAX_BYTES + "]")


def test_a_big_flow_list_under_the_limit_is_bounded_by_the_value_count(tmp_path: Path) -> None:
    path = tmp_path / "flow.yaml"
    path.write_text("players: 4\nx-list: [" + "1, " * 300_000 + "]\n", encoding="utf-8")
    code, _, err = explain(path)
    assert code == 2 and "values" in err


def test_yaml_absent_json_still_loads_and_yaml_is_refused_in_one_line(tmp_path: Path) -> None:
    """A bare install without PyYAML: JSON scenarios are answered with the standard library
    alone; a YAML file gets one line naming `pip install pyyaml`."""
    good_json = HERE / "good_scenarios" / "lead-ace-of-trumps.json"
    yaml_file = tmp_path / "s.yaml"
    yaml_file.write_text("players: 4\nturn_up: 2S\n", encoding="utf-8")
    script = (
        "import sys; sys.modules['yaml'] = None\n"  # `import yaml` now raises ImportError
        "from loo_lessons.cli import main\n"
        "code = main(['explain', sys.argv[1], '--json'])\n"
        "assert 'yaml' not in sys.modules or sys.modules['yaml'] is None\n"
        "sys.exit(code)\n"
    )
    env_path = str(Path(loo_lessons.__file__).parent.parent)
    ok = subprocess.run(
        [sys.executable, "-c", script, str(good_json)],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": env_path},
        check=False,
    )
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["legal"] == ["AH"]
    bad = subprocess.run(
        [sys.executable, "-c", script, str(yaml_file)],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": env_path},
        check=False,
    )
    assert bad.returncode == 2 and bad.stdout == ""
    assert ERROR_LINE.fullmatch(bad.stderr) and "pip install pyyaml" in bad.stderr


def test_yaml_absent_in_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "yaml", None)
    assert loads('{"players": 3, "turn_up": "7H"}').hand.setup.players == 3
    with pytest.raises(ScenarioError, match=r"pip install pyyaml"):
        loads("players: 3\n")


def test_a_lone_surrogate_title_is_answered_cleaned() -> None:
    sc = load_file(HERE / "good_scenarios" / "title-with-lone-surrogate-and-escapes.json")
    assert sc.title is not None
    assert "\ud800" not in sc.title and "\x1b" not in sc.title and "\x07" not in sc.title
    assert "\ufffd" in sc.title and "the ace" in sc.title


def test_the_pure_python_parser_gives_the_same_refusals(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where PyYAML has no C parser, the same events come from its Python one: the same
    bounds hold, with the same messages."""
    import yaml

    bad = HERE / "bad_scenarios"
    names = ["alias-billion-laughs-under-notes.yaml", "nesting-500-deep.yaml", "tag-int-abc.yaml"]
    names += ["seat-key-hex.yaml", "int-4301-digits.yaml", "declaration-made-twice.yaml"]

    def refusals() -> list[str]:
        out = []
        for name in names:
            with pytest.raises(ScenarioError) as info:
                load_file(bad / name)
            out.append(str(info.value))
        return out

    with_c = refusals()
    monkeypatch.setattr(yaml, "__with_libyaml__", False)
    assert refusals() == with_c
