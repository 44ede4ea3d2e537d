"""One settlement verdict, cited the same way everywhere (issue 9, items 3–5), from the seeds.

Every line of a settlement (`Settlement.lines`) carries a rule id, a plain reason and the
book's words; the CLI text, `explain --json` (`settlement.lines`), the widgets' working, the
terminal game and the quizzes all read them. Golden cases:

- R54 [004] “in the event of his cards securing either of the tricks the amount won is left in
  the pool for the next deal.” — a player who looked at another's cards after standing;
- R63 [004] “if the player who transgressed wins either of the tricks his winnings must be
  left in the pool for the next deal.” — a player who transgressed in the play;
- R38 [000] “the pool is divided, in the proportion of one-third to each trick.” — under
  `pool_remainder: carry_forward` a hand taking all three tricks takes the whole pool;
- R49 [000] “it is customary to fix a _maximum_ beyond which no further advance shall be
  permitted.” — `pool_capped` without an agreed cap uses the decided default;
- R39 [000] “mulcted in the same amount as was originally placed in the pool” — said only
  when the loo charged is the stake.
"""

from __future__ import annotations

import io
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from _golden import HANDS5, MISS5, finish, make_hand

from loo_lessons.cli import main
from loo_lessons.engine.declare import Declaration
from loo_lessons.engine.game import Hand
from loo_lessons.engine.laws import Law
from loo_lessons.engine.options import DEFAULT_LOO_CAP_STAKES, DEFAULTS_DECIDED, preset
from loo_lessons.engine.penalties import Offence
from loo_lessons.engine.settle import LineKind, Stakes, settle
from loo_lessons.engine.sources import RULES
from loo_lessons.explain import explain_json, explain_text
from loo_lessons.explain.quotes import uncut
from loo_lessons.explain.settlement import settlement_lines
from loo_lessons.explain.table import settlement_working
from loo_lessons.explain.words import action_label, counters, quote_text, seat_name
from loo_lessons.quiz.derive import settlement_said
from loo_lessons.quiz.pool_sum import pool_data
from loo_lessons.scenario import load_file, loads
from loo_lessons.sim.bots import BOTS, bot_move
from loo_lessons.views.terminal import play_terminal

SCENARIOS = Path(__file__).parent.parent / "loo_lessons" / "scenarios"
PLAY5 = "play play play play play  AS 5D 7D 10D 4C  KS 6D 8D JD 5C  3C AC 9D QD 6C"


def _withheld_rules(lines: list[dict[str, Any]]) -> dict[int, str]:
    return {x["seat"]: x["rule_id"] for x in lines if x["kind"] == "withheld"}


# --- R54 or R63: one rule for one event, everywhere ----------------------------------------------


