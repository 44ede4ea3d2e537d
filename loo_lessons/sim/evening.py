"""An evening of Loo: deal after deal at one table, the learner at one seat (or, passed and
played, several people at their seats: `EveningSetup.people`), bots at the others.

Everything the evening decides is `engine.table.Table`'s: the dealer's rotation, the pool
carried forward (loos, the new dealer's stake, remainders by the rules' option), a single
turning the next deal into a must, unlimited loo growing to its cap and falling back, and
the ledger of counters. Each deal is played as the play widget plays one
(`sim.game.BotGame`): the bots' draws come from a `random.Random` seeded by the evening's
seed and the deal's number, so an evening saved as its moves (`as_json`) replays exactly
(`load` and `from_json`: the guarded reader in `scenario.evening`, then every move
replayed through the engine).

Written once for the terminal (`views.evening`) and the widget
(`widgets.controllers.evening`): neither decides a rule.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from loo_lessons.engine.errors import InputError, LooError
from loo_lessons.engine.game import Action, Hand
from loo_lessons.engine.options import RuleOptions, options_from
from loo_lessons.engine.table import DealRecord, Table
from loo_lessons.explain.settlement import settlement_lines
from loo_lessons.explain.table import action_key
from loo_lessons.scenario.errors import ScenarioError
from loo_lessons.scenario.evening import (
    FORMAT,
    MAX_DEALS,
    SavedEvening,
    check_people,
    check_table,
    evening_from,
    read_evening,
)
from loo_lessons.scenario.text import short_refusals
from loo_lessons.sim.bots import BOTS, get_bot
from loo_lessons.sim.game import BotGame

#: What hears a bot's move as it is made: (seat, action, tricks complete before it).
Said = Callable[[int, Action, int], None]


@dataclass(frozen=True, slots=True)
class EveningSetup:
    """The table of an evening: who sits where, the rules and the stakes (`engine.table`)."""

    seed: int = 0
    players: int = 5
    rules: RuleOptions = field(default_factory=lambda: options_from("hoffmann"))
    seat: int = 1
    bots: tuple[str, ...] = ("sensible",)  # one for all, or one per seat (the learner's ignored)
    stake: int = 3
    loo: int | None = None
    loo_cap: int | None = None
    bank: int = 100
    dealer: int = 0  # the first deal's dealer
    people: tuple[int, ...] = ()  # pass-and-play: every seat a person plays (`seat` among them)
    names: tuple[str, ...] = ()  # their names, in the order of `people`

    def seats(self) -> tuple[int, ...]:
        """The seats people play: `people`, or the learner's alone."""
        return self.people or (self.seat,)

    def bot_names(self) -> tuple[str | None, ...]:
        """The bot in each seat, None for the learner's (one bot name for all seats, or one per
        seat)."""
        names = self.bots * self.players if len(self.bots) == 1 else self.bots
        people = self.seats()
        return tuple(None if s in people else names[s] for s in range(self.players))

    def table(self) -> Table:
        """The engine's table of this evening: its players and rules, the deals shuffled from
        its seed, its stakes and counters, its first dealer."""
        return Table(
            self.players,
            self.rules,
            random.Random(self.seed),
            stake=self.stake,
            loo=self.loo,
            loo_cap=self.loo_cap,
            bank=self.bank,
            dealer=self.dealer,
        )

    def as_json(self) -> dict[str, Any]:
        """The setup as a saved evening writes it: seed, table, rules, seat, bots and stakes."""
        return {
            "seed": self.seed,
            "players": self.players,
            "rules": self.rules.to_dict(),
            "seat": self.seat,
            "bots": list(self.bot_names()),
            "stake": self.stake,
            "loo": self.loo,
            "loo_cap": self.loo_cap,
            "bank": self.bank,
            "dealer": self.dealer,
            # a one-learner evening is saved as it always was
            **({"people": list(self.people), "names": list(self.names)} if self.people else {}),
        }


