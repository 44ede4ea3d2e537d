"""The class's tables without a hub: the referee and its store (issue 27).

A table of pupils and bots plays deal after deal through `engine.table`; every move is
checked by the engine, every seat is told only what `engine.observation` lets it know, and
the stored moves rebuild the table, every move checked again.
"""

from __future__ import annotations

import json
import random

import pytest
from _tables import cards_in, seen_by
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from loo_lessons.classroom.tables.referee import (
    CLASS_BOUNDS,
    Illegal,
    NotYours,
    OutOfTurn,
    Table,
    TableError,
    replay,
    table_setup,
)
from loo_lessons.classroom.tables.store import Store
from loo_lessons.engine.cards import Card, Rank, Suit

DECK = [Card(r, s) for r in Rank for s in Suit]
NAMES = ("ann", "bob", "ada")


def opened(setup: dict[str, object], store: Store | None = None, table_id: str = "t1") -> Table:
    """A table that starts at once (not waiting for the teacher's Start, the default)."""
    t = Table(table_id, table_setup({"wait": False, **setup}), store)
    if store is not None:
        store.open_table(table_id, t.setup.as_json())
    return t


def test_a_table_plays_its_deals_and_the_ledger_adds_up() -> None:
    store = Store(":memory:")
    t = opened({"players": 5, "deals": 3, "seed": 11, "bots": "sensible"}, store)
    seats = {n: t.sit(n) for n in NAMES}
    t.advance()
    rng = random.Random(1)
    while not t.finished():
        s = t.hand.to_act
        assert s is not None and t.pupils[s] in NAMES
        view = t.seat_json(s)
        assert view["your_turn"] and view["legal"]
        t.move(t.pupils[s], s, rng.choice(view["legal"])["key"], view["number"])
    assert seats == {"ann": 0, "bob": 1, "ada": 2}
    ledger = t.public_json()["ledger"]
    assert [d["deal"] for d in ledger] == [1, 2, 3]
    assert [d["dealer"] for d in ledger] == [0, 1, 2]  # the deal passes to the left
    # the next pool holds what carries and the next dealer's stake, paid after the record (R02)
    assert all(sum(d["balances"]) + d["next_pool"] - 3 == 5 * 100 for d in ledger[:-1])
    # the end: nobody stakes for a fourth deal, the pool left is shared out (V15), and the
    # ledger's last line is the final counters
    assert ledger[-1]["balances"] == t.engine.balances and t.engine.pool == 0
    assert sum(ledger[-1]["balances"]) == 5 * 100 and ledger[-1]["next_pool"] == 0
    assert t.engine.dealer == 2 and ledger[-1]["lines"][-1]["rule_id"] == "V15"
    assert all(line["rule_id"] and line["book"] for d in ledger for line in d["lines"])
    again = replay(store, "t1")
    assert again.seat_json(0) == t.seat_json(0)
    with pytest.raises(OutOfTurn, match="is over"):
        t.move("ann", 0, "play", t.number)


def test_a_refused_move_says_why_in_the_books_words_and_changes_nothing() -> None:
    store = Store(":memory:")
    t = opened({"players": 3, "seed": 2, "bots": "sensible"}, store)
    for n in NAMES:
        t.sit(n)
    # play until a pupil must follow suit and holds a card that does not
    rng = random.Random(3)
    for _ in range(200):
        s = t.hand.to_act
        assert s is not None
        legal = t.hand.legal_actions()
        other = [c for c in t.hand.held[s] if c not in legal]
        if t.hand.phase.value == "play" and other:
            before = (t.number, store.count("t1"))
            with pytest.raises(Illegal) as e:
                t.move(t.pupils[s], s, other[0].code, t.number)
            assert e.value.law is not None and e.value.law["rule_id"].startswith("R")
            assert e.value.law["rule_id"] in str(e.value) and e.value.law["book"] in str(e.value)
            assert t.seat_json(s)["refused"]["error"] == str(e.value)
            assert (t.number, store.count("t1")) == before
            return
        pick = rng.choice(legal)
        t.move(t.pupils[s], s, pick.code if isinstance(pick, Card) else str(pick), t.number)
    pytest.fail("no refused card in 200 moves")


def test_the_hostile_moves_are_refused_in_one_line() -> None:
    t = opened({"players": 4, "seed": 4})
    t.sit("ann", 0)
    t.sit("bob", 1)
    t.advance()
    s = t.hand.to_act
    assert s in (0, 1)
    me, other = t.pupils[s], t.pupils[1 - s]
    n = t.number
    with pytest.raises(NotYours):
        t.move(other, s, "play", n)  # another's seat
    with pytest.raises(NotYours):
        t.move(me, 7, "play", n)  # a seat that is not there
    with pytest.raises(TableError):
        t.move(me, True, "play", n)  # a forged seat of the wrong type
    with pytest.raises(OutOfTurn):
        t.move(me, s, "play", n - 1)  # replayed
    with pytest.raises(OutOfTurn):
        t.move(me, s, "play", n + 1)  # from the future
    with pytest.raises(OutOfTurn):
        t.move(other, 1 - s, "play", n)  # out of turn
    with pytest.raises(TableError):
        t.move(me, s, "x" * 10_000, n)
    with pytest.raises(Illegal, match="you do not hold that card") as e:
        t.move(me, s, next(c.code for c in DECK if c not in t.hand.held[s]), n)
    assert not cards_in(str(e.value))  # never echoes a card that may be another's
    assert t.number == n
    t.move(me, s, "play", n)
    assert t.number > n


