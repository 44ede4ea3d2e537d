"""`loo-lessons simulate` and `loo-lessons play`: subcommands added by `register(subparsers)`.

loo-lessons simulate --hands N --players P --seed S [--rules PRESET] [--option K=V ...]
                     [--bots B[,B...]] [--workers W] [--json | --csv]
loo-lessons play --seed S --players N [--rules PRESET] [--option K=V ...] [--seat K]
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from loo_lessons.engine.errors import ScenarioError
from loo_lessons.engine.options import OPTION_SPECS, RuleOptions, options_from


def _option_pair(text: str) -> tuple[str, str | bool]:
    key, sep, value = text.partition("=")
    key = key.strip()
    if not sep or key not in OPTION_SPECS:
        raise argparse.ArgumentTypeError(
            f"expected KEY=VALUE with KEY one of: {', '.join(OPTION_SPECS)}"
        )
    v = value.strip()
    if OPTION_SPECS[key].kind is bool:
        if v.lower() not in ("true", "false"):
            raise argparse.ArgumentTypeError(f"{key} takes true or false, not {v!r}")
        return key, v.lower() == "true"
    return key, v


def _options(args: argparse.Namespace) -> RuleOptions:
    changes = dict(args.option or [])
    return options_from({"preset": args.rules, **changes})


def _positive(text: str) -> int:
    n = int(text)
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {n}")
    return n


def _cmd_simulate(args: argparse.Namespace) -> int:
    from loo_lessons.sim.montecarlo import simulate

    bots = [b.strip() for b in args.bots.split(",")] if args.bots else None
    res = simulate(args.hands, args.players, args.seed, _options(args), bots, workers=args.workers)
    tables = res.summary()
    if args.json:
        out: dict[str, Any] = {
            "hands": res.hands,
            "players": res.players,
            "seed": res.seed,
            "rules": res.options.to_dict(),
            "bots": list(res.bots),
            "tables": {
                name: json.loads(df.reset_index().to_json(orient="records"))
                for name, df in tables.items()
            },
        }
        print(json.dumps(out, indent=2))
        return 0
    if args.csv:
        for name, df in tables.items():
            print(f"# {name}")
            print(df.to_csv(), end="")
            print()
        return 0
    print(
        f"{res.hands} hands, {res.players} players, seed {res.seed}, "
        f"bots {', '.join(dict.fromkeys(res.bots))}, {res.seconds:.1f} s"
    )
    titles = {
        "overview": "Overview (rates per hand; loo rate among those who played)",
        "by_trumps": "Hands played, by trumps held: took a trick / looed",
        "by_honours": "Hands played, by ace / king of trumps held",
        "by_position": "Hands played, by position (1 = elder hand)",
        "expected_counters": "Mean counters (won - loos) of each declaration, by position",
        "value_of_miss": "Standing vs taking the miss, by the hand dealt (value = miss - stand)",
    }
    for name, df in tables.items():
        print()
        print(f"== {titles.get(name, name)} ==")
        print(df.to_string(float_format=lambda x: f"{x:.3f}"))
    return 0


def _cmd_play(args: argparse.Namespace) -> int:
    from loo_lessons.views.terminal import play_terminal

    if not 0 <= args.seat < args.players:
        raise ScenarioError("seat", f"seat {args.seat} does not exist: 0 to {args.players - 1}")
    return play_terminal(
        args.seed,
        args.players,
        _options(args),
        args.seat,
        sys.stdin,
        sys.stdout,
        dealer=args.dealer,
    )


def register(subparsers: Any) -> None:
    """Add `simulate` and `play` to an argparse subparsers object (from add_subparsers())."""
    s = subparsers.add_parser(
        "simulate", help="play many seeded hands with bots and print summary tables"
    )
    s.add_argument("--hands", type=_positive, default=10_000)
    s.add_argument("--players", type=int, default=5)
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--rules", default="hoffmann", help="preset (hoffmann, peel)")
    s.add_argument(
        "--option",
        type=_option_pair,
        action="append",
        metavar="KEY=VALUE",
        help="override one rule option (repeatable)",
    )
    s.add_argument(
        "--bots",
        help="one bot for all seats, or one per seat, comma-separated "
        "(random-legal, cautious, bold, sensible)",
    )
    s.add_argument("--workers", type=_positive, default=1, help="processes (default 1)")
    fmt = s.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help="the tables as JSON")
    fmt.add_argument("--csv", action="store_true", help="the tables as CSV, one after another")
    s.set_defaults(func=_cmd_simulate)

    p = subparsers.add_parser("play", help="play one deal at the keyboard against bots")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--players", type=int, default=5)
    p.add_argument("--rules", default="hoffmann", help="preset (hoffmann, peel)")
    p.add_argument(
        "--option",
        type=_option_pair,
        action="append",
        metavar="KEY=VALUE",
        help="override one rule option (repeatable)",
    )
    p.add_argument("--seat", type=int, default=1, help="your seat (default 1, the elder hand)")
    p.add_argument("--dealer", type=int, default=0)
    p.set_defaults(func=_cmd_play)
