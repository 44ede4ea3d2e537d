"""Saved games in: a transcript (`Hand.transcript().as_json()`, as the play widget writes it)
read back as strictly as a scenario file. Every field's type and range is checked, then the
position it deals (`Hand.problems()`: one pack, three cards each, ...), then every move and
penalty is replayed through the engine's checked `apply` and `penalise` before anything is
handed on. A bad transcript is one `ScenarioError` naming its field as the JSON spells it
(`actions[4]`, `stakes.loo`, `penalties[0].seat`); a saved game's fields are named under
`transcript.`."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from loo_lessons.engine.cards import parse_card, parse_cards
from loo_lessons.engine.deal import check_table_size
from loo_lessons.engine.errors import InputError, LooError
from loo_lessons.engine.game import Transcript
from loo_lessons.engine.options import options_from
from loo_lessons.engine.penalties import Offence

from . import fields
from .errors import ScenarioError
from .read import read_data, read_file
from .text import excerpt, short_refusals

_SHORT = 40
_KEYS = frozenset(
    {"players", "dealer", "rules", "stakes", "must", "seed", "actions", "hands", "miss"}
    | {"turn_up", "stock", "penalties"}
)
_REQUIRED_KEYS = ("players", "dealer", "rules", "stakes", "must", "actions")
_BESIDE_KEYS = frozenset({"learner"})  # a saved game's: who played which seat
_STAKE_KEYS = ("stake", "loo", "single_loo", "loo_cap", "pool")
_MAX_MOVES = 100  # more than any deal has (17 declarations, three tricks of 17 cards)


@short_refusals
def load_transcript(data: object) -> Transcript:
    """Plain data (a transcript's JSON) → the checked `Transcript`, its moves written as the
    engine writes them (a saved `stand` reads back as `play`, as `as_json` writes it).

    Keys beside the transcript's own are refused, but for `learner` (who played which seat),
    which the play widget's saved games carry and `transcript_from` reads."""
    tr = _fields(data)
    hand = tr.start()
    problems = hand.problems()
    if problems:
        raise problems[0].error()
    for where, step in tr.steps():
        try:
            step(hand)
        except LooError as e:
            if where.startswith("penalties") and isinstance(e, InputError):
                # a penalty that cannot have happened here: its seat or its offence
                raise ScenarioError(f"{where}.{e.field}", e.problem) from None
            raise ScenarioError(where, str(e)) from None  # a move: not one, or not legal
    return dataclasses.replace(tr, actions=tuple(str(a) for a in hand.actions))


def _whole(v: object, field: str, lo: int | None = 0) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or (lo is not None and v < lo):
        least = "" if lo is None else f" of at least {lo}"
        raise ScenarioError(field, f"expected a whole number{least}, got {excerpt(v)}")
    return v


def _items(v: object, field: str, limit: int) -> list[Any]:
    if not isinstance(v, list) or len(v) > limit:
        raise ScenarioError(field, f"expected a list of at most {limit} items, got {excerpt(v)}")
    return v


def _fields(data: object) -> Transcript:
    """`load_transcript`'s reading of each field (the replay checks the rest)."""
    if not isinstance(data, Mapping):
        raise ScenarioError("transcript", f"expected a JSON object, got {excerpt(data)}")
    for key in data:
        if key not in _KEYS and key not in _BESIDE_KEYS:
            raise ScenarioError(str(key)[:40], "unknown key in a transcript")
    for key in _REQUIRED_KEYS:
        if key not in data:
            raise ScenarioError(key, "missing: every transcript gives it")
    must = data["must"]
    if not isinstance(must, bool):
        raise ScenarioError("must", f"expected true or false, got {excerpt(must)}")
    players = _whole(data["players"], "players")
    check_table_size(players, not must)
    dealer = _whole(data["dealer"], "dealer")  # its range: the position's status, below
    rules = data["rules"]
    if not isinstance(rules, str | dict):
        raise ScenarioError("rules", f"expected a preset name or a mapping, got {excerpt(rules)}")
    options = options_from(rules)  # refuses an unknown option or value, naming it
    stakes_given = data["stakes"]
    if not isinstance(stakes_given, dict):
        raise ScenarioError("stakes", f"expected a mapping of {', '.join(_STAKE_KEYS)}")
    stakes: dict[str, Any] = {}
    for key, v in stakes_given.items():
        if key not in _STAKE_KEYS:
            raise ScenarioError(f"stakes.{str(key)[:40]}", f"not one of {', '.join(_STAKE_KEYS)}")
        none_ok = key == "loo_cap" and v is None
        stakes[key] = None if none_ok else _whole(v, f"stakes.{key}", 0 if key == "pool" else 1)
    seed = data.get("seed")
    if seed is not None:
        _whole(seed, "seed", None)
    actions = _items(data["actions"], "actions", _MAX_MOVES)
    for i, a in enumerate(actions):
        if not isinstance(a, str) or len(a) > 40:
            raise ScenarioError(f"actions[{i}]", f"{excerpt(a)} is not a move")
    hands: tuple[tuple[str, ...], ...] | None = None
    miss: tuple[str, ...] | None = None
    turn_up: str | None = None
    stock: tuple[str, ...] = ()
    if data.get("hands") is not None:
        if seed is not None:
            raise ScenarioError("hands", "a transcript gives its seed or its hands, not both")
        given = _items(data["hands"], "hands", players)
        hands = tuple(
            tuple(c.code for c in parse_cards(h, f"hands[{i}]")) for i, h in enumerate(given)
        )
        if data.get("miss") is not None:
            miss = tuple(c.code for c in parse_cards(data["miss"], "miss"))
        if data.get("turn_up") is None:
            raise ScenarioError("turn_up", "missing: a deal given by its hands turns up a card")
        turn_up = parse_card(data["turn_up"], "turn_up").code
        stock = tuple(c.code for c in parse_cards(data.get("stock", []), "stock"))
    elif seed is None:
        raise ScenarioError("seed", "missing: a transcript gives its seed or its hands")
    else:
        for key in ("miss", "turn_up", "stock"):
            if data.get(key):
                raise ScenarioError(key, "a deal made from its seed gives no cards")
    penalties: list[tuple[int, int, str]] = []
    for j, p in enumerate(_items(data.get("penalties", []), "penalties", _MAX_MOVES)):
        where = f"penalties[{j}]"
        if not isinstance(p, list) or len(p) != 3:
            raise ScenarioError(where, "each penalty is [move index, seat, offence]")
        at = _whole(p[0], where)
        if at > len(actions):
            raise ScenarioError(where, f"move index {at} is after the last move")
        seat = _whole(p[1], f"{where}.seat")  # its range: `penalise`, in the replay
        name = p[2]
        if not isinstance(name, str) or name.strip().upper() not in Offence.__members__:
            known = ", ".join(o.name.lower() for o in Offence)
            raise ScenarioError(f"{where}.offence", f"{excerpt(name)} is not one of {known}")
        penalties.append((at, seat, name))
    return Transcript(
        players=players,
        dealer=dealer,
        options=rules if isinstance(rules, dict) else options.to_dict(),
        stakes=stakes,
        must=must,
        seed=seed,
        actions=tuple(actions),
        hands=hands,
        miss=miss,
        turn_up=turn_up,
        penalties=tuple(penalties),
        stock=stock,
    )


def _where(key: str) -> str:
    return f"transcript.{key}"


def _learner(raw: Mapping[str, Any], players: object) -> dict[str, Any]:
    """The play widget's `learner` entry: who played which seat, with which bots (and, for a
    lesson's task, the task's name and the kinds of decision it asks: `task`, `asks`)."""
    learner = raw.get("learner", {})
    if not isinstance(learner, dict) or set(learner) - {"seat", "bots", "rng_seed", "task", "asks"}:
        raise ScenarioError(_where("learner"), "expected {seat, bots, rng_seed, task?, asks?}")
    if "task" in learner and (not isinstance(learner["task"], str) or len(learner["task"]) > _SHORT):
        raise ScenarioError(_where("learner.task"), f"expected a task's name, got {excerpt(learner['task'])}")
    asks = learner.get("asks")
    if "asks" in learner and (
        not isinstance(asks, list) or not all(isinstance(k, str) and len(k) <= _SHORT for k in asks)
    ):
        raise ScenarioError(_where("learner.asks"), "expected a list of decisions (declare, lead, follow)")
    if "seat" in learner:
        fields.seat(
            learner["seat"], players if isinstance(players, int) else 0, _where("learner.seat")
        )
    seed = learner.get("rng_seed")
    if "rng_seed" in learner and (
        isinstance(seed, bool) or not isinstance(seed, int) or abs(seed) > 10**30
    ):
        raise ScenarioError(
            _where("learner.rng_seed"), f"expected a whole number, got {excerpt(seed)}"
        )
    bots = learner.get("bots")
    names = bots if isinstance(bots, list) else [bots]
    if (isinstance(bots, list) and len(bots) != players) or any(
        b is not None and (not isinstance(b, str) or len(b) > _SHORT) for b in names
    ):
        raise ScenarioError(_where("learner.bots"), "one bot name per seat (null for the learner)")
    return learner


def transcript_from(raw: object) -> tuple[Transcript, dict[str, Any]]:
    """Plain data → a checked `Transcript` (`load_transcript`: every field, the deal, every
    move and penalty replayed) and its `learner` entry, fields named under `transcript.`."""
    if not isinstance(raw, dict):
        raise ScenarioError("transcript", "expected a JSON object (a saved game)")
    try:
        tr = load_transcript(raw)
    except ScenarioError as e:
        raise ScenarioError(_where(str(e.field)), e.problem) from None
    return tr, _learner(raw, tr.players)


@short_refusals
def read_transcript(path: str | os.PathLike[str]) -> tuple[Transcript, dict[str, Any]]:
    """A saved game from a file: the checked transcript and who played which seat."""
    p = Path(path)
    try:
        raw = read_data(read_file(p), p.name)
    except ScenarioError as e:  # the file as a whole: name it as what it should have been
        raise ScenarioError(
            "transcript" if e.field == "file" else _where(e.field), e.problem
        ) from None
    return transcript_from(raw)
