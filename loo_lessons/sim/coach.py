"""The coach: what each legal move of one seat is worth, estimated by playing it out.

Strategy, never law. For the seat to act (declaring, leading or following), `coach(hand, seat)`
reads only what that seat may know (`engine.observation.seat_view`: its own cards, the turn-up,
the declarations and the cards played) and the table's public setup (players, dealer, rules,
stakes). It then deals the cards the seat cannot see at random, many times ("worlds"), keeping
only deals in which every card played so far was a legal play for the seat that played it (the
engine judges, so a revoke nobody made is never assumed: a player who failed to follow a suit is
dealt no card of it), and plays each legal move out in every world with the table's bots. Every
move meets the same worlds and the same random draws of the bots, so their differences are
measured pairwise.

The figures for each move: mean counters (`won - loos` for this seat, the stake aside, as in
`simulate`), the chance of being looed and of taking at least one trick, each with a 95 %
interval; the moves ranked by mean counters; one plain sentence of why. The same seed gives the
same advice. `Advice.as_json()` is the form a widget's controller reads.

What the coach does not do: it never says what is legal (the engine's verdict does, with its
rule ids and the books' words: `loo-lessons explain`), never words a rule, and the others' cards
are dealt uniformly among the deals consistent with the play, with no guess from how the others
declared.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any, TypedDict, Unpack

from loo_lessons.engine.cards import FULL_PACK, Card
from loo_lessons.engine.declare import Declaration
from loo_lessons.engine.errors import InputError, LooError
from loo_lessons.engine.game import Action, Hand, Phase, Setup
from loo_lessons.engine.observation import SeatView, seat_view
from loo_lessons.engine.settle import Stakes, loo_amount
from loo_lessons.explain.words import action_label, and_list
from loo_lessons.sim.bots import Bot, play_hand, seat_bots
from loo_lessons.sim.tally import Z95

#: Rollouts per legal move by default (the speed goal: 1,000 per move in <= 300 ms, `bench`).
ROLLOUTS = 1000
#: Rollouts per legal move when a page asks (the play table's and the playground's "Ask the
#: coach"): Pyodide is slower than this Python, and an answer should come in a moment.
PAGE_ROLLOUTS = 200
#: Most rollouts per move one question may ask for.
MAX_ROLLOUTS = 100_000
#: Deals tried for each world before the coach gives up on a position (one with many voids).
MAX_TRIES = 2000

#: Said with every answer: the coach weighs moves; the rules are the engine's.
STRATEGY_NOT_LAW = (
    "Strategy, not law: these are estimates from deals of the cards you cannot see, played "
    "out by the bots; what is legal, and why, is the rules' answer (loo-lessons explain)."
)


@dataclass(frozen=True, slots=True)
class Estimate:
    """A mean and its 95 % interval."""

    mean: float
    low: float
    high: float

    def as_json(self) -> dict[str, float]:
        """The estimate as JSON: mean, low and high, rounded to four places."""
        return {"mean": round(self.mean, 4), "low": round(self.low, 4), "high": round(self.high, 4)}


def mean_interval(values: Sequence[int], bounds: tuple[float, float] | None = None) -> Estimate:
    """The mean of `values` and its 95 % interval, for an outcome bounded by `bounds` (None:
    the smallest and largest value seen), never outside them.

    Why not the normal interval: counters are bounded and skewed (a rare loo, a rare whole
    pool), and at 100 or 200 play-outs a sample often holds none of the rare outcome; its
    variance then looks small and the interval misses the long-run value (measured: 80 % for
    near-certain outcomes, and past the worst possible loo). Here the variance is taken as if
    z²/2 pseudo-outcomes at each bound had joined the sample (Agresti and Coull's remedy for a
    proportion, carried over to a bounded mean), so a sample that missed an extreme still
    allows for it; the widening fades as 1/n (at 1,000 play-outs it is the normal interval,
    give or take a hundredth). The interval is centred on the sample mean, not pulled toward
    the middle of the bounds: pulled, it under-covers outcomes crowded at one bound (standing
    on the ace and king of trumps: 92 % at 200). Clipped to the bounds: never outside what can
    happen. Coverage of at least 94 % at 100, 200 and 1,000 play-outs, on the coach's own
    outcomes and on near-certain ones, is tested (tests/test_coach_intervals.py)."""
    n = len(values)
    if n == 0:
        return Estimate(0.0, 0.0, 0.0)
    m = sum(values) / n
    lo, hi = (min(values), max(values)) if bounds is None else bounds
    lo, hi = min(lo, min(values)), max(hi, max(values))  # a wrong bound never hides an outcome
    if lo == hi:  # nothing else can happen
        return Estimate(m, m, m)
    w = Z95 * Z95 / 2
    total = n + 2 * w
    squares = sum((v - m) ** 2 for v in values) + w * ((lo - m) ** 2 + (hi - m) ** 2)
    half = Z95 * math.sqrt(squares / (total - 1) / total)
    return Estimate(m, max(lo, m - half), min(hi, m + half))


def wilson(hits: int, n: int) -> Estimate:
    """A proportion and its Wilson 95 % interval (sound near 0 and 1, where the normal one is not)."""
    if n == 0:
        return Estimate(0.0, 0.0, 1.0)
    p = hits / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    # the interval holds p; clamped, as rounding can leave 1 - 1e-16 above a p of 1
    return Estimate(p, max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)))


@dataclass(frozen=True, slots=True)
class MoveValue:
    """One legal move, played out in every world."""

    action: Action
    counters: Estimate  # mean counters won - loos for the seat
    looed: Estimate  # chance of paying a loo
    trick: Estimate  # chance of taking at least one trick
    versus_best: Estimate  # mean counters minus the best move's, world by world (0 for the best)
    #: the share of worlds in which everyone else threw up and the pool came to the seat
    #: without play (R14-R16), and the mean counters those worlds bring (of `counters.mean`)
    uncontested: float = 0.0
    uncontested_counters: float = 0.0

    @property
    def key(self) -> str:
        """The move as the contract writes it: a declaration (`play`) or a card code (`AH`)."""
        return self.action.code if isinstance(self.action, Card) else self.action.value

    @property
    def label(self) -> str:
        """The move as a button names it: `Stand`, `Take miss`, `10♥`."""
        return action_label(self.action)

    def as_json(self) -> dict[str, Any]:
        """The move's value as the page and `coach --json` show it: counters, the chance of a loo
        and of a trick (each with its interval), against the best move, and the pool won
        uncontested."""
        return {
            "action": self.key,
            "label": self.label,
            "counters": self.counters.as_json(),
            "looed": self.looed.as_json(),
            "trick": self.trick.as_json(),
            "versus_best": self.versus_best.as_json(),
            "uncontested": round(self.uncontested, 4),
            "uncontested_counters": round(self.uncontested_counters, 4),
        }


@dataclass(frozen=True, slots=True)
class Advice:
    """The coach's answer for one seat at one position: the legal moves, best first."""

    seat: int
    phase: Phase
    moves: tuple[MoveValue, ...]  # ranked: best mean counters first
    rollouts: int  # worlds: each move was played out once in each
    seed: int
    bots: tuple[str, ...]  # the bot in each seat for the play-out (the seat's own later moves too)
    why: str
    note: str = STRATEGY_NOT_LAW

    @property
    def best(self) -> Action:
        """The coach's choice: the move with the most counters on average."""
        return self.moves[0].action

    @property
    def forced(self) -> bool:
        """One legal move: nothing to weigh (the figures still say what it is likely to bring)."""
        return len(self.moves) == 1

    def move(self, action: Action | str) -> MoveValue:
        """The figures of one move (an action, or its key: `play`, `AH`)."""
        for m in self.moves:
            if m.action == action or m.key == action:
                return m
        raise LooError(f"{action} is not one of the legal moves the coach weighed")

    def as_json(self) -> dict[str, Any]:
        """The advice as `coach --json` and the page show it: the seat, the phase, the best move
        and why, every move's value, the rollouts and the note that this is strategy, not law."""
        return {
            "seat": self.seat,
            "phase": self.phase.value,
            "best": self.moves[0].key,
            "forced": self.forced,
            "why": self.why,
            "note": self.note,
            "rollouts": self.rollouts,
            "seed": self.seed,
            "bots": list(self.bots),
            "moves": [m.as_json() for m in self.moves],
        }

    def text(self) -> str:
        """The advice as the terminal prints it: why, then a table of each move's counters, chance
        of a loo and chance of a trick, each with its 95 % interval."""
        lines = [f"Seat {self.seat}, {self.phase.value}: {self.why}", ""]
        lines.append(f"{'move':<28} {'counters (95 %)':>22} {'looed':>15} {'a trick':>15}")
        for m in self.moves:
            c, lo, tr = m.counters, m.looed, m.trick
            lines.append(
                f"{m.label:<28} {c.mean:+7.2f} [{c.low:+.2f}, {c.high:+.2f}] "
                f"{lo.mean:5.0%} [{lo.low:.0%}-{lo.high:.0%}] "
                f"{tr.mean:5.0%} [{tr.low:.0%}-{tr.high:.0%}]"
            )
        lines += [
            "",
            f"{self.rollouts:,} deals of the unseen cards, seed {self.seed}; bots: "
            f"{', '.join(dict.fromkeys(self.bots))}.",
            self.note,
        ]
        return "\n".join(lines) + "\n"


