"""Bad scenario files are refused: exit code 2, nothing on stdout, one `error:` line naming
the field and the problem (shared/scenario-format.md: "Nothing is ever half-answered")."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from loo_lessons.cli import main
from loo_lessons.scenario import load_file
from loo_lessons.scenario.errors import ScenarioError

HERE = Path(__file__).parent
BAD = HERE / "bad_scenarios"
GOOD_JSON = HERE / "good_scenarios" / "lead-ace-of-trumps.json"

#: file -> (the field the message must name, a pattern the problem must match)
CASES: dict[str, tuple[str, str]] = {
    # cards
    "bad-card-code.yaml": ("hands.1[1]", r"1X.*not a card"),
    "duplicate-across-hands.yaml": ("hands.2", r"duplicat.*AH"),
    "duplicate-hand-and-turn-up.yaml": ("hands.1", r"duplicat.*7H.*turn-up"),
    "duplicate-hand-and-trick.yaml": ("tricks[0]", r"duplicat.*9C"),
    "duplicate-within-miss.yaml": ("miss", r"AH.*(twice|duplicat)"),
    "duplicate-miss-and-hand.yaml": ("miss", r"duplicat.*9D"),
    "wrong-hand-size.yaml": ("hands.1", r"three cards"),
    # the table
    "dealer-out-of-range.yaml": ("dealer", r"seat 4"),
    "players-one.yaml": ("players", r"\b1 players?\b.*\b2 to\b"),
    "players-eighteen.yaml": ("players", r"\b18\b.*\b2 to 17\b"),
    "players-seventeen-with-miss.yaml": ("players", r"\b17\b.*miss"),
    "seat-out-of-range-in-hands.yaml": ("hands", r"seat 4"),
    # rules and keys
    "unknown-option.yaml": ("rules.two_trump_lead", r"unknown"),
    "unknown-option-value.yaml": ("rules.two_trumps_lead", r"unknown value.*lowest"),
    "unknown-preset.yaml": ("rules.preset", r"unknown preset.*whist"),
    "bool-option-given-a-string.yaml": ("rules.must_head_in_suit", r"true or false"),
    "unknown-top-level-key.yaml": ("dealr", r"unknown key"),
    "pool-capped-without-cap.yaml": ("loo_cap", r"required"),
    "penalty-unknown-offence.yaml": ("penalties[0].offence", r"unknown offence.*cheating"),
    # earlier plays that were illegal when made
    "earlier-play-revoke.yaml": ("tricks[0][1]", r"KD.*illegal.*follow suit"),
    "earlier-play-ace-not-led.yaml": ("tricks[0][0]", r"3C.*illegal.*ace"),
    "earlier-play-out-of-turn.yaml": ("tricks[0][0]", r"out of turn"),
    "earlier-play-failing-to-head-hoffmann.yaml": ("tricks[0][1]", r"4C.*illegal.*head"),
    "earlier-play-failing-to-trump.yaml": ("tricks[0][2]", r"2D.*illegal.*trump"),
    # declarations
    "declaration-take-miss-twice.yaml": ("declarations.2", r"take miss.*R09"),
    "declaration-pass-in-a-must.yaml": ("declarations.2", r"must"),
    "declaration-dealer-passes-against-lone-stander.yaml": ("declarations.0", r"pass.*R18"),
    "declarations-out-of-rotation.yaml": ("declarations.3", r"before seat 2"),
    "declaration-made-twice.yaml": ("declarations", r"twice|second|duplicat"),
    "unknown-declaration.yaml": ("declarations.1", r"unknown declaration.*fold"),
    # the miss, trumps, tricks
    "miss-in-a-must.yaml": ("miss", r"no miss in a must"),
    "miss-wrong-size.yaml": ("miss", r"three cards"),
    "turn-up-and-trumps-disagree.yaml": ("trumps", r"disagree.*turn-up"),
    "tricks-won-not-three.yaml": ("tricks_won", r"three tricks.*4"),
    "tricks-and-tricks-won.yaml": ("tricks_won", r"either.*not both"),
    # the file itself
    "malformed.yaml": ("file", r"malformed YAML"),
    "a-list.yaml": ("file", r"mapping.*list"),
    "python-tag.yaml": ("title", r"tag !!python/object/apply.*not allowed"),
    # found by an audit of the contract
    "dealer-null.yaml": ("dealer", r"empty"),
    "stake-null.yaml": ("stake", r"empty"),
    "deck-and-trumps-disagree.yaml": ("trumps", r"disagree.*turn-up"),
    "penalty-passer-revokes.yaml": ("penalties[0]", r"seat 2 played no card"),
    "penalty-look-at-miss-in-a-must.yaml": ("penalties[0]", r"no miss in a must"),
    "penalty-king-without-ace-turned.yaml": ("penalties[0]", r"ace of trumps is turned up"),
    "loo-cap-with-fixed-loo.yaml": ("loo_cap", r"only used with loo_amount: pool_capped"),
    "trick-with-too-many-cards.yaml": ("tricks[0]", r"one card from each player"),
    "empty-file.yaml": ("file", r"empty"),
    "title-a-list.yaml": ("title", r"expected text"),
    # hostile files (issue 10): the guarded reader refuses them at once, in one short line
    "int-4301-digits.yaml": ("players", r"4301 digits: at most 30"),
    "json-huge-int.json": ("players", r"5000 digits: at most 30"),
    "int-octal.yaml": ("dealer", r"not a decimal whole number.*as 8"),
    "json-nan.json": ("stake", r"NaN is not a number"),
    "tag-int-abc.yaml": ("players", r"tag !!int.*'abc'.*not a whole number"),
    "tag-float-x.yaml": ("stake", r"tag !!float.*'x'.*not a number"),
    "tag-python-name.yaml": ("rules", r"tag !!python/name:os.system is not allowed"),
    "tag-set.yaml": ("x-tags", r"tag !!set is not allowed"),
    "merge-key.yaml": ("file", r"merge keys"),
    "two-documents.yaml": ("file", r"one scenario per file"),
    "alias-self-reference.yaml": ("x-loop[0]", r"aliases.*not allowed"),
    "alias-billion-laughs-under-notes.yaml": ("notes.l1[0]", r"aliases.*not allowed"),
    "alias-in-hands.yaml": ("hands.1", r"aliases.*not allowed"),
    "nesting-500-deep.yaml": ("x-deep[0]", r"nested more than 20 deep"),
    "nesting-500-deep.json": ("x-deep[0]", r"nested more than 20 deep"),
    "json-duplicate-key.json": ("dealer", r"given twice"),
    "seat-key-superscript.yaml": ("hands", r"'²' is not a seat number"),
    "seat-key-circled.yaml": ("hands", r"'①' is not a seat number"),
    "seat-key-arabic-indic.yaml": ("hands", r"'٣' is not a seat number"),
    "seat-key-hex.yaml": ("hands", r"'0x1' is not a decimal whole number"),
    "seat-given-twice-as-number-and-text.yaml": (
        "hands",
        r"seat 1 is given twice \(as 1 and '1'\)",
    ),
    "seat-given-twice-as-1-and-0x1.yaml": ("declarations", r"'0x1' is not a decimal"),
    "json-seat-given-twice.json": ("declarations", r"seat 1 is given twice.*R12"),
    "thrown-up-seat-given-cards.yaml": ("hands.2", r"seat 2 threw up.*holds nothing now"),
    "long-card-code.yaml": ("hands.1[0]", r"is not a card code"),
    "long-unknown-option-value.yaml": ("rules.two_trumps_lead", r"unknown value"),
    "trick-winners-with-tricks.yaml": ("trick_winners", r"either tricks or trick_winners"),
    "trick-winners-seat-threw-up.yaml": ("trick_winners", r"seat 2 did not play"),
}

#: Files whose refusal must not quote them at length: (file, the long value they hold).
LONG_VALUES = {
    "int-4301-digits.yaml": "9" * 4301,
    "json-huge-int.json": "1" * 5000,
    "long-card-code.yaml": "X" * 5000,
    "long-unknown-option-value.yaml": "y" * 5000,
}


def test_every_bad_file_has_a_case() -> None:
    on_disk = {p.name for p in BAD.iterdir() if p.is_file()}
    assert on_disk == set(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_bad_scenario_is_refused(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    field, problem = CASES[name]
    code = main(["explain", str(BAD / name), "--json"])
    out, err = capsys.readouterr()
    assert code == 2
    assert out == ""
    assert err.startswith("error: ")
    assert err.endswith("\n") and err.count("\n") == 1, f"not exactly one line: {err!r}"
    assert err.startswith(f"error: {field}"), f"the message does not name {field!r}: {err!r}"
    assert re.search(problem, err, re.IGNORECASE | re.DOTALL), f"{problem!r} not in {err!r}"
    assert len(err) < 400, f"{len(err)} characters"
    if name in LONG_VALUES:
        assert LONG_VALUES[name][:50] not in err, "the refusal quotes the input at length"


@pytest.mark.parametrize("name", sorted(CASES))
def test_bad_scenario_raises_scenario_error_naming_the_field(name: str) -> None:
    field, _ = CASES[name]
    with pytest.raises(ScenarioError) as info:
        load_file(BAD / name)
    assert info.value.field == field or info.value.field.startswith(field.removesuffix("[0]"))
    assert info.value.problem


@pytest.mark.parametrize("name", sorted(CASES))
def test_readable_form_refuses_too(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["explain", str(BAD / name)])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and err.startswith("error: ")


def test_python_tag_is_never_executed(capfd: pytest.CaptureFixture[str]) -> None:
    """`!!python/object/apply:os.system ["echo hi"]` must be refused by the safe loader:
    had it run, `hi` would reach the process's stdout (captured here at the fd level)."""
    code = main(["explain", str(BAD / "python-tag.yaml"), "--json"])
    out, err = capfd.readouterr()
    assert code == 2
    assert out == ""
    assert "hi" not in out
    assert err.startswith("error: title: the tag")


