"""The live table (loo_lessons.widgets.play.PlayTable) without a browser.

The learner plays one seat against bots through `choose(key)`, `hint()`, `undo()`,
`restart()`, `save(path)` and `PlayTable.load(path)`: exactly what the widget's buttons do.
Checked: whole deals under both presets end settled (and the transcript replays, every move
checked again by the engine); only legal options can be chosen, a forbidden one is refused
with its rule (positions found by their cards, the answer taken from the books: R18, R23);
the bots never move for the learner; the hint lists the legal options and cites rules; undo
goes back to the learner's previous decision and the bots then replay exactly; transcripts
round-trip; the terminal game and the widget play the same deal the same way; and random
click sequences (Hypothesis) never leave the game in an inconsistent state.
"""

from __future__ import annotations

import io
import json
import random
import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from loo_lessons import lessons
from loo_lessons.engine.cards import Card, Rank
from loo_lessons.engine.errors import IllegalAction, InputError, LooError
from loo_lessons.engine.game import Action, Hand
from loo_lessons.explain.table import action_key
from loo_lessons.scenario.errors import ScenarioError
from loo_lessons.scenario.transcripts import load_transcript
from loo_lessons.sim.bots import BOTS, SeatView
from loo_lessons.views.terminal import play_terminal
from loo_lessons.widgets import bundle
from loo_lessons.widgets.play import (
    Hint,
    IllegalChoice,
    PlayTable,
    SavedTranscript,
    UnknownChoice,
)

if TYPE_CHECKING:
    from playwright.sync_api import Browser

RULE_ID = re.compile(r"^R\d\d$")


def play_to_end(t: PlayTable, rng: random.Random) -> list[str]:
    """Choose at random among the learner's legal options until the deal is over."""
    chosen: list[str] = []
    while not t.over:
        assert t.my_turn  # the bots never leave a move of theirs waiting
        key = rng.choice(t.legal)
        t.choose(key)
        chosen.append(key)
    return chosen


def learner_moves(t: PlayTable) -> list[str]:
    return [m["key"] for m in t.moves() if m["seat"] == t.seat]


def ace_of_trumps_lead(players: int = 3) -> tuple[PlayTable, Card, list[Card]]:
    """A deal where the learner (seat 1, the elder hand) holds the ace of trumps, stands,
    and is to lead to trick 1."""
    for seed in range(2000):
        t = PlayTable(seed, players, "hoffmann", seat=1)
        mine = t.hand.held[1]
        aces = [c for c in mine if c.suit is t.hand.trumps and c.rank is Rank.ACE]
        if not aces or not t.my_turn:
            continue
        t.choose("play")
        if t.my_turn and not t.hand.winners and not t.hand.current_trick:
            return t, aces[0], [c for c in mine if c is not aces[0]]
    pytest.fail("no such deal in 2000 seeds")  # pragma: no cover


# --- whole deals ------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", ["hoffmann", "peel"])
def test_whole_deals_end_settled(rules: str) -> None:
    for seed in range(60):
        players = 2 + seed % 9
        seat = (seed * 7) % players
        t = PlayTable(seed, players, rules, seat=seat, dealer=seed % players)
        chosen = play_to_end(t, random.Random(seed))
        s = t.hand.settlement
        assert s is not None and t.over and t.legal == [] and t.data["over"]
        assert learner_moves(t) == chosen
        # the transcript replays with every move checked again by the engine
        again = load_transcript(t.transcript()).replay()
        assert again.settlement == s
        # the settlement shown is the engine's, with its working and the learner's result
        shown = t.data["settlement"]
        assert shown["result"] == s.receives.get(seat, 0) - s.loo_pays.get(seat, 0)
        assert shown["next_pool"] == s.next_pool
        assert any(w["rule_id"] == "R40" for w in shown["working"])  # next pool (R40)
        json.dumps(t.data)  # what the browser gets is plain JSON
        assert "The settlement" in t.static_html()


def test_a_passer_who_stays_out_pays_nothing() -> None:
    # [000] R39: only "the remaining players" who played and took no trick are looed; R07:
    # passing is "throwing up his hand altogether for that round"
    for seed in range(40):
        t = PlayTable(seed, 5, "hoffmann", seat=1)
        if t.my_turn and "pass" in t.legal:
            t.choose("pass")
            assert t.over and t.hand.settlement is not None
            assert t.data["settlement"]["pays"] == 0 and t.data["settlement"]["result"] == 0
            assert not t.data["settlement"]["looed"]
            return
    pytest.fail("the elder hand may always pass at a table of five")  # pragma: no cover


