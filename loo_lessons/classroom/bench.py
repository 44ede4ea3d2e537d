"""A class in a benchmark: ``loo-lessons class bench`` (or ``python -m loo_lessons.classroom.bench``).

Starts the class hub (deploy/jupyterhub/jupyterhub_config.py) on 127.0.0.1 with a class list of
N pupils (25 by default, at most 40) and a teacher. Each pupil, as in a lesson: logs in through the
login form, asks for their server, opens a lesson (a kernel in their own server, as the notebook
does) and answers 10 quiz questions from it (`quiz.post.send`, as the quiz widget posts them). The
pupils arrive within --arrive-over seconds (a class logging in; 0: all at the same instant), at
seeded random times. Prints the spawn time (request to running: median, p95, worst), each answer's
latency from the pupil's kernel to the stored row (p95), the errors, and whether the teacher's CSV
holds every answer. Bounded: at most `MAX_PUPILS` pupils, everything stopped after --timeout
seconds (600 by default); afterwards the hub and every process it started are stopped by their
pids and the pupils' Unix users, homes and the temporary venv are removed. Run as root (the hub
makes users).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import secrets
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from loo_lessons.quiz.classroom import questions_of

if TYPE_CHECKING:  # drive needs requests and websocket-client: imported only when a bench runs
    from loo_lessons.classroom.drive import Hub

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


ANSWERS = 10
#: the class code the pupils answer (ten lead questions, seed 7)
CODE = f"lead-{ANSWERS}-7"


def percentile(values: Sequence[float], p: float) -> float:
    """The `p`-th percentile (0-100) of `values`, by the nearest rank (no interpolation)."""
    ordered = sorted(values)
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return ordered[rank - 1]


@dataclass
class Pupil:
    """What one pupil's lesson measured: `spawn` seconds, each answer's `latencies`, `errors`."""

    name: str
    spawn: float | None = None
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def _lesson(hub: Hub, name: str, password: str, at: float, t0: float, deadline: float) -> Pupil:
    """One pupil: arrive at `at` seconds after `t0`, log in, spawn, open a kernel, answer."""
    from loo_lessons.classroom.drive import Kernel, log_in, spawn, token_for

    me = Pupil(name)
    time.sleep(max(0.0, t0 + at - time.monotonic()))
    try:
        token = token_for(hub, log_in(hub, name, password), name)
        asked = time.monotonic()
        spawn(hub, name, token, max(1.0, deadline - asked))
        me.spawn = time.monotonic() - asked
        records = [
            {
                "class_code": CODE,
                "question_id": q.id,
                "answer": list(q.answer),
                "seconds": 5,
                "attempt": 1,
            }
            for q in questions_of(CODE)
        ]
        code = (
            "import json, time\nfrom loo_lessons.quiz import post\nout = []\n"
            f"for r in json.loads({json.dumps(records)!r}):\n"
            "    t = time.monotonic(); s = post.send(r); out.append([s, time.monotonic() - t])\n"
            "print(json.dumps(out))"
        )
        with Kernel(hub, name, token) as k:
            for status, seconds in json.loads(k.text(code)):
                if status == 201:
                    me.latencies.append(seconds)
                else:
                    me.errors.append(f"{name}: an answer was refused ({status})")
    except Exception as e:  # a pupil's failure is a figure, not a crash
        me.errors.append(f"{name}: {str(e).splitlines()[0][:160]}")
    return me


@dataclass
class BenchClass:
    """The class a benchmark starts: its hub, the pupils' names, the teacher's and each one's
    password."""

    hub: Hub
    names: list[str]
    teacher: str
    passwords: dict[str, str]


@contextmanager
def bench_class(count: int, prefix: str, report: list[str]) -> Iterator[BenchClass]:
    """Make `count` pupils (`prefix` and a random tag) and a teacher as Unix users, start the
    hub on 127.0.0.1 for them, and on leaving stop it and remove the users and folders. When
    the report does not end well ("errors: 0"), the hub's log (its own lines and each pupil
    server's) is kept and its path reported; processes that outlived the hub are reported."""
    from loo_lessons.classroom.drive import class_hub

    tag = secrets.token_hex(2)
    names = [f"{prefix}{tag}-{i:02d}" for i in range(1, count + 1)]
    teacher = f"teach{tag}"
    passwords = {n: secrets.token_urlsafe(12) for n in [*names, teacher]}

    def keep_log(hub: Hub) -> None:
        if "errors: 0" not in report and hub.log.exists():
            # an admin needs the hub's own words (and each pupil server's) to find why
            kept = Path(tempfile.gettempdir()) / f"loo-hub-bench-{tag}.log"
            shutil.copyfile(hub.log, kept)
            report.append(f"the hub's log (its own lines and each pupil server's): {kept}")
        if hub.survivors:
            report.append(f"processes that survived the hub: {hub.survivors}")

    with class_hub(passwords, {"LOO_HUB_TEACHERS": teacher}, before_removal=keep_log) as hub:
        yield BenchClass(hub, names, teacher, passwords)


