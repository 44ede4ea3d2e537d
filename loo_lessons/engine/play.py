"""Leading and following (R21–R37): which cards a player may play, and why.

Each rule is a filter on the cards in hand; a card removed by a filter is forbidden by
that filter's law. `lead_filters` and `follow_filters` decide which filters apply, once,
and give the cards they leave (the fast path a simulation takes: `Filters.legal`);
`explained` turns the same filters into a `Ruling` (the legal cards, the law that shaped
them, the law forbidding each other card) only when a verdict is asked for.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from operator import attrgetter

from .cards import Card, Rank, Suit, trick_winner_index
from .laws import Law, law_against
from .options import (
    RuleOptions,
    TrumpAfterTrickTwoTrumps,
    TwoDeclaredRule,
    TwoTrumpsLead,
    VoidTrumpRule,
)

#: One filter: the cards it keeps (a sub-list, in hand order, of the previous filter's), the
#: law that keeps them, and the law refusing the rest (None: the same law), for when the law
#: that allows is worded for the cards it allows (each refused card gets its own reason).
Filter = tuple[Sequence[Card], Law, "Law | None"]
#: A decision: the legal cards (the last filter's, else the whole hand), the law when no
#: filter applies, and the filters in order.
Filters = tuple[tuple[Card, ...], Law, tuple[Filter, ...]]

_ACE, _KING = Rank.ACE, Rank.KING  # looked up once: every lead and follow asks
_FOLLOW_SUIT, _HEAD_IN_SUIT = Law.FOLLOW_SUIT, Law.HEAD_IN_SUIT
_FOLLOW_ANY_OF_SUIT, _DISCARD_NO_TRUMP, _DISCARD = (
    Law.FOLLOW_ANY_OF_SUIT,
    Law.DISCARD_NO_TRUMP,
    Law.DISCARD,
)
_MUST_TRUMP_RULE = VoidTrumpRule.MUST_TRUMP
_FREE_LEAD, _LEAD_ACE, _LEAD_KING = Law.FREE_LEAD, Law.LEAD_ACE, Law.LEAD_KING
_TRUMP_AFTER_TRICK, _TRUMP_AFTER_TRICK_HIGHEST = (
    Law.TRUMP_AFTER_TRICK,
    Law.TRUMP_AFTER_TRICK_HIGHEST,
)
_LEAD_HIGHEST, _LEAD_ONE = Law.LEAD_HIGHEST, Law.LEAD_ONE
_AFTER_TRICK_HIGHEST = TrumpAfterTrickTwoTrumps.HIGHEST
_TWO_DECLARED_RULE = TwoDeclaredRule.HIGHEST_WITH_SEQUENCE_EXCEPTION
_TWO_TRUMPS_HIGHEST = TwoTrumpsLead.HIGHEST
_MUST_TRUMP, _MUST_OVERTRUMP, _MUST_UNDERTRUMP, _TRUMP_TO_HEAD = (
    Law.MUST_TRUMP,
    Law.MUST_OVERTRUMP,
    Law.MUST_UNDERTRUMP,
    Law.TRUMP_TO_HEAD,
)


@dataclass(frozen=True, slots=True)
class Ruling:
    """The verdict on one player's cards: what is legal, and why everything else is not."""

    legal: tuple[Card, ...]
    why: Law
    forbidden: tuple[tuple[Card, Law], ...]

    def law_for(self, card: Card) -> Law | None:
        """The law that forbids playing `card` now (rule id, reason, quote: R23–R36), or None if it
        is legal or not held."""
        return law_against(self.forbidden, card)


def explained(hand: Sequence[Card], filters: Filters) -> Ruling:
    """The ruling the filters make, with the law forbidding every card they remove."""
    _, why, steps = filters
    cards = list(hand)
    forbidden: list[tuple[Card, Law]] = []
    for kept, law, refused in steps:
        forbidden.extend((c, refused or law) for c in cards if c not in kept)
        cards = [c for c in cards if c in kept]
        why = law
    return Ruling(tuple(cards), why, tuple(forbidden))


def equal_value_class(
    trumps_held: Sequence[Card], seen: Collection[Card], use_seen: bool
) -> list[Card]:
    """The leader's highest trump and those of equal value with it (R27, A1).

    Two trumps are "in sequence" when no rank lies between them; with `use_seen`, ranks
    between them that have already been seen (turn-up, earlier tricks) do not count.
    """
    # ranks are unique within a suit: highest first, as `key=-rank` sorted them
    ordered = sorted(trumps_held, key=_rank_of, reverse=True)
    top = [ordered[0]]
    suit = ordered[0].suit
    seen_ranks: Collection[int] = {c.rank for c in seen if c.suit is suit} if use_seen else ()
    for card in ordered[1:]:
        # the first rank between this card and the last of the class that is not seen
        # (ranks compare and hash as ints)
        r, above = card.rank + 1, top[-1].rank
        while r < above and r in seen_ranks:
            r += 1
        if r < above:
            break
        top.append(card)
    return top


_rank_of = attrgetter("rank")


