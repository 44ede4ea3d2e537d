"""Monte Carlo: many seeded hands played by bots and summed up as they finish.

`simulate(hands, players, seed, ...)` plays hand `i` from its own seed `hand_seed(seed, i)`
with the dealer at seat `i % players`, so every hand can be replayed alone
(`replay_hand`) and the results are the same whatever the number of worker processes.
Hands go in fixed chunks (`chunk_bounds`); each chunk returns a `Tally` of integer sums
(`sim/tally.py`), so memory does not grow with the hands; `rows=True` also keeps one row
per hand and seat (`views.frames.simulation` shows them as a DataFrame).

Each hand starts from a fresh pool of the dealer's stake (limited loo), so the hands are
independent samples; `session(...)` plays a running table instead, where the pool carries
over and unlimited loo can grow it. Money columns are counters: `won` (shares of the
pool), `paid` (loos), `net = won - paid`, `staked` (the dealer's stake into this hand's
pool) and `balance = net - staked`.

Everything here is plain Python; DataFrames of these results are a view (`views.frames`).
"""

from __future__ import annotations

import _random
import random
import time
from array import array
from collections.abc import Callable, Mapping, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from loo_lessons.engine.cards import FULL_PACK, Card, Rank, Suit
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
from loo_lessons.sim.bots import Bot, bot_move
from loo_lessons.sim.bots import play_hand as play_hand  # its old home: still importable here
from loo_lessons.sim.coached import ALL_BOTS, get_bot, seat_bots
from loo_lessons.sim.tally import DECLARATION_NAMES, NONE, Tally
from loo_lessons.sim.tally import Table as SummaryTable
from loo_lessons.sim.workers import WorkerLost, in_order

Progress = Callable[[int, int], None]
Columns = dict[str, "array[int]"]
RulesArg = str | RuleOptions | Mapping[str, Any] | None

_DECL_CODE = {Declaration(n): i for i, n in enumerate(DECLARATION_NAMES[:4])}
_NONE = NONE

#: The columns of `views.frames.simulation(result)`, one row per hand and seat, with their meaning.
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


def _table(
    players: int, rules: RulesArg, bots: Sequence[str | Bot] | str | Bot | None
) -> tuple[RuleOptions, tuple[Bot, ...]]:
    """The table a run plays at: its rules, and a bot in every seat (sensible where none is
    named); a clear error for a table of too few or too many players (checked in that order)."""
    opts = _options(rules)
    seats = seat_bots(bots, players, "sensible")
    check_table_size(players, True)
    return opts, seats


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
    options: RuleOptions  # frozen, pickles as it is: no text to read again in every chunk
    bots: tuple[str | Bot, ...]
    bot_codes: tuple[int, ...]
    stake: int
    rows: bool


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


#: Each card's share of `_features` under each trump suit (a trump counts 1, the ace of trumps
#: 4 more, the king 8 more): a hand's features are its three cards' shares added, since it
#: holds each card once. Looked up for every seat of every simulated hand, where `_features`'
#: loop cost a floor in twenty; tests/test_fast_paths.py checks the two agree on every hand.
_FEATURE_OF: dict[Suit | None, dict[Card, int]] = {
    t: {c: _features((c,), t) for c in FULL_PACK} for t in (None, *Suit)
}


def _features_of(cards: Sequence[Card], share: dict[Card, int]) -> int:
    if len(cards) == 3:
        return share[cards[0]] + share[cards[1]] + share[cards[2]]
    return sum(share[c] for c in cards)


def _empty_columns() -> Columns:
    return {name: array(code) for name, code in (HAND_COLUMNS | SEAT_COLUMNS).items()}


@dataclass(frozen=True)
class _Part:
    """What one chunk sends back: its tally, and its rows when they are kept."""

    tally: Tally
    columns: Columns | None


