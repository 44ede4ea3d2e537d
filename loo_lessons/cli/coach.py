"""`loo-lessons coach FILE`: the coach's estimates for the seat to act in a scenario file.

loo-lessons coach FILE|NAME [--json] [--seat N] [--rollouts N] [--seed N] [--bots B[,B...]]

Strategy, not law: the answer weighs the legal moves by playing them out (`sim.coach`); what
is legal and why is `loo-lessons explain FILE`. A bad file or value is refused in one line
naming the field, exit 2, like every command.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from loo_lessons.cli import args as A
from loo_lessons.cli.clean import for_terminal


def _cmd_coach(args: argparse.Namespace) -> int:
    from loo_lessons.scenario import load_file
    from loo_lessons.sim.coach import coach

    sc = load_file(args.file)
    if args.seat is not None:
        A.within_table("--seat", args.seat, sc.setup.players)
    advice = coach(sc.hand, args.seat, rollouts=args.rollouts, seed=args.seed, bots=args.bots)
    if args.json:
        print(for_terminal(json.dumps(advice.as_json(), indent=2, ensure_ascii=False)))
    else:
        print(for_terminal(advice.text()), end="")
    return 0


def register(subparsers: Any) -> None:
    """Add `coach` to an argparse subparsers object (from add_subparsers())."""
    c = subparsers.add_parser(
        "coach", help="estimate each legal move of the seat to act (strategy, not law)"
    )
    c.add_argument(
        "file",
        type=A.scenario_file,
        help="a scenario file, or a shipped scenario's name (loo-lessons scenarios lists them)",
    )
    c.add_argument("--json", action="store_true", help="the estimates as JSON")
    c.add_argument("--seat", type=A.seat, help="the seat to advise (default: the seat to act)")
    c.add_argument(
        "--rollouts",
        type=A.rollouts,
        default=1000,
        help=f"deals of the unseen cards, each move played out in each: 1 to {A.MAX_ROLLOUTS:,} "
        "(default 1,000)",
    )
    c.add_argument("--seed", type=A.seed, default=0, help=f"0 to {A.MAX_SEED} (default 0)")
    c.add_argument(
        "--bots",
        type=A.bot_names,
        help="who plays the deals out: one bot for all seats, or one per seat (default sensible)",
    )
    c.set_defaults(func=_cmd_coach)
