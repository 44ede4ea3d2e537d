"""The quiz generators (loo_lessons/quiz/): every question answerable, unambiguous, and right.

Each generated question is checked three ways:

1. its shape: exactly the question schema, answer ⊆ choice keys, one verdict per choice with
   `correct == (key in answer)`, rule ids that exist (R01–R63), quotes verbatim in the seeds;
2. against the engine: its scenario loads with `scenario.load` (and through YAML), and the
   answer re-read here from `explain_json` / the settlement / the penalty records agrees;
3. against the books: small oracles written here from the rules digest (deal order R03–R05,
   trick winner R37, leading R23–R31, following R32–R36, the dealer's cases R14–R18, money
   R38–R49, penalties R50–R63). They do not call loo_lessons.engine.play or loo_lessons.engine.cards.beats.
"""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from collections.abc import Sequence
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from loo_lessons.cli import main
from loo_lessons.engine.options import PRESETS
from loo_lessons.engine.settle import AGREED_LOO_RULE
from loo_lessons.engine.settle import OUTSIDE_QUOTES as ENGINE_OUTSIDE_QUOTES
from loo_lessons.engine.sources import RULES, SEED_FILES, seed_text
from loo_lessons.explain import explain_json
from loo_lessons.explain.words import quote_text
from loo_lessons.quiz import (
    DISAGREEMENT_TOPICS,
    LEVELS,
    TOPICS,
    Question,
    bench_bank,
    generate,
)
from loo_lessons.quiz.results import COLUMNS, ResultLog, load_csv, result_for, save_csv
from loo_lessons.scenario import Scenario, dump, load, loads
from loo_lessons.views import frames
from loo_lessons.widgets.static import decoded_html

QUESTION_KEYS = {
    "id",
    "topic",
    "level",
    "preset",
    "rules",
    "prompt",
    "view",
    "scenario",
    "kind",
    "choices",
    "multi",
    "answer",
    "verdicts",
    "explanation",
    "rule_ids",
}
VIEW_KEYS = {
    "players",
    "dealer",
    "elder",
    "turn_up",
    "trumps",
    "pool",
    "seats",
    "miss",
    "trick",
    "tricks",
    "to_act",
}
SEAT_KEYS = {"seat", "role", "status", "declaration", "cards", "tricks_won"}
# `words` (the quote rendered for the page) beside the verbatim `quote`: added deliberately
VERDICT_KEYS = {"correct", "rule", "rule_id", "reason", "source", "quote", "words", "book"}
KINDS = {"pick_card", "pick_declaration", "pick_seat", "pick_number", "pick_option"}
RANKS = {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10}
RANKS |= {"J": 11, "Q": 12, "K": 13, "A": 14}
SEED_OF_FILE = {f: s for s, f in SEED_FILES.items()}


def ws(text: str) -> str:
    return " ".join(text.split())


SEEDS_TEXT = {s: ws(seed_text(s)) for s in SEED_FILES}
#: seed markup a page must never show: page marks {87}, italics _i.e._
MARKUP = re.compile(r"\{\d+\}|(^|\W)_\w[^_]*_(\W|$)")
#: quotes of books outside the seeds: only laws and lines that a variant makes cite them
OUTSIDE_QUOTES = {q.text for q in ENGINE_OUTSIDE_QUOTES}


# --- little card helpers written from R01 (not the package's) ---------------------------------


def rank(code: str) -> int:
    return RANKS[code[:-1]]


def suit(code: str) -> str:
    return code[-1]


def naive_winner(plays: Sequence[Sequence[Any]], trumps: str) -> int:
    """R37: the highest trump, else the highest card of the suit led."""
    led = suit(plays[0][1])
    trumped = [p for p in plays if suit(p[1]) == trumps]
    pool = trumped or [p for p in plays if suit(p[1]) == led]
    return int(max(pool, key=lambda p: rank(p[1]))[0])


def beats_now(card: str, plays: Sequence[Sequence[Any]], trumps: str) -> bool:
    """Would `card` head the trick so far (beat the card now winning)?"""
    w = naive_winner(plays, trumps)
    best = next(c for s, c in plays if s == w)
    if suit(card) == suit(best):
        return rank(card) > rank(best)
    return suit(card) == trumps


# --- the book oracles ------------------------------------------------------------------------


def lead_oracle(
    hand: list[str], trumps: str, turn_up: str, preset: str, later: bool, players_in: int
) -> set[str] | None:
    """R23–R31 for a preset; None where the oracle does not decide (R27 equal value)."""
    tr = sorted((c for c in hand if suit(c) == trumps), key=rank, reverse=True)
    if tr and rank(tr[0]) == 14:
        return {tr[0]}  # R23
    if tr and rank(turn_up) == 14 and suit(turn_up) == trumps and rank(tr[0]) == 13:
        return {tr[0]}  # R24
    if not tr:
        return set(hand)  # R28 (and no trump to lead after a trick)
    if len(tr) == 1:
        return {tr[0]} if later else set(hand)  # R30 / R28
    if preset == "peel":
        return {tr[0]}  # R26, R31
    if players_in == 2:
        return None  # R27's sequence exception: checked below only loosely
    return set(tr)  # R25 (and R29: the same obligations after a trick)


