"""Bots with declared personalities, and the one view of the table a bot is allowed.

A bot sees the deal only through a `SeatView` (`engine.observation`): its own cards, the turn-up and trumps, the
declarations so far, the cards played and who won each trick, the pool, and where it sits.
It never sees another player's cards, the miss (until it takes it) or the stock: the
view has no field that could hold them. `bot_move(hand, bot, rng)` builds the view for the
seat to act and asks the bot to choose among `hand.legal_actions()`; bots draw randomness
only from the `rng` they are given, so a seed replays a game exactly.

The personalities (each bot's docstring says more):

- `random-legal`: any legal move, uniformly at random.
- `cautious`: stands only with a trump honour or two trumps; otherwise throws up.
- `bold`: stands on any trump; with none takes the miss if he can.
- `sensible`: weighs its chance of a trick; weak hands take the miss when it is there;
  plays high to win a trick it can win, low when it cannot.
- `coached` (in `sim.coached`, above the coach it asks): plays the coach's choice.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol

from loo_lessons.engine.cards import FULL_PACK, Card, Rank, Suit
from loo_lessons.engine.declare import Declaration
from loo_lessons.engine.errors import InputError, LooError
from loo_lessons.engine.game import Action, Hand, Phase
from loo_lessons.engine.observation import SeatView as SeatView  # moved to the engine
from loo_lessons.engine.observation import seat_view as seat_view

PLAY = Declaration.PLAY
TAKE_MISS = Declaration.TAKE_MISS
PASS = Declaration.PASS
FOR_POOL = Declaration.PLAY_MISS_FOR_POOL
_PLAY_PHASE = Phase.PLAY


class Bot(Protocol):
    """A player: a name, a personality (its docstring), and a way to choose."""

    @property
    def name(self) -> str:
        """The bot's name, as `--bots` and the lessons spell it (`sensible`)."""
        ...

    def choose(self, view: SeatView, legal: Sequence[Action], rng: random.Random) -> Action:
        """One of the `legal` moves, seeing only what the seat may see (`view`); any chance
        comes from `rng`, so a seed replays the bot."""
        ...


# --- shared judgement -------------------------------------------------------------------------


def power(card: Card, trumps: Suit | None) -> int:
    """A card's strength in play: any trump above any plain card, then by rank."""
    return int(card.rank) + (20 if card.suit is trumps else 0)


@lru_cache(maxsize=32)
def _odds(players: int) -> tuple[tuple[float, ...], float, float]:
    q = min(0.9, 3 * (players - 1) / 48)
    return tuple((1 - q) ** k for k in range(13)), 0.5 * (1 - q) ** 2, 0.2 * (1 - q) ** 3


#: Each card's part in `trick_expectation` under each trump suit: a trump its rank (2-14), a
#: plain ace 15, a plain king 16, any other plain card 0. A three-card hand's reckoning
#: depends on these three, the turn-up's and the table's size alone, so it is reckoned once
#: for each kind of hand (`_RECKONED`) and looked up after: the sensible bot asks it at every
#: declaration of every simulated hand. The same sums in the same order, so the same bits
#: (tests/test_fast_paths.py checks it against the first form).
_ROLE: dict[Suit, dict[Card, int]] = {
    t: {c: int(c.rank) if c.suit is t else {14: 15, 13: 16}.get(int(c.rank), 0) for c in FULL_PACK}
    for t in Suit
}
_RECKONED: dict[tuple[int, int, int, int, int], float] = {}
_RECKONED_KEPT = 65_536  # kinds of hand kept at most (five seats meet a few thousand)