@pytest.mark.parametrize(
    ("name", "seat", "rule"),
    [("penalty-looked-after-standing", 2, "R54"), ("penalty-revoke-winnings-stay", 3, "R63")],
)
def test_withheld_winnings_cite_one_rule_in_every_view(
    name: str, seat: int, rule: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """R54: a peek after standing; R63: a transgression in the play. The JSON, the CLI text,
    the pool calculator's working and the quiz's explanation name the same rule."""
    path = SCENARIOS / f"{name}.yaml"
    sc = load_file(path)
    j = explain_json(sc)
    assert _withheld_rules(j["settlement"]["lines"]) == {seat: rule}
    line = next(x for x in j["settlement"]["lines"] if x["kind"] == "withheld")
    assert line["quote"] in {uncut(rule, q).text for q in RULES[rule].quotes}
    assert re.search(rf"\[{rule}\] Seat {seat}'s winnings of \d+ counters? stay", explain_text(sc))
    assert main(["explain", str(path), "--json"]) == 0
    cli = json.loads(capsys.readouterr().out)
    assert _withheld_rules(cli["settlement"]["lines"]) == {seat: rule}
    assert _withheld_rules(pool_data(sc)["working"]) == {seat: rule}
    assert f"({rule})" in settlement_said(j, seat, "receives")
    other = {"R54": "R63", "R63": "R54"}[rule]
    assert other not in _withheld_rules(j["settlement"]["lines"]).values()


def _played(offence: Offence, at: int) -> Hand:
    """Hoffmann's five-handed example played out, seat 2 penalised after `at` moves."""
    h = make_hand(HANDS5, MISS5)
    moves = PLAY5.split()
    for m in moves[:at]:
        h.apply(m)
    h.penalise(2, offence)
    for m in moves[at:]:
        h.apply(m)
    return h


@pytest.mark.parametrize(
    ("offence", "at", "rule"),
    [(Offence.LOOK_AT_ANOTHERS_HAND, 5, "R54"), (Offence.REVOKE, 6, "R63")],
)
def test_a_played_deal_and_the_play_widget_cite_the_same_rule(
    offence: Offence, at: int, rule: str
) -> None:
    """The same lines reach the play widget (settlement_working on the live hand)."""
    h = _played(offence, at)
    s = h.settlement
    assert s is not None and set(s.withheld) == {2}
    assert {x.seat: x.rule for x in s.lines if x.kind is LineKind.WITHHELD} == {2: rule}
    assert _withheld_rules(settlement_working(s, h, you=2)) == {2: rule}
    assert _withheld_rules(settlement_lines(s, h)) == {2: rule}


# --- R38 and V12: one reading of an odd pool, whoever takes the tricks ---------------------------

#: [000] R38: "the pool is divided, in the proportion of one-third to each trick. ... The first
#: takes two-thirds, and the second one-third." The book's stakes keep pools in threes; an odd
#: pool is V12's: `carry_forward` ("Any odd white counters must be left for the next pool") or
#: Peel's `early_tricks_preference` ("the winners of the first and second tricks have the
#: preference").
ODD_POOLS = range(3, 41)


@pytest.mark.parametrize("remainder", ["carry_forward", "early_tricks_preference"])
def test_R38_each_trick_takes_its_share_whoever_takes_three_two_or_one(remainder: str) -> None:
    """One rule for every pool 3–40 and every way the tricks fall: each trick takes its
    share (under carry_forward a third, rounded down, the odd counters staying, also from a
    hand that takes all three: 13 → 12 taken, 1 stays; 14 in two tricks → 8, 4 and 2 stay),
    and nothing is made or lost."""
    options = preset("hoffmann").with_(pool_remainder=remainder)
    for pool in ODD_POOLS:
        third, odd = divmod(pool, 3)
        if remainder == "carry_forward":
            shares, stays = [third] * 3, odd
        else:
            shares, stays = [third + (odd >= 1), third + (odd == 2), third], 0
        for winners in ([1, 1, 1], [1, 2, 1], [1, 1, 2], [2, 1, 1], [1, 2, 3]):
            s = settle(
                players=5,
                stakes=Stakes.make(pool=pool),
                options=options,
                players_in=(1, 2, 3, 4, 0),
                trick_winners=winners,
            )
            want: dict[int, int] = {}
            for i, w in enumerate(winners):
                want[w] = want.get(w, 0) + shares[i]
            assert s.receives == want and s.left_in_pool == stays, (pool, winners)
            assert sum(s.receives.values()) + s.left_in_pool == pool
            assert [x.amount for x in s.lines if x.kind is LineKind.ODD] == ([stays] if stays else [])
        # the count of tricks alone gives the same share to a hand that took all three
        counts = settle(
            players=5, stakes=Stakes.make(pool=pool), options=options, players_in=(1, 2, 3, 4, 0), tricks_won={1: 3}
        )
        assert counts.receives == {1: sum(shares)} and counts.left_in_pool == stays


def test_R38_the_issues_two_cases_under_carry_forward() -> None:
    """Issue 25.5: a sole winner of all three tricks of 13 and two tricks of 14, one rule."""
    options = preset("hoffmann")  # pool_remainder: carry_forward
    sweep = settle(players=5, stakes=Stakes.make(pool=13), options=options, players_in=(1, 2, 3, 4, 0), trick_winners=[1, 1, 1])
    assert sweep.receives == {1: 12} and sweep.left_in_pool == 1
    two = settle(players=5, stakes=Stakes.make(pool=14), options=options, players_in=(1, 2, 3, 4, 0), trick_winners=[1, 2, 1])
    assert two.receives == {1: 8, 2: 4} and two.left_in_pool == 2
    words = [x.reason for x in sweep.lines if x.kind is LineKind.TRICKS]
    assert words == ["He took all three tricks: three thirds, each rounded down."]


def test_R38_carry_forward_sweep_as_a_scenario() -> None:
    """[000] “the pool is divided, in the proportion of one-third to each trick.”"""
    sc = loads(
        """
players: 4
rules: hoffmann
pool: 10
declarations: {1: play, 2: play, 3: play, 0: play}
tricks_won: {1: 3}
"""
    )
    s = sc.final_settlement
    assert s is not None and s.receives == {1: 9} and s.left_in_pool == 1
    assert "receives 9 counters" in explain_text(sc)


# --- R49: a default maximum ------------------------------------------------------------------------


def test_R49_pool_capped_without_a_cap_plays_every_deal_to_the_end() -> None:
    """[000] “it is customary to fix a _maximum_ beyond which no further advance shall be
    permitted.” With no agreed cap the decided default (four stakes, options.py) applies:
    no deal ends in an AssertionError, and the loo is the pool up to that maximum."""
    assert DEFAULT_LOO_CAP_STAKES == 4 and Stakes.make().cap == 12 and Stakes.make(6).cap == 24
    assert "four stakes" in DEFAULTS_DECIDED["R49"]  # documented where decisions are listed
    assert Stakes.make(loo_cap=7).cap == 7
    opts = {"preset": "hoffmann", "loo_amount": "pool_capped"}
    for seed in range(30):
        h = Hand.from_seed(seed, 5, 0, opts)
        rng = random.Random(seed)
        while h.to_act is not None:
            h.apply(bot_move(h, BOTS["random-legal"], rng))
        s = h.settlement
        assert s is not None
        assert all(v == min(s.pool, 12) for v in s.loo_pays.values())
    big = settle(
        players=5,
        stakes=Stakes.make(pool=30),
        options=preset("hoffmann").with_(loo_amount="pool_capped"),
        players_in=(1, 2, 3, 4, 0),
        trick_winners=[1, 1, 2],
    )
    assert big.loo_pays == {3: 12, 4: 12, 0: 12}
    assert {x.rule for x in big.lines if x.kind is LineKind.LOO} == {"R49"}
    out = io.StringIO()
    assert play_terminal(3, 5, opts, 1, io.StringIO("1\n" * 12 + "\n"), out) == 0
    assert "== The deal is over ==" in out.getvalue()


def test_R49_the_play_widget_deals_capped_loo() -> None:
    """[000] “it is customary to fix a _maximum_ beyond which no further advance shall be permitted.”"""
    pytest.importorskip("traitlets")
    from loo_lessons.widgets.play import PlayTable

    t = PlayTable(3, 5, {"preset": "hoffmann", "loo_amount": "pool_capped"}, seat=1)
    while not t.over:
        t.choose(t.legal[0])
    assert t.hand.settlement is not None


# --- the words match the figures ---------------------------------------------------------------------


def test_R39_originally_staked_only_when_the_loo_is_the_stake() -> None:
    """[000] “The remaining three players are "looed," _i.e._ mulcted in the same amount as was originally placed in the pool”

    Peel's loo of 6 with a stake of 3 is the fixed loo agreed, not 'the amount originally staked'."""
    peel = load_file(SCENARIOS / "settle-peel-loo-of-six.yaml")
    loos = [x for x in explain_json(peel)["settlement"]["lines"] if x["kind"] == "loo"]
    assert loos and all("6 counters" in x["text"] for x in loos)
    assert not any("originally" in x["text"] or "originally" in x["reason"] for x in loos)
    assert all("fixed loo" in x["text"] and "stake was 3" in x["text"] for x in loos)
    # cited as the table's agreement (V8, Peel's page outside the seeds), neither R39's words
    # nor R02's (the dealer's stake)
    assert all(x["rule_id"] == "R39" and "full loo" in x["quote"] and "originally" not in x["quote"] for x in loos)
    assert all("Peel" in x["book"] and "outside the seed texts" in x["book"] for x in loos)
    s = finish(make_hand(HANDS5, MISS5), PLAY5)
    texts = [x["text"] for x in settlement_lines(s) if x["kind"] == "loo"]
    assert texts and all("pays 3 counters (the amount originally staked)" in t for t in texts)
    unlimited = finish(
        make_hand(HANDS5, MISS5, rules=preset("hoffmann").with_(loo_amount="pool")), PLAY5
    )
    assert {x.rule for x in unlimited.lines if x.kind is LineKind.LOO} == {"R46"}


def test_plurals_and_seat_names() -> None:
    assert counters(1) == "1 counter" and counters(2) == "2 counters"
    sc = load_file(SCENARIOS / "penalty-revoke-winnings-stay.yaml")
    text = explain_text(sc)
    assert "1 counter " in text or "1 counter." in text
    assert not re.search(r"\b1 counters\b|\(s\)", text)
    h = sc.hand
    assert seat_name(h, 0) == "seat 0 (the dealer)" and seat_name(h, 1) == "seat 1 (the elder hand)"
    assert seat_name(h, 1, you=1, capital=True) == "Seat 1 (you, the elder hand)"
    assert [action_label(d) for d in Declaration] == [
        "stand",
        "take miss",
        "throw up",
        "play the miss for the pool",
    ]


# --- explanations a teacher would sign ---------------------------------------------------------------

_ALLOWING = {
    Law.FREE_LEAD,
    Law.LEAD_TWO_DECLARED_EQUAL,
    Law.FOLLOW_ANY_OF_SUIT,
    Law.DISCARD,
    Law.DISCARD_NO_TRUMP,
    Law.MAY_STAND,
    Law.MAY_TAKE_MISS,
    Law.MAY_PASS,
    Law.MISS_FOR_POOL,
    Law.DEALER_MAY_STAND_OR_NOT,
}


@pytest.mark.parametrize("rules", ["hoffmann", "peel"])
@pytest.mark.parametrize("players", [2, 3, 5])
def test_every_refused_option_has_a_refusal_for_its_reason(rules: str, players: int) -> None:
    """A refused card is never explained by the sentence written for the allowed ones (e.g.
    R27's 'he may lead either of them' under a refused 9S)."""
    for seed in range(150):
        h = Hand.from_seed(seed, players, 0, rules)
        rng = random.Random(seed)
        while h.to_act is not None:
            v = h.verdict()
            assert not {law for _, law in v.forbidden} & _ALLOWING, (seed, v.forbidden)
            h.apply(bot_move(h, BOTS["random-legal"], rng))


def test_R27_refused_trump_reads_must_lead_the_highest() -> None:
    """[000] “If only two persons have declared to play, and the holder holds two or more trumps, he must lead the _highest_”"""
    j = explain_json(load_file(SCENARIOS / "lead-two-declared-equal-value.yaml"))
    assert j["why"]["rule"] == "two-declared-equal-value"
    for entry in j["illegal"].values():
        assert entry["rule_id"] == "R27" and "either of them" not in entry["reason"]
        assert "must lead the highest" in entry["reason"]


def test_a_trick_winners_lead_cites_R29() -> None:
    """[000] “The winner of each trick leads to the next. He is under the same obligations as
    the original leader”"""
    h = make_hand(HANDS5, MISS5)
    for m in PLAY5.split()[:10]:  # declarations and the first trick: seat 1 won it, leads
        h.apply(m)
    from loo_lessons.explain import leader_note
    from loo_lessons.quiz.pick import pick_question

    assert leader_note(h) is not None and leader_note(h)[0] == "R29"  # type: ignore[index]
    q = pick_question(h)
    assert "R29" in q["rule_ids"] and "(R29)" in q["explanation"]
    first = make_hand(HANDS5, MISS5)
    for m in PLAY5.split()[:5]:
        first.apply(m)
    assert leader_note(first) is None  # the first lead is the elder hand's (R21)
    path = SCENARIOS / "trump-after-trick-two-trumps-peel.yaml"  # seat 1 won trick 1, leads
    j = explain_json(load_file(path))
    assert j["leads_by"]["rule_id"] == "R29" and j["why"]["rule_id"] == "R31"
    assert "R29 — He won the last trick" in explain_text(load_file(path))
    assert "leads_by" not in explain_json(
        load_file(SCENARIOS / "lead-two-declared-equal-value.yaml")
    )


def test_under_a_preset_its_own_book_is_quoted() -> None:
    """R23 is stated by both books: Peel's preset quotes Peel, Hoffmann's quotes Hoffmann."""
    from loo_lessons.explain import law_json

    peel = law_json(Law.LEAD_ACE, preset("peel"))
    hoff = law_json(Law.LEAD_ACE, preset("hoffmann"))
    assert peel["source"].startswith("003") and "Peel" in peel["book"]
    assert hoff["source"].startswith("000") and "Hoffmann" in hoff["book"]
    # a rule only one book states keeps that book's words under either preset
    assert law_json(Law.FREE_LEAD, preset("hoffmann"))["source"].startswith("003")


def test_seed_markup_is_rendered_for_learners_and_kept_in_json() -> None:
    """`_i.e._` is italics, `{88}` a page mark, `[28]` a footnote mark: learners read plain
    words (text) or <em> (HTML); the JSON keeps the verbatim quote and its seed file."""
    from loo_lessons.explain.words import quote_html

    r39 = RULES["R39"].quote
    assert "_i.e._" in r39.text and "i.e. mulcted" in quote_text(r39)
    assert "<em>i.e.</em>" in quote_html(r39)
    r27 = RULES["R27"].quotes
    assert "[28]" not in quote_text(r27[1]) and "{88}" not in quote_text(r27[2])
    assert "With more than three" in quote_text(r27[2])
    j = explain_json(load_file(SCENARIOS / "lead-two-declared-equal-value.yaml"))
    assert "[28]" in j["why"]["quote"] and j["why"]["source"].endswith(".txt")
    assert "[28]" not in j["why"]["words"]
    text = explain_text(load_file(SCENARIOS / "lead-two-declared-equal-value.yaml"))
    assert "[28]" not in text and ".txt" not in text and "Hoyle's Games Modernized" in text


@pytest.mark.parametrize("path", sorted(SCENARIOS.glob("*.yaml")), ids=lambda p: p.stem)
def test_every_settlement_line_in_json_has_rule_reason_quote_and_text(path: Path) -> None:
    """`explain --json` adds `settlement.lines`: each line its kind, rule id, plain reason,
    the verbatim quote and its seed file, the book's name and the learner's sentence; the
    counters the lines pay out are the settlement's own."""
    j = explain_json(load_file(path))
    s = j.get("settlement")
    if s is None:
        return
    assert s["lines"], path.name
    for line in s["lines"]:
        assert line["rule_id"] in RULES and line["reason"] and line["text"], line
        if line["source"].startswith("outside:"):  # a variant's book (V8's agreed loo)
            assert "outside the seed texts" in line["book"], line
            continue
        # a rule's quote, whole: joined with its quotes that run on in the same sentence
        assert line["quote"] in {
            uncut(line["rule_id"], q).text for q in RULES[line["rule_id"]].quotes
        }
        assert line["source"].endswith(".txt") and ".txt" not in line["text"] + line["book"]
    paid = {x["seat"]: x["amount"] for x in s["lines"] if x["kind"] == "loo"}
    assert paid == {int(k): v for k, v in s["loo_pays"].items()}
    won = {x["seat"]: x["amount"] for x in s["lines"] if x["kind"] in ("tricks", "award")}
    kept = {x["seat"]: x["amount"] for x in s["lines"] if x["kind"] in ("withheld", "for_pool")}
    assert {k: v for k, v in won.items() if k not in kept} == {
        int(k): v for k, v in s["receives"].items()
    }
    assert kept == {int(k): v for k, v in s["withheld"].items()}
    assert [x["amount"] for x in s["lines"] if x["kind"] == "next_pool"] == [s["next_pool"]]


def test_R54_R63_quiz_explanations_cite_the_engines_rule_for_withheld_winnings() -> None:
    """[004] “in the event of his cards securing either of the tricks the amount won is left in the pool for the next deal.”
    [004] “if the player who transgressed wins either of the tricks his winnings must be left in the pool for the next deal.”

    A generated question about withheld winnings cites the rule of the engine's own line."""
    from loo_lessons.quiz import generate

    seen: set[str] = set()
    for seed in range(6):
        for q in generate("penalty", 30, seed=seed, level=2):
            d = q.to_json()
            j = explain_json(loads(json.dumps(d["scenario"])))
            withheld = _withheld_rules((j.get("settlement") or {}).get("lines", []))
            if not withheld or "receive" not in d["prompt"]:
                continue
            (rule,) = set(withheld.values())
            assert f"({rule})" in d["explanation"], (rule, d["explanation"])
            other = "R63" if rule == "R54" else "R54"
            assert f"({other})" not in d["explanation"], (rule, d["explanation"])
            seen.add(rule)
    assert seen == {"R54", "R63"}


def test_R19_a_miss_played_for_the_pool_that_took_no_trick_is_not_said_to_have_taken_one() -> None:
    """Issue 23 (lesson 4, "Two at the table"): the dealer's miss played for the pool took no
    trick, so "Every one who played took a trick" (R39) is false; the line says the miss took
    none and is never looed (R19 [000] “the proceeds of any tricks he may make remain in the
    pool”; A16)."""
    sc = loads(
        """
players: 3
dealer: 0
stake: 3
turn_up: 2H
declarations: {1: play, 2: pass, 0: play_miss_for_pool}
tricks_won: {1: 3}
"""
    )
    s = sc.final_settlement
    assert s is not None and s.looed == () and s.receives == {1: 3}
    (line,) = [x for x in s.lines if x.kind is LineKind.NOBODY_LOOED]
    assert line.rule == "R19" and "took none" in line.reason and "Every one who played took" not in line.reason
    text = explain_text(sc)
    assert "Every one who played took a trick" not in text and "took none" in text
    # when the miss did take a trick, the old words are true and stay
    took = loads(
        """
players: 3
dealer: 0
stake: 3
turn_up: 2H
declarations: {1: play, 2: pass, 0: play_miss_for_pool}
tricks_won: {1: 2, 0: 1}
"""
    ).final_settlement
    assert took is not None
    assert [x.rule for x in took.lines if x.kind is LineKind.NOBODY_LOOED] == ["R39"]
