"""Declaring (R05–R20): stand, take miss, throw up — and the dealer's special cases."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

from .laws import Law, law_against
from .options import LoneStanderRule, RuleOptions


class Declaration(StrEnum):
    """The four declarations of the contract (R06, R18)."""

    PLAY = "play"
    TAKE_MISS = "take_miss"
    PASS = "pass"
    PLAY_MISS_FOR_POOL = "play_miss_for_pool"

    @property
    def plays(self) -> bool:
        """Does this declaration put the seat into the play of the hand?"""
        return self is not Declaration.PASS

    @property
    def words(self) -> str:
        """The books' word for it (R06, R18): what every view calls it (`explain.words`)."""
        return _WORDS[self]


_WORDS = {
    Declaration.PLAY: "stand",
    Declaration.TAKE_MISS: "take miss",
    Declaration.PASS: "throw up",
    Declaration.PLAY_MISS_FOR_POOL: "play the miss for the pool",
}

ALL_DECLARATIONS: tuple[Declaration, ...] = tuple(Declaration)

#: The books' words for each declaration, with the contract's names, as typed by a player
#: (`parse_declaration` folds case, spaces, hyphens and underscores first).
DECLARATION_ALIASES: dict[str, Declaration] = {
    "play": Declaration.PLAY,
    "stand": Declaration.PLAY,  # R06 [004]: "his intention to stand, throw up, or take miss"
    "take_miss": Declaration.TAKE_MISS,
    "take miss": Declaration.TAKE_MISS,
    "pass": Declaration.PASS,
    "throw_up": Declaration.PASS,
    "throw up": Declaration.PASS,
    "play_miss_for_pool": Declaration.PLAY_MISS_FOR_POOL,
    "play miss for pool": Declaration.PLAY_MISS_FOR_POOL,
    "play miss for the pool": Declaration.PLAY_MISS_FOR_POOL,
    "play the miss for the pool": Declaration.PLAY_MISS_FOR_POOL,
}


def parse_declaration(text: str) -> Declaration | None:
    """The declaration `text` names (`stand`, `Throw up`, `take_miss`, ...), else None."""
    words = " ".join(text.strip().lower().replace("_", " ").replace("-", " ").split())
    return DECLARATION_ALIASES.get(words)


def in_words(declarations: Sequence[Declaration]) -> str:
    """'stand, take miss or throw up' (each declaration's `words`)."""
    w = [d.words for d in declarations]
    return w[0] if len(w) == 1 else f"{', '.join(w[:-1])} or {w[-1]}"


@dataclass(frozen=True, slots=True)
class DeclareRuling:
    """What a seat may declare now: the legal declarations, why, and why not the others."""

    legal: tuple[Declaration, ...]
    allowed_by: tuple[tuple[Declaration, Law], ...]
    forbidden: tuple[tuple[Declaration, Law], ...]

    def law_for(self, d: Declaration) -> Law | None:
        """The law that forbids declaration `d` here (rule id, reason, quote), or None if `d` is
        legal."""
        return law_against(self.forbidden, d)

    @property
    def why(self) -> Law:
        """The law that best explains the whole set (the first special case, else R06)."""
        for _, law in self.allowed_by:
            if law in _SPECIAL:
                return law
        return Law.MAY_STAND


_SPECIAL = {
    Law.MISS_FOR_POOL,
    Law.LONE_STANDER_ENQUIRE_WITHIN,
    Law.DEALER_MAY_STAND_OR_NOT,
    Law.MUST_NO_PASS,
    Law.MUST_THROW_UP,
    Law.MUST_THROW_UP_IN_MUST,
}


