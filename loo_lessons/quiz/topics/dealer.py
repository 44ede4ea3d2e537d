"""The `dealer` questions: the dealer's special cases (R14–R19)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from loo_lessons.engine.declare import Declaration
from loo_lessons.engine.game import Hand
from loo_lessons.quiz.asking import Gen, Reject, ask, finish, legal_question
from loo_lessons.quiz.choices import seat_label
from loo_lessons.quiz.dealing import M, P, T, X, random_deal, reached_deal
from loo_lessons.quiz.model import Choice, Question, Verdict
from loo_lessons.quiz.money import money_question, tricks_words
from loo_lessons.quiz.positions import (
    Rules,
    declare_until,
    play_until,
    scenario_of,
    table_size,
    view_of,
)
from loo_lessons.quiz.prompts import declarations_words, table_words
from loo_lessons.quiz.verdicts import same_verdict

# === dealer: the dealer's special cases R14–R19 ==================================================


def _dealer_pattern(g: Gen, hand: Hand, pattern: str) -> None:
    """Declare the non-dealers so that `pattern` arises: R16 (only the miss-holder is in),
    R17 (exactly one stood on his own cards), R14 (everyone threw up) or plain."""
    rot = hand.rotation[:-1]
    k = g.rng.choice(rot)

    def w(h: Hand, seat: int) -> Mapping[Declaration, float]:
        if pattern == "plain":
            return {P: 5.0, T: 3.0, X: 2.0}
        if pattern == "R14":
            return {X: 1.0}
        if seat == k:
            return {T: 1.0} if pattern == "R16" else {P: 1.0}
        return {X: 1.0}

    declare_until(hand, g.rng, w, stop=lambda h: h.to_act == h.setup.dealer)


def _dealer_case(g: Gen, weights: Mapping[str, int], enquire: float) -> tuple[Rules, Hand]:
    """A deal brought to one of the dealer's special cases (pattern drawn by `weights`); a
    lone stander (R17) is played under Enquire Within's rule with chance `enquire`."""
    rng = g.rng
    pattern = rng.choices(list(weights), weights=list(weights.values()))[0]
    custom = (
        {"lone_stander_rule": "enquire_within"} if pattern == "R17" and g.chance(enquire) else None
    )
    rules = g.rules(custom)
    hand = random_deal(g, rules, 2, 6)
    _dealer_pattern(g, hand, pattern)
    return rules, hand


def gen_dealer(g: Gen) -> Question:
    """A `dealer` question: what the dealer may declare or must do in the dealer's special cases
    (R14-R19)."""
    rng = g.rng
    if g.level == 1:
        rules, hand = _dealer_case(g, {"R16": 35, "R17": 45, "plain": 20}, 0.25)
        dealer = hand.setup.dealer
        if hand.to_act != dealer:
            raise Reject("the dealer is not to declare")
        mapping = scenario_of(hand, rules, hands=[dealer])
        a = ask(g, mapping, {"ask": "legal"}, rules)
        sc = a.sc
        return legal_question(
            g,
            a,
            prompt=f"{table_words(sc)} Declarations: {declarations_words(sc)}. The dealer, "
            f"seat {dealer}, is to declare. Which declarations may he make? Select all that "
            "are allowed.",
            subject=f"The dealer (seat {dealer})",
            verb="declare",
        )
    what = rng.choices(["outcome", "miss_for_pool"], weights=[3, 2])[0]
    if what == "outcome":
        rules, hand = _dealer_case(g, {"R14": 25, "R16": 30, "R17": 30, "plain": 15}, 0.3)
        dealer = hand.setup.dealer
        if hand.to_act == dealer:
            legal = [d for d in hand.legal_actions() if isinstance(d, Declaration)]
            hand.apply(rng.choices(legal, weights=[3.0 if d is X else 1.0 for d in legal])[0])
        mapping = scenario_of(hand, rules)
        a = ask(g, mapping, {"ask": "outcome"}, rules)
        sc = a.sc
        h = sc.hand
        contenders = [
            s for s in h.rotation if s == dealer or (s in h.declared and h.declared[s].plays)
        ]
        keys = ["play", *[str(s) for s in contenders]]
        choices = (
            Choice("play", "Nobody: the hand is played out"),
            *[
                Choice(str(s), f"{seat_label(sc, s)} takes the pool without play")
                for s in contenders
            ],
        )
        ans = a.answer[0]
        if h.award_law is not None:
            law = h.award_law
            right = f"{law.reason} Seat {ans} takes the whole pool ({law.rule})."
            verdicts = {
                k: Verdict.from_law(law, k == ans, right if k == ans else f"No. {right}")
                for k in keys
            }
        else:
            right = (
                f"{len(h.players_in)} players are in (seats "
                f"{', '.join(str(s) for s in h.players_in)}): nobody takes the pool without play; "
                "the elder hand among them leads (R21) and the pool is divided by tricks (R38)."
            )
            verdicts = same_verdict(keys, a.answer, "R21", "hand-is-played", right, f"No. {right}")
        return finish(
            g,
            a,
            kind="pick_option",
            prompt=f"{table_words(sc)} Declarations: {declarations_words(sc)}. "
            "What happens to the pool?",
            choices=choices,
            verdicts=verdicts,
            explanation=right,
            rule_ids=("R14", "R15", "R16", "R17", "R18"),
            view=view_of(sc, ()),
        )
    # R19: the dealer plays the miss for the pool against a lone stander
    rules = g.rules()
    n = table_size(rng, 2, 6)
    hand = reached_deal(g, rules, n)
    pool = hand.setup.stakes.pool
    _dealer_pattern(g, hand, "R17")
    if hand.to_act != hand.setup.dealer or M not in hand.legal_actions():
        raise Reject("the dealer cannot play the miss for the pool")
    hand.apply(M)
    play_until(hand, rng)
    mapping = scenario_of(hand, rules)
    sub = rng.choices(["left_in_pool", "pays"], weights=[3, 1])[0]
    dealer = hand.setup.dealer
    question: dict[str, Any] = {"ask": sub}
    if sub == "pays":
        question["seat"] = dealer
    a = ask(g, mapping, question, rules)
    sc = a.sc
    count = int(a.answer[0])
    if sub == "left_in_pool":
        wrong = [0, pool, pool // 3, 2 * pool // 3, count + pool // 3]
    else:
        wrong = [sc.hand.setup.stakes.loo, pool, pool // 3, 3]
    head = (
        f"{table_words(sc)} The pool holds {pool}. Declarations: {declarations_words(sc)}. "
        f"The hand is played: {tricks_words(a)}."
    )
    # the settlement's own lines: the miss for the pool (R19), the pool's division (R38)
    return money_question(
        g,
        a,
        sub,
        dealer if sub == "pays" else None,
        head,
        wrong=wrong,
        rule_ids=("R18", "R19", "R38"),
    )
