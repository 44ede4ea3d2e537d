"""The `declare` questions: the legal declarations given the earlier ones, and whose turn it is
(R05–R09, R53)."""

from __future__ import annotations

from typing import Any

from loo_lessons.engine.game import Phase
from loo_lessons.engine.laws import Law
from loo_lessons.quiz.asking import Gen, Reject, ask, finish, legal_question
from loo_lessons.quiz.choices import seat_choices
from loo_lessons.quiz.dealing import T, random_deal
from loo_lessons.quiz.model import Question, Verdict
from loo_lessons.quiz.positions import DEFAULT_WEIGHTS, declare_until, scenario_of, view_of
from loo_lessons.quiz.prompts import declarations_words, table_words

# === declare: legal declarations given earlier declarations ======================================


def gen_declare(g: Gen) -> Question:
    """A `declare` question: the legal declarations given the earlier ones, or whose turn it is
    (R05-R08); at level 2 after the miss was taken (R09) or a look at another's cards (R53)."""
    rng = g.rng
    rules = g.rules()
    lo, hi = (3, 7) if g.level == 2 else (2, 6)
    hand = random_deal(g, rules, lo, hi)
    n, dealer = hand.setup.players, hand.setup.dealer
    # level 1: whose turn, or the declarations while the miss is untaken (R05–R08);
    # level 2: after the miss was taken (R09), or after looking at another's cards (R53)
    what = rng.choices(["legal", "to_act"], weights=[3, 1])[0] if g.level == 1 else "legal"
    forced = g.level == 2 and g.chance(0.5)
    stop_at = rng.randrange(0, n - 1)  # a seat before the dealer
    if g.level == 2 and not forced:
        stop_at = rng.randrange(1, n - 1)
    weights = dict(DEFAULT_WEIGHTS)
    weights[T] = 4.0 if g.level == 2 and not forced else (0.0 if g.level == 1 else 2.0)
    declare_until(hand, rng, weights, stop=lambda h: len(h.declared) >= stop_at)
    if hand.phase is not Phase.DECLARE or hand.to_act is None or hand.to_act == dealer:
        raise Reject("not a non-dealer to declare")
    seat = hand.to_act
    if g.level == 2 and not forced and hand.miss_holder is None:
        raise Reject("level 2: the miss should be taken already")
    extra: dict[str, Any] = {}
    if forced:
        extra["penalties"] = [{"seat": seat, "offence": "look_at_anothers_hand"}]
    mapping = scenario_of(hand, rules, hands=[seat], extra=extra)
    if what == "to_act":
        a = ask(g, mapping, {"ask": "to_act"}, rules)
        sc = a.sc
        ans = a.answer[0]
        right = (
            f"Declaring starts with the elder hand, seat {sc.hand.setup.elder}, and goes round "
            f"to the left; the dealer, seat {dealer}, declares last (R05). "
            f"{len(sc.hand.declared)} have declared, so seat {ans} is next."
        )
        keys = [str(s) for s in range(n)]
        verdicts = {
            k: Verdict.from_law(
                Law.DECLARE_IN_TURN, k == ans, right if k == ans else f"No. {right}"
            )
            for k in keys
        }
        return finish(
            g,
            a,
            kind="pick_seat",
            prompt=f"{table_words(sc)} Declarations so far: {declarations_words(sc)}. "
            "Whose turn is it to declare?",
            choices=seat_choices(sc, range(n)),
            verdicts=verdicts,
            explanation=right,
            rule_ids=("R05",),
            view=view_of(sc, (), to_act=False),  # the table must not mark the answer
        )
    a = ask(g, mapping, {"ask": "legal"}, rules)
    sc = a.sc
    peek = f" Seat {seat} has looked at another player's cards." if forced else ""
    return legal_question(
        g,
        a,
        prompt=f"{table_words(sc)} Declarations so far: {declarations_words(sc)}.{peek} "
        f"Seat {seat} is to declare. Which declarations may he make? Select all that are allowed.",
        subject=f"Seat {seat}",
        verb="declare",
    )
