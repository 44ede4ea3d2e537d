"""`loo-lessons class add-pupils FILE NAME…`: the class hub's list of pupils and passwords;
`loo-lessons class backup DATABASE TO`: a whole copy of the results database, hub running;
`loo-lessons class bench`: a class in a benchmark; `loo-lessons class recipe`: where the hub's
recipe is (deploy/jupyterhub, installed with the package).

Each named pupil gets a new password (printed once, ``name password`` a line, to hand out);
the file keeps only its hash (`classroom.pupils`). Naming a pupil again gives them a new
password. Point the hub at the file with ``LOO_HUB_CLASS_LIST`` (deploy/README.md).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any


def _cmd_add_pupils(args: argparse.Namespace) -> int:
    from loo_lessons.classroom.pupils import ClassListError, add_pupils

    try:
        issued = add_pupils(Path(args.file), args.names)
    except ClassListError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    for name, password in issued.items():
        print(f"{name} {password}")
    return 0


def _cmd_backup(args: argparse.Namespace) -> int:
    from loo_lessons.classroom.backup import BackupError, backup

    try:
        tables = backup(Path(args.database), Path(args.to))
    except (BackupError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(f"{args.to}: a whole copy of {args.database} ({tables} tables), private (0600)")
    return 0


def _cmd_class_bench(args: argparse.Namespace) -> int:
    from loo_lessons.classroom import bench

    if args.tables:
        from loo_lessons.classroom.tables import bench as tables

        return tables.bench(args)
    return bench.bench(args)


def _cmd_recipe(args: argparse.Namespace) -> int:
    from loo_lessons.classroom.recipe import folder

    print(folder())
    return 0


def register(sub: Any) -> None:
    """Add `class` (add-pupils, backup, bench, recipe) to the `loo-lessons` parser."""
    c = sub.add_parser(
        "class", help="the class hub: its pupils (`class add-pupils`), a backup of its results"
    )
    csub = c.add_subparsers(dest="class_cmd", required=True, metavar="COMMAND")
    a = csub.add_parser(
        "add-pupils", help="add pupils (or give them new passwords); prints each password once"
    )
    a.add_argument("file", help="the class list (made if missing; mode 0600)")
    a.add_argument("names", nargs="+", help="pupils' names: lower-case letters, digits, - or _")
    a.set_defaults(func=_cmd_add_pupils)
    b = csub.add_parser(
        "backup", help="copy the class results database whole, while the hub runs (SQLite's backup)"
    )
    b.add_argument("database", help="the results database (STATE/class-results.sqlite)")
    b.add_argument("to", help="the copy to write (private, 0600)")
    b.set_defaults(func=_cmd_backup)
    from loo_lessons.classroom import bench  # standard library and requests only at import

    n = csub.add_parser(
        "bench",
        help="a class in a benchmark: N pupils log in, spawn, answer 10 questions (run as root)",
    )
    bench.register(n)
    n.set_defaults(func=_cmd_class_bench)
    r = csub.add_parser(
        "recipe",
        help="print the folder of the hub's recipe (its config, the proxy's lockfile, the "
        "systemd unit): the installed package's, or a checkout's deploy/jupyterhub",
    )
    r.set_defaults(func=_cmd_recipe)
