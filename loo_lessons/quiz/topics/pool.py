"""The `pool` questions: dividing the pool and the loos (R38–R40).

The pool is the one a table reached by playing deals under the named rules (`positions.reach`);
an odd pool comes from a single loo paid into it at once (R50–R52), as it does at a real table.
"""

from __future__ import annotations

from typing import Any

from loo_lessons.quiz.asking import Asked, Gen, Reject, ask
from loo_lessons.quiz.dealing import counts_mapping, played_out
from loo_lessons.quiz.model import Question
from loo_lessons.quiz.money import PAID_AT_ONCE, money_question, stakes_words, tricks_words
from loo_lessons.quiz.positions import Wanted, agreed_loo, scenario_of
from loo_lessons.quiz.prompts import declarations_words, table_words

# === pool: dividing the pool and the loos, R38–R40 ================================================

#: Tries at a single loo paid into the pool at once (an offence the engine accepts here).
PENALTY_TRIES = 8


def gen_pool(g: Gen) -> Question:
    """A `pool` question: what each player receives or pays when the pool is divided, what stays in
    it, and the next pool (R38-R40), from a table that played up to the deal."""
    rng = g.rng
    rules = g.rules()
    # Peel's table may agree a loo of 6 apart from the stake; never in disagreement mode,
    # where the same position must arise under Hoffmann's rules too
    loo = agreed_loo(rules) if not g.disagreement and g.chance(0.3) else None
    hand = played_out(g, rules, Wanted(loo=loo))
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
    a: Asked | None = None
    if g.level == 1:
        if hand.setup.stakes.pool % 3:
            raise Reject("level 1 divides a pool of thirds")
        a = ask(g, counts_mapping(hand, rules), question, rules)
    elif g.disagreement or g.chance(0.6):
        # a single loo paid into this pool at once makes it hold what the stakes alone do not
        for _ in range(PENALTY_TRIES):
            offence = rng.choice(PAID_AT_ONCE)
            who = rng.randrange(hand.setup.players)
            extra = {"penalties": [{"seat": who, "offence": offence.name.lower()}]}
            try:
                a = ask(g, scenario_of(hand, rules, extra=extra), question, rules)
                break
            except Reject:
                continue
        if a is None:
            raise Reject("no single loo paid at once fits this deal")
    else:
        a = ask(g, scenario_of(hand, rules), question, rules)
    head = (
        f"{table_words(a.sc)} {stakes_words(a.sc)} Declarations: {declarations_words(a.sc)}. "
        f"The hand is played: {tricks_words(a)}."
    )
    return money_question(g, a, what, seat, head)