# --- the worlds: the unseen cards dealt consistently with what the seat has seen -------------


def _public_actions(view: SeatView) -> list[Action]:
    """The moves every seat has seen, in order: the declarations, then the cards played."""
    moves: list[Action] = [d for _, d in view.declarations]
    moves += [c for trick in view.tricks for _, c in trick]
    return moves


def _setup_from_view(view: SeatView) -> Setup:
    """The table as the view shows it (the bot's case: it has no Setup). The loo cap and the
    single's loo are not in the view; their defaults are assumed."""
    stakes = Stakes.make(view.stake, view.loo, pool=view.pool, players=view.players)
    return Setup(view.players, view.dealer, view.options, stakes, view.must)


@dataclass(frozen=True, slots=True)
class _Shape:
    """What is fixed in every world, and the holes the unseen cards fill."""

    setup: Setup
    view: SeatView
    moves: tuple[Action, ...]
    fixed: tuple[tuple[Card, ...], ...]  # per seat: its dealt cards that are known
    miss_fixed: tuple[Card, ...] | None  # the miss's known cards (None: no miss, a must)
    unseen: tuple[Card, ...]


def _shape(view: SeatView, setup: Setup) -> _Shape:
    me = view.seat
    played: list[list[Card]] = [[] for _ in range(view.players)]
    for trick in view.tricks:
        for s, c in trick:
            played[s].append(c)
    holder = view.miss_holder
    fixed: list[tuple[Card, ...]] = [tuple(p) for p in played]
    miss: tuple[Card, ...] | None = None if view.must else ()
    if holder is not None:
        # the miss-holder's dealt cards went face down, unseen (R11); what he plays is the miss
        fixed[holder] = ()
        miss = tuple(played[holder])
    if holder == me:
        miss = (*view.hand, *played[me])
        fixed[me] = view.put_down  # the hand it gave up for the miss: seen by it alone (R11)
    else:
        fixed[me] = (*view.hand, *played[me])
    known = {c for cards in fixed for c in cards} | set(miss or ())
    if view.turn_up is not None:
        known.add(view.turn_up)
    return _Shape(
        setup,
        view,
        tuple(_public_actions(view)),
        tuple(fixed),
        miss,
        tuple(c for c in FULL_PACK if c not in known),
    )