def test_missing_file_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["explain", str(tmp_path / "nowhere.yaml"), "--json"])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.startswith("error: file:") and err.count("\n") == 1


def test_valid_json_scenario_loads_and_is_answered(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["explain", str(GOOD_JSON), "--json"])
    out, err = capsys.readouterr()
    assert code == 0 and err == ""
    got = json.loads(out)
    # R23 [003]: "If the leader holds the ace of trumps he must lead it"
    assert got["phase"] == "play"
    assert got["trumps"] == "H"
    assert got["leader"] == 1 and got["to_act"] == 1
    assert got["legal"] == ["AH"]
    assert {k: v["rule_id"] for k, v in got["illegal"].items()} == {"4H": "R23", "9D": "R23"}
    assert got["preset"] == "peel"


def test_valid_json_scenario_readable(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", str(GOOD_JSON)]) == 0
    out, _ = capsys.readouterr()
    assert "R23" in out and "“" in out


def test_json_and_yaml_forms_give_the_same_answer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """JSON is valid YAML: the same scenario as a .yaml file is answered identically."""
    same = tmp_path / "same.yaml"
    same.write_text(GOOD_JSON.read_text(encoding="utf-8"), encoding="utf-8")
    assert main(["explain", str(GOOD_JSON), "--json"]) == 0
    a = json.loads(capsys.readouterr().out)
    assert main(["explain", str(same), "--json"]) == 0
    b = json.loads(capsys.readouterr().out)
    assert a == b
