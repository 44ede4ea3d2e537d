"""Pass-and-play (issue 27, deliver 4): several people at one evening's table on one device.

The evening (`sim.evening`) takes people at a set of seats (the one-learner evening is the
one-person case, saved as it always was); a saved pass-and-play evening replays exactly and
a bad one is refused in one line naming the field. The controller (`widgets.controllers.
pass_play`) never sends a card of any hand while the pass screen is up, and on "show" only
the seat's own: checked over random walks of clicks, illegal and crafted ones among them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from loo_lessons.cli import main
from loo_lessons.engine.cards import FULL_PACK, Card, parse_card
from loo_lessons.engine.game import Hand
from loo_lessons.engine.observation import seat_view
from loo_lessons.explain.table import action_key
from loo_lessons.explain.words import card_label
from loo_lessons.scenario.errors import ScenarioError
from loo_lessons.sim.evening import Evening, from_json, setup_of
from loo_lessons.widgets.controllers.pass_play import PassPlayController

# --- several people at one evening ------------------------------------------------------------


def _three_people_two_bots(deals: int = 3) -> tuple[Evening, dict[int, int]]:
    """Seats 0, 2 and 3 are people (each plays his last legal move: not what a bot would),
    1 and 4 bots; `deals` deals played and settled. Returns the evening and each person's
    count of moves."""
    ev = Evening(setup_of(11, 5, "hoffmann", 2, people=(2, 0, 3), names=("Ann", "Bob", "Cy")))
    moved = {0: 0, 2: 0, 3: 0}
    for _ in range(deals):
        ev.advance()
        while not ev.over:
            seat = ev.hand.to_act
            assert seat in moved  # the bots never leave a bot's move waiting
            moved[seat] += 1
            ev.decide(ev.hand.legal_actions()[-1])
        ev.next_deal()
    ev.advance()
    return ev, moved


def test_an_evening_of_three_people_and_two_bots_replays_from_its_saved_json_exactly() -> None:
    ev, moved = _three_people_two_bots()
    assert all(n > 0 for n in moved.values())  # every person moved
    saved = json.loads(json.dumps(ev.as_json()))
    assert saved["people"] == [2, 0, 3] and saved["names"] == ["Ann", "Bob", "Cy"]
    assert saved["bots"] == [None, "sensible", None, None, "sensible"]
    again = from_json(saved)
    assert again.as_json() == saved
    assert again.ledger() == ev.ledger() and again.table.balances == ev.table.balances
    assert again.hand.to_act == ev.hand.to_act and again.hand.to_act in (0, 2, 3)
    assert again.total() == 500


def test_the_one_learner_evening_is_the_one_person_case_and_is_saved_as_before() -> None:
    ev = Evening(setup_of(21, 5, "hoffmann", 1))
    assert ev.setup.seats() == (1,) and ev.game.people == (1,)
    saved = ev.as_json()
    assert "people" not in saved and "names" not in saved  # an old reader reads it
    assert from_json(saved).as_json() == saved


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"people": [2, 2]}, "evening.people"),
        ({"people": [0, 3]}, "evening.people"),  # the evening's seat (2) is not among them
        ({"people": [2, 9]}, "evening.people"),
        ({"people": "2"}, "evening.people"),
        ({"names": ["Ann"]}, "evening.names"),
        ({"names": ["Ann", "x" * 25, "Cy"]}, "evening.names"),
        ({"names": ["Ann", "", "Cy"]}, "evening.names"),
        ({"names": ["Ann", "B\nob", "Cy"]}, "evening.names"),
        ({"names": ["Ann", 7, "Cy"]}, "evening.names"),
    ],
)
def test_a_bad_pass_and_play_file_is_refused_in_one_line_naming_the_field(change: dict[str, Any], field: str) -> None:
    saved = {**_three_people_two_bots(1)[0].as_json(), **change}
    with pytest.raises(ScenarioError) as e:
        from_json(saved)
    assert e.value.field == field and "\n" not in str(e.value)


def test_the_command_resumes_a_pass_and_play_evening_and_refuses_a_bad_one_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ev = _three_people_two_bots(2)[0]
    path = tmp_path / "pnp.json"
    path.write_text(json.dumps(ev.as_json()))
    assert main(["play", "--resume", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [d["balances"] for d in out["deals"]] == [{str(s): b for s, b in enumerate(r.balances)} for r in ev.table.history]
    path.write_text(json.dumps({**ev.as_json(), "people": [2, 0, 3, 0]}))
    assert main(["play", "--resume", str(path), "--json"]) == 2
    assert capsys.readouterr().err == "error: evening.people: seat 0 is given twice\n"


# --- the controller: no card of any hand on the pass screen -------------------------------------


def _strings(v: object) -> list[str]:
    if isinstance(v, str):
        return [v]
    if isinstance(v, dict):
        return [s for k, x in v.items() for s in (*_strings(k), *_strings(x))]
    if isinstance(v, list | tuple):
        return [s for x in v for s in _strings(x)]
    return []


def _face_up(h: Hand) -> set[Card]:
    return {c for t in h.tricks for _, c in t} | ({h.turn_up} if h.turn_up is not None else set())


def _shown(data: dict[str, Any], cards: set[Card]) -> set[Card]:
    """The cards of `cards` that the data names: as a code, or in words."""
    texts = _strings(data)
    codes = set(texts)
    return {c for c in cards if c.code in codes or any(card_label(c) in t for t in texts)}


def assert_nothing_secret(ctl: PassPlayController) -> None:
    """While the pass screen is up no card of any hand is in what the component gets; on the
    play screen only the shown seat's own (its `SeatView`)."""
    h = ctl.hand
    # every trait but `request`, which holds what the component itself sent
    state = {k: v for k, v in ctl.state().items() if k != "request"}
    json.dumps(state, allow_nan=False)
    secret = set(FULL_PACK) - _face_up(h)
    if ctl.screen == "pass":
        assert state["data"]["screen"] == "pass"
        assert _shown(state, secret) == set()
        assert state["data"]["cards"] == [] and state["data"]["choices"] == []
    else:
        assert ctl.screen == "play" and state["data"]["screen"] == "play"
        assert h.to_act == ctl.seat == state["data"]["turn"]
        view = seat_view(h, ctl.seat)
        own = set(view.hand) | set(view.put_down)
        assert _shown(state, secret - own) == set()
        assert {parse_card(c) for c in state["data"]["cards"]} == set(view.hand)


