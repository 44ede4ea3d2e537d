"""The faster paths of a simulated hand (issue 25) against what they replaced: `Tally.deal` adds
exactly what `count` and the plain `_add` of every row would, to the value and the type; the
sensible bot's `trick_expectation` is its first form's to the last bit; a seat's view counts its
standers and copies its tricks as before."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from loo_lessons.engine import deal as D
from loo_lessons.engine.cards import FULL_PACK, Card, Rank, Suit, beats
from loo_lessons.engine.deal import round_order
from loo_lessons.engine.declare import Declaration
from loo_lessons.engine.game import Hand, Phase, Setup
from loo_lessons.engine.observation import SeatView, seat_view
from loo_lessons.engine.options import MissDealPosition, options_from
from loo_lessons.engine.play import equal_value_class
from loo_lessons.engine.settle import Stakes
from loo_lessons.sim import bots as B
from loo_lessons.sim import coach as C
from loo_lessons.sim import montecarlo as M
from loo_lessons.sim.bots import bot_move, get_bot, play_hand, trick_expectation
from loo_lessons.sim.tally import PLAY, TAKE_MISS, Tally, _add

_SEAT = st.tuples(
    st.integers(1, 6),  # position
    st.integers(0, 4),  # declaration code
    st.integers(0, 15),  # dealt features
    st.integers(0, 15),  # played features
    st.integers(0, 3),  # tricks
    st.integers(0, 40),  # won
    st.integers(0, 40),  # paid
    st.integers(0, 20),  # staked
    st.integers(0, 3),  # bot
)


def _reference(t: Tally, seat: tuple[Any, ...], awarded: bool) -> None:
    """One seat added row by row through `count` and `_add` (the tally's first form)."""
    position, code, dealt, played, tricks, won, paid, staked, bot = seat
    net = won - paid
    if paid:
        t.count("loos")
    balance = net - staked
    _add(t.bots, bot, (1, balance, balance * balance, paid > 0, code in (PLAY, TAKE_MISS)))
    _add(t.decl, (position, code), (1, net, net - staked))
    if code in (PLAY, TAKE_MISS):
        _add(t.miss, (dealt, code), (1, net))
        if not awarded:
            _add(t.play, (played, position), (1, tricks > 0, paid > 0, tricks, net))


def _typed(d: dict[Any, Any]) -> dict[Any, Any]:
    return {
        k: [(type(x).__name__, x) for x in v] if isinstance(v, list) else v for k, v in d.items()
    }


_HAND = st.tuples(st.booleans(), st.booleans(), st.integers(0, 6))


@given(st.lists(st.tuples(_HAND, st.lists(_SEAT, max_size=6)), max_size=12))
def test_a_deal_adds_what_count_and_add_would(
    hands: list[tuple[tuple[bool, bool, int], list[tuple[Any, ...]]]],
) -> None:
    fast, slow = Tally(5), Tally(5)
    for (single, awarded, in_play), seats in hands:
        column = list(zip(*seats, strict=True)) or [()] * 9
        position, code, dealt, played, tricks, won, paid, staked, bot = column
        # a settlement leaves out the seats with nothing: absent means 0
        fast.deal(
            single,
            awarded,
            in_play,
            position,
            code,
            dealt,
            played,
            {k: v for k, v in enumerate(tricks) if v},
            {k: v for k, v in enumerate(won) if v},
            {k: v for k, v in enumerate(paid) if v},
            staked,
            bot,
        )
        slow.count("hands")
        slow.count("singles", single)
        slow.count("awarded", awarded)
        slow.count("in_play", in_play)
        slow.count("played_in", 0 if awarded else in_play)
        for s in seats:
            _reference(slow, s, awarded)
    for name in ("totals", "play", "decl", "miss", "bots"):
        assert _typed(getattr(fast, name)) == _typed(getattr(slow, name)), name
    assert fast.tables() == slow.tables()


# --- the sensible bot's reckoning, counted without generators -----------------------------------


def _trick_expectation_reference(
    cards: Sequence[Card], trumps: Suit | None, turn_up: Card | None, players: int
) -> float:
    """`trick_expectation` as it was first written (the same sums in the same order)."""
    if trumps is None:
        return 0.0
    q = min(0.9, 3 * (players - 1) / 48)
    free = tuple((1 - q) ** k for k in range(13))
    ace, king = 0.5 * (1 - q) ** 2, 0.2 * (1 - q) ** 3
    known = [int(c.rank) for c in cards if c.suit is trumps]
    value = 0.25 * max(0, len(known) - 1)
    if turn_up is not None and turn_up.suit is trumps:
        known.append(int(turn_up.rank))
    for c in cards:
        r = int(c.rank)
        if c.suit is trumps:
            value += free[14 - r - sum(1 for k in known if k > r)]
        elif r == 14:
            value += ace
        elif r == 13:
            value += king
    return value


@given(
    st.lists(st.sampled_from(FULL_PACK), min_size=4, max_size=4, unique=True),
    st.sampled_from([None, *Suit]),
    st.integers(2, 16),
    st.booleans(),
)
def test_trick_expectation_is_the_reference_to_the_last_bit(
    cards: list[Card], trumps: Suit | None, players: int, turned: bool
) -> None:
    hand, up = cards[:3], (cards[3] if turned else None)
    assert trick_expectation(hand, trumps, up, players) == _trick_expectation_reference(
        hand, trumps, up, players
    )


def test_trick_expectation_looked_up_by_kind_of_hand_is_the_reference() -> None:
    # hands alike in their trumps' ranks, plain aces and kings share one reckoning: many
    # hands, far fewer kinds, and each answer the reference's to the last bit
    B._RECKONED.clear()
    rng = random.Random(25)
    pack = list(FULL_PACK)
    hands = 4000
    for _ in range(hands):
        rng.shuffle(pack)
        cards, up = pack[:3], pack[3]
        players = rng.randrange(2, 10)
        trumps = up.suit if rng.random() < 0.9 else rng.choice(list(Suit))  # a scenario's own
        for turn_up in (up, None):
            got = trick_expectation(cards, trumps, turn_up, players)
            assert got == _trick_expectation_reference(cards, trumps, turn_up, players)
    assert 0 < len(B._RECKONED) < hands


@given(st.integers(0, 10_000), st.integers(2, 9))
def test_a_views_standers_are_the_declarations_to_play(seed: int, players: int) -> None:
    hand = Hand.from_seed(seed, players=players)
    rng = random.Random(seed)
    while hand.to_act is not None:
        view = seat_view(hand, hand.to_act)
        # made as a plain tuple for speed: every field there, in its place
        assert len(view) == len(SeatView._fields) and view == SeatView(**view._asdict())
        assert view.put_down == hand.put_down_by(view.seat) and view.hand == hand.hand_of(view.seat)
        assert view.standers == sum(1 for _, d in view.declarations if d is not Declaration.PASS)
        assert view.tricks == tuple(tuple(t) for t in hand.tricks if t)
        legal = hand.legal_actions()
        hand.apply(legal[rng.randrange(len(legal))])


# --- the coach does not play out a throw-up: the engine says it is worth nothing ---------------


@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 9),
    preset_name=st.sampled_from(["hoffmann", "peel"]),
    loo_amount=st.sampled_from(["fixed", "pool", "pool_capped"]),
    remainder=st.sampled_from(["early_tricks_preference", "carry_forward"]),
    ante=st.sampled_from(["dealer_only", "all_players"]),
    bot=st.sampled_from(["sensible", "random-legal", "bold"]),
)
def test_a_seat_that_throws_up_wins_nothing_and_pays_nothing_in_any_play_out(
    seed: int, players: int, preset_name: str, loo_amount: str, remainder: str, ante: str, bot: str
) -> None:
    opts = options_from(
        {"preset": preset_name, "loo_amount": loo_amount, "pool_remainder": remainder, "ante": ante}
    )
    rng = random.Random(seed)
    pool = rng.randrange(1, 40)
    stakes = Stakes.make(3, pool=pool, players=players, ante=opts.ante)
    hand = Hand.dealt(Setup(players, seed % players, opts, stakes), rng)
    bots = (get_bot(bot),) * players
    while hand.to_act is not None and Declaration.PASS not in hand.legal_actions():
        hand.apply_unchecked(bot_move(hand, bots[hand.to_act], rng))
    if hand.to_act is None:
        return  # nobody could throw up in this deal: nothing to check
    me = hand.to_act
    hand.apply_unchecked(Declaration.PASS)
    play_hand(hand, bots, rng)
    s = hand.settlement
    assert s is not None
    assert s.receives.get(me, 0) == 0 and me not in s.loo_pays
    assert s.tricks_won.get(me, 0) == 0 and s.pool_awarded_to != me