def trick_expectation(
    cards: Sequence[Card], trumps: Suit | None, turn_up: Card | None, players: int
) -> float:
    """A rough expected number of tricks for a three-card hand before any card is played.

    A trump is worth the chance that no higher trump is out against it (each unseen higher
    trump is held by an opponent with probability about q = 3(n-1)/48), and each trump
    beyond the first adds a quarter (length: it may trump a plain lead, and the higher one
    draws the opponents' trumps). A plain ace or king is worth a little, less at a bigger
    table where it is likelier to be trumped.
    """
    if trumps is None:
        return 0.0
    if len(cards) != 3:
        return _reckon(cards, trumps, turn_up, players)
    role = _ROLE[trumps]
    up = role[turn_up] if turn_up is not None else 0
    key = (role[cards[0]], role[cards[1]], role[cards[2]], up if up < 15 else 0, players)
    value = _RECKONED.get(key)
    if value is None:
        if len(_RECKONED) >= _RECKONED_KEPT:
            _RECKONED.clear()
        value = _RECKONED[key] = _reckon(cards, trumps, turn_up, players)
    return value


def _reckon(cards: Sequence[Card], trumps: Suit, turn_up: Card | None, players: int) -> float:
    """`trick_expectation`'s sums."""
    free, ace, king = _odds(players)
    known = [c.rank for c in cards if c.suit is trumps]
    value = 0.25 * max(0, len(known) - 1)
    if turn_up is not None and turn_up.suit is trumps:
        known.append(turn_up.rank)
    # the same sums in the same order as ever (a float added otherwise could tip a hand over
    # `stand_at`); only the counting is cheaper: no generator, ranks compared as they are
    for c in cards:
        r = c.rank
        if c.suit is trumps:
            higher = 0
            for k in known:
                if k > r:
                    higher += 1
            value += free[14 - r - higher]
        elif r == 14:
            value += ace
        elif r == 13:
            value += king
    return value


def _fallback(legal: Sequence[Action], *prefs: Declaration) -> Action:
    for d in prefs:
        if d in legal:
            return d
    return legal[0]


#: `power` of every card under each trump suit (and none), looked up by `sensible_card`, which
#: ranks the cards of every play decision of every simulated hand: `max(cards, key=power)`
#: costs two calls a card.
_POWER: dict[Suit | None, dict[Card, int]] = {
    t: {c: power(c, t) for c in FULL_PACK} for t in (None, *Suit)
}


def _strongest(cards: Sequence[Card], of: dict[Card, int]) -> Card:
    """`max(cards, key=...)` by the powers `of`: the first of the strongest."""
    best, top = cards[0], of[cards[0]]
    for c in cards:
        p = of[c]
        if p > top:
            best, top = c, p
    return best


def _weakest(cards: Sequence[Card], of: dict[Card, int]) -> Card:
    """`min(cards, key=...)` by the powers `of`: the first of the weakest."""
    best, low = cards[0], of[cards[0]]
    for c in cards:
        p = of[c]
        if p < low:
            best, low = c, p
    return best


def sensible_card(view: SeatView, legal: Sequence[Action]) -> Card:
    """Lead the strongest card; when following, head the trick if possible — as high as
    possible while others are still to play, as cheaply as possible when last — and
    otherwise throw the lowest card."""
    # asked at every play decision of every simulated hand: the legal cards are read in the
    # loops below (no list of them made first), `beats` and `still_to_play` in line, and the
    # first strongest or weakest card found in the loop that finds the cards heading the
    # trick (tests/test_fast_paths.py: the first form's card, ties included)
    of = _POWER[view.trumps]
    tricks = view.tricks
    if len(tricks) <= len(view.winners):  # no trick under way (`view.current_trick` empty)
        lead: Card | None = None
        top = 0
        for c in legal:
            if isinstance(c, Card):
                p = of[c]
                if lead is None or p > top:
                    lead, top = c, p
        if lead is None:
            raise IndexError("no card among the legal moves")
        return lead
    trumps = view.trumps
    trick = tricks[-1]
    best = trick[0][1]
    for _, c in trick:
        if (c.rank > best.rank) if c.suit is best.suit else c.suit is trumps:
            best = c
    players_in = view.players_in
    cheapest = not players_in or len(players_in) - len(trick) == 1  # last to play
    bs, br = best.suit, best.rank
    pick: Card | None = None  # the card to head the trick with
    low: Card | None = None  # the weakest card, if none heads it
    top = least = 0
    for c in legal:
        if not isinstance(c, Card):
            continue
        p = of[c]
        if low is None or p < least:
            low, least = c, p
        # heads the trick (R37), and the strongest such (the cheapest, when last) so far
        if ((c.rank > br) if c.suit is bs else c.suit is trumps) and (
            pick is None or (p < top if cheapest else p > top)
        ):
            pick, top = c, p
    if pick is not None:
        return pick
    if low is None:
        raise IndexError("no card among the legal moves")
    return low