def _error(ctl: PassPlayController) -> str:
    """The refusal the widget shows now (there must be one)."""
    e = ctl.data["error"]
    assert isinstance(e, str), ctl.data
    return e


ACTIONS = ("show", "legal", "any card", "next", "hint", "undo", "restart", "review", "save", "bogus")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    players=st.integers(3, 6),
    data=st.data(),
)
def test_the_pass_screen_holds_no_card_of_any_hand_and_play_only_the_seats_own(
    seed: int, players: int, data: st.DataObject
) -> None:
    people = data.draw(st.lists(st.integers(0, players - 1), min_size=1, max_size=players, unique=True), label="people")
    ctl = PassPlayController(seed, players, data.draw(st.sampled_from(["hoffmann", "peel"])), people=people)
    ctl.files = False  # the book's page: a save is a download, never a file
    assert_nothing_secret(ctl)
    for _ in range(data.draw(st.integers(1, 40), label="clicks")):
        what = data.draw(st.sampled_from(ACTIONS), label="click")
        req: dict[str, Any] = {"n": 1, "type": what}
        if what == "legal":
            req = {"n": 1, "type": "choose", "key": data.draw(st.sampled_from(ctl.legal or ["KH"]))}
        elif what == "any card":
            req = {"n": 1, "type": "choose", "key": data.draw(st.sampled_from([c.code for c in FULL_PACK]))}
        elif what == "save":
            req["path"] = "x.json"
        before = ctl.screen
        ctl.receive({"sync": {"request": req}})
        assert_nothing_secret(ctl)
        if what == "legal" and before == "play":
            assert ctl.screen == "pass"  # the move made, the cards hidden again


def test_a_persons_move_passes_the_device_on_and_the_pass_screen_names_who() -> None:
    ctl = PassPlayController(7, 5, "hoffmann", people=(0, 2, 3), names=("Ann", "<b>Bob</b>", "Cy"))
    d = ctl.data
    assert (d["screen"], d["turn"], d["name"]) == ("pass", 2, "<b>Bob</b>")
    assert d["prompt"] == "Pass to seat 2 (<b>Bob</b>)."
    assert d["since"] == ["Seat 1 (the elder hand) takes the miss."]  # a bot's move, in the open
    ctl.receive({"sync": {"request": {"n": 1, "type": "choose", "key": action_key(ctl.hand.legal_actions()[0])}}})
    assert "the cards are hidden: pass the device to seat 2 (<b>Bob</b>)" in _error(ctl)
    ctl.receive({"sync": {"request": {"n": 2, "type": "show"}}})
    d = ctl.data
    assert (d["screen"], d["turn"], d["my_turn"]) == ("play", 2, True)
    assert d["cards"] and d["title"].startswith("<b>Bob</b>'s cards (seat 2)")
    ctl.receive({"sync": {"request": {"n": 3, "type": "undo"}}})
    assert "a move made is made" in ctl.data["error"] and ctl.screen == "play"
    ctl.receive({"sync": {"request": {"n": 4, "type": "choose", "key": ctl.legal[0]}}})
    assert ctl.screen == "pass" and ctl.data["message"] == "<b>Bob</b> has played: the cards are hidden again."
    # the next person (Cy, seat 3) is told everything since his own last move: Bob's too
    assert ctl.data["turn"] == 3 and ctl.data["since"][0].startswith("Seat 1") and ctl.data["since"][1].startswith("Seat 2 ")
    # the names are the players' text: the static page writes them as text, never as HTML
    page = ctl.static_html()
    assert "<b>Bob" not in page and "&lt;b&gt;Bob&lt;/b&gt;" in page