# --- only legal options -------------------------------------------------------------------------


def test_only_the_dealer_may_play_the_miss_for_the_pool() -> None:
    # R18 [000]: the dealer "is bound to take miss and play for the pool"; seat 1 is not
    # the dealer, so that declaration is refused, with its rule, and nothing happens
    t = PlayTable(5, 5, "hoffmann", seat=1)
    assert t.my_turn and t.hand.phase.value == "declare"
    before = list(t.hand.actions)
    with pytest.raises(IllegalChoice) as err:
        t.choose("play_miss_for_pool")
    assert isinstance(err.value, ValueError) and "R18" in str(err.value)
    assert err.value.law is not None and err.value.law["rule_id"] == "R18"
    assert t.hand.actions == before and t.decisions == 0
    assert t.tried == "play_miss_for_pool"  # the widget shows why not


def test_holding_the_ace_of_trumps_he_must_lead_it() -> None:
    # R23 [000]: "If he holds the ace of trumps he is bound to lead it"
    t, ace, others = ace_of_trumps_lead()
    assert t.legal == [ace.code]
    for c in others:
        with pytest.raises(IllegalChoice, match=r"R23"):
            t.choose(c.code)
        assert t.hand.current_trick == []  # nothing was played
    h = t.hint()
    assert h["legal"] == [ace.code]
    assert {f["key"] for f in h["forbidden"]} == {c.code for c in others}
    assert all(f["rule_id"] == "R23" and "bound to lead it" in f["quote"] for f in h["forbidden"])
    t.choose(ace.code.lower())  # keys are read like the terminal's: any case
    assert t.hand.completed_tricks()[0].plays[0] == (1, ace)


def test_unknown_keys_are_refused_with_the_options() -> None:
    t = PlayTable(3, 4, "peel", seat=2)
    assert t.my_turn
    for bad in ("zz", "", "11X", "JK"):
        with pytest.raises(KeyError) as err:
            t.choose(bad)
        assert isinstance(err.value, UnknownChoice)
    not_held = next(
        c for c in ("AS", "KS", "QS", "AH") if c not in [x.code for x in t.hand.held[2]]
    )
    with pytest.raises(KeyError, match="none of your options"):
        t.choose(not_held)
    play_to_end(t, random.Random(0))
    with pytest.raises(IllegalAction, match="over"):
        t.choose("play")
    with pytest.raises(IllegalAction, match="over"):
        t.hint()


# --- the bots ---------------------------------------------------------------------------------


class Spy:
    """A random-legal bot that records every seat it is asked to move for."""

    name = "spy"

    def __init__(self) -> None:
        self.asked: list[int] = []

    def choose(self, view: SeatView, legal: Sequence[Action], rng: random.Random) -> Action:
        self.asked.append(view.seat)
        return legal[rng.randrange(len(legal))]


@pytest.mark.parametrize("rules", ["hoffmann", "peel"])
def test_bots_never_act_for_the_learner(rules: str) -> None:
    for seed in range(40):
        players = 2 + seed % 7
        seat = seed % players
        spy = Spy()
        t = PlayTable(seed, players, rules, seat=seat, bots=spy)
        rng = random.Random(seed)
        chosen: list[str] = []
        while not t.over:
            k = rng.choice(t.legal)
            t.choose(k)
            chosen.append(k)
            if rng.random() < 0.3 and t.decisions:
                t.undo()
                chosen.pop()
        assert seat not in spy.asked
        for m in t.moves():
            assert (m["seat"] == seat) == (m["who"] == "you")
        assert learner_moves(t) == chosen


def test_bots_by_seat_and_their_personalities() -> None:
    t = PlayTable(4, 5, "hoffmann", seat=2, bots=["random-legal", "cautious", "bold", "sensible"])
    assert [p["who"] for p in t.data["players"]] == [
        "random-legal",
        "cautious",
        "you",
        "bold",
        "sensible",
    ]
    shown = t.players()._repr_html_()
    assert "Loves a gamble" in shown and "Hates being looed" in shown  # the bots' docstrings
    full = PlayTable(4, 3, seat=0, bots=[None, "bold", "cautious"])
    assert [p["who"] for p in full.data["players"]] == ["you", "bold", "cautious"]
    with pytest.raises(InputError, match="bots"):
        PlayTable(4, 5, bots=["bold", "bold"])
    with pytest.raises(InputError, match="unknown bot"):
        PlayTable(4, 5, bots="reckless")
    with pytest.raises(InputError, match="seat"):
        PlayTable(4, 5, seat=5)


