"""The answer to a question, read from the engine's own output for the loaded scenario.

Every question's scenario carries `question: {ask: ...}` (an annotation key the scenario
loader accepts and ignores). `answer_of` loads nothing and decides nothing: it reads
`explain_json` (legal options, trick winners, the settlement, the deal) and the penalty
records the engine made (`Hand.penalties`, from `penalties.ruling_for`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from loo_lessons.engine.cards import parse_card
from loo_lessons.engine.game import PenaltyRecord
from loo_lessons.engine.penalties import Destination, Size
from loo_lessons.explain import explain_json
from loo_lessons.explain.words import cards_words
from loo_lessons.scenario import Scenario

#: The penalty choices: (size, destination) as the engine's PenaltyRuling names them.
PENALTY_KEYS: tuple[str, ...] = (
    "single_loo/pool_now",
    "full_loo/pool_now",
    "full_loo/next_pool",
    "none/nowhere",
)


def _penalty_label(key: str) -> str:
    """`single_loo/pool_now` -> "A single loo, paid into this deal's pool at once" (the engine's
    words for the size and the destination)."""
    size, where = key.split("/")
    said = Size(size).words
    return f"{said[:1].upper()}{said[1:]}, {Destination(where).words}"


PENALTY_LABELS: dict[str, str] = {
    "legal": "No offence: that card is legal here",
    **{k: _penalty_label(k) for k in PENALTY_KEYS if k != "none/nowhere"},
    "none/nowhere": "No counters: the card is taken back and played again",
}
CONSEQUENCE_LABELS: dict[str, str] = {
    "may_still_play": "He may still take part in the play",
    "must_throw_up": "He must throw up his cards unexposed",
    "must_play_on": "He must play his cards out",
    "winnings_withheld": "Whatever his cards win stays in the pool for the next deal",
    "replay": "The cards are played again in proper order",
}


def penalty_record(sc: Scenario, seat: int) -> PenaltyRecord:
    """The last penalty recorded against `seat` in the scenario's hand (R50-R63); `LookupError` if
    there is none."""
    recs = [p for p in sc.hand.penalties if p.seat == seat]
    if not recs:
        raise LookupError(f"no penalty recorded for seat {seat}")
    return recs[-1]


def _settlement(j: Mapping[str, Any]) -> Mapping[str, Any]:
    s = j.get("settlement")
    if s is None:
        raise LookupError("the deal is not settled")
    result: Mapping[str, Any] = s
    return result


def answer_of(
    sc: Scenario, ask: Mapping[str, Any], j: Mapping[str, Any] | None = None
) -> tuple[str, ...]:
    """The answer keys for `ask`, from the engine's verdict on the scenario."""
    if j is None:
        j = explain_json(sc)
    what = ask["ask"]
    if what == "legal":
        return tuple(j["legal"])
    if what == "to_act":
        return (str(j["to_act"]),)
    if what == "deal_card":
        card = parse_card(sc.data["deck"][int(ask["index"])]).code
        if j["turn_up"] == card:
            return ("turn_up",)
        if j.get("miss") and card in j["miss"]:
            return ("miss",)
        for seat, cards in j["hands"].items():
            if card in cards:
                return (str(seat),)
        raise LookupError(f"{card} was not dealt")
    if what == "trumps":
        return (str(j["trumps"]),)
    if what == "stock":
        return (str(j["stock_remaining"]),)
    if what == "outcome":
        s = j.get("settlement")
        if s is not None and s.get("pool_awarded_to") is not None:
            return (str(s["pool_awarded_to"]),)
        if j["phase"] == "play":
            return ("play",)
        raise LookupError(f"the deal is in phase {j['phase']}")
    if what == "trick_winner":
        return (str(j["tricks"][int(ask["trick"])]["winner"]),)
    if what in ("receives", "pays"):
        s = _settlement(j)
        table = s["receives"] if what == "receives" else s["loo_pays"]
        return (str(table.get(str(ask["seat"]), 0)),)
    if what in ("left_in_pool", "next_pool"):
        return (str(_settlement(j)[what]),)
    if what == "next_is_must":
        return ("yes" if _settlement(j)["next_is_must"] else "no",)
    if what == "looed_count":
        return (str(len(_settlement(j)["looed"])),)
    if what == "penalty":
        code = ask.get("card")
        if code is not None:
            card = str(code)
            if card in j["legal"]:
                return ("legal",)
            pen = j["illegal"][card].get("penalty")
            if pen is None:
                raise LookupError(f"no penalty is named for {card}")
            return (f"{pen['size']}/{pen['destination']}",)
        r = penalty_record(sc, int(ask["seat"])).ruling
        return (f"{r.size}/{r.destination}",)
    if what == "penalty_amount":
        return (str(penalty_record(sc, int(ask["seat"])).amount),)
    if what == "consequences":
        r = penalty_record(sc, int(ask["seat"])).ruling
        return tuple(sorted(str(c) for c in r.consequences))
    raise ValueError(f"unknown ask {what!r}")


def summary_of(sc: Scenario, ask: Mapping[str, Any], j: Mapping[str, Any] | None = None) -> str:
    """One line saying what the engine answers and why (for the disagreement explanation)."""
    if j is None:
        j = explain_json(sc)
    ans = answer_of(sc, ask, j)
    what = ask["ask"]
    if what == "legal":
        shown = (
            cards_words(ans)
            if j["phase"] == "play"
            else ", ".join(a.replace("_", " ") for a in ans)
        )
        why = j.get("why")
        because = f" — {why['reason']} ({why['rule_id']})" if why else ""
        return f"legal: {shown}{because}"
    if what == "penalty":
        key = ans[0]
        if key == "legal":
            why = j.get("why")
            return PENALTY_LABELS[key] + (f" ({why['rule_id']})" if why else "")
        card = ask.get("card")
        rule = j["illegal"][card]["rule_id"] if card is not None else ""
        return f"{PENALTY_LABELS[key]}" + (f" ({rule})" if rule else "")
    if what in ("receives", "pays", "next_pool", "left_in_pool"):
        seat = ask.get("seat")
        said = settlement_said(j, None if seat is None else int(seat), what)
        return f"the answer is {', '.join(ans)}" + (f": {said}" if said else "")
    return f"the answer is {', '.join(ans)}"


#: Which lines of a settlement answer which question (the kinds of `Settlement.lines`).
_LINES_FOR: dict[str, tuple[str, ...]] = {
    "receives": ("award", "pool", "tricks", "withheld", "for_pool", "loo"),
    "pays": ("loo", "penalty_now", "penalty_next", "for_pool", "tricks", "nobody_looed", "single"),
    "left_in_pool": ("pool", "odd", "withheld", "for_pool"),
    "next_pool": ("odd", "withheld", "for_pool", "penalty_next", "single", "next_pool"),
}


def settlement_lines_for(
    j: Mapping[str, Any], seat: int | None, what: str
) -> list[Mapping[str, Any]]:
    """The lines of the settlement (`explain --json`'s `settlement.lines`) that answer `what`
    (receives, pays, left_in_pool, next_pool), for `seat` where the question names one."""
    kinds = _LINES_FOR[what]
    lines: list[Mapping[str, Any]] = _settlement(j)["lines"]
    return [x for x in lines if x["kind"] in kinds and (seat is None or x["seat"] in (seat, None))]


def settlement_said(j: Mapping[str, Any], seat: int | None, what: str) -> str:
    """Those lines as one explanation, each with its rule id: the words every view uses."""
    return " ".join(f"{x['text']} ({x['rule_id']})" for x in settlement_lines_for(j, seat, what))
