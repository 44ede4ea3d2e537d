"""Simulation on a Dask cluster and with dying workers (sim/workers.py): the same tables whatever
plays the chunks, and a dead worker never hangs a run. Every wait here is bounded by a timeout
of the harness; nothing is timed."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from loo_lessons.cli import EXIT_REFUSED, main
from loo_lessons.sim import workers as W
from loo_lessons.sim.montecarlo import CHUNK_HANDS, SimResult, simulate

ROOT = Path(__file__).resolve().parent.parent
ENV = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))


def _tables(res: SimResult) -> dict[str, Any]:
    return {k: t.records() for k, t in res.summary().items()}


def _worker_settings() -> tuple[object, ...]:
    import dask

    return tuple(dask.config.get(k) for k in W.LOCAL_CLUSTER_CONFIG)


def test_dask_local_2_gives_the_same_tables_as_workers_2(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # the local cluster's worker processes run with its settings (no profiler, a slow tick)
    settings: dict[str, tuple[object, ...]] = {}
    plain = W._dask_in_order

    def noting(distributed: Any, client: Any, play: Any, jobs: Any, stop: Any) -> Any:
        settings.update(client.run(_worker_settings))
        return (yield from plain(distributed, client, play, jobs, stop))

    monkeypatch.setattr(W, "_dask_in_order", noting)
    runs = []
    argv = ["simulate", "--hands", str(2 * CHUNK_HANDS + 7), "--players", "4", "--seed", "3"]
    for backend in (["--workers", "2"], ["--dask", "local:2"]):
        assert main([*argv, *backend, "--json", "--quiet"]) == 0
        runs.append(json.loads(capsys.readouterr().out))
    assert runs[0] == runs[1]
    assert runs[0]["hands"] == 2 * CHUNK_HANDS + 7
    assert list(settings.values()) == [tuple(W.LOCAL_CLUSTER_CONFIG.values())] * 2


def _children(pid: int) -> list[int]:
    with open(f"/proc/{pid}/task/{pid}/children") as f:
        return [int(x) for x in f.read().split()]


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux /proc")
def test_a_killed_local_worker_ends_the_run_in_one_line() -> None:
    args = ["simulate", "--hands", "2000000", "--players", "4", "--seed", "9", "--workers", "2"]
    p = subprocess.Popen(
        [sys.executable, "-m", "loo_lessons.cli", *args, "--json"],
        env=ENV,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert p.stderr is not None
        first = p.stderr.readline()  # the first progress line: the pool is at work
        assert first.startswith("simulate: "), first
        kids = _children(p.pid)
        assert kids, "no worker processes"
        os.kill(kids[0], signal.SIGKILL)
        out, rest = p.communicate(timeout=120)  # the harness's bound: a hang fails here
    finally:
        if p.poll() is None:
            p.kill()
            p.communicate()
    assert p.returncode == EXIT_REFUSED
    assert out == "" and "Traceback" not in rest
    last = rest.strip().splitlines()[-1]
    assert last.startswith("error: simulate: a worker process died during the run;"), last


def _bounded(run: Any, seconds: float) -> dict[str, Any]:
    """`run()` in a daemon thread, joined with a timeout: a hang fails the test, never stalls it."""
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["res"] = run()
        except Exception as e:  # reported in the test's thread
            box["error"] = e

    t = threading.Thread(target=target, daemon=True)
    t.start()
    t.join(timeout=seconds)
    assert not t.is_alive(), "the run hung"
    return box


def test_a_killed_dask_worker_loses_nothing_and_a_cluster_left_empty_ends_the_run(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    distributed = pytest.importorskip("distributed")
    import logging

    cluster = distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        silence_logs=logging.ERROR,
    )
    client = distributed.Client(cluster)
    try:
        pids = list(client.run(os.getpid).values())
        killed: list[int] = []

        def kill_one(done: int, total: int) -> None:
            if not killed:
                os.kill(pids[0], signal.SIGKILL)
                killed.append(pids[0])

        box = _bounded(  # the harness's bound: a hang fails here
            lambda: simulate(
                24 * 250, 4, 5, progress=kill_one, chunk=250, dask=cluster.scheduler_address
            ),
            180,
        )

        # then every worker goes, for good: the run ends in one error, not a wait forever
        monkeypatch.setattr(W, "NO_WORKER_GRACE", 2.0)

        def retire_all(done: int, total: int) -> None:
            if done == 250:  # in a thread of its own: retiring waits on the workers, and a
                # worker whose data cannot move may never finish (the run must not wait on it)
                threading.Thread(target=cluster.scale, args=(0,), daemon=True).start()

        empty = _bounded(
            lambda: simulate(
                400 * 250, 4, 6, progress=retire_all, chunk=250, dask=cluster.scheduler_address
            ),
            180,
        )
    finally:
        client.close()
        cluster.close()
    lost = empty.get("error")
    assert isinstance(lost, W.WorkerLost), empty
    assert "no worker for 2 s" in str(lost) and lost.done % 250 == 0 and lost.done >= 250
    assert killed
    res = box.get("res")  # Dask played the lost worker's chunk again, elsewhere
    assert isinstance(res, SimResult), box
    assert res.hands == 24 * 250
    assert _tables(res) == _tables(simulate(24 * 250, 4, 5, chunk=250))


def test_a_pool_that_breaks_raises_worker_lost_with_the_hands_done() -> None:
    seen: list[int] = []

    def kill_a_worker(done: int, total: int) -> None:
        import multiprocessing

        seen.append(done)
        if len(seen) == 1:
            for child in multiprocessing.active_children():
                assert child.pid is not None
                os.kill(child.pid, signal.SIGKILL)

    box = _bounded(  # the harness's bound: a hang fails here
        lambda: simulate(400 * 100, 4, 2, workers=2, progress=kill_a_worker, chunk=400), 120
    )
    err = box.get("error")
    assert isinstance(err, W.WorkerLost), box
    assert err.done == seen[-1] and err.done % 400 == 0
    assert "a worker process died" in str(err)


def test_without_dask_the_command_says_so_in_one_line() -> None:
    env = dict(ENV, PYTHONPATH=os.pathsep.join([str(ROOT / "tests" / "bare_site"), str(ROOT)]))
    p = subprocess.run(
        [sys.executable, "-m", "loo_lessons.cli", "simulate", "--hands", "10", "--dask", "local:2"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert p.returncode == EXIT_REFUSED
    assert p.stderr == "error: --dask: Dask is not installed; pip install 'loo-lessons[cluster]'\n"


@pytest.mark.parametrize(
    ("value", "said"),
    [
        ("local:0", "--dask: local:0 is out of range: 1 to 64 workers"),
        ("local:two", "--dask: expected local:N (N workers), got 'local:two'"),
        ("two words", "--dask: expected a scheduler address (tcp://host:port) or local:N"),
        ("nonsense", "--dask: 'nonsense' has no port: expected tcp://host:port"),
        ("tcp://[::1:8749", "--dask: '[::1' is not an IPv6 address in brackets, like [::1]"),
        (
            "tls://localhost:8786",
            "--dask: tls:// needs certificates the command line cannot give; use tcp:// "
            "(through an SSH tunnel for a scheduler on another network)",
        ),
        ("tcp://localhost:99999", "--dask: port '99999' is not a number from 1 to 65535"),
        ("127.0.0.1:0", "--dask: port '0' is not a number from 1 to 65535"),
        ("tcp://host:port", "--dask: port 'port' is not a number from 1 to 65535"),
        ("ws://host:8786", "--dask: 'ws' is not a scheduler protocol here: use tcp://host:port"),
        (
            "tcp://ho$t:8786",
            "--dask: 'ho$t' is not a host name or address (an IPv6 address goes in brackets, "
            "like [::1]:8786)",
        ),
    ],
)
def test_cli_refuses_a_bad_dask_address(
    capsys: pytest.CaptureFixture[str], value: str, said: str
) -> None:
    assert main(["simulate", "--hands", "10", "--dask", value]) == EXIT_REFUSED
    assert capsys.readouterr().err == f"error: {said}\n"


def test_workers_default_to_the_usable_cores(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert W.available_cores() == len(os.sched_getaffinity(0))
    asked: list[int] = []
    import loo_lessons.sim.montecarlo as M

    real = M.simulate

    def spy(*args: Any, **kwargs: Any) -> SimResult:
        asked.append(kwargs["workers"])
        return real(*args, **{**kwargs, "workers": 1})

    monkeypatch.setattr(M, "simulate", spy)
    monkeypatch.setattr(W, "available_cores", lambda: 7)
    assert main(["simulate", "--hands", "20", "--quiet", "--json"]) == 0
    assert main(["simulate", "--hands", "20", "--quiet", "--json", "--workers", "3"]) == 0
    capsys.readouterr()
    assert asked == [7, 3]


def _slow_square(n: int) -> int:
    import time

    time.sleep(0.2 if n == 0 else 30)  # the later chunks are still being played when stopped
    return n * n


def test_a_run_stopped_early_ends_its_busy_worker_processes() -> None:
    """A run left before its end (Ctrl-C, a lost worker, a closed pipe) stops the processes
    still playing a chunk: none is left to play it out (it once was, on Python < 3.14)."""
    import multiprocessing

    before = {p.pid for p in multiprocessing.active_children()}
    run = W.in_order(_slow_square, [0, 1, 2], workers=2)
    assert next(run) == 0
    busy = [p for p in multiprocessing.active_children() if p.pid not in before]
    assert busy and all(p.is_alive() for p in busy)
    run.close()  # the consumer stops: the generator's finally stops the pool
    for p in busy:
        p.join(10)
    left = [(p.name, p.pid) for p in busy if p.is_alive()]
    assert not left, left


@pytest.mark.skipif(not hasattr(os, "killpg"), reason="needs process groups")
def test_ctrl_c_on_a_local_dask_run_prints_only_the_partial_tables() -> None:
    # a terminal's Ctrl-C goes to the whole process group: the Dask workers get it too
    args = ["simulate", "--hands", "2000000", "--players", "4", "--seed", "9", "--dask", "local:2"]
    p = subprocess.Popen(
        [sys.executable, "-m", "loo_lessons.cli", *args, "--json"],
        env=ENV,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        assert p.stderr is not None
        first = p.stderr.readline()  # the first progress line: the cluster is at work
        assert first.startswith("simulate: "), first
        os.killpg(p.pid, signal.SIGINT)
        out, rest = p.communicate(timeout=120)  # the harness's bound: a hang fails here
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.communicate()
    assert "Traceback" not in rest and "KeyboardInterrupt" not in rest, rest
    assert rest.strip().splitlines() == [
        f"interrupted: the tables printed are partial ({json.loads(out)['hands']:,} of "
        "2,000,000 hands)"
    ]
    got = json.loads(out)
    done = got["hands"]
    assert got["partial"] is True and done > 0 and done % CHUNK_HANDS == 0
    whole = simulate(done, 4, 9, workers=2)
    assert got["tables"] == json.loads(json.dumps(_tables(whole)))
