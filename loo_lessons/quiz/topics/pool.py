"""The `pool` questions: dividing the pool and the loos (R38–R40).

Built from a real position, answered by the engine; nothing here decides a rule.
"""

from __future__ import annotations

from typing import Any

from loo_lessons.engine.settle import Stakes
from loo_lessons.quiz.common import (
    Gen,
    ask,
    counts_mapping,
    declarations_words,
    played_out,
    table_words,
)
from loo_lessons.quiz.model import Question
from loo_lessons.quiz.money import money_question, tricks_words
from loo_lessons.quiz.positions import (
    scenario_of,
)

# === pool: dividing the pool and the loos, R38–R40 ================================================


def gen_pool(g: Gen) -> Question:
    rng = g.rng
    rules = g.rules()
    if g.level == 1:
        pool = 3 * rng.randint(1, 5)
        hand = played_out(g, rules, lambda n: Stakes.make(pool=pool, players=n))
        mapping = counts_mapping(hand, rules)
    else:
        peel_loo = g.chance(0.3)
        pool = (
            rng.choice([p for p in range(4, 22) if p % 3])
            if g.disagreement or not peel_loo or g.chance(0.5)
            else 3 * rng.randint(1, 6)
        )
        loo = 6 if peel_loo else None
        hand = played_out(g, rules, lambda n: Stakes.make(pool=pool, loo=loo, players=n))
        mapping = scenario_of(hand, rules)
    ins = list(hand.players_in)
    if g.level == 1:
        what = rng.choice(["receives", "pays", "next_pool"])
    else:
        what = rng.choices(["receives", "next_pool", "left_in_pool", "pays"], weights=[4, 3, 1, 1])[
            0
        ]
    seat: int | None = None
    if what == "receives":
        seat = rng.choice(hand.winners[:2] if g.level == 2 and g.chance(0.7) else ins)
    elif what == "pays":
        looed = [s for s in ins if s not in hand.winners]
        seat = rng.choice(looed if looed and g.chance(0.7) else ins)
    question: dict[str, Any] = {"ask": what}
    if seat is not None:
        question["seat"] = seat
    a = ask(g, mapping, question, rules)
    head = (
        f"{table_words(a.sc)} The pool holds {pool}"
        + (
            f"; a loo costs {a.sc.hand.setup.stakes.loo}"
            if a.sc.hand.setup.stakes.loo != a.sc.hand.setup.stakes.stake
            else ""
        )
        + f". Declarations: {declarations_words(a.sc)}. The hand is played: {tricks_words(a)}."
    )
    return money_question(g, a, what, seat, head)
