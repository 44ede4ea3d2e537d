"""Property-based tests (Hypothesis) of the rule invariants over whole hands.

Every hand is played out with Hypothesis-drawn move choices under random rule options
(all 14 options, values from OPTION_SPECS), presets, table sizes 2..16 (2..17 in a must),
random dealer seats, stakes and seeds. The oracles below (trick winner, follow-suit,
lead, declarations, dealing order, settlement) are written here from the rules digest
(R01–R63) and deliberately do NOT call loo_lessons.engine.cards.beats / trick_winner_index or
loo_lessons.engine.play.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from loo_lessons.engine.cards import FULL_PACK, Card, Rank, Suit, shuffled_pack
from loo_lessons.engine.declare import Declaration
from loo_lessons.engine.errors import IllegalAction
from loo_lessons.engine.game import Action, Hand, Phase, Setup
from loo_lessons.engine.options import (
    OPTION_SPECS,
    PRESETS,
    Ante,
    FirstLeader,
    LoneStanderRule,
    LooAmount,
    MissDealPosition,
    PoolRemainder,
    RuleOptions,
    TrumpAfterTrickTwoTrumps,
    TwoDeclaredRule,
    TwoTrumpsLead,
    VoidTrumpRule,
    options_from,
    preset,
)
from loo_lessons.engine.settle import Stakes
from loo_lessons.scenario.transcripts import load_transcript

SETTINGS = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

ALL_DECLARATIONS = frozenset(Declaration)
OPTION_KEYS = tuple(OPTION_SPECS)


# --- strategies -------------------------------------------------------------------------


def full_option_dicts() -> st.SearchStrategy[dict[str, Any]]:
    """Every combination of the 14 options, each value taken from OPTION_SPECS."""
    return st.fixed_dictionaries(
        {k: st.sampled_from(list(spec.values)) for k, spec in OPTION_SPECS.items()}
    )


@st.composite
def preset_with_overrides(draw: st.DrawFn) -> RuleOptions:
    name = draw(st.sampled_from(sorted(PRESETS)))
    values = draw(full_option_dicts())
    keys = draw(st.sets(st.sampled_from(OPTION_KEYS)))
    return options_from({"preset": name, **{k: values[k] for k in keys}})


def rule_options() -> st.SearchStrategy[RuleOptions]:
    return st.one_of(
        full_option_dicts().map(options_from),
        st.sampled_from(sorted(PRESETS)).map(preset),
        preset_with_overrides(),
    )


@st.composite
def setups(draw: st.DrawFn, must: bool | None = None) -> Setup:
    opts = draw(rule_options())
    is_must = draw(st.booleans()) if must is None else must
    players = draw(st.integers(2, 17 if is_must else 16))
    dealer = draw(st.integers(0, players - 1))
    stake = draw(st.integers(1, 12))
    loo = draw(st.none() | st.integers(1, 24))
    single_loo = draw(st.none() | st.integers(1, 12))
    if opts.loo_amount is LooAmount.POOL_CAPPED:
        cap: int | None = draw(st.integers(1, 60))
    else:
        cap = draw(st.none() | st.integers(1, 60))
    pool = draw(st.none() | st.integers(0, 200))
    stakes = Stakes.make(stake, loo, single_loo, cap, pool, players=players, ante=opts.ante)
    return Setup(players, dealer, opts, stakes, is_must)


SEEDS = st.integers(0, 2**64 - 1)


def build_hand(setup: Setup, seed: int, how: str) -> Hand:
    """The three ways into a hand: Hand.from_seed, Hand.dealt (Setup + Stakes), Hand.from_pack."""
    if how == "from_seed":
        return Hand.from_seed(
            seed,
            setup.players,
            setup.dealer,
            setup.options,
            must=setup.must,
            stakes=setup.stakes,
        )
    if how == "dealt":
        return Hand.dealt(setup, random.Random(seed), seed=seed)
    return Hand.from_pack(setup, shuffled_pack(random.Random(seed)))


HOWS = st.sampled_from(["from_seed", "dealt", "from_pack"])


# --- naive independent oracles ------------------------------------------------------------


def naive_trick_winner(plays: Sequence[tuple[int, Card]], trumps: Suit) -> int:
    """R37: the highest trump; if no trump was played, the highest card of the suit led."""
    trump_plays = [(seat, card) for seat, card in plays if card.suit == trumps]
    if trump_plays:
        return max(trump_plays, key=lambda p: int(p[1].rank))[0]
    led = plays[0][1].suit
    return max((p for p in plays if p[1].suit == led), key=lambda p: int(p[1].rank))[0]


def naive_heads(card: Card, trick: Sequence[Card], trumps: Suit) -> bool:
    """Would `card` beat every card played to the trick so far?"""
    led = trick[0].suit
    trump_ranks = [int(c.rank) for c in trick if c.suit == trumps]
    if trump_ranks:
        return card.suit == trumps and int(card.rank) > max(trump_ranks)
    if card.suit == trumps:
        return True
    return card.suit == led and int(card.rank) > max(int(c.rank) for c in trick if c.suit == led)


def expected_follow(
    hand: Sequence[Card], trick: Sequence[Card], trumps: Suit, opts: RuleOptions
) -> set[Card]:
    """R32–R36 with the engine's documented readings (A8, A9, A10)."""
    led = trick[0].suit
    of_led = {c for c in hand if c.suit == led}
    if of_led:
        if opts.must_head_in_suit:
            heads = {c for c in of_led if naive_heads(c, trick, trumps)}
            return heads or of_led
        return of_led
    held_trumps = {c for c in hand if c.suit == trumps}
    if not held_trumps:
        return set(hand)
    heads = {c for c in held_trumps if naive_heads(c, trick, trumps)}
    if opts.void_trump_rule is VoidTrumpRule.MUST_TRUMP:
        return heads or held_trumps  # trump, over-trump if practicable, else under-trump
    return heads or set(hand)  # only a trump that heads is compulsory


