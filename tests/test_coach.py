"""The coach (sim/coach.py): its ranking where the answer is not in doubt, its estimates against
an exact count, its seed, and that it reads nothing the seat may not see."""

from __future__ import annotations

import itertools
import json
import random
import re
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from loo_lessons.cli import args as A
from loo_lessons.cli import main
from loo_lessons.engine.cards import FULL_PACK, Card, parse_card
from loo_lessons.engine.deal import Dealt, deal
from loo_lessons.engine.declare import Declaration
from loo_lessons.engine.game import Hand, Setup
from loo_lessons.engine.options import preset
from loo_lessons.engine.settle import Stakes
from loo_lessons.sim import coach as C
from loo_lessons.sim.bots import bot_move
from loo_lessons.sim.coached import get_bot
from loo_lessons.sim.tally import normal_interval

SENSIBLE = get_bot("sensible")


def _setup(players: int, dealer: int = 0, *, must: bool = False) -> Setup:
    opts = preset("hoffmann")
    return Setup(players, dealer, opts, Stakes.make(players=players, ante=opts.ante), must)


def _holding(own: Sequence[str], turn_up: str, players: int, seat: int, seed: int) -> Hand:
    """A fresh deal in which `seat` holds `own`, the rest shuffled from `seed`."""
    mine = [parse_card(c) for c in own]
    up = parse_card(turn_up)
    rest = [c for c in FULL_PACK if c not in mine and c is not up]
    random.Random(seed).shuffle(rest)
    hands: list[tuple[Card, ...]] = []
    for s in range(players):
        if s == seat:
            hands.append(tuple(mine))
        else:
            hands.append(tuple(rest[:3]))
            del rest[:3]
    miss, stock = tuple(rest[:3]), tuple(rest[3:])
    return Hand(_setup(players), hands, miss, up, stock=stock)


# --- the ranking where the answer is not in doubt ----------------------------------------------


@pytest.mark.parametrize("seed", [1, 2])
def test_the_ace_and_king_of_trumps_stand(seed: int) -> None:
    hand = _holding(["AH", "KH", "2C"], "7H", 4, 1, seed)
    advice = C.coach(hand, rollouts=200, seed=seed)
    assert hand.to_act == 1
    assert advice.best is Declaration.PLAY
    stand = advice.move(Declaration.PLAY)
    assert stand.looed.mean == 0 and stand.trick.mean == 1  # the ace of trumps takes a trick
    throw_up = advice.move("pass")
    assert throw_up.counters.mean == 0 and throw_up.versus_best.high < 0
    assert "two trumps (the ace and the king)" in advice.why
    assert "standing earns" in advice.why
    assert {m.key for m in advice.moves} == {"play", "take_miss", "pass"}


def test_a_must_leaves_one_move_and_the_coach_says_so() -> None:
    hand = Hand.from_seed(3, players=4, must=True)
    assert hand.to_act is not None
    advice = C.coach(hand, rollouts=50)
    assert advice.forced and len(advice.moves) == 1
    assert advice.best is Declaration.PLAY
    assert advice.why.startswith("Only one move is legal (stand)")
    assert advice.as_json()["forced"] is True


def test_the_coach_is_strategy_not_law() -> None:
    advice = C.coach(Hand.from_seed(4, players=5), rollouts=30)
    assert advice.note == C.STRATEGY_NOT_LAW
    assert "not law" in advice.text() and "not law" in advice.as_json()["note"]
    # it weighs exactly the moves the engine calls legal, and words no rule
    hand = Hand.from_seed(4, players=5)
    assert {m.action for m in advice.moves} == set(hand.legal_actions())


# --- the estimates against an exact count on the last trick ------------------------------------


