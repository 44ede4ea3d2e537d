"""`loo-lessons class bench --tables` (issue 27): pupils at tables of five on a real hub.

A small run (10 pupils at two tables, two deals) through the real hub and its proxy: no move
lost or duplicated, no card leaked, every ledger adding up. Its figures are printed, never
asserted (no timing in tests). Bad options: one line, exit 2, before any hub starts.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from loo_lessons.classroom.tables.bench import run


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (["--pupils", "7"], "--pupils"),
        (["--pupils", "0"], "--pupils"),
        (["--deals", "0"], "--deals"),
        (["--timeout", "-1"], "--timeout"),
    ],
)
def test_bad_options_are_refused_in_one_line(args: list[str], field: str) -> None:
    r = subprocess.run(
        [sys.executable, "-m", "loo_lessons.cli", "class", "bench", "--tables", *args],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and field in r.stderr and "Traceback" not in r.stderr


def test_pupils_at_two_tables_lose_no_move_and_see_no_others_cards() -> None:
    assert os.geteuid() == 0, "the class hub makes a Unix user per pupil: run the tests as root"
    lines = run(10, 2, 240, seed=3)
    print("\n".join(lines))
    assert lines[-1] == "errors: 0", lines
    assert "card leaks: 0" in lines
    assert "ledgers that add up: 2 of 2" in lines
    moves = next(x for x in lines if x.startswith("moves:"))
    made, stored, lost = map(int, re.findall(r"\d+", moves))
    assert 0 < made <= stored and lost == 0