def follow_oracle(
    hand: list[str], plays: Sequence[Sequence[Any]], trumps: str, preset: str
) -> set[str]:
    """R32–R36 for a preset (A8: once trumped, any card of the suit led follows; A9: under
    Hoffmann a player who cannot over-trump must still trump)."""
    led = suit(plays[0][1])
    of_suit = [c for c in hand if suit(c) == led]
    if of_suit:
        if preset == "peel":
            return set(of_suit)  # R32, R34
        heads = [c for c in of_suit if beats_now(c, plays, trumps)]
        return set(heads or of_suit)  # R33
    tr = [c for c in hand if suit(c) == trumps]
    heads = [c for c in tr if beats_now(c, plays, trumps)]
    if preset == "peel":
        return set(heads or hand)  # R36
    return set(heads or tr or hand)  # R35


def deal_order(players: int, dealer: int, with_miss: bool, first: bool) -> list[str]:
    """R03/R05: one card at a time from the elder hand round to the left, dealer last; the miss
    last in each round (or first, with miss_deal_position: first_each_round)."""
    seats = [str((dealer + 1 + i) % players) for i in range(players)]
    if not with_miss:
        return seats
    return ["miss", *seats] if first else [*seats, "miss"]


# --- re-deriving the answer from the engine ----------------------------------------------------


def engine_answer(q: dict[str, Any], sc: Scenario, j: dict[str, Any]) -> list[str]:
    """The answer, read here from the engine's output for the question's scenario."""
    ask = q["scenario"]["question"]
    what = ask["ask"]
    s = j.get("settlement")
    if what == "legal":
        return list(j["legal"])
    if what == "to_act":
        return [str(j["to_act"])]
    if what == "deal_card":
        card = q["scenario"]["deck"][ask["index"]]
        if card == j["turn_up"]:
            return ["turn_up"]
        if j["miss"] and card in j["miss"]:
            return ["miss"]
        return [k for k, cards in j["hands"].items() if card in cards]
    if what == "trumps":
        return [j["trumps"]]
    if what == "stock":
        return [str(j["stock_remaining"])]
    if what == "outcome":
        if s is not None and s["pool_awarded_to"] is not None:
            return [str(s["pool_awarded_to"])]
        assert j["phase"] == "play"
        return ["play"]
    if what == "trick_winner":
        return [str(j["tricks"][ask["trick"]]["winner"])]
    assert what not in ("receives", "pays", "next_pool") or s is not None
    if what == "receives":
        return [str(s["receives"].get(str(ask["seat"]), 0))]  # type: ignore[index]
    if what == "pays":
        return [str(s["loo_pays"].get(str(ask["seat"]), 0))]  # type: ignore[index]
    if what in ("next_pool", "left_in_pool"):
        return [str(s[what])]  # type: ignore[index]
    if what == "next_is_must":
        return ["yes" if s["next_is_must"] else "no"]  # type: ignore[index]
    if what == "looed_count":
        return [str(len(s["looed"]))]  # type: ignore[index]
    if what == "penalty" and "card" in ask:
        card = ask["card"]
        if card in j["legal"]:
            return ["legal"]
        pen = j["illegal"][card]["penalty"]
        return [f"{pen['size']}/{pen['destination']}"]
    recs = [p for p in sc.hand.penalties if p.seat == ask["seat"]]
    assert len(recs) == 1
    r = recs[0]
    if what == "penalty":
        return [f"{r.ruling.size}/{r.ruling.destination}"]
    if what == "penalty_amount":
        return [str(r.amount)]
    if what == "consequences":
        return sorted(str(c) for c in r.ruling.consequences)
    raise AssertionError(f"unknown ask {what}")


# --- the checks --------------------------------------------------------------------------------