def _last_trick_position(players: int, start: int) -> Hand:
    """The first seeded must (everybody plays, no miss) from `start`, played by sensible bots,
    in which a seat is to follow in the last trick."""
    for seed in range(start, start + 500):
        hand = Hand.from_seed(seed, players=players, must=True)
        rng = random.Random(seed)
        while hand.to_act is not None and len(hand.winners) < 2:
            hand.apply(bot_move(hand, SENSIBLE, rng))
        if hand.to_act is None:
            continue
        hand.apply(bot_move(hand, SENSIBLE, rng))  # the lead to the last trick
        if hand.to_act is not None and 0 < _exact(hand)[2] < 1:  # a follower, his trick open
            return hand
    raise AssertionError("no such deal in 500 seeds")


def _exact(hand: Hand) -> tuple[float, float, float]:
    """Mean counters, loo chance and trick chance of the seat to act, over every assignment of
    the unseen cards to the last cards of the others still to play, that the engine finds
    consistent with every card played (each assignment is equally likely: the cards nobody
    holds in play are dealt the same number of ways whatever it is)."""
    me = hand.to_act
    assert me is not None
    played: dict[int, list[Card]] = {s: [] for s in range(hand.setup.players)}
    for trick in hand.tricks:
        for s, c in trick:
            played[s].append(c)
    waiting = [s for s in hand.players_in if s != me and len(played[s]) < 3]
    seen = {*hand.held[me], *(c for cs in played.values() for c in cs), hand.turn_up}
    unseen = [c for c in FULL_PACK if c not in seen]
    nets: list[int] = []
    loos = tricks = 0
    for last in itertools.permutations(unseen, len(waiting)):
        spare = [c for c in unseen if c not in last]
        hands: list[tuple[Card, ...]] = []
        for s in range(hand.setup.players):
            if s == me:
                hands.append((*played[s], *hand.held[me]))
            elif s in waiting:
                hands.append((*played[s], last[waiting.index(s)]))
            elif s in hand.players_in:
                hands.append(tuple(played[s]))
            else:
                hands.append(tuple(spare[:3]))
                del spare[:3]
        world = Hand(hand.setup, hands, None, hand.turn_up, stock=tuple(spare))
        ok = True
        for a in hand.actions:
            if a not in world.legal_actions():
                ok = False
                break
            world.apply(a)
        if not ok:
            continue
        while world.to_act is not None:
            (only,) = world.legal_actions()  # one card each: the rest plays itself
            world.apply(only)
        done = world.settlement
        assert done is not None
        nets.append(done.receives.get(me, 0) - done.loo_pays.get(me, 0))
        loos += me in done.loo_pays
        tricks += done.tricks_won.get(me, 0) > 0
    n = len(nets)
    return sum(nets) / n, loos / n, tricks / n


@pytest.mark.parametrize("start", [0, 40])
def test_estimates_agree_with_an_exact_count_on_the_last_trick(start: int) -> None:
    hand = _last_trick_position(3, start)
    value, looed, trick = _exact(hand)
    advice = C.coach(hand, rollouts=1500, seed=11)
    (move,) = advice.moves
    for est, exact in ((move.counters, value), (move.looed, looed), (move.trick, trick)):
        half = max(est.high - est.mean, est.mean - est.low, 0.01)
        assert abs(est.mean - exact) <= 2 * half, (est, exact)


# --- reproducible from the seed -----------------------------------------------------------------


def test_the_same_seed_gives_the_same_advice_and_another_seed_other_figures() -> None:
    hand = Hand.from_seed(21, players=5)
    one = C.coach(hand, rollouts=80, seed=5).as_json()
    assert C.coach(Hand.from_seed(21, players=5), rollouts=80, seed=5).as_json() == one
    other = C.coach(hand, rollouts=80, seed=6).as_json()
    assert [m["counters"] for m in other["moves"]] != [m["counters"] for m in one["moves"]]


# --- it never uses a card the seat cannot see ---------------------------------------------------


