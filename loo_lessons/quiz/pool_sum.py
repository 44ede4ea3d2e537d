"""The pool calculator's facts, fields and expected values for a settled position
(`pool_data`): who receives, who pays, what is left, the next pool, each with its working."""

from __future__ import annotations

from typing import Any

from loo_lessons.engine.game import Hand
from loo_lessons.engine.options import LooAmount, PoolRemainder
from loo_lessons.engine.settle import Settlement, new_pool_stake
from loo_lessons.explain import words
from loo_lessons.explain.table import (
    Position,
    as_scenario_or_hand,
    hand_of,
    settlement_working,
)
from loo_lessons.scenario import Scenario


def pool_data(position: Position | Settlement, *, title: str | None = None) -> dict[str, Any]:
    """The pool calculator's data: facts, one row per player in the deal, expected values."""
    hand: Hand | None = None
    sc: Scenario | None = None
    if isinstance(position, Settlement):
        s = position
    else:
        pos = as_scenario_or_hand(position)
        hand = hand_of(pos)
        sc = pos if isinstance(pos, Scenario) else None
        s_or_none = sc.final_settlement if sc is not None else hand.settlement
        if s_or_none is None:
            raise ValueError("the deal is not over: there is no settlement to calculate")
        s = s_or_none
    if hand is not None:
        seats = list(hand.players_in)
        if s.pool_awarded_to is not None and s.pool_awarded_to not in seats:
            seats.append(s.pool_awarded_to)
        winners = list(hand.winners) if len(hand.winners) == 3 else []
    else:
        seats = sorted(set(s.tricks_won) | set(s.looed) | set(s.receives) | set(s.withheld))
        winners = []
    facts: list[str] = []
    if sc is not None and sc.title:
        facts.append(sc.title)
    facts.append(f"The pool holds {words.counters(s.pool)}.")
    if hand is not None:
        st = hand.setup.stakes
        o = hand.options
        if o.loo_amount is LooAmount.FIXED:
            facts.append(f"Limited loo: a loo costs {words.counters(st.loo)}.")
        elif o.loo_amount is LooAmount.POOL:
            facts.append("Unlimited loo: a loo costs what the pool holds.")
        else:
            facts.append(
                f"Unlimited loo with a limit: a loo costs what the pool holds, at most {st.loo_cap}."
            )
        if s.pool % 3 and o.pool_remainder is PoolRemainder.EARLY_TRICKS_PREFERENCE:
            facts.append(
                "The pool does not divide by three: the odd counters go to the earlier tricks."
            )
        elif s.pool % 3:
            facts.append("The pool does not divide by three: the odd counters stay in the pool.")
        ante = new_pool_stake(st.stake, hand.setup.players, o.ante)
        facts.append(
            f"The next dealer stakes {words.counters(st.stake)}."
            if ante == st.stake
            else f"Every player antes {st.stake}: the next pool gets {ante} from the ante."
        )
        if hand.for_pool is not None:
            facts.append(f"The dealer, seat {hand.for_pool}, played the miss for the pool.")
        for p in hand.penalties:
            facts.append(
                f"Seat {p.seat} was penalised {p.amount} for {p.offence.info.words}, "
                f"{p.ruling.destination.words} "
                f"({', '.join(p.ruling.rules[:2])})."
            )
        if s.pool_awarded_to is not None and hand.award_law is not None:
            facts.append(hand.award_law.reason)
    rows = []
    fields: list[dict[str, Any]] = []
    expected: dict[str, int] = {}
    for seat in seats:
        label = words.seat_name(hand, seat, capital=True) if hand is not None else f"Seat {seat}"
        n = s.tricks_won.get(seat, 0)
        which = [i + 1 for i, w in enumerate(winners) if w == seat]
        rows.append(
            {
                "seat": seat,
                "label": label,
                "tricks": (
                    "the pool, without play"
                    if s.pool_awarded_to == seat
                    else f"{n}"
                    + (
                        f" (trick{'s' if n > 1 else ''} {', '.join(map(str, which))})"
                        if which
                        else ""
                    )
                ),
            }
        )
        for kind, value in (
            ("receives", s.receives.get(seat, 0)),
            ("pays", s.loo_pays.get(seat, 0)),
        ):
            fid = f"{kind}.{seat}"
            fields.append(
                {
                    "id": fid,
                    "label": f"Seat {seat} {'receives' if kind == 'receives' else 'pays'}",
                    "seat": seat,
                    "kind": kind,
                }
            )
            expected[fid] = value
    fields.append(
        {"id": "left", "label": "Left in the pool for the next deal", "seat": None, "kind": "left"}
    )
    expected["left"] = s.left_in_pool
    fields.append({"id": "next_pool", "label": "The next pool", "seat": None, "kind": "next_pool"})
    expected["next_pool"] = s.next_pool
    working = settlement_working(s, hand, winners=winners)
    return {
        "title": title,
        "facts": facts,
        "seats": rows,
        "fields": fields,
        "expected": expected,
        "working": working,
        "settlement": s.as_json(),
        # the rules the settlement applies, each once: what a filled-in form tests (the
        # learner's record keeps them with her answer; the page copies them, never works them out)
        "rule_ids": list(dict.fromkeys(str(w["rule_id"]) for w in working if w.get("rule_id"))),
    }


# --- stepping through a deal ---------------------------------------------------------------------