def expected_lead(
    hand: Sequence[Card],
    trumps: Suit,
    turn_up: Card | None,
    players_in: int,
    later_lead: bool,
    opts: RuleOptions,
    seen: Sequence[Card],
) -> set[Card]:
    """R23–R31 with the engine's documented precedence (A4, A5, A7)."""
    held = sorted((c for c in hand if c.suit == trumps), key=lambda c: -int(c.rank))
    if not held:
        return set(hand)
    top = held[0]
    if top.rank == Rank.ACE:
        return {top}
    if (
        turn_up is not None
        and turn_up.suit == trumps
        and turn_up.rank == Rank.ACE
        and top.rank == Rank.KING
    ):
        return {top}
    if later_lead and opts.trump_after_trick:
        if len(held) == 1:
            return {top}
        if opts.trump_after_trick_two_trumps is TrumpAfterTrickTwoTrumps.HIGHEST:
            return {top}
    if len(held) == 1:
        return set(hand)
    if (
        opts.two_declared_rule is TwoDeclaredRule.HIGHEST_WITH_SEQUENCE_EXCEPTION
        and players_in == 2
    ):
        held_ranks = {int(c.rank) for c in held}
        seen_ranks = (
            {int(c.rank) for c in seen if c.suit == trumps}
            if opts.equal_value_via_visible_cards
            else set()
        )
        return {
            c
            for c in held
            if all(
                r in held_ranks or r in seen_ranks for r in range(int(c.rank) + 1, int(top.rank))
            )
        }
    if opts.two_trumps_lead is TwoTrumpsLead.HIGHEST:
        return {top}
    return set(held)