def _reshuffled_unseen(dealt: Dealt, hand: Hand, seat: int, rng: random.Random) -> Dealt:
    """The same deal with every card `seat` cannot see (others' unplayed cards, the miss it
    did not take, the stock) shuffled among their places; its own cards put face down for the
    miss it has seen, and they stay."""
    visible = {
        *hand.held[seat],
        *hand.put_down_by(seat),
        *(c for t in hand.tricks for _, c in t),
        dealt.turn_up,
    }
    places = [list(h) for h in dealt.hands] + [list(dealt.miss or ()), list(dealt.stock)]
    hidden = [c for p in places for c in p if c not in visible]
    rng.shuffle(hidden)
    it = iter(hidden)
    new = [[c if c in visible else next(it) for c in p] for p in places]
    return Dealt(
        tuple(map(tuple, new[:-2])),
        tuple(new[-2]) if dealt.miss is not None else None,
        dealt.turn_up,
        tuple(new[-1]),
    )


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    players=st.integers(3, 6),
    moves=st.integers(0, 14),
    shuffle=st.integers(0, 10_000),
)
def test_hidden_cards_of_others_do_not_change_the_advice(
    seed: int, players: int, moves: int, shuffle: int
) -> None:
    setup = _setup(players, seed % players)
    dealt = deal(random.Random(seed), players, setup.dealer)
    hand = Hand.from_dealt(setup, dealt)
    rng = random.Random(seed)
    for _ in range(moves):
        if hand.to_act is None:
            break
        legal = hand.legal_actions()
        hand.apply(legal[rng.randrange(len(legal))])
    assume(hand.to_act is not None)
    seat = hand.to_act
    assert seat is not None
    other = Hand.from_dealt(setup, _reshuffled_unseen(dealt, hand, seat, random.Random(shuffle)))
    for a in hand.actions:  # the same public play must be legal in the other deal
        if a not in other.legal_actions():
            assume(False)
        other.apply(a)
    assert other.to_act == seat and list(other.held[seat]) == list(hand.held[seat])
    assert (
        C.coach(other, rollouts=8, seed=3).as_json() == C.coach(hand, rollouts=8, seed=3).as_json()
    )


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 100_000), players=st.integers(3, 6))
def test_the_hand_given_up_for_the_miss_is_known_to_its_seat_alone(seed: int, players: int) -> None:
    """The seat that took the miss has seen the hand it put down (R11): the coach never deals
    those cards to another seat, nor into the stock; another seat does not see them."""
    from loo_lessons.engine.observation import seat_view

    setup = _setup(players, seed % players)
    hand = Hand.from_dealt(setup, deal(random.Random(seed), players, setup.dealer))
    assert hand.to_act is not None
    own = hand.hand_of(hand.to_act)
    holder = hand.to_act
    hand.apply(Declaration.TAKE_MISS)
    assert hand.put_down_by(holder) == own
    view = seat_view(hand, holder)
    assert view.put_down == own and set(view.hand).isdisjoint(own)
    shape = C._shape(view, setup)
    assert set(own).isdisjoint(shape.unseen) and shape.fixed[holder] == own
    world, _ = C._world(shape, random.Random(seed))
    hands, _miss, stock = world
    assert hands[holder] == own and not any(
        set(own) & set(h) for s, h in enumerate(hands) if s != holder
    )
    assert set(own).isdisjoint(stock)
    others = [s for s in range(players) if s != holder]
    assert all(seat_view(hand, s).put_down == () for s in others)


# --- intervals ------------------------------------------------------------------------------------


@given(hits=st.integers(0, 500), extra=st.integers(0, 500))
def test_wilson_interval_holds_its_proportion(hits: int, extra: int) -> None:
    n = hits + extra
    est = C.wilson(hits, n)
    assert 0 <= est.low <= est.mean <= est.high <= 1
    if n:
        assert est.mean == hits / n and est.low < est.high


def test_mean_interval_narrows_with_more_values() -> None:
    few = C.mean_interval([0, 3, -3, 1] * 5)
    many = C.mean_interval([0, 3, -3, 1] * 500)
    assert few.mean == many.mean == 0.25
    assert many.high - many.low < few.high - few.low


# --- the coached bot --------------------------------------------------------------------------


