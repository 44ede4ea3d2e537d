"""The rule-coverage table is generated from the checkout and shows every rule taught."""

from __future__ import annotations

import json

import pytest

from loo_lessons.engine.sources import RULES
from tools.coverage import REMARKS, compute, main


def test_every_rule_is_taught_tested_and_implemented_or_a_remark() -> None:
    cov = compute()
    assert cov.untaught() == []
    for row in cov.rows():
        rid = str(row["rule"])
        assert row["tested"], f"{rid} is not tested"
        assert row["implemented"] or rid in REMARKS, f"{rid} is neither implemented nor a remark"


def test_coverage_json_from_the_cli(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [r["rule"] for r in out["rules"]] == list(RULES)
    assert out["untaught"] == []


def test_a_rule_mentioned_nowhere_is_reported(tmp_path: object) -> None:
    from pathlib import Path

    root = Path(str(tmp_path))
    (root / "loo_lessons" / "engine").mkdir(parents=True)
    (root / "notebooks").mkdir()
    (root / "tests").mkdir()
    (root / "loo_lessons" / "engine" / "x.py").write_text("# R01 R02–R04\n")
    cov = compute(root)
    assert cov.implemented["R03"] == ["loo_lessons/engine/x.py"]
    assert "R05" in cov.untaught() and "R01" in cov.untaught()
