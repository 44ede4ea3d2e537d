"""Plain data → a checked position: the fields read (`fields`), the cards put together and
checked once each, the moves replayed through the engine (`replay`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from loo_lessons.engine.cards import Card, Suit
from loo_lessons.engine.deal import Dealt
from loo_lessons.engine.declare import Declaration
from loo_lessons.engine.game import Hand, Phase, Setup
from loo_lessons.engine.status import position_problems

from . import fields, replay
from .errors import ScenarioError
from .fields import Play
from .model import Scenario
from .text import short_refusals


@short_refusals
def load(data: Mapping[str, Any]) -> Scenario:
    """Validate a scenario mapping and build its position. Every refusal is one short,
    clean `ScenarioError` naming the field."""
    return _load(data)


def _taker(declarations: Mapping[int, Declaration]) -> int | None:
    return next(
        (
            s
            for s, d in declarations.items()
            if d in (Declaration.TAKE_MISS, Declaration.PLAY_MISS_FOR_POOL)
        ),
        None,
    )


def _played_by_seat(tricks: list[list[Play]]) -> dict[int, list[Card]]:
    played: dict[int, list[Card]] = {}
    for trick in tricks:
        for seat, card in trick:
            played.setdefault(seat, []).append(card)
    return played


def _from_deck(
    data: Mapping[str, Any],
    setup: Setup,
    turn_up: Card | None,
    trumps: Suit | None,
    taker: int | None,
    played: Mapping[int, list[Card]],
    hands: dict[int, tuple[Card, ...]],
) -> Dealt:
    """The deck deals the hands (R03, R04); a seat now holds what it was dealt less what it
    has played, and the taker of the miss holds the miss. Fills in `hands`."""
    deck = fields.cards(data["deck"], "deck")
    dealt = setup.deal_from(deck)
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
    for seat in range(setup.players):
        source = dealt.miss if seat == taker else dealt.hands[seat]
        what = "the miss" if seat == taker else "the hand the deck deals to it"
        for card in played.get(seat, []):
            if source is None or card not in source:
                raise ScenarioError(
                    "tricks", f"seat {seat} plays {card.code}, which is not in {what}"
                )
        held_now = tuple(c for c in (source or ()) if c not in played.get(seat, []))
        if seat in hands and set(hands[seat]) != set(held_now):
            raise ScenarioError(
                f"hands.{seat}",
                f"does not match {what} less the cards it has played "
                f"({' '.join(c.code for c in held_now) or 'nothing'})",
            )
        hands[seat] = held_now
    return dealt


@dataclass(frozen=True)
class _Given:
    """What a scenario file gives, each field read and checked on its own (`fields`)."""

    data: dict[str, Any]
    setup: Setup
    turn_up: Card | None
    trumps: Suit | None  # as given (the engine says whether they agree with the turn-up)
    declarations: dict[int, Declaration]
    tricks: list[list[Play]]
    tricks_won: dict[int, int] | None
    winners: list[int] | None
    hands: dict[int, tuple[Card, ...]]  # as given
    miss: tuple[Card, ...] | None

    @property
    def playing(self) -> bool:
        """Play has begun (or the deal was played out): undeclared seats are then inferred."""
        return (
            bool(self.tricks)
            or self.tricks_won is not None
            or self.winners is not None
            or "tricks" in self.data
        )


def _read(data: dict[str, Any]) -> _Given:
    fields.check_keys(data)
    setup = fields.table(data, fields.rules(data))
    players = setup.players
    turn_up, trumps = fields.turn_up_and_trumps(data)
    return _Given(
        data=data,
        setup=setup,
        turn_up=turn_up,
        trumps=trumps,
        declarations=fields.declarations(data, players),
        tricks=fields.tricks(data, players),
        tricks_won=fields.tricks_won(data, players),
        winners=fields.trick_winners(data, players),
        hands={
            s: fields.cards(v, f"hands.{s}")
            for s, v in fields.seat_mapping(data, "hands", players).items()
        },
        miss=fields.cards(data["miss"], "miss") if data.get("miss") is not None else None,
    )


def _load(data: Mapping[str, Any]) -> Scenario:
    g = _read(dict(data))
    played = _played_by_seat(g.tricks)
    taker = _taker(g.declarations)
    hands = dict(g.hands)  # a deck deals the rest
    turn_up, miss = g.turn_up, g.miss
    trumps = turn_up.suit if turn_up is not None else g.trumps
    dealt: Dealt | None = None
    if g.data.get("deck") is not None:
        dealt = _from_deck(g.data, g.setup, turn_up, g.trumps, taker, played, hands)
        turn_up, trumps = dealt.turn_up, dealt.trumps
        if miss is not None and dealt.miss is not None and set(miss) != set(dealt.miss):
            raise ScenarioError("miss", "does not match the miss the deck deals")
        miss = dealt.miss if miss is None else miss
    # the engine says what is wrong with the cards as given (one place for each refusal);
    # a deck deals thrown-up seats too, but what they hold now is nothing
    thrown_up = {s for s, d in g.declarations.items() if d is Declaration.PASS}
    now = {s: h for s, h in hands.items() if s in g.hands or s not in thrown_up}
    _refuse_problems(g, now, miss, turn_up, g.declarations)
    shows_deal = dealt is not None and not g.declarations and not g.playing
    hand = _start(g.setup, hands, miss, taker, played, turn_up, trumps, shows_deal=shows_deal)
    sc = Scenario(g.data, g.setup.options, g.setup, hand, dealt)
    _replay(g, sc, shown=set(hands) | set(played))
    if dealt is None:  # a seat taken to have thrown up holds nothing now either
        _refuse_problems(g, g.hands, None, turn_up, hand.declared)
    return sc


def _replay(g: _Given, sc: Scenario, shown: set[int]) -> None:
    """The moves, in the order they were made: penalties before declaring, the declarations,
    penalties after standing, the tricks, play-phase penalties, and the settlement."""
    hand = sc.hand
    rotation = g.setup.rotation()
    replay.check_prefix(g.declarations, rotation, g.playing)
    penalties = fields.penalties(g.data, g.setup.players)
    # A peek before declaring forces a throw-up (R53); after standing, he plays on (R54).
    stood = {s for s, d in g.declarations.items() if d.plays}
    early = [p for p in penalties if not p[2].info.play_phase and p[1] not in stood]
    late = [p for p in penalties if not p[2].info.play_phase and p[1] in stood]
    for i, seat, off in early:
        replay.penalty(hand, i, seat, off)
    shown |= set(g.tricks_won or {}) | set(g.winners or ())
    replay.declarations(hand, g.declarations, rotation, sc, shown if g.playing else None)
    for i, seat, off in late:
        replay.penalty(hand, i, seat, off)
    known = {c for h in hand.held for c in h} | set(hand.miss or ()) | set(played_cards(g.tricks))
    known |= {c for h in g.hands.values() for c in h} | set(g.miss or ()) | set(hand.discards)
    if hand.turn_up is not None:
        known.add(hand.turn_up)
    replay.tricks(hand, g.tricks, known)
    for i, seat, off in penalties:
        if off.info.play_phase:
            replay.penalty(hand, i, seat, off)
    if g.tricks_won is not None or g.winners is not None:
        sc.settlement = hand.settle_by(tricks_won=g.tricks_won, trick_winners=g.winners)
    if hand.phase is Phase.PLAY and hand.trumps is None:
        raise ScenarioError("turn_up", "needed: the play cannot be ruled without trumps")


def _refuse_problems(
    g: _Given,
    hands: Mapping[int, tuple[Card, ...]],
    miss: tuple[Card, ...] | None,
    turn_up: Card | None,
    declarations: Mapping[int, Declaration],
) -> None:
    """Refuse the first fault the engine finds in the position as given (`position_problems`)."""
    s = g.setup
    problems = position_problems(
        players=s.players,
        dealer=s.dealer,
        must=s.must,
        hands=hands,
        miss=miss,
        turn_up=turn_up,
        trumps=g.trumps,
        declarations=declarations,
        tricks=g.tricks,
    )
    if problems:
        raise problems[0].error()


def played_cards(tricks: list[list[Play]]) -> list[Card]:
    """Every card played in the tricks given, trick by trick."""
    return [c for t in tricks for _, c in t]


def _start(
    setup: Setup,
    hands: Mapping[int, tuple[Card, ...]],
    miss: tuple[Card, ...] | None,
    taker: int | None,
    played: Mapping[int, list[Card]],
    turn_up: Card | None,
    trumps: Suit | None,
    *,
    shows_deal: bool,
) -> Hand:
    """The hands as they were dealt (what a seat holds now + what it has played); seats whose
    hands are not given are `partial`: only the cards they played are known. The sizes were
    checked by the engine (`position_problems`)."""
    start: list[list[Card]] = []
    partial: set[int] = set()
    for seat in range(setup.players):
        now = hands.get(seat)
        then = list(now or ()) + played.get(seat, [])
        if seat == taker:
            start.append([])  # his own cards went face down unseen (R11)
            continue
        if now is None:
            partial.add(seat)
        start.append(then)
    start_miss: list[Card] | None = list(miss) if miss is not None else None
    if taker is not None:
        now = hands.get(taker)
        mine = list(now or ()) + played.get(taker, [])
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
    elif start_miss is None and not setup.must:
        start_miss = []  # unknown, untaken: it plays no part
    return Hand(
        setup,
        start,
        start_miss,
        turn_up,
        trumps=trumps,
        partial=frozenset(partial),
        shows_deal=shows_deal,
    )
