"""Monte Carlo: many seeded hands played by bots, recorded per hand and seat, and summed up.

`simulate(hands, players, seed, ...)` plays hand `i` from its own seed `hand_seed(seed, i)`
with the dealer at seat `i % players`, so every hand can be replayed alone
(`replay_hand`) and the results are the same whatever the number of worker processes.

Each hand starts from a fresh pool of the dealer's stake (limited loo), so the hands are
independent samples; `session(...)` plays a running table instead, where the pool carries
over and unlimited loo can grow it. Money columns are counters: `won` (shares of the
pool), `paid` (loos), `net = won - paid`, `staked` (the dealer's stake into this hand's
pool) and `balance = net - staked`.

pandas is imported only inside the methods that return frames.
"""

from __future__ import annotations

import multiprocessing
import random
import sys
import time
from array import array
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from loo_lessons.engine.cards import Card, Rank, Suit
from loo_lessons.engine.deal import check_table_size
from loo_lessons.engine.declare import Declaration
from loo_lessons.engine.game import Hand, Setup
from loo_lessons.engine.options import (
    DEFAULT_LOO_CAP_STAKES,
    Ante,
    LooAmount,
    RuleOptions,
    options_from,
)
from loo_lessons.engine.settle import Stakes
from loo_lessons.engine.table import Table
from loo_lessons.sim.bots import BOTS, Bot, bot_move, get_bot, seat_bots, seat_view

if TYPE_CHECKING:
    import pandas as pd

Progress = Callable[[int, int], None]
Columns = dict[str, "array[int]"]
RulesArg = str | RuleOptions | Mapping[str, Any] | None

#: Declaration codes stored in the `declaration` column ("none": the dealer took the pool
#: without declaring, R14).
DECLARATION_NAMES: tuple[str, ...] = (
    "play",
    "take_miss",
    "pass",
    "play_miss_for_pool",
    "none",
)
_DECL_CODE = {Declaration(n): i for i, n in enumerate(DECLARATION_NAMES[:4])}
_NONE = 4

#: The columns of `SimResult.frame()`, one row per hand and seat, with their meaning.
FRAME_COLUMNS: dict[str, str] = {
    "hand": "index of the hand in the simulation",
    "seed": "the hand's own seed, hand_seed(seed, hand): it deals the hand and drives the bots",
    "players": "table size",
    "dealer": "the dealer's seat",
    "seat": "this seat",
    "position": "1 = elder hand ... players = dealer (the order of declaring)",
    "bot": "the bot in this seat",
    "dealt_trumps": "trumps among the seat's own three dealt cards (what it declared on)",
    "dealt_ace": "the seat was dealt the ace of trumps",
    "dealt_king": "the seat was dealt the king of trumps",
    "declaration": "play | take_miss | pass | play_miss_for_pool | none (R14: not asked)",
    "took_miss": "took the miss (on his own account or for the pool)",
    "played": "took part in the play (stood or took the miss)",
    "played_trumps": "trumps among the three cards the seat played (0 if it did not play)",
    "played_ace": "the seat played the ace of trumps",
    "played_king": "the seat played the king of trumps",
    "tricks": "tricks taken",
    "looed": "paid a loo: played and took no trick (R39)",
    "won": "counters received from the pool",
    "paid": "counters paid as loos",
    "net": "won - paid",
    "staked": "counters staked into this hand's pool (the dealer's stake)",
    "balance": "net - staked",
    "pool": "the pool contested in this hand",
    "in_play": "how many took part in the play",
    "single": "the hand ended as a single (R41)",
    "awarded": "the pool went whole without play (R14, R15, R16)",
}

#: Stored columns: per hand (one value a hand) and per seat (`players` values a hand, in
#: seat order). Hand features are packed as trumps | ace << 2 | king << 3.
HAND_COLUMNS: dict[str, str] = {
    "seed": "q",
    "dealer": "b",
    "pool": "q",
    "in_play": "b",
    "single": "b",
    "awarded": "b",
}
SEAT_COLUMNS: dict[str, str] = {
    "dealt": "b",
    "declaration": "b",
    "played_hand": "b",
    "tricks": "b",
    "won": "q",
    "paid": "q",
}

_MASK64 = (1 << 64) - 1