@lru_cache(maxsize=512)  # few distinct situations; rulings are immutable
def declare_ruling(
    *,
    is_dealer: bool,
    must: bool,
    miss_untaken: bool,
    standers_before: int,
    miss_holder_before: bool,
    options: RuleOptions,
    forced_pass: bool = False,
) -> DeclareRuling:
    """The legal declarations of the seat to declare.

    `standers_before` counts players before this seat who stood on their own cards;
    `miss_holder_before` says whether one of them took the miss.
    """
    allowed: dict[Declaration, Law] = {}
    forbidden: dict[Declaration, Law] = {}
    if forced_pass:  # R53: looked at another's cards before declaring (in a must too: A25)
        law = Law.MUST_THROW_UP_IN_MUST if must else Law.MUST_THROW_UP
        allowed[Declaration.PASS] = law
        for d in (Declaration.PLAY, Declaration.TAKE_MISS, Declaration.PLAY_MISS_FOR_POOL):
            forbidden[d] = law
        return _ruling(allowed, forbidden)
    if must:  # R43, R45
        allowed[Declaration.PLAY] = Law.MUST_NO_PASS
        forbidden[Declaration.TAKE_MISS] = Law.MUST_NO_MISS
        forbidden[Declaration.PASS] = Law.MUST_NO_PASS
        forbidden[Declaration.PLAY_MISS_FOR_POOL] = Law.MUST_NO_MISS
        return _ruling(allowed, forbidden)
    lone_stander = is_dealer and standers_before == 1 and not miss_holder_before and miss_untaken
    allowed[Declaration.PLAY] = Law.MAY_STAND
    if miss_untaken:
        allowed[Declaration.TAKE_MISS] = Law.MAY_TAKE_MISS
    else:
        forbidden[Declaration.TAKE_MISS] = Law.MISS_TAKEN
    if lone_stander and options.lone_stander_rule is LoneStanderRule.SEEDS:
        # R17 names the dealer's own two choices here; R18 adds the third and takes the pass away
        allowed[Declaration.PLAY] = Law.LONE_STANDER_PLAY_OR_MISS
        allowed[Declaration.TAKE_MISS] = Law.LONE_STANDER_PLAY_OR_MISS
        forbidden[Declaration.PASS] = Law.LONE_STANDER_NO_PASS  # R18
        allowed[Declaration.PLAY_MISS_FOR_POOL] = Law.MISS_FOR_POOL
    elif lone_stander:
        allowed[Declaration.PASS] = Law.LONE_STANDER_ENQUIRE_WITHIN
        forbidden[Declaration.PLAY_MISS_FOR_POOL] = Law.LONE_STANDER_ENQUIRE_WITHIN
    else:
        if is_dealer and standers_before == 0 and miss_holder_before:
            allowed[Declaration.PLAY] = Law.DEALER_MAY_STAND_OR_NOT  # R16
            allowed[Declaration.PASS] = Law.DEALER_MAY_STAND_OR_NOT
        else:
            allowed[Declaration.PASS] = Law.MAY_PASS
        forbidden[Declaration.PLAY_MISS_FOR_POOL] = Law.MISS_FOR_POOL_ONLY_LONE_STANDER
    return _ruling(allowed, forbidden)


#: (is_dealer, must, miss_untaken, standers_before, miss_holder_before, forced_pass)
DeclareKey = tuple[bool, bool, bool, int, bool, bool]
_MEMOS: dict[int, tuple[RuleOptions, dict[DeclareKey, DeclareRuling]]] = {}


def ruling_memo(options: RuleOptions) -> dict[DeclareKey, DeclareRuling]:
    """A memo of `declare_ruling` for one set of options, found once per hand: hashing the
    14 options on every declaration would cost more than the ruling itself."""
    entry = _MEMOS.get(id(options))
    if entry is None or entry[0] is not options:  # the options are kept, so ids stay theirs
        if len(_MEMOS) >= 64:
            _MEMOS.clear()
        entry = _MEMOS[id(options)] = (options, {})
    return entry[1]


def _ruling(allowed: dict[Declaration, Law], forbidden: dict[Declaration, Law]) -> DeclareRuling:
    legal = tuple(d for d in ALL_DECLARATIONS if d in allowed)
    return DeclareRuling(
        legal,
        tuple((d, allowed[d]) for d in legal),
        tuple((d, forbidden[d]) for d in ALL_DECLARATIONS if d in forbidden),
    )