def setup_of(
    seed: int = 0,
    players: int = 5,
    rules: str | RuleOptions | Mapping[str, Any] | None = "hoffmann",
    seat: int = 1,
    bots: str | Sequence[str | None] = "sensible",
    *,
    people: Sequence[int] = (),
    names: Sequence[str] = (),
    **stakes: Any,
) -> EveningSetup:
    """An `EveningSetup` from plain arguments (a bot name for every seat, or one per seat;
    `people` and their `names`: pass-and-play, `scenario.evening.check_people`).
    Its numbers pass the same check as a saved evening's (`scenario.evening.check_table`):
    an evening that starts can be saved and resumed."""
    check_table({"seed": seed, "players": players, **stakes})
    opts = rules if isinstance(rules, RuleOptions) else options_from(dict(rules) if isinstance(rules, Mapping) else rules)
    if not 0 <= seat < players:
        raise LooError(f"seat {seat} does not exist: seats are 0 to {players - 1}")
    if not 0 <= stakes.get("dealer", 0) < players:
        raise LooError(f"dealer: seat {stakes['dealer']} does not exist: seats are 0 to {players - 1}")
    bot_list = (bots,) if isinstance(bots, str) else tuple(b or "sensible" for b in bots)
    if len(bot_list) not in (1, players):
        raise LooError(f"bots: one name for all, or one per seat ({players})")
    for b in bot_list:
        if b not in BOTS or b == "coached":
            raise LooError(f"bots: {b!r} is not a table bot ({', '.join(n for n in BOTS if n != 'coached')})")
    seats, called = check_people(list(people), list(names), players, seat)
    return EveningSetup(seed, players, opts, seat, bot_list, **stakes, people=seats, names=called)


class Evening:
    """The table (`engine.table.Table`) and the deal being played; see the module docstring."""

    def __init__(self, setup: EveningSetup, deals: Sequence[Sequence[Action]] = ()) -> None:
        """A new evening, or (`deals`: the moves of each deal, every one but the last
        finished) one played again, every move checked by the engine. The bots wait for
        `advance()` (so that a view may tell their moves as they are made)."""
        if len(deals) > MAX_DEALS:
            raise LooError(f"deals: an evening holds at most {MAX_DEALS} deals")
        self.setup = setup
        self.table = setup.table()
        self.hands: list[Hand] = []  # the deals played, finished and settled
        self.hand, self.game = self._deal()
        for i, moves in enumerate(deals):
            if i:
                if self.hand.to_act is not None:
                    raise LooError(f"deals[{i - 1}]: the deal is not finished, yet another follows it")
                self.table.settle_hand(self.hand)
                self.hands.append(self.hand)
                self.hand, self.game = self._deal()
            try:
                self.game.replay(moves)
            except LooError as e:
                raise LooError(f"deals[{i}]: {e}") from None

    # --- the deals ---------------------------------------------------------------------------
    def _deal(self) -> tuple[Hand, BotGame]:
        number = len(self.hands) + 1
        hand = self.table.new_hand()
        bots = tuple(None if b is None else get_bot(b) for b in self.setup.bot_names())
        rng = random.Random(f"evening:{self.setup.seed}:{number}")
        return hand, BotGame(hand, self.setup.seat, bots, rng, people=self.setup.seats())

    @property
    def number(self) -> int:
        """The deal being played (1 for the first)."""
        return len(self.hands) + 1

    @property
    def over(self) -> bool:
        """Is the deal being played finished (ready to be settled by `next_deal`)?"""
        return self.hand.to_act is None

    @property
    def records(self) -> list[DealRecord]:
        """The deals settled so far, one record each (dealer, pool, must, each seat's counters), in
        order."""
        return list(self.table.history)

    def advance(self, said: Said | None = None) -> None:
        """The bots move until it is the learner's turn or the deal is over (`said` hears
        each move: seat, action, tricks complete before it)."""
        self.game.advance(said)

    def decide(self, a: Action) -> None:
        """The learner's move (the engine checks it), then the bots answer."""
        self.game.decide(a)
        self.game.advance()

    def next_deal(self) -> DealRecord:
        """Settle the finished deal at the table (the engine pays it out, moves the deal on and
        forms the next pool) and deal the next (its bots wait for `advance()`)."""
        if not self.over:
            raise LooError("the deal is not over: finish it before the next is dealt")
        if len(self.hands) >= MAX_DEALS:
            raise LooError(f"an evening holds at most {MAX_DEALS} deals")
        rec = self.table.settle_hand(self.hand)
        self.hands.append(self.hand)
        self.hand, self.game = self._deal()
        return rec

    def total(self) -> int:
        """Counters on the table, players and pool (the engine conserves them)."""
        return self.table.total()

    # --- the ledger ------------------------------------------------------------------------------
    def ledger(self, you: int | None = None) -> list[dict[str, Any]]:
        """Every deal settled so far, as the table's ledger keeps it: `deal` (1-based),
        `dealer`, `must`, `pool` (as the deal began), `loo` (what a full loo cost in it: the
        pool's size under unlimited loo, R46/R49), `balances` (a list, seat by seat, after
        it), `next_pool`, `next_must` and the settlement `lines` (rule id, reason, quote;
        `you`: the seat the words address)."""
        rows: list[dict[str, Any]] = []
        for rec, hand in zip(self.table.history, self.hands, strict=True):
            rows.append(
                {
                    "deal": rec.number,
                    "dealer": rec.dealer,
                    "must": rec.must,
                    "pool": rec.pool,
                    "loo": hand.full_loo,
                    "balances": list(rec.balances),
                    "next_pool": rec.settlement.next_pool,
                    "next_must": rec.settlement.next_is_must,
                    "lines": [*stake_lines(hand, you), *settlement_lines(rec.settlement, hand, you=you)],
                }
            )
        return rows

    def ledger_json(self) -> dict[str, Any]:
        """The ledger as `loo-lessons play --resume FILE --json` prints it (the contract,
        scenario-format.md): `deals` (each with `balances` keyed by seat as a string and
        `settlement.lines`) and `now`, the deal to come."""
        deals = [
            {
                "deal": r["deal"],
                "dealer": r["dealer"],
                "pool": r["pool"],
                "must": r["must"],
                "loo": r["loo"],
                "balances": {str(s): b for s, b in enumerate(r["balances"])},
                "settlement": {"lines": r["lines"], "next_pool": r["next_pool"], "next_is_must": r["next_must"]},
            }
            for r in self.ledger()
        ]
        h = self.hand
        now = {"deal": self.number, "dealer": h.setup.dealer, "pool": h.setup.stakes.pool, "must": h.setup.must}
        return {"deals": deals, "now": now}

    # --- save and resume ---------------------------------------------------------------------
    def as_json(self) -> dict[str, Any]:
        """The evening as its table and its moves, deal by deal (the last one unfinished)."""
        return {
            "format": FORMAT,
            **self.setup.as_json(),
            "deals": [[action_key(a) for a in h.actions] for h in [*self.hands, self.hand]],
        }