def test_the_set_up_form_starts_a_new_evening_and_a_bad_field_is_refused_naming_it() -> None:
    ctl = PassPlayController(7, 5, people=(0, 1))
    start = {"n": 1, "type": "start", "names": ["Ann", "", "Cy", ""], "preset": "peel", "stake": 4, "loo": "unlimited", "cap": 12, "seed": 5, "bots": "bold"}
    ctl.receive({"sync": {"request": start}})
    s = ctl.evening.setup
    assert ctl.data["error"] is None and ctl.screen == "pass"
    assert (s.players, s.people, s.names, s.stake, s.loo_cap, s.seed) == (4, (0, 2), ("Ann", "Cy"), 4, 12, 5)
    assert s.rules.loo_amount.value == "pool_capped" and ctl.data["title"].startswith("Pass and play: deal 1")
    assert s.bot_names() == (None, "bold", None, "bold") and ctl.data["setup"]["bots"] == "bold"
    bad_fields: list[tuple[dict[str, Any], str]] = [
        ({"names": ["Ann", "Bob"]}, "names"),
        ({"names": ["", "", ""]}, "names"),
        ({"names": ["Ann", "x" * 30, ""]}, "names[1]"),
        ({"preset": "mine"}, "preset"),
        ({"bots": "coached"}, "bots"),
        ({"stake": 0}, "stake"),
        ({"loo": "limited", "cap": 5}, "cap"),
        ({"cap": True}, "cap"),
        ({"evil": 1}, "a start request has no evil"),
    ]
    for bad, field in bad_fields:
        ctl.receive({"sync": {"request": {**start, "n": 2, **bad}}})
        assert _error(ctl).startswith(field), (bad, _error(ctl))
        assert ctl.evening.setup.seed == 5  # nothing changed


def test_a_saved_pass_and_play_evening_loads_back_on_its_pass_screen(tmp_path: Path) -> None:
    ctl = PassPlayController(3, 4, people=(1, 3), names=("Ann", "Bob"))
    for _ in range(3):
        ctl.show().choose(ctl.legal[0])
    path = ctl.save(tmp_path / "pnp.json")
    back = PassPlayController.load(path)
    assert back.screen == "pass" and back.evening.as_json() == ctl.evening.as_json()
    assert back.data["people"] == [{"seat": 1, "name": "Ann"}, {"seat": 3, "name": "Bob"}]
    assert_nothing_secret(back)


def test_a_saved_evening_chosen_in_the_page_loads_back_and_a_bad_one_is_refused_naming_the_field() -> None:
    ctl = PassPlayController(3, 4, people=(1, 3), names=("Ann", "Bob"))
    ctl.files = False  # the book's page: Save downloads
    ctl.show().choose(ctl.legal[0])
    ctl.receive({"sync": {"request": {"n": 1, "type": "save", "path": ""}}})
    text = ctl.data["download"]["text"]
    other = PassPlayController(9, 6, people=(0,))
    other.receive({"sync": {"request": {"n": 1, "type": "load", "text": text, "name": "x.json"}}})
    assert other.data["error"] is None and other.evening.as_json() == ctl.evening.as_json()
    assert other.screen == "pass" and other.data["turn"] == ctl.data["turn"] and len(other.bots) == 4
    assert_nothing_secret(other)
    bad = json.loads(text) | {"names": ["Ann", "x" * 99]}
    other.receive({"sync": {"request": {"n": 2, "type": "load", "text": json.dumps(bad), "name": "x.json"}}})
    assert _error(other).startswith("evening.names: a name has 1 to 24 characters")
    other.receive({"sync": {"request": {"n": 3, "type": "load", "text": "[" * 5000, "name": "x.json"}}})
    assert _error(other).startswith("evening") and "\n" not in _error(other)
    assert other.evening.as_json() == ctl.evening.as_json()  # nothing taken from a bad file
