"""The pack (R01): fifty-two cards ranking as at whist, ace high.

Cards are frozen and interned: `Card.of(rank, suit)` and `parse_card` always return
the same object, so sets of cards hash fast and compare by identity.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum, IntEnum

from .errors import InputError, NotationError


class Suit(Enum):
    """The four suits. Value is the one-letter code used in card codes."""

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    # A suit hashes as the one object it is (members are singletons and compare by identity),
    # in C: Enum's own `__hash__`, hash(name), is a Python call, and the bots and the
    # simulation look a table up by the trump suit several times a deal. Equal suits are the
    # same object, so they still hash alike.
    __hash__ = object.__hash__

    @property
    def symbol(self) -> str:
        """The suit's sign (♣ ♦ ♥ ♠), shown beside its colour, never instead of it."""
        return _SYMBOLS[self]

    @property
    def is_red(self) -> bool:
        """True for diamonds and hearts."""
        return self in (Suit.DIAMONDS, Suit.HEARTS)

    @property
    def plural(self) -> str:
        """The suit's name in words, plural: `clubs`, `hearts`."""
        return self.name.lower()

    @classmethod
    def parse(cls, text: str, field: str = "suit") -> Suit:
        """The suit `text` names: its letter (`H`), its name (`hearts`) or its sign (`♥`), in any
        case. Raises `NotationError` naming `field` for anything else."""
        code = str(text).strip().upper()
        for suit in cls:
            if code in (suit.value, suit.name, suit.symbol):
                return suit
        raise NotationError(field, f"{text!r} is not a suit (use C, D, H or S)")


_SYMBOLS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}


class Rank(IntEnum):
    """Ranks as at whist (R01): ace high, two low."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def code(self) -> str:
        """The rank's part of a card code: `2` … `10`, `J`, `Q`, `K`, `A`."""
        return _RANK_CODES[self]

    @property
    def word(self) -> str:
        """The rank in words, as in a card's name: `ace`, `king`, `ten`, or the number (`7`)."""
        return self.name.lower() if self >= Rank.TEN or self == Rank.ACE else str(int(self))


