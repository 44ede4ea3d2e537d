"""Scenario files (shared/scenario-format.md): load, validate everything, build the position.

A scenario is refused with one `ScenarioError` naming the field and the problem; it is
never half-answered. YAML is read with the safe loader only; nothing is evaluated.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from loo_lessons.engine.cards import Card, Rank, Suit, in_hand_order, parse_card, parse_cards
from loo_lessons.engine.deal import Dealt, check_table_size, deal_from
from loo_lessons.engine.declare import Declaration
from loo_lessons.engine.errors import IllegalAction, LooError, ScenarioError
from loo_lessons.engine.game import Hand, Phase, Setup
from loo_lessons.engine.options import Ante, LooAmount, RuleOptions, VoidTrumpRule, options_from
from loo_lessons.engine.penalties import Offence
from loo_lessons.engine.settle import Settlement, Stakes, new_pool_stake, settle

CONTRACT_KEYS = (
    "title",
    "description",
    "rules",
    "players",
    "dealer",
    "turn_up",
    "trumps",
    "stake",
    "loo",
    "single_loo",
    "loo_cap",
    "pool",
    "must",
    "declarations",
    "hands",
    "miss",
    "tricks",
    "tricks_won",
    "deck",
)
#: Keys this package adds (the contract allows additions).
EXTRA_KEYS = ("penalties",)
#: Annotation keys a teacher may add; they never change the answer.
NOTE_KEYS = (
    "notes",
    "expect",
    "expected",
    "answer",
    "source",
    "sources",
    "tags",
    "question",
    "id",
    "name",
    "comment",
    "comments",
    "rule_ids",
    "topic",
    "level",
)

DECLARATION_ALIASES = {
    "play": Declaration.PLAY,
    "stand": Declaration.PLAY,
    "take_miss": Declaration.TAKE_MISS,
    "take miss": Declaration.TAKE_MISS,
    "pass": Declaration.PASS,
    "throw_up": Declaration.PASS,
    "throw up": Declaration.PASS,
    "play_miss_for_pool": Declaration.PLAY_MISS_FOR_POOL,
}


@dataclass
class Scenario:
    """A loaded, validated scenario and the position it describes."""

    data: dict[str, Any]
    options: RuleOptions
    setup: Setup
    hand: Hand
    dealt: Dealt | None = None
    settlement: Settlement | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def title(self) -> str | None:
        t = self.data.get("title")
        return str(t) if t is not None else None

    @property
    def phase(self) -> Phase:
        if (
            self.dealt is not None
            and not self.data.get("declarations")
            and "tricks" not in self.data
            and "tricks_won" not in self.data
        ):
            return Phase.DEAL
        return self.hand.phase

    @property
    def final_settlement(self) -> Settlement | None:
        return self.settlement or self.hand.settlement


# --- small readers -------------------------------------------------------------------------


def _int(data: Mapping[str, Any], key: str, default: int | None, lo: int = 0) -> int | None:
    if key in data and data[key] is None:
        raise ScenarioError(key, "is empty: give a whole number (or leave the key out)")
    v = data.get(key, default)
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, int):
        raise ScenarioError(key, f"expected a whole number, got {v!r}")
    if v < lo:
        raise ScenarioError(key, f"must be at least {lo}, got {v}")
    return v


def _seat(key: object, players: int, field_name: str) -> int:
    if isinstance(key, bool):
        raise ScenarioError(field_name, f"{key!r} is not a seat number")
    if isinstance(key, str) and key.strip().isdigit():
        key = int(key.strip())
    if not isinstance(key, int):
        raise ScenarioError(field_name, f"{key!r} is not a seat number")
    if not 0 <= key < players:
        raise ScenarioError(field_name, f"seat {key} does not exist: seats are 0 to {players - 1}")
    return key


def _mapping(data: Mapping[str, Any], key: str) -> dict[Any, Any]:
    v = data.get(key)
    if v is None:
        return {}
    if not isinstance(v, dict):
        raise ScenarioError(key, f"expected a mapping of seat to value, got {v!r}")
    return v


# --- loading -----------------------------------------------------------------------------


def _check_duplicate_keys(node: yaml.Node, path: str = "") -> None:
    """Refuse a mapping that gives a key twice (YAML would silently keep the last one)."""
    if isinstance(node, yaml.MappingNode):
        seen: dict[str, int] = {}
        for key, value in node.value:
            k = str(key.value)
            where = f"{path}.{k}" if path else k
            if k in seen:
                extra = (
                    " (R12: 'No player may make a second declaration')"
                    if path == "declarations"
                    else ""
                )
                raise ScenarioError(
                    path or k,
                    f"key {k} is given twice (lines {seen[k]} and {key.start_mark.line + 1}){extra}",
                )
            seen[k] = key.start_mark.line + 1
            _check_duplicate_keys(value, where)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            _check_duplicate_keys(item, f"{path}[{i}]")


def read_text(text: str, name: str = "scenario") -> dict[str, Any]:
    """Parse YAML (or JSON) with the safe loader only: plain data, nothing is ever evaluated."""
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
        if root is not None:
            _check_duplicate_keys(root)
        data = yaml.safe_load(text)
    except yaml.constructor.ConstructorError as e:
        problem = (getattr(e, "problem", "") or "").strip()
        if "constructor for the tag" in problem:
            raise ScenarioError(
                "file",
                f"{problem}: tags such as !!python/… are not allowed (a scenario is plain data)",
            ) from None
        mark = getattr(e, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark is not None else ""
        raise ScenarioError("file", f"malformed YAML{where}: {problem}") from None
    except yaml.YAMLError as e:
        where = ""
        mark = getattr(e, "problem_mark", None)
        if mark is not None:
            where = f" at line {mark.line + 1}, column {mark.column + 1}"
        problem = getattr(e, "problem", None) or str(e).splitlines()[0]
        raise ScenarioError("file", f"malformed YAML{where}: {problem}") from None
    if data is None:
        raise ScenarioError("file", f"{name} is empty: a scenario needs at least `players`")
    if not isinstance(data, dict):
        raise ScenarioError(
            "file",
            f"{name} must be a mapping of keys (title, players, …), got {type(data).__name__}",
        )
    return data


def load_file(path: str | Path) -> Scenario:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as e:
        raise ScenarioError("file", f"cannot read {p}: {e.strerror}") from None
    except UnicodeDecodeError:
        raise ScenarioError("file", f"{p} is not UTF-8 text") from None
    return load(read_text(text, p.name))


def loads(text: str) -> Scenario:
    return load(read_text(text))


def load(data: Mapping[str, Any]) -> Scenario:
    """Validate a scenario mapping and build its position."""
    data = dict(data)
    for key in data:
        if not isinstance(key, str) or (
            key not in CONTRACT_KEYS
            and key not in EXTRA_KEYS
            and key not in NOTE_KEYS
            and not key.startswith("x-")
        ):
            known = ", ".join((*CONTRACT_KEYS, *EXTRA_KEYS))
            notes = ", ".join(NOTE_KEYS)
            raise ScenarioError(
                str(key), f"unknown key (known: {known}; notes that change nothing: {notes}, x-…)"
            )
    for key in ("title", "description"):
        if key in data and not isinstance(data[key], str | int | float | type(None)):
            raise ScenarioError(key, f"expected text, got {type(data[key]).__name__}")
    options = options_from(data.get("rules"))
    must = data.get("must", False)
    if not isinstance(must, bool):
        raise ScenarioError("must", f"must be true or false, got {must!r}")
    players = data.get("players")
    if players is None:
        raise ScenarioError(
            "players", "required: how many sit at the table (2 to 16, 17 in a must)"
        )
    check_table_size(players, not must)
    dealer = _int(data, "dealer", 0)
    assert dealer is not None
    if dealer >= players:
        raise ScenarioError("dealer", f"seat {dealer} does not exist: seats are 0 to {players - 1}")
    stake = _int(data, "stake", 3, lo=1)
    assert stake is not None
    if options.loo_amount is LooAmount.POOL_CAPPED and data.get("loo_cap") is None:
        raise ScenarioError(
            "loo_cap", "required with loo_amount: pool_capped (the maximum loo, R49)"
        )
    if data.get("loo_cap") is not None and options.loo_amount is not LooAmount.POOL_CAPPED:
        raise ScenarioError(
            "loo_cap",
            f"only used with loo_amount: pool_capped (this scenario has {options.loo_amount})",
        )
    stakes = Stakes.make(
        stake=stake,
        loo=_int(data, "loo", None, 1),
        single_loo=_int(data, "single_loo", None, 1),
        loo_cap=_int(data, "loo_cap", None, 1),
        pool=_int(data, "pool", None),
        players=players,
        ante=options.ante,
    )
    setup = Setup(players, dealer, options, stakes, must)

    turn_up = parse_card(data["turn_up"], "turn_up") if data.get("turn_up") is not None else None
    trumps: Suit | None = None
    if data.get("trumps") is not None:
        trumps = Suit.parse(data["trumps"], "trumps")
        if turn_up is not None and turn_up.suit is not trumps:
            raise ScenarioError(
                "trumps",
                f"trumps {trumps.value} disagree with the turn-up "
                f"{turn_up.code}: the turn-up fixes trumps (R04)",
            )
    elif turn_up is not None:
        trumps = turn_up.suit

    declarations: dict[int, Declaration] = {}
    for k, v in _mapping(data, "declarations").items():
        seat = _seat(k, players, "declarations")
        d = DECLARATION_ALIASES.get(str(v).strip().lower()) if isinstance(v, str) else None
        if d is None:
            raise ScenarioError(
                f"declarations.{seat}",
                f"unknown declaration {v!r} (play, take_miss, pass, play_miss_for_pool)",
            )
        declarations[seat] = d

    tricks = _read_tricks(data, players)
    if "tricks" in data and "tricks_won" in data:
        raise ScenarioError("tricks_won", "give either tricks or tricks_won, not both")
    tricks_won: dict[int, int] | None = None
    if "tricks_won" in data:
        tricks_won = {}
        for k, v in _mapping(data, "tricks_won").items():
            seat = _seat(k, players, "tricks_won")
            if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 3:
                raise ScenarioError(f"tricks_won.{seat}", f"a number of tricks 0 to 3, got {v!r}")
            tricks_won[seat] = v
        if sum(tricks_won.values()) != 3:
            raise ScenarioError(
                "tricks_won",
                f"three tricks are played in a deal; these add up to {sum(tricks_won.values())}",
            )

    # the deck, if given, deals the hands (R03, R04); a seat now holds what it was dealt
    # less what it has played, and the taker of the miss holds the miss
    dealt: Dealt | None = None
    given_played: dict[int, list[Card]] = {}
    for trick in tricks:
        for seat, card in trick:
            given_played.setdefault(seat, []).append(card)
    taker_now = next(
        (
            s_
            for s_, d in declarations.items()
            if d in (Declaration.TAKE_MISS, Declaration.PLAY_MISS_FOR_POOL)
        ),
        None,
    )
    if data.get("deck") is not None:
        deck = parse_cards(data["deck"], "deck")
        dealt = deal_from(deck, players, dealer, must=must, position=options.miss_deal_position)
        if turn_up is not None and turn_up is not dealt.turn_up:
            raise ScenarioError(
                "turn_up", f"the deck turns up {dealt.turn_up.code}, not {turn_up.code}"
            )
        if trumps is not None and trumps is not dealt.trumps:
            raise ScenarioError(
                "trumps",
                f"trumps {trumps.value} disagree with the deck's turn-up {dealt.turn_up.code}: "
                "the turn-up fixes trumps (R04)",
            )
        turn_up, trumps = dealt.turn_up, dealt.trumps

    hands: dict[int, tuple[Card, ...]] = {}
    for k, v in _mapping(data, "hands").items():
        seat = _seat(k, players, "hands")
        hands[seat] = parse_cards(v, f"hands.{seat}")
    if dealt is not None:
        for seat in range(players):
            source = dealt.miss if seat == taker_now else dealt.hands[seat]
            what = "the miss" if seat == taker_now else "the hand the deck deals to it"
            for card in given_played.get(seat, []):
                if source is None or card not in source:
                    raise ScenarioError(
                        "tricks", f"seat {seat} plays {card.code}, which is not in {what}"
                    )
            held_now = tuple(c for c in (source or ()) if c not in given_played.get(seat, []))
            if seat in hands and set(hands[seat]) != set(held_now):
                raise ScenarioError(
                    f"hands.{seat}",
                    f"does not match {what} less the cards it has played "
                    f"({' '.join(c.code for c in held_now) or 'nothing'})",
                )
            hands[seat] = held_now
    miss: tuple[Card, ...] | None = None
    if data.get("miss") is not None:
        if must:
            raise ScenarioError(
                "miss",
                "there is no miss in a must (R45: 'In the case of a \"must\" there is no miss.')",
            )
        miss = parse_cards(data["miss"], "miss")
        if len(miss) != 3:
            raise ScenarioError("miss", f"the miss has three cards (R03), not {len(miss)}")
        if dealt is not None and dealt.miss is not None and set(miss) != set(dealt.miss):
            raise ScenarioError("miss", "does not match the miss the deck deals")
    elif dealt is not None:
        miss = dealt.miss

    _check_unique(hands, miss, declarations, tricks, turn_up)
    played: dict[int, list[Card]] = {}
    for trick in tricks:
        for seat, card in trick:
            played.setdefault(seat, []).append(card)

    # who is in: once play has begun, undeclared seats are inferred during the replay
    playing = bool(tricks) or tricks_won is not None or "tricks" in data
    rotation = setup.rotation()
    shown = set(hands) | set(played) | set(tricks_won or {})
    taker = next(
        (
            s
            for s, d in declarations.items()
            if d in (Declaration.TAKE_MISS, Declaration.PLAY_MISS_FOR_POOL)
        ),
        None,
    )

    # hands as they were when dealt (what a seat holds now + what it has played)
    start: list[list[Card]] = []
    partial: set[int] = set()
    for seat in range(players):
        now = hands.get(seat)
        then = list(now or ()) + played.get(seat, [])
        if seat == taker:
            start.append([])  # his own cards went face down unseen (R11)
            continue
        if now is None:
            partial.add(seat)
        elif len(then) != 3:
            raise ScenarioError(
                f"hands.{seat}", _size_problem(seat, len(now), len(played.get(seat, [])))
            )
        start.append(then)
    start_miss: list[Card] | None = list(miss) if miss is not None else None
    if taker is not None:
        now = hands.get(taker)
        mine = list(now or ()) + played.get(taker, [])
        if now is not None and len(mine) != 3:
            raise ScenarioError(
                f"hands.{taker}", _size_problem(taker, len(now), len(played.get(taker, [])))
            )
        if miss is not None:
            if now is not None and set(mine) != set(miss):
                raise ScenarioError(
                    "miss",
                    f"seat {taker} took the miss, so its cards (held and played) must be the miss",
                )
            stray = [c.code for c in played.get(taker, []) if c not in miss]
            if stray:
                raise ScenarioError(
                    "tricks",
                    f"seat {taker} plays {', '.join(stray)}, which is not in the miss it took",
                )
        else:
            start_miss = mine
            if now is None:
                partial.add(taker)
        if now is None and miss is not None:
            pass  # the miss tells us the taker's cards
    elif start_miss is None and not must:
        start_miss = []  # unknown, untaken: it plays no part

    hand = Hand(setup, start, start_miss, turn_up, trumps=trumps, partial=frozenset(partial))
    sc = Scenario(data, options, setup, hand, dealt)
    _check_prefix(declarations, rotation, playing)
    penalties = _read_penalties(data, players)
    # A peek before declaring forces a throw-up (R53); after standing, he plays on (R54).
    stood = {s_ for s_, d in declarations.items() if d.plays}
    early = [p for p in penalties if not p[2].info.play_phase and p[1] not in stood]
    late = [p for p in penalties if not p[2].info.play_phase and p[1] in stood]
    for i, seat, off in early:
        _apply_penalty(hand, i, seat, off)
    _replay_declarations(hand, declarations, rotation, sc, shown if playing else None)
    for i, seat, off in late:
        _apply_penalty(hand, i, seat, off)
    _replay_tricks(hand, tricks)
    for i, seat, off in penalties:
        if off.info.play_phase:
            _apply_penalty(hand, i, seat, off)
    if tricks_won is not None:
        sc.settlement = _settle_from_counts(hand, tricks_won)
    if hand.phase is Phase.PLAY and sc.settlement is None:
        if hand.trumps is None:
            raise ScenarioError("turn_up", "needed: the play cannot be ruled without trumps")
        if hand.to_act in hand.partial:
            raise ScenarioError(
                "hands", f"seat {hand.to_act} is to play now, so its hand must be given"
            )
    return sc


def _size_problem(seat: int, now: int, played: int) -> str:
    if played:
        return (
            f"seat {seat} holds {now} and has played {played}: that makes {now + played} "
            "cards, not three (R03)"
        )
    return f"a hand has three cards (R03), seat {seat} has {now}"


def _read_tricks(data: Mapping[str, Any], players: int) -> list[list[tuple[int, Card]]]:
    raw = data.get("tricks")
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise ScenarioError("tricks", f"expected a list of tricks, got {raw!r}")
    if len(raw) > 3:
        raise ScenarioError("tricks", f"a deal has three tricks, not {len(raw)}")
    out: list[list[tuple[int, Card]]] = []
    for i, trick in enumerate(raw):
        where = f"tricks[{i}]"
        if not isinstance(trick, list) or not trick:
            raise ScenarioError(where, "each trick is a non-empty list of [seat, card] plays")
        plays = []
        for j, play in enumerate(trick):
            if not isinstance(play, list | tuple) or len(play) != 2:
                raise ScenarioError(f"{where}[{j}]", f"each play is [seat, card], got {play!r}")
            plays.append(
                (_seat(play[0], players, f"{where}[{j}]"), parse_card(play[1], f"{where}[{j}]"))
            )
        out.append(plays)
    return out


def _check_unique(
    hands: Mapping[int, tuple[Card, ...]],
    miss: tuple[Card, ...] | None,
    declarations: Mapping[int, Declaration],
    tricks: list[list[tuple[int, Card]]],
    turn_up: Card | None,
) -> None:
    where: dict[Card, str] = {}
    taker = next(
        (
            s
            for s, d in declarations.items()
            if d in (Declaration.TAKE_MISS, Declaration.PLAY_MISS_FOR_POOL)
        ),
        None,
    )

    def put(card: Card, place: str, field_name: str, overlap_ok: str | None = None) -> None:
        if card in where and where[card] != overlap_ok:
            raise ScenarioError(
                field_name, f"duplicated card {card.code}: it is also in {where[card]}"
            )
        where[card] = place

    if turn_up is not None:
        put(turn_up, "the turn-up", "turn_up")
    for seat, cards in sorted(hands.items()):
        for c in cards:
            put(c, f"hands.{seat}", f"hands.{seat}")
    if miss is not None:
        for c in miss:
            put(c, "miss", "miss", overlap_ok=f"hands.{taker}" if taker is not None else None)
    for i, trick in enumerate(tricks):
        for seat, c in trick:
            put(c, f"tricks[{i}]", f"tricks[{i}]", overlap_ok="miss" if seat == taker else None)


def _check_prefix(
    declarations: Mapping[int, Declaration], rotation: tuple[int, ...], playing: bool
) -> None:
    if playing:
        return  # the gaps are inferred
    seen_gap = None
    for seat in rotation:
        if seat not in declarations:
            seen_gap = seat if seen_gap is None else seen_gap
        elif seen_gap is not None:
            raise ScenarioError(
                f"declarations.{seat}",
                f"seat {seat} declared before seat {seen_gap}: "
                "declaring goes to the left from the elder hand (R05)",
            )


def _replay_declarations(
    hand: Hand,
    declarations: Mapping[int, Declaration],
    rotation: tuple[int, ...],
    sc: Scenario,
    shown: set[int] | None,
) -> None:
    """Replay the declarations in rotation. With `shown` (play has begun), a seat that did not
    declare is taken to have stood if it shows cards, else to have thrown up where it may."""
    for seat in rotation:
        if seat in declarations:
            d = declarations[seat]
        elif shown is None or hand.phase is Phase.SETTLED:
            return
        else:
            legal = hand.legal_actions()
            d = (
                Declaration.PASS
                if tuple(legal) == (Declaration.PASS,)
                or (seat not in shown and Declaration.PASS in legal)
                else Declaration.PLAY
            )
            sc.notes.append(f"Seat {seat} did not declare: taken as '{d}'.")
        if hand.phase is Phase.SETTLED:
            # R14: everyone before the dealer threw up; the dealer takes the pool whatever he says
            if d in (Declaration.PLAY, Declaration.PASS):
                sc.notes.append(
                    f"Seat {seat}'s declaration is not needed: {hand.award_law.reason}"
                    if hand.award_law
                    else ""
                )
                return
            raise ScenarioError(
                f"declarations.{seat}",
                f"{d} is not possible: everyone before the "
                "dealer threw up, so he takes the pool without play (R14)",
            )
        try:
            hand.apply(d)
        except IllegalAction as e:
            law = e.verdict.law_for(d) if e.verdict is not None else None
            cite = f" ({law.rule}: “{law.quote.text}”)" if law else ""
            reason = law.reason if law else str(e)
            raise ScenarioError(
                f"declarations.{seat}", f"seat {seat} cannot {d.words} ({d}): {reason}{cite}"
            ) from None


def _replay_tricks(hand: Hand, tricks: list[list[tuple[int, Card]]]) -> None:
    if tricks and hand.phase is not Phase.PLAY:
        why = (
            "the declarations are not complete"
            if hand.phase is Phase.DECLARE
            else "the deal ended without play"
        )
        raise ScenarioError("tricks", f"no card can be played: {why}")
    for i, trick in enumerate(tricks):
        if i < len(tricks) - 1 and len(trick) != len(hand.players_in):
            raise ScenarioError(
                f"tricks[{i}]",
                f"only the last trick may be unfinished; this one has "
                f"{len(trick)} cards for {len(hand.players_in)} players",
            )
        if len(trick) > len(hand.players_in):
            raise ScenarioError(
                f"tricks[{i}]",
                f"a trick has one card from each player in ({len(hand.players_in)}), "
                f"not {len(trick)}",
            )
        for j, (seat, card) in enumerate(trick):
            where = f"tricks[{i}][{j}]"
            if hand.phase is not Phase.PLAY:
                raise ScenarioError(where, "the deal is already over")
            if seat not in hand.players_in:
                raise ScenarioError(
                    where, f"seat {seat} is not playing this deal (it threw up or never declared)"
                )
            if seat != hand.to_act:
                what = "lead" if j == 0 else "play"
                raise ScenarioError(
                    where,
                    f"seat {seat} played out of turn: seat {hand.to_act} was to "
                    f"{what} (R21, R29, R32)",
                )
            if card not in hand.held[seat]:
                raise ScenarioError(where, f"seat {seat} does not hold {card.code}")
            try:
                hand.apply(card)
            except IllegalAction as e:
                law = e.verdict.law_for(card) if e.verdict is not None else None
                assert law is not None
                raise ScenarioError(
                    where,
                    f"seat {seat} played {card.code}, which was illegal: "
                    f"{law.reason} ({law.rule}: “{law.quote.text}”)",
                ) from None


def _read_penalties(data: Mapping[str, Any], players: int) -> list[tuple[int, int, Offence]]:
    """The `penalties` key: a list of {seat, offence}, as (index, seat, offence)."""
    raw = data.get("penalties")
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise ScenarioError("penalties", "expected a list of {seat: N, offence: NAME}")
    out = []
    for i, item in enumerate(raw):
        where = f"penalties[{i}]"
        if not isinstance(item, dict):
            raise ScenarioError(where, "each penalty is {seat: N, offence: NAME}")
        for key in ("seat", "offence"):
            if key not in item:
                raise ScenarioError(f"{where}.{key}", "missing (each penalty is {seat, offence})")
        seat = _seat(item["seat"], players, f"{where}.seat")
        try:
            off = Offence.parse(str(item["offence"]))
        except KeyError:
            names = ", ".join(o.name.lower() for o in Offence)
            raise ScenarioError(
                f"{where}.offence", f"unknown offence {item['offence']!r} (known: {names})"
            ) from None
        out.append((i, seat, off))
    return out


def _apply_penalty(hand: Hand, i: int, seat: int, off: Offence) -> None:
    """Record one penalty, refusing offences this position makes impossible."""
    where = f"penalties[{i}]"
    o = hand.options
    if off.info.play_phase:
        if seat not in hand.players_in or hand.awarded_to is not None:
            raise ScenarioError(
                where,
                f"seat {seat} played no card this deal, so it cannot be "
                f"penalised for {off.info.words} (R07, R13)",
            )
        if off is Offence.FAIL_TO_LEAD_KING and not (
            hand.turn_up is not None and hand.turn_up.rank == Rank.ACE
        ):
            raise ScenarioError(
                where, "the king must be led only when the ace of trumps is turned up (R24, R55)"
            )
        if off is Offence.FAIL_TO_UNDERTRUMP and o.void_trump_rule is not VoidTrumpRule.MUST_TRUMP:
            raise ScenarioError(
                where,
                "under void_trump_rule: only_if_heads a player need not "
                "trump when he cannot head the trick (R36)",
            )
        if off is Offence.FAIL_TO_HEAD_IN_SUIT and not o.must_head_in_suit:
            raise ScenarioError(
                where,
                "under must_head_in_suit: false heading in the suit led is not compulsory (R34)",
            )
    if off is Offence.LOOK_AT_MISS:
        if hand.setup.must:
            raise ScenarioError(where, "there is no miss in a must (R45)")
        if hand.miss_holder == seat:
            raise ScenarioError(
                where,
                f"seat {seat} took the miss: the offence is looking at it without taking it (R51)",
            )
    hand.penalise(seat, off)


def _settle_from_counts(hand: Hand, tricks_won: Mapping[int, int]) -> Settlement:
    if hand.phase is not Phase.PLAY or hand.tricks != [[]]:
        why = (
            "the deal ended without play"
            if hand.phase is Phase.SETTLED
            else "the declarations are not complete"
        )
        raise ScenarioError("tricks_won", f"cannot settle: {why}")
    for seat, n in tricks_won.items():
        if n and seat not in hand.players_in:
            raise ScenarioError(f"tricks_won.{seat}", f"seat {seat} did not play this deal")
    s = hand.setup
    now = sum(p.amount for p in hand.penalties if p.ruling.destination == "pool_now")
    try:
        return settle(
            players=s.players,
            stakes=s.stakes,
            options=hand.options,
            players_in=hand.players_in,
            tricks_won=dict(tricks_won),
            for_pool=hand.for_pool,
            withheld_seats=sorted(hand.withheld_seats),
            penalties_now=sum(
                p.amount for p in hand.penalties if p.ruling.destination == "pool_now"
            ),
            penalties_next=sum(
                p.amount for p in hand.penalties if p.ruling.destination == "next_pool"
            ),
            penalties=hand.penalties,
        )
    except ValueError:
        raise ScenarioError(
            "tricks_won",
            f"a pool of {s.stakes.pool + now} does not divide by three, and "
            "pool_remainder: early_tricks_preference gives the odd counters to the "
            "first and second tricks: give `tricks` so their winners are known",
        ) from None


def position_mapping(
    hand: Hand,
    rules: str | Mapping[str, Any],
    *,
    seats: Iterable[int] | None = None,
    tricks: bool = True,
    turn_up: bool = True,
    miss: bool = True,
) -> dict[str, Any]:
    """The position of `hand` now, as a contract scenario mapping (JSON-ready).

    `seats` are the seats whose current cards are written (default: every seat that holds
    cards or has played); thrown-up hands are never needed (nobody may look at them, R11).
    With `miss`, the miss is written: untaken, or the cards of the seat that took it.
    """
    s = hand.setup
    st = s.stakes
    out: dict[str, Any] = {"rules": rules, "players": s.players, "dealer": s.dealer}
    if turn_up and hand.turn_up is not None:
        out["turn_up"] = hand.turn_up.code
    elif turn_up and hand.trumps is not None:
        out["trumps"] = hand.trumps.value
    out["stake"] = st.stake
    if st.loo != st.stake:  # the loader's defaults: loo = stake, single loo = loo // 2
        out["loo"] = st.loo
    if st.single_loo != max(1, st.loo // 2):
        out["single_loo"] = st.single_loo
    if st.loo_cap is not None:
        out["loo_cap"] = st.loo_cap
    out["pool"] = st.pool
    if s.must:
        out["must"] = True
    decl = {str(x): str(hand.declared[x]) for x in hand.rotation if x in hand.declared}
    if decl:
        out["declarations"] = decl
    played: dict[int, list[Card]] = {}
    for trick in hand.tricks:
        for seat, card in trick:
            played.setdefault(seat, []).append(card)
    shown = (
        [x for x in range(s.players) if hand.held[x] or x in played]
        if seats is None
        else [x for x in sorted(seats) if hand.held[x]]
    )
    if shown:
        out["hands"] = {
            str(x): [c.code for c in in_hand_order(hand.held[x], hand.trumps)] for x in shown
        }
    if miss and not s.must:
        if hand.miss is not None:
            out["miss"] = [c.code for c in hand.miss]
        elif hand.miss_holder is not None:
            taker = hand.miss_holder
            out["miss"] = [c.code for c in (*hand.held[taker], *played.get(taker, []))]
    if tricks and hand.players_in and hand.awarded_to is None:
        out["tricks"] = [[[seat, c.code] for seat, c in t] for t in hand.tricks if t]
    return out


def dump(data: Mapping[str, Any]) -> str:
    """A scenario mapping as YAML (card codes as strings)."""
    return yaml.safe_dump(json.loads(json.dumps(dict(data))), sort_keys=False, allow_unicode=True)


__all__ = [
    "Ante",
    "LooError",
    "Scenario",
    "dump",
    "load",
    "load_file",
    "loads",
    "new_pool_stake",
    "position_mapping",
]