def expected_declarations(
    seat: int, setup: Setup, before: Sequence[Declaration]
) -> set[Declaration]:
    """R06–R18 (V7): what `seat` may declare after the declarations `before` it."""
    if setup.must:
        return {Declaration.PLAY}
    miss_taken = any(d in (Declaration.TAKE_MISS, Declaration.PLAY_MISS_FOR_POOL) for d in before)
    standers = sum(1 for d in before if d is Declaration.PLAY)
    out = {Declaration.PLAY, Declaration.PASS}
    if not miss_taken:
        out.add(Declaration.TAKE_MISS)
    if seat == setup.dealer and standers == 1 and not miss_taken:
        if setup.options.lone_stander_rule is LoneStanderRule.SEEDS:
            out = {Declaration.PLAY, Declaration.TAKE_MISS, Declaration.PLAY_MISS_FOR_POOL}
        else:
            out = {Declaration.PLAY, Declaration.TAKE_MISS, Declaration.PASS}
    return out


def naive_deal(
    pack: Sequence[Card], players: int, dealer: int, must: bool, position: MissDealPosition
) -> tuple[list[list[Card]], list[Card] | None, Card]:
    """R03/R04: one card at a time from the elder hand round to the dealer, miss per V13."""
    hands: list[list[Card]] = [[] for _ in range(players)]
    miss: list[Card] = []
    seats: list[int | None] = [(dealer + 1 + i) % players for i in range(players)]
    if not must:  # after the dealer's own card == at the end of the round (dealer dealt last)
        first = position is MissDealPosition.FIRST_EACH_ROUND
        seats = [None, *seats] if first else [*seats, None]
    cards = iter(pack)
    for _ in range(3):
        for s in seats:
            (miss if s is None else hands[s]).append(next(cards))
    return hands, (None if must else miss), next(cards)


def next_stake(setup: Setup) -> int:
    s = setup.stakes.stake
    return s * setup.players if setup.options.ante is Ante.ALL_PLAYERS else s


def expected_loo(setup: Setup, pool: int) -> int:
    o = setup.options.loo_amount
    if o is LooAmount.FIXED:
        return setup.stakes.loo
    if o is LooAmount.POOL:
        return pool
    assert setup.stakes.loo_cap is not None
    return min(pool, setup.stakes.loo_cap)


# --- helpers --------------------------------------------------------------------------


def snapshot(h: Hand) -> tuple[Any, ...]:
    return h.snapshot()


def check_cards(h: Hand) -> None:
    """52 cards, each exactly once, at every step (R01)."""
    assert sum(h.accounted().values()) == 52
    places: list[Card] = [c for cards in h.held for c in cards]
    places += list(h.miss or ())
    places += h.discards
    places += [c for t in h.tricks for _, c in t]
    places += [h.turn_up] if h.turn_up is not None else []
    places += list(h.stock)
    assert len(places) == 52
    assert set(places) == set(FULL_PACK)


def options_now(h: Hand) -> set[Action]:
    """Everything the seat to act could try: its cards in play, the four declarations before."""
    assert h.to_act is not None
    if h.phase is Phase.DECLARE:
        return set(ALL_DECLARATIONS)
    return set(h.hand_of(h.to_act))


@dataclass
class Log:
    """Our own record of the hand, built from the moves (not read back from the engine)."""

    declared: dict[int, Declaration]
    tricks: list[list[tuple[int, Card]]]

    @staticmethod
    def new() -> Log:
        return Log({}, [])