# --- the bots ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RandomLegal:
    """Plays any legal move, uniformly at random: no judgement at all. Useful to explore
    every line the rules allow, and as a baseline for the others."""

    name: str = "random-legal"

    def choose(self, view: SeatView, legal: Sequence[Action], rng: random.Random) -> Action:
        """Any legal move, uniformly at random."""
        return legal[rng.randrange(len(legal))]


@dataclass(frozen=True, slots=True)
class Cautious:
    """Hates being looed. Stands only with a trump honour (ace, king, queen or jack of
    trumps) or two trumps; otherwise throws up, and never gambles on the miss. As dealer
    facing a lone stander, where he may not pass, he plays the miss for the pool (which
    cannot be looed) unless his own hand qualifies. Plays his cards as the sensible bot does."""

    name: str = "cautious"

    def choose(self, view: SeatView, legal: Sequence[Action], rng: random.Random) -> Action:
        """Stand with two trumps or a trump honour; otherwise throw up, or play the miss for the
        pool where passing is not allowed (R18); in play, the sensible card."""
        if view.phase is Phase.PLAY:
            return sensible_card(view, legal)
        trumps = [c for c in view.hand if c.suit is view.trumps]
        good = len(trumps) >= 2 or any(c.rank >= Rank.JACK for c in trumps)
        if good and PLAY in legal:
            return PLAY
        return _fallback(legal, PASS, FOR_POOL, PLAY)


@dataclass(frozen=True, slots=True)
class Bold:
    """Loves a gamble. Stands on any trump at all; with none, takes the miss if it is still
    there, else throws up. In play he always puts down his strongest legal card."""

    name: str = "bold"

    def choose(self, view: SeatView, legal: Sequence[Action], rng: random.Random) -> Action:
        """Stand on any trump, else take the miss while it is there; in play, the strongest legal
        card."""
        trumps = view.trumps
        if view.phase is Phase.PLAY:
            cards = [a for a in legal if isinstance(a, Card)]
            return _strongest(cards, _POWER[trumps])
        if any(c.suit is trumps for c in view.hand) and PLAY in legal:
            return PLAY
        return _fallback(legal, TAKE_MISS, PASS, PLAY)