def stake_lines(hand: Hand, you: int | None = None) -> list[dict[str, Any]]:
    """What the deal's dealer put in before it: the ledger charges him his stake with the deal
    (a dealer looed 3 is −6 there), so its lines say so (issue 34: the settlement said −3, the
    ledger −6, the stake unsaid). None where every player antes (V9)."""
    from loo_lessons.engine.options import Ante
    from loo_lessons.explain import rule_json

    if hand.options.ante is not Ante.DEALER_ONLY:
        return []
    dealer = hand.setup.dealer
    stake = hand.setup.stakes.stake
    who = "You" if dealer == you else f"Seat {dealer}"
    text = f"{who} (the dealer) put the stake of {stake} counters into the pool before the deal."
    return [{"kind": "stake", "seat": dealer, "amount": stake, "text": text, **rule_json("R02")}]


@short_refusals
def replay(saved: SavedEvening) -> Evening:
    """A checked saved evening played again (every move checked by the engine); a move the
    rules refuse, or a deal left unfinished before another, is a ScenarioError naming it."""
    try:
        setup = setup_of(
            saved.seed,
            saved.players,
            saved.rules,
            saved.seat,
            saved.bots,
            stake=saved.stake,
            loo=saved.loo,
            loo_cap=saved.loo_cap,
            bank=saved.bank,
            dealer=saved.dealer,
            people=saved.people,
            names=saved.names,
        )
        return Evening(setup, saved.deals)
    except InputError as e:  # a ScenarioError too: the field named within the evening
        raise ScenarioError(f"evening.{e.field}", e.problem) from None
    except LooError as e:
        field, _, problem = str(e).partition(": ")
        if field.startswith(("deals", "bots", "dealer")) and problem:
            raise ScenarioError(f"evening.{field}", problem) from None
        raise ScenarioError("evening.deals", str(e)) from None


def load(path: str | os.PathLike[str]) -> Evening:
    """A saved evening from a file: read by the guarded reader, then replayed."""
    return replay(read_evening(path))


def from_json(raw: object) -> Evening:
    """A saved evening from plain data (what `Evening.as_json` gave)."""
    return replay(evening_from(raw))


__all__ = ["FORMAT", "MAX_DEALS", "Evening", "EveningSetup", "from_json", "load", "replay", "setup_of"]