def lead_filters(
    hand: Sequence[Card],
    trumps: Suit,
    turn_up: Card | None,
    players_in: int,
    later_lead: bool,
    options: RuleOptions,
    seen: Collection[Card] | Callable[[], Collection[Card]] = (),
) -> Filters:
    """What the leader of a trick may lead (R23–R31).

    `seen` (the turn-up and cards already played, or a function giving them) only matters
    for seed 000's "equal value" exception (R27, A1).
    """
    held_trumps: list[Card] = []
    for c in hand:  # a loop: cheaper than a comprehension for three cards
        if c.suit is trumps:
            held_trumps.append(c)
    if not held_trumps:
        return tuple(hand), _FREE_LEAD, ()
    top = held_trumps[0]
    for c in held_trumps:
        if c.rank > top.rank:
            top = c
    # R23 and R24 come before every other lead rule (A4) and bind every leader (A7).
    if top.rank is _ACE:
        return (top,), _FREE_LEAD, (((top,), _LEAD_ACE, None),)
    if (
        top.rank is _KING
        and turn_up is not None
        and turn_up.suit is trumps
        and turn_up.rank is _ACE
    ):
        return (top,), _FREE_LEAD, (((top,), _LEAD_KING, None),)
    steps: tuple[Filter, ...] = ()
    if later_lead and options.trump_after_trick:
        steps = ((held_trumps, _TRUMP_AFTER_TRICK, None),)  # R30
        if len(held_trumps) < 2:
            return tuple(held_trumps), _FREE_LEAD, steps
        if options.trump_after_trick_two_trumps is _AFTER_TRICK_HIGHEST:
            highest: Filter = ((top,), _TRUMP_AFTER_TRICK_HIGHEST, None)  # R31
            return (top,), _FREE_LEAD, (*steps, highest)
        # as_original_lead (R29): fall through to the first leader's obligations.
    if len(held_trumps) < 2:
        return tuple(held_trumps if steps else hand), _FREE_LEAD, steps
    if options.two_declared_rule is _TWO_DECLARED_RULE and players_in == 2:
        # the cards seen matter only when they may fill a gap (A1): not asked for otherwise
        use_seen = options.equal_value_via_visible_cards
        visible = (seen() if callable(seen) else seen) if use_seen else ()
        top_class = equal_value_class(held_trumps, visible, use_seen)
        # quote the exception itself when it is what lets a lower trump be led
        law = Law.LEAD_TWO_DECLARED_EQUAL if len(top_class) > 1 else Law.LEAD_TWO_DECLARED
        # a refused card is refused by "he must lead the highest", not by "either of them"
        kept = [c for c in held_trumps if c in top_class]  # in hand order
        return tuple(kept), _FREE_LEAD, (*steps, (kept, law, Law.LEAD_TWO_DECLARED))
    if options.two_trumps_lead is _TWO_TRUMPS_HIGHEST:
        return (top,), _FREE_LEAD, (*steps, ((top,), _LEAD_HIGHEST, None))  # R26
    return tuple(held_trumps), _FREE_LEAD, (*steps, (held_trumps, _LEAD_ONE, None))  # R25


def follow_filters(
    hand: Sequence[Card], led: Suit, best: Card, trumps: Suit, options: RuleOptions
) -> Filters:
    """What a player may play to a trick led in `led` whose winning card so far is `best`
    (R32–R36)."""
    # `beats(c, best, trumps)` below is worked out for the cards of one suit at once: a card
    # of the best card's suit heads it by rank, a card of another suit only if it is a trump
    # (every follower asks, so the call per card is saved)
    of_suit: list[Card] = []
    held_trumps: list[Card] = []
    for c in hand:  # a loop: cheaper than two comprehensions for three cards
        if c.suit is led:
            of_suit.append(c)
        elif c.suit is trumps:
            held_trumps.append(c)
    if of_suit:
        follow: Filter = (of_suit, _FOLLOW_SUIT, None)
        if options.must_head_in_suit:
            if best.suit is led:
                top = best.rank
                heads = []
                for c in of_suit:  # a loop, as above
                    if c.rank > top:
                        heads.append(c)
            else:
                heads = list(of_suit) if led is trumps else []
            if heads:
                head: Filter = (heads, _HEAD_IN_SUIT, None)
                return tuple(heads), _FOLLOW_ANY_OF_SUIT, (follow, head)
        return tuple(of_suit), _FOLLOW_ANY_OF_SUIT, (follow,)
    must_trump = options.void_trump_rule is _MUST_TRUMP_RULE
    # Hoffmann's "if practicable" (R35) or Peel's "he may discard as he chooses" (R36)
    free = _DISCARD_NO_TRUMP if must_trump else _DISCARD
    if not held_trumps:
        return tuple(hand), free, ()
    if best.suit is trumps:
        top = best.rank
        heads = []
        for c in held_trumps:
            if c.rank > top:
                heads.append(c)
    else:
        heads = list(held_trumps)
    if must_trump:
        if not heads:  # A9: "bound to trump" even so
            return tuple(held_trumps), free, ((held_trumps, _MUST_UNDERTRUMP, None),)
        bound: Filter = (held_trumps, _MUST_TRUMP, None)  # R35: bound to trump...
        if best.suit is trumps:  # ...or over-trump, if practicable
            return tuple(heads), free, (bound, (heads, _MUST_OVERTRUMP, None))
        return tuple(held_trumps), free, (bound,)
    if heads:
        return tuple(heads), free, ((heads, _TRUMP_TO_HEAD, None),)  # R36
    return tuple(hand), free, ()


def trick_winner(plays: Sequence[tuple[int, Card]], trumps: Suit) -> int:
    """The seat winning a trick (R37): the highest trump, else the highest card of the suit led."""
    return plays[trick_winner_index([c for _, c in plays], trumps)][0]
