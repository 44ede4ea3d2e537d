"""The class's tables without a hub: the referee and its store (issue 27).

A table of pupils and bots plays deal after deal through `engine.table`; every move is
checked by the engine, every seat is told only what `engine.observation` lets it know, and
the stored moves rebuild the table, every move checked again.
"""

from __future__ import annotations

import random

import pytest
from _tables import cards_in, seen_by
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from loo_lessons.classroom.tables.referee import (
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
    ],
)
def test_a_bad_setup_is_one_line_naming_the_field(setup: dict[str, object], field: str) -> None:
    with pytest.raises(TableError) as e:
        table_setup(setup)
    assert str(e.value).startswith(field) and "\n" not in str(e.value)


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