def test_the_coach_gives_a_throw_up_exactly_nothing_and_the_rest_their_play_outs() -> None:
    hand = Hand.from_seed(4, players=5)
    advice = C.coach(hand, rollouts=60, seed=2)
    throw = advice.move("pass")
    zero = C.Estimate(0.0, 0.0, 0.0)
    assert (throw.counters, throw.looed, throw.trick) == (zero, zero, zero)
    # the other moves are played out: their figures are their play-outs'
    legal, nets, *_ = C._play_outs(
        seat_view(hand, hand.to_act or 0), hand.setup, (get_bot("sensible"),) * 5, 60, 2
    )
    for k, a in enumerate(legal):
        if a is not Declaration.PASS:
            assert advice.move(a).counters.mean == sum(nets[k]) / 60 and len(nets[k]) == 60


@given(
    st.lists(st.sampled_from(FULL_PACK), min_size=0, max_size=4, unique=True),
    st.sampled_from([None, *Suit]),
)
def test_a_hands_features_by_table_are_its_features_counted(
    cards: list[Card], trumps: Suit | None
) -> None:
    assert M._features_of(cards, M._FEATURE_OF[trumps]) == M._features(cards, trumps)


# --- a chunk's tally, added in line, against each hand replayed and added row by row ---------


def test_a_chunks_tally_is_its_hands_replayed_and_added_row_by_row() -> None:
    bots = ("sensible", "bold", "random-legal", "cautious", "sensible")
    for rules, stake in (("hoffmann", 3), ({"preset": "peel", "ante": "all_players"}, 2)):
        got = M.chunk_tally(7, 40, 340, 5, rules, bots, stake=stake)
        want = Tally(5)
        names = tuple(dict.fromkeys(bots))
        for i in range(40, 340):
            hand = M.replay_hand(7, i, 5, rules, bots, stake=stake)
            s = hand.settlement
            assert s is not None
            fresh = Hand.dealt(hand.setup, random.Random(M.hand_seed(7, i)))
            awarded = s.pool_awarded_to is not None
            want.count("hands")
            want.count("singles", s.is_single)
            want.count("awarded", awarded)
            want.count("in_play", len(hand.players_in))
            want.count("played_in", 0 if awarded else len(hand.players_in))
            for seat in range(5):
                d = hand.declared.get(seat)
                code = 4 if d is None else list(Declaration).index(d)  # tally.DECLARATION_NAMES
                own = M._features(fresh.held[seat], fresh.trumps)
                miss = M._features(fresh.miss or (), fresh.trumps)
                played = own if code == 0 else miss if code == 1 else 0
                all_ante = hand.options.ante.value == "all_players"
                row = (
                    (seat - i % 5 - 1) % 5 + 1,
                    code,
                    own,
                    played,
                    s.tricks_won.get(seat, 0),
                    s.receives.get(seat, 0),
                    s.loo_pays.get(seat, 0),
                    stake if all_ante or seat == i % 5 else 0,
                    names.index(bots[seat]),
                )
                _reference(want, row, awarded)
        for name in ("totals", "play", "decl", "miss", "bots"):
            assert getattr(got, name) == getattr(want, name), (rules, name)


