"""What one seat may know (a rule of the game, not a bot's concern).

R11: thrown-up cards go face down, unseen; R51 and R53 punish looking at the miss, a
thrown-up hand or another player's cards. So a seat sees its own cards, the turn-up and
trumps, the declarations, the cards played and who won each trick, the pool and where it
sits, and nothing else: `SeatView` has no field that could hold another hand, the miss
(until the seat takes it) or the stock.
"""

from __future__ import annotations

from typing import NamedTuple

from .cards import Card, Suit
from .declare import Declaration
from .game import Hand, Phase
from .options import RuleOptions

_MISS_DECLARATIONS = (Declaration.TAKE_MISS, Declaration.PLAY_MISS_FOR_POOL)
PASS = Declaration.PASS
STAND = Declaration.PLAY


class SeatView(NamedTuple):
    """What one seat may know at this moment, and nothing more. Immutable (a named tuple:
    cheap to build once per decision in a simulation).

    Cards appear in four fields only: `hand` (the seat's own cards now: the miss, once
    it has taken it), `put_down` (its own dealt cards, once it has given them up for the
    miss or thrown up: it has seen them, nobody else has, R11), `turn_up`, and `tricks`
    (cards played face up). Other hands, the miss, others' thrown-up cards and the stock are
    never here.
    """

    seat: int
    players: int
    dealer: int
    phase: Phase
    must: bool
    options: RuleOptions
    hand: tuple[Card, ...]
    turn_up: Card | None
    trumps: Suit | None
    declarations: tuple[tuple[int, Declaration], ...]  # in the order made
    players_in: tuple[int, ...]  # in play order (known once declaring is over)
    tricks: tuple[tuple[tuple[int, Card], ...], ...]  # every card played, trick by trick
    winners: tuple[int, ...]  # winner of each finished trick
    pool: int
    stake: int
    loo: int
    #: its own dealt cards, put face down when it took the miss or threw up: seen by it alone
    put_down: tuple[Card, ...] = ()

    @property
    def elder(self) -> int:
        """The elder hand's seat: the dealer's left, who declares first (R05) and leads first
        (R21)."""
        return (self.dealer + 1) % self.players

    @property
    def is_dealer(self) -> bool:
        """True if this seat dealt."""
        return self.seat == self.dealer

    @property
    def position(self) -> int:
        """1 for the elder hand, ... `players` for the dealer (the order of declaring)."""
        return (self.seat - self.dealer - 1) % self.players + 1

    @property
    def miss_holder(self) -> int | None:
        """The seat that took the miss (or plays it for the pool), or None: declarations are made
        aloud (R06), so every seat knows."""
        for seat, d in self.declarations:
            if d in _MISS_DECLARATIONS:
                return seat
        return None

    @property
    def miss_available(self) -> bool:
        """True while the miss may still be taken: not in a must (R45) and nobody has taken it
        (R09)."""
        return not self.must and self.miss_holder is None

    @property
    def standers(self) -> int:
        """How many have declared to play so far (on their own cards or the miss)."""
        n = 0
        for _, d in self.declarations:  # a loop: no comprehension's frame for a few items
            if d is not PASS:
                n += 1
        return n

    @property
    def current_trick(self) -> tuple[tuple[int, Card], ...]:
        """The plays of the trick being played (seat, card), or () between tricks."""
        if len(self.tricks) > len(self.winners):
            return self.tricks[-1]
        return ()

    @property
    def seen_cards(self) -> tuple[Card, ...]:
        """Every card face up so far: the cards played, and the turn-up."""
        played = tuple(c for t in self.tricks for _, c in t)
        return (*played, self.turn_up) if self.turn_up is not None else played

    @property
    def still_to_play(self) -> int:
        """Players who play after this seat in the current trick."""
        if not self.players_in:
            return 0
        return len(self.players_in) - len(self.current_trick) - 1


def seat_view(hand: Hand, seat: int) -> SeatView:
    """The view of `hand` from `seat`: everything public plus that seat's own cards."""
    s = hand.setup
    st = s.stakes
    # built for every decision of every simulated hand: list comprehensions, not generators
    # (a generator into a tuple costs a frame per item)
    tricks = hand.tricks
    declared = hand.declared
    # a seat that still holds its dealt cards (or has not declared) has put none down:
    # `put_down_by`'s first answer, without its call for the many seats that stood
    d = declared.get(seat)
    # every field given, in order: the tuple made directly, without the named tuple's
    # Python-level __new__ (a frame per view)
    return _new_view(
        SeatView,
        (
            seat,
            s.players,
            s.dealer,
            hand.phase,
            s.must,
            hand.options,
            tuple(hand.held[seat]),
            hand.turn_up,
            hand.trumps,
            tuple(declared.items()),
            hand.players_in,
            tuple([tuple(t) for t in tricks if t]) if tricks else (),
            tuple(hand.winners),
            st.pool,
            st.stake,
            st.loo,
            () if d is None or d is STAND else hand.put_down_by(seat),
        ),
    )


_new_view = tuple.__new__