def test_the_coached_bot_plays_the_coachs_choice_and_simulate_seats_it() -> None:
    from loo_lessons.sim.montecarlo import simulate

    bot = get_bot("coached")
    hand = _holding(["AH", "KH", "2C"], "7H", 4, 1, 5)
    assert bot_move(hand, bot, random.Random(1)) is Declaration.PLAY
    res = simulate(12, 4, 9, "hoffmann", ("coached", "sensible", "sensible", "sensible"))
    assert res.hands == 12 and res.bots[0] == "coached"
    again = simulate(12, 4, 9, "hoffmann", ("coached", "sensible", "sensible", "sensible"))
    assert again.summary() == res.summary()
    strength = {r["bot"]: r for r in res.strength().records()}
    assert set(strength) == {"coached", "sensible"}
    assert strength["coached"]["seat_hands"] == 12 and strength["sensible"]["seat_hands"] == 36
    for r in strength.values():
        assert r["balance_low"] <= r["balance"] <= r["balance_high"]  # type: ignore[operator]


def test_the_strength_table_sums_to_the_seats_balances() -> None:
    from loo_lessons.sim.montecarlo import simulate

    bots = ("sensible", "bold", "cautious", "bold")
    res = simulate(300, 4, 2, "hoffmann", bots, rows=True)
    rows = {r["bot"]: r for r in res.strength().records()}
    assert rows["bold"]["seat_hands"] == 600 and rows["cautious"]["seat_hands"] == 300
    frame_free: dict[str, list[int]] = {}
    cols = res.columns
    assert cols is not None
    for i in range(res.hands):
        dealer = cols["dealer"][i]
        for seat, bot in enumerate(bots):
            k = i * 4 + seat
            staked = res.stake if seat == dealer else 0
            frame_free.setdefault(bot, []).append(cols["won"][k] - cols["paid"][k] - staked)
    for bot, values in frame_free.items():
        assert rows[bot]["balance"] == pytest.approx(sum(values) / len(values))
        low, high = normal_interval(len(values), sum(values), sum(v * v for v in values))
        assert rows[bot]["balance_low"] == pytest.approx(low)
        assert rows[bot]["balance_high"] == pytest.approx(high)
        assert low < sum(values) / len(values) < high


# --- the command line -----------------------------------------------------------------------------

_SCENARIO = "players: 4\ndealer: 0\nturn_up: 7H\nhands:\n  1: [AH, KH, 2C]\n"


def test_cli_coach_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "s.yaml"
    f.write_text(_SCENARIO)
    assert main(["coach", str(f), "--json", "--rollouts", "60", "--seed", "2"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["best"] == "play" and out["seat"] == 1 and out["rollouts"] == 60
    assert out["moves"][0]["action"] == "play"
    assert "not law" in out["note"]
    assert main(["coach", str(f), "--rollouts", "40"]) == 0
    assert "Strategy, not law" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        (["--rollouts", "0"], "--rollouts"),
        (["--rollouts", "many"], "--rollouts"),
        (["--seat", "2"], "seat"),
        (["--seat", "9"], "--seat"),
        (["--bots", "clever"], "--bots"),
        (["--bots", "coached"], "bots: coached cannot play"),
    ],
)
def test_cli_coach_refuses_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], field: str
) -> None:
    f = tmp_path / "s.yaml"
    f.write_text(_SCENARIO)
    assert main(["coach", str(f), *extra]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"error: {field}")


