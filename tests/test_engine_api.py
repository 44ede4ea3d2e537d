"""The engine's API for callers above it (issue 9, Deliver 2): copies that cannot corrupt the
caller, positions that say why they are invalid, penalties checked in the engine, one phase,
one move parser that takes the books' words and refuses with the truth, and errors that carry
an immutable position."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from loo_lessons.engine.cards import FULL_PACK, Card, parse_card
from loo_lessons.engine.declare import DECLARATION_ALIASES, Declaration
from loo_lessons.engine.errors import IllegalAction, InputError, LooError, NotationError
from loo_lessons.engine.game import Hand, Phase, Setup, parse_action
from loo_lessons.engine.options import preset
from loo_lessons.engine.penalties import Offence
from loo_lessons.engine.settle import Stakes
from loo_lessons.engine.status import Status, position_problems
from loo_lessons.scenario import ScenarioError, loads

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def cards(text: str) -> list[Card]:
    return [parse_card(c) for c in text.split()]


def setup(
    players: int = 5, dealer: int = 0, *, must: bool = False, rules: str = "hoffmann"
) -> Setup:
    return Setup(players, dealer, preset(rules), Stakes.make(players=players), must)


def five(
    hands: dict[int, str] | None = None,
    miss: str | None = "KD 7C 8C",
    turn_up: str = "2H",
    rules: str = "hoffmann",
) -> Hand:
    hands = hands or {1: "AS KS 3C", 2: "AC 5D 6D", 3: "7D 8D 9D", 4: "10D JD QD", 0: "4C 5C 6C"}
    return Hand(
        setup(rules=rules),
        [cards(hands[s]) for s in range(5)],
        cards(miss) if miss is not None else None,
        parse_card(turn_up),
    )


def phase_of(h: Hand) -> Phase:
    return h.phase  # read afresh (mypy would keep the phase it last saw)


def random_moves(h: Hand, rng: random.Random, n: int) -> None:
    for _ in range(n):
        if h.to_act is None:
            return
        legal = h.legal_actions()
        h.apply(legal[rng.randrange(len(legal))])


# --- Hand.copy() ---------------------------------------------------------------------------------


def test_play_table_leaves_the_callers_hand_alone() -> None:
    """widgets: PlayTable(39, hand=h, seat=3) used to move h on (shallow copy), so h showed
    seat 2's 'take miss' while still offering it."""
    from loo_lessons.widgets.play import PlayTable

    h = Hand.from_seed(39, players=5)
    before, script = h.snapshot(), h.transcript()
    legal = list(h.legal_actions())
    PlayTable(39, hand=h, seat=3)  # the bots of seats 1 and 2 move on the table's copy
    assert h.snapshot() == before
    assert h.transcript() == script
    assert list(h.legal_actions()) == legal and h.to_act == 1 and not h.actions


@SETTINGS
@given(
    seed=st.integers(0, 10_000),
    players=st.integers(2, 8),
    moves=st.integers(0, 40),
    mine=st.integers(0, 30),
    must=st.booleans(),
)
def test_nothing_done_to_a_copy_reaches_the_original(
    seed: int, players: int, moves: int, mine: int, must: bool
) -> None:
    rng = random.Random(seed)
    h = Hand.from_seed(seed, players=players, must=must)
    random_moves(h, rng, mine)
    if h.to_act is not None and h.phase is not Phase.PLAY:
        h.penalise(h.to_act, Offence.LOOK_AT_STOCK)
    before, script, held = h.snapshot(), h.transcript(), [h.hand_of(s) for s in range(players)]
    c = h.copy()
    assert c.snapshot() == before
    random_moves(c, rng, moves)
    if c.to_act is not None:
        c.penalise(c.to_act, Offence.LOOK_AT_OWN_CARDS_EARLY)
    # what view code might do to the state it is given
    for seat_cards in c.held:
        seat_cards.clear()
    c.declared.clear()
    c.tricks.append([])
    if c.settlement is not None:
        c.settlement.receives.clear()
    while c.actions:
        c.undo()
    assert h.snapshot() == before
    assert h.transcript() == script
    assert [h.hand_of(s) for s in range(players)] == held
    # and the other way round: moving the original does not move a fresh copy
    d = h.copy()
    random_moves(h, rng, moves)
    assert d.snapshot() == before


# --- status() ------------------------------------------------------------------------------------