def _sensible_card_reference(view: SeatView, legal: Sequence[Any]) -> Card:
    """`sensible_card` as first written: `max` and `min` keyed by `power`."""
    cards = [a for a in legal if isinstance(a, Card)]
    trumps = view.trumps
    trick = view.current_trick
    if not trick:
        return max(cards, key=lambda c: B.power(c, trumps))
    best = trick[0][1]
    for _, c in trick[1:]:
        if beats(c, best, trumps):
            best = c
    heads = [c for c in cards if beats(c, best, trumps)]
    if heads:
        if view.still_to_play == 0:
            return min(heads, key=lambda c: B.power(c, trumps))
        return max(heads, key=lambda c: B.power(c, trumps))
    return min(cards, key=lambda c: B.power(c, trumps))


@given(
    st.integers(0, 2**32),
    st.integers(2, 9),
    st.sampled_from(["hoffmann", "peel"]),
    st.lists(st.sampled_from(FULL_PACK), min_size=1, max_size=5, unique=True),
)
def test_the_sensible_and_bold_cards_are_the_first_strongest_or_weakest(
    seed: int, players: int, rules: str, extra: list[Card]
) -> None:
    # every play decision of a random deal, and hands of up to five cards with ties in power
    # (plain cards of one rank in two suits): the same card as `max`/`min` keyed by `power`
    hand = Hand.from_seed(seed, players=players, options=rules)
    rng = random.Random(seed)
    while hand.to_act is not None:
        legal = hand.legal_actions()
        view = seat_view(hand, hand.to_act)
        if view.phase is Phase.PLAY:
            for cards in (legal, extra):
                assert B.sensible_card(view, cards) == _sensible_card_reference(view, cards)
                assert B.Bold().choose(view, cards, rng) == max(
                    cards, key=lambda c: B.power(c, view.trumps)
                )
        hand.apply(legal[rng.randrange(len(legal))])


