"""Golden pins, as python-chess pins perft and OpenSpiel its game trees (issue 9, Deliver 6).

(a) The number of complete deals (every declaration and play sequence to the settlement)
    reachable from fixed seeds, both presets, three to six players: counted by the engine's
    own moves AND by a naive counter written here from the rules digest (its own declaring,
    lead, follow and trick-winner logic, sharing nothing with the engine but the cards dealt
    and the option values), and pinned as numbers. A change to any rule shows as a changed
    count; a bug in the engine that the naive counter does not share shows as a disagreement.
(b) Exactly what seed 42 deals to five players under both presets' miss positions, so a
    change to shuffling or dealing order shows.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from loo_lessons.engine.cards import Card, Rank, Suit
from loo_lessons.engine.game import Hand
from loo_lessons.engine.options import RuleOptions, preset

# --- the naive counter (rules digest R05–R37; nothing imported from declare.py or play.py) ------


def _beats(card: Card, best: Card, trumps: Suit) -> bool:
    """R37: a card heads the trick if it is higher in the suit of the best card, or a trump
    played on a non-trump."""
    if card.suit == best.suit:
        return int(card.rank) > int(best.rank)
    return card.suit == trumps


def _winner(plays: Sequence[tuple[int, Card]], trumps: Suit) -> int:
    best_seat, best = plays[0]
    for seat, card in plays[1:]:
        if _beats(card, best, trumps):
            best_seat, best = seat, card
    return best_seat


def _naive_leads(
    hand: list[Card],
    trumps: Suit,
    turn_up: Card,
    players_in: int,
    later: bool,
    seen: list[Card],
    o: RuleOptions,
) -> list[Card]:
    mine = sorted((c for c in hand if c.suit == trumps), key=lambda c: -int(c.rank))
    if not mine:
        return list(hand)  # R28: a free lead
    if mine[0].rank == Rank.ACE:
        return [mine[0]]  # R23
    if turn_up.suit == trumps and turn_up.rank == Rank.ACE and mine[0].rank == Rank.KING:
        return [mine[0]]  # R24
    if later and o.trump_after_trick:  # R29, R30
        if len(mine) == 1:
            return mine
        if str(o.trump_after_trick_two_trumps) == "highest":  # R31
            return [mine[0]]
        # otherwise the first leader's obligations, below
    if len(mine) == 1:
        return list(hand)
    if str(o.two_declared_rule) == "highest_with_sequence_exception" and players_in == 2:
        # R27: the highest, or either of the top trumps "in sequence or of equal value"
        gone = {int(c.rank) for c in seen if c.suit == trumps}
        out = [mine[0]]
        for c in mine[1:]:
            between = set(range(int(c.rank) + 1, int(out[-1].rank)))
            if not between or (o.equal_value_via_visible_cards and between <= gone):
                out.append(c)
            else:
                break
        return out
    if str(o.two_trumps_lead) == "highest":  # R26
        return [mine[0]]
    return mine  # R25: one of them


def _naive_follows(hand: list[Card], plays: list[Card], trumps: Suit, o: RuleOptions) -> list[Card]:
    led = plays[0].suit
    best = plays[0]
    for c in plays[1:]:
        if _beats(c, best, trumps):
            best = c
    suit = [c for c in hand if c.suit == led]
    if suit:  # R32: follow suit; R33: and head the trick if able
        heads = [c for c in suit if _beats(c, best, trumps)]
        return heads if (o.must_head_in_suit and heads) else suit
    mine = [c for c in hand if c.suit == trumps]
    over = [c for c in mine if _beats(c, best, trumps)]
    if str(o.void_trump_rule) == "must_trump":  # R35 (and A9: bound to trump even so)
        if not mine:
            return list(hand)
        return over if over else mine
    return over if over else list(hand)  # R36


def _naive_play_count(
    hands: dict[int, list[Card]],
    order: list[int],
    first: int,
    trumps: Suit,
    turn_up: Card,
    o: RuleOptions,
) -> int:
    def trick(t: int, leader: int, seen: list[Card]) -> int:
        if t == 3:
            return 1
        i0 = order.index(leader)
        seats = order[i0:] + order[:i0]  # to the left from the leader (R32)

        def step(k: int, plays: list[tuple[int, Card]]) -> int:
            if k == len(seats):
                return trick(t + 1, _winner(plays, trumps), seen + [c for _, c in plays])
            seat = seats[k]
            h = hands[seat]
            if k == 0:
                options = _naive_leads(h, trumps, turn_up, len(order), t > 0, seen, o)
            else:
                options = _naive_follows(h, [c for _, c in plays], trumps, o)
            n = 0
            for c in options:
                h.remove(c)
                n += step(k + 1, [*plays, (seat, c)])
                h.append(c)
            return n

        return step(0, [])

    return trick(0, first, [turn_up])


def naive_count(hand: Hand) -> int:
    """Complete deals from a fresh deal, by the digest's rules alone."""
    s = hand.setup
    o = s.options
    assert hand.turn_up is not None
    turn_up, trumps = hand.turn_up, hand.turn_up.suit
    dealt = {seat: list(hand.hand_of(seat)) for seat in range(s.players)}
    miss = list(hand.miss) if hand.miss is not None else None
    rotation = [(s.dealer + 1 + i) % s.players for i in range(s.players)]  # R05

    def after_declaring(decl: dict[int, str]) -> int:
        ins = [x for x in rotation if decl[x] != "pass"]
        if len(ins) == 1:
            return 1  # R15, R16 and the lone stander: the pool goes without play
        taker = next((x for x in ins if decl[x] in ("take_miss", "for_pool")), None)
        hands = {x: list(miss) if x == taker and miss else list(dealt[x]) for x in ins}
        first = ins[0]  # R21
        if str(o.first_leader) == "miss_holder" and taker is not None:
            first = taker  # R22
        return _naive_play_count(hands, ins, first, trumps, turn_up, o)

    if s.must:  # R43, R45: everyone plays, no miss
        return after_declaring({x: "play" for x in rotation})

    def declare(i: int, decl: dict[int, str]) -> int:
        seat = rotation[i]
        taken = any(d in ("take_miss", "for_pool") for d in decl.values())
        if seat == s.dealer:
            if all(d == "pass" for d in decl.values()):
                return 1  # R14: the dealer takes the pool without play
            own = [x for x, d in decl.items() if d == "play"]
            if len(own) == 1 and not taken:  # R17, R18
                options = ["play", "take_miss"]
                options += ["for_pool"] if str(o.lone_stander_rule) == "seeds" else ["pass"]
            elif not own and taken:  # R16: the miss-holder alone stood
                options = ["play", "pass"]
            else:
                options = ["play", "pass"] + ([] if taken else ["take_miss"])
        else:
            options = ["play", "pass"] + ([] if taken else ["take_miss"])  # R06, R08, R09
        n = 0
        for d in options:
            decl[seat] = d
            n += after_declaring(decl) if i == len(rotation) - 1 else declare(i + 1, decl)
            del decl[seat]
        return n

    return declare(0, {})


