"""`loo-lessons bench`: speed figures, printed (tests never time things)."""

from __future__ import annotations

import random
import subprocess
import sys
import time

from .deal import deal
from .game import Hand, Setup, Transcript
from .options import preset
from .settle import Stakes


def _random_hand(rng: random.Random, setup: Setup) -> Hand:
    hand = Hand.dealt(setup, rng)
    while hand.to_act is not None:
        legal = hand.legal_actions()
        hand.apply_unchecked(legal[rng.randrange(len(legal))])
    return hand


def run(seconds: float = 1.0) -> dict[str, float]:
    opts = preset("hoffmann")
    setup = Setup(5, 0, opts, Stakes.make(players=5))
    rng = random.Random(1)
    figures: dict[str, float] = {}

    # side by side: a bare shuffle-and-deal of the same table, and a full random hand
    bare_n = full_n = 0
    bare_t = full_t = 0.0
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        t0 = time.perf_counter()
        for _ in range(200):
            deal(rng, 5, 0, position=opts.miss_deal_position)
        t1 = time.perf_counter()
        for _ in range(200):
            _random_hand(rng, setup)
        t2 = time.perf_counter()
        bare_t += t1 - t0
        full_t += t2 - t1
        bare_n += 200
        full_n += 200
    per_bare = bare_t / bare_n
    per_full = full_t / full_n
    figures["hands_per_second"] = 1 / per_full
    figures["ratio"] = per_full / per_bare
    print(
        f"full random hands per second (5 players, declarations, three tricks, settlement): "
        f"{figures['hands_per_second']:.0f}"
    )
    print(f"bare shuffle-and-deal per second: {1 / per_bare:.0f}")
    print(f"ratio: {figures['ratio']:.2f}   (goal <= 10)")

    # legal_actions per call, over positions met in random hands
    hands: list[Transcript] = []
    while len(hands) < 2000:
        h = Hand.dealt(setup, rng)
        while h.to_act is not None:
            hands.append(h.transcript())
            la = h.legal_actions()
            h.apply_unchecked(la[rng.randrange(len(la))])
    positions = [t.replay() for t in hands[:2000]]
    t0 = time.perf_counter()
    reps = 0
    while time.perf_counter() - t0 < seconds / 2:
        for p in positions:
            p.legal_actions()
        reps += len(positions)
    per_call = (time.perf_counter() - t0) / reps
    figures["legal_actions_us"] = per_call * 1e6
    print(f"legal_actions per call: {per_call * 1e6:.2f} µs")

    out = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "import loo_lessons.game, loo_lessons.scenario"],
        capture_output=True,
        text=True,
        check=True,
    )
    best = 0
    for line in out.stderr.splitlines():
        parts = line.split("|")
        if len(parts) == 3 and parts[2].strip() in (
            "loo_lessons",
            "loo_lessons.game",
            "loo_lessons.scenario",
        ):
            best = max(best, int(parts[1]))
    t0 = time.perf_counter()
    subprocess.run(
        [sys.executable, "-c", "import loo_lessons.game, loo_lessons.scenario"], check=True
    )
    wall = time.perf_counter() - t0
    cold = subprocess.run([sys.executable, "-c", "pass"], check=True)
    del cold
    figures["import_ms"] = best / 1000
    print(
        f"import loo_lessons core: {best / 1000:.1f} ms cumulative (goal < 150 ms; "
        f"interpreter start + import: {wall * 1000:.0f} ms)"
    )
    heavy = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, loo_lessons.game, loo_lessons.scenario, loo_lessons.cli;"
            "print(','.join(m for m in ('pandas','ipywidgets','anywidget') if m in sys.modules))",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    print(f"heavy modules pulled in by the core: {heavy or 'none'}")
    return figures