def test_a_dealt_hand_is_valid_at_every_step() -> None:
    for seed in range(30):
        h = Hand.from_seed(seed, players=2 + seed % 8, must=seed % 5 == 0)
        rng = random.Random(seed)
        while True:
            assert h.status() is Status.VALID and h.is_valid(), h.problems()
            if h.to_act is None:
                break
            random_moves(h, rng, 1)


@SETTINGS
@given(
    seed=st.integers(0, 10_000),
    players=st.integers(2, 9),
    seat=st.integers(0, 8),
    other=st.integers(0, 8),
    i=st.integers(0, 2),
)
def test_a_dealt_hand_spoiled_says_how(
    seed: int, players: int, seat: int, other: int, i: int
) -> None:
    """Take a dealt hand and spoil it: a card copied from another hand is a duplicate, a card
    more from the stock makes a hand of the wrong size, and the field names the seat."""
    seat, other = seat % players, other % players
    d = Hand.from_seed(seed, players=players)
    hands = [list(d.hand_of(s)) for s in range(players)]
    assert d.miss is not None
    if other != seat:
        hands[seat][i] = hands[other][i]
        h = Hand(d.setup, hands, d.miss, d.turn_up, stock=d.stock)
        assert h.status() == Status.DUPLICATE_CARD
        first, second = sorted((seat, other))
        assert [p.field for p in h.problems()] == [f"hands.{second}"]
        assert f"it is also in hands.{first}" in h.problems()[0].reason
    hands = [list(d.hand_of(s)) for s in range(players)]
    hands[seat].append(d.stock[0])
    h = Hand(d.setup, hands, d.miss, d.turn_up, stock=d.stock[1:])
    assert h.status() == Status.WRONG_HAND_SIZE
    assert [p.field for p in h.problems()] == [f"hands.{seat}"]


def test_four_aces_of_spades_are_a_duplicate_card() -> None:
    h = five({1: "AS KS 3C", 2: "AS 5D 6D", 3: "AS 8D 9D", 4: "AS JD QD", 0: "4C 5C 6C"})
    assert h.status() == Status.DUPLICATE_CARD
    assert not h.is_valid()
    fields = [str(p) for p in h.problems()]
    assert fields[0] == "hands.2: duplicated card AS: it is also in hands.1"
    assert {p.field for p in h.problems()} == {"hands.2", "hands.3", "hands.4"}
    assert h.reasons() == {Status.DUPLICATE_CARD: fields[0]}


def test_a_four_card_hand_is_the_wrong_size() -> None:
    h = five({1: "AS KS 3C 2C", 2: "AC 5D 6D", 3: "7D 8D 9D", 4: "10D JD QD", 0: "4C 5C 6C"})
    assert h.status() == Status.WRONG_HAND_SIZE
    (p,) = h.problems()
    assert p.field == "hands.1" and "three cards (R03), seat 1 has 4" in p.reason
    assert p.error().field == "hands.1"


def test_wrong_size_counts_the_cards_already_played() -> None:
    """A hand given for a moment of the play holds 3 less what its seat has played."""
    # seat 1 has played one card: two in hand is right, three is wrong
    ok = position_problems(
        players=5,
        dealer=0,
        must=False,
        hands={1: cards("KS 3C")},
        turn_up=parse_card("2H"),
        declarations={1: Declaration.PLAY},
        tricks=[[(1, parse_card("AS"))]],
    )
    assert ok == ()
    bad = position_problems(
        players=5,
        dealer=0,
        must=False,
        hands={1: cards("KS 3C 4C")},
        turn_up=parse_card("2H"),
        declarations={1: Declaration.PLAY},
        tricks=[[(1, parse_card("AS"))]],
    )
    assert [p.flag for p in bad] == [Status.WRONG_HAND_SIZE]
    assert bad[0].reason.startswith("seat 1 holds 3 and has played 1: that makes 4 cards")


