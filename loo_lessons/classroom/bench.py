"""How long a class takes to get going: ``python -m loo_lessons.classroom.bench``.

Starts the class hub (deploy/jupyterhub/jupyterhub_config.py) on 127.0.0.1 with a class list
of N pupils (25 by default, at most 40), logs every pupil in through the login form, asks
for every server at once, and runs every code cell of lesson 1 in each pupil's own server.
Prints the time to the first and to all servers running, the slowest single spawn, the time
until every lesson ran, failures, and the memory the pupils' processes take. Bounded: at most
`MAX_PUPILS` pupils, and everything is stopped after --timeout seconds (600 by default).
Afterwards the hub and every process it started are stopped by their pids, and the pupils'
Unix users, homes and the temporary venv are removed. Run as root (the hub makes users).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import pwd
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

import requests

from loo_lessons.classroom import pupils
from loo_lessons.classroom.drive import (
    Hub,
    descendants,
    hub_venv,
    log_in,
    run_lesson,
    spawn,
    start_hub,
    stop_hub,
    token_for,
)

MAX_PUPILS = 40
MAX_TIMEOUT = 1800.0


def _rss_mb(pids: set[int]) -> float:
    total = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return total / 1024


def run(count: int, timeout: float) -> list[str]:
    """The benchmark; returns the lines of its report."""
    tag = secrets.token_hex(2)
    names = [f"bench{tag}-{i:02d}" for i in range(1, count + 1)]
    passwords = {n: secrets.token_urlsafe(12) for n in names}
    state = Path(tempfile.mkdtemp(prefix="loo-hub-bench-state-"))
    homes = Path(tempfile.mkdtemp(prefix="loo-hub-bench-homes-"))
    venv = Path(tempfile.mkdtemp(prefix="loo-hub-bench-venv-"))
    hub: Hub | None = None
    report: list[str] = []
    deadline = time.monotonic() + timeout
    try:
        homes.chmod(0o755)
        pupils.add_pupils(state / "class-list", names, passwords=passwords)
        env = {"LOO_HUB_CLASS_LIST": str(state / "class-list")}
        hub = start_hub(hub_venv(venv), state, homes, state / "hub.log", env)
        h = hub
        with ThreadPoolExecutor(8) as pool:
            tokens = dict(
                zip(
                    names,
                    pool.map(lambda n: token_for(h, log_in(h, n, passwords[n]), n), names),
                    strict=True,
                )
            )
        report.append(f"{count} pupils logged in; asking for {count} servers at once")
        # how long the hub takes to answer while the servers start (a spawn that held the
        # hub up would show here)
        waits: list[float] = []
        spawning = threading.Event()

        def watch() -> None:
            while not spawning.is_set():
                t = time.monotonic()
                with contextlib.suppress(requests.RequestException):
                    requests.get(f"{h.url}/hub/api/", timeout=60)
                    waits.append(time.monotonic() - t)
                spawning.wait(0.5)

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        t0 = time.monotonic()
        ready: dict[str, float] = {}
        failed: list[str] = []
        left = max(1.0, deadline - time.monotonic())
        with ThreadPoolExecutor(count) as pool:
            futures = {pool.submit(spawn, h, n, tokens[n], left): n for n in names}
            for f in as_completed(futures):
                try:
                    f.result()
                    ready[futures[f]] = time.monotonic() - t0
                except Exception as e:  # a failed spawn is a figure, not a crash
                    failed.append(f"{futures[f]}: {str(e).splitlines()[0][:120]}")
        spawning.set()
        watcher.join()
        if waits:
            report.append(
                f"the hub answered /hub/api/ during the spawns in {statistics.median(waits):.2f} s"
                f" (median), {max(waits):.2f} s at worst ({len(waits)} requests)"
            )
        if ready:
            times = sorted(ready.values())
            report.append(
                f"servers running: first after {times[0]:.1f} s, median {statistics.median(times):.1f} s,"
                f" all {len(times)} after {times[-1]:.1f} s"
            )
        pids = descendants(h.pids)
        report.append(f"memory of hub and servers: {_rss_mb(pids):.0f} MB")
        t1 = time.monotonic()
        ran = 0
        with ThreadPoolExecutor(min(count, 8)) as pool:
            lesson_futures = {pool.submit(run_lesson, h, n, tokens[n]): n for n in ready}
            for lf in as_completed(lesson_futures):
                try:
                    _, outputs, _ = lf.result()
                    errors = [o for out in outputs for o in out if o["output_type"] == "error"]
                    if errors:
                        failed.append(f"{lesson_futures[lf]}: lesson 1: {errors[0].get('ename')}")
                    else:
                        ran += 1
                except Exception as e:
                    failed.append(f"{lesson_futures[lf]}: lesson 1: {str(e).splitlines()[0][:120]}")
        report.append(
            f"lesson 1 ran in {ran} servers in {time.monotonic() - t1:.1f} s more"
            f" (8 at a time); everything after {time.monotonic() - t0:.1f} s"
        )
        report.append(f"memory after the lessons: {_rss_mb(descendants(h.pids)):.0f} MB")
        report.append(f"failures: {len(failed)}")
        report.extend(f"  {line}" for line in failed)
    finally:
        survivors = stop_hub(hub) if hub else []
        for name in names:
            try:
                pwd.getpwnam(name)
            except KeyError:
                continue
            subprocess.run(["userdel", "--force", "--remove", name], capture_output=True)
        for folder in (state, homes, venv):
            shutil.rmtree(folder, ignore_errors=True)
        if survivors:
            report.append(f"processes that survived the hub: {survivors}")
    return report


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m loo_lessons.classroom.bench", description=__doc__)
    p.add_argument("--pupils", type=int, default=25, help=f"1 to {MAX_PUPILS}")
    p.add_argument("--timeout", type=float, default=600.0, help=f"seconds, at most {MAX_TIMEOUT:g}")
    args = p.parse_args(argv)
    if not 1 <= args.pupils <= MAX_PUPILS:
        print(f"error: --pupils: 1 to {MAX_PUPILS}, not {args.pupils}", file=sys.stderr)
        return 2
    if not 0 < args.timeout <= MAX_TIMEOUT:
        print(f"error: --timeout: more than 0 and at most {MAX_TIMEOUT:g}", file=sys.stderr)
        return 2
    if os.geteuid() != 0:
        print("error: run as root: the class hub makes a Unix user per pupil", file=sys.stderr)
        return 2
    try:
        for line in run(args.pupils, args.timeout):
            print(line, flush=True)
    except (RuntimeError, AssertionError, OSError) as e:
        print(f"error: {str(e).splitlines()[0]}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
