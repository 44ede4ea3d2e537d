"""The shipped scenario library (loo_lessons/scenarios/), answered through the CLI.

Every file carries an `expect:` annotation worked out by hand from the seed texts and
the rules digest (and the package's documented decisions, options.DEFAULTS_DECIDED).
Each test runs `loo-lessons explain FILE --json` through `loo_lessons.cli.main` and checks
every expected key; the readable form must cite the forbidding rules and quote the book.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

import loo_lessons
from loo_lessons.cli import main
from loo_lessons.engine.settle import OUTSIDE_QUOTES as ENGINE_OUTSIDE_QUOTES
from loo_lessons.explain.words import quote_text

SCENARIO_DIR = Path(loo_lessons.__file__).parent / "scenarios"
SEED_DIR = Path(loo_lessons.__file__).parent / "seeds"
FILES = sorted(p for p in SCENARIO_DIR.iterdir() if p.suffix in (".yaml", ".yml", ".json"))

#: The rule groups of the brief, with the rule ids each covers.
GROUPS: dict[str, tuple[int, int]] = {
    "deal": (1, 4),
    "declaring": (5, 13),
    "dealer": (14, 20),
    "leading": (21, 28),
    "trump_after_trick": (29, 31),
    "following": (32, 37),
    "settlement": (38, 40),
    "singles_musts": (41, 45),
    "unlimited": (46, 49),
    "penalties": (50, 63),
}
EXTRA_TAGS = {"presets_disagree"}

#: Keys an `expect:` mapping may use (the contract's output, plus a few more fields).
EXPECT_KEYS = {
    "phase",
    "to_act",
    "leader",
    "legal",
    "illegal_keys",
    "illegal_rule_ids",
    "trumps",
    "winners",
    "settlement",
    "turn_up",
    "hands",
    "miss",
    "stock_remaining",
    "players_in",
    "miss_holder",
}

#: Settlement entries whose order the contract leaves open.
UNORDERED = {"looed"}

CURLY_QUOTE = re.compile(r"“([^”]+)”")


def _collapse(text: str) -> str:
    return " ".join(text.split())


#: The quotes the engine cites from books outside the seeds (laws only a variant makes).
OUTSIDE_QUOTES = {q.text for q in ENGINE_OUTSIDE_QUOTES}


@cache
def _seed_text() -> str:
    texts = (p.read_text(encoding="utf-8") for p in sorted(SEED_DIR.glob("*.txt")))
    return _collapse(" ".join(texts))


@cache
def _seed_words() -> str:
    """The seeds as a learner reads them: markup rendered (`_i.e._` → i.e., page and footnote
    marks dropped), the way explanations show quotes (`explain.words.quote_text`)."""
    return _collapse(quote_text(_seed_text()))


def _load(path: Path) -> dict[str, Any]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def _explain(path: Path, capsys: pytest.CaptureFixture[str], *, as_json: bool) -> str:
    argv = ["explain", str(path)] + (["--json"] if as_json else [])
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 0, f"{path.name}: exit {code}: {err}"
    assert err == ""
    return out


def _ids(path: Path) -> str:
    return path.stem


# --- the library as a whole ----------------------------------------------------------------


def test_library_is_large_enough() -> None:
    assert len(FILES) >= 36


def test_every_rule_group_is_represented_three_times() -> None:
    counts = dict.fromkeys(GROUPS, 0)
    for path in FILES:
        for tag in _load(path).get("tags", []):
            if tag in counts:
                counts[tag] += 1
    thin = {g: n for g, n in counts.items() if n < 3}
    assert not thin, f"rule groups with fewer than three scenarios: {thin}"


def test_presets_disagree_in_pairs() -> None:
    """Scenarios tagged presets_disagree come as a hoffmann file and a peel file."""
    tagged = [p for p in FILES if "presets_disagree" in _load(p).get("tags", [])]
    presets = set()
    for p in tagged:
        rules = _load(p).get("rules")
        presets.add(rules if isinstance(rules, str) else (rules or {}).get("preset"))
    assert {"hoffmann", "peel"} <= presets
    assert len(tagged) >= 8


def test_every_rule_id_appears_in_some_scenario() -> None:
    seen: set[str] = set()
    for path in FILES:
        seen.update(_load(path).get("rule_ids", []))
    # R11 (discards face down), R12 (a declaration is final: see test_bad_input) and R20
    # (a remark) have no position of their own to show
    missing = [f"R{i:02d}" for i in range(1, 64) if f"R{i:02d}" not in seen]
    assert set(missing) <= {"R11", "R12", "R20"}, missing


# --- each file ------------------------------------------------------------------------------


@pytest.mark.parametrize("path", FILES, ids=_ids)
def test_annotations(path: Path) -> None:
    data = _load(path)
    assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)+", path.stem)
    assert isinstance(data.get("title"), str) and data["title"].strip()
    tags = data.get("tags")
    assert isinstance(tags, list) and tags
    assert set(tags) <= set(GROUPS) | EXTRA_TAGS, tags
    rule_ids = data.get("rule_ids")
    assert isinstance(rule_ids, list) and rule_ids
    for rid in rule_ids:
        assert re.fullmatch(r"R\d\d", rid) and 1 <= int(rid[1:]) <= 63, rid
    # a tag names a group only if the file cites one of that group's rules
    for tag in tags:
        if tag in GROUPS:
            lo, hi = GROUPS[tag]
            assert any(lo <= int(r[1:]) <= hi for r in rule_ids), (tag, rule_ids)
    # the description quotes the seed text verbatim, with the rule id
    desc = data.get("description")
    assert isinstance(desc, str)
    quotes = CURLY_QUOTE.findall(desc)
    assert quotes, "the description must quote the book"
    seeds = _seed_text()
    for q in quotes:
        assert _collapse(q) in seeds, f"not verbatim in the seeds: {q!r}"
    assert any(rid in desc for rid in rule_ids)
    expect = data.get("expect")
    assert isinstance(expect, dict) and expect
    assert set(expect) <= EXPECT_KEYS, set(expect) - EXPECT_KEYS


def _check_settlement(got: dict[str, Any] | None, want: dict[str, Any], name: str) -> None:
    assert got is not None, f"{name}: no settlement in the answer"
    for key, value in want.items():
        assert key in got, f"{name}: settlement has no {key!r}"
        actual = got[key]
        if key in UNORDERED:
            assert sorted(actual) == sorted(value), f"{name}: settlement.{key}"
        elif isinstance(value, dict):
            assert actual == {str(k): v for k, v in value.items()}, f"{name}: settlement.{key}"
        else:
            assert actual == value, f"{name}: settlement.{key}"


@pytest.mark.parametrize("path", FILES, ids=_ids)
def test_explain_json_matches_expect(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    expect: dict[str, Any] = _load(path)["expect"]
    got = json.loads(_explain(path, capsys, as_json=True))
    name = path.name
    # contract shape, whatever the scenario
    for key in ("phase", "trumps", "to_act", "leader", "legal", "illegal", "tricks"):
        assert key in got, f"{name}: the answer has no {key!r}"
    assert got["legal"] == sorted(got["legal"])
    if got["phase"] == "settled":
        assert "settlement" in got
    for key, value in expect.items():
        if key == "legal":
            assert got["legal"] == value, f"{name}: legal"
        elif key == "illegal_keys":
            assert sorted(got["illegal"]) == value, f"{name}: illegal keys"
        elif key == "illegal_rule_ids":
            rule_ids = {code: entry["rule_id"] for code, entry in got["illegal"].items()}
            assert rule_ids == {str(k): v for k, v in value.items()}, f"{name}: illegal rule ids"
        elif key == "winners":
            winners = [t["winner"] for t in got["tricks"] if t["winner"] is not None]
            assert winners == value, f"{name}: trick winners"
        elif key == "settlement":
            _check_settlement(got.get("settlement"), value, name)
        elif key == "hands":
            for seat, cards in value.items():
                assert sorted(got["hands"][str(seat)]) == sorted(cards), f"{name}: hands.{seat}"
        elif key == "miss" and value is not None:
            assert got["miss"] is not None and sorted(got["miss"]) == sorted(value), name
        else:
            assert got[key] == value, f"{name}: {key}"
    # every illegal option is explained with its rule, a reason and the book's words
    seeds = _seed_text()
    for code, entry in got["illegal"].items():
        assert entry["rule_id"] and entry["reason"] and entry["source"], (name, code)
        if entry["source"].startswith("outside:"):  # a variant's book, named as outside
            assert entry["quote"] in OUTSIDE_QUOTES, (name, code)
            assert "outside the seed texts" in entry["book"], (name, code)
        else:
            assert _collapse(entry["quote"]) in seeds, (name, code)
    # the legal set and the illegal set partition the options of the seat to act
    assert not set(got["legal"]) & set(got["illegal"])


@pytest.mark.parametrize("path", FILES, ids=_ids)
def test_explain_text_cites_and_quotes(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    expect: dict[str, Any] = _load(path)["expect"]
    text = _explain(path, capsys, as_json=False)
    assert text.strip()
    flat = _collapse(text)
    for rid in set(expect.get("illegal_rule_ids", {}).values()):
        assert re.search(rf"\b{rid}\b", flat), f"{path.name}: {rid} not cited"
    quotes = CURLY_QUOTE.findall(flat)
    assert quotes, f"{path.name}: the explanation quotes no source"
    seeds = _seed_words()  # learners read the quotes with the seeds' markup rendered
    # a quote not in the seeds is a variant's outside book, and the text says so
    outside = [q for q in quotes if _collapse(q) not in seeds]
    assert all(q in OUTSIDE_QUOTES for q in outside), path.name
    assert not outside or "outside the seed texts" in flat, path.name
    assert "_i.e._" not in flat and not re.search(r"\{\d+\}", flat), "raw seed markup shown"
    assert ".txt" not in flat, "a seed file name shown to a learner"
    if expect.get("legal"):
        for code in expect["legal"]:
            assert code in flat