def test_the_terminal_and_the_widget_play_the_same_deal_alike(tmp_path: Path) -> None:
    # both seed their bots with the deal's seed and ask them in the same order
    for seed in range(6):
        path = tmp_path / f"t{seed}.json"
        out = io.StringIO()
        rc = play_terminal(seed, 5, "hoffmann", 1, io.StringIO("1\n" * 12 + f"s {path}\n\n"), out)
        assert rc == 0
        t = PlayTable(seed, 5, "hoffmann", seat=1)
        while not t.over:
            t.choose(action_key(t.hand.legal_actions()[0]))  # the terminal's option 1
        assert json.loads(path.read_text())["actions"] == t.transcript()["actions"]
        reloaded = PlayTable.load(path)  # a terminal transcript loads too (seat 1 by default)
        assert reloaded.hand.settlement == t.hand.settlement


# --- the hint ---------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", ["hoffmann", "peel"])
def test_hint_lists_the_legal_options_and_cites_rules(rules: str) -> None:
    for seed in range(25):
        t = PlayTable(seed, 4, rules, seat=seed % 4)
        rng = random.Random(seed)
        while not t.over:
            h = t.hint()
            assert isinstance(h, Hint) and t.show_hint
            assert h["legal"] == t.legal
            assert sorted(h["legal"]) == sorted(action_key(a) for a in t.hand.legal_actions())
            assert [a["key"] for a in h["allowed"]] == h["legal"]
            assert set(h["legal"]) | {f["key"] for f in h["forbidden"]} == set(t.options)
            assert h["rule_ids"] and all(RULE_ID.match(r) for r in h["rule_ids"])
            for f in [*h["allowed"], *h["forbidden"]]:
                assert RULE_ID.match(f["rule_id"]) and f["reason"] and f["quote"] and f["book"]
            assert h["why"] is not None and RULE_ID.match(h["why"]["rule_id"])
            html = h._repr_html_()
            assert all(f["rule_id"] in html for f in h["forbidden"])
            assert t.data["hint"] == dict(h)
            t.choose(rng.choice(t.legal))
            assert not t.show_hint  # a move closes the hint: the next decision is new


def test_hint_after_a_trick_cites_trump_after_trick() -> None:
    # R30 [000]: the winner of a trick "is further bound to lead a trump, if he has one"
    for seed in range(400):
        t = PlayTable(seed, 3, "hoffmann", seat=1)
        rng = random.Random(seed)
        while t.my_turn:
            h = t.hint()
            leading = bool(t.hand.winners) and not t.hand.current_trick
            trumps = [c for c in t.hand.held[1] if c.suit is t.hand.trumps]
            plain = [c for c in t.hand.held[1] if c.suit is not t.hand.trumps]
            if leading and t.hand.winners[-1] == 1 and trumps and plain:
                assert set(h["legal"]) <= {c.code for c in trumps}
                assert any(f["rule_id"] == "R30" for f in h["forbidden"])
                return
            t.choose(rng.choice(t.legal))
    pytest.fail("no deal found")  # pragma: no cover


# --- undo, start again ------------------------------------------------------------------------


def test_undo_returns_to_the_previous_decision_and_the_bots_replay() -> None:
    for seed in range(30):
        t = PlayTable(seed, 5, "hoffmann", seat=1, bots="random-legal")
        rng = random.Random(seed)
        while not t.over:
            before = (list(t.hand.actions), t.legal, t.data["prompt"], t.data["view"])
            k = rng.choice(t.legal)
            t.choose(k)
            after = list(t.hand.actions)
            t.undo()
            assert (list(t.hand.actions), t.legal, t.data["prompt"], t.data["view"]) == before
            assert t.data["message"].startswith("Undone")
            t.choose(k)  # the same choice again: the bots (random!) answer the same way
            assert list(t.hand.actions) == after
        n = t.decisions
        t.undo()  # after the end too: back to the last decision
        assert t.my_turn and t.decisions == n - 1 and t.hand.settlement is None