def hand_seed(seed: int, index: int) -> int:
    """The seed of hand `index` of a simulation seeded with `seed` (a splitmix64 mix, so
    neighbouring seeds and indices give unrelated deals). Fits in a signed 64-bit int."""
    z = (seed * 0x9E3779B97F4A7C15 + index * 0xD1B54A32D192ED03 + 1) & _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return (z ^ (z >> 31)) >> 1


def _options(rules: RulesArg) -> RuleOptions:
    if isinstance(rules, RuleOptions):
        return rules
    if isinstance(rules, Mapping):
        return options_from(dict(rules))
    return options_from(rules)


def _stakes(players: int, options: RuleOptions, stake: int) -> Stakes:
    cap = DEFAULT_LOO_CAP_STAKES * stake if options.loo_amount is LooAmount.POOL_CAPPED else None
    return Stakes.make(stake, loo_cap=cap, players=players, ante=options.ante)


# --- one chunk of hands (runs in a worker process) ---------------------------------------------


@dataclass(frozen=True)
class _Job:
    seed: int
    start: int
    stop: int
    players: int
    options: dict[str, str | bool]
    bots: tuple[str | Bot, ...]
    bot_codes: tuple[int, ...]
    stake: int


def _features(cards: Sequence[Card], trumps: Suit | None) -> int:
    """Trumps held | ace of trumps << 2 | king of trumps << 3."""
    code = 0
    for c in cards:
        if c.suit is trumps:
            code += 1
            if c.rank is Rank.ACE:
                code |= 4
            elif c.rank is Rank.KING:
                code |= 8
    return code


def play_hand(hand: Hand, bots: Sequence[Bot], rng: random.Random) -> Hand:
    """Play `hand` to the end with one bot per seat; forced moves do not consult the bot."""
    while (seat := hand.to_act) is not None:
        legal = hand.legal_actions()
        if len(legal) == 1:
            hand.apply_unchecked(legal[0])
        else:
            hand.apply_unchecked(bots[seat].choose(seat_view(hand, seat), legal, rng))
    return hand


def _empty_columns() -> Columns:
    return {name: array(code) for name, code in (HAND_COLUMNS | SEAT_COLUMNS).items()}


def _play_chunk(job: _Job) -> Columns:
    players = job.players
    options = options_from(job.options)
    bots = tuple(get_bot(b) for b in job.bots)
    stakes = _stakes(players, options, job.stake)
    setups = [Setup(players, d, options, stakes) for d in range(players)]
    cols = _empty_columns()
    h_seed, h_dealer, h_pool, h_in, h_single, h_awarded = (cols[n] for n in HAND_COLUMNS)
    s_dealt, s_decl, s_played, s_tricks, s_won, s_paid = (cols[n] for n in SEAT_COLUMNS)
    seats = range(players)
    decl_code = _DECL_CODE
    rng = random.Random()
    for i in range(job.start, job.stop):
        hs = hand_seed(job.seed, i)
        rng.seed(hs)
        dealer = i % players
        hand = Hand.dealt(setups[dealer], rng, seed=hs)
        trumps = hand.trumps
        dealt = [_features(h, trumps) for h in hand.held]
        miss = _features(hand.miss, trumps) if hand.miss is not None else 0
        play_hand(hand, bots, rng)
        s = hand.settlement
        assert s is not None
        declared = hand.declared
        h_seed.append(hs)
        h_dealer.append(dealer)
        h_pool.append(s.pool)
        h_in.append(len(hand.players_in))
        h_single.append(s.is_single)
        h_awarded.append(s.pool_awarded_to is not None)
        s_dealt.extend(dealt)
        codes = [decl_code.get(declared.get(seat), _NONE) for seat in seats]  # type: ignore[arg-type]
        s_decl.extend(codes)
        s_played.extend(
            [0 if c >= 2 else (dealt[seat] if c == 0 else miss) for seat, c in enumerate(codes)]
        )
        won, paid, tw = s.receives, s.loo_pays, s.tricks_won
        s_tricks.extend([tw.get(seat, 0) for seat in seats])
        s_won.extend([won.get(seat, 0) for seat in seats])
        s_paid.extend([paid.get(seat, 0) for seat in seats])
    return cols


# --- results --------------------------------------------------------------------------------


