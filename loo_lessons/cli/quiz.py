"""`loo-lessons quiz`: questions answered by the engine, as text, JSON or a static page, and
`loo-lessons quiz results`: a class's exported answers merged into one table."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from loo_lessons.cli import args as A
from loo_lessons.quiz.model import TOPICS


def _fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2


def _html_target(text: str) -> Path | str:
    """The page to write, or the one-line reason it cannot be written."""
    out = Path(text)
    if out.is_dir():
        return f"--html: {text} is a folder (give a file name, e.g. {out / 'quiz.html'})"
    if not out.parent.is_dir():
        return f"--html: no folder {out.parent} to write {out.name} in"
    return out


def _cmd_quiz(args: argparse.Namespace) -> int:
    from loo_lessons.quiz import MAX_COUNT, generate, generate_mixed
    from loo_lessons.quiz.class_code import ClassCode, parse

    if getattr(args, "quiz_cmd", None) == "results":
        return _cmd_results(args)
    code: ClassCode | None = None
    if args.code is not None:
        if args.topic is not None:
            return _fail("--code: give a class code or --topic, not both")
        try:
            code = parse(args.code)
        except ValueError as e:
            return _fail(str(e))
        topic, count, seed = code.topic, code.count, code.seed
    else:
        if args.topic is None:
            return _fail("--topic: give a topic (or a class code with --code, e.g. lead-10-42)")
        topic, count, seed = args.topic, args.count, args.seed
        if not 0 <= count <= MAX_COUNT:
            return _fail(f"--count: must be 0 to {MAX_COUNT}, not {count}")
    out: Path | None = None
    if args.html:
        target = _html_target(args.html)
        if isinstance(target, str):
            return _fail(target)
        out = target
    try:
        if topic == "mixed":
            if args.disagree or args.level is not None:
                return _fail(
                    "--code: a mixed code asks every topic; --disagree and --level do not apply"
                )
            questions = generate_mixed(count, seed, preset=args.rules)
        else:
            questions = generate(
                topic, count, seed, preset=args.rules, disagreement=args.disagree, level=args.level
            )
    except ValueError as e:
        return _fail(str(e))
    if out is not None:
        from loo_lessons.widgets.static import quiz_page

        # a class code only where the page deals exactly what the code says
        plain = args.rules is None and not args.disagree and args.level is None
        class_code = None
        if plain and count >= 1:
            try:
                class_code = str(ClassCode(topic, count, seed))
            except ValueError:
                class_code = None
        title = f"Loo quiz: {topic} (seed {seed})" + (" \u2014 teacher's copy" if args.key else "")
        try:
            out.write_text(
                quiz_page(questions, title, class_code=class_code, print_key=args.key),
                encoding="utf-8",
            )
        except OSError as e:
            return _fail(f"--html: cannot write {out}: {e.strerror or e}")
        code_words = f" (class code {class_code})" if class_code else ""
        print(f"wrote {len(questions)} questions to {out}{code_words}")
    if args.json:
        doc = {"topic": topic, "seed": seed, "questions": [q.to_json() for q in questions]}
        print(json.dumps(doc, indent=2, ensure_ascii=False))
    elif out is None:
        for q in questions:
            print(f"[{q.id}] level {q.level}: {q.prompt}")
            for c in q.choices:
                mark = "*" if c.key in q.answer else " "
                print(f"  {mark} {c.label}")
            print(f"  {q.explanation}")
            print()
    return 0


def _cmd_results(args: argparse.Namespace) -> int:
    from loo_lessons.quiz.class_code import parse
    from loo_lessons.quiz.classroom import merge, read_class_list, safe_where, table_csv, table_text

    codes = None
    if args.code:
        try:
            codes = [str(parse(c)) for c in args.code]
        except ValueError as e:
            return _fail(f"--code: {e}")
    try:
        names = None if args.class_list is None else read_class_list(args.class_list)
        room = merge(args.files, codes, names)
    except ValueError as e:
        return _fail(str(e))
    if room.pupils:
        sys.stdout.write(table_csv(room.pupils) if args.csv else table_text(room.pupils))
    for r in room.refusals:
        print(f"refused: {r.line()}", file=sys.stderr)
    if not room.pupils and not room.refusals:
        return _fail("results: no results in " + ", ".join(safe_where(f) for f in args.files))
    return 2 if room.refusals else 0


def register(sub: Any) -> None:
    """Add the `quiz` subcommand (and `quiz results`) to the `loo-lessons` parser."""
    q = sub.add_parser(
        "quiz",
        help="generate quiz questions answered by the engine; `quiz results` merges a class's "
        "result files into one table",
    )
    q.add_argument(
        "--topic",
        default=None,
        choices=TOPICS,
        help="the lesson topic the questions are on (or a class code with --code)",
    )
    q.add_argument(
        "--code",
        default=None,
        metavar="TOPIC-COUNT-SEED",
        help="a class code, e.g. lead-10-42 (instead of --topic, --count and --seed)",
    )
    q.add_argument("--count", type=int, default=10, help="how many questions (0 to 500)")
    q.add_argument("--seed", type=A.seed, default=0, help=f"0 to {A.MAX_SEED}")
    q.add_argument("--rules", default=None, help="ask every question under this preset")
    q.add_argument(
        "--level",
        type=int,
        default=None,
        choices=(1, 2),
        help="1 basic, 2 harder (default: both)",
    )
    q.add_argument(
        "--disagree", action="store_true", help="only positions where hoffmann and peel differ"
    )
    q.add_argument("--json", action="store_true", help="the questions and answers as JSON")
    q.add_argument("--html", default=None, metavar="OUT.html", help="write a static quiz page")
    q.add_argument(
        "--key",
        action="store_true",
        help="with --html: the teacher's copy, whose printout ends with the answer key",
    )
    q.set_defaults(func=_cmd_quiz, quiz_cmd=None)
    qs = q.add_subparsers(dest="quiz_cmd", required=False, metavar="results")
    r = qs.add_parser(
        "results",
        help="grade pupils' exported answers again (CSV files, result codes, folders): "
        "per pupil, per question, per rule; refuses what a class code cannot have produced",
    )
    r.add_argument("files", nargs="+", metavar="FILE", help="result files or folders of them")
    r.add_argument("--csv", action="store_true", help="print the per-pupil table as CSV")
    r.add_argument(
        "--code",
        action="append",
        metavar="TOPIC-COUNT-SEED",
        help="this class's code (repeat for several): a result for another code is refused",
    )
    r.add_argument(
        "--class-list",
        metavar="FILE",
        help="the class's names, one a line: only these count; any other name is reported",
    )
    r.set_defaults(func=_cmd_quiz)
