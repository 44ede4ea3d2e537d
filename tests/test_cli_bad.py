"""Bad command lines: each is refused with exit code 2 and one line `error: ...` on stderr,
under 400 characters, with no traceback and nothing on stdout (as tests/bad_scenarios/ does
for files). Broken pipes, full disks, Ctrl-C and a bare install run in subprocesses."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from loo_lessons.cli import EXIT_INTERRUPTED, EXIT_REFUSED, main
from loo_lessons.cli.args import MAX_HANDS
from loo_lessons.cli.clean import for_terminal
from loo_lessons.cli.sim import Progress
from loo_lessons.sim.montecarlo import CHUNK_HANDS, chunk_bounds, chunk_tally, simulate
from loo_lessons.sim.tally import merged

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = str(ROOT / "loo_lessons" / "scenarios" / "deal-must-no-miss.yaml")
MISSING = str(ROOT / "no" / "such" / "folder")

# (command line, a word the one line must contain: the option or field to blame)
BAD: list[tuple[list[str], str]] = [
    (["deal", "--players", "0"], "--players"),
    (["deal", "--players", "1"], "--players"),
    (["deal", "--players", "18"], "--players"),
    (["deal", "--players", "-3"], "--players"),
    (["deal", "--players", "abc"], "--players"),
    (["deal", "--players", "5.5"], "--players"),
    (["deal", "--players", ""], "--players"),
    (["deal", "--players", "17"], "players"),  # 17 only in a must (A18)
    (["deal", "--dealer", "99"], "--dealer"),
    (["deal", "--dealer", "5"], "--dealer"),  # a table of 5 has seats 0 to 4
    (["deal", "--players", "3", "--dealer", "3"], "--dealer"),
    (["deal", "--dealer", "-1"], "--dealer"),
    (["deal", "--seed", "abc"], "--seed"),
    (["deal", "--seed", "9" * 5000], "--seed"),  # longer than int() converts
    (["deal", "--seed", "-1"], "--seed"),
    (["deal", "--seed", "1e5"], "--seed"),
    (["deal", "--rules", "nonsense"], "--rules"),
    (["deal", "--frob"], "--frob: not an argument"),
    (["deal", "extra"], "extra"),
    (["bench", "--seconds", "0"], "--seconds"),
    (["bench", "--seconds", "-1"], "--seconds"),
    (["bench", "--seconds", "nan"], "--seconds"),
    (["bench", "--seconds", "inf"], "--seconds"),
    (["bench", "--seconds", "-inf"], "--seconds"),
    (["bench", "--seconds", "1e400"], "--seconds"),
    (["bench", "--seconds", "abc"], "--seconds"),
    (["bench", "--seconds", "601"], "--seconds"),
    (["bench", "--seconds", "1e-9"], "--seconds"),  # nothing to time in a nanosecond
    (["bench", "--browser", "--site", "/no/such"], "--site"),
    (["bench", "--browser-only", "--site", "/no/such"], "--site"),
    (["simulate", "--hands", "0"], "--hands"),
    (["simulate", "--hands", "-5"], "--hands"),
    (["simulate", "--hands", str(MAX_HANDS + 1)], "--hands"),
    (["simulate", "--hands", "1e6"], "--hands"),
    (["simulate", "--workers", "0"], "--workers"),
    (["simulate", "--workers", "65"], "--workers"),
    (["simulate", "--players", "1"], "--players"),
    (["simulate", "--players", "17"], "players"),
    (["simulate", "--bots", "nobody"], "--bots"),
    (["simulate", "--bots", "bold,bold"], "bots"),  # two bots for five seats
    (["simulate", "--bots", ",".join(["bold"] * 18)], "--bots"),
    (["simulate", "--option", "nonsense=1"], "--option"),
    (["simulate", "--option", "loo_amount=unlimited"], "--option"),
    (["simulate", "--option", "must_head_in_suit=maybe"], "--option"),
    (["simulate", "--option", "loo_amount"], "--option"),
    (["simulate", "--json", "--csv"], "--csv"),
    (["simulate", "--rules", "xyz"], "--rules"),
    (["play", "--players", "0"], "--players"),  # the table, not the seat, is wrong
    (["play", "--seat", "5"], "--seat"),
    (["play", "--seat", "-1"], "--seat"),
    (["play", "--players", "4", "--dealer", "9"], "--dealer"),
    (["play", "--players", "17"], "players"),
    (["explain", MISSING + "/x.yaml"], "x.yaml"),
    (["explain", str(ROOT / "tests")], "tests"),
    (["explain"], "file"),
    ([], "COMMAND"),
    (["nope"], "nope"),
    (["--frob"], "COMMAND"),
    (["rules", "--json", "extra"], "extra"),
    (["deal", "--rules", "\x1b[2J\x1b]0;owned\x07red"], "--rules"),
    (["deal", "--" + "x" * 5000], "not an argument"),
    (["quiz", "--topic", "deal", "--html", MISSING + "/quiz.html"], "quiz.html"),
    (["quiz", "--topic", "deal", "--html", str(ROOT / "tests")], "tests"),
    (["quiz"], "--topic: give a topic"),
    (["quiz", "--topic", "lead", "--seed", "-1"], "--seed"),  # no id like lead--1-0
    (["quiz", "--topic", "lead", "--seed", str(2**63)], "--seed"),
    (["play", "--option", "loo_amount=pool_capped"], "loo_cap=N"),  # no cap: refused, not unlimited
    (["play", "--deals", "2", "--option", "loo_amount=pool_capped"], "loo_cap=N"),
    (["play", "--option", "loo_cap=9"], "pool_capped only"),
    (["play", "--option", "loo_amount=pool_capped", "--option", "loo_cap=0"], "loo_cap"),
    (["play", "--json"], "--resume"),
]


def assert_one_line(err: str) -> str:
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err[:2000]
    line = lines[0]
    assert line.startswith("error: ") and len(line) < 400, line
    assert for_terminal(line) == line  # no escape codes reach the terminal
    return line


def test_the_table_is_long_enough() -> None:
    assert len(BAD) >= 40


@pytest.mark.parametrize(("argv", "blame"), BAD, ids=[" ".join(a)[:40] for a, _ in BAD])
def test_bad_command_line_is_one_line_exit_2(
    argv: list[str], blame: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == EXIT_REFUSED
    out, err = capsys.readouterr()
    line = assert_one_line(err)
    assert blame in line
    assert out == ""  # never a half answer


def test_play_with_players_0_blames_players_not_seat(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--players", "0"]) == EXIT_REFUSED
    line = assert_one_line(capsys.readouterr().err)
    assert line.startswith("error: --players:") and "seat" not in line


def test_the_dealer_named_is_the_dealer_shown(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deal", "--players", "5", "--dealer", "4", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "dealer seat 4" in out
    assert "seat 4 (dealer)" in out and "seat 0 (elder hand)" in out


def test_help_is_not_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deal", "--help"]) == 0
    assert "--players" in capsys.readouterr().out


def test_play_under_pool_capped_ends_in_a_result_or_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for seed in range(4):
        monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 12 + "\n"))
        rc = main(["play", "--seed", str(seed), "--option", "loo_amount=pool_capped"])
        out, err = capsys.readouterr()
        assert "Traceback" not in out + err
        if rc == EXIT_REFUSED:
            assert_one_line(err)
        else:
            assert rc in (0, 1) and err == ""


WORDS = st.sampled_from(
    [
        "deal",
        "rules",
        "explain",
        "simulate",
        "play",
        "--players",
        "--dealer",
        "--seat",
        "--seed",
        "--rules",
        "--option",
        "--bots",
        "--hands",
        "--json",
        "--csv",
        "--must",
        "--quiet",
        "0",
        "3",
        "-1",
        "17",
        "99",
        "1e9",
        "nan",
        "peel",
        "bold",
        "loo_amount=pool",
        "ante=x",
        SCENARIO,
        MISSING,
        "\x00",
        "\udcff",
        "é",
    ]
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(WORDS, st.text(max_size=8)), max_size=7))
def test_no_command_line_gives_a_traceback(argv: list[str]) -> None:
    """Any mixture of words: an answer, or one line and exit 2; never a traceback."""
    if "simulate" in argv and "--hands" not in argv:
        argv = [*argv, "--hands", "20"]
    out, err = io.StringIO(), io.StringIO()
    old = sys.stdin, sys.stdout, sys.stderr
    sys.stdin, sys.stdout, sys.stderr = io.StringIO(""), out, err
    try:
        rc = main(argv)
    finally:
        sys.stdin, sys.stdout, sys.stderr = old
    assert "Traceback" not in out.getvalue() + err.getvalue()
    if rc == EXIT_REFUSED:
        assert_one_line(err.getvalue())
    else:
        assert rc in (0, 1)


# --- subprocesses: pipes, full disks, Ctrl-C, a bare install -------------------------------


def run_cli(
    args: list[str], *, extras: bool = True, **kw: object
) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    paths = [str(ROOT)] if extras else [str(ROOT / "tests" / "bare_site"), str(ROOT)]
    env["PYTHONPATH"] = os.pathsep.join(paths)
    done: subprocess.CompletedProcess[str] = subprocess.run(
        [sys.executable, "-m", "loo_lessons.cli", *args],
        env=env,
        text=True,
        timeout=120,
        **kw,  # type: ignore[call-overload]
    )
    return done


@pytest.mark.parametrize(
    "args",
    [
        ["deal", "--players", "0"],
        ["deal", "--dealer", "99"],
        ["bench", "--seconds", "nan"],
        ["play", "--players", "0"],
        ["simulate", "--hands", str(MAX_HANDS + 1)],
        ["nope"],
    ],
)
def test_a_bad_command_line_exits_2_as_a_process(args: list[str]) -> None:
    p = run_cli(args, capture_output=True, stdin=subprocess.DEVNULL)
    assert p.returncode == EXIT_REFUSED and p.stdout == ""
    assert_one_line(p.stderr)


@pytest.mark.parametrize(
    "args",
    [
        ["rules", "--json"],
        ["rules"],
        ["deal", "--json"],
        ["simulate", "--hands", "50"],
        ["quiz", "--topic", "deal", "--count", "2", "--json"],
    ],
)
def test_a_closed_pipe_ends_quietly(args: list[str]) -> None:
    """`loo-lessons rules --json | head -1`: the reader has gone; one line, exit 2."""
    read, write = os.pipe()
    os.close(read)  # the reader is gone before anything is written
    try:
        p = run_cli(args, stdout=write, stderr=subprocess.PIPE)
    finally:
        os.close(write)
    assert p.returncode == EXIT_REFUSED
    assert "pipe" in assert_one_line(p.stderr)


def test_a_full_disk_ends_quietly() -> None:
    with open("/dev/full", "w") as full:
        p = run_cli(["rules", "--json"], stdout=full, stderr=subprocess.PIPE)
    assert p.returncode == EXIT_REFUSED
    assert "No space left" in assert_one_line(p.stderr)


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "--hands", "300", "--json", "--quiet"],
        ["bench", "--seconds", "0.05", "--no-simulation"],
    ],
)
def test_without_the_lessons_extra_simulate_and_bench_work(args: list[str]) -> None:
    p = run_cli(args, extras=False, capture_output=True)
    assert p.returncode == 0, p.stderr
    assert "Traceback" not in p.stderr
    if args[0] == "simulate":
        out = json.loads(p.stdout)
        assert out["hands"] == 300 and out["tables"]["by_trumps"]
    else:  # the figures that need widgets are skipped, in one line naming the extra
        skipped = [line for line in p.stdout.splitlines() if "skipped" in line]
        assert len(skipped) == 1 and "pip install 'loo-lessons[lessons]'" in skipped[0]
        assert "ratio:" in p.stdout


def test_without_pandas_a_frame_names_the_extra() -> None:
    code = (
        "from loo_lessons.sim.montecarlo import simulate\n"
        "from loo_lessons.views import frames\n"
        "table = simulate(10, 4, 1).trick_rates('trumps')\n"
        "assert table.rows\n"
        "frames.table(table)\n"
    )
    env = dict(
        os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "tests" / "bare_site"), str(ROOT)])
    )
    p = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60
    )
    assert p.returncode != 0  # the view needs pandas, the tables do not
    assert "DataFrames need pandas: pip install 'loo-lessons[lessons]'" in p.stderr


def test_ctrl_c_prints_the_finished_hands_marked_partial() -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    args = ["simulate", "--hands", str(MAX_HANDS), "--players", "4", "--seed", "9"]
    p = subprocess.Popen(
        [sys.executable, "-m", "loo_lessons.cli", *args, "--workers", "2", "--json"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert p.stderr is not None
        first = p.stderr.readline()  # the first progress line: the run is under way
        assert first.startswith("simulate: "), first
        p.send_signal(signal.SIGINT)
        out, rest = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == EXIT_INTERRUPTED
    assert "Traceback" not in rest
    assert rest.strip().splitlines()[-1].startswith("interrupted: the tables printed are partial")
    got = json.loads(out)
    assert got["partial"] is True and got["hands_requested"] == MAX_HANDS
    done = got["hands"]
    assert 0 < done < MAX_HANDS and done % CHUNK_HANDS == 0  # whole chunks, from hand 0
    # the partial tables are exactly those of a run of that many hands
    whole = simulate(done, 4, 9, workers=2)
    assert got["tables"] == json.loads(
        json.dumps({k: t.records() for k, t in whole.summary().items()})
    )


# --- simulation at scale ---------------------------------------------------------------------


def test_the_same_seed_gives_the_same_numbers_whatever_the_workers(
    capsys: pytest.CaptureFixture[str],
) -> None:
    runs = []
    for workers in ("1", "2"):
        argv = ["simulate", "--hands", str(2 * CHUNK_HANDS + 7), "--players", "4", "--seed", "3"]
        assert main([*argv, "--workers", workers, "--json", "--quiet"]) == 0
        runs.append(json.loads(capsys.readouterr().out))
    assert runs[0] == runs[1]
    one, two = (
        {k: t.records() for k, t in simulate(900, 5, 8, workers=w, chunk=c).summary().items()}
        for w, c in ((1, 900), (2, 100))
    )
    assert one == two


def _peak(hands: int, rows: bool) -> int:
    tracemalloc.start()
    try:
        simulate(hands, 3, 1, chunk=200, rows=rows)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_memory_does_not_grow_with_the_hands() -> None:
    simulate(3000, 3, 1, chunk=200)  # first: the engine's caches fill once, whatever the run
    small, large = _peak(600, False), _peak(3000, False)
    assert large < small + 32 * 1024, (small, large)  # the groups seen, not the hands
    assert large < 1024 * 1024
    # the measurement can see growth: keeping the rows does grow with the hands
    assert _peak(3000, True) > large + 3000 * 3 * 8


def test_chunks_merged_in_any_order_give_the_simulation() -> None:
    """What a cluster would do (README): one tally per seeded chunk, merged in any order."""
    whole = simulate(700, 4, 5, chunk=200)
    parts = [chunk_tally(5, a, b, 4) for a, b in chunk_bounds(700, 200)]
    assert len(parts) == 4
    assert merged(4, reversed(parts)) == whole.tally


class _Stream(io.StringIO):
    def __init__(self, tty: bool) -> None:
        super().__init__()
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


@pytest.mark.parametrize("tty", [True, False])
def test_progress_is_a_bar_on_a_terminal_and_lines_elsewhere(tty: bool) -> None:
    stream = _Stream(tty)
    progress = Progress(stream, delay=0.0, every=0.0)
    simulate(600, 4, 1, chunk=200, progress=progress)
    progress.close()
    text = stream.getvalue()
    if tty:  # redrawn in place, one line left at the end
        assert text.count("\r[") == 3 and text.endswith("\n") and text.count("\n") == 1
        assert "600 of 600 hands (100%)" in text
    else:
        assert text.splitlines()[-1].startswith("simulate: 600 of 600 hands (100%)")
        assert "\r" not in text and len(text.splitlines()) == 3
    late = _Stream(tty)
    simulate(600, 4, 1, chunk=200, progress=Progress(late, delay=3600.0))
    assert late.getvalue() == ""  # a short run shows nothing


@pytest.mark.parametrize("fmt", [[], ["--csv"]])
def test_an_interrupted_run_is_marked_partial_in_text_and_csv(
    fmt: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from loo_lessons.sim import montecarlo

    real = montecarlo._play_chunk

    def stop_at_the_third_chunk(job: Any) -> Any:
        if job.start >= 2 * CHUNK_HANDS:
            raise KeyboardInterrupt  # as Ctrl-C would, in the middle of a chunk
        return real(job)

    monkeypatch.setattr(montecarlo, "_play_chunk", stop_at_the_third_chunk)
    argv = ["simulate", "--hands", str(3 * CHUNK_HANDS), "--players", "3", "--quiet", *fmt]
    argv += ["--workers", "1"]  # in this process, where the patched chunk runs
    assert main(argv) == EXIT_INTERRUPTED
    out, err = capsys.readouterr()
    note = f"PARTIAL: interrupted after {2 * CHUNK_HANDS:,} of {3 * CHUNK_HANDS:,} hands"
    assert out.splitlines()[0] == (f"# {note}" if fmt else note) + (
        f"; these tables cover hands 0 to {2 * CHUNK_HANDS - 1:,} only"
    )
    assert err.startswith("interrupted: the tables printed are partial") and "Traceback" not in err