def _equal_value_class_reference(
    trumps_held: Sequence[Card], seen: Sequence[Card], use_seen: bool
) -> list[Card]:
    """`equal_value_class` as first written (R27, A1)."""
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


@given(
    st.sampled_from(list(Suit)),
    st.lists(st.sampled_from(list(Rank)), min_size=1, max_size=5, unique=True),
    st.lists(st.sampled_from(FULL_PACK), max_size=20, unique=True),
    st.booleans(),
)
def test_the_equal_value_class_is_the_first_forms(
    suit: Suit, ranks: list[Rank], seen: list[Card], use_seen: bool
) -> None:
    held = [Card.of(r, suit) for r in ranks]
    assert equal_value_class(held, seen, use_seen) == _equal_value_class_reference(
        held, seen, use_seen
    )


@given(st.integers(0, 2**63 - 1), st.integers(0, 2**32))
def test_a_hands_seeding_leaves_the_state_random_seed_leaves(seed: int, before: int) -> None:
    plain, fast = random.Random(before), random.Random(before)
    plain.gauss()  # a gaussian kept aside: seeding forgets it
    fast.gauss()
    plain.seed(seed)
    M._seed_int(fast, seed)
    fast.gauss_next = None  # type: ignore[attr-defined]
    assert fast.getstate() == plain.getstate()


# --- the coach's play-outs against their first form ------------------------------------------


def _deal_world_reference(shape: Any, rng: random.Random) -> Any:
    """`coach._deal_world` as it was first written: `rng.sample` of the holes, the stock the
    unseen cards not drawn, in the pack's order."""
    holes = sum(3 - len(cards) for cards in shape.fixed)
    if shape.miss_fixed is not None:
        holes += 3 - len(shape.miss_fixed)
    drawn = rng.sample(shape.unseen, holes)
    at = 0
    hands: list[tuple[Card, ...]] = []
    for cards in shape.fixed:
        need = 3 - len(cards)
        hands.append(cards + tuple(drawn[at : at + need]))
        at += need
    miss: tuple[Card, ...] | None = None
    if shape.miss_fixed is not None:
        miss = shape.miss_fixed + tuple(drawn[at:])
    taken = set(drawn)
    return tuple(hands), miss, tuple(c for c in shape.unseen if c not in taken)


def _world_reference(shape: Any, rng: random.Random) -> tuple[Any, Hand]:
    for _ in range(C.MAX_TRIES):
        deal = _deal_world_reference(shape, rng)
        world = C._hand(shape, deal)
        if C._consistent(world, shape.moves):
            return deal, world
    raise AssertionError("no world")