_Deal = tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...] | None, tuple[Card, ...]]


def _hand(shape: _Shape, deal: _Deal) -> Hand:
    hands, miss, stock = deal
    v = shape.view
    return Hand(shape.setup, hands, miss, v.turn_up, trumps=v.trumps, stock=stock)


def _deal_world(shape: _Shape, rng: random.Random) -> _Deal:
    """One deal of the unseen cards into the holes (no check against the play yet). Only the
    holes are drawn (a sample, not a shuffle of the pack); the stock keeps the rest."""
    holes = sum(3 - len(cards) for cards in shape.fixed)
    if shape.miss_fixed is not None:
        holes += 3 - len(shape.miss_fixed)
    drawn = rng.sample(shape.unseen, holes)
    at = 0
    hands: list[tuple[Card, ...]] = []
    for cards in shape.fixed:
        need = 3 - len(cards)
        hands.append(cards + tuple(drawn[at : at + need]))
        at += need
    miss: tuple[Card, ...] | None = None
    if shape.miss_fixed is not None:
        miss = shape.miss_fixed + tuple(drawn[at:])
    taken = set(drawn)
    return tuple(hands), miss, tuple(c for c in shape.unseen if c not in taken)


def _consistent(world: Hand, moves: Sequence[Action]) -> bool:
    """Replay the public moves, each judged by the engine: False at the first one that would
    not have been legal in this world."""
    for a in moves:
        if a not in world.legal_actions():
            return False
        world.apply_unchecked(a)
    return True