def check_shape(q: dict[str, Any]) -> None:
    assert set(q) == QUESTION_KEYS
    assert q["topic"] in TOPICS and q["kind"] in KINDS and q["level"] in LEVELS
    assert re.fullmatch(rf"{q['topic']}-\d+-\d+", q["id"])
    assert q["preset"] in (None, "hoffmann", "peel")
    assert set(q["rules"]) == set(PRESETS["hoffmann"].options.to_dict())
    if q["preset"] is not None:
        assert q["rules"] == PRESETS[q["preset"]].options.to_dict()
    else:
        assert all(q["rules"] != p.options.to_dict() for p in PRESETS.values())
    assert q["prompt"].strip() and q["explanation"].strip()
    keys = [c["key"] for c in q["choices"]]
    assert len(keys) >= 2 and len(set(keys)) == len(keys)
    assert all(set(c) == {"key", "label"} and c["label"] for c in q["choices"])
    assert all(";" not in k and " " not in k for k in keys)
    assert q["answer"] and set(q["answer"]) <= set(keys)
    assert len(set(q["answer"])) == len(q["answer"])
    if not q["multi"]:
        assert len(q["answer"]) == 1
    assert set(q["verdicts"]) == set(keys)
    for k, v in q["verdicts"].items():
        assert set(v) == VERDICT_KEYS
        assert v["correct"] is (k in q["answer"])
        assert v["rule_id"] in RULES and v["rule"] and v["reason"] and v["book"]
        if v["source"].startswith("outside:"):  # a variant's book (V7, V8), named as outside
            assert "outside the seed texts" in v["book"], v
            assert v["quote"] in OUTSIDE_QUOTES and v["rule_id"] in ("R17", AGREED_LOO_RULE), v
        else:
            assert ws(v["quote"]) in SEEDS_TEXT[SEED_OF_FILE[v["source"]]], v["quote"]
        # what the page shows: the same words, seed markup (_i.e._, {87}) rendered
        assert v["words"] == quote_text(v["quote"])
        assert not MARKUP.search(v["words"]), v["words"]
        assert not MARKUP.search(v["reason"]), v["reason"]
    assert not MARKUP.search(q["explanation"]), q["explanation"]  # quotes in it are words
    assert q["rule_ids"] and all(
        re.fullmatch(r"R(0[1-9]|[1-5]\d|6[0-3])", r) for r in q["rule_ids"]
    )
    assert all(r in RULES for r in q["rule_ids"])
    assert len(set(q["rule_ids"])) == len(q["rule_ids"])
    # the view
    v = q["view"]
    assert set(v) == VIEW_KEYS
    assert len(v["seats"]) == v["players"] == q["scenario"]["players"]
    for seat in v["seats"]:
        assert set(seat) == SEAT_KEYS
        assert seat["role"] in ("dealer", "elder", None)
        assert seat["status"] in ("in", "out", "to_declare", None)
    assert v["miss"] in (None, "taken") or isinstance(v["miss"], list)
    if q["kind"] in ("pick_card",) and v["to_act"] is not None:
        # the learner sees the cards he is asked about, and only that seat's hand
        shown = [s for s in v["seats"] if s["cards"] is not None]
        assert [s["seat"] for s in shown] == [v["to_act"]]
        assert sorted(shown[0]["cards"]) == sorted(keys)
    if q["kind"] == "pick_seat":  # whose turn, who wins, who receives: the table marks no seat
        assert v["to_act"] is None
    if q["topic"] == "trick" and q["kind"] == "pick_seat":
        assert v["trick"]  # the winner is not given away
        assert {str(s) for s, _ in v["trick"]} == set(keys)
    # the scenario is annotated, and its annotation agrees
    sc = q["scenario"]
    assert sc["topic"] == q["topic"] and sc["level"] == q["level"]
    assert sorted(sc["answer"]) == sorted(q["answer"]) and sc["rule_ids"] == q["rule_ids"]


def check_engine(q: dict[str, Any]) -> tuple[Scenario, dict[str, Any]]:
    sc = load(q["scenario"])
    j = explain_json(sc)
    assert sorted(engine_answer(q, sc, j)) == sorted(q["answer"])
    assert sc.options.to_dict() == q["rules"]
    if (
        q["kind"] in ("pick_card", "pick_declaration")
        and q["scenario"]["question"]["ask"] == "legal"
    ):
        # every option the seat has is a choice, and the verdicts name the engine's laws
        options = sorted(j["legal"]) + sorted(j["illegal"])
        assert sorted(c["key"] for c in q["choices"]) == sorted(options)
        for k, entry in j["illegal"].items():
            assert q["verdicts"][k]["rule_id"] == entry["rule_id"]
            assert q["verdicts"][k]["rule"] == entry["rule"]
    return sc, j