_RANK_CODES = {r: (str(int(r)) if r <= 10 else r.name[0]) for r in Rank}
_RANK_FROM_CODE = {code: r for r, code in _RANK_CODES.items()} | {"T": Rank.TEN, "1": Rank.ACE}


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One card. Interned: compare with `is`/`==` freely; order by `key`."""

    rank: Rank
    suit: Suit

    @staticmethod
    def of(rank: Rank, suit: Suit) -> Card:
        """The one card of `rank` and `suit` (cards are interned: the same object every time)."""
        return _INTERNED[(rank, suit)]

    @property
    def code(self) -> str:
        """The card code the contract writes: rank then suit, `10H`, `KD`."""
        return f"{self.rank.code}{self.suit.value}"

    @property
    def name(self) -> str:
        """The card in words: `ace of hearts`, `7 of clubs`."""
        return f"{self.rank.word} of {self.suit.plural}"

    @property
    def key(self) -> int:
        """A dense index 0..51, suit-major (used for fast sets and sorting)."""
        return _KEYS[self]

    def __repr__(self) -> str:
        return f"Card({self.code})"

    def __str__(self) -> str:
        return self.code

    def __lt__(self, other: Card) -> bool:
        return _KEYS[self] < _KEYS[other]


_INTERNED: dict[tuple[Rank, Suit], Card] = {}
_KEYS: dict[Card, int] = {}
for _s_i, _s in enumerate(Suit):
    for _r in Rank:
        _c = object.__new__(Card)
        object.__setattr__(_c, "rank", _r)
        object.__setattr__(_c, "suit", _s)
        _INTERNED[(_r, _s)] = _c
        _KEYS[_c] = _s_i * 13 + (_r - 2)

#: The full pack (R01) in a fixed order: clubs, diamonds, hearts, spades; two to ace.
FULL_PACK: tuple[Card, ...] = tuple(sorted(_INTERNED.values(), key=lambda c: _KEYS[c]))

_BY_CODE: dict[str, Card] = {}
for _c in FULL_PACK:
    _BY_CODE[_c.code] = _c
    if _c.rank == Rank.TEN:
        _BY_CODE["T" + _c.suit.value] = _c


def parse_card(text: object, field: str = "card") -> Card:
    """Parse `10H`, `TH`, `10h`, `th` (also `AH`, `ah`). Raises NotationError naming `field`."""
    if isinstance(text, Card):
        return text
    if not isinstance(text, str | int):
        raise NotationError(
            field, f"{text!r} is not a card code (write rank then suit, e.g. 10H or KD)"
        )
    code = str(text).strip().upper()
    card = _BY_CODE.get(code)
    if card is None:
        raise NotationError(
            field,
            f"{text!r} is not a card code (ranks A K Q J 10 9 … 2, suits C D H S; e.g. 10H or KD)",
        )
    return card


def parse_cards(items: object, field: str) -> tuple[Card, ...]:
    """The cards of a list of card codes, in order. Raises `NotationError` for an item that is
    not a card code, `InputError` naming `field` for a value that is not a list or a card
    that appears twice in it (one pack: R01)."""
    if not isinstance(items, list | tuple):
        raise InputError(field, f"expected a list of card codes, got {items!r}")
    cards = tuple(parse_card(x, f"{field}[{i}]") for i, x in enumerate(items))
    seen: set[Card] = set()
    for c in cards:
        if c in seen:
            raise InputError(field, f"card {c.code} appears twice")
        seen.add(c)
    return cards


def codes(cards: Iterable[Card]) -> list[str]:
    """Card codes sorted as Python sorts strings (the contract's order for `legal`)."""
    return sorted(c.code for c in cards)


def in_hand_order(cards: Iterable[Card], trumps: Suit | None = None) -> list[Card]:
    """A display order: trumps first, then by suit, high to low."""

    def k(c: Card) -> tuple[int, int, int]:
        return (0 if c.suit is trumps else 1, list(Suit).index(c.suit), -int(c.rank))

    return sorted(cards, key=k)


def shuffled_pack(rng: random.Random) -> list[Card]:
    """A freshly shuffled pack. The RNG is always injected, so a seed names one deal."""
    pack = list(FULL_PACK)
    if type(rng) is random.Random and _SHUFFLE_MATCHES:
        _shuffle(pack, rng)
    else:
        rng.shuffle(pack)
    return pack


# `random.Random.shuffle`'s own steps (Fisher-Yates from the last card, each draw by
# rejection on `getrandbits`), written out: the same draws give the same permutation, so
# every seed deals what it always dealt, without a method call per card (a simulation
# shuffles on every deal). The bit widths are worked out once.
_STEPS = tuple((i, (i + 1).bit_length()) for i in range(len(FULL_PACK) - 1, 0, -1))


def _shuffle(x: list[Card], rng: random.Random) -> None:
    draw = rng.getrandbits
    for i, k in _STEPS:  # i from the last place down, k the bits of a draw below i + 1
        j = draw(k)
        while j > i:
            j = draw(k)
        x[i], x[j] = x[j], x[i]


def _shuffle_matches() -> bool:
    """Does `_shuffle` still draw as this Python's `Random.shuffle` does? Else use that."""
    mine, theirs = list(FULL_PACK), list(FULL_PACK)
    _shuffle(mine, random.Random(20261201))
    random.Random(20261201).shuffle(theirs)
    return mine == theirs


_SHUFFLE_MATCHES = _shuffle_matches()


def beats(card: Card, best: Card, trumps: Suit | None) -> bool:
    """Does `card` head a trick whose winning card so far is `best` (R37)?"""
    if card.suit is best.suit:
        return card.rank > best.rank
    return card.suit is trumps


def trick_winner_index(cards: Sequence[Card], trumps: Suit | None) -> int:
    """Index of the winning card (R37): highest trump, else highest of the suit led."""
    best = 0
    for i in range(1, len(cards)):
        if beats(cards[i], cards[best], trumps):
            best = i
    return best
