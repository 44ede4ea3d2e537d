"""A table running deal after deal: dealer rotation, the pool carried forward, single → must,
unlimited loo growing and resetting, and a ledger of counters per player."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from .deal import next_dealer
from .game import Action, Hand, Setup
from .options import RuleOptions, rule_options
from .settle import Settlement, Stakes, new_pool_stake

Chooser = Callable[[Hand], Action]


@dataclass(frozen=True, slots=True)
class DealRecord:
    """One deal of an evening, as the table's ledger keeps it: its number, dealer, whether it was a
    must, its pool, its settlement, and every player's balance after it."""

    number: int
    dealer: int
    must: bool
    pool: int
    settlement: Settlement
    balances: tuple[int, ...]


@dataclass
class Table:
    """Players sit with `bank` counters each; `rng` is injected so a session replays exactly."""

    players: int
    options: RuleOptions
    rng: random.Random
    stake: int = 3
    loo: int | None = None
    loo_cap: int | None = None
    bank: int = 100
    dealer: int = 0
    balances: list[int] = field(default_factory=list)
    pool: int = 0
    next_must: bool = False
    history: list[DealRecord] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.balances:
            self.balances = [self.bank] * self.players
        self._ante(self.dealer)  # R02: the first dealer stakes

    @classmethod
    def seeded(
        cls,
        players: int,
        seed: int,
        rules: str | RuleOptions | None = None,
        *,
        stake: int = 3,
        loo: int | None = None,
        loo_cap: int | None = None,
        bank: int = 100,
    ) -> Table:
        """A new table of `players` whose every deal comes from `random.Random(seed)` (so the
        evening replays exactly), under `rules` (a preset name, options, or None for the
        default), the first dealer having staked (R02)."""
        return cls(players, rule_options(rules), random.Random(seed), stake, loo, loo_cap, bank)

    def _ante(self, dealer: int) -> None:
        amount = new_pool_stake(self.stake, self.players, self.options.ante)
        if amount == self.stake:
            self.balances[dealer] -= self.stake
        else:  # every player antes (V9)
            for s in range(self.players):
                self.balances[s] -= self.stake
        self.pool += amount

    def new_hand(self) -> Hand:
        """Deal the next hand with the current pool."""
        stakes = Stakes.make(
            self.stake,
            self.loo,
            None,
            self.loo_cap,
            self.pool,
            players=self.players,
            ante=self.options.ante,
        )
        setup = Setup(self.players, self.dealer, self.options, stakes, self.next_must)
        return Hand.dealt(setup, self.rng)

    def settle_hand(self, hand: Hand, *, last: bool = False) -> DealRecord:
        """Pay out a finished hand, move the deal to the left and form the next pool. `last`:
        no deal follows, so nobody stakes for one (R02 charges a dealer who deals): the pool
        keeps what the deal left in it (the loos, R40), for `end` to share out."""
        s = hand.settlement
        assert s is not None, "the hand is not finished"
        for seat, n in s.receives.items():
            self.balances[seat] += n
        for seat, n in s.loo_pays.items():
            self.balances[seat] -= n
        for p in hand.penalties:
            self.balances[p.seat] -= p.amount
        rec = DealRecord(
            len(self.history) + 1, self.dealer, hand.setup.must, s.pool, s, tuple(self.balances)
        )
        self.history.append(rec)
        self.pool = s.next_pool - new_pool_stake(self.stake, self.players, self.options.ante)
        if last:
            return rec
        self.dealer = next_dealer(self.dealer, self.players)
        self._ante(self.dealer)
        self.next_must = s.next_is_must
        return rec

    def end(self) -> tuple[int, ...]:
        """The game ends: the counters left in the pool are shared out as equally as they go,
        the odd ones one each from the dealer's left (V15: the books say nothing of the end;
        Peel's way out is to split the pool). The pool is then empty and the counters held add up
        to the table's total. Returns each seat's share."""
        whole, odd = divmod(self.pool, self.players)
        shares = [whole] * self.players
        for k in range(odd):
            shares[next_dealer(self.dealer + k, self.players)] += 1
        for seat, n in enumerate(shares):
            self.balances[seat] += n
        self.pool = 0
        return tuple(shares)

    def play_deal(self, choose: Chooser) -> DealRecord:
        """Play one whole deal, each move chosen by `choose(hand)`."""
        hand = self.new_hand()
        while hand.to_act is not None:
            hand.apply_unchecked(choose(hand))
        return self.settle_hand(hand)

    def total(self) -> int:
        """Counters on the table: players + pool (conserved, R38–R40)."""
        return sum(self.balances) + self.pool


def random_chooser(rng: random.Random) -> Chooser:
    """A chooser that plays a legal action at random, drawn from the injected `rng` (for
    simulations and tests: it knows nothing of strategy)."""

    def choose(hand: Hand) -> Action:
        legal = hand.legal_actions()
        action: Action = legal[rng.randrange(len(legal))]
        return action

    return choose