def _world(shape: _Shape, rng: random.Random) -> tuple[_Deal, Hand]:
    """A deal consistent with the play, and the hand at the seat's position in it."""
    for _ in range(MAX_TRIES):
        deal = _deal_world(shape, rng)
        world = _hand(shape, deal)
        if _consistent(world, shape.moves):
            return deal, world
    raise InputError(
        "position",
        f"no deal of the unseen cards fits the play in {MAX_TRIES:,} tries: the coach cannot "
        "weigh this position",
    )


def _replayed(shape: _Shape, deal: _Deal) -> Hand:
    """A fresh hand from `deal`, the (already judged) public moves made again (cheaper than
    `Hand.copy`)."""
    fresh = _hand(shape, deal)
    for a in shape.moves:
        fresh.apply_unchecked(a)
    return fresh


# --- the coach ------------------------------------------------------------------------------

class _Draws(random.Random):
    """The bots' draws in one play-out: `arm(seed)` makes the next draw the first of
    `random.Random(seed)`, and the seeding is done only when a bot draws. The sensible,
    cautious and bold bots never draw, and seeding, or putting a state back, for each move
    of each world cost a seventh of a play-out. What a bot can draw (`random`,
    `getrandbits`, and what is made of them: `randrange`, `choice`, `shuffle`, `gauss`, ...)
    and `getstate` see the seeded generator; tests/test_fast_paths.py checks the play-outs
    against seeding them every time, and the draws against `random.Random(seed)`'s."""

    _armed: int | None = None

    def arm(self, seed: int) -> None:
        """The next draw is the first of `random.Random(seed)`."""
        self._armed = seed
        self.gauss_next = None  # a gaussian kept from the last play-out is not drawn again

    def _fire(self, seed: int) -> None:
        self._armed = None
        random.Random.seed(self, seed)

    def seed(self, a: Any = None, version: int = 2) -> None:
        """`random.Random.seed`, which disarms."""
        self._armed = None
        super().seed(a, version)

    def setstate(self, state: Any) -> None:
        """`random.Random.setstate`, which disarms."""
        self._armed = None
        super().setstate(state)

    def getstate(self) -> Any:
        """`random.Random.getstate`, once armed: the state after seeding."""
        if self._armed is not None:
            self._fire(self._armed)
        return super().getstate()

    def random(self) -> float:
        """`random.Random.random`, once armed: from the seeded state."""
        if self._armed is not None:
            self._fire(self._armed)
        return super().random()

    def getrandbits(self, k: int, /) -> int:
        """`random.Random.getrandbits`, once armed: from the seeded state."""
        if self._armed is not None:
            self._fire(self._armed)
        return super().getrandbits(k)



def counter_bounds(setup: Setup) -> tuple[int, int]:
    """The fewest and most counters a seat can come away with from one deal (the stake aside):
    a loo at most (R39, unlimited R46, capped R49), the whole pool at most (R38)."""
    pool = setup.stakes.pool
    return -max(loo_amount(setup.stakes, pool, setup.options), setup.stakes.single_loo), pool