# --- the engine's own count ---------------------------------------------------------------------


def engine_count(hand: Hand) -> int:
    """Complete deals from `hand`, by the engine's own legal moves (the hand is left alone)."""

    def walk(h: Hand) -> int:
        while h.to_act is not None:
            legal = list(h.legal_actions())
            if len(legal) > 1:
                n = 0
                for a in legal[:-1]:
                    branch = h.copy()
                    branch.apply(a)
                    n += walk(branch)
                h.apply(legal[-1])  # the last branch moves this copy on
                return n + walk(h)
            h.apply(legal[0])
        return 1

    return walk(hand.copy())


# --- (a) the pinned counts --------------------------------------------------------------------------

#: (preset, players, seed, must) -> complete deals. Seeds chosen so the whole tree is small
#: enough to walk twice in a few seconds.
PERFT = {
    ("hoffmann", 3, 1, False): 290,
    ("hoffmann", 4, 2, False): 1461,
    ("hoffmann", 5, 1, False): 2397,
    ("hoffmann", 6, 1, True): 160,
    ("hoffmann", 6, 3, False): 8918,
    ("peel", 3, 1, False): 295,
    ("peel", 4, 2, False): 1402,
    ("peel", 5, 1, False): 1706,
    ("peel", 6, 3, True): 368,
}