def check_step(h: Hand, log: Log) -> None:
    """Everything that must hold in a position where someone is to act."""
    check_cards(h)
    assert (h.to_act is None) == (h.phase is Phase.SETTLED)
    seat = h.to_act
    assert seat is not None
    legal = h.legal_actions()
    assert len(legal) >= 1, "the player to act has no legal action"
    v = legal.verdict()
    assert v.to_act == seat and v.phase is h.phase
    assert tuple(v.legal) == tuple(legal)
    legal_set = set(legal)
    forbidden = [a for a, _ in v.forbidden]
    assert len(set(forbidden)) == len(forbidden)
    assert len(set(legal)) == len(legal)
    assert not legal_set & set(forbidden), "an action is both legal and forbidden"
    assert legal_set | set(forbidden) == options_now(h), "legal + forbidden != the options"

    if h.phase is Phase.DECLARE:
        order = h.setup.rotation()
        assert tuple(h.rotation) == order
        i = len(log.declared)
        assert seat == order[i]
        before = [log.declared[s] for s in order[:i]]
        assert legal_set == expected_declarations(seat, h.setup, before)
        if seat == h.setup.dealer:  # R14: the dealer only declares if someone before him plays
            assert any(d.plays for d in before)
        return

    assert h.phase is Phase.PLAY
    trumps = h.trumps
    assert trumps is not None and h.turn_up is not None and trumps == h.turn_up.suit
    cards = h.hand_of(seat)
    current = log.tricks[-1]
    if not current:
        seen = [c for t in log.tricks for _, c in t] + [h.turn_up]
        n_in = sum(1 for d in log.declared.values() if d.plays)
        exp = expected_lead(cards, trumps, h.turn_up, n_in, len(log.tricks) > 1, h.options, seen)
        assert legal_set == exp, (cards, trumps, h.turn_up, exp, legal_set)
        ace = Card.of(Rank.ACE, trumps)
        if ace in cards:  # R23
            assert tuple(legal) == (ace,)
    else:
        trick = [c for _, c in current]
        exp = expected_follow(cards, trick, trumps, h.options)
        assert legal_set == exp, (cards, trick, trumps, exp, legal_set)
        led = trick[0].suit
        played = [c for c in legal if isinstance(c, Card)]
        assert len(played) == len(legal)
        if any(c.suit == led for c in cards):  # R32: holding the suit led, follow it
            assert all(c.suit == led for c in played)
        elif h.options.void_trump_rule is VoidTrumpRule.MUST_TRUMP and any(
            c.suit == trumps for c in cards
        ):  # R35: void in the suit led, holding trumps: trump
            assert all(c.suit == trumps for c in played)


def check_forbidden_and_legal(h: Hand) -> None:
    """Every forbidden action raises IllegalAction with a verdict and leaves the state alone;
    every legal action applies, and undo() takes it back exactly."""
    before = snapshot(h)
    v = h.verdict()
    for a, law in v.forbidden:
        try:
            h.apply(a)
        except IllegalAction as e:
            assert e.verdict is not None, f"IllegalAction for {a} carries no verdict"
            assert e.verdict.law_for(a) is law
        else:
            raise AssertionError(f"forbidden {a} was accepted")
        assert snapshot(h) == before
    for a in list(h.legal_actions()):
        h.apply(a)
        after = snapshot(h)
        assert h.undo() == a
        assert snapshot(h) == before, f"undo of {a} did not restore the position"
        h.apply(a)
        assert snapshot(h) == after, f"re-applying {a} after undo gave another position"
        h.undo()
        assert snapshot(h) == before


def record(h: Hand, log: Log, a: Action) -> None:
    seat = h.to_act
    assert seat is not None
    if isinstance(a, Declaration):
        log.declared[seat] = a
        return
    if not log.tricks or len(log.tricks[-1]) == sum(1 for d in log.declared.values() if d.plays):
        log.tricks.append([])
    log.tricks[-1].append((seat, a))


def start_play_in_log(h: Hand, log: Log) -> None:
    if h.phase is Phase.PLAY and not log.tricks:
        log.tricks.append([])


def play_out(h: Hand, data: st.DataObject, *, deep: bool = True) -> Log:
    """Play the hand to its end with Hypothesis-drawn choices, checking every step."""
    log = Log.new()
    while h.to_act is not None:
        start_play_in_log(h, log)
        check_step(h, log)
        if deep:
            check_forbidden_and_legal(h)
        legal = h.legal_actions()
        a = legal[data.draw(st.integers(0, len(legal) - 1), label="move")]
        record(h, log, a)
        n_tricks_done = len(h.winners)
        h.apply(a)
        check_cards(h)
        if len(h.winners) > n_tricks_done:  # a trick was just completed
            trick = log.tricks[-1]
            assert h.winners[-1] == naive_trick_winner(trick, h.trumps or Suit.CLUBS)
            if h.to_act is not None:
                assert h.to_act == h.winners[-1]  # R29: the winner leads
                log.tricks.append([])
    check_cards(h)
    assert h.phase is Phase.SETTLED and h.settlement is not None
    assert len(h.legal_actions()) == 0
    return log


