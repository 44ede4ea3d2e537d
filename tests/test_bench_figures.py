"""The bench's figures for issue 18's speed goals, format and sanity only (tests never time
things): `bench --million` (simulate's own run of many hands, its seconds and its peak memory
beside a run of a tenth as many), the coach's decisions timed on the same positions in CPython
and in the page (`sim.decisions`, the page's fixed `run("coach_timing")` request), and the line
`bench --browser` prints for the coach. The page's side is run in Chromium by
test_worker_messages.test_the_page_times_the_coach_for_the_bench."""

from __future__ import annotations

import json
import re

import pytest

from loo_lessons.cli import parser
from loo_lessons.cli.bench import million_figures
from loo_lessons.cli.bench_browser import coach_report
from loo_lessons.sim.decisions import KINDS, coach_positions, kind_of, time_coach
from loo_lessons.sim.workers import available_cores
from loo_lessons.widgets.backends import browser


def test_bench_million_prints_the_seconds_and_the_memory_of_both_runs(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # 40,000 and 4,000 hands: 20 and 2 chunks, so both runs have worker processes on 2 cores
    got = million_figures(40_000, per_floor=1e-5)
    out = capsys.readouterr().out.splitlines()
    workers = available_cores()
    assert len(out) == 3, out
    assert re.fullmatch(
        rf"simulate --hands 40,000 \(the command as it runs: seed 0, 5 players, sensible bots, "
        rf"({workers} workers = the cores it may use|1 core: no workers)\): \d+\.\d s = "
        r"\d+\.\d\d floors a hand \(goal <= 30 s for 1,000,000 with 2 workers on a 2-core "
        r"machine = 3\.00 floors a hand; [\d,]+ hands a second\)",
        out[0],
    ), out[0]
    # the same hands on a local Dask cluster of as many workers, as a multiple of that run
    assert re.fullmatch(
        rf"simulate --hands 40,000 --dask local:{workers}: \d+\.\d s = \d+\.\d\d × the run "
        rf"with {workers} worker processes \(goal <= 1\.1 ×\)",
        out[1],
    ), out[1]
    assert got["million_dask_times"] == pytest.approx(got["million_dask_s"] / got["million_s"])
    assert got["million_floors"] == pytest.approx(got["million_s"] / 40_000 / 1e-5)
    assert got["million_goal_floors"] == pytest.approx(3.0)  # 30 µs a hand, the floor 10 µs
    out = out[1:]
    worker = r", largest worker \d+\.\d MB" if workers > 1 else ""
    assert re.fullmatch(
        rf"simulate's peak resident memory: 40,000 hands: main process \d+\.\d MB{worker}; "
        rf"4,000 hands: main process \d+\.\d MB{worker} \(goal: constant memory, the two runs "
        r"alike; the smaller took \d+\.\d s\)",
        out[1],
    ), out[1]
    assert got["million_workers"] == workers
    assert got["million_s"] > 0 and got["tenth_s"] > 0
    # a real resident size (an interpreter with the package: well over 5 MB), and the same
    # order for ten times the hands: the tallies are summed as chunks finish
    assert got["tenth_main_mb"] > 5 and got["million_main_mb"] < 2 * got["tenth_main_mb"]
    if workers > 1:
        assert got["tenth_worker_mb"] > 5 and got["million_worker_mb"] < 2 * got["tenth_worker_mb"]


def test_bench_help_names_the_million_run(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        parser().parse_args(["bench", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--million" in text and "simulate --hands 1000000" in text
    assert "goal <= 30 s with two workers" in text and "--dask local:N" in text
    assert parser().parse_args(["bench", "--million"]).million is True
    assert parser().parse_args(["bench"]).million is False


def test_the_coach_is_timed_on_one_decision_of_each_kind() -> None:
    positions = coach_positions()
    assert [k for k, _ in positions] == list(KINDS)
    for kind, hand in positions:
        assert kind_of(hand) == kind and hand.to_act is not None
        assert len(hand.legal_actions()) > 1
    # the same positions every time (the page and CPython answer the same questions)
    again = coach_positions()
    assert [h.transcript() for _, h in again] == [h.transcript() for _, h in positions]
    timings = time_coach(3, seed=1)
    assert [(t.kind, t.moves, t.rollouts) for t in timings] == [
        (k, len(h.legal_actions()), 3) for k, h in positions
    ]
    assert all(t.seconds > 0 and t.cpu_seconds >= 0 for t in timings)


def test_the_pages_coach_request_takes_only_a_count() -> None:
    answer = json.loads(browser.run("coach_timing", json.dumps({"rollouts": 2})))
    assert [d["kind"] for d in answer["decisions"]] == list(KINDS)
    assert all(d["rollouts"] == 2 and d["seconds"] > 0 for d in answer["decisions"])
    for bad in (0, -1, 1001, 2.5, True, "10", None, [5]):
        refused = json.loads(browser.run("coach_timing", json.dumps({"rollouts": bad})))
        assert refused == {"error": "Refused: rollouts: 1 to 1000"}, (bad, refused)
    for bad in (0, 100_001, 2.5, True, "10", None):
        refused = json.loads(browser.run("hands", json.dumps({"hands": bad})))
        assert refused == {"error": "Refused: hands: 1 to 100000"}, (bad, refused)


def test_bench_browser_prints_the_coach_beside_a_hand_and_cpython(
    capsys: pytest.CaptureFixture[str],
) -> None:
    native = browser.FUNCTIONS["coach_timing"]({"rollouts": 2})
    # the page's answer has the same form (test_worker_messages checks it in Chromium); here
    # the page is made twice as slow to see the ratios come out of the figures given
    page = {"decisions": [{**d, "seconds": 2 * d["seconds"]} for d in native["decisions"]]}
    got = coach_report(page, native, 0.5, 0.25)
    out = capsys.readouterr().out.strip()
    assert re.fullmatch(
        r"browser: the coach, 2 play-outs of each legal move, in the page: declaring \(\d moves\) "
        r"\d+ ms, leading \(\d moves\) \d+ ms, following \(\d moves\) \d+ ms; worst \d+\.\d\d s "
        r"\(goal <= 1\.5 s with 1,000\) = [\d,]+ random hands in the page; in this CPython: worst "
        r"\d+ ms = [\d,]+ random hands here; page / CPython: 2\.0",
        out,
    ), out
    worst = max(d["seconds"] for d in native["decisions"]) * 1000
    assert got["cpython_coach_worst_ms"] == pytest.approx(worst)
    assert got["browser_coach_worst_ms"] == pytest.approx(2 * worst)
    assert got["browser_coach_hands"] == pytest.approx(4 * worst)
    assert got["cpython_coach_hands"] == pytest.approx(4 * worst)
    assert got["browser_coach_ratio"] == pytest.approx(2.0)