def _play_outs(
    view: SeatView, setup: Setup, seats: Sequence[Bot], rollouts: int, seed: int
) -> tuple[tuple[Action, ...], list[list[int]], list[int], list[int], list[list[int]]]:
    """Each legal move played out in `rollouts` worlds: the legal moves, and per move its
    counters in each world, its loos, its deals with a trick, and [worlds, counters] of the
    deals in which the pool came to the seat without play."""
    me = view.seat
    shape = _shape(view, setup)
    rng = random.Random(seed)
    deal, first = _world(shape, rng)
    if first.to_act != me:
        raise InputError(
            "position", f"seat {me} is not to act here: the coach answers the seat to act"
        )
    legal = tuple(first.legal_actions())
    n_moves = len(legal)
    nets: list[list[int]] = [[] for _ in legal]
    loos = [0] * n_moves
    tricks = [0] * n_moves
    walks = [[0, 0] for _ in legal]
    # Throwing up is not played out: R07, "throwing up his hand altogether for that round",
    # leaves the seat no trick to take, nothing to win and no loo to pay whatever the others
    # do, so every play-out would say 0 (a third of a declaring decision's time). The engine
    # agrees in every world tests/test_fast_paths.py plays out; the other moves meet the very
    # worlds and draws they would have met.
    played = [k for k, a in enumerate(legal) if a is not Declaration.PASS]
    out = [k for k in range(n_moves) if k not in played]
    last = played[-1] if played else -1
    world = first
    draws = _Draws()
    for i in range(rollouts):
        if i:
            deal, world = _world(shape, rng)
        seed_of_draws = rng.getrandbits(64)
        for k in out:
            nets[k].append(0)
        for k in played:
            action = legal[k]
            h = world if k == last else _replayed(shape, deal)
            h.apply_unchecked(action)
            draws.arm(seed_of_draws)  # every move meets the same draws of the bots
            play_hand(h, seats, draws)
            s = h.settlement
            assert s is not None
            net = s.receives.get(me, 0) - s.loo_pays.get(me, 0)
            nets[k].append(net)
            loos[k] += me in s.loo_pays
            tricks[k] += s.tricks_won.get(me, 0) > 0
            if s.pool_awarded_to == me:
                walks[k][0] += 1
                walks[k][1] += net
    return legal, nets, loos, tricks, walks



def advise(
    view: SeatView,
    setup: Setup | None = None,
    *,
    rollouts: int = ROLLOUTS,
    seed: int = 0,
    bots: Sequence[str | Bot] | str | Bot | None = None,
) -> Advice:
    """The coach's advice from `view` (what the seat to act may know) and the table's public
    `setup` (None: rebuilt from the view). `rollouts` worlds, each move played out in each.

    `bots`: one for every seat or one per seat (default `sensible`): they play the others and
    the seat's own later moves in the play-out."""
    if not 1 <= rollouts <= MAX_ROLLOUTS:
        raise InputError("rollouts", f"{rollouts} is out of range: 1 to {MAX_ROLLOUTS:,}")
    if setup is None:
        setup = _setup_from_view(view)
    many = bots if isinstance(bots, Sequence) and not isinstance(bots, str) else (bots,)
    if any((b if isinstance(b, str) else getattr(b, "name", None)) == "coached" for b in many):
        raise InputError(
            "bots", "coached cannot play the coach's play-outs (it would ask the coach again)"
        )
    seats = seat_bots(bots, view.players, "sensible")
    me = view.seat
    legal, nets, loos, tricks, walks = _play_outs(view, setup, seats, rollouts, seed)
    n_moves = len(legal)
    means = [sum(v) / rollouts for v in nets]
    order = sorted(range(n_moves), key=lambda k: (-means[k], -tricks[k], k))
    best = order[0]
    lo, hi = counter_bounds(setup)
    moves = tuple(
        MoveValue(
            legal[k],
            # throwing up is worth 0 in every world, known (R07), not estimated
            Estimate(0.0, 0.0, 0.0)
            if legal[k] is Declaration.PASS
            else mean_interval(nets[k], (lo, hi)),
            *(
                (Estimate(0.0, 0.0, 0.0), Estimate(0.0, 0.0, 0.0))
                if legal[k] is Declaration.PASS
                else (wilson(loos[k], rollouts), wilson(tricks[k], rollouts))
            ),
            # the best against itself is 0 in every world, not an estimate
            Estimate(0.0, 0.0, 0.0)
            if k == best
            else mean_interval(
                [a - b for a, b in zip(nets[k], nets[best], strict=True)], (lo - hi, hi - lo)
            ),
            walks[k][0] / rollouts,
            walks[k][1] / rollouts,
        )
        for k in order
    )
    return Advice(
        me,
        view.phase,
        moves,
        rollouts,
        seed,
        tuple(b.name for b in seats),
        _why(view, moves),
    )