def play_out_rest(h: Hand, log: Log, data: st.DataObject) -> None:
    while h.to_act is not None:
        start_play_in_log(h, log)
        check_step(h, log)
        legal = h.legal_actions()
        a = legal[data.draw(st.integers(0, len(legal) - 1), label="move")]
        record(h, log, a)
        done = len(h.winners)
        h.apply(a)
        if len(h.winners) > done and h.to_act is not None:
            log.tricks.append([])


def random_moves(h: Hand, data: st.DataObject, limit: int) -> None:
    while h.to_act is not None and len(h.actions) < limit:
        legal = h.legal_actions()
        h.apply(legal[data.draw(st.integers(0, len(legal) - 1), label="move")])


def check_settlement(h: Hand, log: Log) -> None:
    """Counters: R14–R19, R38–R47, from our own record of the hand."""
    s = h.settlement
    setup = h.setup
    assert s is not None
    assert s.pool == setup.stakes.pool  # no penalties in these hands
    assert sum(s.receives.values()) + s.left_in_pool == s.pool
    assert all(v >= 0 for v in s.receives.values())
    assert s.left_in_pool >= 0
    order = setup.rotation()
    in_ = [seat for seat in order if seat in log.declared and log.declared[seat].plays]
    awarded: int | None = None
    if len(log.declared) < setup.players:  # R14: all before the dealer passed
        assert len(log.declared) == setup.players - 1
        assert setup.dealer not in log.declared
        assert not in_
        awarded = setup.dealer
    elif len(in_) == 1:  # R15, R16, lone stander after the dealer gives up (V7)
        awarded = in_[0]
    assert s.pool_awarded_to == awarded
    if awarded is not None:
        assert s.receives == {awarded: s.pool}
        assert s.left_in_pool == 0 and s.looed == () and not s.is_single
        assert s.next_pool == next_stake(setup)
        assert log.tricks == [] or log.tricks == [[]]
        return
    assert len(in_) >= 2
    assert tuple(h.players_in) == tuple(in_)
    tricks = log.tricks
    assert len(tricks) == 3 and all(len(t) == len(in_) for t in tricks)
    # every player in plays exactly once to each trick, in order round to the left from the leader
    for t in tricks:
        seats = [seat for seat, _ in t]
        assert sorted(seats) == sorted(in_)
        i = in_.index(seats[0])
        assert seats == [in_[(i + k) % len(in_)] for k in range(len(in_))]
    winners = [naive_trick_winner(t, h.trumps or Suit.CLUBS) for t in tricks]
    # first leader: R21 (elder among those in) or R22 (miss holder)
    first = min(in_, key=lambda seat: (seat - setup.dealer - 1) % setup.players)
    miss_holder = next(
        (
            seat
            for seat, d in log.declared.items()
            if d in (Declaration.TAKE_MISS, Declaration.PLAY_MISS_FOR_POOL)
        ),
        None,
    )
    if setup.options.first_leader is FirstLeader.MISS_HOLDER and miss_holder is not None:
        first = miss_holder
    assert tricks[0][0][0] == first
    assert tricks[1][0][0] == winners[0] and tricks[2][0][0] == winners[1]
    for_pool = next(
        (seat for seat, d in log.declared.items() if d is Declaration.PLAY_MISS_FOR_POOL), None
    )
    if for_pool is not None:
        assert for_pool == setup.dealer and len(in_) == 2
    won = {seat: winners.count(seat) for seat in in_}
    assert s.tricks_won == {seat: n for seat, n in won.items() if n}
    third, odd = divmod(s.pool, 3)
    if setup.options.pool_remainder is PoolRemainder.EARLY_TRICKS_PREFERENCE:
        shares = [third + (1 if odd >= 1 else 0), third + (1 if odd == 2 else 0), third]
        left = 0
    else:
        shares = [third, third, third]
        left = odd
    receives: dict[int, int] = {}
    for i, w in enumerate(winners):
        receives[w] = receives.get(w, 0) + shares[i]
    if for_pool is not None and for_pool in receives:  # R19
        left += receives.pop(for_pool)
    assert s.receives == receives
    assert s.left_in_pool == left
    looed = tuple(seat for seat in in_ if won[seat] == 0 and seat != for_pool)
    assert s.looed == looed
    loo = expected_loo(setup, s.pool)
    assert s.loo_pays == {seat: loo for seat in looed}
    single = len(in_) == 3 and all(won[seat] == 1 for seat in in_)
    assert s.is_single == single
    assert s.next_is_must == (single and setup.options.single_makes_must)
    assert s.next_pool == sum(s.loo_pays.values()) + s.left_in_pool + next_stake(setup)
    if setup.must:
        assert set(in_) == set(range(setup.players))
        assert len(looed) >= setup.players - 3  # R44


