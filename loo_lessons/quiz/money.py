"""Money questions shared by the pool, must and penalty topics: what a seat receives or pays,
the next pool, what stays in the pool — every figure read from the engine's settlement.
"""

from __future__ import annotations

from loo_lessons.engine.penalties import Offence
from loo_lessons.engine.settle import trick_shares
from loo_lessons.quiz.common import (
    Asked,
    Gen,
    finish,
    loo_quote_index,
    number_choices,
    same_verdict,
)
from loo_lessons.quiz.model import Question
from loo_lessons.quiz.positions import (
    Rules,
    view_of,
)
from loo_lessons.scenario import Scenario


def share_words(pool: int, rules: Rules) -> str:
    shares, odd = trick_shares(pool, rules.options())
    if shares[0] == shares[2] and not odd:
        return f"the pool of {pool} is divided one third to each trick: {shares[0]} a trick (R38)"
    if odd:
        return (
            f"the pool of {pool} does not divide by three: each trick takes {shares[0]} and the odd "
            f"{odd} stay in the pool for the next deal (R38; A11)"
        )
    return (
        f"the pool of {pool} does not divide by three: the first and second tricks take the odd "
        f"counters, so the tricks take {shares[0]}, {shares[1]} and {shares[2]} (R38; A11)"
    )


def withheld_rule(sc: Scenario, seat: int) -> str:
    """Why a seat's winnings stay in the pool: R19 (miss for the pool), R54 or R63."""
    if sc.hand.for_pool == seat:
        return "R19"
    offences = {p.offence for p in sc.hand.penalties if p.seat == seat}
    return "R54" if Offence.LOOK_AT_ANOTHERS_HAND in offences else "R63"


def money_question(g: Gen, a: Asked, what: str, seat: int | None, prompt_head: str) -> Question:
    """receives / pays / next_pool / left_in_pool, with the settlement's own figures."""
    sc = a.sc
    s = a.j["settlement"]
    pool = int(s["pool"])
    stakes = sc.hand.setup.stakes
    ans = int(a.answer[0])
    loos = sum(s["loo_pays"].values())
    left = int(s["left_in_pool"])
    pen_next = int(s["penalties_to_next_pool"])
    share = share_words(pool, a.rules)
    tricks_of = s["tricks_won"]
    if what == "receives":
        assert seat is not None
        won = tricks_of.get(str(seat), 0)
        withheld = s["withheld"].get(str(seat), 0)
        right = f"Seat {seat} took {won} trick(s); {share}."
        if withheld:
            right += (
                f" But his winnings of {withheld} stay in the pool for the next deal "
                f"({withheld_rule(sc, seat)})."
            )
        right += f" He receives {ans}."
        rid, slug = "R38", "pool-thirds"
        third = pool // 3
        wrong = [0, third, 2 * third, pool, third + 1, ans + 1, withheld]
        prompt = f"How many counters does seat {seat} receive from the pool?"
    elif what == "pays":
        assert seat is not None
        looed = str(seat) in s["loo_pays"]
        if looed:
            right = (
                f"Seat {seat} played and took no trick: he is looed and pays {ans} (R39"
                + (
                    ", unlimited loo: a loo is the pool, R46"
                    if a.sc.options.loo_amount != "fixed"
                    else ""
                )
                + ")."
            )
        elif sc.hand.for_pool == seat:
            right = f"Seat {seat} played the miss for the pool: he is never looed (R19; A16). He pays 0."
        else:
            right = f"Seat {seat} took a trick: he is not looed and pays 0 (R39)."
        rid, slug = (
            ("R46", "unlimited-loo")
            if a.sc.options.loo_amount != "fixed" and looed
            else ("R39", "looed")
        )
        wrong = [0, stakes.loo, stakes.stake, pool, stakes.single_loo, 2 * stakes.loo]
        prompt = f"How many counters does seat {seat} pay?"
    elif what == "next_pool":
        stake = ans - loos - left - pen_next
        bits = [f"loos {loos}"]
        if left:
            bits.append(f"{left} left in the pool")
        if pen_next:
            bits.append(f"penalties {pen_next}")
        bits.append(f"the new dealer's stake {stake}")
        right = (
            f"{share[0].upper()}{share[1:]}. The next pool is "
            f"{' + '.join(bits)} = {ans} (R40"
            + (", a single: the stake alone, R41" if s["is_single"] else "")
            + ")."
        )
        rid, slug = ("R41", "single") if s["is_single"] else ("R40", "next-pool")
        wrong = [
            stake,
            loos,
            loos + stake + 1,
            ans + stakes.loo,
            pool,
            ans - left if left else ans + 3,
        ]
        prompt = "How many counters will the next deal's pool hold?"
    else:  # left_in_pool
        right = f"{share[0].upper()}{share[1:]}. {ans} counter{'' if ans == 1 else 's'} stay{'s' if ans == 1 else ''} in the pool."
        rid, slug = "R38", "pool-thirds"
        wrong = [0, 1, 2, pool // 3, pool]
        prompt = "How many counters stay in the pool for the next deal?"
    choices = number_choices(g.rng, ans, wrong)
    keys = [c.key for c in choices]
    return finish(
        g,
        a,
        kind="pick_number",
        prompt=f"{prompt_head} {prompt}",
        choices=choices,
        verdicts=same_verdict(
            keys, a.answer, rid, slug, right, f"No. {right}", loo_quote_index(rid)
        ),
        explanation=right,
        rule_ids=("R38", "R39", "R40"),
        view=view_of(sc, ()),
    )


def tricks_words(a: Asked) -> str:
    s = a.j.get("settlement") or {}
    if a.j["tricks"]:
        return "; ".join(
            f"trick {i + 1} won by seat {t['winner']}" for i, t in enumerate(a.j["tricks"])
        )
    won = s.get("tricks_won", {})
    return ", ".join(f"seat {k} took {v}" for k, v in won.items()) or "no tricks"