def test_undo_with_nothing_to_undo_and_start_again() -> None:
    t = PlayTable(5, 5, "hoffmann", seat=1)
    with pytest.raises(LooError, match="nothing to undo"):
        t.undo()
    start = (list(t.hand.actions), t.legal)
    play_to_end(t, random.Random(1))
    t.restart()
    assert (list(t.hand.actions), t.legal, t.decisions) == (*start, 0)
    assert not t.data["can_undo"]


# --- save and load ----------------------------------------------------------------------------


@pytest.mark.parametrize("rules", ["hoffmann", "peel"])
def test_save_and_load_round_trip(tmp_path: Path, rules: str) -> None:
    for seed in range(12):
        players = 3 + seed % 5
        bots = ["bold", "cautious", "random-legal", "sensible"][seed % 4]
        t = PlayTable(seed, players, rules, seat=seed % players, bots=bots)
        rng = random.Random(seed)
        stop = rng.randrange(4)
        while not t.over and t.decisions < stop:
            t.choose(rng.choice(t.legal))
        saved = t.save(tmp_path / f"game{seed}.json")
        assert isinstance(saved, SavedTranscript) and Path(saved).exists()
        data = json.loads(saved.path.read_text())
        assert data["actions"] == t.hand.transcript().as_json()["actions"]
        assert data["learner"]["seat"] == t.seat
        assert "saved to" in t.data["message"]
        u = PlayTable.load(saved)
        assert u.seat == t.seat and list(u.hand.actions) == list(t.hand.actions)
        assert u.hand.options == t.hand.options and u.decisions == t.decisions
        assert u.data["view"] == t.data["view"] and u.legal == t.legal
        # both carry on alike: same choices, same bots, the same draws
        r1, r2 = random.Random(seed + 1), random.Random(seed + 1)
        play_to_end(t, r1)
        play_to_end(u, r2)
        assert t.transcript() == u.transcript()
        assert t.hand.settlement == u.hand.settlement
        # the reloaded game can undo back past the point it was saved at
        if u.decisions:
            u.undo()
            assert u.my_turn


def test_save_without_a_name_and_bad_files(tmp_path: Path) -> None:
    t = PlayTable(2, 4, "peel", seat=3)
    saved = t.save()
    try:
        assert saved.path.exists() and PlayTable.load(saved).legal == t.legal
        assert "Transcript saved to" in saved._repr_html_()
    finally:
        saved.path.unlink()
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(ScenarioError, match="transcript"):
        PlayTable.load(bad)
    bad.write_text(json.dumps({"players": 4}))
    with pytest.raises(ScenarioError, match="transcript"):
        PlayTable.load(bad)
    # a transcript with a move the rules forbid is refused by the engine's check, as a bad
    # file naming the move (the guarded reader replays every move before anything is built)
    good = t.transcript()
    good["actions"] = ["play_miss_for_pool"]
    bad.write_text(json.dumps(good))
    with pytest.raises(ScenarioError, match=r"transcript\.actions\[0\].*R18"):
        PlayTable.load(bad)


# --- the browser's requests and the static book -------------------------------------------------


def test_browser_requests_do_what_the_buttons_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    t = PlayTable(9, 5, "hoffmann", seat=1)
    twin = PlayTable(9, 5, "hoffmann", seat=1)
    n = 0

    def send(**ev: Any) -> None:
        nonlocal n
        n += 1
        t.request = {"n": n, **ev}

    k = t.legal[0]
    send(type="choose", key=k)
    twin.choose(k)
    assert t.hand.actions == twin.hand.actions and t.data == twin.data
    send(type="choose", key="zz")  # errors go into the data, never raised in a callback
    assert "none of your options" in t.data["error"]
    send(type="undo")
    assert t.data["error"] is None and t.decisions == 0
    send(type="undo")
    assert "nothing to undo" in str(t.data["error"])
    # a browser "save" writes only inside the working directory (issue 10: it could write
    # anywhere); a path elsewhere is refused in the widget, nothing written
    send(type="save", path="x.json")
    assert (tmp_path / "x.json").exists() and "saved to" in t.data["message"]
    outside = tmp_path.parent / f"{tmp_path.name}-outside.json"
    for where in (str(outside), f"../{outside.name}", "sub/../../y.json"):
        send(type="save", path=where)
        assert "working folder" in str(t.data["error"]) and not outside.exists()
    send(type="save", path="no/such/dir.json")
    assert t.data["error"]
    send(type="save", path="")
    assert len(list(tmp_path.glob("loo-seed9-*.json"))) == 1
    send(type="hint")
    assert t.show_hint


