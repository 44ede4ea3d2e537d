"""A table of pupils, the engine as referee: the setup, the seats, every move checked.

The rules are the engine's: `engine.table.Table` deals deal after deal (the deal passes to
the left, the pool carries, a single makes the next deal a must, penalties, the ledger) and
`Hand.legal_actions` / its verdict say whether a move may be made and by which law. This
module only seats pupils, asks a bot (`sim.bots`) to move for every seat nobody plays (an
empty seat, or a pupil who has gone quiet), numbers the moves so that a replayed or
reordered message is refused, and keeps them (`store`) so that `replay` rebuilds the table,
every move checked again.

What a seat is told is built from `engine.observation.seat_view` (its own cards, the turn-up,
what has been played, the declarations) and the table's public facts (names, whose turn,
tricks, pool, ledger), never from the hidden hands: see `seat_json`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from loo_lessons.classroom.tables.store import MoveRow, Store
from loo_lessons.engine.cards import Card
from loo_lessons.engine.errors import LooError, NotationError
from loo_lessons.engine.game import Action, Hand, parse_action
from loo_lessons.engine.observation import SeatView, seat_view
from loo_lessons.engine.options import RuleOptions, options_from
from loo_lessons.engine.table import Table as EngineTable
from loo_lessons.explain import law_json, words
from loo_lessons.explain.settlement import settlement_lines
from loo_lessons.explain.table import action_key, action_label
from loo_lessons.scenario.evening import MAX_DEALS
from loo_lessons.sim.bots import bot_move, get_bot
from loo_lessons.sim.evening import EveningSetup, setup_of

#: The keys a table's setup may have (`TableSetup.as_json`).
SETUP_KEYS = frozenset(
    {"players", "rules", "stake", "loo", "loo_cap", "deals", "bots", "seed", "bank", "wait", "demo"}
)
#: Most seats at a class's table: Loo is a round game for five to eight (three can play); the
#: engine deals to two and to sixteen (A18); a classroom's table seats 3 to 8.
MIN_SEATS, MAX_SEATS = 3, 8
#: The longest move key a pupil may send ("play_miss_for_pool" and a margin).
MAX_KEY = 40
#: What a classroom's table takes (counters): the engine and a saved evening take up to a
#: million, but a stake of 100,000 at a class's table is a typo, refused in words.
CLASS_BOUNDS: dict[str, tuple[int, int]] = {
    "stake": (1, 100),
    "loo": (1, 1_000),
    "loo_cap": (1, 10_000),
    "bank": (0, 100_000),
}
#: The deals of the ledger a seat's view carries (the last ones; `ledger_deals` counts them
#: all): a view stays the same small size however long the evening (issue 36).
LEDGER_IN_VIEW = 2
#: Where the end of a table is ruled: the books say nothing of it (V15).
END_RULE = "V15"
END_BOOK = "none of the books; Peel's way out: the pool is split"


class TableError(LooError):
    """A request the table refuses, in one line; `status` is its HTTP status."""

    status = 400


class NotYours(TableError):
    """A move for a seat the pupil does not hold (403)."""

    status = 403


class OutOfTurn(TableError):
    """A move out of turn, after the table is over, or with a stale move number (409)."""

    status = 409


class Illegal(TableError):
    """A move the rules forbid (422): `law` is the engine's law (rule id, reason, the book's
    quote and name), as the play table shows it."""

    status = 422

    def __init__(self, message: str, law: dict[str, Any] | None) -> None:
        super().__init__(message)
        self.law = law


@dataclass(frozen=True, slots=True)
class TableSetup:
    """A table as the teacher opens it: players (3 to 8 with a miss, as an evening), the
    rules (a preset and its options), the stake, the loo (None: the stake, R39) or unlimited
    loo with its cap (the rules' option and `loo_cap`), the deals to play (None: until the
    teacher stops it), the bot for each seat no pupil plays, the seed of the deals, each
    player's counters to start with, whether the table waits for the teacher's Start
    (`wait`, the default: the pupils sit down first; else the first pupil to sit down starts
    it), and whether the bots play every seat (`demo`: nobody sits, the bots play a move a
    second, for the projector)."""

    players: int = 5
    rules: RuleOptions = field(default_factory=lambda: options_from("hoffmann"))
    stake: int = 3
    loo: int | None = None
    loo_cap: int | None = None
    deals: int | None = None
    bots: tuple[str, ...] = ("sensible",) * 5  # one per seat
    seed: int = 0
    bank: int = 100
    wait: bool = True
    demo: bool = False

    def engine_table(self) -> EngineTable:
        """The engine's table these seats play at, made as an evening's (`EveningSetup.table`):
        the first deal dealt by seat 0."""
        return EveningSetup(
            self.seed, self.players, self.rules, stake=self.stake, loo=self.loo,
            loo_cap=self.loo_cap, bank=self.bank,
        ).table()

    def as_json(self) -> dict[str, Any]:
        """The setup as plain data (stored with the table; `table_setup` reads it back)."""
        return {
            "players": self.players,
            "rules": self.rules.to_dict(),
            "stake": self.stake,
            "loo": self.loo,
            "loo_cap": self.loo_cap,
            "deals": self.deals,
            "bots": list(self.bots),
            "seed": self.seed,
            "bank": self.bank,
            "wait": self.wait,
            "demo": self.demo,
        }


def table_setup(raw: Mapping[str, Any]) -> TableSetup:
    """A checked `TableSetup` from plain data (a teacher's form or JSON, or `as_json`), or a
    `TableError` naming the field. The numbers, rules and bots pass the one check of an
    evening's table (`sim.evening.setup_of`); `deals` is a whole number 1 to `MAX_DEALS` or
    None."""
    unknown = sorted(str(k)[:30] for k in raw if k not in SETUP_KEYS)
    if unknown:
        raise TableError(f"{unknown[0]}: unknown key (known: {', '.join(sorted(SETUP_KEYS))})")
    players = raw.get("players", 5)
    deals = raw.get("deals")
    if deals is not None and (isinstance(deals, bool) or not isinstance(deals, int) or not 1 <= deals <= MAX_DEALS):
        raise TableError(f"deals: expected a whole number from 1 to {MAX_DEALS}, or none (until stopped)")
    rules = raw.get("rules", "hoffmann")
    if not isinstance(rules, str | dict):
        raise TableError("rules: expected a preset name or a mapping of options")
    bots = raw.get("bots", "sensible")
    if isinstance(bots, list) and all(isinstance(b, str) for b in bots):
        bots = tuple(bots)
    elif not isinstance(bots, str):
        raise TableError("bots: expected a bot's name, or one per seat")
    stakes = {k: raw[k] for k in ("stake", "loo", "loo_cap", "bank") if k in raw}
    for key, (lo, hi) in CLASS_BOUNDS.items():
        v = stakes.get(key)
        if isinstance(v, int) and not isinstance(v, bool) and not lo <= v <= hi:
            raise TableError(f"{key}: a class's table takes {lo:,} to {hi:,} counters, got {v:,}")
    try:
        ev = setup_of(raw.get("seed", 0), players, rules, 0, bots, **stakes)
    except LooError as e:
        field_, _, problem = str(e).partition(": ")
        raise TableError(f"{field_}: {problem}" if problem else str(e)) from None
    if not MIN_SEATS <= ev.players <= MAX_SEATS:
        raise TableError(f"players: a table seats {MIN_SEATS} to {MAX_SEATS}, got {ev.players}")
    wait = raw.get("wait", True)
    if not isinstance(wait, bool):
        raise TableError("wait: expected true (the teacher starts the table, the default) or false")
    demo = raw.get("demo", False)
    if not isinstance(demo, bool):
        raise TableError("demo: expected true (the bots play every seat, nobody sits) or false")
    names = ev.bots * ev.players if len(ev.bots) == 1 else ev.bots
    return TableSetup(
        ev.players, ev.rules, ev.stake, ev.loo, ev.loo_cap, deals, names, ev.seed, ev.bank, wait, demo
    )


def _law_words(law: Mapping[str, Any]) -> str:
    return f"{law['reason']} ({law['rule_id']}; {law['book']})"


class Table:
    """One table: its setup, the pupils in its seats, the deal being played, the moves made.

    `move` is a pupil's move (checked: their seat, their turn, the number they saw, the
    rules); then the bots move for every seat nobody plays until a pupil is to act. Every
    accepted batch of moves goes to the store (when there is one) at once, in one
    transaction. `away` seats are played by their bot until the pupil comes `back`."""

    def __init__(self, table_id: str, setup: TableSetup, store: Store | None = None) -> None:
        self.id = table_id
        self.setup = setup
        self.store = store
        self.engine = setup.engine_table()
        self.hands: list[Hand] = []  # the deals finished and settled
        self.hand = self.engine.new_hand()
        self.number = 0  # the next move's number (moves made so far, every deal)
        self.pupils: dict[int, str] = {}
        self.away: set[int] = set()
        self.stopped = False
        self.started = not setup.wait  # a table that waits is started by the teacher (`start`)
        self.refused: dict[int, dict[str, Any]] = {}  # the last refusal, seat by seat
        #: Each seat's share of the pool left when the table ended (`engine.table.Table.end`),
        #: or None while it plays.
        self.shares: tuple[int, ...] | None = None

    # --- seats ------------------------------------------------------------------------------------
    @property
    def deal(self) -> int:
        """The deal being played, or the last one once the table has played its deals (1 for
        the first)."""
        return len(self.hands) if self.hands and self.hand is self.hands[-1] else len(self.hands) + 1

    def finished(self) -> bool:
        """Has the table played its deals, or been stopped?"""
        return self.stopped or (bool(self.hands) and self.hand is self.hands[-1])

    def seat_of(self, name: str) -> int | None:
        """The seat pupil `name` holds here, or None."""
        for s, n in self.pupils.items():
            if n == name:
                return s
        return None

    def sit(self, name: str, seat: int | None = None) -> int:
        """Seat `name` (at `seat`, or the first seat nobody holds); their seat if they sit here
        already. The bot of that seat stops playing it at once."""
        mine = self.seat_of(name)
        if mine is not None:
            self.away.discard(mine)
            return mine
        if self.setup.demo:
            raise OutOfTurn(f"table {self.id} is the bots' demo: nobody sits there")
        free = [s for s in range(self.setup.players) if s not in self.pupils]
        if seat is None:
            if not free:
                raise OutOfTurn(f"table {self.id} is full: every seat has a pupil")
            seat = free[0]
        elif isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.setup.players:
            raise TableError(f"seat: seats are 0 to {self.setup.players - 1}")
        elif seat not in free:
            raise OutOfTurn(f"seat {seat} has a pupil already")
        if self.store is not None:
            self.store.seat(self.id, seat, name)
        self.pupils[seat] = name
        return seat

    def played_by_bot(self, seat: int) -> bool:
        """Does the seat's bot play it (no pupil holds it, or its pupil is away)?"""
        return seat not in self.pupils or seat in self.away

    def set_away(self, seat: int, away: bool) -> list[MoveRow]:
        """The pupil at `seat` gone quiet (their bot plays for them) or back; the bots' moves
        this made."""
        if away:
            self.away.add(seat)
        else:
            self.away.discard(seat)
        return self.advance()

    # --- moves ------------------------------------------------------------------------------------
    def check(self, name: str, seat: object, key: object, expected: object) -> Action:
        """The action of a pupil's move, or a `TableError` saying in one line why not. Nothing
        changes either way."""
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise TableError("seat: expected a seat number")
        if isinstance(expected, bool) or not isinstance(expected, int):
            raise TableError("number: expected the move number the table showed")
        if not isinstance(key, str) or not key or len(key) > MAX_KEY:
            raise TableError("move: expected a card code or a declaration")
        if self.pupils.get(seat) != name:
            raise NotYours(f"seat {seat} is not yours" if 0 <= seat < self.setup.players else "seat: no such seat")
        if self.finished():
            raise OutOfTurn(f"table {self.id} is over: no more moves")
        if not self.started:
            raise OutOfTurn(f"table {self.id} waits for the teacher to start it")
        if expected != self.number:
            raise OutOfTurn(f"move {expected} is not the table's next ({self.number}): a move was made since")
        if self.hand.to_act != seat:
            raise OutOfTurn(f"it is not your turn: seat {self.hand.to_act} is to act")
        try:
            a = parse_action(key)
        except (NotationError, ValueError):
            raise TableError("move: not a card code or a declaration") from None
        legal = self.hand.legal_actions()
        if a in legal:
            return a
        if isinstance(a, Card) and a not in self.hand.held[seat]:
            # the card is not echoed: it may be another seat's, and a refusal is shown
            raise Illegal("you do not hold that card", None)
        law = legal.verdict().law_for(a)
        if law is not None:
            j = law_json(law, self.setup.rules)
            what = f"play {words.card_label(a, the=True)}" if isinstance(a, Card) else words.declared_words(a, you=True)
            raise Illegal(f"you may not {what}: {_law_words(j)}", j)
        options = ", ".join(action_label(x) for x in legal)
        raise Illegal(f"{action_label(a)} is not one of your moves now ({options})", None)

    def move(self, name: str, seat: object, key: object, expected: object) -> list[MoveRow]:
        """`name`'s move at `seat` (checked by `check`; a refusal is kept for that seat's view
        and raised), then the bots' answers; the moves made, stored."""
        try:
            a = self.check(name, seat, key, expected)
        except TableError as e:
            if isinstance(seat, int) and self.pupils.get(seat) == name:
                self.refused[seat] = {
                    "error": str(e),
                    "law": getattr(e, "law", None),
                    "number": self.number,
                }
            raise
        assert isinstance(seat, int)
        self.refused.pop(seat, None)
        rows = [self._apply(a, by_bot=False)]
        rows += self._advance()
        if self.store is not None:
            self.store.append(self.id, rows)
        return rows

    def advance(self) -> list[MoveRow]:
        """The bots move for every seat nobody plays until a pupil is to act; stored."""
        rows = self._advance()
        if self.store is not None:
            self.store.append(self.id, rows)
        return rows

    def present(self) -> bool:
        """Is a pupil at the table (seated and not gone quiet)? Bots alone never play on:
        a table nobody watches would play its every deal at once."""
        return any(s not in self.away for s in self.pupils)

    def _advance(self) -> list[MoveRow]:
        rows = []
        while (
            not self.stopped
            and self.started
            and self.hand.to_act is not None
            and self.played_by_bot(self.hand.to_act)
            and self.present()
        ):
            rows.append(self._bot_move())
        return rows

    def _bot_move(self) -> MoveRow:
        seat = self.hand.to_act
        assert seat is not None
        # each bot move from its own seed: the same table makes the same moves, however
        # often it was replayed or who was away
        rng = random.Random(f"table:{self.setup.seed}:{self.number}")
        return self._apply(bot_move(self.hand, get_bot(self.setup.bots[seat]), rng), by_bot=True)

    def _apply(self, a: Action, *, by_bot: bool) -> MoveRow:
        seat = self.hand.to_act
        assert seat is not None
        row = MoveRow(self.deal, self.number, seat, action_key(a), by_bot)
        self.hand.apply(a)  # the engine checks it again
        self.number += 1
        if self.hand.to_act is None:
            self._next_deal()
        return row

    def _next_deal(self) -> None:
        """Settle the finished deal at the table (the engine pays it out, moves the deal to
        the left and forms the next pool) and deal the next, unless the table's deals are
        played (the finished deal then stays, settled, on the table)."""
        last = len(self.hands) + 1 >= (self.setup.deals or MAX_DEALS)
        self.engine.settle_hand(self.hand, last=last)  # the last: nobody stakes for a next deal
        self.hands.append(self.hand)
        if last:
            self.shares = self.engine.end()  # the pool left is shared out
            return
        self.hand = self.engine.new_hand()

    def stop(self) -> None:
        """The teacher stops the table: no more moves; the deal being played is abandoned and
        what its pool holds is shared out (`engine.table.Table.end`)."""
        self.stopped = True
        if self.shares is None:
            self.shares = self.engine.end()

    def step(self) -> list[MoveRow]:
        """One bot's move at a started demo table (the bots play every seat, a move at a time,
        so that the projector can follow); stored. Nothing at any other table."""
        if not (self.setup.demo and self.started and not self.finished() and self.hand.to_act is not None):
            return []
        rows = [self._bot_move()]
        if self.store is not None:
            self.store.append(self.id, rows)
        return rows

    def start(self) -> list[MoveRow]:
        """The teacher starts a table that waited for the pupils to sit down: the bots before
        the first pupil to act move (stored)."""
        if self.started:
            raise OutOfTurn(f"table {self.id} has started already")
        self.started = True
        if self.store is not None:
            self.store.start_table(self.id)
        return self.advance()

    # --- what a seat is told --------------------------------------------------------------------
    def public_json(self) -> dict[str, Any]:
        """What everyone at the table, and the projector, may know: the seats' names, whose
        turn, the deal's public facts (`seat_view` without a seat's own cards), the balances,
        the pool and the ledger."""
        h = self.hand
        to_act = None if self.finished() or not self.started else h.to_act
        v = seat_view(h, 0)
        return {
            "table": self.id,
            "number": self.number,
            "deal": self.deal,
            "deals": self.setup.deals,
            "over": self.finished(),
            "waiting": not self.started,
            "demo": self.setup.demo,
            "players": self.setup.players,
            "seats": [
                {
                    "seat": s,
                    "name": self.pupils.get(s),
                    "bot": self.setup.bots[s] if self.played_by_bot(s) else None,
                    "away": s in self.away,
                }
                for s in range(self.setup.players)
            ],
            "to_act": to_act,
            "public": _public(v),
            "balances": list(self.engine.balances),
            "pool": self.engine.pool,
            "total": self.engine.total(),
            "ledger": self.ledger(),
        }

    def seat_json(self, seat: int, public: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """What `seat` may know: `public_json` (given as `public` when it was built already for
        another seat) with only the ledger's last `LEDGER_IN_VIEW` deals and their count
        (`ledger_deals`: the whole ledger is on the teacher's pages), and its own cards
        (`seat_view`), its legal moves when it is to act, and its last refused move."""
        out = dict(public if public is not None else self.public_json())
        ledger = out["ledger"]
        out["ledger"], out["ledger_deals"] = ledger[-LEDGER_IN_VIEW:], len(self.engine.history)
        v = seat_view(self.hand, seat)
        out["seat"] = seat
        out["you"] = self.pupils.get(seat)
        out["hand"] = [c.code for c in v.hand]
        out["put_down"] = [c.code for c in v.put_down]
        mine = out["to_act"] == seat
        out["your_turn"] = mine
        out["legal"] = (
            [{"key": action_key(a), "label": action_label(a)} for a in self.hand.legal_actions()] if mine else []
        )
        out["refused"] = self.refused.get(seat)
        return out

    def ledger(self) -> list[dict[str, Any]]:
        """Every deal settled, as the table's ledger keeps it (`engine.table.DealRecord`), with
        the settlement's lines (text, rule id, book). Once the table has ended, its last line
        says how the pool left was shared out (`shares`), and its balances are the final
        counters: the end of the last deal, or a deal stopped half played (`abandoned`)."""
        deals: list[dict[str, Any]] = [
            {
                "deal": rec.number,
                "dealer": rec.dealer,
                "must": rec.must,
                "pool": rec.pool,
                "balances": list(rec.balances),
                "next_pool": rec.settlement.next_pool,
                "lines": [
                    {"text": x["text"], "rule_id": x["rule_id"], "book": x["book"]}
                    for x in settlement_lines(rec.settlement, hand)
                ],
            }
            for rec, hand in zip(self.engine.history, self.hands, strict=True)
        ]
        if self.shares is None:
            return deals
        if not (self.hands and self.hand is self.hands[-1]):  # stopped in the middle of a deal
            h = self.hand
            deals.append(
                {
                    "deal": self.deal,
                    "dealer": h.setup.dealer,
                    "must": h.setup.must,
                    "pool": sum(self.shares),
                    "balances": [],
                    "next_pool": 0,
                    "lines": [],
                    "abandoned": True,
                }
            )
        last = deals[-1]
        last["balances"], last["shares"], last["next_pool"] = list(self.engine.balances), list(self.shares), 0
        last["lines"] = [*last["lines"], {"text": _end_words(self.shares), "rule_id": END_RULE, "book": END_BOOK}]
        return deals


def _end_words(shares: tuple[int, ...]) -> str:
    """The last line of a table's ledger: the pool left, shared out."""
    left = sum(shares)
    if not left:
        return "The table ends with the pool empty: nothing to share out."
    each = ", ".join(f"seat {s}: {n}" for s, n in enumerate(shares))
    return f"The table ends: the {left} counters left in the pool are shared out ({each})."


def _public(v: SeatView) -> dict[str, Any]:
    """The public part of a seat's view: everything but its own cards."""
    return {
        "dealer": v.dealer,
        "phase": v.phase.value,
        "must": v.must,
        "turn_up": v.turn_up.code if v.turn_up is not None else None,
        "trumps": v.trumps.value if v.trumps is not None else None,
        "declarations": [[s, str(d)] for s, d in v.declarations],
        "players_in": list(v.players_in),
        "tricks": [[[s, c.code] for s, c in t] for t in v.tricks],
        "winners": list(v.winners),
        "pool": v.pool,
        "stake": v.stake,
        "loo": v.loo,
        "miss_holder": v.miss_holder,
    }


def replay(store: Store, table_id: str) -> Table:
    """The table `table_id` rebuilt from the store: its setup, its pupils, and every move
    made again through the engine (a move out of order, out of turn or against the rules is
    a `LooError`)."""
    t = Table(table_id, table_setup(store.setup(table_id)))
    for seat, name in sorted(store.seats(table_id).items()):
        t.sit(name, seat)
    t.started = t.started or store.started(table_id)
    for row in store.moves(table_id):
        if row.number != t.number or row.deal != t.deal or t.finished():
            raise LooError(f"table {table_id}: move {row.number} is out of order")
        if row.seat != t.hand.to_act:
            raise LooError(f"table {table_id}: move {row.number}: seat {row.seat} was not to act")
        t._apply(parse_action(row.action), by_bot=row.by_bot)
    if store.closed(table_id) and not t.finished():  # stopped half played (else its deals were played)
        t.stop()
    t.store = store
    return t