def _play_outs_reference(
    view: SeatView, setup: Setup, seats: Sequence[B.Bot], rollouts: int, seed: int
) -> tuple[Any, ...]:
    """`coach._play_outs` as it was first written: every move but the last on the public moves
    replayed afresh, the bots' draws seeded once a world and their state put back for each
    move."""
    me = view.seat
    shape = C._shape(view, setup)
    rng = random.Random(seed)
    deal, first = _world_reference(shape, rng)
    legal = tuple(first.legal_actions())
    nets: list[list[int]] = [[] for _ in legal]
    loos = [0] * len(legal)
    tricks = [0] * len(legal)
    walks = [[0, 0] for _ in legal]
    played = [k for k, a in enumerate(legal) if a is not Declaration.PASS]
    out = [k for k in range(len(legal)) if k not in played]
    last = played[-1] if played else -1
    world = first
    draws = random.Random()
    for i in range(rollouts):
        if i:
            deal, world = _world_reference(shape, rng)
        draws.seed(rng.getrandbits(64))
        same = draws.getstate()
        for k in out:
            nets[k].append(0)
        for k in played:
            if k == last:
                h = world
            else:
                h = C._hand(shape, deal)
                for a in shape.moves:
                    h.apply_unchecked(a)
            h.apply_unchecked(legal[k])
            if k:
                draws.setstate(same)
            play_hand(h, seats, draws)
            s = h.settlement
            assert s is not None
            net = s.receives.get(me, 0) - s.loo_pays.get(me, 0)
            nets[k].append(net)
            loos[k] += me in s.loo_pays
            tricks[k] += s.tricks_won.get(me, 0) > 0
            if s.pool_awarded_to == me:
                walks[k][0] += 1
                walks[k][1] += net
    return legal, nets, loos, tricks, walks


_BOT_NAMES = ["sensible", "random-legal", "bold", "cautious"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 7),
    preset_name=st.sampled_from(["hoffmann", "peel"]),
    moves=st.integers(0, 20),
    bots=st.lists(st.sampled_from(_BOT_NAMES), min_size=1, max_size=1)
    | st.lists(st.sampled_from(_BOT_NAMES), min_size=7, max_size=7),
    rollouts=st.integers(1, 12),
    coach_seed=st.integers(0, 2**32),
)
def test_the_coachs_play_outs_are_their_first_forms(
    seed: int,
    players: int,
    preset_name: str,
    moves: int,
    bots: list[str],
    rollouts: int,
    coach_seed: int,
) -> None:
    # the same worlds, the same draws of the bots (random-legal draws), the same figures
    hand = Hand.from_seed(seed, players=players, options=preset_name)
    rng = random.Random(seed)
    for _ in range(moves):
        if hand.to_act is None:
            break
        legal = hand.legal_actions()
        hand.apply_unchecked(legal[rng.randrange(len(legal))])
    assume(hand.to_act is not None)
    seat = hand.to_act
    assert seat is not None
    seats = tuple(get_bot(b) for b in (bots if len(bots) == 1 else bots[:players]))
    seats = seats * players if len(seats) == 1 else seats
    view = seat_view(hand, seat)
    assert C._play_outs(view, hand.setup, seats, rollouts, coach_seed) == _play_outs_reference(
        view, hand.setup, seats, rollouts, coach_seed
    )


_DRAW = st.sampled_from(
    ["random", "getrandbits", "randrange", "choice", "shuffle", "sample", "gauss", "randbytes",
     "getstate", "arm", "seed"]
)


def _draw(r: random.Random, how: str, seed: int) -> Any:
    if how == "random":
        return r.random()
    if how == "getrandbits":
        return r.getrandbits(70)
    if how == "randrange":
        return r.randrange(1000)
    if how == "choice":
        return r.choice("abcdefg")
    if how == "shuffle":
        x = list(range(9))
        r.shuffle(x)
        return x
    if how == "sample":
        return r.sample(range(100), 5)
    if how == "gauss":
        return r.gauss()
    if how == "randbytes":
        return r.randbytes(3)
    if how == "seed":
        r.seed(seed + 1)
        return None
    return r.getstate()


