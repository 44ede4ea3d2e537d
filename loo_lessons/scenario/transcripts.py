"""Saved games (`Hand.transcript().as_json()`, as the play widget writes them) read back through
the same guarded reader as scenarios, every field checked, and every move replayed through the
engine's checked `apply` before anything is handed on: a bad file is one `ScenarioError`."""

from __future__ import annotations

import os
import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from loo_lessons.engine.deal import check_table_size
from loo_lessons.engine.errors import IllegalAction, LooError, ScenarioError
from loo_lessons.engine.game import Hand, Setup, Transcript, parse_action
from loo_lessons.engine.options import LooAmount
from loo_lessons.engine.settle import Stakes

from . import fields, replay
from .read import read_data, read_file
from .text import excerpt, short_refusals

#: The keys `Transcript.as_json` writes, and the play widget's `learner`.
_KEYS = frozenset(
    {"players", "dealer", "rules", "stakes", "must", "seed", "actions", "hands", "miss"}
    | {"turn_up", "stock", "penalties", "learner"}
)
_STAKE_KEYS = ("stake", "loo", "single_loo", "loo_cap", "pool")
#: More moves than any deal has (17 declarations and 3 tricks of 17 cards).
_MAX_ACTIONS = 100
_SHORT = 40


def _where(key: str) -> str:
    return f"transcript.{key}"


def _int(
    raw: Mapping[str, Any], key: str, lo: int = 0, *, none: bool = False, within: str = ""
) -> int | None:
    v = raw.get(key)
    if v is None and none:
        return None
    if isinstance(v, bool) or not isinstance(v, int) or v < lo:
        raise ScenarioError(
            _where(within + key), f"expected a whole number of at least {lo}, got {excerpt(v)}"
        )
    return v


def _list(raw: Mapping[str, Any], key: str, limit: int) -> list[Any]:
    v = raw.get(key, [])
    if not isinstance(v, list) or len(v) > limit:
        raise ScenarioError(
            _where(key), f"expected a list of at most {limit} items, got {excerpt(v)}"
        )
    return v


def _codes(value: object, where: str, size: int | None) -> tuple[str, ...]:
    cards = fields.cards(value, where)
    if size is not None and len(cards) != size:
        raise ScenarioError(where, f"{size} cards, not {len(cards)}")
    return tuple(c.code for c in cards)