class Rollouts(TypedDict, total=False):
    """How the coach plays the worlds out, as `advise` takes it (and defaults it): `rollouts`
    worlds, from `seed`, with `bots` playing every seat."""

    rollouts: int
    seed: int
    bots: Sequence[str | Bot] | str | Bot | None


def coach(hand: Hand, seat: int | None = None, **how: Unpack[Rollouts]) -> Advice:
    """Advice for `seat` (default: the seat to act) in `hand`, from that seat's view only;
    `how`: `advise`'s rollouts, seed and bots."""
    if hand.to_act is None:
        raise InputError("position", f"nobody is to act: the deal is {hand.phase.value}")
    if seat is None:
        seat = hand.to_act
    if not 0 <= seat < hand.setup.players:
        raise InputError("seat", f"seat {seat} is not at a table of {hand.setup.players}")
    if seat != hand.to_act:
        raise InputError(
            "seat",
            f"seat {seat} is not to act (seat {hand.to_act} is): the coach answers the seat to act",
        )
    if seat in hand.partial or (hand.phase is not Phase.PLAY and len(hand.held[seat]) < 3):
        raise InputError(
            "hands", f"the cards of seat {seat} are not given: the coach needs them"
        )
    if hand.penalties:
        raise InputError("penalties", "the coach does not weigh a deal after a penalty")
    return advise(seat_view(hand, seat), hand.setup, **how)


# --- the sentence of why ----------------------------------------------------------------------


_NUMBERS = ("no", "one", "two", "three")


def _trumps_words(view: SeatView) -> str:
    held = sorted((c for c in view.hand if c.suit is view.trumps), key=lambda c: -int(c.rank))
    if not held:
        return "with no trump"
    count = _NUMBERS[len(held)] if len(held) < len(_NUMBERS) else str(len(held))
    names = and_list([f"the {c.rank.word}" for c in held])
    return f"with {count} {'trump' if len(held) == 1 else 'trumps'} ({names})"


def _move_words(a: Action) -> str:
    if isinstance(a, Declaration):
        return {
            Declaration.PLAY: "standing",
            Declaration.TAKE_MISS: "taking the miss",
            Declaration.PASS: "throwing up",
            Declaration.PLAY_MISS_FOR_POOL: "playing the miss for the pool",
        }[a]
    return f"playing {action_label(a)}"


def _amount(x: float) -> str:
    """`0.1 counters`, `1.0 counter`, never `-0.0` (a difference that rounds to nothing)."""
    n = f"{abs(x):.1f}"
    return f"{n} {'counter' if n == '1.0' else 'counters'}"


def _earns(x: float) -> str:
    n = f"{abs(x):.1f}"
    word = "counter" if n == "1.0" else "counters"
    return f"earns {n} {word}" if x >= 0 else f"costs {n} {word}"


def _percent(p: float) -> str:
    return f"{100 * p:.0f} %"


def _capital(text: str) -> str:
    """`text` with its first letter a capital and the rest as written (`str.capitalize` would
    make "playing K♣" read "Playing k♣")."""
    return text[:1].upper() + text[1:]


def _uncontested_words(m: MoveValue) -> str:
    """Where most of a move's value comes from, when it is the deals nobody contested: in them
    everyone else threw up and the pool came without play (R14-R16). Empty otherwise."""
    if m.counters.mean <= 0 or 2 * m.uncontested_counters < m.counters.mean:
        return ""
    where = (
        f"in {_percent(m.uncontested)} of the deals everyone else threw up and the pool came "
        "to you unplayed"
    )
    if m.uncontested_counters >= m.counters.mean:
        return f" All of that comes without play: {where}; the deals played out lose on average."
    return f" Most of that comes without play: {where}."