@pytest.mark.parametrize(
    ("setup", "field"),
    [
        ({"players": 2}, "players"),
        ({"players": 9}, "players"),
        ({"stake": 0}, "stake"),
        ({"deals": 0}, "deals"),
        ({"deals": True}, "deals"),
        ({"bots": "coached"}, "bots"),
        ({"rules": 3}, "rules"),
        ({"rules": "nobody"}, "rules"),
        ({"colour": "red"}, "colour"),
        ({"stake": 100_000}, "stake"),  # a typo at a class's table, refused with its bounds
        ({"loo": 5_000}, "loo"),
        ({"bank": 10**6}, "bank"),
        ({"wait": "yes"}, "wait"),
        ({"demo": 1}, "demo"),
    ],
)
def test_a_bad_setup_is_one_line_naming_the_field(setup: dict[str, object], field: str) -> None:
    with pytest.raises(TableError) as e:
        table_setup(setup)
    assert str(e.value).startswith(field) and "\n" not in str(e.value)
    if field in CLASS_BOUNDS:  # the refusal says what a class's table takes
        lo, hi = CLASS_BOUNDS[field]
        assert f"{lo:,} to {hi:,}" in str(e.value)


def test_a_table_waits_for_the_teachers_start_unless_told_not_to() -> None:
    assert table_setup({}).wait and not table_setup({"wait": False}).wait
    t = Table("t1", table_setup({"players": 4, "seed": 1}))
    t.sit("ann")
    assert t.advance() == [] and t.number == 0 and not t.started
    t.start()
    assert t.number > 0 or t.hand.to_act == t.seat_of("ann")


def test_a_bots_only_table_plays_a_move_at_a_time_once_started_and_nobody_sits() -> None:
    store = Store(":memory:")
    t = Table("demo", table_setup({"players": 5, "seed": 2, "deals": 2, "demo": True}), store)
    store.open_table("demo", t.setup.as_json())
    with pytest.raises(OutOfTurn, match="bots' demo"):
        t.sit("ann")
    assert t.step() == [] and t.number == 0  # it waits for the teacher's Start
    t.start()
    assert t.number == 0  # Start plays nothing at once: the projector follows a move at a time
    while not t.finished():
        assert len(t.step()) == 1
    assert t.step() == [] and len(t.hands) == 2
    assert replay(store, "demo").public_json() == t.public_json()


def test_the_end_of_a_table_shares_out_the_pool_and_charges_no_stake_for_a_deal_not_dealt() -> None:
    # Peel's unlimited loo: the pool grows with the loos, and is still full at the end
    rules = {"preset": "peel", "loo_amount": "pool"}
    for deals in (1, 3):
        t = Table("end", table_setup({"players": 5, "seed": 7, "deals": deals, "rules": rules, "demo": True, "wait": False}))
        while t.step():
            pass
        assert t.finished() and t.engine.pool == 0 and t.shares is not None
        assert sum(t.engine.balances) == 5 * 100  # every counter is a player's again
        last = t.public_json()["ledger"][-1]
        assert last["balances"] == t.engine.balances  # the final counters are the ledger's last line
        assert last["shares"] == list(t.shares) and max(t.shares) - min(t.shares) <= 1
        assert len(t.engine.history) == deals and t.engine.dealer == deals - 1  # nobody dealt again
    # stopped in the middle of a deal: that deal is abandoned, its pool shared out
    store = Store(":memory:")
    t = Table("mid", table_setup({"players": 4, "seed": 3, "deals": None, "demo": True, "wait": False}), store)
    store.open_table("mid", t.setup.as_json())
    for _ in range(3):
        t.step()
    t.stop()
    store.close_table("mid")
    ledger = t.public_json()["ledger"]
    assert ledger[-1]["abandoned"] and ledger[-1]["balances"] == t.engine.balances
    assert sum(t.engine.balances) == 4 * 100 and t.engine.pool == 0
    assert "shared out" in ledger[-1]["lines"][-1]["text"] and ledger[-1]["lines"][-1]["rule_id"] == "V15"
    assert replay(store, "mid").public_json() == t.public_json()  # a restart tells the same end


def test_a_seats_view_stays_small_however_long_the_evening() -> None:
    """At deal 40 a seat's view carries the ledger's last deals only (the teacher's pages have
    all of it): at most 4 KB, about what it was after the second deal."""
    for players in (5, 8):
        t = Table("long", table_setup({"players": players, "seed": 1, "deals": None, "demo": True, "wait": False}))
        sizes: dict[int, int] = {}
        while len(t.engine.history) < 40:
            t.step()
            if t.hand.to_act is not None and len(t.engine.history) in (2, 39):
                sizes[len(t.engine.history)] = max(sizes.get(len(t.engine.history), 0), len(json.dumps(t.seat_json(0))))
        view = t.seat_json(0)
        assert view["ledger_deals"] == 40 and [d["deal"] for d in view["ledger"]] == [39, 40]
        assert len(json.dumps(view)) <= 4096 and sizes[39] <= 4096, (players, sizes)
        assert sizes[39] <= sizes[2] + 500, sizes  # it does not grow with the deals