def check_replay(h: Hand) -> None:
    t = h.transcript()
    for tr in (t, load_transcript(json.loads(json.dumps(t.as_json())))):
        assert tr == t
        r = tr.replay()
        assert r.settlement == h.settlement
        assert r.completed_tricks() == h.completed_tricks()
        assert [str(a) for a in r.actions] == [str(a) for a in h.actions]
        assert r.phase is h.phase and r.to_act == h.to_act
        assert [r.hand_of(s) for s in range(h.setup.players)] == [
            h.hand_of(s) for s in range(h.setup.players)
        ]


# --- the properties -------------------------------------------------------------------


@SETTINGS
@given(setup=setups(), seed=SEEDS, how=HOWS, data=st.data())
def test_whole_hand_invariants(setup: Setup, seed: int, how: str, data: st.DataObject) -> None:
    """Cards, legality (with naive oracles), checked apply, undo, trick winners, counters."""
    h = build_hand(setup, seed, how)
    assert h.phase is Phase.DECLARE and h.to_act == (setup.dealer + 1) % setup.players
    log = play_out(h, data)
    check_settlement(h, log)
    try:
        h.apply(Declaration.PLAY)
    except IllegalAction as e:
        assert "settled" in str(e)
    else:
        raise AssertionError("a move was accepted after the settlement")


@SETTINGS
@given(setup=setups(), seed=SEEDS, how=HOWS, data=st.data())
def test_transcript_replays_the_hand(
    setup: Setup, seed: int, how: str, data: st.DataObject
) -> None:
    h = build_hand(setup, seed, how)
    stop = data.draw(st.integers(0, 40), label="stop after")
    random_moves(h, data, stop)
    check_replay(h)  # part-way through, or finished
    random_moves(h, data, 10**6)
    check_replay(h)


@st.composite
def trump_heavy_packs(draw: st.DrawFn, setup: Setup) -> list[Card]:
    """A pack whose dealt cards are about half trumps, the turn-up always a trump, so that the
    lead rules (ace, king under the ace, highest, sequence, equal value) are met often."""
    trumps = draw(st.sampled_from(list(Suit)))
    tr = draw(st.permutations([c for c in FULL_PACK if c.suit == trumps]))
    rest = draw(st.permutations([c for c in FULL_PACK if c.suit != trumps]))
    dealt = 3 * (setup.players + (0 if setup.must else 1))
    pack: list[Card] = []
    for _ in range(dealt):
        take_trump = draw(st.booleans()) and len(tr) > 1
        pack.append(tr.pop() if take_trump else rest.pop())
    pack.append(tr.pop())  # the turn-up
    return pack + tr + rest


@st.composite
def small_setups(draw: st.DrawFn) -> Setup:
    s = draw(setups())
    players = draw(st.integers(2, 5))
    return Setup(players, draw(st.integers(0, players - 1)), s.options, s.stakes, s.must)