def test_static_fallback_shows_the_position_now() -> None:
    t = PlayTable(7, 5, "hoffmann", seat=1)
    bundle_ = t._repr_mimebundle_()
    assert bundle_ is not None
    page = bundle_[0]["text/html"]
    assert "once the engine has loaded in this page" in page and "live in JupyterLab" not in page
    assert 'data-loo-component="pick"' in page
    assert t.static()._repr_html_() == t.static_html()
    assert set(t.state()) == {"data", "request", "show_hint", "tried", "save_name"}
    play_to_end(t, random.Random(3))
    page = t.static_html()
    assert 'data-loo-component="table"' in page and "The settlement" in page


def test_the_table_hides_the_other_hands() -> None:
    t = PlayTable(11, 6, "peel", seat=4)
    rng = random.Random(11)
    while True:
        seats = {s["seat"]: s for s in t.data["view"]["seats"]}
        mine = [c.code for c in t.hand.held[4]]
        assert sorted(seats[4]["cards"] or []) == sorted(mine)
        assert all(s["cards"] is None for k, s in seats.items() if k != 4)
        if t.over:
            break
        t.choose(rng.choice(t.legal))


def test_component_module() -> None:
    code = bundle.esm("play")
    assert len(re.findall(r"^export default", code, re.M)) == 1
    assert "render({ model, el })" in code
    assert not re.search(r"^\s*import\b", code, re.M)
    src = (Path(bundle.__file__).parent / "js" / "play.js").read_text()
    assert set(re.findall(r"\bmodel\.(\w+)", src)) <= {"get", "set", "save_changes", "on"}


def test_lessons_play() -> None:
    t = lessons.play(8, players=4, rules="peel", seat=2)
    assert isinstance(t, PlayTable) and t.seat == 2 and t.hand.setup.players == 4
    assert t.hand.options == Hand.from_seed(8, 4, 0, "peel").options
    assert set(BOTS) == {"random-legal", "cautious", "bold", "sensible"}


# --- random clicks ----------------------------------------------------------------------------

EVENTS = st.lists(
    st.one_of(
        st.tuples(st.just("legal"), st.integers(0, 5)),
        st.tuples(st.just("option"), st.integers(0, 5)),
        st.tuples(st.sampled_from(["garbage", "hint", "undo", "restart", "save"]), st.just(0)),
    ),
    max_size=30,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(0, 10_000),
    st.integers(2, 8),
    st.sampled_from(["hoffmann", "peel"]),
    st.sampled_from(["random-legal", "cautious", "bold", "sensible"]),
    EVENTS,
)
def test_random_clicks(
    seed: int, players: int, rules: str, bots: str, events: list[tuple[str, int]]
) -> None:
    seat = seed % players
    t = PlayTable(seed, players, rules, seat=seat, bots=bots)
    stack: list[str] = []  # the learner's decisions, as the model of undo expects them
    saved: list[dict[str, Any]] = []
    for kind, i in events:
        if kind == "legal" and t.my_turn:
            k = t.legal[i % len(t.legal)]
            t.choose(k)
            stack.append(k)
        elif kind == "option" and t.my_turn:
            k = t.options[i % len(t.options)]
            if k in t.legal:
                t.choose(k)
                stack.append(k)
            else:
                with pytest.raises(IllegalChoice):
                    t.choose(k)
        elif kind == "garbage":
            with pytest.raises((KeyError, IllegalAction)):
                t.choose("not-a-card")
        elif kind == "hint":
            if t.my_turn:
                assert t.hint()["legal"] == t.legal
            else:
                with pytest.raises(IllegalAction):
                    t.hint()
        elif kind == "undo":
            if stack:
                t.undo()
                stack.pop()
            else:
                with pytest.raises(LooError):
                    t.undo()
        elif kind == "restart":
            t.restart()
            stack.clear()
        elif kind == "save":
            saved.append(t.transcript())
        # invariants after every click
        assert t.over or t.my_turn  # never a bot's move left waiting
        assert learner_moves(t) == stack and t.decisions == len(stack)
        assert t.data["can_undo"] == bool(stack)
        assert set(t.legal) <= set(t.options)
        assert (t.data["hint"] is not None) == t.my_turn
        assert (t.data["settlement"] is not None) == t.over
        json.dumps(t.data)
    for tr in saved:  # every transcript saved on the way replays under the engine's checks
        load_transcript(tr).replay()