@dataclass(frozen=True, slots=True)
class Sensible:
    """A steady player. Counts the tricks his hand may take (about 0.6 of a trick is enough)
    and stands when there are enough, asking a little more for each player already in. A
    weak hand takes the miss when the miss is available, and throws up when it is
    not. As dealer against the miss-holder alone it stands on a fair hand; against a lone
    stander it plays its own fair hand, else the miss for the pool (never looed). In play
    it leads its strongest card, heads the trick when it can (high while others are still
    to play, cheaply when last) and throws its lowest card when it cannot."""

    name: str = "sensible"
    stand_at: float = 0.6
    per_stander: float = 0.1
    heads_up: float = 0.45

    def choose(self, view: SeatView, legal: Sequence[Action], rng: random.Random) -> Action:
        """Stand when the hand's expected tricks are enough for the players already in, else take
        the miss or throw up; as dealer against a lone stander, play or play the miss for the
        pool (R17, R18); in play, the sensible card."""
        if view.phase is _PLAY_PHASE:
            return sensible_card(view, legal)
        strength = trick_expectation(view.hand, view.trumps, view.turn_up, view.players)
        if FOR_POOL in legal:  # the dealer against a lone stander (R17, R18)
            return PLAY if strength >= self.heads_up else FOR_POOL
        # every declaration of a simulation comes here: `view.standers` and `_fallback` in
        # line (tests/test_fast_paths.py checks the first form's choice at every declaration)
        standers = 0
        for _, d in view.declarations:
            if d is not PASS:
                standers += 1
        if standers == 1 and view.seat == view.dealer and view.miss_holder is not None:
            # only the miss-holder stood (R16): heads-up against the miss
            if strength >= self.heads_up and PLAY in legal:
                return PLAY
            return PASS if PASS in legal else legal[0]
        if strength >= self.stand_at + self.per_stander * standers and PLAY in legal:
            return PLAY
        if TAKE_MISS in legal:
            return TAKE_MISS
        if PASS in legal:
            return PASS
        return PLAY if PLAY in legal else legal[0]


#: The table's bots: what the widgets offer. (The slow `coached` bot sits above the coach it
#: asks, in `sim.coached`, with `ALL_BOTS`: every bot a name can ask for.)
BOTS: dict[str, Bot] = {b.name: b for b in (RandomLegal(), Cautious(), Bold(), Sensible())}


def get_bot(bot: str | Bot, known: Mapping[str, Bot] = BOTS) -> Bot:
    """A bot by name among `known` (the table's: `random-legal`, `cautious`, `bold`,
    `sensible`; `sim.coached.ALL_BOTS` adds `coached`), or the bot itself."""
    if isinstance(bot, str):
        try:
            return known[bot]
        except KeyError:
            names = ", ".join(known)
            raise InputError("bots", f"unknown bot {bot!r} (known: {names})") from None
    return bot


def seat_bots(
    bots: Sequence[str | Bot] | str | Bot | None,
    players: int,
    default: str = "sensible",
    known: Mapping[str, Bot] = BOTS,
) -> tuple[Bot, ...]:
    """One bot per seat: one name for everybody, or one per seat (None: the default bot);
    names among `known`."""
    if bots is None:
        return (get_bot(default, known),) * players
    if isinstance(bots, str) or not isinstance(bots, Sequence):
        return (get_bot(bots, known),) * players
    got = tuple(get_bot(b, known) for b in bots)
    if len(got) == 1:
        return got * players
    if len(got) != players:
        raise InputError(
            "bots", f"{len(got)} bots for {players} seats: give one bot, or one per seat"
        )
    return got


def bot_move(hand: Hand, bot: str | Bot, rng: random.Random) -> Action:
    """The move `bot` chooses for the seat to act. A forced move (one legal option) is made
    without asking the bot and without drawing from `rng`."""
    seat = hand.to_act
    if seat is None:
        raise LooError(f"nobody is to act: the deal is {hand.phase.value}")
    legal = hand.legal_actions()
    if len(legal) == 1:
        only: Action = legal[0]
        return only
    choice = get_bot(bot).choose(seat_view(hand, seat), legal, rng)
    if choice not in legal:
        raise LooError(f"bot {get_bot(bot).name} chose {choice}, which is not legal")
    return choice


def play_hand(hand: Hand, bots: Sequence[Bot], rng: random.Random) -> Hand:
    """Play `hand` to the end with one bot per seat; forced moves do not consult the bot."""
    legal_now = hand.legal_actions  # bound once: this loop runs for every simulated move
    move = hand.apply_unchecked
    while (seat := hand.to_act) is not None:
        legal = legal_now()
        if len(legal) == 1:
            move(legal[0])
        else:
            move(bots[seat].choose(seat_view(hand, seat), legal, rng))
    return hand
