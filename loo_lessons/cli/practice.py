"""`loo-lessons practice`: a practice session in the terminal, by rule, recorded in the
learner's `loo-progress/1` file (the one JupyterLab's `L.practice()` keeps), and `--status`:
how sure she is of each rule, what is due, her mistakes and the way back to each."""

from __future__ import annotations

import argparse
import random
import sys
from datetime import UTC, datetime
from typing import Any

from loo_lessons.cli import args as A
from loo_lessons.cli.clean import for_terminal
from loo_lessons.engine.errors import InputError

#: What the learner types instead of an answer.
SHOW = ("?", "show")
QUIT = ("q", "quit")


def _now(args: argparse.Namespace) -> datetime:
    from loo_lessons.progress.record import parse_at

    return parse_at(args.now, "--now") if args.now else datetime.now(UTC)


def _say(text: str = "") -> None:
    print(for_terminal(text))


def _keys(typed: str, q: Any) -> list[str] | None:
    """The choices typed: numbers (1 to n), card codes (KH) or labels (K♥), by spaces or
    commas; None when a word is none of them."""
    keys = [c.key for c in q.choices]
    by_word = {c.key.lower(): c.key for c in q.choices} | {c.label.lower(): c.key for c in q.choices}
    out: list[str] = []
    for word in typed.replace(",", " ").split():
        w = word.strip().lower()
        if w.isdigit() and 1 <= int(w) <= len(keys):
            k = keys[int(w) - 1]
        elif w in by_word:
            k = by_word[w]
        else:
            return None
        if k not in out:
            out.append(k)
    return out


def _ask(q: Any) -> list[str] | None:
    """Her answer to one item: the keys picked ([] to see the answer), or None to stop."""
    while True:
        line = sys.stdin.readline()
        if not line:
            return None
        typed = line.strip()
        if typed.lower() in QUIT:
            return None
        if typed.lower() in SHOW:
            return []
        picked = _keys(typed, q) if typed else None
        if picked:
            return picked
        _say(f"Type the numbers of your choices (1 to {len(q.choices)}), ? to see the answer, q to stop.")


def _status(args: argparse.Namespace) -> int:
    from loo_lessons.progress import mastery, store

    record = store.load(args.file)
    now = _now(args)
    rows = mastery.summary(record, now)
    if not rows:
        _say("Nothing answered yet: run loo-lessons practice.")
        return 0
    due = [r["rule"] for r in rows if r["due"]]
    _say(f"{len(record.answers)} answers; due now: {', '.join(due) if due else 'nothing'}")
    for r in rows:
        when = "due now" if r["due"] else f"due {r['due_at'][:10]}"
        _say(f"{r['rule']}  {r['sure']:3d}% sure  {when}  right {r['right']}, wrong {r['wrong']}  {r['words']}")
        for m in r["mistakes"][:3]:
            _say(f"      missed {m['at'][:16].replace('T', ' ')} on {m['page'] or '?'}: {m['back']}")
    return 0


def _cmd_practice(args: argparse.Namespace) -> int:
    from loo_lessons.progress import store
    from loo_lessons.progress.practice import Session, practised, rule_words

    if args.merge is not None:
        added, total = store.merge_file(args.merge, args.file)
        _say(f"{added} answer{'' if added == 1 else 's'} added from {args.merge}, {total} in all")
        return 0
    if args.status:
        return _status(args)
    rules = None
    if args.rules is not None:
        rules = practised(r.strip().upper() for r in args.rules.split(",") if r.strip())
        if not rules:
            raise InputError("--rules", f"none of {args.rules[:60]!r} has practice questions (try R24,R32)")
    record = store.load(args.file)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    fixed = args.now is not None  # a test's clock: every answer at that moment
    session = Session(record, _now(args), seed=seed, size=args.count, rules=rules, page="terminal")
    while (item := session.next()) is not None:
        q = item.question
        right, answered = session.score()
        _say(f"\n— {answered + 1} of {len(session.planned_rules())} —")
        _say(q.prompt)
        for n, c in enumerate(q.choices, 1):
            _say(f"  {n}. {c.label}")
        shown_at = _now(args)
        picked = _ask(q)
        if picked is None:
            break
        now = _now(args)
        a = session.answer(picked, now, None if fixed else (now - shown_at).total_seconds())
        store.save(session.record, args.file, now)
        _say(("✓ Right." if a.correct else "✗ Not right.") + f" The answer: {', '.join(c.label for c in q.choices if c.key in q.answer)}")
        for c in q.choices:
            v = q.verdicts[c.key]
            if c.key in picked or c.key in q.answer:
                _say(f"  {c.label}: {'allowed' if v.correct else 'not allowed'} ({v.rule_id}) {v.reason}")
        for r in a.at_fault if not a.correct else (item.rule,):
            _say(f"  {rule_words(r)}")
        if not a.correct:
            _say("  It comes back in a moment, on a new position.")
        if session.queue:
            _say("(Enter for the next)")
            if sys.stdin.readline() == "":
                break
    right, answered = session.score()
    _say(f"\n{right} right of {answered}. Your progress: {args.file or store.default_path()}")
    return 0


def register(sub: Any) -> None:
    """Add the `practice` subcommand to the `loo-lessons` parser."""
    p = sub.add_parser(
        "practice",
        help="practise by rule: new positions for the rules due or missed, kept in your progress file",
    )
    p.add_argument("--rules", default=None, metavar="R24,R32", help="practise these rules (a teacher's list)")
    p.add_argument("--count", type=A.practice_count, default=10, help="items in the session, 1 to 30")
    p.add_argument("--seed", type=A.seed, default=None, help="deal the same positions again")
    p.add_argument("--file", default=None, metavar="PATH", help="the progress file (default ~/loo-progress.json, or $LOO_PROGRESS)")
    p.add_argument("--status", action="store_true", help="how sure you are of each rule, what is due, your mistakes")
    p.add_argument("--merge", default=None, metavar="FILE", help="add a progress file (downloaded from the book) to yours")
    p.add_argument("--now", default=None, metavar="ISO-TIME", help=argparse.SUPPRESS)
    p.set_defaults(func=_cmd_practice)
