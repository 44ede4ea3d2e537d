"""A saved evening (`sim.evening.Evening.as_json()`) read back through the guarded reader:
every field checked and every move parsed; a bad file is one `ScenarioError` naming the
field. The deals are replayed (every move checked by the engine) by `sim.evening.replay`."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from loo_lessons.engine.deal import MAX_PLAYERS_WITH_MISS, MIN_PLAYERS
from loo_lessons.engine.errors import InputError
from loo_lessons.engine.game import Action, parse_action
from loo_lessons.engine.options import RuleOptions
from loo_lessons.scenario.errors import ScenarioError

from . import fields
from .read import read_data, read_file
from .text import excerpt, short_refusals

#: The format mark of a saved evening.
FORMAT = "loo-evening/1"
#: Most deals one evening may hold (a long evening is some forty).
MAX_DEALS = 500

_KEYS = {
    "dealer", "format", "seed", "players", "rules", "seat", "bots", "stake", "loo", "loo_cap", "bank", "deals",
    # pass-and-play (several people at one device): optional, a one-learner evening has neither
    "people", "names",
}
#: The longest name a person may give at a pass-and-play table.
MAX_NAME = 24
#: The largest stake, loo, cap or bank an evening may name.
LIMIT = 10**6
#: Seeds are whole numbers 0 to 2**63 - 1 (what `random.Random` and the CLI take: `cli.args`).
MAX_SEED = 2**63 - 1
#: Each number of an evening's table and its range: the one check of `check_table`.
TABLE_BOUNDS: dict[str, tuple[int, int]] = {
    "seed": (0, MAX_SEED),
    # every deal of an evening deals a miss, so no seventeenth player (A18)
    "players": (MIN_PLAYERS, MAX_PLAYERS_WITH_MISS),
    "stake": (1, LIMIT),
    "loo": (1, LIMIT),
    "loo_cap": (1, LIMIT),
    "bank": (0, LIMIT),
}
_OPTIONAL = frozenset({"loo", "loo_cap"})


@dataclass(frozen=True, slots=True)
class SavedEvening:
    """A saved evening, every field checked: the table and the moves of each deal."""

    seed: int
    players: int
    rules: RuleOptions
    seat: int
    bots: tuple[str, ...]  # one per seat ("sensible" in the learner's, never used)
    stake: int
    loo: int | None
    loo_cap: int | None
    bank: int
    dealer: int
    deals: tuple[tuple[Action, ...], ...]
    people: tuple[int, ...] = ()  # every seat a person plays (pass-and-play); () is `(seat,)`
    names: tuple[str, ...] = ()  # the people's names, in the order of `people`


def person_name(raw: object) -> str:
    """A person's name as typed (trimmed): 1 to `MAX_NAME` characters, no control
    characters; else an `InputError` naming `names`. It is the players' own text: views
    escape it wherever they show it."""
    if not isinstance(raw, str):
        raise InputError("names", f"a name is text, got {excerpt(raw)}")
    name = raw.strip()
    if not 0 < len(name) <= MAX_NAME:
        raise InputError("names", f"a name has 1 to {MAX_NAME} characters, got {excerpt(raw)}")
    if any(not ch.isprintable() for ch in name):
        raise InputError("names", f"a name has no control characters, got {excerpt(raw)}")
    return name


def check_people(people: object, names: object, players: int, seat: int) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """The people's seats and names of a pass-and-play evening, checked: distinct seats of the
    table (`seat` among them), one name each (or none at all); else an `InputError` naming
    the field. `()` and `()` is a one-learner evening."""
    if people is None or people == []:
        people = []
    if not isinstance(people, list | tuple) or len(people) > players:
        raise InputError("people", f"expected a list of at most {players} seats")
    seats: list[int] = []
    for p in people:
        if isinstance(p, bool) or not isinstance(p, int) or not 0 <= p < players:
            raise InputError("people", f"{excerpt(p)} is not a seat: seats are 0 to {players - 1}")
        if p in seats:
            raise InputError("people", f"seat {p} is given twice")
        seats.append(p)
    if seats and seat not in seats:
        raise InputError("people", f"the evening's seat {seat} is not among them")
    if names is None or names == []:
        return tuple(seats), ()
    if not isinstance(names, list | tuple) or len(names) != len(seats):
        raise InputError("names", f"one name per person ({len(seats)})")
    return tuple(seats), tuple(person_name(n) for n in names)


def _where(key: str) -> str:
    return f"evening.{key}"


def check_table(values: Mapping[str, Any]) -> None:
    """Nothing, if every number of an evening's table in `values` (`TABLE_BOUNDS`; `loo` and
    `loo_cap` may be None) is in range; else an `InputError` naming the first bad one.

    The one check of an evening's numbers, made when an evening is set up
    (`sim.evening.setup_of`: the CLI, the widget) and when one is read back
    (`evening_from`), so that whatever can be started can be saved and resumed."""
    for key, (lo, hi) in TABLE_BOUNDS.items():
        if key not in values:
            continue
        v = values[key]
        if v is None and key in _OPTIONAL:
            continue
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise InputError(key, f"expected a whole number from {lo} to {hi}, got {excerpt(v)}")


def _number(raw: Mapping[str, Any], key: str) -> int | None:
    try:
        check_table({key: raw.get(key)})
    except InputError as e:
        raise ScenarioError(_where(e.field), e.problem) from None
    v: int | None = raw.get(key)
    return v


def evening_from(raw: object) -> SavedEvening:
    """Plain data → a checked `SavedEvening` (the moves parsed, not yet replayed)."""
    if not isinstance(raw, dict):
        raise ScenarioError("evening", "expected a JSON object (a saved evening)")
    unknown = sorted(str(k) for k in raw if k not in _KEYS)
    if unknown:
        raise ScenarioError(_where(unknown[0][:30]), f"unknown key (known: {', '.join(sorted(_KEYS))})")
    if raw.get("format") != FORMAT:
        raise ScenarioError(_where("format"), f"expected {FORMAT!r}, got {excerpt(raw.get('format'))}")
    seed = _number(raw, "seed")
    players = _number(raw, "players")
    assert seed is not None and players is not None
    seat = fields.seat(raw.get("seat"), players, _where("seat"))
    try:
        rules = fields.rules(raw)
    except InputError as e:  # the engine's refusal of an option, or the reader's
        raise ScenarioError(_where(str(e.field)), e.problem) from None
    bots = raw.get("bots")
    if (
        not isinstance(bots, list)
        or len(bots) != players
        or any(b is not None and (not isinstance(b, str) or len(b) > 40) for b in bots)
    ):
        raise ScenarioError(_where("bots"), "one bot name per seat (null for the learner)")
    stake = _number(raw, "stake")
    assert stake is not None
    bank = _number(raw, "bank")
    assert bank is not None
    loo = _number(raw, "loo")
    loo_cap = _number(raw, "loo_cap")
    dealer = fields.seat(raw.get("dealer", 0), players, _where("dealer"))
    deals = raw.get("deals")
    if not isinstance(deals, list) or not 1 <= len(deals) <= MAX_DEALS:
        raise ScenarioError(_where("deals"), f"expected a list of 1 to {MAX_DEALS} deals, each a list of moves")
    moves: list[list[Action]] = []
    for i, deal in enumerate(deals):
        if not isinstance(deal, list) or len(deal) > 200:
            raise ScenarioError(_where(f"deals[{i}]"), "expected a list of moves (card codes or declarations)")
        row: list[Action] = []
        for j, m in enumerate(deal):
            if not isinstance(m, str) or not 0 < len(m) <= 40:
                raise ScenarioError(_where(f"deals[{i}][{j}]"), f"expected a move, got {excerpt(m)}")
            try:
                row.append(parse_action(m))
            except (ScenarioError, ValueError):
                raise ScenarioError(_where(f"deals[{i}][{j}]"), f"{excerpt(m)} is not a move") from None
        moves.append(row)
    try:
        people, names = check_people(raw.get("people"), raw.get("names"), players, seat)
    except InputError as e:
        raise ScenarioError(_where(e.field), e.problem) from None
    return SavedEvening(
        seed,
        players,
        rules,
        seat,
        tuple(b or "sensible" for b in bots),
        stake,
        loo,
        loo_cap,
        bank,
        dealer,
        tuple(tuple(m) for m in moves),
        people,
        names,
    )


@short_refusals
def read_evening(path: str | os.PathLike[str]) -> SavedEvening:
    """A saved evening from a file, every field checked."""
    p = Path(path)
    return evening_text(read_file(p), p.name)


@short_refusals
def evening_text(text: str, name: str = "evening.json") -> SavedEvening:
    """A saved evening from its text (a file's, or one a page's reader chose), read within
    the reader's bounds (`scenario.read.read_data`) and every field checked."""
    try:
        raw = read_data(text, name)
    except ScenarioError as e:
        raise ScenarioError("evening" if e.field == "file" else _where(e.field), e.problem) from None
    return evening_from(raw)


__all__ = [
    "FORMAT",
    "MAX_DEALS",
    "MAX_NAME",
    "TABLE_BOUNDS",
    "SavedEvening",
    "check_people",
    "check_table",
    "evening_from",
    "evening_text",
    "person_name",
    "read_evening",
]
