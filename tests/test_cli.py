"""The command line: rules, deal, bench (format only: tests never time things)."""

from __future__ import annotations

import argparse
import json
import random
import re
from collections.abc import Iterator

import pytest

from loo_lessons.cli import main
from loo_lessons.cli.bench import cpu_model
from loo_lessons.engine.deal import deal
from loo_lessons.engine.options import OPTION_SPECS, PRESETS
from loo_lessons.engine.sources import RULES, seed_text

CONTRACT_OPTIONS: dict[str, set[str | bool]] = {
    "two_trumps_lead": {"highest", "one"},
    "two_declared_rule": {"highest_with_sequence_exception", "none"},
    "equal_value_via_visible_cards": {True, False},
    "first_leader": {"elder_hand", "miss_holder"},
    "trump_after_trick": {True, False},
    "trump_after_trick_two_trumps": {"highest", "as_original_lead"},
    "must_head_in_suit": {True, False},
    "void_trump_rule": {"must_trump", "only_if_heads"},
    "lone_stander_rule": {"seeds", "enquire_within"},
    "loo_amount": {"fixed", "pool", "pool_capped"},
    "ante": {"dealer_only", "all_players"},
    "single_makes_must": {True, False},
    "pool_remainder": {"early_tricks_preference", "carry_forward"},
    "miss_deal_position": {"after_dealer_each_round", "end_of_each_round", "first_each_round"},
}


def _norm(s: str) -> str:
    return re.sub(r"\s+", " ", s)


def test_rules_json_lists_both_presets_and_the_14_contract_options(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["rules", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["preset_names"] == ["hoffmann", "peel"]
    assert {o["key"]: set(o["values"]) for o in out["options"]} == CONTRACT_OPTIONS
    for p in out["presets"]:
        assert set(p["options"]) == set(CONTRACT_OPTIONS)
        for key, value in p["options"].items():
            assert value in CONTRACT_OPTIONS[key]
            assert p["why"][key], f"{p['name']}.{key} has no source"
    for o in out["options"]:
        for reading in o["readings"]:
            assert reading["rules"], f"{o['key']}={reading['value']} cites no rule"
            for q in reading["quotes"]:  # every quote shown is the book's own words
                seed = q["source"][:3]
                assert _norm(q["quote"]) in _norm(seed_text(seed))


def test_rules_text_names_every_option_and_preset(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules"]) == 0
    text = capsys.readouterr().out
    for key in OPTION_SPECS:
        assert key in text
    for name in PRESETS:
        assert name in text
    assert "R26 [003]" in text and "R25 [000]" in text


def test_deal_is_reproducible_and_matches_the_engine(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deal", "--players", "5", "--seed", "42", "--json"]) == 0
    first = json.loads(capsys.readouterr().out)
    assert main(["deal", "--players", "5", "--seed", "42", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == first
    d = deal(random.Random(42), 5, 0)
    assert first["hands"] == {str(i): [c.code for c in h] for i, h in enumerate(d.hands)}
    assert first["turn_up"] == d.turn_up.code and first["stock_remaining"] == 52 - 19
    assert main(["deal", "--players", "5", "--seed", "43", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["hands"] != first["hands"]


def test_deal_refuses_an_impossible_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deal", "--players", "17", "--seed", "1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: players:")


def test_the_cpu_model_is_read_from_cpuinfo() -> None:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            names = [ln.split(":", 1)[1].strip() for ln in f if ln.startswith("model name")]
    except OSError:
        names = []
    if names:  # Linux on x86 names its CPU; elsewhere the platform's word stands in
        assert cpu_model() == " ".join(names[0].split())


def test_bench_prints_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--seconds", "0.05", "--no-simulation"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^ratio: \d+\.\d+", out, re.M)
    # the machine first, and every speed figure as a ratio to the floor of the same run
    first = out.splitlines()[0]
    assert re.fullmatch(r"machine: .+, \d+ cores usable, CPython 3\.\d+\.\d+(, load \d+\.\d)?", first)
    assert cpu_model() in first and cpu_model() != ""
    assert re.search(
        r"^simulated hand \(5 players, sensible bots, tallied, one worker\): \d+\.\d µs = "
        r"\d+\.\d\d floors \(goal <= 6; the floor beside it: \d+\.\d µs\)$",
        out,
        re.M,
    )
    assert re.search(r"worst \d+ ms; in CPU time [\d,]+ floors; goal <= 12,000 floors", out)
    for words in ("hands per second", "legal_actions per call", "import loo_lessons", "p95"):
        assert words in out


def test_every_rule_id_has_a_quote() -> None:
    assert len(RULES) == 63 and all(r.quotes for r in RULES.values())


def _every_help(p: argparse.ArgumentParser, path: str = "") -> Iterator[tuple[str, str | None]]:
    """(name, help) of every command, option and argument of `p` and its subcommands."""
    for action in p._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help for a in action._choices_actions}
            for name, sub in action.choices.items():
                command = f"{path} {name}".strip()
                yield command, helps.get(name)
                yield from _every_help(sub, command)
        elif not isinstance(action, argparse._HelpAction):
            yield f"{path} {'/'.join(action.option_strings) or action.dest}", action.help


def test_every_command_and_option_has_help_that_ends_in_a_whole_thought() -> None:
    """The command-line page (book/generated/cli.md) is read by learners: no option without its
    help line, none cut off mid-phrase (the quiz's once stopped at "merges a class's")."""
    from loo_lessons.cli import parser

    seen = list(_every_help(parser()))
    assert len(seen) > 60
    bare = [
        name
        for name, text in seen
        if text != argparse.SUPPRESS
        and (not text or re.search(r"(?:'s|\b(?:a|an|the|of|to|and|or))$", text.strip()))
    ]
    assert bare == []