KEYS = st.one_of(
    st.sampled_from(["play", "pass", "take_miss", "play_miss_for_pool", "stand", "", "??"]),
    st.sampled_from([c.code for c in DECK]),
    st.text(max_size=50),
)


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    players=st.integers(3, 6),
    seed=st.integers(0, 2**32),
    steps=st.lists(
        st.tuples(
            st.integers(0, 6),  # who: a pupil, or (3 and more) the pupil to act playing a legal move
            st.integers(-1, 8),  # the seat claimed
            KEYS,
            st.integers(-2, 2),  # how far the number claimed is from the table's
            st.booleans(),  # does a pupil go quiet (their bot plays) or come back first?
        ),
        min_size=30,
        max_size=80,
    ),
)
def test_no_seat_ever_sees_a_hidden_card_and_the_store_replays_the_table(
    players: int, seed: int, steps: list[tuple[int, int, str, int, bool]]
) -> None:
    store = Store(":memory:")
    t = opened({"players": players, "seed": seed, "deals": 2}, store)
    for n in NAMES:
        t.sit(n)
    t.advance()
    # the probe finds cards where they are: each seat's own, in its view
    assert all(set(t.hand.held[s]) <= cards_in(t.seat_json(s)) for s in range(players))
    total = t.engine.total()
    rng = random.Random(seed)
    for who, seat, key, off, quiet in steps:
        if quiet:
            s = seat % 3
            t.set_away(s, s not in t.away)
        if t.finished():
            break
        if who >= 3 and t.hand.to_act in t.pupils:
            s = t.hand.to_act
            name, key, off = t.pupils[s], str(rng.choice(t.hand.legal_actions())), 0
            if len(key) <= 3:
                key = key.upper()
        else:
            name, s = NAMES[who % len(NAMES)], seat
        n_before, stored = t.number, store.count("t1")
        try:
            t.move(name, s, key, t.number + off)
        except TableError as e:
            assert "\n" not in str(e)
            assert (t.number, store.count("t1")) == (n_before, stored)  # nothing stored
        assert store.count("t1") == t.number
        # (c) counters only move between the players and the pool
        assert t.engine.total() == total == t.public_json()["total"]
        # (a) each seat is told its own cards and the public ones, never another's
        for s2 in range(players):
            assert cards_in(t.seat_json(s2)) <= seen_by(t.hand, s2)
        assert cards_in(t.public_json()) <= seen_by(t.hand, None)
    # (b) the stored moves rebuild the table, every move checked again
    again = replay(store, "t1")
    again.away, again.refused = set(t.away), dict(t.refused)
    assert again.number == t.number and again.hand.actions == t.hand.actions
    assert [again.seat_json(s) for s in range(players)] == [t.seat_json(s) for s in range(players)]


def test_bots_wait_while_every_pupil_is_away_and_play_when_one_is_back() -> None:
    t = opened({"players": 5, "deals": None, "seed": 4})
    ann = t.sit("ann")
    t.advance()
    assert t.hand.to_act == ann  # the bots before her played
    made = t.set_away(ann, True)  # her bot plays her seat only while a pupil is at the table
    assert made == [] and not t.present() and t.deal == 1
    made = t.set_away(ann, False)
    assert made == [] and t.present() and t.hand.to_act == ann
    bob = t.sit("bob")
    t.set_away(bob, True)
    view = t.seat_json(ann)
    t.move("ann", ann, view["legal"][0]["key"], view["number"])
    # bob is away but ann is here: the bots, his among them, play on until it is her turn again
    assert t.hand.to_act == ann and t.number > view["number"] + 1


def test_the_projected_table_names_cards_in_words_never_by_code() -> None:
    # the projector shows this page to the class: "the 10♥", never "10H"
    import re

    from loo_lessons.classroom.tables.pages import table_body

    t = opened({"players": 4, "deals": 1, "seed": 5, "bots": "sensible"})
    t.sit("ann", 0)
    t.advance()
    pages = []
    rng = random.Random(2)
    while not t.finished():
        s = t.hand.to_act
        assert s is not None
        view = t.seat_json(s)
        t.move("ann", s, rng.choice(view["legal"])["key"], view["number"])
        pages.append(table_body(t, project=True))
    shown = [re.sub(r"<[^>]+>", " ", p) for p in pages]
    assert any("Tricks: seat" in p for p in shown), "no trick was ever shown"
    assert any("the turn-up: the " in p for p in shown)
    # the declarations in the book's words, seat by seat (the class sees who stood)
    assert any(re.search(r"stands on his own cards|takes the miss|throws up", p) for p in shown)
    codes = [m for p in shown for m in re.findall(r"\b(?:10|[2-9JQKA])[CDHS]\b", p)]
    assert not codes, codes