@dataclass(frozen=True)
class SimResult:
    """Rows of (hand, seat) as columns of integers; `frame()` gives them as a DataFrame."""

    hands: int
    players: int
    seed: int
    options: RuleOptions
    bots: tuple[str, ...]  # the bot in each seat
    columns: Columns = field(repr=False)
    seconds: float = 0.0
    stake: int = 3

    @property
    def all_ante(self) -> bool:
        return self.options.ante is Ante.ALL_PLAYERS

    @property
    def stake_paid(self) -> int:
        """What the dealer (or, with every player anteing, each player) stakes a hand."""
        return self.stake

    @property
    def bot_kinds(self) -> tuple[str, ...]:
        """The distinct bots; the `bot` column indexes this."""
        return tuple(dict.fromkeys(self.bots))

    def __len__(self) -> int:
        """Rows: one per hand and seat."""
        return len(self.columns["seed"]) * self.players

    def frame(self) -> pd.DataFrame:
        """One row per hand and seat (columns: FRAME_COLUMNS); `declaration` and `bot` are
        categoricals, flags are booleans."""
        import numpy as np
        import pandas as pd

        n, p = len(self.columns["seed"]), self.players

        def col(name: str) -> Any:
            code = (HAND_COLUMNS | SEAT_COLUMNS)[name]
            dtype = "int8" if code == "b" else "int64"
            return np.frombuffer(self.columns[name], dtype=dtype).astype("int64")

        def per_hand(name: str) -> Any:
            return np.repeat(col(name), p)

        seat = np.tile(np.arange(p), n)
        dealer = per_hand("dealer")
        decl = col("declaration")
        dealt, played_hand = col("dealt"), col("played_hand")
        won, paid = col("won"), col("paid")
        kinds = self.bot_kinds
        bot_codes = np.array([kinds.index(b) for b in self.bots], dtype="int64")
        staked_each = self.stake_paid
        if self.all_ante:
            staked = np.full(n * p, staked_each, dtype="int64")
        else:
            staked = np.where(seat == dealer, staked_each, 0)
        data = {
            "hand": np.repeat(np.arange(n), p),
            "seed": per_hand("seed"),
            "players": np.full(n * p, p, dtype="int64"),
            "dealer": dealer,
            "seat": seat,
            "position": (seat - dealer - 1) % p + 1,
            "bot": pd.Categorical.from_codes(np.tile(bot_codes, n), categories=list(kinds)),
            "dealt_trumps": dealt & 3,
            "dealt_ace": (dealt & 4) > 0,
            "dealt_king": (dealt & 8) > 0,
            "declaration": pd.Categorical.from_codes(decl, categories=list(DECLARATION_NAMES)),
            "took_miss": (decl == 1) | (decl == 3),
            "played": decl != 2,
            "played_trumps": played_hand & 3,
            "played_ace": (played_hand & 4) > 0,
            "played_king": (played_hand & 8) > 0,
            "tricks": col("tricks"),
            "looed": paid > 0,
            "won": won,
            "paid": paid,
            "net": won - paid,
            "staked": staked,
            "balance": won - paid - staked,
            "pool": per_hand("pool"),
            "in_play": per_hand("in_play"),
            "single": per_hand("single") > 0,
            "awarded": per_hand("awarded") > 0,
        }
        data["played"] = data["played"] & (decl != 4)
        return pd.DataFrame(data)

    # --- summary tables ---------------------------------------------------------------
    def trick_rates(self, by: str | Sequence[str] = "trumps") -> pd.DataFrame:
        """How often a hand that was played takes a trick, and is looed, by the kind of hand.

        `by`: "trumps" (trumps in the hand played), "honours" (ace / king of trumps held),
        "position", or any column names. Left out: deals that ended without play (R14-R16)
        and the dealer playing the miss for the pool (he cannot be looed, A16).
        """
        keys = {
            "trumps": ["played_trumps"],
            "honours": ["played_ace", "played_king"],
            "position": ["position"],
        }
        cols = keys.get(by, [by]) if isinstance(by, str) else list(by)
        df = self.frame()
        df = df[df["played"] & ~df["awarded"] & (df["declaration"] != "play_miss_for_pool")]
        df = df.assign(took_trick=df["tricks"] > 0)
        g = df.groupby(cols, observed=True)
        out = g.agg(
            hands=("tricks", "size"),
            took_trick=("took_trick", "mean"),
            looed=("looed", "mean"),
            tricks=("tricks", "mean"),
            net=("net", "mean"),
        )
        return out

    def expected_counters(self, wide: bool = True) -> pd.DataFrame:
        """Mean counters (`net`: won - loos, the dealer's stake aside) of each declaration,
        by table size and position. Wide: one column per declaration; long: with counts and
        each declaration's share of that position's decisions."""
        df = self.frame()
        g = df.groupby(["players", "position", "declaration"], observed=True)
        long = g.agg(hands=("net", "size"), net=("net", "mean"), balance=("balance", "mean"))
        totals = long.groupby(level=["players", "position"])["hands"].transform("sum")
        long["share"] = long["hands"] / totals
        if not wide:
            return long
        return long["net"].unstack("declaration")

    def miss_value(
        self, by: Sequence[str] = ("dealt_trumps", "dealt_ace", "dealt_king")
    ) -> pd.DataFrame:
        """Mean net of standing vs taking the miss, for hands alike in `by` (features of the
        seat's own dealt cards, what it declared on). `value` = take_miss - stand. Bots
        choose by their hands, so a comparison needs both choices in a group: mix bots (or
        use `paired_miss_value`, which plays both choices of the very same deal)."""
        df = self.frame()
        df = df[df["declaration"].isin(["play", "take_miss"])]
        g = df.groupby([*by, "declaration"], observed=True)["net"].agg(["mean", "size"])
        wide = g.unstack("declaration")
        out = wide.reindex(
            columns=[(m, d) for m in ("mean", "size") for d in ("play", "take_miss")]
        )
        out.columns = ["stand_net", "take_miss_net", "stand_hands", "take_miss_hands"]
        out["value_of_miss"] = out["take_miss_net"] - out["stand_net"]
        out[["stand_hands", "take_miss_hands"]] = (
            out[["stand_hands", "take_miss_hands"]].fillna(0).astype(int)
        )
        return out

    def overview(self) -> dict[str, float]:
        """Headline rates per hand; the loo rate is among seats that played a hand out."""
        n = max(1, self.hands)
        c = self.columns
        played = sum(k for k, a in zip(c["in_play"], c["awarded"], strict=True) if not a)
        loos = sum(1 for x in c["paid"] if x > 0)
        return {
            "hands": float(self.hands),
            "single_rate": sum(c["single"]) / n,
            "awarded_rate": sum(c["awarded"]) / n,
            "mean_in_play": sum(c["in_play"]) / n,
            "loo_rate_of_players": loos / played if played else 0.0,
        }

    def session(
        self,
        deals: int,
        players: int | None = None,
        seed: int | None = None,
        rules: RulesArg = None,
    ) -> Session:
        """A session of `deals` deals at one table with this result's bots (see `session`);
        by default the same table size and seed, and these rules with unlimited loo."""
        p = self.players if players is None else players
        opts = self.options.with_(loo_amount="pool") if rules is None else _options(rules)
        bots = self.bots if p == self.players else self.bots[:1]
        return session(deals, p, self.seed if seed is None else seed, opts, bots, stake=self.stake)

    def summary(self) -> dict[str, pd.DataFrame]:
        """The summary tables by name (what `loo-lessons simulate` prints)."""
        import pandas as pd

        ov = pd.DataFrame([self.overview()])
        return {
            "overview": ov,
            "by_trumps": self.trick_rates("trumps"),
            "by_honours": self.trick_rates("honours"),
            "by_position": self.trick_rates("position"),
            "expected_counters": self.expected_counters(),
            "value_of_miss": self.miss_value(),
        }