@SETTINGS
@given(setup=small_setups(), data=st.data())
def test_trump_heavy_hands(setup: Setup, data: st.DataObject) -> None:
    """The whole-hand invariants again, on small tables with many trumps dealt."""
    pack = data.draw(trump_heavy_packs(setup), label="pack")
    h = Hand.from_pack(setup, pack)
    assert h.trumps is pack[3 * (setup.players + (0 if setup.must else 1))].suit
    log = play_out(h, data)
    check_settlement(h, log)
    check_replay(h)


@SETTINGS
@given(setup=setups(), seed=SEEDS)
def test_same_seed_same_deal(setup: Setup, seed: int) -> None:
    a = Hand.dealt(setup, random.Random(seed), seed=seed)
    b = Hand.from_seed(
        seed, setup.players, setup.dealer, setup.options, must=setup.must, stakes=setup.stakes
    )
    c = Hand.from_pack(setup, shuffled_pack(random.Random(seed)))
    for other in (b, c):
        assert snapshot(other) == snapshot(a)
        assert other.turn_up is a.turn_up and other.stock == a.stock
    again = Hand.dealt(setup, random.Random(seed), seed=seed)
    assert snapshot(again) == snapshot(a) and again.stock == a.stock
    for name, p in PRESETS.items():  # a preset named by string deals as the preset object does
        by_name = Hand.from_seed(seed, setup.players, setup.dealer, name, must=setup.must)
        by_obj = Hand.from_seed(seed, setup.players, setup.dealer, p.options, must=setup.must)
        assert snapshot(by_name) == snapshot(by_obj)


@SETTINGS
@given(setup=setups(), seed=SEEDS)
def test_deal_order_matches_naive_dealer(setup: Setup, seed: int) -> None:
    """R03/R04: three rounds one at a time from the elder hand; the miss per V13; turn-up next."""
    pack = shuffled_pack(random.Random(seed))
    h = Hand.from_pack(setup, pack)
    hands, miss, turn = naive_deal(
        pack, setup.players, setup.dealer, setup.must, setup.options.miss_deal_position
    )
    assert [list(h.hand_of(s)) for s in range(setup.players)] == hands
    assert h.miss == miss
    assert h.turn_up is turn and h.trumps is turn.suit
    if setup.must:
        assert h.miss is None  # R45


@SETTINGS
@given(
    setup=setups(),
    other=rule_options(),
    seed=SEEDS,
)
def test_options_do_not_change_the_deal(setup: Setup, other: RuleOptions, seed: int) -> None:
    """Two option sets on one seed deal the same cards unless the miss's place differs."""
    a = Hand.from_seed(seed, setup.players, setup.dealer, setup.options, must=setup.must)
    b = Hand.from_seed(seed, setup.players, setup.dealer, other, must=setup.must)
    assert a.turn_up is b.turn_up and a.stock == b.stock
    late = {MissDealPosition.AFTER_DEALER_EACH_ROUND, MissDealPosition.END_OF_EACH_ROUND}
    pa, pb = setup.options.miss_deal_position, other.miss_deal_position
    same_place = pa == pb or (pa in late and pb in late)
    if setup.must or same_place:
        assert [a.hand_of(s) for s in range(setup.players)] == [
            b.hand_of(s) for s in range(setup.players)
        ]
        assert a.miss == b.miss
    else:
        assert a.miss != b.miss
        assert set(a.miss or ()) | {c for s in range(setup.players) for c in a.hand_of(s)} == set(
            b.miss or ()
        ) | {c for s in range(setup.players) for c in b.hand_of(s)}


@SETTINGS
@given(opts=rule_options())
def test_options_round_trip(opts: RuleOptions) -> None:
    assert options_from(opts.to_dict()) == opts
    assert options_from(json.loads(json.dumps(opts.to_dict()))) == opts
    assert set(opts.to_dict()) == set(OPTION_SPECS)
    for key, value in opts.to_dict().items():
        assert value in OPTION_SPECS[key].values