@given(st.integers(0, 2**64 - 1), st.lists(_DRAW, max_size=30))
def test_the_play_outs_armed_draws_are_a_seeded_randoms(seed: int, steps: list[str]) -> None:
    draws, plain = C._Draws(), random.Random(seed)
    draws.gauss()  # a gaussian kept aside: arming forgets it, as seeding does
    draws.arm(seed)
    for how in steps:
        if how == "arm":  # armed again: the draws start over, as a Random seeded anew
            draws.arm(seed)
            plain.seed(seed)
            continue
        assert _draw(draws, how, seed) == _draw(plain, how, seed), how
    assert draws.random() == plain.random()


@given(st.sampled_from(list(Suit)))
def test_a_suit_hashes_alike_however_it_is_found(suit: Suit) -> None:
    # hashed as the one object it is: found again by its letter, its name, a card, a pickle
    import pickle

    table = {s: s.value for s in Suit}
    for same in (Suit(suit.value), Suit[suit.name], Card.of(Rank.ACE, suit).suit):
        assert same is suit and hash(same) == hash(suit) and table[same] == suit.value
    assert pickle.loads(pickle.dumps({suit: 1})) == {suit: 1}
    assert len({*Suit, suit}) == 4


def _sensible_declaration_reference(bot: B.Sensible, view: SeatView, legal: Sequence[Any]) -> Any:
    """`Sensible.choose` while declaring, as first written."""
    strength = trick_expectation(view.hand, view.trumps, view.turn_up, view.players)
    if B.FOR_POOL in legal:
        return B.PLAY if strength >= bot.heads_up else B.FOR_POOL
    standers = view.standers
    if view.seat == view.dealer and standers == 1 and view.miss_holder is not None:
        return B.PLAY if strength >= bot.heads_up and B.PLAY in legal else B._fallback(legal, B.PASS)
    if strength >= bot.stand_at + bot.per_stander * standers and B.PLAY in legal:
        return B.PLAY
    return B._fallback(legal, B.TAKE_MISS, B.PASS, B.PLAY)


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 9),
    rules=st.sampled_from(["hoffmann", "peel"]),
    must=st.booleans(),
    stand_at=st.sampled_from([0.0, 0.3, 0.6, 1.2]),
    heads_up=st.sampled_from([0.0, 0.45, 2.0]),
)
def test_the_sensible_declaration_is_the_first_forms(
    seed: int, players: int, rules: str, must: bool, stand_at: float, heads_up: float
) -> None:
    # every declaration of random deals (any seat's choice, every moment of the round), by
    # bots standing at different strengths so that every branch is met
    bot = B.Sensible(stand_at=stand_at, heads_up=heads_up)
    hand = Hand.from_seed(seed, players=players, options=rules, must=must and players <= 6)
    rng = random.Random(seed)
    while hand.to_act is not None and hand.phase is not Phase.PLAY:
        legal = hand.legal_actions()
        view = seat_view(hand, hand.to_act)
        for offered in (legal, tuple(reversed(legal)), legal[:1], legal[-1:]):
            assert bot.choose(view, offered, rng) == _sensible_declaration_reference(
                bot, view, offered
            )
        hand.apply(legal[rng.randrange(len(legal))])


@given(
    st.integers(2, 17),
    st.integers(0, 16),
    st.booleans(),
    st.sampled_from(list(MissDealPosition)),
    st.permutations(FULL_PACK),
)
def test_a_tables_cut_is_its_places_sliced_one_by_one(
    players: int, dealer: int, with_miss: bool, position: MissDealPosition, pack: list[Card]
) -> None:
    # the itemgetter kept for every dealing order against the slices taken place by place
    with_miss = with_miss and players <= 16
    order = round_order(players, dealer % players, with_miss, position)
    assert order in D._CUTTERS
    fast = D.cut(pack, players, order)
    assert fast == D._cut_by_places(tuple(pack), players, order)
    assert [type(x) for x in fast] == [tuple, tuple if with_miss else type(None), Card, tuple]
    assert all(type(h) is tuple and len(h) == 3 for h in fast[0])
    # an order given as a list, or for more seats than it names, is cut place by place
    assert D.cut(pack, players, list(order)) == fast
    more = D.cut(pack, players + 1, order)
    assert more[0] == (*fast[0], ()) and more[1:] == fast[1:]