def _merge(parts: Sequence[Columns]) -> Columns:
    cols = _empty_columns()
    for part in parts:
        for name, arr in part.items():
            cols[name].extend(arr)
    return cols


def _jobs(
    hands: int,
    seed: int,
    players: int,
    opts: RuleOptions,
    bots: tuple[Bot, ...],
    stake: int,
    pieces: int,
) -> list[_Job]:
    names: tuple[str | Bot, ...] = tuple(b.name if BOTS.get(b.name) == b else b for b in bots)
    kinds = _bot_kinds(bots)
    codes = tuple(kinds.index(b.name) for b in bots)
    size = max(1, -(-hands // max(1, pieces)))
    return [
        _Job(seed, start, min(hands, start + size), players, opts.to_dict(), names, codes, stake)
        for start in range(0, hands, size)
    ]


def _bot_kinds(bots: Sequence[Bot]) -> tuple[str, ...]:
    """The distinct bot names, in seat order of first appearance."""
    return tuple(dict.fromkeys(b.name for b in bots))


def simulate(
    hands: int,
    players: int,
    seed: int,
    rules: RulesArg = "hoffmann",
    bots: Sequence[str | Bot] | str | Bot | None = None,
    workers: int = 1,
    progress: Progress | None = None,
    *,
    stake: int = 3,
) -> SimResult:
    """Play `hands` seeded hands at a table of `players` with `bots` (one per seat, or one
    for all; default `sensible` everywhere) and record every seat of every hand.

    Hand `i` is dealt and played from `hand_seed(seed, i)` with dealer `i % players`, so the
    result does not depend on `workers` (processes; chunks are merged in hand order).
    `progress(done, total)` is called as chunks finish.
    """
    if hands < 0:
        raise ValueError("hands must be >= 0")
    opts = _options(rules)
    seats = seat_bots(bots, players, "sensible")
    check_table_size(players, True)
    workers = max(1, workers)
    pieces = workers * 4 if workers > 1 else (10 if progress is not None else 1)
    jobs = _jobs(hands, seed, players, opts, seats, stake, pieces)
    t0 = time.perf_counter()
    parts: list[Columns] = []
    done = 0
    if workers > 1 and len(jobs) > 1:
        ctx = multiprocessing.get_context("fork" if sys.platform == "linux" else "spawn")
        with ctx.Pool(min(workers, len(jobs))) as pool:
            for job, part in zip(jobs, pool.imap(_play_chunk, jobs), strict=True):
                parts.append(part)
                done += job.stop - job.start
                if progress is not None:
                    progress(done, hands)
    else:
        for job in jobs:
            parts.append(_play_chunk(job))
            done += job.stop - job.start
            if progress is not None:
                progress(done, hands)
    cols = _merge(parts)
    return SimResult(
        hands,
        players,
        seed,
        opts,
        tuple(b.name for b in seats),
        cols,
        time.perf_counter() - t0,
        stake,
    )


def replay_hand(
    seed: int,
    index: int,
    players: int,
    rules: RulesArg = "hoffmann",
    bots: Sequence[str | Bot] | str | Bot | None = None,
    *,
    stake: int = 3,
) -> Hand:
    """Hand `index` of `simulate(..., seed, ...)`, played again on its own."""
    opts = _options(rules)
    seats = seat_bots(bots, players, "sensible")
    hs = hand_seed(seed, index)
    rng = random.Random(hs)
    setup = Setup(players, index % players, opts, _stakes(players, opts, stake))
    return play_hand(Hand.dealt(setup, rng, seed=hs), seats, rng)


def bench_simulation(n: int = 100_000, workers: int = 2) -> tuple[float, int]:
    """Time `simulate(n, 5 players, sensible bots)`: (seconds, hands)."""
    t0 = time.perf_counter()
    res = simulate(n, 5, 2024, "hoffmann", ("sensible",), workers=workers)
    return time.perf_counter() - t0, res.hands


# --- the value of the miss, both choices of the same deal --------------------------------------


@dataclass(frozen=True)
class PairedMissValue:
    """For each deal: the seat at `position` stands, takes the miss, or throws up, and the
    rest of the table plays on with the same bots and the same random draws."""

    position: int
    players: int
    rows: tuple[dict[str, int | str], ...]

    def frame(self) -> pd.DataFrame:
        import pandas as pd

        return pd.DataFrame(list(self.rows))

    def table(
        self, by: Sequence[str] = ("dealt_trumps", "dealt_ace", "dealt_king")
    ) -> pd.DataFrame:
        """Mean net of each choice by the kind of hand dealt; `value_of_miss` = take_miss -
        stand, and the choice with the best mean."""
        df = self.frame()
        g = df.groupby(list(by))
        out = g.agg(
            hands=("stand", "size"),
            stand=("stand", "mean"),
            take_miss=("take_miss", "mean"),
            throw_up=("throw_up", "mean"),
        )
        out["value_of_miss"] = out["take_miss"] - out["stand"]
        out["best"] = out[["stand", "take_miss", "throw_up"]].idxmax(axis=1)
        return out


def paired_miss_value(
    hands: int,
    players: int,
    seed: int,
    rules: RulesArg = "hoffmann",
    bots: Sequence[str | Bot] | str | Bot | None = None,
    *,
    position: int = 1,
    stake: int = 3,
) -> PairedMissValue:
    """Play each deal three times from the moment the seat at `position` (1 = elder hand)
    declares: once standing, once taking the miss, once throwing up. Deals where the miss is
    gone by then are skipped. Counters are `net` (won - loos) for that seat."""
    opts = _options(rules)
    seats = seat_bots(bots, players, "sensible")
    stakes = _stakes(players, opts, stake)
    rows: list[dict[str, int | str]] = []
    for i in range(hands):
        hs = hand_seed(seed, i)
        dealer = i % players
        seat = (dealer + position) % players
        setup = Setup(players, dealer, opts, stakes)
        rng = random.Random(hs)
        hand = Hand.dealt(setup, rng, seed=hs)
        features = _features(hand.held[seat], hand.trumps)
        while hand.to_act is not None and hand.to_act != seat:
            hand.apply_unchecked(bot_move(hand, seats[hand.to_act], rng))
        if hand.to_act != seat or Declaration.TAKE_MISS not in hand.legal_actions():
            continue
        prefix = list(hand.actions)
        state = rng.getstate()
        own = bot_move(hand, seats[seat], rng)
        nets: dict[str, int] = {}
        for label, d in (
            ("stand", Declaration.PLAY),
            ("take_miss", Declaration.TAKE_MISS),
            ("throw_up", Declaration.PASS),
        ):
            h = Hand.dealt(setup, random.Random(hs), seed=hs)
            for a in prefix:
                h.apply_unchecked(a)
            h.apply_unchecked(d)
            r = random.Random()
            r.setstate(state)
            play_hand(h, seats, r)
            s = h.settlement
            assert s is not None
            nets[label] = s.receives.get(seat, 0) - s.loo_pays.get(seat, 0)
        rows.append(
            {
                "hand": i,
                "seed": hs,
                "seat": seat,
                "dealt_trumps": features & 3,
                "dealt_ace": int(features & 4 > 0),
                "dealt_king": int(features & 8 > 0),
                "bot_choice": str(own),
                **nets,
            }
        )
    return PairedMissValue(position, players, tuple(rows))


# --- a session at one table --------------------------------------------------------------------


@dataclass(frozen=True)
class Session:
    """Deal after deal at one table: the pool carried forward, singles and musts, and (in
    unlimited loo) the loo growing with the pool."""

    players: int
    seed: int
    options: RuleOptions
    rows: tuple[dict[str, Any], ...]
    total_before: int
    total_after: int

    def frame(self) -> pd.DataFrame:
        import pandas as pd

        return pd.DataFrame(list(self.rows)).set_index("deal")

    @property
    def largest_pool(self) -> int:
        return max((int(r["pool"]) for r in self.rows), default=0)


def session(
    deals: int,
    players: int,
    seed: int,
    rules: RulesArg = None,
    bots: Sequence[str | Bot] | str | Bot | None = None,
    *,
    stake: int = 3,
    loo_cap: int | None = None,
    bank: int = 1000,
) -> Session:
    """Play `deals` deals at one `Table`. `rules` defaults to Hoffmann's rules with unlimited
    loo (`loo_amount: pool`, R46–R48): a loo costs the whole pool, so the pool grows until a
    single brings it back to the stake (R47)."""
    if rules is None:
        opts = options_from({"preset": "hoffmann", "loo_amount": "pool"})
    else:
        opts = _options(rules)
    if opts.loo_amount is LooAmount.POOL_CAPPED and loo_cap is None:
        loo_cap = DEFAULT_LOO_CAP_STAKES * stake
    seats = seat_bots(bots, players, "sensible")
    table = Table.seeded(players, seed, opts, stake=stake, loo_cap=loo_cap, bank=bank)
    rng = random.Random(hand_seed(seed, -1))
    before = table.total()
    rows: list[dict[str, Any]] = []
    for _ in range(deals):
        hand = play_hand(table.new_hand(), seats, rng)
        rec = table.settle_hand(hand)
        s = rec.settlement
        rows.append(
            {
                "deal": rec.number,
                "dealer": rec.dealer,
                "must": rec.must,
                "pool": rec.pool,
                "in_play": len(hand.players_in),
                "loos": len(s.looed),
                "loo_each": next(iter(s.loo_pays.values()), 0),
                "single": s.is_single,
                "awarded": s.pool_awarded_to is not None,
                "left_in_pool": s.left_in_pool,
                "next_pool": s.next_pool,
                **{f"seat_{k}": v for k, v in enumerate(rec.balances)},
            }
        )
    return Session(players, seed, opts, tuple(rows), before, table.total())
