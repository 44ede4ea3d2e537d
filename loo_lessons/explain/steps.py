"""Every step of a deal, each explained by the engine: the deal, each declaration, each card
(a trick's last card also names its winner), each penalty, and the settlement
(`stepper_steps`, what the stepper and the presenter show)."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from loo_lessons.engine.cards import Card
from loo_lessons.engine.game import PenaltyRecord
from loo_lessons.engine.penalties import Offence
from loo_lessons.engine.sources import RULES
from loo_lessons.explain import law_json, leader_note, rule_json, words
from loo_lessons.explain.table import (
    Position,
    allowed_law,
    as_scenario_or_hand,
    forbidden_json,
    hand_of,
    settlement_working,
    table_view,
)
from loo_lessons.explain.words import card_label
from loo_lessons.scenario import Scenario

#: Who wins a trick, in a learner's words (R37: the books take it from whist, see the quote).
TRICK_WINNER = (
    "The highest trump played wins the trick; if no trump was played, the highest card of "
    "the suit led wins. Cards rank as at whist, the ace highest."
)


def stepper_steps(
    position: Position, *, reveal: bool | Collection[int] = True
) -> list[dict[str, Any]]:
    """Every step of the deal: the deal, each declaration, each card (a trick's last card
    also names its winner), each penalty, and the settlement; each explained by the engine."""
    pos = as_scenario_or_hand(position)
    hand = hand_of(pos)
    pens = list(hand.transcript().penalties)
    h = hand.root()
    steps: list[dict[str, Any]] = []

    def view(**kw: Any) -> dict[str, Any]:
        return table_view(h, reveal=reveal, **kw)

    trumps = h.trumps
    opts = h.options
    deal_laws = [rule_json("R03", options=opts)]
    text = (
        f"{h.setup.players} players; seat {h.setup.dealer} deals three cards to each, one at a time"
    )
    if h.setup.must:
        text += ". This deal is a must: there is no miss and everyone must play."
        deal_laws.append(rule_json("R45", options=opts))
    else:
        text += ", and three to the miss."
    if h.turn_up is not None and trumps is not None:
        text += (
            f" The next card, {card_label(h.turn_up)}, is turned up: {trumps.plural} are trumps."
        )
        deal_laws.append(rule_json("R04", options=opts))
    text += f" The pool holds {h.setup.stakes.pool}."
    steps.append(
        {
            "kind": "deal",
            "title": "The deal",
            "text": text,
            "laws": deal_laws,
            "forbidden": [],
            "working": [],
            "view": view(show_miss=True),
        }
    )

    def penalty_step(rec: PenaltyRecord) -> None:
        r = rec.ruling
        size, where = r.size.words, r.destination.words
        steps.append(
            {
                "kind": "penalty",
                "title": f"Seat {rec.seat} is penalised for {rec.offence.info.words}",
                "text": f"He pays {size} ({words.counters(rec.amount)}), {where}.",
                "laws": [rule_json(x, options=opts) for x in r.rules if x in RULES],
                "forbidden": [],
                "working": [],
                "view": view(),
            }
        )

    first = [p for p in pens if p[0] == 0]
    for rec in h.penalties[: len(first)]:
        penalty_step(rec)  # already in force: undo() replays them before the first move
    for i, a in enumerate(hand.actions):
        if i > 0:
            for _, seat, off in [p for p in pens if p[0] == i]:
                penalty_step(h.penalise(seat, Offence.parse(off)))
        v = h.verdict()
        seat_now = v.to_act
        assert seat_now is not None
        before = len(h.winners)
        leading = not h.tricks or not h.tricks[-1] or len(h.tricks) == len(h.winners)
        law = allowed_law(v, a)
        note = leader_note(h)
        title = words.move_words(h, seat_now, a, leading=leading)
        h.apply_unchecked(a)
        laws = [law_json(law, opts)] if law is not None else []
        if note is not None:  # after the law that decided the lead: R29 says why it binds him
            laws.append(rule_json(note[0], reason=note[1], options=opts))
        if isinstance(a, Card):
            text = (f"{note[1]} " if note is not None else "") + (
                law.reason if law is not None else ""
            )
            if len(h.winners) > before:
                w = h.winners[-1]
                text += f" Trick {len(h.winners)} is complete: seat {w} wins it."
                laws.append(rule_json("R37", reason=TRICK_WINNER, options=opts))
            step_view = view(last_trick=True)
        else:
            text = law.reason if law is not None else ""
            step_view = view()
        steps.append(
            {
                "kind": "play" if isinstance(a, Card) else "declare",
                "title": title,
                "text": text,
                "laws": laws,
                "forbidden": forbidden_json(v, opts),
                "working": [],
                "view": step_view,
            }
        )
    n = len(hand.actions)
    for _, seat, off in [p for p in pens if p[0] == n and n > 0]:
        penalty_step(h.penalise(seat, Offence.parse(off)))
    s = pos.final_settlement if isinstance(pos, Scenario) else h.settlement
    if s is not None:
        laws = [law_json(h.award_law, opts)] if h.award_law is not None else []
        steps.append(
            {
                "kind": "settle",
                "title": "The settlement",
                "text": f"The deal is over. Next pool: {s.next_pool}.",
                "laws": laws,
                "forbidden": [],
                "working": settlement_working(
                    s, h, winners=list(h.winners) if len(h.winners) == 3 else None
                ),
                "view": table_view(
                    pos if isinstance(pos, Scenario) and pos.settlement is not None else h,
                    reveal=reveal,
                ),
            }
        )
    return steps
