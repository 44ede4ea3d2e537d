"""A settlement in words, line by line: the one wording of `Settlement.lines` every view reads.

The engine decides each line (its kind, seat, counters, rule id, plain reason and quote);
this module only says it with seat names and figures: the CLI, `explain --json` (the
`settlement.lines` list), quizzes, widgets, the terminal game and the lessons all print these
texts, so an event is cited with the same rule everywhere.
"""

from __future__ import annotations

from typing import Any

from loo_lessons.engine.game import Hand
from loo_lessons.engine.options import RuleOptions
from loo_lessons.engine.settle import LineKind, Settlement, SettlementLine
from loo_lessons.explain.words import (
    book_name,
    book_quote,
    counters,
    plural,
    quote_text,
    seat_name,
    subject,
    tricks_words,
)


def _who(hand: Hand | None, seat: int | None, you: int | None) -> str:
    if seat is None:
        return ""
    if hand is None:
        return "You" if seat == you else f"Seat {seat}"
    return subject(hand, seat, you)


def _whose(hand: Hand | None, seat: int, you: int | None) -> str:
    if you is not None and seat == you:
        return "Your"
    name = seat_name(hand, seat, capital=True) if hand is not None else f"Seat {seat}"
    return name + "'s"


def _loo_why(line: SettlementLine, s: Settlement, hand: Hand | None) -> str:
    """Why the loo is this figure, true to the loo actually charged."""
    if line.rule == "R46":
        return f"a loo is what the pool held, {counters(s.pool)} (unlimited loo)"
    if line.rule == "R49":
        return f"the pool held {s.pool}, but a loo is capped at this maximum"
    stake = hand.setup.stakes.stake if hand is not None else None
    if stake is None or stake == line.amount:
        return "the amount originally staked"
    return f"the fixed loo this table agreed; the stake was {stake}, A13"


def line_text(
    line: SettlementLine, s: Settlement, hand: Hand | None = None, *, you: int | None = None
) -> str:
    """One line of the settlement as a sentence with seat names and figures."""
    who = _who(hand, line.seat, you)
    me = you is not None and line.seat == you
    k = line.kind
    if k is LineKind.AWARD:
        return f"{who} {'take' if me else 'takes'} the whole pool of {counters(line.amount)} without play."
    if k is LineKind.PENALTY_NOW:
        return (
            f"{who} {'pay' if me else 'pays'} {counters(line.amount)} into this pool at once, "
            f"for {line.offence}."
        )
    if k is LineKind.PENALTY_NEXT:
        return (
            f"{who} {'pay' if me else 'pays'} {counters(line.amount)} for {line.offence}: "
            "added to the next deal's pool."
        )
    if k is LineKind.POOL:
        a, b, c = line.shares
        held = f"The pool of {counters(line.amount)}"
        if s.penalties_now:
            held += (
                f" ({s.pool - s.penalties_now} staked and {s.penalties_now} in penalties "
                "paid at once)"
            )
        if line.amount % 3 == 0:
            return f"{held} is divided, one third to each trick: {counters(a)} a trick."
        if a != c:
            return f"{held} does not divide by three: the tricks take {a}, {b} and {c}."
        return f"{held} does not divide by three: each trick takes {counters(a)}."
    if k is LineKind.TRICKS:
        which = tricks_words(line.tricks) if line.tricks else plural(line.tricks_taken, "trick")
        if line.tricks_taken == 3:
            which = "all three tricks"
        if line.seat in s.withheld:  # won, but kept in the pool (R19, R63: the next line)
            return f"{who} took {which}, worth {counters(line.amount)}: not paid to {'you' if me else 'him'}."
        return f"{who} took {which}: {'receive' if me else 'receives'} {counters(line.amount)}."
    if k is LineKind.FOR_POOL:
        assert line.seat is not None
        name = seat_name(hand, line.seat, miss=False) if hand is not None else f"seat {line.seat}"
        return (
            f"What the miss won for the pool, {counters(line.amount)}, stays in the pool for the "
            f"next deal; {'you are' if me else name + ' is'} not looed."
        )
    if k is LineKind.WITHHELD:
        assert line.seat is not None
        return (
            f"{_whose(hand, line.seat, you)} winnings of {counters(line.amount)} stay in the pool "
            "for the next deal."
        )
    if k is LineKind.LOO:
        return (
            f"{who} played and took no trick: looed, {'pay' if me else 'pays'} "
            f"{counters(line.amount)} ({_loo_why(line, s, hand)})."
        )
    if k is LineKind.NOBODY_LOOED:
        if line.seat is not None:  # the dealer's miss, played for the pool, took no trick (R19)
            return (
                "Every one who played his own cards took a trick; the miss played for the pool "
                "took none, and it is never looed: nobody is looed."
            )
        return "Every one who played took a trick: nobody is looed."
    if k is LineKind.SINGLE:
        return (
            "Three played and each took one trick: nobody is looed, and the next deal is a "
            "single (R42)."
        )
    if k is LineKind.ODD:
        return (
            f"{counters(line.amount)} left over by the division "
            f"{'stays' if line.amount == 1 else 'stay'} in the pool for the next deal."
        )
    if k is LineKind.NEXT_POOL:
        loos = sum(s.loo_pays.values())
        stake = s.next_pool - loos - s.left_in_pool - s.penalties_next
        parts = [f"loos {loos}", f"left in the pool {s.left_in_pool}"]
        if s.penalties_next:
            parts.append(f"penalties {s.penalties_next}")
        ante = "antes" if "ante" in line.reason else "the new dealer's stake"
        parts.append(f"{ante} {stake}")
        return f"Next pool = {' + '.join(parts)} = {s.next_pool}."
    if k is LineKind.MUST:
        return "The next deal is a must: every one plays, and there is no miss."
    raise ValueError(f"unknown settlement line {k}")  # pragma: no cover - every kind is worded


def line_json(
    line: SettlementLine,
    s: Settlement,
    hand: Hand | None = None,
    *,
    options: RuleOptions | None = None,
    you: int | None = None,
) -> dict[str, Any]:
    """One line for JSON and the widgets: the engine's facts, the text, the rule and its words."""
    opts = options if options is not None else (hand.options if hand is not None else None)
    q = book_quote(line.rule, line.quote, opts)
    out: dict[str, Any] = {
        "kind": str(line.kind),
        "seat": line.seat,
        "amount": line.amount,
        "text": line_text(line, s, hand, you=you),
        "rule_id": line.rule,
        "reason": line.reason,
        "quote": q.text,
        "words": quote_text(q),
        "source": q.source,
        "book": book_name(q),
    }
    if line.tricks:
        out["tricks"] = list(line.tricks)
    if line.offence:
        out["offence"] = line.offence
    return out


def settlement_lines(
    s: Settlement,
    hand: Hand | None = None,
    *,
    options: RuleOptions | None = None,
    you: int | None = None,
) -> list[dict[str, Any]]:
    """Every line of the settlement (see `line_json`)."""
    return [line_json(x, s, hand, options=options, you=you) for x in s.lines]


def settlement_text(
    s: Settlement,
    hand: Hand | None = None,
    *,
    options: RuleOptions | None = None,
    you: int | None = None,
    indent: str = "  ",
) -> list[str]:
    """The settlement as text lines, each with its rule id."""
    return [
        f"{indent}[{d['rule_id']}] {d['text']}"
        for d in settlement_lines(s, hand, options=options, you=you)
    ]
