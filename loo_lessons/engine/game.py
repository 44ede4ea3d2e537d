"""One deal as a state machine: phase, the seat to act, legal actions, checked and unchecked moves.

`Hand.phase` is the one phase (deal → declare → play → settled; DEAL only for a hand built
to show its deal, until the elder hand declares) and drives what may happen next.
`legal_actions()` is the one object to ask (kept until the position changes); `apply()`
takes the books' words or card codes, checks, and raises `IllegalAction` carrying the verdict
and the position as scenario text; `apply_unchecked()` is the fast path for simulation
(the play's filters are decided once per position, and explained as a `Ruling` only when a
verdict is asked). `legal_with(cards)` asks the same rules about cards the seat may not hold.
`penalise()` refuses offences the position makes impossible; `settle_by()` settles from the
tricks' winners alone. `copy()` gives an independent hand, `status()`/`problems()` say why a
position is not one of the game, `position()`/`to_scenario()` write it down. Every move is
kept, so `undo()` and `transcript()` replay exactly (`Transcript.replay()`); a transcript
read back from a file is checked by the scenario layer (`scenario.load_transcript`).

Errors say what went wrong (engine/errors.py): text that is not a move is a `NotationError`,
a move the rules forbid an `IllegalAction`, any other refused value an `InputError`.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from enum import Enum
from typing import Any, Union, cast

from .cards import Card, Rank, Suit, parse_card, shuffled_pack
from .deal import (
    MAX_PLAYERS_WITH_MISS,
    MAX_PLAYERS_WITHOUT_MISS,
    MIN_PLAYERS,
    Dealt,
    check_table_size,
    cut,
    round_order,
)
from .declare import (
    Declaration,
    DeclareKey,
    DeclareRuling,
    declare_ruling,
    in_words,
    parse_declaration,
    ruling_memo,
)
from .errors import IllegalAction, InputError, LooError, NotationError
from .laws import Law, law_against
from .options import FirstLeader, PoolRemainder, RuleOptions, VoidTrumpRule, options_from
from .penalties import Consequence, Destination, Offence, PenaltyRuling, ruling_for
from .play import Filters, Ruling, explained, follow_filters, lead_filters
from .position import position_mapping, position_text
from .settle import Settlement, Stakes, loo_amount, resettled, settle_in_order
from .setup import Setup as Setup  # re-exported: `game.Setup` is where readers find it
from .status import Problem, Status, position_problems, reasons, status_of

Action = Union[Declaration, Card]  # noqa: UP007 - a runtime alias


class Phase(Enum):
    """Where a deal stands: DEAL (a hand shown as dealt, until the elder hand declares), DECLARE
    (R05–R20), PLAY (three tricks, R21–R37), SETTLED (the pool divided or awarded, R38–R49)."""

    DEAL = "deal"
    DECLARE = "declare"
    PLAY = "play"
    SETTLED = "settled"


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
        """The law that forbids `action` here (rule id, reason, quote), or None if it is legal (or
        not an option at all, e.g. a card the seat does not hold)."""
        return law_against(self.forbidden, action)


class LegalActions(tuple[Action, ...]):
    """The legal actions of the seat to act, with the verdict behind them (cf. python-chess).

    A tuple, so that counting and indexing them cost what a tuple's do (a simulation asks
    both on every move); `verdict()` says why, and is only worked out when asked. A
    declaring seat's are made once per table and moment of the declarations, with their
    verdict (`Hand.legal_actions`), and handed out again."""

    _hand: Hand  # whose verdict this is (set by `Hand.legal_actions` in the play)
    _verdict: Verdict | None = None  # the verdict itself, when it was made with them

    def __repr__(self) -> str:
        return f"<LegalActions {[str(a) for a in self]}>"

    def verdict(self) -> Verdict:
        """The engine's `Verdict` on the position these actions were found in: who acts, what is
        legal and by which law, and for every other option the law (rule id) that forbids it.
        Worked out when asked (`Hand.verdict`)."""
        v = self._verdict
        return v if v is not None else self._hand.verdict()


@dataclass(frozen=True, slots=True)
class PenaltyRecord:
    """A penalty recorded on a hand (R50–R63): the seat, the offence, its ruling (size,
    destination, consequences, rule ids) and the counters it costs."""

    seat: int
    offence: Offence
    ruling: PenaltyRuling
    amount: int


@dataclass(frozen=True, slots=True)
class Trick:
    """One trick: who led it, the plays in order (seat, card), and its winner (R37), None while it
    is being played."""

    leader: int
    plays: tuple[tuple[int, Card], ...]
    winner: int | None

    def as_json(self) -> dict[str, Any]:
        """The trick as the contract's JSON writes it: `leader`, `plays` as [seat, card code]
        pairs, `winner`."""
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
        """The transcript as JSON-ready data: the setup, the seed (or the hands, miss, turn-up and
        stock of a deal not made from a seed), the moves as the engine writes them, and the
        penalties as [move index, seat, offence]. `scenario.load_transcript` reads it back,
        checked."""
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

    def start(self) -> Hand:
        """The hand as dealt, before any move: dealt again from the seed (the same cards on
        every machine), or from the hands, miss, turn-up and stock written down."""
        setup = Setup(
            self.players, self.dealer, options_from(self.options), Stakes(**self.stakes), self.must
        )
        if self.seed is not None:
            return Hand.dealt(setup, random.Random(self.seed), seed=self.seed)
        if self.hands is None or self.turn_up is None:
            raise InputError("seed", "a transcript gives its seed or its hands and turn-up")
        return Hand(
            setup,
            [[parse_card(c) for c in h] for h in self.hands],
            [parse_card(c) for c in self.miss] if self.miss else None,
            parse_card(self.turn_up),
            stock=[parse_card(c) for c in self.stock],
        )

    def steps(self) -> Iterator[tuple[str, Callable[[Hand], object]]]:
        """Every step of the replay in order, each named as its JSON field (`actions[4]`,
        `penalties[0]`) beside the call that makes it on a hand: before each move the
        penalties recorded there (in the order given), after the last move the rest."""
        pens = sorted(enumerate(self.penalties), key=lambda p: p[1][0])  # stable
        for i, code in enumerate((*self.actions, None)):
            due = [p for p in pens if (p[1][0] == i if code is not None else p[1][0] >= i)]
            for j, (_, seat, off) in due:
                yield f"penalties[{j}]", _penalty_step(seat, off)
            if code is not None:
                yield f"actions[{i}]", _move_step(code)

    def replay(self) -> Hand:
        """The hand these moves make: `start()`, then every step of `steps()`, each move
        through the checked `apply` (an illegal one raises `IllegalAction`) and each penalty
        through `penalise`. A transcript read from a file is checked field by field first
        (`loo_lessons.scenario.load_transcript`)."""
        hand = self.start()
        for _, step in self.steps():
            step(hand)
        return hand


def _penalty_step(seat: int, offence: str) -> Callable[[Hand], object]:
    return lambda hand: hand.penalise(seat, Offence.parse(offence))


def _move_step(code: str) -> Callable[[Hand], object]:
    return lambda hand: hand.apply(code)


def parse_action(text: str | Action) -> Action:
    """The move `text` names: the one reader of typed moves. It takes the books' words
    (`stand`, `throw up`, `take miss`, `play the miss for the pool`), the contract's (`play`,
    `pass`, `take_miss`, `play_miss_for_pool`), in any case, with spaces or underscores, or a
    card code (`10H`, `TH`, `jc`), and returns a `Declaration` or a `Card` (a move already
    read is returned as it is). Anything else raises `NotationError` naming `action`; whether
    the move is legal is `Hand.apply`'s question, not this one's."""
    if isinstance(text, Card | Declaration):
        return text
    if isinstance(text, str):
        d = parse_declaration(text)
        if d is not None:
            return d
        try:
            return parse_card(text, "action")
        except NotationError:
            pass
    raise NotationError(
        "action",
        f"{text!r} is neither a declaration ({_DECLARE_WORDS}) nor a card code "
        "(rank then suit, e.g. 10H, TH or KD)",
    )


_DECLARE_WORDS = "stand, take miss, throw up, play the miss for the pool"


# Enum members used on every move, looked up once (CPython 3.11 pays ~0.1 µs for `Phase.X`)
_DEAL, _DECLARE, _PLAY, _SETTLED = Phase.DEAL, Phase.DECLARE, Phase.PLAY, Phase.SETTLED
_STAND, _PASS, _FOR_POOL = Declaration.PLAY, Declaration.PASS, Declaration.PLAY_MISS_FOR_POOL
_NOBODY: frozenset[int] = frozenset()  # no seat's hand only partly known: a dealt hand
_MISS_HOLDER_LEADS = FirstLeader.MISS_HOLDER


class Hand:
    """One deal of three-card Loo, from the deal to the settlement."""

    # its state, every piece set by `__init__` and `_reset` (slots: a simulation builds a hand
    # per deal and moves it a dozen times, and a slot is set and read faster than a dict key)
    __slots__ = (
        "__weakref__",
        "_best",
        "_best_seat",
        "_counts",
        "_declare_legal",
        "_declare_memo",
        "_filters",
        "_given_trumps",
        "_in_play",
        "_initial",
        "_led",
        "_legal",
        "_next_seat",
        "_penalty_log",
        "_rotation",
        "_ruling",
        "_seated",
        "_settled",
        "_standers",
        "actions",
        "award_law",
        "awarded_to",
        "declared",
        "discards",
        "for_pool",
        "forced_pass",
        "held",
        "leaders",
        "miss",
        "miss_holder",
        "options",
        "partial",
        "penalties",
        "phase",
        "players_in",
        "rotation",
        "seed",
        "settlement",
        "setup",
        "shows_deal",
        "stock",
        "to_act",
        "tricks",
        "trumps",
        "turn_up",
        "winners",
        "withheld_seats",
    )

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
        shows_deal: bool = False,
    ) -> None:
        # Any cards are accepted, as python-chess accepts any board: `status()` says what is
        # wrong with them, and a table that cannot sit down simply has nobody to act.
        self._start(
            setup,
            _table_of(setup),
            tuple(map(tuple, hands)),
            tuple(miss) if miss is not None else None,
            turn_up,
            trumps,
            tuple(stock),
            seed,
            partial,
            shows_deal,
        )

    def _start(
        self,
        setup: Setup,
        facts: _TableFacts,
        hands: tuple[tuple[Card, ...], ...],
        miss: tuple[Card, ...] | None,
        turn_up: Card | None,
        trumps: Suit | None,
        stock: tuple[Card, ...],
        seed: int | None,
        partial: frozenset[int],
        shows_deal: bool,
    ) -> None:
        """`__init__`'s work on what it has put in order (and `dealt`'s, on a fresh deal)."""
        self.setup = setup
        self.options = setup.options
        self.turn_up = turn_up
        self.trumps: Suit | None = turn_up.suit if turn_up is not None else trumps
        self._given_trumps = trumps  # kept to say when it disagrees with the turn-up (R04)
        self.seed = seed
        self.partial = partial  # seats whose hands are only partly known (scenarios)
        # the position is the deal itself (a pack was dealt to show it): Phase.DEAL until
        # the elder hand, who is the one asked first (R05), declares
        self.shows_deal = shows_deal
        self._seated, self._rotation, self._declare_memo, _, self._declare_legal, self._settled = (
            facts
        )
        self._initial: tuple[
            tuple[tuple[Card, ...], ...], tuple[Card, ...] | None, tuple[Card, ...]
        ]
        self._initial = (hands, miss, stock)
        self._reset()

    # --- construction ---------------------------------------------------------------
    @classmethod
    def dealt(cls, setup: Setup, rng: random.Random, *, seed: int | None = None) -> Hand:
        """A new hand at `setup`, dealt from a pack shuffled by the injected `rng` (R01–R04);
        `seed`, when given, is written into its transcript so that the deal can be made again."""
        facts = _table_of(setup)
        order = facts[3]
        if not order:  # a table that cannot sit down: `check_table_size` says why, or it deals on
            check_table_size(setup.players, not setup.must)
            d = setup.deal_from(shuffled_pack(rng))
            return cls(setup, d.hands, d.miss, d.turn_up, stock=d.stock, seed=seed)
        # `deal`, with the table's order found once (a simulation deals at one table); the
        # cards come cut into tuples, as `__init__` would put them
        hands, miss, turn_up, stock = cut(shuffled_pack(rng), setup.players, order)
        hand = cls.__new__(cls)
        hand._start(setup, facts, hands, miss, turn_up, None, stock, seed, _NOBODY, False)
        return hand

    @classmethod
    def from_dealt(
        cls, setup: Setup, d: Dealt, *, seed: int | None = None, shows_deal: bool = False
    ) -> Hand:
        """A new hand with the cards of a deal already made (`Dealt`); `shows_deal` starts it in
        Phase.DEAL."""
        return cls(
            setup, d.hands, d.miss, d.turn_up, stock=d.stock, seed=seed, shows_deal=shows_deal
        )

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
        """A new hand dealt from `random.Random(seed)`: the same seed deals the same cards on every
        machine. `options` is a `RuleOptions`, a preset name (`hoffmann`, `peel`, …) or a
        mapping of options (`InputError` for an unknown one); `stakes` defaults to the preset's
        stake with the dealer's (or every player's, V9) ante in the pool (R02). Returns the hand
        at its first declaration (R05)."""
        opts = options if isinstance(options, RuleOptions) else options_from(options)
        setup = Setup(
            players, dealer, opts, stakes or Stakes.make(players=players, ante=opts.ante), must
        )
        return cls.dealt(setup, random.Random(seed), seed=seed)

    @classmethod
    def from_pack(cls, setup: Setup, pack: Sequence[Card], *, shows_deal: bool = False) -> Hand:
        """A new hand dealt from `pack` in its order, as the dealer deals (R03: one card at a time
        from his left; the miss where `miss_deal_position` puts it, V13; the next card turned
        up, R04)."""
        return cls.from_dealt(
            setup,
            setup.deal_from(pack),
            shows_deal=shows_deal,
        )

    def _reset(self) -> None:
        hands, miss, stock = self._initial
        s = self.setup
        seated = self._seated
        self.held: list[list[Card]] = list(map(list, hands))
        if len(self.held) < s.players:
            self.held += [[] for _ in range(len(self.held), s.players)]
        self.miss: list[Card] | None = list(miss) if miss is not None else None
        self.stock: tuple[Card, ...] = stock
        self.discards: list[Card] = []
        self.declared: dict[int, Declaration] = {}
        self.rotation = self._rotation
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
        self._counts: dict[int, int] | None = None  # tricks won, when only the counts are known
        self.phase = _DEAL if self.shows_deal else _DECLARE
        self.to_act: int | None = self.rotation[0] if seated else None
        self._standers = 0  # seats that stood on their own cards so far (R17 counts them)
        self._in_play = 0  # in the play: how many play each trick (len(players_in))
        self._next_seat: dict[int, int] = {}  # in the play: each seat's left-hand player in
        # the card winning the trick being played so far, and its seat (R37), kept as the
        # cards fall: the follower's ruling and the trick's winner both read it
        self._best: Card | None = None
        self._best_seat = -1
        self._led: Suit | None = None  # the suit led to it
        # the ruling for the seat to act and its legal actions, until the position changes
        self._ruling: DeclareRuling | Ruling | None = None
        self._filters: Filters | None = None  # the play's filters, explained only when asked
        self._legal: LegalActions | None = None

    # --- reading the position ---------------------------------------------------------
    @property
    def leader(self) -> int | None:
        """The seat that led the trick being played (R21, R29), or None outside the play."""
        return self.leaders[-1] if self.phase is _PLAY and self.leaders else None

    @property
    def current_trick(self) -> list[tuple[int, Card]]:
        """The plays of the latest trick so far (seat, card); [] before the play."""
        return self.tricks[-1] if self.tricks else []

    def completed_tricks(self) -> list[Trick]:
        """Every trick begun, as `Trick`s, each with its winner once it is complete (R37)."""
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
        """The cards `seat` holds now (the miss, once it has taken it; none once it has thrown up)."""
        return tuple(self.held[seat])

    def put_down_by(self, seat: int) -> tuple[Card, ...]:
        """The cards `seat` was dealt and has put face down, which it alone has seen: its own
        hand, once it has taken the miss (R11) or thrown up (R07); none while it holds them
        (or when the position does not know them)."""
        if self.declared.get(seat) in (None, _STAND):
            return ()
        hands = self._initial[0]
        return tuple(hands[seat]) if seat < len(hands) else ()

    def __repr__(self) -> str:
        return f"<Hand phase={self.phase.value} to_act={self.to_act} moves={len(self.actions)}>"

    # --- rulings ----------------------------------------------------------------------
    def _declare_ruling(self, seat: int) -> DeclareRuling:
        """The declaring ruling for `seat`, the seat to act (found by `legal_actions`)."""
        if self._ruling is None:
            self._legal = None
            self.legal_actions()
        return cast(DeclareRuling, self._ruling)

    def _new_declare_ruling(self, key: DeclareKey) -> DeclareRuling:
        d = self._declare_memo[key] = declare_ruling(
            is_dealer=key[0],
            must=key[1],
            miss_untaken=key[2],
            standers_before=key[3],
            miss_holder_before=key[4],
            options=self.options,
            forced_pass=key[5],
        )
        return d

    def _play_filters(self, cards: Sequence[Card], options: RuleOptions) -> Filters:
        """The filters of the lead or follow rules on `cards`, played now (R23–R36)."""
        trumps = self.trumps
        if trumps is None:
            raise LooError("trumps are not known (no turn-up): cannot rule on the play")
        best, led = self._best, self._led
        if best is not None:
            assert led is not None  # set with the trick's first card
            return follow_filters(cards, led, best, trumps, options)
        return lead_filters(
            cards,
            trumps,
            self.turn_up,
            len(self.players_in),
            bool(self.winners),
            options,
            self.seen_cards,
        )

    def _filters_of(self, seat: int) -> Filters:
        f = self._filters
        if f is None:
            f = self._filters = self._play_filters(self.held[seat], self.options)
        return f

    def _play_ruling(self, seat: int) -> Ruling:
        r = self._ruling
        if r is None:
            r = self._ruling = explained(self.held[seat], self._filters_of(seat))
        return cast(Ruling, r)

    def legal_with(
        self, cards: Sequence[Card], options: RuleOptions | None = None
    ) -> tuple[Card, ...]:
        """The cards the seat to play could play now if it held `cards` (under `options`,
        else this hand's): the same lead and follow rules as `legal_actions`, asked about
        cards it may not hold, without touching the position. Empty when no card is to be
        played (declaring, or the deal is over)."""
        if self.to_act is None or self.phase is not _PLAY:
            return ()
        return self._play_filters(cards, options or self.options)[0]

    def legal_actions(self) -> LegalActions:
        """The legal actions of the seat to act, as `LegalActions` (a tuple; `.verdict()` says
        why): while declaring the declarations the rules allow it (R06–R20, R43–R45), in the
        play the cards the lead and follow rules allow (R23–R36). Empty when nobody is to act.
        Kept until the position changes."""
        legal = self._legal
        if legal is None:
            seat = self.to_act
            moves: tuple[Action, ...]
            if seat is None:
                moves = ()
            elif self.phase is _PLAY:
                held = self.held[seat]
                if len(held) == 1:
                    # his last card: no law can forbid the only card he holds (a seat to act
                    # always has a legal card), so the ruling waits until a verdict is asked
                    moves = (held[0],)
                else:
                    f = self._filters
                    if f is None:
                        best = self._best
                        led = self._led
                        trumps = self.trumps
                        if best is None or led is None or trumps is None:
                            f = self._play_filters(held, self.options)
                        else:  # following, the most asked: what `_play_filters` asks, directly
                            f = follow_filters(held, led, best, trumps, self.options)
                        self._filters = f
                    moves = f[0]
            else:  # declaring: the ruling of this moment of the declarations (R06–R20)
                holder = self.miss_holder is not None
                standers = self._standers
                # only 0, 1 or "more" standers matter (R17), which keeps the memo small
                at = (
                    seat,
                    self.miss is not None and not holder,
                    standers if standers < 2 else 2,
                    holder,
                    seat in self.forced_pass,
                    self.phase is _DEAL,
                )
                made = self._declare_legal.get(at) or self._new_declare_legal(at)
                self._ruling, self._legal = made
                return made[1]
            legal = self._legal = LegalActions(moves)
            legal._hand = self
        return legal

    def _new_declare_legal(self, at: _DeclareAt) -> tuple[DeclareRuling, LegalActions]:
        """The ruling and legal actions (with their verdict) of a declaring seat at this table,
        at this moment of the declarations (`legal_actions`'s key), kept for the next hand."""
        seat, miss_untaken, standers, holder, forced, _ = at
        s = self.setup
        key = (seat == s.dealer, s.must, miss_untaken, standers, holder, forced)
        d = self._declare_memo.get(key) or self._new_declare_ruling(key)
        legal = LegalActions(d.legal)
        legal._verdict = Verdict(self.phase, seat, d.legal, d.why, d.allowed_by, d.forbidden)
        made = self._declare_legal[at] = (d, legal)
        return made

    def verdict(self) -> Verdict:
        """The engine's `Verdict` on this position: the phase, the seat to act, the legal actions,
        the law that shaped them (`why`), and for every other option the law (rule id, reason,
        quote) that forbids it. A settled deal's verdict names the law that awarded the pool, if
        any (R14–R17)."""
        seat = self.to_act
        if seat is None:
            return Verdict(self.phase, None, (), self.award_law, (), ())
        if self.phase is not _PLAY:
            r = self._declare_ruling(seat)
            return Verdict(self.phase, seat, r.legal, r.why, r.allowed_by, r.forbidden)
        p = self._play_ruling(seat)
        return Verdict(
            self.phase, seat, p.legal, p.why, tuple((c, p.why) for c in p.legal), p.forbidden
        )

    # --- moves ------------------------------------------------------------------------
    def apply(self, action: Action | str) -> None:
        """Checked move: raises IllegalAction (with the verdict and the position) if forbidden.

        `action` may be typed as a player says it (see `parse_action`)."""
        a = parse_action(action)
        seat = self.to_act
        if seat is None:
            why = (
                "nobody can sit down at this table (see status())"
                if not _table_seats(self.setup)
                else f"the deal is {self.phase.value}"
            )
            raise IllegalAction(f"{a} cannot be made: {why}", None, self.to_scenario())
        legal = self.legal_actions()
        if a in legal:
            self.apply_unchecked(a)
            return
        v = legal.verdict()
        law = v.law_for(a)
        if law is not None:
            msg = f"seat {seat} may not {_verb(a)} {a}: {law.reason} ({law.rule})"
        elif isinstance(a, Card) and self.phase is not _PLAY:
            msg = (
                f"{a} cannot be played: declaring is not over; seat {seat} must "
                f"{in_words(_declarations(v.legal))}"
            )
        elif isinstance(a, Declaration) and self.phase is _PLAY:
            msg = (
                f"{a} cannot be declared: declaring is over; seat {seat} is to play a card "
                f"({', '.join(str(c) for c in v.legal)})"
            )
        elif isinstance(a, Card):
            msg = f"card {a} is not possible: seat {seat} does not hold {a}"
        else:
            msg = (
                f"declaration {a} is not possible now: seat {seat} must "
                f"{in_words(_declarations(v.legal))}"
            )
        raise IllegalAction(msg, v, self.to_scenario())

    def declare(self, d: Declaration | str) -> None:
        """Checked declaration (R06–R20): `apply` for a `Declaration` or its words
        (`stand`, `take miss`, `throw up`, `play the miss for the pool`, or the contract's
        names). Raises `NotationError` for words that name no declaration."""
        if isinstance(d, str):
            read = parse_declaration(d)
            if read is None:
                raise NotationError("declaration", f"{d!r} is not a declaration ({_DECLARE_WORDS})")
            d = read
        self.apply(d)

    def play(self, card: Card | str) -> None:
        """Checked play of a card (R21–R37): `apply` for a `Card` or its code (`10H`, `KD`).
        Raises `NotationError` for text that is not a card code."""
        self.apply(parse_card(card, "card") if isinstance(card, str) else card)

    def apply_unchecked(self, a: Action) -> None:
        """Fast path: the caller vouches that `a` is legal. A card is played to the trick,
        which goes round to the left (R32) and is won by its highest trump, else its highest
        card of the suit led (R37); the winner leads to the next (R29); after the third trick
        the deal is settled (R38–R49). A declaration is recorded as `_declare` says."""
        self._ruling = self._filters = self._legal = None
        self.actions.append(a)
        # a card is told by its class first: asked of a card, `isinstance(a, Declaration)`
        # goes through the enum's metaclass and costs a move several times as much
        if a.__class__ is not Card and isinstance(a, Declaration):
            self._declare(a)
            return
        card = a
        seat = self.to_act
        assert seat is not None
        self.held[seat].remove(card)
        trick = self.tricks[-1]
        trick.append((seat, card))
        best = self._best
        if best is None:
            self._led = card.suit
            self._best = card
            self._best_seat = seat
        elif (card.rank > best.rank) if card.suit is best.suit else card.suit is self.trumps:
            # `beats`, in line: the same suit heads by rank, another suit only as a trump
            self._best = card
            self._best_seat = seat
        if len(trick) < self._in_play:
            self.to_act = self._next_seat[seat]  # R32: play goes round to the left
            return
        winner = self._best_seat  # R37: the highest trump, else the highest of the suit led
        winners = self.winners
        winners.append(winner)
        if len(winners) == 3:
            self._finish()
            return
        self.tricks.append([])
        self._best = None
        self.leaders.append(winner)
        self.to_act = winner  # R29

    def _declare(self, d: Declaration) -> None:
        seat = self.to_act
        assert seat is not None
        self.phase = _DECLARE  # the first declaration ends the deal phase
        self.declared[seat] = d
        if d is _STAND:
            self._standers += 1
        elif d is _PASS:
            self.discards.extend(self.held[seat])
            self.held[seat] = []
        else:  # take miss, or play it for the pool
            assert self.miss is not None
            self.discards.extend(self.held[seat])  # R11: face down, unseen
            self.held[seat] = self.miss
            self.miss = None
            self.miss_holder = seat
            if d is _FOR_POOL:
                self.for_pool = seat
        n = len(self.declared)
        rotation = self.rotation
        left = len(rotation) - n  # seats still to declare
        if left > 1:
            self.to_act = rotation[n]
            return
        if left == 1 and self._standers == 0 and self.miss_holder is None:
            # R14: all before the dealer threw up; he does not declare
            self._award(self.setup.dealer, Law.DEALER_TAKES_POOL)
            return
        if left > 0:
            self.to_act = rotation[n]
            return
        declared = self.declared
        self.players_in = tuple([s for s in rotation if declared[s] is not _PASS])
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
        self.phase = _PLAY
        first = self.players_in[0]  # R21
        if self.options.first_leader is _MISS_HOLDER_LEADS and self.miss_holder is not None:
            first = self.miss_holder  # R22
        ins = self.players_in
        self._in_play = len(ins)
        # each seat's left-hand player in the play
        self._next_seat = dict(zip(ins, ins[1:] + ins[:1], strict=True))
        self.tricks.append([])
        self.leaders.append(first)
        self.to_act = first

    def _award(self, seat: int, law: Law) -> None:
        self.awarded_to = seat
        self.award_law = law
        self._finish()

    def _finish(self) -> None:
        self.phase = _SETTLED
        self.to_act = None
        settled = self._settled
        if not self.penalties and not self.withheld_seats and self._counts is None:
            # most deals: the settlement is the table's for these tricks (kept, copied out)
            at = (
                self.players_in,
                tuple(self.winners),
                self.for_pool,
                self.awarded_to,
                self.award_law,
            )
            done = settled.get(at)
            if done is not None:
                self.settlement = resettled(done)
                return
            self._settle()
            assert self.settlement is not None
            if len(settled) < _SETTLED_KEPT:
                settled[at] = resettled(self.settlement)
            return
        self._settle()

    def _settle(self) -> None:
        now = nxt = 0
        if self.penalties:  # most deals have none: no sums to make
            now = self._penalties_now()
            nxt = sum(
                p.amount for p in self.penalties if p.ruling.destination is Destination.NEXT_POOL
            )
        setup = self.setup
        awarded_to = self.awarded_to
        counts = self._counts
        self.settlement = settle_in_order(  # `settle`'s arguments, in its order
            setup.players,
            setup.stakes,
            self.options,
            self.players_in,
            None if awarded_to is not None or counts else self.winners,
            counts,
            self.for_pool,
            sorted(self.withheld_seats) if self.withheld_seats else (),
            now,
            nxt,
            awarded_to,
            self.award_law,
            self.penalties,
        )

    # --- penalties ----------------------------------------------------------------------
    def penalty_problem(self, seat: int, offence: Offence) -> InputError | None:
        """Why `offence` by `seat` cannot have happened in this position, or None.

        The same refusals as a scenario's `penalties` (the field is `seat` or `offence`)."""
        players = self.setup.players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            return InputError("seat", f"seat {seat} does not exist: seats are 0 to {players - 1}")
        o = self.options
        if offence.info.play_phase:
            if seat not in self.players_in or self.awarded_to is not None:
                if offence is Offence.EXPOSE_CARDS:  # R59's "any one": the players in the hand (A24)
                    return InputError(
                        "offence",
                        f"seat {seat} is out of this hand (R07), and R59 (Peel: 'any one ... "
                        "mentioning the value of his own, or opponents unplayed cards') is read as "
                        "binding the players in it, who have opponents and unplayed cards (A24)",
                    )
                return InputError(
                    "offence",
                    f"seat {seat} played no card this deal, so it cannot be "
                    f"penalised for {offence.info.words} (R07, R13)",
                )
            if offence is Offence.FAIL_TO_LEAD_KING and not (
                self.turn_up is not None and self.turn_up.rank == Rank.ACE
            ):
                return InputError(
                    "offence",
                    "the king must be led only when the ace of trumps is turned up (R24, R55)",
                )
            if (
                offence is Offence.FAIL_TO_UNDERTRUMP
                and o.void_trump_rule is not VoidTrumpRule.MUST_TRUMP
            ):
                return InputError(
                    "offence",
                    "under void_trump_rule: only_if_heads a player need not "
                    "trump when he cannot head the trick (R36)",
                )
            if offence is Offence.FAIL_TO_HEAD_IN_SUIT and not o.must_head_in_suit:
                return InputError(
                    "offence",
                    "under must_head_in_suit: false heading in the suit led is not compulsory "
                    "(R34)",
                )
        if offence is Offence.LOOK_AT_MISS:
            if self.setup.must:
                return InputError("offence", "there is no miss in a must (R45)")
            if self.miss_holder == seat:
                return InputError(
                    "offence",
                    f"seat {seat} took the miss: the offence is looking at it without taking "
                    "it (R51)",
                )
        if offence is Offence.LOOK_AT_THROWN_UP:
            if self.setup.must:
                return InputError(
                    "offence", "nobody throws up in a must (R43), so no thrown-up cards lie there"
                )
            over = self.phase is _PLAY or self.phase is _SETTLED
            if over and Declaration.PASS not in self.declared.values():
                return InputError(
                    "offence",
                    "nobody threw up this deal, so there were no thrown-up cards to look at (R51)",
                )
        return None

    @property
    def full_loo(self) -> int:
        """What a full loo costs in this deal: the agreed loo (R39), or the pool's size under
        unlimited loo (R46), up to its cap (R49)."""
        return loo_amount(self.setup.stakes, self.setup.stakes.pool, self.options)

    def penalise(self, seat: int, offence: Offence) -> PenaltyRecord:
        """Record an irregularity (R50–R63): its amount, where it goes, and what follows.

        Refuses (`InputError` naming `seat` or `offence`) an offence that cannot have
        happened here: a seat not at the table, a play-phase offence by a seat that played
        no card, the king not led with no ace turned up, the miss looked at in a must, ..."""
        problem = self.penalty_problem(seat, offence)
        if problem is not None:
            raise problem
        # a forced throw-up (R53) changes what is legal
        self._ruling = self._filters = self._legal = None
        declared = seat in self.declared and self.declared[seat].plays
        ruling = ruling_for(offence, declared=declared)
        full = self.full_loo
        rec = PenaltyRecord(
            seat, offence, ruling, ruling.amount(self.setup.stakes.single_loo, full)
        )
        self.penalties.append(rec)
        self._penalty_log.append((len(self.actions), seat, offence.name.lower()))
        if Consequence.MUST_THROW_UP in ruling.consequences and seat not in self.declared:
            self.forced_pass.add(seat)
        if Consequence.WINNINGS_WITHHELD in ruling.consequences:
            self.withheld_seats.add(seat)
        if self.phase is _SETTLED:  # a late penalty changes the money
            self._finish()
        return rec

    # --- settling from counts -----------------------------------------------------------
    def settle_by(
        self,
        *,
        tricks_won: Mapping[int, int] | None = None,
        trick_winners: Sequence[int] | None = None,
    ) -> Settlement:
        """Settle a deal whose tricks are known only by their winners (in order) or counts.

        For settlement questions: the declarations are complete and no card has been played.
        Raises `InputError` naming `tricks_won` or `trick_winners`."""
        field_name = "trick_winners" if trick_winners is not None else "tricks_won"
        if (tricks_won is None) == (trick_winners is None):
            raise InputError("tricks_won", "give either tricks_won or trick_winners")
        if self.phase is not _PLAY or any(self.tricks):
            if self.phase is _SETTLED:
                why = (
                    "the deal ended without play"
                    if self.awarded_to is not None
                    else "the deal is already settled"
                )
            elif self.phase is _PLAY:
                why = "cards have been played: give the tricks"
            else:
                why = "the declarations are not complete"
            raise InputError(field_name, f"cannot settle: {why}")
        counts: dict[int, int] = {}
        if trick_winners is not None:
            winners = list(trick_winners)
            if len(winners) != 3:
                raise InputError(
                    "trick_winners", f"three tricks are played in a deal, not {len(winners)}"
                )
            for w in winners:
                counts[w] = counts.get(w, 0) + 1
        else:
            assert tricks_won is not None
            counts = dict(tricks_won)
            if sum(counts.values()) != 3:
                raise InputError(
                    "tricks_won",
                    f"three tricks are played in a deal; these add up to {sum(counts.values())}",
                )
        for seat, n in sorted(counts.items()):
            if n and seat not in self.players_in:
                where = f"tricks_won.{seat}" if tricks_won is not None else field_name
                raise InputError(where, f"seat {seat} did not play this deal")
        if trick_winners is not None:
            self.winners = list(trick_winners)
            self.tricks = []
            self.leaders = []
        else:
            pool = self.pool_on_table
            counts = {k: v for k, v in counts.items() if v}
            early = self.options.pool_remainder is PoolRemainder.EARLY_TRICKS_PREFERENCE
            if pool % 3 and early and sorted(counts.values()) != [3]:
                raise InputError(
                    "tricks_won",
                    f"a pool of {pool} does not divide by three, and "
                    "pool_remainder: early_tricks_preference gives the odd counters to the "
                    "first and second tricks: give `tricks` (or `trick_winners`) so their "
                    "winners are known",
                )
            self.tricks = []
            self.leaders = []
            self._counts = counts
        self._ruling = self._filters = self._legal = None
        self._finish()
        assert self.settlement is not None
        return self.settlement

    def _penalties_now(self) -> int:
        return sum(p.amount for p in self.penalties if p.ruling.destination is Destination.POOL_NOW)

    @property
    def pool_on_table(self) -> int:
        """The counters in the pool now: the stake, and the penalties paid into it at once
        (R50, R51, R53, R54); what the tricks will divide (R38)."""
        return self.setup.stakes.pool + (self._penalties_now() if self.penalties else 0)

    # --- copies, checks and the written position -------------------------------------------
    def copy(self) -> Hand:
        """An independent copy: nothing done to it (moves, undo, penalties, a view's code)
        can change this hand, nor anything done to this hand change it."""
        new = object.__new__(Hand)
        for k in _STATE:
            setattr(new, k, _copied(getattr(self, k)))
        new._legal = None  # it answers for the hand it was made by
        new._declare_memo = self._declare_memo  # shared by every hand under these options
        new._declare_legal = self._declare_legal  # and by every hand at this table
        new._settled = self._settled
        return new

    __copy__ = copy

    def root(self) -> Hand:
        """The same deal back before its first move, as a new hand (this one is untouched)."""
        h = self.copy()
        while h.actions:
            h.undo()
        return h

    def __deepcopy__(self, memo: dict[int, Any]) -> Hand:
        return self.copy()

    def problems(self) -> tuple[Problem, ...]:
        """Every fault of this position, each naming its field (cf. python-chess's status).

        Hands are checked as they are now; cards given for a seat that then threw up have
        gone face down with its own (R11), so only `position_problems` on what a scenario
        gives can see them (CARDS_FOR_THROWN_UP_SEAT)."""
        s = self.setup
        hands = {x: self.held[x] for x in range(len(self.held)) if x not in self.partial}
        return position_problems(
            players=s.players,
            dealer=s.dealer,
            must=s.must,
            hands=hands,
            miss=self.miss,
            turn_up=self.turn_up,
            trumps=self._given_trumps,
            declarations=self.declared,
            tricks=self.tricks,
            elsewhere=(("thrown-up cards", self.discards), ("stock", self.stock)),
        )

    def status(self) -> Status:
        """`Status.VALID`, or the flags saying why this position is not one of the game."""
        return status_of(self.problems())

    def is_valid(self) -> bool:
        """True if this position is one of the game (`problems()` is empty)."""
        return not self.problems()

    def reasons(self) -> dict[Status, str]:
        """One readable reason per flag of `status()`, naming the field."""
        return reasons(self.problems())

    def position(self) -> dict[str, Any]:
        """This position as a contract scenario mapping (see `engine.position`)."""
        return position_mapping(self)

    def to_scenario(self) -> str:
        """This position as scenario JSON text: load it to get the same position back."""
        return position_text(self)

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
        """A `Transcript` of this hand: the setup, the seed or the cards dealt, every move and
        penalty; `replay()` makes the same position again."""
        s = self.setup
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
            asdict(s.stakes),
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


_STATE = tuple(
    k
    for k in Hand.__slots__
    if k not in ("__weakref__", "_declare_memo", "_declare_legal", "_settled")
)


def _copied(v: Any) -> Any:
    """A copy of one piece of a hand's state: lists, dicts and sets anew, all the way down;
    cards, enums, laws, options, tuples of them and other frozen values shared (they cannot
    change)."""
    if isinstance(v, list):
        return [_copied(x) for x in v]
    if isinstance(v, dict):
        return {k: _copied(x) for k, x in v.items()}
    if isinstance(v, set):
        return set(v)
    if isinstance(v, Settlement):
        return copy.deepcopy(v)  # frozen, but it holds dicts a view could change
    return v


def _declarations(actions: Sequence[Action]) -> list[Declaration]:
    return [a for a in actions if isinstance(a, Declaration)]


#: A declaring seat's moment at one table: the seat, is the miss untaken, how many stood
#: before (0, 1 or 2 for more), has the miss been taken, must it throw up (R53), is the hand
#: still shown as dealt (Phase.DEAL)
_DeclareAt = tuple[int, bool, int, bool, bool, bool]
#: (can the table sit down, its declaring rotation, the declaring memo of its options, the
#: order in which each round of the deal is dealt, each declaring moment's ruling and legal
#: actions at this table, the settlements of deals without penalties, kept by what decides
#: them: who played, the tricks' winners, who played the miss for the pool, who was awarded
#: the pool and by which law)
_SETTLED_KEPT = 1024  # at most, per table: the first deals met (five seats meet ~830 kinds)
_SettledAt = tuple[tuple[int, ...], tuple[int, ...], int | None, int | None, Law | None]
_TableFacts = tuple[
    bool,
    tuple[int, ...],
    dict[DeclareKey, DeclareRuling],
    tuple[int, ...],
    dict[_DeclareAt, tuple[DeclareRuling, LegalActions]],
    dict[_SettledAt, Settlement],
]
_TABLES: dict[int, tuple[Setup, _TableFacts]] = {}
#: The same facts for every setup of equal value: a simulation makes its tables afresh for
#: each chunk of hands, and their kept rulings and settlements are shared, not made again (so
#: its memory stays what one table's is, however many chunks it plays).
_BY_VALUE: dict[Setup, _TableFacts] = {}


def _table_of(setup: Setup) -> _TableFacts:
    """What every deal at this table needs, found once per setup (a simulation deals
    thousands of hands at one table; the setup is kept, so its id stays its own)."""
    entry = _TABLES.get(id(setup))
    if entry is None or entry[0] is not setup:
        if len(_TABLES) >= 64:
            _TABLES.clear()
        known = _BY_VALUE.get(setup)  # hashing a setup costs a microsecond: once per new one
        if known is not None:
            entry = _TABLES[id(setup)] = (setup, known)
            return known
        if len(_BY_VALUE) >= 64:
            _BY_VALUE.clear()
        seated = _table_seats(setup)
        order = (
            round_order(
                setup.players, setup.dealer, not setup.must, setup.options.miss_deal_position
            )
            if seated
            else ()
        )
        facts: _TableFacts = (
            seated,
            setup.rotation() if seated else (),
            ruling_memo(setup.options),
            order,
            {},
            {},
        )
        _BY_VALUE[setup] = facts
        entry = _TABLES[id(setup)] = (setup, facts)
    return entry[1]


def _table_seats(setup: Setup) -> bool:
    """Can this table sit down (A18) with its dealer at it? Else nobody acts."""
    p = setup.players
    top = MAX_PLAYERS_WITHOUT_MISS if setup.must else MAX_PLAYERS_WITH_MISS
    return (
        isinstance(p, int)
        and not isinstance(p, bool)
        and MIN_PLAYERS <= p <= top
        and 0 <= setup.dealer < p
    )


def _verb(a: Action) -> str:
    return "play" if isinstance(a, Card) else "declare"