def run(count: int, timeout: float, arrive_over: float = 60.0, seed: int = 1) -> list[str]:
    """The benchmark; returns the lines of its report (the last: "errors: N")."""
    import requests

    from loo_lessons.classroom.drive import descendants, log_in, token_for

    report: list[str] = []
    deadline = time.monotonic() + timeout
    with bench_class(count, "bench", report) as c:
        h, names, teacher, passwords = c.hub, c.names, c.teacher, c.passwords
        rng = random.Random(seed)
        arrivals = sorted(rng.uniform(0, arrive_over) for _ in names)
        report.append(
            f"{count} pupils arriving within {arrive_over:g} s (seed {seed}); each opens a lesson"
            f" and answers {ANSWERS} questions ({CODE})"
        )
        t0 = time.monotonic()
        with ThreadPoolExecutor(count) as pool:
            done = list(
                pool.map(
                    lambda na: _lesson(h, na[0], passwords[na[0]], na[1], t0, deadline),
                    zip(names, arrivals, strict=True),
                )
            )
        spawns = [p.spawn for p in done if p.spawn is not None]
        latencies = [t for p in done for t in p.latencies]
        errors = [e for p in done for e in p.errors]
        if spawns:
            report.append(
                f"spawn (request to running): median {statistics.median(spawns):.1f} s,"
                f" p95 {percentile(spawns, 95):.1f} s, worst {max(spawns):.1f} s ({len(spawns)} servers)"
            )
        if latencies:
            report.append(
                f"answer latency (kernel to stored): median {statistics.median(latencies) * 1000:.0f} ms,"
                f" p95 {percentile(latencies, 95) * 1000:.0f} ms ({len(latencies)} answers)"
            )
        report.append(f"memory of hub and servers: {_rss_mb(descendants(h.pids)):.0f} MB")
        teacher_token = token_for(h, log_in(h, teacher, passwords[teacher]), teacher)
        csv = requests.get(
            f"{h.url}/services/class-results/csv?code={CODE}",
            headers={"Authorization": f"token {teacher_token}"},
            timeout=60,
        )
        rows = csv.text.strip().split("\n")[1:] if csv.status_code == 200 else []
        stored = sum(int(r.split(",")[4]) for r in rows if r)
        report.append(f"on the teacher's CSV: {stored} of {count * ANSWERS} answers")
        if stored != count * ANSWERS:
            errors.append(f"the teacher's CSV holds {stored} answers, not {count * ANSWERS}")
        report.append(f"errors: {len(errors)}")
        report.extend(f"  {line}" for line in errors)
    return report


def register(sub: Any) -> None:
    """Add the options of `class bench` to its parser `sub`."""
    sub.add_argument("--pupils", type=int, default=25, help=f"1 to {MAX_PUPILS}")
    sub.add_argument(
        "--arrive-over",
        type=float,
        default=60.0,
        help="seconds within which the pupils log in (0: at once)",
    )
    sub.add_argument("--seed", type=int, default=1, help="the arrival times' seed")
    sub.add_argument(
        "--timeout", type=float, default=600.0, help=f"seconds, at most {MAX_TIMEOUT:g}"
    )
    sub.add_argument(
        "--tables",
        action="store_true",
        help="the pupils play at tables of five instead (classroom/tables/bench.py)",
    )
    sub.add_argument("--deals", type=int, default=10, help="with --tables: deals at each table")


def bench(args: argparse.Namespace) -> int:
    """`loo-lessons class bench`: checks the options, runs, prints the report; exit 1 on errors."""
    if not 1 <= args.pupils <= MAX_PUPILS:
        print(f"error: --pupils: 1 to {MAX_PUPILS}, not {args.pupils}", file=sys.stderr)
        return 2
    if not 0 < args.timeout <= MAX_TIMEOUT:
        print(f"error: --timeout: more than 0 and at most {MAX_TIMEOUT:g}", file=sys.stderr)
        return 2
    if not 0 <= args.arrive_over <= 600 or args.arrive_over != args.arrive_over:
        print("error: --arrive-over: 0 to 600 seconds", file=sys.stderr)
        return 2
    if not 0 <= args.seed < 2**32:
        print("error: --seed: 0 to 2**32 - 1", file=sys.stderr)
        return 2
    if os.geteuid() != 0:
        print("error: run as root: the class hub makes a Unix user per pupil", file=sys.stderr)
        return 2
    return print_report(lambda: run(args.pupils, args.timeout, args.arrive_over, args.seed))


def print_report(bench_run: Callable[[], list[str]]) -> int:
    """Run a benchmark and print its report: 0 when it ends with "errors: 0", 1 with errors, 2
    with one line when the class could not be started."""
    try:
        lines = bench_run()
    except (RuntimeError, AssertionError, OSError) as e:
        print(f"error: {str(e).splitlines()[0]}", file=sys.stderr)
        return 2
    for line in lines:
        print(line, flush=True)
    return 0 if "errors: 0" in lines else 1


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m loo_lessons.classroom.bench`, as `loo-lessons class bench`."""
    p = argparse.ArgumentParser(prog="python -m loo_lessons.classroom.bench", description=__doc__)
    register(p)
    return bench(p.parse_args(argv))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
