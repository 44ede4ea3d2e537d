"""The `lead` questions: which card may be led to the first trick (R23–R28)."""

from __future__ import annotations

from collections.abc import Mapping

from loo_lessons.engine.cards import Rank
from loo_lessons.engine.declare import Declaration
from loo_lessons.engine.game import Hand, Phase
from loo_lessons.quiz.asking import Gen, Reject, ask, legal_question
from loo_lessons.quiz.dealing import PLAYERS_IN, M, P, T, X, random_deal, trumps_held
from loo_lessons.quiz.model import Question
from loo_lessons.quiz.positions import deal, declare_until, scenario_of, seat_words
from loo_lessons.quiz.prompts import declarations_words, table_words, trumps_words

# === lead: which card may be led, R23–R28 =========================================================


def gen_lead(g: Gen) -> Question:
    """A `lead` question: which card may be led to the first trick (R23-R28): with many in, two in,
    or the ace of trumps turned up."""
    rng = g.rng
    rules = g.rules()
    variant = "many" if g.level == 1 else rng.choice(["two_in", "ace_turned"])
    lo, hi = (3, 7) if variant == "many" else (2, 6)
    hand = random_deal(g, rules, lo, hi)
    n, dealer = hand.setup.players, hand.setup.dealer
    if variant == "ace_turned":
        for _ in range(40):
            if hand.turn_up is not None and hand.turn_up.rank == Rank.ACE:
                break
            hand = deal(rng, rules, n, dealer)
        else:
            raise Reject("no ace turned up")
    trumps = hand.trumps
    rot = hand.rotation[:-1]  # the leader is never the dealer (R14 would end the deal)

    def weight(seat: int) -> float:
        cards = list(hand.held[seat])
        t = trumps_held(cards, trumps)
        if g.disagreement:
            return 1.0 + 20.0 * (t >= 2)
        king = any(c.suit is trumps and c.rank == Rank.KING for c in cards)
        return 1.0 + 3.0 * t + (6.0 if variant == "ace_turned" and king else 0.0)

    leader = rng.choices(rot, weights=[weight(s) for s in rot])[0]

    def w(h: Hand, seat: int) -> Mapping[Declaration, float]:
        before = h.rotation.index(seat) < h.rotation.index(leader)
        if before:
            return {X: 1.0}
        if seat == leader:
            return {P: 6.0, T: 1.0}
        if variant == "two_in":
            return {X: 1.0} if seat != h.setup.dealer else {P: 5.0, T: 2.0, M: 1.0}
        return PLAYERS_IN

    declare_until(hand, rng, w)
    if hand.phase is not Phase.PLAY or hand.to_act != leader:
        raise Reject("the chosen seat does not lead")
    k = len(hand.players_in)
    if variant == "many" and (
        k < 3 or (hand.turn_up is not None and hand.turn_up.rank == Rank.ACE)
    ):
        raise Reject("level 1 wants three or more players in, and no ace turned up")
    if variant == "two_in" and k != 2:
        raise Reject("level 2 wants exactly two in")
    t = trumps_held(list(hand.held[leader]), trumps)
    if not g.disagreement and (
        (t == 0 and not g.chance(0.25)) or (variant == "two_in" and t < 2 and not g.chance(0.3))
    ):
        raise Reject("an uninstructive lead")
    mapping = scenario_of(hand, rules, extra={"tricks": []})
    a = ask(g, mapping, {"ask": "legal"}, rules)
    sc = a.sc
    ins = ", ".join(str(s) for s in sc.hand.players_in)
    return legal_question(
        g,
        a,
        prompt=f"{table_words(sc)} {trumps_words(sc)} Declarations: {declarations_words(sc)}; "
        f"so {k} players are in (seats {ins}). {seat_words(sc, leader).capitalize()} leads to the "
        "first trick. Which cards may he lead? Select every card he may lead.",
        subject=f"Seat {leader}",
        verb="lead",
    )