def test_cli_coach_refuses_a_position_it_cannot_weigh(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    unknown = tmp_path / "u.yaml"
    unknown.write_text("players: 4\ndealer: 0\nturn_up: 7H\n")  # seat 1's cards not given
    assert main(["coach", str(unknown)]) == 2
    assert capsys.readouterr().err.startswith("error: hands: the cards of seat 1")
    assert main(["coach", str(tmp_path / "missing.yaml")]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_the_cli_limit_is_the_coachs() -> None:
    assert A.MAX_ROLLOUTS == C.MAX_ROLLOUTS


def test_bench_prints_the_coach_figures(capsys: pytest.CaptureFixture[str]) -> None:
    from loo_lessons.cli.bench import coach_figures

    got = coach_figures(random.Random(1), 1e-5, 4e-5, rollouts=5)
    out = capsys.readouterr().out
    assert "coach, 5 play-outs of each legal move: declaring (3 moves)" in out
    assert "leading" in out and "following" in out and "floors" in out
    assert {"coach_declaring_ms", "coach_playout_ratio", "coach_worst_ms"} <= set(got)
    assert all(v > 0 for v in got.values())


# --- the review of a deal ---------------------------------------------------------------------


def test_review_marks_throwing_up_the_ace_and_king_of_trumps() -> None:
    hand = _holding(["AH", "KH", "2C"], "7H", 4, 1, 3)
    rng = random.Random(3)
    hand.apply(Declaration.PASS)  # seat 1 throws his sure tricks away
    while hand.to_act is not None:
        hand.apply(bot_move(hand, SENSIBLE, rng))
    (decision,) = C.review(hand, 1, rollouts=150, seed=2)
    assert decision.move == 0 and decision.played is Declaration.PASS
    assert decision.advice.best is Declaration.PLAY and decision.mistake
    stand = decision.advice.move("play").counters
    assert decision.cost.mean == pytest.approx(stand.mean)  # throwing up earns nothing
    assert decision.words.startswith("throw up gave up")
    assert decision.as_json()["mistake"] is True


def test_review_weighs_each_decision_of_the_seat_in_order() -> None:
    hand = Hand.from_seed(12, players=3)
    rng = random.Random(12)
    while hand.to_act is not None:
        hand.apply(bot_move(hand, SENSIBLE, rng))
    seat = 1
    decisions = C.review(hand, seat, rollouts=30, seed=1)
    assert decisions  # seat 1 had choices to make
    moves = [d.move for d in decisions]
    assert moves == sorted(moves)
    for d in decisions:
        assert hand.actions[d.move] == d.played
        assert d.advice.seat == seat and len(d.advice.moves) > 1
        assert d.cost.low <= d.cost.mean <= d.cost.high
        assert d.mistake == (d.cost.mean > C.MISTAKE_COUNTERS and d.cost.low > 0)


# --- the coach weighs what the rules allow, no more and no less --------------------------------

SCENARIOS = sorted(
    (Path(__file__).resolve().parent.parent / "loo_lessons" / "scenarios").glob("*.yaml")
)


def test_on_every_shipped_scenario_the_coach_weighs_exactly_explains_legal_moves() -> None:
    from loo_lessons.engine.errors import InputError
    from loo_lessons.explain import explain_json
    from loo_lessons.scenario import load_file

    weighed = 0
    for path in SCENARIOS:
        sc = load_file(path)
        try:
            advice = C.coach(sc.hand, rollouts=4, seed=1)
        except InputError as e:  # nobody to act, or the seat's cards are not given
            assert e.field in ("position", "hands"), (path.name, e)
            continue
        legal = explain_json(sc)["legal"]
        assert sorted(m.key for m in advice.moves) == sorted(legal), path.name
        weighed += 1
    assert weighed >= 20


def test_a_position_no_deal_fits_is_refused_in_one_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(C, "MAX_TRIES", 0)
    f = tmp_path / "s.yaml"
    f.write_text(_SCENARIO)
    assert main(["coach", str(f)]) == 2
    err = capsys.readouterr().err
    assert (
        err == "error: position: no deal of the unseen cards fits the play in 0 tries: "
        "the coach cannot weigh this position\n"
    )


@pytest.mark.parametrize("rules", ["hoffmann", "peel"])
def test_the_coached_bot_rebuilds_the_simulations_table_from_its_view(rules: str) -> None:
    from loo_lessons.engine.observation import seat_view
    from loo_lessons.sim.montecarlo import replay_hand

    hand = replay_hand(4, 3, 5, rules)  # a finished hand of simulate(..., seed 4, 5 players)
    for seat in range(5):
        assert C._setup_from_view(seat_view(hand, seat)) == hand.setup


def test_the_playground_asks_the_coach_as_the_cli_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The book's playground "Ask the coach" (`explain.playground.advise`, run by the page's
    engine) gives what `loo-lessons coach FILE --rollouts N --seed S` gives, and its table has
    one row per legal move, best first, with the strategy-not-law note."""
    from loo_lessons.views.advice import COACH_ROLLOUTS, advise

    f = tmp_path / "s.yaml"
    f.write_text(_SCENARIO)
    said = advise(_SCENARIO)
    assert said["ok"] and said["error"] is None and said["json"] is not None
    assert main(["coach", str(f), "--json", "--rollouts", str(COACH_ROLLOUTS), "--seed", "0"]) == 0
    assert said["json"] == json.loads(capsys.readouterr().out)
    assert main(["coach", str(f), "--rollouts", str(COACH_ROLLOUTS), "--seed", "0"]) == 0
    assert said["text"] == capsys.readouterr().out
    rows = re.findall(r'<tr data-move="([^"]+)"', said["html"])
    assert rows == [m["action"] for m in said["json"]["moves"]]
    assert 'class="loo-coach-best"' in said["html"].split("</tr>")[1]
    assert "Strategy, not law" in said["html"] and said["json"]["why"] in said["html"].replace(
        "&#x27;", "'"
    )


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("players: 4\ndealer: 0\nturn_up: 7H\n", "hands"),  # seat 1's cards not given
        ("players: 1", "players"),
        ("[unclosed", "file"),
        ("players: 3\n" + "#" * 20_001, "file"),
    ],
)
def test_the_playground_coach_refuses_in_one_line(text: str, field: str) -> None:
    from loo_lessons.views.advice import advise

    said = advise(text)
    assert not said["ok"] and said["json"] is None and said["error"] is not None
    assert said["error"].startswith(f"error: {field}") and "\n" not in said["error"]
    assert 'role="alert"' in said["html"]


# --- the coach's words ------------------------------------------------------------------------


def test_a_card_the_coach_names_keeps_its_capital() -> None:
    hand = Hand.from_seed(4, players=3, must=True)
    rng = random.Random(4)
    while hand.to_act is not None and len(hand.legal_actions()) < 2:
        hand.apply(bot_move(hand, SENSIBLE, rng))
    advice = C.coach(hand, rollouts=30, seed=0)
    assert isinstance(advice.best, Card) and advice.moves[0].label[0] in "AKQJ"
    assert advice.why.startswith(f"Playing {advice.moves[0].label},")
    assert re.search(r"\b[akqj][♠♥♦♣]", advice.why) is None, advice.why


def test_taking_the_miss_says_when_its_value_comes_without_play() -> None:
    hand = _holding(["2S", "3D", "4C"], "7H", 4, 1, 2)  # nothing: the miss, or throw up
    advice = C.coach(hand, rollouts=200, seed=1)
    take = advice.move(Declaration.TAKE_MISS)
    assert advice.best is Declaration.TAKE_MISS
    # counted world by world: the deals in which the others all threw up
    assert 0 < take.uncontested < 1 and take.uncontested_counters >= take.counters.mean > 0
    share = f"{100 * take.uncontested:.0f} %"
    assert f"in {share} of the deals everyone else threw up and the pool came to you" in advice.why
    assert "comes without play" in advice.why
    assert advice.as_json()["moves"][0]["uncontested"] == round(take.uncontested, 4)
    # throwing up never brings the pool; standing on nothing is contested or looed
    assert advice.move("pass").uncontested == 0


def test_the_miss_without_a_walkover_says_nothing_of_one() -> None:
    m = C.MoveValue(
        Declaration.TAKE_MISS,
        C.Estimate(1.0, 0.5, 1.5),
        C.Estimate(0.2, 0.1, 0.3),
        C.Estimate(0.7, 0.6, 0.8),
        C.Estimate(0.0, 0.0, 0.0),
        0.1,
        0.3,
    )
    assert C._uncontested_words(m) == ""