def transcript_from(raw: object) -> tuple[Transcript, dict[str, Any]]:
    """Plain data → a checked `Transcript` and its `learner` entry, with every move replayed."""
    if not isinstance(raw, dict):
        raise ScenarioError("transcript", "expected a JSON object (a saved game)")
    for key in raw:
        if key not in _KEYS:
            raise ScenarioError(_where(str(key)[:_SHORT]), "unknown key in a saved game")
    for key in ("players", "dealer", "rules", "stakes", "must", "actions"):
        if key not in raw:
            raise ScenarioError(_where(key), "missing: this is not a saved game")
    must = raw["must"]
    if not isinstance(must, bool):
        raise ScenarioError(_where("must"), f"must be true or false, got {excerpt(must)}")
    players = _int(raw, "players", 2)
    assert players is not None
    check_table_size(players, not must, _where("players"))
    dealer = fields.seat(raw["dealer"], players, _where("dealer"))
    try:
        options = fields.rules({"rules": raw["rules"]})
    except ScenarioError as e:
        raise ScenarioError(_where(e.field), e.problem) from None
    stakes_raw = raw["stakes"]
    if not isinstance(stakes_raw, dict) or set(stakes_raw) - set(_STAKE_KEYS):
        raise ScenarioError(_where("stakes"), f"expected {', '.join(_STAKE_KEYS)}")
    stakes: dict[str, Any] = {}
    for key in _STAKE_KEYS:
        if key in stakes_raw:
            stakes[key] = _int(
                stakes_raw, key, 0 if key == "pool" else 1, none=key == "loo_cap", within="stakes."
            )
    if options.loo_amount is LooAmount.POOL_CAPPED and stakes.get("loo_cap") is None:
        raise ScenarioError(
            _where("stakes.loo_cap"), "required with loo_amount: pool_capped (the maximum loo, R49)"
        )
    seed = _int(raw, "seed", -(10**30), none=True)
    actions = _list(raw, "actions", _MAX_ACTIONS)
    for i, a in enumerate(actions):
        if not isinstance(a, str) or len(a) > _SHORT:
            raise ScenarioError(_where(f"actions[{i}]"), f"{excerpt(a)} is not a move")
        try:
            parse_action(a)
        except (ScenarioError, ValueError):
            raise ScenarioError(_where(f"actions[{i}]"), f"{excerpt(a)} is not a move") from None
    hands: tuple[tuple[str, ...], ...] | None = None
    miss: tuple[str, ...] | None = None
    turn_up: str | None = None
    stock: tuple[str, ...] = ()
    if raw.get("hands") is not None:
        given = _list(raw, "hands", players)
        if len(given) != players:
            raise ScenarioError(_where("hands"), f"one hand for each of the {players} players")
        hands = tuple(_codes(h, _where(f"hands[{i}]"), 3) for i, h in enumerate(given))
        if raw.get("miss") is not None:
            miss = _codes(raw["miss"], _where("miss"), 3)
        elif not must:
            raise ScenarioError(_where("miss"), "missing: a deal that is not a must has a miss")
        if raw.get("turn_up") is None:
            raise ScenarioError(_where("turn_up"), "missing: the deal's turned-up card")
        turn_up = fields.card(raw["turn_up"], _where("turn_up")).code
        stock = _codes(raw.get("stock", []), _where("stock"), None)
    elif seed is None:
        raise ScenarioError(_where("seed"), "missing: a saved game gives its seed or its hands")
    penalties: list[tuple[int, int, str]] = []
    for i, p in enumerate(_list(raw, "penalties", _MAX_ACTIONS)):
        where = _where(f"penalties[{i}]")
        if not isinstance(p, list) or len(p) != 3:
            raise ScenarioError(where, "each penalty is [move index, seat, offence]")
        at, seat, name = p
        if isinstance(at, bool) or not isinstance(at, int) or not 0 <= at <= len(actions):
            raise ScenarioError(where, f"move index {excerpt(at)} is not in the game")
        s = fields.seat(seat, players, where)
        off = fields.penalties({"penalties": [{"seat": s, "offence": name}]}, players)[0][2]
        penalties.append((at, s, off.name.lower()))
    learner = raw.get("learner", {})
    if not isinstance(learner, dict) or set(learner) - {"seat", "bots", "rng_seed"}:
        raise ScenarioError(_where("learner"), "expected {seat, bots, rng_seed}")
    if "seat" in learner:
        fields.seat(learner["seat"], players, _where("learner.seat"))
    if "rng_seed" in learner:
        _int(learner, "rng_seed", -(10**30), within="learner.")
    bots = learner.get("bots")
    names = bots if isinstance(bots, list) else [bots]
    if (isinstance(bots, list) and len(bots) != players) or any(
        b is not None and (not isinstance(b, str) or len(b) > _SHORT) for b in names
    ):
        raise ScenarioError(_where("learner.bots"), "one bot name per seat (null for the learner)")
    tr = Transcript(
        players=players,
        dealer=dealer,
        options=options.to_dict(),
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
    _replay(tr)
    return tr, learner


def _replay(tr: Transcript) -> Hand:
    """Every move and penalty through the engine's checks (and the scenario loader's)."""
    try:
        setup = Setup(
            tr.players, tr.dealer, fields.rules({"rules": tr.options}), Stakes(**tr.stakes), tr.must
        )
    except TypeError:
        raise ScenarioError(_where("stakes"), "not the stakes of a deal") from None
    if tr.seed is not None and tr.hands is None:
        hand = Hand.dealt(setup, random.Random(tr.seed), seed=tr.seed)
    else:
        assert tr.hands is not None and tr.turn_up is not None
        hand = Hand(
            setup,
            [[fields.card(c, "hands") for c in h] for h in tr.hands],
            [fields.card(c, "miss") for c in tr.miss] if tr.miss else None,
            fields.card(tr.turn_up, "turn_up"),
            stock=[fields.card(c, "stock") for c in tr.stock],
        )
        problems = hand.problems()  # the engine's status(): one pack, three cards each, …
        if problems:
            raise ScenarioError(_where(problems[0].field), problems[0].reason)
    pens = sorted(enumerate(tr.penalties), key=lambda p: p[1][0])
    for i, code in enumerate((*tr.actions, None)):
        for j, (_, seat, off) in [p for p in pens if p[1][0] == i]:
            offence = fields.penalties({"penalties": [{"seat": seat, "offence": off}]}, tr.players)
            try:
                replay.penalty(hand, j, seat, offence[0][2])
            except ScenarioError as e:
                raise ScenarioError(_where(str(e.field)), e.problem) from None
        if code is None:
            break
        try:
            hand.apply(parse_action(code))
        except (IllegalAction, LooError) as e:
            raise ScenarioError(_where(f"actions[{i}]"), str(e)) from None
    return hand


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