# --- the component in a real browser ----------------------------------------------------------

BRIDGE = """\
function looBridgeModel(state) {
  const handlers = {};
  let pending = {};
  const fire = (key, value) => {
    for (const f of handlers["change:" + key] || []) f(model, value);
  };
  const model = {
    get(key) { return state[key]; },
    set(key, value) {
      const old = state[key];
      state[key] = value;
      pending[key] = value;
      if (old !== value) fire(key, value);
    },
    async save_changes() {
      const sent = pending;
      pending = {};
      const back = JSON.parse(await window.pySync(JSON.stringify(sent)));
      for (const [k, v] of Object.entries(back)) {
        if (JSON.stringify(state[k]) !== JSON.stringify(v)) { state[k] = v; fire(k, v); }
      }
    },
    on(events, f) {
      for (const e of String(events).split(/\\s+/)) (handlers[e] = handlers[e] || []).push(f);
    },
  };
  return model;
}
"""


def test_the_component_plays_a_deal_in_chromium(
    tmp_path: Path, browser: Browser, monkeypatch: pytest.MonkeyPatch
) -> None:
    """play.js in Chromium, its model synced with a PlayTable in this process (what the
    kernel does in JupyterLab): clicks on the cards play the whole deal."""
    monkeypatch.chdir(tmp_path)  # a browser "save" writes inside the working directory only
    t = PlayTable(9, 4, "hoffmann", seat=1)

    def sync(changes: str) -> str:
        for k, v in json.loads(changes).items():
            setattr(t, k, v)
        return json.dumps(t.state())

    page_html = (
        "<!DOCTYPE html><html><head><meta charset='utf-8'></head><body><div id='w'></div>"
        "<script type='module'>\n"
        + BRIDGE
        + bundle.script("play")
        + "\nconst model = looBridgeModel("
        + json.dumps(t.state())
        + ");\nwindow.looReady = true;\n"
        "__component.render({ model, el: document.getElementById('w') });\n</script>"
        "</body></html>"
    )
    path = tmp_path / "play.html"
    path.write_text(page_html, encoding="utf-8")
    errors: list[str] = []
    page = browser.new_page()
    try:
        page.expose_function("pySync", sync)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.goto(path.as_uri())
        page.wait_for_selector(".loo-play-prompt")

        def settle_dom() -> None:
            page.wait_for_function(
                "n => document.querySelector('.loo-play-prompt')"
                " && +document.querySelector('.loo-play-prompt').dataset.moves === n",
                arg=len(t.data["log"]),
            )

        # the learner's own cards are face up on the table, nobody else's
        mine = page.locator('[data-seat="1"] svg.loo-card-svg')
        assert mine.count() == 3
        assert page.get_by_role("img", name="face-down card").count() >= 3

        # no button for what only the dealer may do (R18: the miss played for the pool): a
        # button every other seat is always refused would test nothing (sim.asking.on_offer)
        assert page.locator('.loo-choices [data-key="play_miss_for_pool"]').count() == 0
        assert page.locator('.loo-choices [data-key="pass"]').count() == 1
        assert t.decisions == 0

        # the hint lists what may be declared and why
        page.locator('button[data-action="hint"]').click()
        page.wait_for_selector(".loo-hint")
        assert "R18" in page.locator(".loo-hint").inner_text()

        page.locator('.loo-choices [data-key="play"]').click()
        settle_dom()
        assert t.decisions == 1 and page.locator(".loo-hint").count() == 0
        page.locator('button[data-action="undo"]').click()
        settle_dom()
        assert t.decisions == 0
        while not t.over:
            key = t.legal[0]
            page.locator(f'.loo-choices [data-key="{key}"]').click()
            settle_dom()
        page.wait_for_selector(".loo-settlement")
        text = page.locator(".loo-settlement").inner_text()
        assert "R40" in text and "Your result this deal" in text
        page.locator(".loo-fold-save > summary").click()  # folded under the table
        page.locator("input.loo-save-name").fill("from-browser.json")
        page.locator('button[data-action="save"]').click()
        page.wait_for_selector(".loo-message")
        assert (tmp_path / "from-browser.json").exists()
        assert PlayTable.load(tmp_path / "from-browser.json").hand.settlement == t.hand.settlement
    finally:
        page.close()
    assert errors == []
