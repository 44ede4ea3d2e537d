"""`loo-lessons`: explain scenarios, list rules, show deals, run the benchmark."""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from collections.abc import Sequence
from typing import NoReturn

from loo_lessons.cli import args as A
from loo_lessons.cli.clean import for_terminal, one_line
from loo_lessons.engine.errors import LooError

# the exit codes live with the arguments (cli/args.py), so a command module needs no import of
# this one (which imports the commands: no circle)
EXIT_INTERRUPTED = A.EXIT_INTERRUPTED
EXIT_REFUSED = A.EXIT_REFUSED
#: Packages of the `lessons` extra (the base install needs PyYAML only).
EXTRAS = ("pandas", "numpy", "matplotlib", "ipywidgets", "anywidget", "traitlets", "IPython")


def _cmd_explain(args: argparse.Namespace) -> int:
    from loo_lessons.explain import explain_json, explain_text
    from loo_lessons.scenario import load_file

    sc = load_file(args.file)
    if args.json:
        print(for_terminal(json.dumps(explain_json(sc), indent=2, ensure_ascii=False)))
    else:
        print(for_terminal(explain_text(sc)), end="")
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

    A.within_table("--dealer", args.dealer, args.players)
    opts = preset(args.rules)
    d = deal(
        random.Random(args.seed),
        args.players,
        args.dealer,
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

    if args.browser or args.browser_only:
        from pathlib import Path

        from loo_lessons.cli.bench_browser import check_site

        check_site(Path(args.site))  # before the minutes of CPython figures, not after
    if not args.browser_only:
        run(seconds=args.seconds, simulation=not args.no_simulation, million=args.million)
    if args.browser or args.browser_only:
        from pathlib import Path

        from loo_lessons.cli.bench_browser import run as run_browser

        run_browser(Path(args.site))
    return 0


class UsageError(Exception):
    """A command line argparse refused (its message, without the usage text)."""


class Parser(argparse.ArgumentParser):
    """argparse, but a refusal raises UsageError (main prints it as one line) instead of
    printing the usage and exiting; subcommand parsers are of this class too."""

    def error(self, message: str) -> NoReturn:
        # argparse's sentences, turned FIELD first like every other refusal
        """Raise argparse's refusal as a `UsageError`, the field first ("FILE: required") like
        every other refusal."""
        for said, problem in (
            ("the following arguments are required: ", "required"),
            ("unrecognized arguments: ", "not an argument of this command"),
        ):
            if message.startswith(said):
                names = message.removeprefix(said)
                names = names if len(names) <= 80 else names[:80] + "…"
                raise UsageError(f"{names}: {problem}")
        raise UsageError(message.removeprefix("argument "))


def parser() -> argparse.ArgumentParser:
    """The `loo-lessons` argument parser with every subcommand; the command-line guide is generated
    from it."""
    from loo_lessons import __version__

    p = Parser(prog="loo-lessons", description="Three-card Loo: rules and lessons.")
    p.add_argument(
        "--version",
        action="version",
        version=f"loo-lessons {__version__}",
        help="print the version and stop",
    )
    sub = p.add_subparsers(dest="cmd", required=True, metavar="COMMAND")
    e = sub.add_parser("explain", help="answer a scenario file: who acts, what is legal, and why")
    e.add_argument(
        "file",
        type=A.scenario_file,
        help="a scenario file, or a shipped scenario's name (loo-lessons scenarios lists them)",
    )
    e.add_argument("--json", action="store_true", help="the answer as JSON")
    e.set_defaults(func=_cmd_explain)
    r = sub.add_parser("rules", help="list the presets and rule options with their sources")
    r.add_argument("--json", action="store_true", help="the rules and options as JSON")
    r.set_defaults(func=_cmd_rules)
    d = sub.add_parser("deal", help="show a reproducible deal")
    d.add_argument("--players", type=A.players, default=5, help="2 to 17 (16 with a miss)")
    d.add_argument("--seed", type=A.seed, default=0, help=f"0 to {A.MAX_SEED} (default 0)")
    d.add_argument("--dealer", type=A.seat, default=0, help="the dealer's seat, 0 to players-1")
    d.add_argument("--rules", type=A.preset_name, default="hoffmann", help="hoffmann or peel")
    d.add_argument(
        "--must", action="store_true", help="deal a must: no miss, and nobody may pass"
    )
    d.add_argument("--json", action="store_true", help="the deal as JSON")
    d.set_defaults(func=_cmd_deal)
    from loo_lessons.cli.quiz import register as register_quiz

    register_quiz(sub)
    b = sub.add_parser("bench", help="measure speed and print figures")
    b.add_argument(
        "--seconds",
        type=A.seconds,
        default=1.0,
        help=f"time for each figure, more than 0 and at most {A.MAX_SECONDS:g}",
    )
    b.add_argument("--no-simulation", action="store_true", help="skip the 100,000-hand run")
    b.add_argument(
        "--million",
        action="store_true",
        help="also run `simulate --hands 1000000` as the command does (its default workers: "
        "the cores this process may use) and print its seconds (goal <= 30 s with two workers, "
        "also as floors a hand), the same run on `--dask local:N` as a multiple of it (goal <= "
        "1.1) and its peak memory beside a 100,000-hand run's (constant memory); about two "
        "minutes on two cores",
    )
    b.add_argument(
        "--browser", action="store_true", help="also measure the book's engine in Chromium"
    )
    b.add_argument("--browser-only", action="store_true", help=argparse.SUPPRESS)
    b.add_argument("--site", default="book/_build/html", help="the built book (make book)")
    b.set_defaults(func=_cmd_bench)
    from loo_lessons.cli.sim import register as register_sim

    register_sim(sub)
    from loo_lessons.cli.coach import register as register_coach

    register_coach(sub)
    from loo_lessons.cli.classroom import register as register_class

    register_class(sub)
    from loo_lessons.cli.doors import register as register_doors

    register_doors(sub)
    from loo_lessons.cli.practice import register as register_practice

    register_practice(sub)
    return p


def _refuse(message: str) -> int:
    print(f"error: {one_line(message)}", file=sys.stderr)
    return EXIT_REFUSED


def _quiet_stdout() -> None:
    """After a broken pipe or a full disk, point stdout at /dev/null so that the interpreter's
    final flush has nowhere to fail (and prints no second message)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # stdout is not a file (a test's capture)
        pass


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; whatever goes wrong ends as one line `error: ...` on stderr."""
    try:
        args = parser().parse_args(argv)
        code: int = args.func(args)
        sys.stdout.flush()  # a full disk shows here, not in the interpreter's exit
    except UsageError as e:
        return _refuse(str(e))
    except argparse.ArgumentTypeError as e:  # a check across arguments (A.within_table)
        return _refuse(str(e).removeprefix("argument "))
    except SystemExit as e:  # --help, --version
        return e.code if isinstance(e.code, int) else 0
    except LooError as e:
        return _refuse(str(e))
    except BrokenPipeError:
        _quiet_stdout()
        return _refuse("output: the reader closed the pipe before the output ended")
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except OSError as e:
        if e.filename is None:  # writing stdout failed (a full disk)
            _quiet_stdout()
            return _refuse(f"output: {e.strerror or e}")
        return _refuse(f"{e.filename}: {e.strerror or e}")
    except ModuleNotFoundError as e:
        top = (e.name or "").split(".")[0]
        if top in EXTRAS:
            return _refuse(f"{top}: not installed; pip install 'loo-lessons[lessons]'")
        return _refuse(f"internal: {e} (please report this)")
    except (MemoryError, RecursionError) as e:
        return _refuse(f"input: too large to handle ({type(e).__name__})")
    except Exception as e:  # the last guard: never a traceback
        return _refuse(f"internal: {type(e).__name__}: {e} (please report this)")
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
