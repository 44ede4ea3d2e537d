"""Money questions shared by the pool, must and penalty topics: what a seat receives or pays,
the next pool, what stays in the pool — every figure read from the engine's settlement.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from loo_lessons.engine.options import LooAmount
from loo_lessons.engine.penalties import Destination, Offence, Size, ruling_for
from loo_lessons.engine.settle import AGREED_LOO_QUOTE
from loo_lessons.explain.words import counters
from loo_lessons.quiz.asking import Asked, Gen, finish
from loo_lessons.quiz.choices import number_choices
from loo_lessons.quiz.derive import settlement_lines_for, settlement_said
from loo_lessons.quiz.model import Question, Verdict
from loo_lessons.quiz.positions import view_of
from loo_lessons.quiz.verdicts import loo_quote_index, same_verdict
from loo_lessons.scenario import Scenario

#: Offences in the declaring that cost a single loo paid into this deal's pool at once
#: (R50–R52): how an odd pool comes about at a table of stakes in threes.
PAID_AT_ONCE: tuple[Offence, ...] = tuple(
    o
    for o in Offence
    if not o.info.play_phase
    and ruling_for(o).size is Size.SINGLE_LOO
    and ruling_for(o).destination is Destination.POOL_NOW
)

#: The line of the settlement a money question cites, by what it asks (the first kind
#: present wins): the verdict quotes the rule the engine gave that line.
_CITED: dict[str, tuple[str, ...]] = {
    "receives": ("withheld", "for_pool", "award", "tricks", "loo", "pool"),
    "pays": ("loo", "for_pool", "penalty_now", "single", "nobody_looed"),
    "next_pool": ("single", "next_pool"),
    "next_pool_more": ("odd", "withheld", "for_pool", "penalty_next", "next_pool"),
    "left_in_pool": ("withheld", "for_pool", "odd", "pool"),
}
#: The short name a verdict gives each kind of line (the loo line by its rule: R39 fixed,
#: R46 unlimited, R49 capped).
_SLUGS: dict[str, str] = {
    "award": "pool-without-play",
    "pool": "pool-thirds",
    "tricks": "pool-thirds",
    "withheld": "winnings-withheld",
    "for_pool": "miss-for-the-pool",
    "single": "single",
    "nobody_looed": "looed",
    "odd": "odd-counters",
    "next_pool": "next-pool",
    "penalty_now": "penalty",
    "penalty_next": "penalty",
}
_LOO_SLUGS = {"R39": "looed", "R46": "unlimited-loo", "R49": "loo-capped"}
#: What a seat that the cited lines leave out was (he took a trick, so he is not looed).
_NOT_LOOED = "R39"


def _cited(lines: Sequence[Mapping[str, Any]], what: str) -> Mapping[str, Any] | None:
    for kind in _CITED[what]:
        for line in lines:
            if line["kind"] == kind:
                return line
    return None


def stakes_words(sc: Scenario) -> str:
    """What a money question states about the stakes, all read from the loaded position: the
    pool the table reached, a loo agreed apart from the stake (the table's agreement), the
    loo of unlimited loo, and any single loo paid into the pool at once."""
    st = sc.hand.setup.stakes
    opts = sc.hand.options
    said = [f"The pool holds {st.pool}."]
    if opts.loo_amount is LooAmount.FIXED and st.loo != st.stake:
        said.append(
            f"The table has agreed a loo of {st.loo}, apart from the stake of {st.stake} "
            "(as Peel plays: 3 for the deal, 6 for a loo)."
        )
    elif opts.loo_amount is LooAmount.POOL:
        said.append("Unlimited loo: a loo costs what the pool holds.")
    elif opts.loo_amount is LooAmount.POOL_CAPPED:
        said.append(f"Unlimited loo with a maximum loo of {st.cap}.")
    for p in sc.hand.penalties:
        if p.ruling.destination is Destination.POOL_NOW:
            size = "a single loo" if p.ruling.size is Size.SINGLE_LOO else "a full loo"
            said.append(
                f"Seat {p.seat} was caught {p.offence.info.words} and paid {size}, "
                f"{counters(p.amount)}, into the pool at once."
            )
    return " ".join(said)


def _answer_words(what: str, seat: int | None, ans: int) -> str:
    if what == "receives":
        return f"Seat {seat} receives {counters(ans)}."
    if what == "pays":
        return f"Seat {seat} pays {counters(ans)}."
    if what == "next_pool":
        return f"The next pool holds {counters(ans)}."
    return f"{counters(ans)} {'stays' if ans == 1 else 'stay'} in the pool."


def money_question(
    g: Gen,
    a: Asked,
    what: str,
    seat: int | None,
    prompt_head: str,
    *,
    wrong: Sequence[int] = (),
    rule_ids: Sequence[str] = ("R38", "R39", "R40"),
) -> Question:
    """receives / pays / next_pool / left_in_pool: the figures and the words are the engine's
    settlement lines (`explain.settlement`), so a quiz cites each event with the rule and
    the sentence every other view shows. `wrong`: more tempting wrong figures."""
    sc = a.sc
    s = a.j["settlement"]
    pool = int(s["pool"])
    stakes = sc.hand.setup.stakes
    ans = int(a.answer[0])
    loos = sum(s["loo_pays"].values())
    left = int(s["left_in_pool"])
    pen_next = int(s["penalties_to_next_pool"])
    lines = settlement_lines_for(a.j, seat, what)
    said = settlement_said(a.j, seat, what)
    right = f"{said} {_answer_words(what, seat, ans)}".strip()
    if what == "receives":
        third = pool // 3
        withheld = int(s["withheld"].get(str(seat), 0))
        tempting = [0, third, 2 * third, pool, third + 1, ans + 1, withheld]
        prompt = f"How many counters does seat {seat} receive from the pool?"
    elif what == "pays":
        tempting = [0, stakes.loo, stakes.stake, pool, stakes.single_loo, 2 * stakes.loo]
        prompt = f"How many counters does seat {seat} pay?"
    elif what == "next_pool":
        stake = ans - loos - left - pen_next
        tempting = [
            stake,
            loos,
            loos + stake + 1,
            ans + stakes.loo,
            pool,
            ans - left if left else ans + 3,
        ]
        prompt = "How many counters will the next deal's pool hold?"
    else:  # left_in_pool
        tempting = [0, 1, 2, pool // 3, pool]
        prompt = "How many counters stay in the pool for the next deal?"
    choices = number_choices(g.rng, ans, [*wrong, *tempting] if wrong else tempting)
    keys = [c.key for c in choices]
    line = _cited(lines, what)
    if what == "next_pool" and line is not None and line["kind"] == "single" and (left or pen_next):
        # R41's "the only fund ... is the contribution of the dealer" is not the whole of it
        # when counters stay in the pool: cite what adds them
        line = _cited(lines, "next_pool_more")
    if line is None:
        verdicts = same_verdict(
            keys, a.answer, _NOT_LOOED, "looed", right, f"No. {right}", loo_quote_index(_NOT_LOOED)
        )
    else:
        kind, rid = str(line["kind"]), str(line["rule_id"])
        slug = _LOO_SLUGS.get(rid, "looed") if kind == "loo" else _SLUGS[kind]
        if kind == "loo" and line["quote"] == AGREED_LOO_QUOTE.text:  # the table's agreed loo (V8)
            slug = "agreed-loo"
        verdicts = {
            k: Verdict.from_line(
                line, slug, k in a.answer, right if k in a.answer else f"No. {right}"
            )
            for k in keys
        }
    return finish(
        g,
        a,
        kind="pick_number",
        prompt=f"{prompt_head} {prompt}",
        choices=choices,
        verdicts=verdicts,
        explanation=right,
        rule_ids=tuple(rule_ids),
        view=view_of(sc, ()),
    )


def tricks_words(a: Asked) -> str:
    """Who won the deal's tricks, trick by trick (or seat by seat when the tricks are not kept), as
    a prompt says it."""
    s = a.j.get("settlement") or {}
    if a.j["tricks"]:
        return "; ".join(
            f"trick {i + 1} won by seat {t['winner']}" for i, t in enumerate(a.j["tricks"])
        )
    won = s.get("tricks_won", {})
    return ", ".join(f"seat {k} took {v}" for k, v in won.items()) or "no tricks"
