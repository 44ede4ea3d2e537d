"""An evening of Loo (issue 18, Deliver 2) and "Ask the coach" at the table (Deliver 3's UI).

The table's rules are engine/table.py's: these tests check that the evening (sim.evening),
its widget (both back ends) and its terminal form carry them faithfully: the dealer moves
left, a single makes the next deal a must (seed 21, pinned), the counters on the table are
conserved, a saved evening replays exactly and a bad file is refused in one line.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule
from test_backends import JSON, SURELY_BAD, Pair

from loo_lessons.cli import args as A
from loo_lessons.cli import main
from loo_lessons.engine.deal import next_dealer
from loo_lessons.engine.errors import InputError, LooError
from loo_lessons.scenario.errors import ScenarioError
from loo_lessons.sim.evening import MAX_DEALS, Evening, from_json, load, setup_of
from loo_lessons.views.evening import play_evening
from loo_lessons.widgets.backends import browser as B
from loo_lessons.widgets.controllers.evening import EveningController
from loo_lessons.widgets.controllers.play import PlayController
from loo_lessons.widgets.evening import EveningTable

#: The seed whose first deal ends in a single (the learner plays his first legal move each
#: time, the bots `sensible`): the second deal is a must (R43).
MUST_SEED = 21


def first_moves(ev: Evening) -> None:
    """The learner plays his first legal move until the deal is over."""
    ev.advance()
    while not ev.over:
        ev.decide(ev.hand.legal_actions()[0])


def three_deals(seed: int = MUST_SEED) -> Evening:
    ev = Evening(setup_of(seed, 5, "hoffmann", 1))
    for _ in range(3):
        first_moves(ev)
        ev.next_deal()
    ev.advance()
    return ev


def test_a_seeded_three_deal_evening_has_a_must_after_a_single() -> None:
    ev = three_deals()
    first, second, third = ev.table.history
    assert first.settlement.next_is_must and not first.must  # the single (R43)
    assert second.must and ev.hands[1].setup.must  # the engine dealt a must
    assert not third.must
    # nobody may pass in a must: every seat played the second deal
    assert set(ev.hands[1].players_in) == set(range(5))
    # the dealer moves to the left every deal
    assert [r.dealer for r in ev.table.history] == [0, 1, 2]
    assert ev.hand.setup.dealer == next_dealer(2, 5)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(3, 7), deals=st.integers(1, 4), rules=st.sampled_from(["hoffmann", "peel"]))
def test_counters_are_conserved_and_the_pool_is_the_tables(seed: int, players: int, deals: int, rules: str) -> None:
    ev = Evening(setup_of(seed, players, rules, 1, bank=50))
    for _ in range(deals):
        first_moves(ev)
        rec = ev.next_deal()
        assert ev.total() == players * 50  # players + pool: nothing made, nothing lost
        assert ev.hand.setup.stakes.pool == ev.table.pool  # the next deal plays for the table's pool
        assert ev.hand.setup.must == rec.settlement.next_is_must
    assert [r.number for r in ev.table.history] == list(range(1, deals + 1))


def test_a_saved_evening_replays_exactly_and_goes_on_the_same(tmp_path: Path) -> None:
    ev = three_deals()
    if ev.hand.to_act == 1:
        ev.decide(ev.hand.legal_actions()[0])
    path = tmp_path / "evening.json"
    path.write_text(json.dumps(ev.as_json()))
    back = load(path)
    back.advance()
    assert back.as_json() == ev.as_json()
    assert back.table.balances == ev.table.balances and back.table.pool == ev.table.pool
    for e in (ev, back):
        first_moves(e)
        e.next_deal()
    assert back.table.history[-1].balances == ev.table.history[-1].balances


BAD_EVENINGS: list[tuple[Any, str]] = [
    ([], "evening"),
    ({"format": "x"}, "evening.format"),
    ({"format": "loo-evening/1", "seed": -1}, "evening.seed"),
    ({"format": "loo-evening/1", "seed": 2**63}, "evening.seed"),  # past what random and the CLI take
    ({"format": "loo-evening/1", "seed": 1, "players": 99}, "evening.players"),
    ({"format": "loo-evening/1", "seed": 1, "players": 5, "seat": 9}, "evening.seat"),
    ({"format": "loo-evening/1", "extra": 1}, "evening.extra"),
]


def _good() -> dict[str, Any]:
    ev = Evening(setup_of(MUST_SEED, 5, "hoffmann", 1))
    first_moves(ev)
    ev.next_deal()
    ev.advance()
    out: dict[str, Any] = ev.as_json()
    return out


@pytest.mark.parametrize(("raw", "field"), BAD_EVENINGS)
def test_a_bad_evening_is_refused_naming_its_field(raw: Any, field: str) -> None:
    with pytest.raises(ScenarioError) as e:
        from_json(raw)
    assert e.value.field == field


def test_a_tampered_evening_is_refused_in_one_line_by_the_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = _good()
    cases = {
        "illegal": {**good, "deals": [["AS", "AS", "AS"]]},
        "unfinished": {**good, "deals": [good["deals"][0][:2], good["deals"][1]]},
        "bots": {**good, "bots": ["nobody"] * 5},
        "stake": {**good, "stake": 0},
        "dealer": {**good, "dealer": 7},
    }
    for name, raw in cases.items():
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(raw))
        assert main(["play", "--resume", str(path)]) == 2, name
        err = capsys.readouterr().err
        assert err.startswith("error: evening.") and err.count("\n") == 1, (name, err)
    (tmp_path / "junk.json").write_text("{not json")
    assert main(["play", "--resume", str(tmp_path / "junk.json")]) == 2
    assert capsys.readouterr().err.count("\n") == 1


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(raw=JSON, key=st.sampled_from(["seed", "players", "seat", "bots", "stake", "loo", "loo_cap", "bank", "deals", "rules", "dealer"]))
def test_hostile_fields_are_refused_never_raised(raw: Any, key: str) -> None:
    data = {**_GOOD, key: raw}
    try:
        ev = from_json(data)
    except ScenarioError as e:
        assert "\n" not in str(e)
    else:
        assert ev.total() == ev.setup.players * ev.setup.bank


_GOOD = _good()


def test_the_command_lines_cap_reaches_the_table(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """`play --option loo_cap=N` (R49) is the evening's cap: the ledger's loos never pass it."""
    seen: list[Evening] = []
    def play(ev: Evening, *_: object) -> int:
        seen.append(ev)
        return 0

    monkeypatch.setattr("loo_lessons.views.evening.play_evening", play)
    argv = ["play", "--deals", "3", "--option", "loo_amount=pool_capped", "--option", "loo_cap=5"]
    assert main(argv) == 0
    assert seen[0].setup.loo_cap == 5 and seen[0].hand.setup.stakes.cap == 5


def test_the_limits_agree() -> None:
    assert A.MAX_DEALS == MAX_DEALS


# --- what starts can be saved and resumed (issue 25.3) --------------------------------------------

#: The settings a session saw start an evening that the reader then refused.
UNRESUMABLE = [("stake", 0), ("loo", 0), ("loo_cap", -1), ("bank", 10**12), ("stake", 10**7), ("seed", -1), ("seed", 2**63)]


@pytest.mark.parametrize(("key", "value"), UNRESUMABLE)
def test_a_setting_the_reader_refuses_cannot_start_an_evening(key: str, value: int, capsys: pytest.CaptureFixture[str]) -> None:
    given: dict[str, Any] = {key: value}
    with pytest.raises(InputError) as e:
        setup_of(**given)
    assert e.value.field == key and "\n" not in str(e.value)
    with pytest.raises(InputError):  # the book's evening takes the same arguments, the same check
        EveningController(**given)
    with pytest.raises(ScenarioError) as read:
        from_json({**_GOOD, key: value})
    assert read.value.field == f"evening.{key}"


_SETTING = st.one_of(st.none(), st.integers(-3, 12), st.integers(10**6 - 2, 10**6 + 2), st.integers(2**63 - 2, 2**63 + 1))


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    seed=st.one_of(st.integers(-2, 3), st.integers(2**63 - 2, 2**63 + 1)),
    players=st.integers(1, 18),
    stake=_SETTING,
    loo=_SETTING,
    loo_cap=_SETTING,
    bank=_SETTING,
    unlimited=st.booleans(),
)
def test_every_evening_that_starts_saves_and_resumes(
    seed: int, players: int, stake: int | None, loo: int | None, loo_cap: int | None, bank: int | None, unlimited: bool
) -> None:
    rules = {"preset": "peel", "loo_amount": "pool_capped" if unlimited else "fixed"}
    given_: dict[str, Any] = {k: v for k, v in {"stake": stake, "bank": bank}.items() if v is not None}
    try:
        ev = Evening(setup_of(seed, players, rules, 1 % max(players, 1), loo=loo, loo_cap=loo_cap, **given_))
    except LooError as e:
        assert "\n" not in str(e)
        return
    first_moves(ev)
    ev.next_deal()
    ev.advance()
    back = from_json(json.loads(json.dumps(ev.as_json())))
    back.advance()
    assert back.as_json() == ev.as_json() and back.table.balances == ev.table.balances


def test_the_resumed_ledger_as_json_names_the_contracts_fields(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`play --resume FILE --json` (scenario-format.md): `deals` with `deal`, `dealer`, `pool`,
    `must`, `balances` (seat as a string → counters) and `settlement.lines`, and `now`. Under
    unlimited loo (R46) a deal's `loo` is its pool, not the stake."""
    ev = Evening(setup_of(1, 5, {"preset": "hoffmann", "loo_amount": "pool"}, 1))
    for _ in range(12):
        first_moves(ev)
        ev.next_deal()
    ev.advance()
    path = tmp_path / "ev.json"
    path.write_text(json.dumps(ev.as_json()))
    assert main(["play", "--resume", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [d["deal"] for d in out["deals"]] == list(range(1, 13))
    for d, rec in zip(out["deals"], ev.table.history, strict=True):
        assert {"deal", "dealer", "pool", "must", "balances", "settlement"} <= set(d)
        assert d["balances"] == {str(s): b for s, b in enumerate(rec.balances)}
        assert d["pool"] == rec.pool and d["loo"] == rec.pool  # unlimited loo: a loo is the pool
        assert all({"rule_id", "reason", "quote"} <= set(line) for line in d["settlement"]["lines"])
    assert any(d["pool"] != 3 for d in out["deals"])  # the pool grew: a loo other than the stake was seen
    assert out["now"] == {"deal": 13, "dealer": ev.hand.setup.dealer, "pool": ev.table.pool, "must": ev.hand.setup.must}
    assert ev.ledger()[0]["loo"] == out["deals"][0]["loo"]
    assert main(["play", "--json"]) == 2 and "--json" in capsys.readouterr().err


# --- the widget ----------------------------------------------------------------------------------


def test_the_evening_widget_plays_three_deals_and_keeps_a_ledger() -> None:
    c = EveningController(MUST_SEED, rollouts=20)
    musts = []
    for deal in range(1, 4):
        assert c.data["evening"]["deal"] == deal
        musts.append(c.data["evening"]["must"])
        c.ask_coach()
        advice = c.data["coach"]
        assert advice is not None and advice["note"].startswith("Strategy, not law")
        assert sorted(m["action"] for m in advice["moves"]) == sorted(c.legal)
        means = [m["counters"]["mean"] for m in advice["moves"]]
        assert means == sorted(means, reverse=True)  # ranked
        while not c.over:
            c.choose(c.legal[0])
        assert c.data["coach"] is None  # advice for a position gone is not shown
        c.review()
        r = c.data["review"]
        assert r is not None and all(d["mistake"] == (d["cost"]["mean"] > r["threshold"] and d["cost"]["low"] > 0) for d in r["decisions"])
        c.next_deal()
    assert musts == [False, True, False]
    ev = c.data["evening"]
    assert len(ev["ledger"]) == 3 and len(ev["series"]) == 4 and ev["total"] == 500
    for row in ev["ledger"]:
        assert row["lines"] and all(w["rule_id"] and w["quote"] for w in row["lines"] if w["kind"] != "note")
        # the players' counters and the next pool (less the next dealer's stake, not yet
        # paid) hold every counter of the table
        assert sum(row["balances"]) + row["next_pool"] - 3 == 500
    assert ev["series"][1:] == [list(r.balances) for r in c.evening.table.history]


def test_next_deal_is_refused_until_the_deal_is_over() -> None:
    c = EveningController(MUST_SEED, rollouts=10)
    c.receive({"sync": {"request": {"n": 1, "type": "next"}}})
    assert "not over" in c.data["error"] and c.data["evening"]["deal"] == 1


def test_the_evening_saved_from_the_page_loads_again(tmp_path: Path) -> None:
    c = EveningController(MUST_SEED, rollouts=10)
    c.play_deal()
    c.files = False
    c.receive({"sync": {"request": {"n": 1, "type": "save", "path": "mine"}}})
    down = c.data["download"]
    assert down["name"] == "mine.json"
    (tmp_path / "mine.json").write_text(down["text"])
    again = EveningController.load(tmp_path / "mine.json")
    assert again.data["evening"]["ledger"] == c.data["evening"]["ledger"]
    assert again.state()["data"]["view"] == c.state()["data"]["view"]


def test_the_play_table_asks_the_coach_and_reviews_the_deal() -> None:
    p = PlayController(3)
    p.receive({"sync": {"request": {"n": 1, "type": "review"}}})
    assert "not over" in p.data["error"]
    p.receive({"sync": {"request": {"n": 2, "type": "coach"}}})
    a = p.data["coach"]
    assert a is not None and a["seed"] == 3 + len(p.hand.actions) and a["rollouts"] == 200
    assert {m["action"] for m in a["moves"]} == set(p.legal)
    again = PlayController(3)
    assert again.ask_coach() == a  # seeded: the same question, the same answer
    while not p.over:
        p.choose(p.legal[-1])
    p.receive({"sync": {"request": {"n": 3, "type": "review"}}})
    assert p.data["review"] is not None and p.data["error"] is None


class EveningPair(Pair):
    """The evening of `seed` (four players) behind both back ends."""

    def __init__(self, seed: int) -> None:
        self.kind = "evening"
        self.w = EveningTable(seed, players=4, rollouts=5)
        spec = self.w.controller.live_spec()
        assert spec is not None
        made = json.loads(B.create("evening", json.dumps(spec["args"]), json.dumps(self.w.controller.state())))
        assert "error" not in made, made
        self.id = made["id"]
        self.page = made["state"]


class EveningBoth(RuleBasedStateMachine):
    """The evening through both back ends (the kernel's anywidget and the page's worker),
    fed the same messages: nothing escapes, the two agree, the counters are conserved."""

    @initialize(seed=st.sampled_from([MUST_SEED, 4, 9]))
    def make(self, seed: int) -> None:
        self.p = EveningPair(seed)
        self.n = 0

    def _req(self, **ev: Any) -> None:
        self.n += 1
        self.p.send({"sync": {"request": {**ev, "n": self.n}}})

    @rule(data=st.data())
    def choose(self, data: st.DataObject) -> None:
        keys = self.p.w.options or ["KH"]
        self._req(type="choose", key=data.draw(st.sampled_from(keys)))

    @rule(kind=st.sampled_from(["hint", "undo", "restart", "next", "coach", "review"]))
    def button(self, kind: str) -> None:
        self._req(type=kind)

    @rule()
    def finish_and_next(self) -> None:
        while self.p.w.legal:
            self._req(type="choose", key=self.p.w.legal[0])
        self._req(type="next")

    @rule(bad=st.sampled_from(SURELY_BAD) | st.builds(lambda s: {"sync": s}, JSON) | st.builds(lambda r: {"sync": {"request": r}}, JSON))
    def crafted(self, bad: Any) -> None:
        self.p.send(bad)

    @invariant()
    def consistent(self) -> None:
        if hasattr(self, "p"):
            self.p.same()
            ev = self.p.w.data["evening"]
            assert ev["total"] == 4 * 100
            assert len(ev["ledger"]) == ev["deal"] - 1 == len(ev["series"]) - 1
            h = self.p.w.hand
            assert h.to_act is None or h.to_act == 1

    def teardown(self) -> None:
        if hasattr(self, "p"):
            self.p.drop()


def test_the_evening_through_both_back_ends() -> None:
    EveningBoth.TestCase.settings = settings(
        max_examples=8, stateful_step_count=10, deadline=None, suppress_health_check=list(HealthCheck)
    )
    EveningBoth.TestCase().runTest()


# --- the terminal --------------------------------------------------------------------------------


def _keys(deals: int) -> str:
    """At most four decisions a deal (declare and three cards): '1' each, then Enter for the
    next deal ('1' at the deal's end only says the deal is over)."""
    return "c\n" + ("1\n" * 4 + "\n") * deals


def test_the_terminal_evening_driven_by_stdin() -> None:
    out = io.StringIO()
    ev = Evening(setup_of(MUST_SEED, 5, "hoffmann", 1))
    code = play_evening(ev, 3, io.StringIO(_keys(3)), out)
    text = out.getvalue()
    assert code == 0, text[-500:]
    assert "The coach:" in text and "Strategy, not law" in text
    assert "=== Deal 2: dealer seat 1, pool" in text and "a must: everybody plays" in text
    assert text.count("== Deal ") == 3 + 3  # three headers, three settlements
    assert "[R43]" in text and "Hoffmann" in text  # a settlement line with its rule and words
    ledger = text.rsplit("The ledger", 1)[1]
    rows = [line.split() for line in ledger.splitlines()[3:6]]
    assert [r[0] for r in rows] == ["1", "2", "3"]
    assert [int(x) for x in rows[-1][-5:]] == list(ev.table.history[-1].balances)


def test_the_terminal_evening_saves_and_the_command_resumes_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "ev.json"
    out = io.StringIO()
    ev = Evening(setup_of(MUST_SEED, 5, "hoffmann", 1))
    code = play_evening(ev, None, io.StringIO("1\n" * 4 + f"s {path}\nq\n"), out)
    assert code == 0 and "The evening is saved" in out.getvalue()
    saved = json.loads(path.read_text())
    monkeypatch.setattr("sys.stdin", io.StringIO(("1\n" * 4 + "\n") * 2))
    assert main(["play", "--resume", str(path), "--deals", "2"]) == 0
    text = capsys.readouterr().out
    assert "=== Deal 2" in text and "That was 2 deals" in text
    assert len(saved["deals"]) == 1


def test_play_deals_is_refused_out_of_range(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--deals", "0"]) == 2
    err = capsys.readouterr().err
    assert "--deals" in err and err.count("\n") == 1


def test_unlimited_loo_grows_to_its_cap_and_falls_back() -> None:
    """Unlimited loo (`loo_amount: pool_capped`, R49) at a cap of 9: the table (engine) makes
    each loo the pool's size up to the cap; seed 1, the learner playing his last legal move,
    reaches a pool of 12 (a loo of 9) and the pool falls back to the stake after a deal
    without a loo."""
    ev = Evening(setup_of(1, 5, {"preset": "hoffmann", "loo_amount": "pool_capped"}, 1, loo_cap=9))
    for _ in range(12):
        ev.advance()
        while not ev.over:
            ev.decide(ev.hand.legal_actions()[-1])
        ev.next_deal()
        assert ev.total() == 500
    history = ev.table.history
    for r in history:
        assert all(paid == min(r.pool, 9) for paid in r.settlement.loo_pays.values())
    pools = [r.pool for r in history]
    assert max(pools) == 12 and any(set(r.settlement.loo_pays.values()) == {9} for r in history)
    grown = [i for i, p in enumerate(pools) if p > 3]
    assert grown and any(pools[i + 1] == 3 for i in grown if i + 1 < len(pools))
