"""`scenario.load_transcript` reads nothing it has not checked: mutated transcripts are refused
with one `ScenarioError(field, problem)`, never anything else (a move the engine refuses is named
as its field too)."""

from __future__ import annotations

import contextlib
import copy
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from loo_lessons.engine.cards import FULL_PACK
from loo_lessons.engine.errors import InputError
from loo_lessons.engine.game import Hand, Setup
from loo_lessons.engine.options import preset
from loo_lessons.engine.penalties import Offence
from loo_lessons.engine.settle import Stakes
from loo_lessons.scenario.errors import ScenarioError
from loo_lessons.scenario.transcripts import load_transcript


def _played(seed: int, from_pack: bool, penalty: bool) -> dict[str, Any]:
    rng = random.Random(seed)
    players = 2 + seed % 6
    book = "hoffmann" if seed % 2 else "peel"
    if from_pack:
        pack = list(FULL_PACK)
        rng.shuffle(pack)
        opts = preset(book)
        setup = Setup(players, seed % players, opts, Stakes.make(players=players, ante=opts.ante))
        hand = Hand.from_pack(setup, pack)
    else:
        hand = Hand.from_seed(seed, players=players, dealer=seed % players, options=book)
    while hand.to_act is not None and rng.random() < 0.9:
        hand.apply_unchecked(rng.choice(hand.legal_actions()))
    if penalty and hand.to_act is not None:
        with contextlib.suppress(InputError):  # refused where it cannot have happened
            hand.penalise(hand.to_act, Offence.LOOK_AT_MISS)
    data: dict[str, Any] = json.loads(json.dumps(hand.transcript().as_json()))
    return data


HOSTILE: list[object] = [
    None, True, -1, 0, 1, 7, 10**40, 1.5, "", "x", "AS", "stand", [], [None], ["AS", "AS"],
    {}, {"x": 1}, [[]], [1, 2, "look_at_miss"], [0, 99, "revoke"], "pool_capped",
]  # fmt: skip


def _paths(data: object, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in the JSON, as a path of keys and indices."""
    out = [at] if at else []
    if isinstance(data, dict):
        for k, v in data.items():
            out += _paths(v, (*at, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out += _paths(v, (*at, i))
    return out


def _mutate(data: dict[str, Any], r: random.Random) -> dict[str, Any]:
    out = copy.deepcopy(data)
    for _ in range(r.randint(1, 3)):
        paths = _paths(out)
        kind = r.randrange(6)
        if kind == 5 or not paths:
            out[r.choice(["learner", "extra", "rules", "seed", "hands"])] = copy.deepcopy(
                r.choice(HOSTILE)
            )
            continue
        path = r.choice(paths)
        parent: Any = out
        for step in path[:-1]:
            parent = parent[step]
        last = path[-1]
        if kind <= 2:
            parent[last] = copy.deepcopy(r.choice(HOSTILE))
        elif kind == 3 and isinstance(parent, dict):
            del parent[last]
        elif kind == 3:
            parent.pop(last)
        elif isinstance(parent, list):  # a move or a card repeated or moved
            parent.insert(r.randrange(len(parent) + 1), parent[last])
        else:
            parent[last] = copy.deepcopy(r.choice(list(parent.values())))
    return out


@settings(max_examples=400, deadline=None)
@given(
    st.integers(0, 5_000),
    st.booleans(),
    st.booleans(),
    st.randoms(use_true_random=False),
)
def test_mutated_transcripts_are_refused_with_a_field(
    seed: int, from_pack: bool, penalty: bool, r: random.Random
) -> None:
    data = _played(seed, from_pack, penalty)
    bad = _mutate(data, r)
    try:
        tr = load_transcript(bad)
    except ScenarioError as e:
        assert e.field and "\n" not in str(e)
        return
    # accepted: then it is a game the engine plays through, as the transcript says
    hand = tr.replay()
    assert [str(a) for a in hand.actions] == list(tr.actions)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 5_000), st.booleans(), st.booleans())
def test_a_transcript_reads_back_as_itself(seed: int, from_pack: bool, penalty: bool) -> None:
    data = _played(seed, from_pack, penalty)
    tr = load_transcript(data)
    assert tr.as_json() == data
    assert load_transcript(tr.as_json()) == tr


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"players": "5"}, "players"),
        ({"players": 40}, "players"),
        ({"must": "no"}, "must"),
        ({"dealer": 9}, "dealer"),
        ({"stakes": {"stake": 0}}, "stakes.stake"),
        ({"stakes": {"ante": 1}}, "stakes.ante"),
        ({"rules": {"two_trumps_lead": "all"}}, "rules.two_trumps_lead"),
        ({"actions": ["stand", "fly"]}, "actions[1]"),
        ({"actions": ["7H"]}, "actions[0]"),
        ({"seed": None}, "seed"),
        ({"penalties": [[0, 9, "look_at_miss"]]}, "penalties[0].seat"),
        ({"penalties": [[0, 1, "cheating"]]}, "penalties[0].offence"),
        ({"penalties": [[5, 1, "look_at_miss"]]}, "penalties[0]"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_each_refusal_names_its_field(change: dict[str, Any], field: str) -> None:
    data = Hand.from_seed(4, players=5).transcript().as_json()
    data.update(change)
    with pytest.raises(ScenarioError) as e:
        load_transcript(data)
    assert e.value.field == field


def test_a_deal_given_by_its_cards_is_checked_as_a_position() -> None:
    pack = list(FULL_PACK)
    random.Random(2).shuffle(pack)
    opts = preset("hoffmann")
    hand = Hand.from_pack(Setup(4, 0, opts, Stakes.make(players=4)), pack)
    data = hand.transcript().as_json()
    data["hands"][1][0] = data["hands"][0][0]  # one card in two hands
    with pytest.raises(ScenarioError) as e:
        load_transcript(data)
    # the engine's own status() wording, one place for the refusal
    assert e.value.field == "hands.1" and "duplicated card" in e.value.problem
