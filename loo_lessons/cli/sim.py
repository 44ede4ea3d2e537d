"""`loo-lessons simulate` and `loo-lessons play`: subcommands added by `register(subparsers)`.

loo-lessons simulate --hands N --players P --seed S [--rules PRESET] [--option K=V ...]
                     [--bots B[,B...]] [--workers W | --dask ADDRESS|local:N] [--quiet]
                     [--json | --csv]
loo-lessons play --seed S --players N [--rules PRESET] [--option K=V ...] [--seat K]

Every value is range-checked by the types in `cli.args`. `simulate` keeps only running sums
(constant memory), shows its progress on stderr after two seconds (`--quiet`: none), and on
Ctrl-C prints the tables of the hands finished so far, marked PARTIAL, and exits 130.
`--workers` defaults to the cores this process may use; `--dask` plays the same chunks on a Dask
cluster (the `cluster` extra), so the tables are the same whatever runs them. A worker that
dies ends the run with one line, exit 2, never a hang (`sim.workers`).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import TYPE_CHECKING, Any, TextIO

from loo_lessons.cli import args as A
from loo_lessons.engine.options import RuleOptions, options_from

if TYPE_CHECKING:
    from loo_lessons.sim.montecarlo import SimResult


def _options(args: argparse.Namespace) -> RuleOptions:
    changes = {k: v for k, v in args.option or [] if k not in A.TABLE_KEYS}
    return options_from({"preset": args.rules, **changes})


def _loo_cap(args: argparse.Namespace, opts: RuleOptions) -> int | None:
    """`--option loo_cap=N`: the cap of unlimited loo (R49), given exactly when
    `loo_amount=pool_capped` is played, as a scenario gives it (scenario-format.md)."""
    from loo_lessons.engine.options import LooAmount

    cap = dict(args.option or []).get("loo_cap")
    capped = opts.loo_amount is LooAmount.POOL_CAPPED
    if capped and cap is None:
        raise argparse.ArgumentTypeError(
            "argument --option: loo_amount=pool_capped needs its cap (R49): add --option loo_cap=N"
        )
    if cap is not None and not capped:
        raise argparse.ArgumentTypeError("argument --option: loo_cap=N is the cap of loo_amount=pool_capped only")
    return int(cap) if cap is not None else None


class Progress:
    """Progress of a long run on `stream`: nothing for the first `delay` seconds, then a bar
    redrawn in place on a terminal, or a plain line every `every` seconds elsewhere."""

    def __init__(self, stream: TextIO, *, delay: float = 2.0, every: float = 5.0) -> None:
        self.stream = stream
        self.delay = delay
        self.every = every
        self.tty = stream.isatty()
        self.t0 = time.monotonic()
        self.last = -1e9
        self.shown = False

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        spent = now - self.t0
        gap = min(0.2, self.every) if self.tty else self.every
        if spent < self.delay or (now - self.last < gap and done < total):
            return
        self.last = now
        share = done / total if total else 1.0
        left = f", about {spent / share - spent:.0f} s left" if 0 < share < 1 else ""
        words = f"{done:,} of {total:,} hands ({share:.0%}), {spent:.0f} s{left}"
        if self.tty:
            bar = "#" * int(30 * share)
            self.stream.write(f"\r[{bar:<30}] {words}\x1b[K")
        else:
            self.stream.write(f"simulate: {words}\n")
        self.stream.flush()
        self.shown = True

    def close(self) -> None:
        """End the progress line (a terminal's line left clean); nothing when nothing was shown."""
        if self.tty and self.shown:
            self.stream.write("\n")
            self.stream.flush()


_TITLES = {
    "overview": "Overview (rates per hand; loo rate among those who played)",
    "by_trumps": "Hands played, by trumps held: took a trick / looed",
    "by_honours": "Hands played, by ace / king of trumps held",
    "by_position": "Hands played, by position (1 = elder hand)",
    "expected_counters": "Mean counters (won - loos) of each declaration, by position",
    "value_of_miss": "Standing vs taking the miss, by the hand dealt (value = miss - stand)",
    "strength": "How each bot fares: mean balance a seat and hand, with its 95 % interval",
}


def _partial_note(res: SimResult) -> str:
    return (
        f"PARTIAL: interrupted after {res.hands:,} of {res.requested:,} hands; "
        f"these tables cover hands 0 to {res.hands - 1:,} only"
    )


def _print_result(res: SimResult, args: argparse.Namespace) -> None:
    tables = res.summary()
    if args.json:
        out: dict[str, Any] = {
            "hands": res.hands,
            "hands_requested": res.requested,
            "partial": res.partial,
            "players": res.players,
            "seed": res.seed,
            "rules": res.options.to_dict(),
            "bots": list(res.bots),
            "tables": {name: t.records() for name, t in tables.items()},
        }
        print(json.dumps(out, indent=2))
        return
    if args.csv:
        if res.partial:
            print(f"# {_partial_note(res)}")
        for name, t in tables.items():
            print(f"# {name}")
            print(t.csv())
        return
    if res.partial:
        print(_partial_note(res))
    print(
        f"{res.hands} hands, {res.players} players, seed {res.seed}, "
        f"bots {', '.join(dict.fromkeys(res.bots))}, {res.seconds:.1f} s"
    )
    for name, t in tables.items():
        print()
        print(f"== {_TITLES.get(name, name)} ==")
        print(t.text())


def _cmd_simulate(args: argparse.Namespace) -> int:
    from loo_lessons.sim.montecarlo import Interrupted, simulate
    from loo_lessons.sim.workers import available_cores, dask_module

    if any(k in A.TABLE_KEYS for k, _ in args.option or []):  # simulate's cap is the decided one
        raise argparse.ArgumentTypeError(
            "argument --option: loo_cap is play's; simulate plays pool_capped at four stakes (DEFAULT_LOO_CAP_STAKES)"
        )
    if args.dask is not None:
        dask_module()  # not installed: one line now, before any work
    workers = available_cores() if args.workers is None else args.workers
    progress = None if args.quiet else Progress(sys.stderr)
    try:
        res = simulate(
            args.hands,
            args.players,
            args.seed,
            _options(args),
            args.bots,
            workers=workers,
            progress=progress,
            dask=args.dask,
        )
    except Interrupted as stop:
        if progress is not None:
            progress.close()
        res = stop.partial
        _print_result(res, args)
        print(
            f"interrupted: the tables printed are partial ({res.hands:,} of "
            f"{res.requested:,} hands)",
            file=sys.stderr,
        )
        return A.EXIT_INTERRUPTED
    if progress is not None:
        progress.close()
    _print_result(res, args)
    return 0


def _cmd_play(args: argparse.Namespace) -> int:
    from loo_lessons.views.terminal import play_terminal

    if args.json and args.resume is None:
        raise argparse.ArgumentTypeError("argument --json: only with --resume FILE (the saved evening's ledger)")
    if args.resume is not None or args.deals is not None or args.evening:
        return _play_evening(args)
    A.within_table("--seat", args.seat, args.players)
    A.within_table("--dealer", args.dealer, args.players)
    opts = _options(args)
    return play_terminal(
        args.seed,
        args.players,
        opts,
        args.seat,
        sys.stdin,
        sys.stdout,
        dealer=args.dealer,
        loo_cap=_loo_cap(args, opts),
    )


def _play_evening(args: argparse.Namespace) -> int:
    """An evening at the keyboard: `--deals N` (or `--evening`: until q), or `--resume FILE`."""
    from loo_lessons.sim.evening import Evening, load, setup_of
    from loo_lessons.views.evening import play_evening

    if args.resume is not None:
        evening = load(args.resume)
        if args.json:  # the ledger, as the contract gives it (scenario-format.md)
            print(json.dumps(evening.ledger_json(), ensure_ascii=False))
            return 0
    else:
        A.within_table("--seat", args.seat, args.players)
        A.within_table("--dealer", args.dealer, args.players)
        opts = _options(args)
        setup = setup_of(args.seed, args.players, opts, args.seat, dealer=args.dealer, loo_cap=_loo_cap(args, opts))
        evening = Evening(setup)
    return play_evening(evening, args.deals, sys.stdin, sys.stdout)


def _dask_address(text: str) -> str:
    from loo_lessons.engine.errors import LooError
    from loo_lessons.sim.workers import check_address

    try:
        return check_address(text)
    except LooError as e:
        raise argparse.ArgumentTypeError(str(e).removeprefix("--dask: ")) from None


def _rule_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--seed", type=A.seed, default=0, help=f"0 to {A.MAX_SEED}")
    p.add_argument(
        "--players", type=A.players, default=5, help="2 to 16 (a miss is dealt), default 5"
    )
    p.add_argument("--rules", type=A.preset_name, default="hoffmann", help="hoffmann or peel")
    p.add_argument(
        "--option",
        type=A.option_pair,
        action="append",
        metavar="KEY=VALUE",
        help="override one rule option (repeatable)",
    )


def register(subparsers: Any) -> None:
    """Add `simulate` and `play` to an argparse subparsers object (from add_subparsers())."""
    s = subparsers.add_parser(
        "simulate", help="play many seeded hands with bots and print summary tables"
    )
    s.add_argument(
        "--hands", type=A.hands, default=10_000, help=f"1 to {A.MAX_HANDS:,} (default 10,000)"
    )
    _rule_arguments(s)
    s.add_argument(
        "--bots",
        type=A.bot_names,
        help="one bot for all seats, or one per seat, comma-separated "
        "(random-legal, cautious, bold, sensible)",
    )
    run = s.add_mutually_exclusive_group()
    run.add_argument(
        "--workers",
        type=A.workers,
        help=f"processes, 1 to {A.MAX_WORKERS} (default: the cores this process may use); "
        "the numbers do not depend on it",
    )
    run.add_argument(
        "--dask",
        type=_dask_address,
        metavar="ADDRESS",
        help="play the chunks on a Dask cluster: a scheduler's address (tcp://host:port), or "
        "local:N to start a local cluster of N worker processes (pip install "
        "'loo-lessons[cluster]'); the numbers do not depend on it",
    )
    s.add_argument("--quiet", action="store_true", help="no progress on stderr")
    fmt = s.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help="the tables as JSON")
    fmt.add_argument("--csv", action="store_true", help="the tables as CSV, one after another")
    s.set_defaults(func=_cmd_simulate)

    p = subparsers.add_parser("play", help="play one deal at the keyboard against bots")
    _rule_arguments(p)
    p.add_argument("--seat", type=A.seat, default=1, help="your seat (default 1, the elder hand)")
    p.add_argument("--dealer", type=A.seat, default=0, help="the dealer's seat (default 0)")
    p.add_argument(
        "--deals",
        type=A.deals,
        help=f"an evening: deal after deal at one table, N deals (1 to {A.MAX_DEALS})",
    )
    p.add_argument("--evening", action="store_true", help="an evening until you type q")
    p.add_argument("--resume", metavar="FILE", help="go on with a saved evening (s FILE saves one)")
    p.add_argument(
        "--json",
        action="store_true",
        help="with --resume: print the saved evening's ledger as JSON instead of playing on",
    )
    p.set_defaults(func=_cmd_play)
