"""Leading and following (R21–R37): which cards a player may play, and why.

Each rule is a filter on the cards in hand; a card removed by a filter is forbidden by
that filter's law. The result is a `Ruling`: the legal cards, the law that shaped them,
and the law forbidding each other card.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from .cards import Card, Rank, Suit, beats, trick_winner_index
from .laws import Law
from .options import (
    RuleOptions,
    TrumpAfterTrickTwoTrumps,
    TwoDeclaredRule,
    TwoTrumpsLead,
    VoidTrumpRule,
)


@dataclass(frozen=True, slots=True)
class Ruling:
    """The verdict on one player's cards: what is legal, and why everything else is not."""

    legal: tuple[Card, ...]
    why: Law
    forbidden: tuple[tuple[Card, Law], ...]

    def law_for(self, card: Card) -> Law | None:
        for c, law in self.forbidden:
            if c is card:
                return law
        return None


class _Chain:
    """Applies filters in order, remembering which law removed each card."""

    __slots__ = ("cards", "forbidden", "why")

    def __init__(self, cards: Sequence[Card], why: Law) -> None:
        self.cards = list(cards)
        self.forbidden: list[tuple[Card, Law]] = []
        self.why = why

    def keep(self, allowed: Sequence[Card], law: Law, refused: Law | None = None) -> None:
        """Keep `allowed` (by `law`); the rest are forbidden by `refused` when the law that
        allows is worded for the cards it allows (each refused card gets its own reason)."""
        kept = [c for c in self.cards if c in allowed]
        self.forbidden.extend((c, refused or law) for c in self.cards if c not in allowed)
        self.cards = kept
        self.why = law

    def ruling(self) -> Ruling:
        return Ruling(tuple(self.cards), self.why, tuple(self.forbidden))


def equal_value_class(
    trumps_held: Sequence[Card], seen: Collection[Card], use_seen: bool
) -> list[Card]:
    """The leader's highest trump and those of equal value with it (R27, A1).

    Two trumps are "in sequence" when no rank lies between them; with `use_seen`, ranks
    between them that have already been seen (turn-up, earlier tricks) do not count.
    """
    ordered = sorted(trumps_held, key=lambda c: -c.rank)
    top = [ordered[0]]
    seen_ranks = {c.rank for c in seen if c.suit is ordered[0].suit} if use_seen else set()
    for card in ordered[1:]:
        gap = range(card.rank + 1, top[-1].rank)
        if all(Rank(r) in seen_ranks for r in gap):
            top.append(card)
        else:
            break
    return top


def lead_ruling(
    hand: Sequence[Card],
    trumps: Suit,
    turn_up: Card | None,
    players_in: int,
    later_lead: bool,
    options: RuleOptions,
    seen: Collection[Card] | Callable[[], Collection[Card]] = (),
) -> Ruling:
    """What the leader of a trick may lead (R23–R31).

    `seen` (the turn-up and cards already played, or a function giving them) only matters
    for seed 000's "equal value" exception (R27, A1).
    """
    chain = _Chain(hand, Law.FREE_LEAD)
    held_trumps = [c for c in hand if c.suit is trumps]
    if not held_trumps:
        return chain.ruling()
    top = max(held_trumps, key=lambda c: c.rank)
    # R23 and R24 come before every other lead rule (A4) and bind every leader (A7).
    if top.rank == Rank.ACE:
        chain.keep((top,), Law.LEAD_ACE)
        return chain.ruling()
    if (
        turn_up is not None
        and turn_up.suit is trumps
        and turn_up.rank == Rank.ACE
        and top.rank == Rank.KING
    ):
        chain.keep((top,), Law.LEAD_KING)
        return chain.ruling()
    if later_lead and options.trump_after_trick:
        chain.keep(held_trumps, Law.TRUMP_AFTER_TRICK)  # R30
        if len(held_trumps) < 2:
            return chain.ruling()
        if options.trump_after_trick_two_trumps is TrumpAfterTrickTwoTrumps.HIGHEST:
            chain.keep((top,), Law.TRUMP_AFTER_TRICK_HIGHEST)  # R31
            return chain.ruling()
        # as_original_lead (R29): fall through to the first leader's obligations.
    if len(held_trumps) < 2:
        return chain.ruling()
    if (
        options.two_declared_rule is TwoDeclaredRule.HIGHEST_WITH_SEQUENCE_EXCEPTION
        and players_in == 2
    ):
        visible = seen() if callable(seen) else seen
        top_class = equal_value_class(held_trumps, visible, options.equal_value_via_visible_cards)
        # quote the exception itself when it is what lets a lower trump be led
        law = Law.LEAD_TWO_DECLARED_EQUAL if len(top_class) > 1 else Law.LEAD_TWO_DECLARED
        # a refused card is refused by "he must lead the highest", not by "either of them"
        chain.keep(top_class, law, Law.LEAD_TWO_DECLARED)
    elif options.two_trumps_lead is TwoTrumpsLead.HIGHEST:
        chain.keep((top,), Law.LEAD_HIGHEST)  # R26
    else:
        chain.keep(held_trumps, Law.LEAD_ONE)  # R25
    return chain.ruling()


def follow_ruling(
    hand: Sequence[Card], trick: Sequence[Card], trumps: Suit, options: RuleOptions
) -> Ruling:
    """What a player may play to a trick already led (R32–R36)."""
    led = trick[0].suit
    best = trick[trick_winner_index(trick, trumps)]
    of_suit = [c for c in hand if c.suit is led]
    if of_suit:
        chain = _Chain(hand, Law.FOLLOW_ANY_OF_SUIT)
        chain.keep(of_suit, Law.FOLLOW_SUIT)
        if options.must_head_in_suit:
            heads = [c for c in of_suit if beats(c, best, trumps)]
            if heads:
                chain.keep(heads, Law.HEAD_IN_SUIT)
        return chain.ruling()
    must_trump = options.void_trump_rule is VoidTrumpRule.MUST_TRUMP
    # Hoffmann's "if practicable" (R35) or Peel's "he may discard as he chooses" (R36)
    chain = _Chain(hand, Law.DISCARD_NO_TRUMP if must_trump else Law.DISCARD)
    held_trumps = [c for c in hand if c.suit is trumps]
    if not held_trumps:
        return chain.ruling()
    heads = [c for c in held_trumps if beats(c, best, trumps)]
    if must_trump:
        if heads:
            chain.keep(held_trumps, Law.MUST_TRUMP)  # R35: bound to trump...
            if best.suit is trumps:
                chain.keep(heads, Law.MUST_OVERTRUMP)  # ...or over-trump, if practicable
        else:
            chain.keep(held_trumps, Law.MUST_UNDERTRUMP)  # A9: "bound to trump" even so
    elif heads:
        chain.keep(heads, Law.TRUMP_TO_HEAD)  # R36
    return chain.ruling()


def trick_winner(plays: Sequence[tuple[int, Card]], trumps: Suit) -> int:
    """The seat winning a trick (R37): the highest trump, else the highest card of the suit led."""
    return plays[trick_winner_index([c for _, c in plays], trumps)][0]