@SETTINGS
@given(setup=setups(must=True), seed=SEEDS, data=st.data())
def test_must_everyone_plays(setup: Setup, seed: int, data: st.DataObject) -> None:
    """R43–R45: no miss, nobody may pass, at least n − 3 loos."""
    h = Hand.dealt(setup, random.Random(seed), seed=seed)
    assert h.miss is None
    log = play_out(h, data, deep=False)
    assert set(log.declared.values()) == {Declaration.PLAY}
    check_settlement(h, log)


@SETTINGS
@given(setup=setups(must=False), seed=SEEDS)
def test_everyone_passing_gives_the_dealer_the_pool(setup: Setup, seed: int) -> None:
    """R14: all before the dealer throw up, nobody took miss: the dealer takes the pool."""
    h = Hand.dealt(setup, random.Random(seed), seed=seed)
    for _ in range(setup.players - 1):
        h.apply(Declaration.PASS)
    assert h.phase is Phase.SETTLED and h.to_act is None
    s = h.settlement
    assert s is not None
    assert s.pool_awarded_to == setup.dealer and s.receives == {setup.dealer: s.pool}
    assert s.looed == ()
    check_cards(h)


@SETTINGS
@given(setup=setups(must=False), seed=SEEDS, data=st.data())
def test_lone_stander_and_miss_for_pool(setup: Setup, seed: int, data: st.DataObject) -> None:
    """R17–R19, A16: one stands, the rest pass; the dealer's options; miss for the pool."""
    h = Hand.dealt(setup, random.Random(seed), seed=seed)
    stander = data.draw(st.integers(0, setup.players - 2), label="stander index")
    log = Log.new()
    for i in range(setup.players - 1):
        d = Declaration.PLAY if i == stander else Declaration.PASS
        record(h, log, d)
        h.apply(d)
    assert h.to_act == setup.dealer
    legal = set(h.legal_actions())
    if setup.options.lone_stander_rule is LoneStanderRule.SEEDS:
        assert legal == {Declaration.PLAY, Declaration.TAKE_MISS, Declaration.PLAY_MISS_FOR_POOL}
        record(h, log, Declaration.PLAY_MISS_FOR_POOL)
        h.apply(Declaration.PLAY_MISS_FOR_POOL)
        assert h.phase is Phase.PLAY
        play_out_rest(h, log, data)
        check_settlement(h, log)
        s = h.settlement
        assert s is not None
        assert setup.dealer not in s.looed and setup.dealer not in s.receives  # A16, R19
    else:
        assert legal == {Declaration.PLAY, Declaration.TAKE_MISS, Declaration.PASS}
        record(h, log, Declaration.PASS)
        h.apply(Declaration.PASS)
        check_settlement(h, log)


@st.composite
def heads_up_deals(draw: st.DrawFn) -> tuple[Setup, Hand]:
    """Two players in, the elder hand leading with two or three trumps (R23–R27, A1, A4)."""
    s = draw(setups(must=False))
    setup = Setup(2, 0, s.options, s.stakes, False)
    trumps = draw(st.sampled_from(list(Suit)))
    tr = draw(st.permutations([c for c in FULL_PACK if c.suit == trumps]))
    rest = draw(st.permutations([c for c in FULL_PACK if c.suit != trumps]))
    n = draw(st.integers(2, 3))
    elder = [tr.pop() for _ in range(n)] + [rest.pop() for _ in range(3 - n)]
    turn_up = tr.pop()
    pool = tr + rest
    pool = draw(st.permutations(pool))
    dealer_hand, miss, stock = list(pool[:3]), list(pool[3:6]), list(pool[6:])
    h = Hand(setup, [dealer_hand, elder], miss, turn_up, stock=stock)
    return setup, h


@SETTINGS
@given(deal=heads_up_deals(), data=st.data())
def test_heads_up_leads(deal: tuple[Setup, Hand], data: st.DataObject) -> None:
    _, h = deal
    log = Log.new()
    for d in (Declaration.PLAY, Declaration.PLAY):
        record(h, log, d)
        h.apply(d)
    assert h.phase is Phase.PLAY and h.to_act == 1
    play_out_rest(h, log, data)
    check_settlement(h, log)