def check_books(q: dict[str, Any], sc: Scenario, j: dict[str, Any]) -> None:
    """Book oracles for the rule the question is about (where the rules are a preset)."""
    ask = q["scenario"]["question"]
    what = ask["ask"]
    preset = q["preset"]
    ans = set(q["answer"])
    h = sc.hand
    if what == "deal_card":
        data = q["scenario"]
        with_miss = not data.get("must", False)
        first = q["rules"]["miss_deal_position"] == "first_each_round"
        order = deal_order(data["players"], data["dealer"], with_miss, first)
        i = ask["index"]
        expect = "turn_up" if i == 3 * len(order) else order[i % len(order)]
        assert ans == {expect}
    elif what == "trumps":
        data = q["scenario"]
        n = data["players"] + (0 if data.get("must") else 1)
        assert ans == {suit(data["deck"][3 * n])}  # R04
    elif what == "stock":
        data = q["scenario"]
        miss = 0 if data.get("must") else 3
        assert ans == {str(52 - 3 * data["players"] - miss - 1)}  # R01, R03, R04
    elif what == "trick_winner":
        trick = q["scenario"]["tricks"][ask["trick"]]
        assert ans == {str(naive_winner(trick, j["trumps"]))}
    elif what == "to_act" and j["phase"] == "declare":
        rot = [(h.setup.dealer + 1 + i) % h.setup.players for i in range(h.setup.players)]
        assert ans == {str(rot[len(q["scenario"].get("declarations", {}))])}  # R05
    elif what == "legal" and j["phase"] == "declare":
        decl = q["scenario"].get("declarations", {})
        seat = j["to_act"]
        if q["scenario"].get("must"):
            assert ans == {"play"}  # R43, R45
        elif any(p["seat"] == seat for p in q["scenario"].get("penalties", [])):
            assert ans == {"pass"}  # R53
        elif seat != h.setup.dealer:
            taken = "take_miss" in decl.values()
            assert ans == ({"play", "pass"} if taken else {"play", "pass", "take_miss"})  # R06-R09
        else:
            standers = [s for s, d in decl.items() if d == "play"]
            takers = [s for s, d in decl.items() if d == "take_miss"]
            if not standers and takers:
                assert ans == {"play", "pass"}  # R16
            elif len(standers) == 1 and not takers and q["rules"]["lone_stander_rule"] == "seeds":
                assert ans == {"play", "take_miss", "play_miss_for_pool"}  # R17, R18
            elif len(standers) == 1 and not takers:
                assert ans == {"play", "take_miss", "pass"}  # Enquire Within (V7)
            else:
                assert ans == ({"play", "pass"} if takers else {"play", "take_miss", "pass"})
    elif what == "legal" and preset is not None:
        seat = j["to_act"]
        hand = q["scenario"]["hands"][str(seat)]
        tricks = q["scenario"]["tricks"]
        current = tricks[-1] if tricks and len(tricks[-1]) < len(h.players_in) else []
        if current:
            assert ans == follow_oracle(hand, current, j["trumps"], preset)
        else:
            later = bool(tricks)
            expect = lead_oracle(hand, j["trumps"], j["turn_up"], preset, later, len(h.players_in))
            if expect is not None:
                assert ans == expect
            else:  # R27: the highest, or a trump of equal value with it
                tr = sorted((c for c in hand if suit(c) == j["trumps"]), key=rank, reverse=True)
                assert tr[0] in ans and ans <= set(tr)
    elif what == "outcome":
        decl = q["scenario"]["declarations"]
        others = {s: d for s, d in decl.items() if int(s) != h.setup.dealer}
        if all(d == "pass" for d in others.values()):
            assert ans == {str(h.setup.dealer)}  # R14
        elif decl.get(str(h.setup.dealer)) == "pass" and sorted(
            d for d in others.values() if d != "pass"
        ) == ["take_miss"]:
            taker = next(s for s, d in others.items() if d == "take_miss")
            assert ans == {taker}  # R15, R16
        elif sum(1 for d in decl.values() if d != "pass") >= 2:
            assert ans == {"play"}
    s = j.get("settlement")
    if s is not None and what in ("receives", "pays", "next_pool", "left_in_pool"):
        st_ = h.setup.stakes
        # R40 (dealer-only ante): loos + what stays + penalties for the next deal + the stake
        assert (
            s["next_pool"]
            == sum(s["loo_pays"].values())
            + s["left_in_pool"]
            + st_.stake
            + s["penalties_to_next_pool"]
        )
        # counters are conserved: the pool = what is received + what stays
        assert sum(s["receives"].values()) + s["left_in_pool"] == s["pool"]
        for seat in h.players_in:
            won = s["tricks_won"].get(str(seat), 0)
            looed = won == 0 and seat != h.for_pool
            assert (str(seat) in s["loo_pays"]) == looed  # R39, R19
        if q["rules"]["loo_amount"] == "fixed":
            assert all(v == st_.loo for v in s["loo_pays"].values())  # R39
        elif q["rules"]["loo_amount"] == "pool":
            assert all(v == s["pool"] for v in s["loo_pays"].values())  # R46
        else:
            assert all(v == min(s["pool"], st_.loo_cap) for v in s["loo_pays"].values())  # R49
        if what == "receives" and s["pool"] % 3 == 0 and not s["withheld"]:
            won = s["tricks_won"].get(str(ask["seat"]), 0)
            if ask["seat"] != h.for_pool:
                assert ans == {str(s["pool"] // 3 * won)}  # R38
    if what == "next_is_must":
        won = s["tricks_won"]  # type: ignore[index]
        single = len(h.players_in) == 3 and all(won.get(str(x), 0) == 1 for x in h.players_in)
        assert ans == {"yes" if single and q["rules"]["single_makes_must"] else "no"}  # R41-R43
    if what == "looed_count":
        n = h.setup.players
        assert int(q["answer"][0]) >= n - 3  # R44
    if what in ("penalty", "penalty_amount", "consequences") and "card" not in ask:
        off = next(p["offence"] for p in q["scenario"]["penalties"] if p["seat"] == ask["seat"])
        declared = q["scenario"].get("declarations", {}).get(str(ask["seat"])) in (
            "play",
            "take_miss",
        )
        st_ = h.setup.stakes
        if off in (
            "look_at_own_cards_early",
            "declare_out_of_turn",
            "look_at_miss",
            "look_at_thrown_up",
            "look_at_stock",
        ):
            size, dest, amount = "single_loo", "pool_now", st_.single_loo  # R50, R51
            cons = {"may_still_play"}  # R52
        elif off == "look_at_anothers_hand":
            size, dest, amount = "full_loo", "pool_now", st_.loo  # R53, R54 (A20)
            cons = {"must_play_on", "winnings_withheld"} if declared else {"must_throw_up"}
        else:
            size, dest, amount = "full_loo", "next_pool", st_.loo  # R61
            cons = {"replay", "winnings_withheld"}  # R62, R63
        if what == "penalty":
            assert ans == {f"{size}/{dest}"}
        elif what == "penalty_amount":
            assert ans == {str(amount)}
            if s is not None:
                assert (
                    s["penalties_paid_now" if dest == "pool_now" else "penalties_to_next_pool"]
                    == amount
                )
        else:
            assert ans == cons
    if what == "penalty" and "card" in ask:
        if ask["card"] in j["legal"]:
            assert ans == {"legal"}
        else:
            rid = j["illegal"][ask["card"]]["rule_id"]
            take_back = j["illegal"][ask["card"]]["rule"] in ("head-the-trick", "under-trump")
            assert ans == ({"none/nowhere"} if take_back else {"full_loo/next_pool"}), rid  # R61


def level_of(q: dict[str, Any], sc: Scenario) -> int:
    """What makes a question level 2, per topic, read from the position itself."""
    data = q["scenario"]
    ask = data["question"]
    what = ask["ask"]
    topic = q["topic"]
    h = sc.hand
    if topic == "deal":
        n = data["players"] + (0 if data.get("must") else 1)
        return 2 if what == "stock" or (what == "deal_card" and ask["index"] >= n) else 1
    if topic == "declare":
        taken = "take_miss" in data.get("declarations", {}).values()
        return 2 if data.get("penalties") or taken else 1
    if topic == "dealer":
        return 1 if what == "legal" else 2
    if topic == "lead":
        ace_up = data["turn_up"][:-1] == "A"
        return 2 if len(h.players_in) == 2 or ace_up else 1
    if topic == "follow":
        plays = data["tricks"][-1]
        held = data["hands"][str(q["view"]["to_act"])]
        void = all(suit(c) != suit(plays[0][1]) for c in held)
        return 2 if void and any(suit(c) == suit(data["turn_up"]) for c in held) else 1
    if topic == "trick":
        return 1 if what == "trick_winner" else 2
    if topic == "pool":
        return 2 if "tricks" in data else 1
    if topic == "must":
        return 1 if what in ("legal", "next_is_must") else 2
    assert topic == "penalty"
    return 2 if what in ("consequences", "receives") or "card" in ask else 1


def check_question(q: Question) -> None:
    qj = q.to_json()
    assert json.loads(json.dumps(qj)) == qj  # plain JSON
    assert Question.from_json(qj).to_json() == qj
    check_shape(qj)
    sc, j = check_engine(qj)
    check_books(qj, sc, j)
    assert level_of(qj, sc) == qj["level"], qj["id"]
    # the scenario is a scenario file too: through YAML it gives the same answer
    sc2 = loads(dump(qj["scenario"]))
    assert sorted(engine_answer(qj, sc2, explain_json(sc2))) == sorted(qj["answer"])


# --- the properties ----------------------------------------------------------------------------

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("topic", TOPICS)
def test_every_question_is_answerable_and_right(topic: str) -> None:
    @SETTINGS
    @given(
        seed=st.integers(0, 2**63 - 1),
        level=st.sampled_from([None, 1, 2]),
        preset=st.sampled_from([None, "hoffmann", "peel"]),
    )
    def prop(seed: int, level: int | None, preset: str | None) -> None:
        for q in generate(topic, 2, seed, preset=preset, level=level):
            check_question(q)
            assert q.topic == topic
            if level is not None:
                assert q.level == level
            if preset is not None:
                assert q.preset == preset

    prop()


@pytest.mark.parametrize("topic", DISAGREEMENT_TOPICS)
def test_disagreement_questions_are_right_too(topic: str) -> None:
    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(seed=st.integers(0, 2**63 - 1), preset=st.sampled_from([None, "hoffmann", "peel"]))
    def prop(seed: int, preset: str | None) -> None:
        for q in generate(topic, 1, seed, preset=preset, disagreement=True):
            check_question(q)

    prop()


@pytest.mark.parametrize("topic", TOPICS)
def test_same_seed_same_questions(topic: str) -> None:
    a = [q.to_json() for q in generate(topic, 12, 2024)]
    b = [q.to_json() for q in generate(topic, 12, 2024)]
    assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
    # question i does not depend on how many are asked
    assert [q.to_json() for q in generate(topic, 5, 2024)] == a[:5]
    # and another seed gives other questions
    c = [q.to_json() for q in generate(topic, 12, 2025)]
    assert [x["scenario"] for x in c] != [x["scenario"] for x in a]


def test_same_seed_same_json_in_a_fresh_interpreter() -> None:
    code = (
        "import json; from loo_lessons.quiz import generate;"
        "print(json.dumps([q.to_json() for q in generate('follow', 4, 99)], sort_keys=True))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    here = json.dumps([q.to_json() for q in generate("follow", 4, 99)], sort_keys=True)
    assert out.stdout.strip() == here


@pytest.mark.parametrize("topic", TOPICS)
def test_many_distinct_questions(topic: str) -> None:
    qs = generate(topic, 200, 7)
    pairs = {(q.prompt, json.dumps(q.scenario, sort_keys=True)) for q in qs}
    assert len(pairs) >= 150, len(pairs)
    assert len({q.id for q in qs}) == 200


@pytest.mark.parametrize("topic", TOPICS)
def test_both_levels(topic: str) -> None:
    mixed = generate(topic, 60, 3)
    assert {q.level for q in mixed} == set(LEVELS)
    for lvl in LEVELS:
        qs = generate(topic, 15, 5, level=lvl)
        assert {q.level for q in qs} == {lvl}


@pytest.mark.parametrize("preset", ["hoffmann", "peel"])
@pytest.mark.parametrize("topic", TOPICS)
def test_preset_filter(topic: str, preset: str) -> None:
    for q in generate(topic, 25, 11, preset=preset):
        assert q.preset == preset
        assert q.rules == PRESETS[preset].options.to_dict()
        assert q.scenario["rules"] == {"preset": preset}
        assert load(q.scenario).options == PRESETS[preset].options
        assert q.prompt.startswith(  # and ", with Peel's penalties (…)" when it cites them
            f"Under {'Hoffmann' if preset == 'hoffmann' else 'Peel'}'s rules"
        )


def test_without_a_filter_both_books_and_custom_rules_appear() -> None:
    presets = {q.preset for t in TOPICS for q in generate(t, 40, 12)}
    assert {"hoffmann", "peel", None} <= presets


def _answer_under(q: dict[str, Any], preset: str) -> list[str]:
    data = dict(q["scenario"])
    data["rules"] = {**data["rules"], "preset": preset}
    sc = load(data)
    return sorted(engine_answer(q, sc, explain_json(sc)))


@pytest.mark.parametrize("topic", DISAGREEMENT_TOPICS)
def test_disagreement_mode_really_disagrees(topic: str) -> None:
    for preset in (None, "hoffmann", "peel"):
        for q in generate(topic, 12, 31, disagreement=True, preset=preset):
            qj = q.to_json()
            hoff, peel = _answer_under(qj, "hoffmann"), _answer_under(qj, "peel")
            assert hoff != peel, qj["id"]
            mine = hoff if q.scenario["rules"]["preset"] == "hoffmann" else peel
            assert mine == sorted(q.answer)
            assert "Hoffmann's rules" in q.explanation and "Peel's rules" in q.explanation
            assert "disagree" in q.explanation
            if preset is not None:
                assert q.preset == preset


@pytest.mark.parametrize("topic", [t for t in TOPICS if t not in DISAGREEMENT_TOPICS])
def test_disagreement_mode_refuses_topics_where_the_books_agree(topic: str) -> None:
    with pytest.raises(ValueError, match="never disagree"):
        generate(topic, 1, 0, disagreement=True)


def test_the_books_agree_where_disagreement_is_refused() -> None:
    """Those topics really never disagree: every question asked under one book gets the same
    answer under the other (so refusing disagreement mode for them is right)."""
    for topic in [t for t in TOPICS if t not in DISAGREEMENT_TOPICS]:
        for q in generate(topic, 40, 17):
            if q.preset is None:
                continue  # custom rules: not a preset question
            qj = q.to_json()
            assert _answer_under(qj, "hoffmann") == _answer_under(qj, "peel"), qj["id"]


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="unknown topic"):
        generate("bluff", 1, 0)
    with pytest.raises(ValueError, match="unknown preset"):
        generate("lead", 1, 0, preset="hoyle")
    with pytest.raises(ValueError, match="unknown level"):
        generate("lead", 1, 0, level=3)
    with pytest.raises(ValueError, match="never disagree"):
        generate("trick", 1, 0, level=1, disagreement=True)
    assert generate("lead", 0, 0) == []


def test_question_refuses_an_inconsistent_answer() -> None:
    qj = generate("follow", 1, 5)[0].to_json()
    wrong = [c["key"] for c in qj["choices"] if c["key"] not in qj["answer"]]
    bad = dict(qj, answer=[wrong[0]] if wrong else ["nope"])
    with pytest.raises(ValueError):
        Question.from_json(bad)
    bad = dict(qj, verdicts={k: v for k, v in list(qj["verdicts"].items())[:-1]})
    with pytest.raises(ValueError):
        Question.from_json(bad)
    bad = dict(qj, rule_ids=["R99"])
    with pytest.raises(ValueError):
        Question.from_json(bad)


def test_grading() -> None:
    q = generate("follow", 1, 5)[0]
    assert q.multi and q.grade(list(q.answer)) and q.grade(list(reversed(q.answer)))
    wrong = [c.key for c in q.choices if c.key not in q.answer]
    if wrong:
        assert not q.grade([*q.answer, wrong[0]])
    single = generate("trick", 1, 5, level=1)[0]
    assert not single.multi and single.grade(single.answer[0])
    other = next(c.key for c in single.choices if c.key not in single.answer)
    assert not single.grade(other) and not single.grade([single.answer[0], other])


# --- golden checks from the books on hand-made positions ---------------------------------------


def test_known_positions() -> None:
    """A few generated questions checked by hand against the books' own words."""
    for q in generate("lead", 200, 1):
        j = q.to_json()
        hand = j["scenario"]["hands"][str(j["view"]["to_act"])]
        trumps = j["view"]["trumps"]
        ace = f"A{trumps}"
        if ace in hand:  # R23: "If he holds the ace of trumps he is bound to lead it"
            assert j["answer"] == [ace]
            assert all(v["rule_id"] == "R23" for v in j["verdicts"].values())
    for q in generate("must", 60, 1, level=1):
        if q.scenario["question"]["ask"] == "legal":  # R45: "there is no miss"
            assert q.answer == ("play",)
            assert q.verdicts["take_miss"].rule_id == "R45"
            assert q.verdicts["pass"].rule_id == "R43"


# --- the CLI -----------------------------------------------------------------------------------


def _run(argv: list[str]) -> tuple[int, str]:
    buf = io.StringIO()
    with redirect_stdout(buf):
        code = main(argv)
    return code, buf.getvalue()


def test_cli_json() -> None:
    code, out = _run(["quiz", "--topic", "lead", "--count", "3", "--seed", "7", "--json"])
    assert code == 0
    data = json.loads(out)
    assert set(data) == {"topic", "seed", "questions"}
    assert data["topic"] == "lead" and data["seed"] == 7
    assert data["questions"] == [q.to_json() for q in generate("lead", 3, 7)]
    for qj in data["questions"]:
        check_question(Question.from_json(qj))


def test_cli_filters() -> None:
    code, out = _run(
        [
            "quiz",
            "--topic",
            "follow",
            "--count",
            "4",
            "--seed",
            "1",
            "--rules",
            "peel",
            "--level",
            "2",
            "--disagree",
            "--json",
        ]
    )
    assert code == 0
    qs = json.loads(out)["questions"]
    assert len(qs) == 4
    assert all(q["preset"] == "peel" and q["level"] == 2 for q in qs)
    assert all("Hoffmann's rules" in q["explanation"] for q in qs)
    assert qs == [
        q.to_json() for q in generate("follow", 4, 1, preset="peel", level=2, disagreement=True)
    ]


def test_cli_refuses_what_cannot_be(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["quiz", "--topic", "deal", "--count", "2", "--disagree", "--json"]) == 2
    assert "never disagree" in capsys.readouterr().err
    assert main(["quiz", "--topic", "deal", "--rules", "hoyle", "--json"]) == 2
    assert "unknown preset" in capsys.readouterr().err


def test_cli_text() -> None:
    code, out = _run(["quiz", "--topic", "trick", "--count", "2", "--seed", "3"])
    assert code == 0
    for q in generate("trick", 2, 3):
        assert q.id in out and q.prompt in out


def test_cli_html(tmp_path: Path) -> None:
    out = tmp_path / "quiz.html"
    code, _ = _run(["quiz", "--topic", "pool", "--count", "3", "--seed", "2", "--html", str(out)])
    assert code == 0 and out.exists()
    page = decoded_html(out.read_text(encoding="utf-8"))
    assert page.lstrip().lower().startswith("<!doctype html")
    for q in generate("pool", 3, 2):
        assert q.id in page


# --- results -----------------------------------------------------------------------------------


def test_results_frame_and_csv_round_trip(tmp_path: Path) -> None:
    import pandas as pd

    log = ResultLog()
    qs = generate("follow", 3, 4) + generate("pool", 2, 4) + generate("declare", 2, 4)
    expected = []
    for i, q in enumerate(qs):
        wrong = [c.key for c in q.choices if c.key not in q.answer]
        given = list(q.answer) if i % 2 == 0 or not wrong else [wrong[0]]
        r = log.record(q, given, seconds=1.5 + i)
        expected.append(q.grade(given))
        assert r.correct == q.grade(given)
    frame = frames.quiz_results(log.results)  # quiz/ is plain Python; the frame is a view
    assert list(frame.columns) == list(COLUMNS)
    assert len(frame) == len(qs)
    assert list(frame["correct"]) == expected
    assert list(frame["topic"]) == [q.topic for q in qs]
    assert list(frame["question_id"]) == [q.id for q in qs]
    assert list(frame["rule_ids"]) == [";".join(q.rule_ids) for q in qs]
    assert frame["seconds"].dtype == "float64" and frame["correct"].dtype == bool
    path = log.to_csv(tmp_path / "results.csv")
    assert load_csv(path) == log.results  # plain results round-trip exactly
    pd.testing.assert_frame_equal(frames.quiz_results_csv(path), frame)
    # results saved directly round-trip too
    path2 = save_csv(log.results, tmp_path / "again.csv")
    pd.testing.assert_frame_equal(frames.quiz_results_csv(path2), frame)
    summary = frames.quiz_summary(frame)
    assert int(summary["answers"].sum()) == len(qs)
    # a JSON question (as the browser has it) is graded the same way
    r = result_for(qs[0].to_json(), list(qs[0].answer), 2.0)
    assert r.correct and r.question_id == qs[0].id


def test_verdict_words_render_the_seed_markup() -> None:
    """A quote with `_i.e._` (italics in the seed) is shown without the marks; the verbatim
    quote stays beside it for the check against the seed."""
    marked = [
        v
        for t in ("pool", "must")
        for q in generate(t, 12, 1)
        for v in q.to_json()["verdicts"].values()
        if "_i.e._" in v["quote"]
    ]
    assert marked, "some loo verdict quotes Hoffmann's '_i.e._ mulcted'"
    for v in marked:
        assert "i.e. mulcted" in v["words"] and "_i.e._" not in v["words"]


def test_results_refuse_bad_input(tmp_path: Path) -> None:
    q = generate("lead", 1, 1)[0]
    with pytest.raises(ValueError):
        result_for(q, ["a;b"], 1.0)
    with pytest.raises(ValueError):
        result_for(q, list(q.answer), -1.0)
    bad = tmp_path / "bad.csv"
    bad.write_text("a,b\n1,2\n", encoding="utf-8")
    with pytest.raises(ValueError, match="missing columns"):
        load_csv(bad)


def test_quiz_imports_no_jupyter_and_no_pandas() -> None:
    code = (
        "import sys, loo_lessons.quiz, loo_lessons.quiz.results;"
        "loo_lessons.quiz.generate('penalty', 3, 1);"
        "print(','.join(m for m in ('pandas','ipywidgets','anywidget','IPython') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_bench_bank_reports_seconds() -> None:
    t = bench_bank("deal", n=5)
    assert isinstance(t, float) and t > 0


# --- nothing in a question gives its answer away, and its book has its laws (issue 23) -----------


def test_no_seat_choice_label_names_a_role() -> None:
    """Lesson 3's quiz: a choice labelled "(the elder hand)" answered every "nobody has declared
    yet" question. Over many seeds of every topic, a seat's choice is "Seat N", never with the
    role ("(the elder hand)", "(the dealer)") the question may ask for."""
    seen = 0
    for topic in TOPICS:
        for seed in range(4):
            for q in generate(topic, 25, seed):
                seats = [c for c in q.choices if c.key.isdigit() and c.label.startswith("Seat")]
                if seats:
                    seen += 1
                    assert all(c.label.startswith(f"Seat {c.key}") and "(" not in c.label for c in seats), q.id
                for c in q.choices:
                    assert "elder" not in c.label and "(the dealer)" not in c.label, q.id
    assert seen > 20  # the seat questions were met


def test_every_questions_stated_book_has_the_laws_it_cites() -> None:
    """An R53 question (Peel's law, seed 004) was asked "Under Hoffmann's rules". Every penalty
    law (R50–R63) a question cites is quoted from a book its prompt names."""
    from loo_lessons.engine.sources import RULES

    named = {"Hoffmann's": {"000"}, "Peel's": {"003", "004"}}
    met = 0
    for topic in ("penalty", "declare", "dealer"):
        for seed in range(6):
            for q in generate(topic, 30, seed, preset="hoffmann"):
                books = {s for word, seeds in named.items() if word in q.prompt.split(":")[0] for s in seeds}
                for r in q.rule_ids:
                    if r in {f"R{n}" for n in range(50, 64)}:
                        met += 1
                        assert any(x.seed in books for x in RULES[r].quotes), (q.id, r, q.prompt[:80])
    assert met > 10