@lru_cache(maxsize=16)
def _chunk_table(
    players: int, options: RuleOptions, stake: int
) -> tuple[tuple[Setup, ...], tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """A run's table, the same for every chunk, so a worker makes it once (and the engine
    finds its kept rulings by the very same setups): for each dealer, the setup, each seat's
    position (1 = elder hand ... players = dealer) and each seat's stake into the pool (the
    dealer's, R02, or every player's, V9)."""
    stakes = _stakes(players, options, stake)
    all_ante = options.ante is Ante.ALL_PLAYERS
    setups = tuple(Setup(players, d, options, stakes) for d in range(players))
    positions = tuple(
        tuple((x - d - 1) % players + 1 for x in range(players)) for d in range(players)
    )
    staked = tuple(
        tuple(stake if all_ante or x == d else 0 for x in range(players)) for d in range(players)
    )
    return setups, positions, staked


#: The seeding itself, which `random.Random.seed` calls after checking that its seed is not
#: text (a hand's seed is an int); called for every simulated hand. tests/test_fast_paths.py
#: checks that the two leave the same state.
_seed_int = _random.Random.seed


def _play_chunk(job: _Job) -> _Part:
    players = job.players
    bots = tuple(get_bot(b) for b in job.bots)
    bot_codes = job.bot_codes
    setups, positions, staked = _chunk_table(players, job.options, job.stake)
    tally = Tally(players)
    add = tally.deal
    cols = _empty_columns() if job.rows else None
    seats = range(players)
    decl_get = _DECL_CODE.get
    nones = (_NONE,) * players
    # seeded for every hand below: a fixed seed here spares the operating system's entropy
    # that `Random()` would read for nothing
    rng = random.Random(0)
    for i in range(job.start, job.stop):
        hs = hand_seed(job.seed, i)
        _seed_int(rng, hs)
        rng.gauss_next = None  # type: ignore[attr-defined]  # as `Random.seed` does after it
        dealer = i % players
        hand = Hand.dealt(setups[dealer], rng, seed=hs)
        share = _FEATURE_OF[hand.trumps]
        # every seat is dealt three cards (a simulated table always sits down): their shares
        # added in line, `_features_of` without a call per seat
        dealt = [share[a] + share[b] + share[c] for a, b, c in hand.held]
        miss = _features_of(hand.miss, share) if hand.miss is not None else 0
        play_hand(hand, bots, rng)
        s = hand.settlement
        assert s is not None
        declared = hand.declared
        awarded = s.pool_awarded_to is not None
        in_play = len(hand.players_in)
        # each seat's declaration code (none: not asked, R14), looked up by `map` in C
        codes: list[int] = list(map(decl_get, map(declared.get, seats), nones))  # type: ignore[arg-type]
        # the hand each seat played: its own (stood), the miss (took it), else none
        if cols is not None:
            played = [dealt[k] if c == 0 else miss if c == 1 else 0 for k, c in enumerate(codes)]
        else:
            # the tally reads the hand played only of a seat that played (stood or took the
            # miss): the seats' own hands, the miss-holder's the miss (a seat that threw up,
            # or played the miss for the pool, keeps a figure nothing reads)
            played = dealt
            holder = hand.miss_holder
            if holder is not None:
                played = dealt.copy()
                played[holder] = miss
        won, paid, tw = s.receives, s.loo_pays, s.tricks_won
        add(
            s.is_single,
            awarded,
            in_play,
            positions[dealer],
            codes,
            dealt,
            played,
            tw,
            won,
            paid,
            staked[dealer],
            bot_codes,
        )
        if cols is None:
            continue
        cols["seed"].append(hs)
        cols["dealer"].append(dealer)
        cols["pool"].append(s.pool)
        cols["in_play"].append(in_play)
        cols["single"].append(s.is_single)
        cols["awarded"].append(awarded)
        cols["dealt"].extend(dealt)
        cols["declaration"].extend(codes)
        cols["played_hand"].extend(played)
        cols["tricks"].extend([tw.get(seat, 0) for seat in seats])
        cols["won"].extend([won.get(seat, 0) for seat in seats])
        cols["paid"].extend([paid.get(seat, 0) for seat in seats])
    return _Part(tally, cols)


# --- results --------------------------------------------------------------------------------


@dataclass(frozen=True)
class SimResult:
    """The streaming aggregates of a simulation (`tally`, summed up by `summary()`), and, when
    asked for (`simulate(..., rows=True)`), its rows of (hand, seat) as columns of integers;
    `frame()` gives them as a DataFrame.

    `hands` were played (hands 0 to hands - 1); fewer than `requested` when the run was
    interrupted (`partial`)."""

    hands: int
    players: int
    seed: int
    options: RuleOptions
    bots: tuple[str, ...]  # the bot in each seat
    tally: Tally = field(repr=False)
    columns: Columns | None = field(default=None, repr=False)
    seconds: float = 0.0
    stake: int = 3
    requested: int | None = None

    @property
    def partial(self) -> bool:
        """Interrupted before all the hands asked for were played."""
        return self.requested is not None and self.hands < self.requested

    @property
    def all_ante(self) -> bool:
        """Whether every player antes (the `ante` option's `all_players`, R02/R40), not only the
        dealer."""
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
        return self.hands * self.players

    # --- summary tables: plain Python from the tally (views.frames.table for a DataFrame) ---
    def trick_rates(self, by: str = "trumps") -> SummaryTable:
        """How often a hand that was played takes a trick, and is looed, by the kind of hand.

        `by`: "trumps" (trumps in the hand played), "honours" (ace / king of trumps held) or
        "position". Left out: deals that ended without play (R14-R16) and the dealer playing
        the miss for the pool (he cannot be looed, A16)."""
        return self.tally.trick_rates(by)

    def expected_counters(self, wide: bool = True) -> SummaryTable:
        """Mean counters (`net`: won - loos, the dealer's stake aside) of each declaration,
        by table size and position. Wide: one column per declaration; long: with counts and
        each declaration's share of that position's decisions."""
        return self.tally.expected_counters(wide)

    def miss_value(self) -> SummaryTable:
        """Mean net of standing vs taking the miss, for hands alike in the seat's own dealt
        cards (trumps, ace, king of trumps: what it declared on). `value_of_miss` =
        take_miss - stand. Bots choose by their hands, so a comparison needs both choices in
        a group: mix bots (or use `paired_miss_value`, which plays both choices of the very
        same deal)."""
        return self.tally.miss_value()

    def overview(self) -> dict[str, float]:
        """Headline rates per hand; the loo rate is among seats that played a hand out."""
        return self.tally.overview()

    def strength(self) -> SummaryTable:
        """How each bot fares: mean balance a seat and hand (won - loos - stakes) with its 95 %
        interval, the share of hands it played and was looed in (`coached` against the rest:
        `simulate(..., bots=("coached", "sensible", ...))`)."""
        return self.tally.strength(self.bot_kinds)

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

    def summary(self) -> dict[str, SummaryTable]:
        """The summary tables by name, as plain Python (what `loo-lessons simulate` prints)."""
        return self.tally.tables(self.bot_kinds)


#: Hands per chunk (at least; more when a run would need over MAX_CHUNKS chunks).
CHUNK_HANDS = 2_000
#: Hands per chunk on Dask: each chunk is a task the scheduler sends, tracks and collects, so
#: fewer, bigger ones (50 for a million hands, not 500); a multiple of CHUNK_HANDS, so an
#: interrupted run still stops at whole local chunks. The tables do not depend on it (integer
#: sums). Most of what Dask adds is fixed, though: starting the cluster and its processes.
DASK_CHUNK_HANDS = 20_000
MAX_CHUNKS = 1_000


def chunk_bounds(hands: int, chunk: int = CHUNK_HANDS) -> list[tuple[int, int]]:
    """The chunks of a run: hands [start, stop). They depend on `hands` (and `chunk`), never
    on the worker count, so an interrupted run keeps the same prefix whoever played it."""
    size = max(1, chunk, -(-hands // MAX_CHUNKS))
    return [(start, min(hands, start + size)) for start in range(0, hands, size)]


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during `simulate`: `partial` holds the chunks finished before it, in order."""

    def __init__(self, partial: SimResult) -> None:
        super().__init__(f"interrupted after {partial.hands} hands")
        self.partial = partial


def _jobs(
    hands: int,
    seed: int,
    players: int,
    opts: RuleOptions,
    bots: tuple[Bot, ...],
    stake: int,
    rows: bool,
    chunk: int,
) -> list[_Job]:
    return [
        _job(seed, start, stop, players, opts, bots, stake, rows)
        for start, stop in chunk_bounds(hands, chunk)
    ]


def _job(
    seed: int,
    start: int,
    stop: int,
    players: int,
    opts: RuleOptions,
    bots: tuple[Bot, ...],
    stake: int,
    rows: bool,
) -> _Job:
    """Hands [start, stop): a known bot goes by name (a worker finds its own), another as
    itself; each seat's bot code indexes the run's distinct bots."""
    names: tuple[str | Bot, ...] = tuple(b.name if ALL_BOTS.get(b.name) == b else b for b in bots)
    kinds = _bot_kinds(bots)
    codes = tuple(kinds.index(b.name) for b in bots)
    return _Job(seed, start, stop, players, opts, names, codes, stake, rows)


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
    rows: bool = False,
    chunk: int = CHUNK_HANDS,
    dask: str | None = None,
) -> SimResult:
    """Play `hands` seeded hands at a table of `players` with `bots` (one per seat, or one
    for all; default `sensible` everywhere) and sum them up as they finish (memory does not
    grow with `hands`); `rows=True` also keeps one row per hand and seat (for `frame()`).

    Hand `i` is dealt and played from `hand_seed(seed, i)` with dealer `i % players`, so the
    result does not depend on `workers` (processes; chunks are merged in hand order), nor on
    `dask` (the address of a Dask scheduler, or `local:N` for a local cluster of N worker
    processes: `sim.workers`), which plays the very same chunks.
    `progress(done, total)` is called as chunks finish. Ctrl-C raises `Interrupted`, whose
    `partial` result holds the chunks finished so far; a worker process that dies raises
    `WorkerLost` (its `done`: the hands finished), never a hang. `chunk`: hands per chunk
    (at least; on Dask `DASK_CHUNK_HANDS` unless another is given).
    """
    if hands < 0:
        raise ValueError("hands must be >= 0")
    opts, seats = _table(players, rules, bots)
    workers = max(1, workers)
    if dask is not None and chunk == CHUNK_HANDS:
        chunk = DASK_CHUNK_HANDS
    jobs = _jobs(hands, seed, players, opts, seats, stake, rows, chunk)
    t0 = time.perf_counter()
    cols = _empty_columns() if rows else None
    # (tally, hands done), replaced in one assignment: a Ctrl-C between two statements of
    # `take` leaves the previous chunk's state whole, never a tally ahead of its count
    state = (Tally(players), 0)

    def take(job: _Job, part: _Part) -> None:
        nonlocal state
        tally = state[0].copy()
        tally.merge(part.tally)
        if cols is not None and part.columns is not None:
            for name, arr in part.columns.items():
                cols[name].extend(arr)
        state = (tally, state[1] + job.stop - job.start)
        if progress is not None:
            progress(state[1], hands)

    def result() -> SimResult:
        tally, done = state
        if cols is not None:  # rows past the last whole chunk (an interrupted extend)
            for name in HAND_COLUMNS:
                del cols[name][done:]
            for name in SEAT_COLUMNS:
                del cols[name][done * players :]
        return SimResult(
            done,
            players,
            seed,
            opts,
            tuple(b.name for b in seats),
            tally,
            cols,
            time.perf_counter() - t0,
            stake,
            hands,
        )

    try:
        with closing(in_order(_play_chunk, jobs, workers, dask)) as parts:
            for job, part in zip(jobs, parts, strict=True):
                take(job, part)
    except KeyboardInterrupt:
        raise Interrupted(result()) from None
    except WorkerLost as lost:
        raise WorkerLost(str(lost), state[1]) from None
    return result()


def chunk_tally(
    seed: int,
    start: int,
    stop: int,
    players: int,
    rules: RulesArg = "hoffmann",
    bots: Sequence[str | Bot] | str | Bot | None = None,
    *,
    stake: int = 3,
) -> Tally:
    """The tally of hands [start, stop) of `simulate(..., seed, ...)`: what a worker on another
    machine would compute (README: Dask or Ray). Merging the chunks of `chunk_bounds`, in any
    order, gives the tally `simulate` gives."""
    opts, seats = _table(players, rules, bots)
    if stop <= start:
        return Tally(players)
    return _play_chunk(_job(seed, start, stop, players, opts, seats, stake, False)).tally


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
    opts, seats = _table(players, rules, bots)
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
    opts, seats = _table(players, rules, bots)
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

    @property
    def largest_pool(self) -> int:
        """The largest pool the session's deals were played for (0 without deals)."""
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