@pytest.mark.parametrize(
    ("kwargs", "flag", "field"),
    [
        ({"players": 1}, Status.BAD_TABLE_SIZE, "players"),
        ({"players": 17}, Status.BAD_TABLE_SIZE, "players"),
        ({"dealer": 5}, Status.BAD_DEALER, "dealer"),
        ({"hands": {7: cards("AS KS QS")}}, Status.BAD_SEAT, "hands.7"),
        ({"must": True, "miss": cards("2C 3C 4C")}, Status.MISS_IN_A_MUST, "miss"),
        ({"miss": cards("2C 3C")}, Status.WRONG_MISS_SIZE, "miss"),
        ({"trumps": parse_card("2S").suit}, Status.TRUMPS_DISAGREE_WITH_TURN_UP, "trumps"),
        (
            {
                "hands": {3: cards("7D 8D 9D")},
                "declarations": {1: Declaration.PLAY, 2: Declaration.PLAY, 3: Declaration.PASS},
            },
            Status.CARDS_FOR_THROWN_UP_SEAT,
            "hands.3",
        ),
        (
            {"tricks": [[(1, parse_card("AS")), (1, parse_card("KS"))]]},
            Status.TOO_MANY_CARDS,
            "tricks[0][1]",
        ),
        ({"tricks": [[(1, parse_card("AS"))]] * 4}, Status.TOO_MANY_CARDS, "tricks"),
        (
            {"turn_up": None, "tricks": [[(1, parse_card("AS"))]]},
            Status.NO_TRUMPS_FOR_PLAY,
            "turn_up",
        ),
        ({"miss": cards("2H 3C 4C")}, Status.DUPLICATE_CARD, "miss"),
    ],
)
def test_each_fault_has_its_flag_and_field(
    kwargs: dict[str, object], flag: Status, field: str
) -> None:
    base: dict[str, object] = {
        "players": 5,
        "dealer": 0,
        "must": False,
        "hands": {},
        "turn_up": parse_card("2H"),
    }
    base.update(kwargs)
    problems = position_problems(**base)  # type: ignore[arg-type]
    assert flag in [p.flag for p in problems], problems
    assert next(p for p in problems if p.flag is flag).field == field


def test_the_takers_cards_are_the_miss_not_a_duplicate() -> None:
    problems = position_problems(
        players=5,
        dealer=0,
        must=False,
        hands={2: cards("KD 7C")},
        miss=cards("KD 7C 8C"),
        turn_up=parse_card("2H"),
        declarations={1: Declaration.PLAY, 2: Declaration.TAKE_MISS},
        tricks=[[(1, parse_card("AS")), (2, parse_card("8C"))]],
    )
    assert problems == ()


def test_a_table_that_cannot_sit_down_has_nobody_to_act() -> None:
    h = Hand(setup(players=1), [cards("AS KS QS")], None, parse_card("2H"))
    assert h.status() == Status.BAD_TABLE_SIZE and h.to_act is None
    with pytest.raises(IllegalAction, match="status"):
        h.apply("stand")


# --- penalise ------------------------------------------------------------------------------------


def test_penalties_the_position_makes_impossible_are_refused() -> None:
    h = five()
    with pytest.raises(InputError) as e:
        h.penalise(7, Offence.REVOKE)
    assert e.value.field == "seat" and e.value.problem == "seat 7 does not exist: seats are 0 to 4"
    with pytest.raises(InputError, match="played no card this deal"):
        h.penalise(1, Offence.REVOKE)  # nobody has played yet
    for d in ["play"] * 5:
        h.apply(d)
    with pytest.raises(InputError) as e:
        h.penalise(1, Offence.FAIL_TO_LEAD_KING)
    assert e.value.field == "offence" and "ace of trumps is turned up (R24, R55)" in e.value.problem
    with pytest.raises(InputError, match="nobody threw up"):
        h.penalise(1, Offence.LOOK_AT_THROWN_UP)  # everyone stood
    assert h.penalties == []  # nothing recorded by a refusal
    assert h.penalise(1, Offence.REVOKE).amount == 3


def test_in_a_must_there_is_no_miss_and_no_thrown_up_hand_to_look_at() -> None:
    h = Hand.from_seed(3, players=4, must=True)
    with pytest.raises(InputError, match="no miss in a must"):
        h.penalise(2, Offence.LOOK_AT_MISS)
    with pytest.raises(InputError, match="nobody throws up in a must"):
        h.penalise(2, Offence.LOOK_AT_THROWN_UP)


