"""One deal as a state machine: phase, the seat to act, legal actions, checked and unchecked moves.

The phase (deal → declare → play → settled) drives what may happen next. `legal_actions()`
is the one object to ask; `apply()` checks and raises `IllegalAction` carrying the verdict
and the position; `apply_unchecked()` is the fast path for simulation. Every move is kept,
so `undo()` and `transcript()` replay exactly.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Union

from .cards import Card, Suit, parse_card
from .deal import Dealt, check_table_size, deal, deal_from
from .declare import Declaration, DeclareRuling, declare_ruling
from .errors import IllegalAction, LooError
from .laws import Law
from .options import FirstLeader, RuleOptions, options_from
from .penalties import Consequence, Destination, Offence, PenaltyRuling, ruling_for
from .play import Ruling, follow_ruling, lead_ruling, trick_winner
from .settle import Settlement, Stakes, loo_amount, settle

Action = Union[Declaration, Card]  # noqa: UP007 - a runtime alias


class Phase(Enum):
    DEAL = "deal"
    DECLARE = "declare"
    PLAY = "play"
    SETTLED = "settled"


@dataclass(frozen=True, slots=True)
class Setup:
    """What is fixed before the cards are dealt."""

    players: int
    dealer: int
    options: RuleOptions
    stakes: Stakes
    must: bool = False

    @property
    def elder(self) -> int:
        return (self.dealer + 1) % self.players

    def rotation(self) -> tuple[int, ...]:
        """Seats in declaring order: the elder hand first, the dealer last (R05)."""
        return tuple((self.elder + i) % self.players for i in range(self.players))


@dataclass(frozen=True, slots=True)
class Verdict:
    """Who acts, what is legal, why; and for every other option the law that forbids it."""

    phase: Phase
    to_act: int | None
    legal: tuple[Action, ...]
    why: Law | None
    allowed_by: tuple[tuple[Action, Law], ...]
    forbidden: tuple[tuple[Action, Law], ...]

    def law_for(self, action: Action) -> Law | None:
        for a, law in self.forbidden:
            if a is action:
                return law
        return None


class LegalActions(Sequence[Action]):
    """The legal actions of the seat to act, with the verdict behind them (cf. python-chess)."""

    __slots__ = ("_legal", "_verdict_fn")

    def __init__(self, legal: tuple[Action, ...], verdict_fn: Any) -> None:
        self._legal = legal
        self._verdict_fn = verdict_fn

    def __getitem__(self, i: Any) -> Any:
        return self._legal[i]

    def __len__(self) -> int:
        return len(self._legal)

    def __contains__(self, a: object) -> bool:
        return a in self._legal

    def __iter__(self) -> Iterator[Action]:
        return iter(self._legal)

    def __repr__(self) -> str:
        return f"<LegalActions {[str(a) for a in self._legal]}>"

    def verdict(self) -> Verdict:
        v: Verdict = self._verdict_fn()
        return v


@dataclass(frozen=True, slots=True)
class PenaltyRecord:
    seat: int
    offence: Offence
    ruling: PenaltyRuling
    amount: int


@dataclass(frozen=True, slots=True)
class Trick:
    leader: int
    plays: tuple[tuple[int, Card], ...]
    winner: int | None

    def as_json(self) -> dict[str, Any]:
        return {
            "leader": self.leader,
            "plays": [[s, c.code] for s, c in self.plays],
            "winner": self.winner,
        }


@dataclass(frozen=True)
class Transcript:
    """Everything needed to replay a deal exactly: the setup, the deal (or its seed), the moves."""

    players: int
    dealer: int
    options: dict[str, Any]
    stakes: dict[str, Any]
    must: bool
    seed: int | None
    actions: tuple[str, ...]
    hands: tuple[tuple[str, ...], ...] | None = None
    miss: tuple[str, ...] | None = None
    turn_up: str | None = None
    penalties: tuple[tuple[int, int, str], ...] = field(default=())  # (move index, seat, offence)
    stock: tuple[str, ...] = ()  # the undealt pack, for a deal not made from a seed

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "players": self.players,
            "dealer": self.dealer,
            "rules": self.options,
            "stakes": self.stakes,
            "must": self.must,
            "seed": self.seed,
            "actions": list(self.actions),
        }
        if self.hands is not None:
            out["hands"] = [list(h) for h in self.hands]
            out["miss"] = list(self.miss) if self.miss else None
            out["turn_up"] = self.turn_up
            out["stock"] = list(self.stock)
        if self.penalties:
            out["penalties"] = [list(p) for p in self.penalties]
        return out

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Transcript:
        hands = data.get("hands")
        return Transcript(
            players=int(data["players"]),
            dealer=int(data["dealer"]),
            options=dict(data["rules"]),
            stakes=dict(data["stakes"]),
            must=bool(data["must"]),
            seed=data.get("seed"),
            actions=tuple(data["actions"]),
            hands=tuple(tuple(h) for h in hands) if hands is not None else None,
            miss=tuple(data["miss"]) if data.get("miss") else None,
            turn_up=data.get("turn_up"),
            penalties=tuple((int(a), int(b), str(c)) for a, b, c in data.get("penalties", ())),
            stock=tuple(data.get("stock", ())),
        )

    def replay(self) -> Hand:
        setup = Setup(
            self.players, self.dealer, options_from(self.options), Stakes(**self.stakes), self.must
        )
        if self.seed is not None:
            hand = Hand.dealt(setup, random.Random(self.seed), seed=self.seed)
        else:
            assert self.hands is not None and self.turn_up is not None
            hand = Hand(
                setup,
                [[parse_card(c) for c in h] for h in self.hands],
                [parse_card(c) for c in self.miss] if self.miss else None,
                parse_card(self.turn_up),
                stock=[parse_card(c) for c in self.stock],
            )
        pens = sorted(self.penalties, key=lambda p: p[0])  # stable: keeps their order
        for i, code in enumerate(self.actions):
            for _, seat, off in [p for p in pens if p[0] == i]:
                hand.penalise(seat, Offence.parse(off))
            hand.apply(parse_action(code))
        for _, seat, off in [p for p in pens if p[0] >= len(self.actions)]:
            hand.penalise(seat, Offence.parse(off))
        return hand


def parse_action(text: str | Action) -> Action:
    if isinstance(text, Card | Declaration):
        return text
    try:
        return Declaration(text)
    except ValueError:
        return parse_card(text, "action")


class Hand:
    """One deal of three-card Loo, from the deal to the settlement."""

    def __init__(
        self,
        setup: Setup,
        hands: Sequence[Sequence[Card]],
        miss: Sequence[Card] | None,
        turn_up: Card | None,
        *,
        trumps: Suit | None = None,
        stock: Sequence[Card] = (),
        seed: int | None = None,
        partial: frozenset[int] = frozenset(),
    ) -> None:
        check_table_size(setup.players, not setup.must)
        self.setup = setup
        self.options = setup.options
        self.turn_up = turn_up
        self.trumps: Suit | None = turn_up.suit if turn_up is not None else trumps
        self.seed = seed
        self.partial = partial  # seats whose hands are only partly known (scenarios)
        self._initial = (
            [list(h) for h in hands],
            list(miss) if miss is not None else None,
            tuple(stock),
        )
        self._reset()

    # --- construction ---------------------------------------------------------------
    @classmethod
    def dealt(cls, setup: Setup, rng: random.Random, *, seed: int | None = None) -> Hand:
        d = deal(
            rng,
            setup.players,
            setup.dealer,
            must=setup.must,
            position=setup.options.miss_deal_position,
        )
        return cls.from_dealt(setup, d, seed=seed)

    @classmethod
    def from_dealt(cls, setup: Setup, d: Dealt, *, seed: int | None = None) -> Hand:
        return cls(setup, d.hands, d.miss, d.turn_up, stock=d.stock, seed=seed)

    @classmethod
    def from_seed(
        cls,
        seed: int,
        players: int = 5,
        dealer: int = 0,
        options: RuleOptions | str | Mapping[str, Any] | None = None,
        *,
        must: bool = False,
        stakes: Stakes | None = None,
    ) -> Hand:
        opts = options if isinstance(options, RuleOptions) else options_from(options)
        setup = Setup(
            players, dealer, opts, stakes or Stakes.make(players=players, ante=opts.ante), must
        )
        return cls.dealt(setup, random.Random(seed), seed=seed)

    @classmethod
    def from_pack(cls, setup: Setup, pack: Sequence[Card]) -> Hand:
        return cls.from_dealt(
            setup,
            deal_from(
                pack,
                setup.players,
                setup.dealer,
                must=setup.must,
                position=setup.options.miss_deal_position,
            ),
        )

    def _reset(self) -> None:
        hands, miss, stock = self._initial
        s = self.setup
        self.held: list[list[Card]] = [list(h) for h in hands]
        self.miss: list[Card] | None = list(miss) if miss is not None else None
        self.stock: tuple[Card, ...] = stock
        self.discards: list[Card] = []
        self.declared: dict[int, Declaration] = {}
        self.rotation = s.rotation()
        self.miss_holder: int | None = None
        self.for_pool: int | None = None
        self.players_in: tuple[int, ...] = ()
        self.tricks: list[list[tuple[int, Card]]] = []
        self.winners: list[int] = []
        self.leaders: list[int] = []
        self.awarded_to: int | None = None
        self.award_law: Law | None = None
        self.penalties: list[PenaltyRecord] = []
        self._penalty_log: list[tuple[int, int, str]] = []
        self.forced_pass: set[int] = set()
        self.withheld_seats: set[int] = set()
        self.actions: list[Action] = []
        self.settlement: Settlement | None = None
        self.phase = Phase.DECLARE
        self.to_act: int | None = self.rotation[0]

    # --- reading the position ---------------------------------------------------------
    @property
    def leader(self) -> int | None:
        return self.leaders[-1] if self.phase is Phase.PLAY and self.leaders else None

    @property
    def current_trick(self) -> list[tuple[int, Card]]:
        return self.tricks[-1] if self.tricks else []

    def completed_tricks(self) -> list[Trick]:
        out = []
        for i, plays in enumerate(self.tricks):
            done = i < len(self.winners)
            out.append(Trick(self.leaders[i], tuple(plays), self.winners[i] if done else None))
        return out

    def seen_cards(self) -> list[Card]:
        """Cards every player has seen: the turn-up and every card played so far."""
        out = [c for t in self.tricks for _, c in t]
        if self.turn_up is not None:
            out.append(self.turn_up)
        return out

    def hand_of(self, seat: int) -> tuple[Card, ...]:
        return tuple(self.held[seat])

    def __repr__(self) -> str:
        return f"<Hand phase={self.phase.value} to_act={self.to_act} moves={len(self.actions)}>"

    # --- rulings ----------------------------------------------------------------------
    def _declare_ruling(self, seat: int) -> DeclareRuling:
        # only 0, 1 or "more" standers matter (R17), which keeps the ruling cache small
        standers = min(2, sum(1 for d in self.declared.values() if d is Declaration.PLAY))
        return declare_ruling(
            is_dealer=seat == self.setup.dealer,
            must=self.setup.must,
            miss_untaken=self.miss is not None and self.miss_holder is None,
            standers_before=standers,
            miss_holder_before=self.miss_holder is not None,
            options=self.options,
            forced_pass=seat in self.forced_pass,
        )

    def _play_ruling(self, seat: int) -> Ruling:
        if self.trumps is None:
            raise LooError("trumps are not known (no turn-up): cannot rule on the play")
        trick = self.current_trick if len(self.tricks) > len(self.winners) else []
        hand = self.held[seat]
        if not trick:
            return lead_ruling(
                hand,
                self.trumps,
                self.turn_up,
                len(self.players_in),
                bool(self.winners),
                self.options,
                self.seen_cards,
            )
        return follow_ruling(hand, [c for _, c in trick], self.trumps, self.options)

    def legal_actions(self) -> LegalActions:
        seat = self.to_act
        if seat is None:
            return LegalActions((), self.verdict)
        if self.phase is Phase.DECLARE:
            return LegalActions(self._declare_ruling(seat).legal, self.verdict)
        return LegalActions(self._play_ruling(seat).legal, self.verdict)

    def verdict(self) -> Verdict:
        seat = self.to_act
        if seat is None:
            return Verdict(self.phase, None, (), self.award_law, (), ())
        if self.phase is Phase.DECLARE:
            r = self._declare_ruling(seat)
            return Verdict(self.phase, seat, r.legal, r.why, r.allowed_by, r.forbidden)
        p = self._play_ruling(seat)
        return Verdict(
            self.phase, seat, p.legal, p.why, tuple((c, p.why) for c in p.legal), p.forbidden
        )

    # --- moves ------------------------------------------------------------------------
    def apply(self, action: Action | str) -> None:
        """Checked move: raises IllegalAction (with the verdict and the position) if forbidden."""
        a = parse_action(action)
        if self.to_act is None:
            raise IllegalAction(f"{a} cannot be made: the deal is {self.phase.value}", None, self)
        legal = self.legal_actions()
        if a not in legal:
            v = legal.verdict()
            law = v.law_for(a)
            if law is None:
                what = "card" if isinstance(a, Card) else "declaration"
                why = (
                    f"seat {self.to_act} does not hold {a}"
                    if isinstance(a, Card)
                    else f"{a} is not a declaration now"
                )
                raise IllegalAction(f"{what} {a} is not possible: {why}", v, self)
            raise IllegalAction(
                f"seat {self.to_act} may not {_verb(a)} {a}: {law.reason} ({law.rule})", v, self
            )
        self.apply_unchecked(a)

    def declare(self, d: Declaration | str) -> None:
        self.apply(Declaration(d) if isinstance(d, str) else d)

    def play(self, card: Card | str) -> None:
        self.apply(parse_card(card) if isinstance(card, str) else card)

    def apply_unchecked(self, a: Action) -> None:
        """Fast path: the caller vouches that `a` is legal."""
        self.actions.append(a)
        if isinstance(a, Declaration):
            self._declare(a)
        else:
            self._play(a)

    def _declare(self, d: Declaration) -> None:
        seat = self.to_act
        assert seat is not None
        self.declared[seat] = d
        if d is Declaration.TAKE_MISS or d is Declaration.PLAY_MISS_FOR_POOL:
            assert self.miss is not None
            self.discards.extend(self.held[seat])  # R11: face down, unseen
            self.held[seat] = self.miss
            self.miss = None
            self.miss_holder = seat
            if d is Declaration.PLAY_MISS_FOR_POOL:
                self.for_pool = seat
        elif d is Declaration.PASS:
            self.discards.extend(self.held[seat])
            self.held[seat] = []
        n = len(self.declared)
        dealer = self.setup.dealer
        if n == len(self.rotation) - 1 and not any(x.plays for x in self.declared.values()):
            self._award(dealer, Law.DEALER_TAKES_POOL)  # R14: the dealer does not declare
            return
        if n < len(self.rotation):
            self.to_act = self.rotation[n]
            return
        self.players_in = tuple(s for s in self.rotation if self.declared[s].plays)
        if self.miss is not None:  # A19: an untaken miss goes back face down
            self.discards.extend(self.miss)
            self.miss = None
        if len(self.players_in) == 1:
            only = self.players_in[0]
            if only == self.miss_holder:
                law = Law.MISS_HOLDER_TAKES_POOL  # R15, R16
            elif self.setup.dealer in self.forced_pass:
                law = Law.ONLY_STANDER_TAKES_POOL  # R53 forced the dealer out
            else:
                law = Law.LONE_STANDER_TAKES_POOL  # the dealer gave up the stakes (V7)
            self._award(only, law)
            return
        self.phase = Phase.PLAY
        first = self.players_in[0]  # R21
        if self.options.first_leader is FirstLeader.MISS_HOLDER and self.miss_holder is not None:
            first = self.miss_holder  # R22
        self.tricks.append([])
        self.leaders.append(first)
        self.to_act = first

    def _award(self, seat: int, law: Law) -> None:
        self.awarded_to = seat
        self.award_law = law
        self._finish()

    def _play(self, card: Card) -> None:
        seat = self.to_act
        assert seat is not None and self.trumps is not None
        self.held[seat].remove(card)
        trick = self.tricks[-1]
        trick.append((seat, card))
        if len(trick) < len(self.players_in):
            i = self.players_in.index(seat)
            self.to_act = self.players_in[(i + 1) % len(self.players_in)]
            return
        winner = trick_winner(trick, self.trumps)
        self.winners.append(winner)
        if len(self.winners) == 3:
            self._finish()
            return
        self.tricks.append([])
        self.leaders.append(winner)
        self.to_act = winner  # R29

    def _finish(self) -> None:
        self.phase = Phase.SETTLED
        self.to_act = None
        stakes = self.setup.stakes
        now = sum(p.amount for p in self.penalties if p.ruling.destination is Destination.POOL_NOW)
        nxt = sum(p.amount for p in self.penalties if p.ruling.destination is Destination.NEXT_POOL)
        self.settlement = settle(
            players=self.setup.players,
            stakes=stakes,
            options=self.options,
            players_in=self.players_in,
            trick_winners=self.winners if self.awarded_to is None else None,
            for_pool=self.for_pool,
            withheld_seats=sorted(self.withheld_seats),
            penalties_now=now,
            penalties_next=nxt,
            awarded_to=self.awarded_to,
            award_law=self.award_law,
            penalties=self.penalties,
        )

    # --- penalties ----------------------------------------------------------------------
    def penalise(self, seat: int, offence: Offence) -> PenaltyRecord:
        """Record an irregularity (R50–R63): its amount, where it goes, and what follows."""
        declared = seat in self.declared and self.declared[seat].plays
        ruling = ruling_for(offence, declared=declared)
        full = loo_amount(self.setup.stakes, self.setup.stakes.pool, self.options)
        rec = PenaltyRecord(
            seat, offence, ruling, ruling.amount(self.setup.stakes.single_loo, full)
        )
        self.penalties.append(rec)
        self._penalty_log.append((len(self.actions), seat, offence.name.lower()))
        if Consequence.MUST_THROW_UP in ruling.consequences and seat not in self.declared:
            self.forced_pass.add(seat)
        if Consequence.WINNINGS_WITHHELD in ruling.consequences:
            self.withheld_seats.add(seat)
        if self.phase is Phase.SETTLED:  # a late penalty changes the money
            self._finish()
        return rec

    # --- history ------------------------------------------------------------------------
    def undo(self) -> Action:
        """Take back the last move (penalties recorded after it go too)."""
        if not self.actions:
            raise LooError("nothing to undo")
        actions = self.actions[:-1]
        last = self.actions[-1]
        log = [p for p in self._penalty_log if p[0] <= len(actions)]
        self._reset()
        for i, a in enumerate(actions):
            for _, seat, off in [p for p in log if p[0] == i]:
                self.penalise(seat, Offence.parse(off))
            self.apply_unchecked(a)
        for _, seat, off in [p for p in log if p[0] == len(actions)]:
            self.penalise(seat, Offence.parse(off))
        return last

    def transcript(self) -> Transcript:
        s = self.setup
        st = s.stakes
        stakes = {
            "stake": st.stake,
            "loo": st.loo,
            "single_loo": st.single_loo,
            "loo_cap": st.loo_cap,
            "pool": st.pool,
        }
        hands = miss = turn = None
        stock: tuple[str, ...] = ()
        if self.seed is None:
            h0, m0, st0 = self._initial
            stock = tuple(c.code for c in st0)
            hands = tuple(tuple(c.code for c in h) for h in h0)
            miss = tuple(c.code for c in m0) if m0 is not None else None
            turn = self.turn_up.code if self.turn_up is not None else None
        return Transcript(
            s.players,
            s.dealer,
            self.options.to_dict(),
            stakes,
            s.must,
            self.seed,
            tuple(str(a) for a in self.actions),
            hands,
            miss,
            turn,
            tuple(self._penalty_log),
            stock,
        )

    def snapshot(self) -> tuple[Any, ...]:
        """Everything that makes up the position, as a hashable value: two hands with equal
        snapshots are in the same position (used to check undo and replay)."""
        return (
            self.phase,
            self.to_act,
            tuple(tuple(x) for x in self.held),
            None if self.miss is None else tuple(self.miss),
            tuple(self.discards),
            tuple(sorted(self.declared.items())),
            tuple(tuple(t) for t in self.tricks),
            tuple(self.winners),
            tuple(self.leaders),
            tuple(self.actions),
            tuple(self.players_in),
            self.miss_holder,
            self.for_pool,
            self.awarded_to,
            tuple(self.penalties),
            frozenset(self.forced_pass),
            frozenset(self.withheld_seats),
            self.settlement,
        )

    def accounted(self) -> dict[str, int]:
        """Where every card is (for the invariant: 52 at every step of a dealt hand)."""
        return {
            "hands": sum(len(h) for h in self.held),
            "miss": len(self.miss or ()),
            "discards": len(self.discards),
            "played": sum(len(t) for t in self.tricks),
            "turn_up": 1 if self.turn_up is not None else 0,
            "stock": len(self.stock),
        }


def _verb(a: Action) -> str:
    return "play" if isinstance(a, Card) else "declare"
