"""`loo-lessons`: explain scenarios, list rules, show deals, run the benchmark."""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Sequence

from loo_lessons.engine.errors import LooError, ScenarioError


def _cmd_explain(args: argparse.Namespace) -> int:
    from loo_lessons.explain import explain_json, explain_text
    from loo_lessons.scenario import load_file

    sc = load_file(args.file)
    if args.json:
        print(json.dumps(explain_json(sc), indent=2, ensure_ascii=False))
    else:
        print(explain_text(sc), end="")
    return 0


def _cmd_rules(args: argparse.Namespace) -> int:
    from loo_lessons.explain.catalogue import rules_json, rules_text

    if args.json:
        print(json.dumps(rules_json(), indent=2, ensure_ascii=False))
    else:
        print(rules_text(), end="")
    return 0


def _cmd_deal(args: argparse.Namespace) -> int:
    from loo_lessons.engine.deal import deal
    from loo_lessons.engine.options import preset

    opts = preset(args.rules)
    d = deal(
        random.Random(args.seed),
        args.players,
        args.dealer % args.players,
        must=args.must,
        position=opts.miss_deal_position,
    )
    if args.json:
        print(
            json.dumps(
                {
                    "seed": args.seed,
                    "players": args.players,
                    "dealer": args.dealer,
                    "rules": args.rules,
                    "hands": {str(i): [c.code for c in h] for i, h in enumerate(d.hands)},
                    "miss": [c.code for c in d.miss] if d.miss else None,
                    "turn_up": d.turn_up.code,
                    "trumps": d.trumps.value,
                    "stock_remaining": len(d.stock),
                },
                indent=2,
            )
        )
        return 0
    print(
        f"Seed {args.seed}: {args.players} players, dealer seat {args.dealer}, rules {args.rules}"
    )
    for i, h in enumerate(d.hands):
        tag = (
            " (dealer)"
            if i == args.dealer
            else (" (elder hand)" if i == (args.dealer + 1) % args.players else "")
        )
        print(f"  seat {i}{tag}: {' '.join(c.code for c in h)}")
    if d.miss:
        print(f"  miss: {' '.join(c.code for c in d.miss)}")
    print(f"  turn-up: {d.turn_up.code} — trumps are {d.trumps.plural}")
    print(f"  {len(d.stock)} cards left in the stock")
    return 0


def _cmd_bench(args: argparse.Namespace) -> int:
    from loo_lessons.cli.bench import run

    if not args.browser_only:
        run(seconds=args.seconds, simulation=not args.no_simulation)
    if args.browser or args.browser_only:
        from pathlib import Path

        from loo_lessons.cli.bench_browser import run as run_browser

        run_browser(Path(args.site))
    return 0


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="loo-lessons", description="Three-card Loo: rules and lessons."
    )
    sub = p.add_subparsers(dest="cmd", required=True)
    e = sub.add_parser("explain", help="answer a scenario file: who acts, what is legal, and why")
    e.add_argument("file")
    e.add_argument("--json", action="store_true")
    e.set_defaults(func=_cmd_explain)
    r = sub.add_parser("rules", help="list the presets and rule options with their sources")
    r.add_argument("--json", action="store_true")
    r.set_defaults(func=_cmd_rules)
    d = sub.add_parser("deal", help="show a reproducible deal")
    d.add_argument("--players", type=int, default=5)
    d.add_argument("--seed", type=int, default=0)
    d.add_argument("--dealer", type=int, default=0)
    d.add_argument("--rules", default="hoffmann")
    d.add_argument("--must", action="store_true")
    d.add_argument("--json", action="store_true")
    d.set_defaults(func=_cmd_deal)
    from loo_lessons.cli.quiz import register as register_quiz

    register_quiz(sub)
    b = sub.add_parser("bench", help="measure speed and print figures")
    b.add_argument("--seconds", type=float, default=1.0)
    b.add_argument("--no-simulation", action="store_true", help="skip the 100,000-hand run")
    b.add_argument(
        "--browser", action="store_true", help="also measure the book's engine in Chromium"
    )
    b.add_argument("--browser-only", action="store_true", help=argparse.SUPPRESS)
    b.add_argument("--site", default="book/_build/html", help="the built book (make book)")
    b.set_defaults(func=_cmd_bench)
    from loo_lessons.cli.sim import register as register_sim

    register_sim(sub)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        code: int = args.func(args)
    except ScenarioError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except LooError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