def test_the_engine_and_the_scenario_loader_refuse_in_the_same_words() -> None:
    base = (
        "players: 5\nrules: peel\nturn_up: 2H\n"
        "declarations: {1: play, 2: play, 3: play, 4: play, 0: play}\n"
        "hands: {1: [AS, KS, 3C], 2: [AC, 5D, 6D], 3: [7D, 8D, 9D], 4: [10D, JD, QD], "
        "0: [4C, 5C, 6C]}\n"
    )
    h = five(rules="peel")
    for d in ["play"] * 5:
        h.apply(d)
    cases = [(1, "fail_to_lead_king"), (1, "fail_to_head_in_suit"), (1, "fail_to_undertrump")]
    for seat, offence in cases:
        with pytest.raises(ScenarioError) as from_file:
            loads(base + f"penalties: [{{seat: {seat}, offence: {offence}}}]\n")
        with pytest.raises(InputError) as from_engine:
            h.penalise(seat, Offence.parse(offence))
        assert from_file.value.problem == from_engine.value.problem
    # a seat that is not at the table, and the miss in a must
    with pytest.raises(ScenarioError) as from_file:
        loads(base + "penalties: [{seat: 7, offence: revoke}]\n")
    with pytest.raises(InputError) as from_engine:
        h.penalise(7, Offence.REVOKE)
    assert from_file.value.problem == from_engine.value.problem
    must = "players: 4\nmust: true\nturn_up: 2H\npenalties: [{seat: 1, offence: look_at_miss}]\n"
    with pytest.raises(ScenarioError) as from_file:
        loads(must)
    with pytest.raises(InputError) as from_engine:
        Hand.from_seed(3, players=4, must=True).penalise(1, Offence.LOOK_AT_MISS)
    assert from_file.value.problem == from_engine.value.problem


# --- apply: the books' words, card codes, the truth --------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("stand", Declaration.PLAY),
        ("Stand", Declaration.PLAY),
        ("play", Declaration.PLAY),
        ("throw up", Declaration.PASS),
        ("THROW_UP", Declaration.PASS),
        ("pass", Declaration.PASS),
        ("take miss", Declaration.TAKE_MISS),
        ("Take_Miss", Declaration.TAKE_MISS),
        ("play miss for the pool", Declaration.PLAY_MISS_FOR_POOL),
        ("play_miss_for_pool", Declaration.PLAY_MISS_FOR_POOL),
        ("10H", parse_card("10H")),
        ("TH", parse_card("10H")),
        ("jc", parse_card("JC")),
    ],
)
def test_parse_action_takes_the_books_words_and_card_codes(text: str, expected: object) -> None:
    assert parse_action(text) is expected


def test_the_old_alias_table_still_imports_from_the_scenario_layer() -> None:
    from loo_lessons.scenario import DECLARATION_ALIASES as old

    assert old is DECLARATION_ALIASES
    assert all(parse_action(k) is v for k, v in DECLARATION_ALIASES.items())


@pytest.mark.parametrize("text", ["", "JCC", "stand up", "11H", "play the miss", "1"])
def test_a_malformed_action_is_a_notation_error_not_an_illegal_move(text: str) -> None:
    """Bad syntax is not an illegal move (cf. python-chess's InvalidMoveError and
    IllegalMoveError): text that names no move is a `NotationError` naming `action`."""
    with pytest.raises(NotationError) as e:
        parse_action(text)
    assert isinstance(e.value, LooError) and isinstance(e.value, ValueError)
    assert not isinstance(e.value, IllegalAction | ScenarioError)
    assert e.value.field == "action" and str(e.value).startswith("action: ")
    h = Hand.from_seed(1)
    before = h.snapshot()
    with pytest.raises(NotationError):
        h.apply(text)
    assert h.snapshot() == before


def test_each_error_says_what_went_wrong() -> None:
    """Three kinds of wrong, three classes, one base: a card code that is not one
    (`NotationError`), a legal-looking move the rules forbid (`IllegalAction`, carrying the
    position), a value the engine refuses (`InputError`), a bad scenario file (`ScenarioError`,
    which also wraps whatever the engine refused while reading the file)."""
    h = Hand.from_seed(1)
    with pytest.raises(NotationError):
        h.play("XX")
    with pytest.raises(NotationError, match="declaration: 'sit'"):
        h.declare("sit")
    with pytest.raises(IllegalAction) as illegal:
        h.play(h.hand_of(1)[0])  # seat 1 is to declare, not to play
    assert illegal.value.position == h.to_scenario()
    assert not isinstance(illegal.value, InputError)
    with pytest.raises(InputError) as bad_value:
        Hand.from_seed(1, options={"ante": "lots"})
    assert bad_value.value.field == "rules.ante" and not isinstance(bad_value.value, ScenarioError)
    with pytest.raises(ScenarioError) as bad_file:
        loads("players: 4\nturn_up: 2H\nhands: {1: [XX, 3C, 4C]}\n")
    assert bad_file.value.field == "hands.1[0]" and "not a card code" in bad_file.value.problem
    for e in (illegal.value, bad_value.value, bad_file.value):
        assert isinstance(e, LooError) and isinstance(e, ValueError)