def _why(view: SeatView, moves: Sequence[MoveValue]) -> str:
    """One plain sentence: the best move, its chance of a trick, its mean, and its margin."""
    best = moves[0]
    a = best.action
    what = _move_words(a)
    amount = f"{_earns(best.counters.mean)} on average"
    trick = f"you take a trick {_percent(best.trick.mean)} of the time"
    if len(moves) == 1:
        return f"Only one move is legal ({best.label}): {trick}, and it {amount}."
    second = moves[1]
    gap = -second.versus_best.mean
    # "better than", never "more than": when every move loses, the best loses less, and
    # "costs 0.7 counters (0.1 more than ...)" read as if it cost more
    margin = f"{_amount(gap)} better than {_move_words(second.action)}"
    if second.versus_best.high >= 0:
        margin += ", but the coach can't tell these apart"
    if a is Declaration.PASS:
        return (
            f"Throwing up is best: it risks nothing, while {_move_words(second.action)} "
            f"{_earns(second.counters.mean)} on average ({_percent(second.looed.mean)} looed)."
        )
    if a is Declaration.PLAY:
        return f"{_capital(_trumps_words(view))} {trick}; standing {amount} ({margin})."
    return f"{_capital(what)}, {trick}; it {amount} ({margin}).{_uncontested_words(best)}"


# --- the review of a deal: the seat's decisions that cost most ---------------------------------

#: A move that gives up more than this many counters on average (and surely some) is marked.
MISTAKE_COUNTERS = 0.5


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of the seat in a finished deal, weighed by the coach."""

    move: int  # its index in the deal's moves
    played: Action
    advice: Advice
    cost: Estimate  # counters the move played gave up against the coach's best, deal by deal
    mistake: bool  # cost above the threshold, and its interval above zero

    @property
    def words(self) -> str:
        """The decision in a sentence: the move played, and what it gave up against the coach's
        choice."""
        played = action_label(self.played)
        if self.played == self.advice.best:
            return f"{played}: the coach's choice too."
        best = action_label(self.advice.best)
        gave = f"{self.cost.mean:.1f} counters on average against {best}"
        return f"{played} gave up {gave}." if self.cost.mean > 0 else f"{played}: close to {best}."

    def as_json(self) -> dict[str, Any]:
        """The decision as the review's JSON: the move, what was played and the coach's best, the
        cost, whether a mistake, in words, and the whole advice."""
        return {
            "move": self.move,
            "played": self.advice.move(self.played).key,
            "best": self.advice.moves[0].key,
            "cost": self.cost.as_json(),
            "mistake": self.mistake,
            "words": self.words,
            "advice": self.advice.as_json(),
        }


def review(
    hand: Hand,
    seat: int,
    *,
    threshold: float = MISTAKE_COUNTERS,
    rollouts: int = 300,
    seed: int = 0,
    bots: Sequence[str | Bot] | str | Bot | None = None,
    moves: Collection[int] | None = None,
    advice: Callable[[Hand], Advice] | None = None,
) -> tuple[Decision, ...]:
    """Each decision `seat` made in `hand` (a forced move is no decision), in order, with the
    coach's advice at that moment (from the seat's view then) and what the move played cost
    against the best; `mistake` marks a cost over `threshold` counters whose interval is
    above zero, as lichess marks a mistake. Strategy, not law, like every advice.

    `moves`: only the decisions at these indices of the deal's moves (a task's learner's own,
    not his stand-in's); None for all. Each decision is seeded by `seed` and its index, so a
    decision weighed alone gets the same figures as in the whole review.

    `advice`: where the advice at each decision comes from (a table's kept advice, so that the
    review shows the figures the table showed); None: `coach` with `rollouts` and the seed."""
    if hand.penalties:
        raise InputError("penalties", "the coach does not weigh a deal after a penalty")
    back = hand.copy()
    moments: list[tuple[int, Hand, Action]] = []
    while back.actions:
        played = back.undo()
        if (
            back.to_act == seat
            and (moves is None or len(back.actions) in moves)
            and len(back.legal_actions()) > 1
        ):
            moments.append((len(back.actions), back.copy(), played))
    out: list[Decision] = []
    for index, before, played in reversed(moments):
        said = (
            coach(before, seat, rollouts=rollouts, seed=seed + index, bots=bots)
            if advice is None
            else advice(before)
        )
        vs = said.move(played).versus_best
        cost = Estimate(-vs.mean, -vs.high, -vs.low)
        out.append(Decision(index, played, said, cost, cost.mean > threshold and cost.low > 0))
    return tuple(out)