@pytest.mark.parametrize(("rules", "players", "seed", "must"), list(PERFT))
def test_perft_counts_agree_with_a_naive_counter_and_are_pinned(
    rules: str, players: int, seed: int, must: bool
) -> None:
    hand = Hand.from_seed(seed, players=players, options=rules, must=must)
    naive = naive_count(hand)
    assert engine_count(hand) == naive
    assert naive == PERFT[(rules, players, seed, must)]


@pytest.mark.parametrize(
    ("option", "value", "count"),
    [
        ("must_head_in_suit", False, 669),  # R34 instead of R33
        ("void_trump_rule", "only_if_heads", 606),  # R36 instead of R35
        ("trump_after_trick", False, 714),  # no R30
        ("lone_stander_rule", "enquire_within", 574),  # the dealer may pass (V7)
        ("first_leader", "miss_holder", 569),  # R22
    ],
)
def test_each_option_changes_the_count_and_both_counters_follow(
    option: str, value: str | bool, count: int
) -> None:
    """The counters are not blind to the options: seed 5, four players, Hoffmann's 590."""
    assert naive_count(Hand.from_seed(5, players=4, options="hoffmann")) == 590
    hand = Hand.from_seed(5, players=4, options=preset("hoffmann").with_(**{option: value}))
    assert naive_count(hand) == count
    assert engine_count(hand) == count


# --- (b) what seed 42 deals -------------------------------------------------------------------------

#: Seed 42, five players, dealer 0: the top of the shuffled pack, in dealing order.
SEED_42_PACK_TOP = "JC QD AD 5C 10D AH 5D 2S 8D KC 9S KD 9H 5H 7H 6S 6C 4H QC 2H"
#: ... dealt with the miss's card after the dealer's in each round (V13: Hoffmann's "end of
#: each round" and Peel's "after the dealer" are the same place).
SEED_42_MISS_LAST = {
    "hands": {0: "10D 9S 6C", 1: "JC 5D 9H", 2: "QD 2S 5H", 3: "AD 8D 7H", 4: "5C KC 6S"},
    "miss": "AH KD 4H",
    "turn_up": "QC",
    "stock_top": "2H QH 2C 7S 7D 5S KS JH",
    "stock": 33,
}
#: ... and with the miss's card first in each round.
SEED_42_MISS_FIRST = {
    "hands": {0: "AH KD 4H", 1: "QD 2S 5H", 2: "AD 8D 7H", 3: "5C KC 6S", 4: "10D 9S 6C"},
    "miss": "JC 5D 9H",
    "turn_up": "QC",
    "stock_top": "2H QH 2C 7S 7D 5S KS JH",
    "stock": 33,
}


def _dealt(hand: Hand) -> dict[str, object]:
    assert hand.miss is not None and hand.turn_up is not None
    return {
        "hands": {s: " ".join(c.code for c in hand.hand_of(s)) for s in range(5)},
        "miss": " ".join(c.code for c in hand.miss),
        "turn_up": hand.turn_up.code,
        "stock_top": " ".join(c.code for c in hand.stock[:8]),
        "stock": len(hand.stock),
    }


@pytest.mark.parametrize(
    ("rules", "expected"),
    [
        ("hoffmann", SEED_42_MISS_LAST),  # miss_deal_position: end_of_each_round
        ("peel", SEED_42_MISS_LAST),  # miss_deal_position: after_dealer_each_round
        (preset("hoffmann").with_(miss_deal_position="first_each_round"), SEED_42_MISS_FIRST),
    ],
)
def test_what_seed_42_deals(rules: str | RuleOptions, expected: dict[str, object]) -> None:
    assert _dealt(Hand.from_seed(42, players=5, options=rules)) == expected


def test_seed_42_shuffles_the_pack_the_same_way() -> None:
    """The pack itself, so that a change to the shuffle shows apart from one to the dealing."""
    import random

    from loo_lessons.engine.cards import shuffled_pack

    top = shuffled_pack(random.Random(42))[:20]
    assert " ".join(c.code for c in top) == SEED_42_PACK_TOP
