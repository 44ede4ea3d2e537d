"""`loo-lessons quiz`: questions answered by the engine, as text, JSON or a static page."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


def _cmd_quiz(args: argparse.Namespace) -> int:
    from loo_lessons.quiz import generate

    try:
        questions = generate(
            args.topic,
            args.count,
            args.seed,
            preset=args.rules,
            disagreement=args.disagree,
            level=args.level,
        )
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if args.html:
        from pathlib import Path

        from loo_lessons.widgets.static import quiz_page

        title = f"Loo quiz: {args.topic} (seed {args.seed})"
        Path(args.html).write_text(quiz_page(questions, title), encoding="utf-8")
        print(f"wrote {len(questions)} questions to {args.html}")
    if args.json:
        out = {
            "topic": args.topic,
            "seed": args.seed,
            "questions": [q.to_json() for q in questions],
        }
        print(json.dumps(out, indent=2, ensure_ascii=False))
    elif not args.html:
        for q in questions:
            print(f"[{q.id}] level {q.level}: {q.prompt}")
            for c in q.choices:
                mark = "*" if c.key in q.answer else " "
                print(f"  {mark} {c.label}")
            print(f"  {q.explanation}")
            print()
    return 0


def register(sub: Any) -> None:
    """Add the `quiz` subcommand to the `loo-lessons` parser."""
    q = sub.add_parser("quiz", help="generate quiz questions answered by the engine")
    q.add_argument(
        "--topic",
        required=True,
        choices=("deal", "declare", "dealer", "lead", "follow", "trick", "pool", "must", "penalty"),
    )
    q.add_argument("--count", type=int, default=10)
    q.add_argument("--seed", type=int, default=0)
    q.add_argument("--rules", default=None, help="ask every question under this preset")
    q.add_argument("--level", type=int, default=None, choices=(1, 2))
    q.add_argument(
        "--disagree", action="store_true", help="only positions where hoffmann and peel differ"
    )
    q.add_argument("--json", action="store_true")
    q.add_argument("--html", default=None, metavar="OUT.html", help="write a static quiz page")
    q.set_defaults(func=_cmd_quiz)