def test_apply_takes_the_books_words() -> None:
    h = Hand.from_seed(7, players=4)
    h.apply("stand")
    h.apply("Take Miss")
    h.apply("throw up")
    assert [str(a) for a in h.actions] == ["play", "take_miss", "pass"]


def test_a_card_while_declaring_is_refused_with_the_truth() -> None:
    h = five()
    with pytest.raises(IllegalAction) as e:
        h.apply("AS")  # seat 1 holds AS: that is not why it is refused
    msg = str(e.value)
    assert "does not hold" not in msg
    assert "declaring is not over; seat 1 must stand, take miss or throw up" in msg
    for d in ["stand", "stand", "throw up", "stand", "stand"]:
        h.apply(d)
    with pytest.raises(IllegalAction) as e:
        h.apply("throw up")
    assert "declaring is over; seat 1 is to play a card" in str(e.value)
    with pytest.raises(IllegalAction) as e:
        h.apply("7D")
    assert "seat 1 does not hold 7D" in str(e.value)


def test_illegal_action_carries_an_immutable_position_that_reloads() -> None:
    h = five()
    for d in ["stand", "take miss", "throw up", "stand", "stand"]:
        h.apply(d)
    h.apply("3C")
    with pytest.raises(IllegalAction) as e:
        h.apply("KD")  # seat 2 holds the miss, KD 7C 8C: he must follow suit (R32)
    text = e.value.position
    assert isinstance(text, str)
    data = json.loads(text)
    assert data["declarations"] == {
        "1": "play",
        "2": "take_miss",
        "3": "pass",
        "4": "play",
        "0": "play",
    }
    h.apply(h.legal_actions()[0])  # the live hand moves on; the error's position does not
    assert json.loads(text) == data
    # a caller handing in the live hand gets it written down too
    g = five()
    err = IllegalAction("not now", None, g)
    g.apply("stand")
    assert err.position == five().to_scenario() != g.to_scenario()
    sc = loads(text)
    assert sc.hand.to_act == 2
    assert sorted(str(c) for c in sc.hand.legal_actions()) == sorted(
        str(c) for c in e.value.verdict.legal
    )


# --- one phase -----------------------------------------------------------------------------------


def test_a_hand_that_shows_its_deal_is_in_the_deal_phase_until_the_elder_declares() -> None:
    pack = list(FULL_PACK)
    random.Random(4).shuffle(pack)
    h = Hand.from_pack(setup(), pack, shows_deal=True)
    assert h.phase is Phase.DEAL and h.to_act == 1
    assert h.verdict().phase is Phase.DEAL
    h.apply("stand")
    assert phase_of(h) is Phase.DECLARE
    h.undo()
    assert phase_of(h) is Phase.DEAL
    assert Hand.from_pack(setup(), pack).phase is Phase.DECLARE


def test_a_deal_settled_from_the_winners_alone_is_settled() -> None:
    h = five()
    for d in ["stand"] * 5:
        h.apply(d)
    s = h.settle_by(trick_winners=[1, 3, 1])
    assert h.phase is Phase.SETTLED and h.to_act is None and h.settlement is s
    assert s.tricks_won == {1: 2, 3: 1}
    with pytest.raises(InputError, match="already settled"):
        h.settle_by(trick_winners=[1, 1, 1])
    g = five()
    for d in ["stand"] * 5:
        g.apply(d)
    with pytest.raises(InputError) as e:
        g.settle_by(tricks_won={1: 2, 3: 2})
    assert e.value.field == "tricks_won"
    assert g.settle_by(tricks_won={1: 2, 3: 1}).receives == s.receives


def test_observation_is_an_engine_module_and_the_old_names_still_import() -> None:
    from loo_lessons.engine.observation import SeatView, seat_view
    from loo_lessons.sim import SeatView as old_view
    from loo_lessons.sim.bots import seat_view as old_fn

    assert old_view is SeatView and old_fn is seat_view
    h = Hand.from_seed(2)
    v = seat_view(h, 1)
    assert v.hand == h.hand_of(1) and v.phase is h.phase
