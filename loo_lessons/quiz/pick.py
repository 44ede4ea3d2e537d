"""One question in the quiz schema asking which choices the rules allow in a position
(`pick_question`): what the pick component, the explorers and the play table ask."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from loo_lessons.engine.cards import in_hand_order
from loo_lessons.engine.declare import ALL_DECLARATIONS
from loo_lessons.engine.game import Action, Phase
from loo_lessons.engine.laws import Law
from loo_lessons.explain import law_json, leader_note, preset_matching, words
from loo_lessons.explain.table import (
    Position,
    action_key,
    action_label,
    allowed_law,
    as_scenario_or_hand,
    hand_of,
    sentence,
    table_view,
)
from loo_lessons.explain.words import and_list
from loo_lessons.scenario import Scenario


def pick_question(
    position: Position,
    *,
    reveal: bool | Collection[int] = True,
    prompt: str | None = None,
    qid: str = "pick",
    topic: str = "pick",
) -> dict[str, Any]:
    """A question in the quiz schema: which of his options may the seat to act choose?

    Choices are every option of the seat to act (his cards, or the declarations); the
    answer is the engine's legal set, and each choice carries the engine's law for or
    against it. Raises ValueError when nobody is to act (the deal is over).
    """
    pos = as_scenario_or_hand(position)
    hand = hand_of(pos)
    if isinstance(pos, Scenario) and pos.settlement is not None:
        raise ValueError("nobody is to act in this position: the deal is over")
    v = hand.verdict()
    seat = v.to_act
    if seat is None:
        raise ValueError("nobody is to act in this position: the deal is over")
    if v.phase is not Phase.PLAY:  # the deal shown (Phase.DEAL) is declared from too
        kind = "pick_declaration"
        offered = {a for a in v.legal} | {a for a, _ in v.forbidden}
        choices: list[Action] = [d for d in ALL_DECLARATIONS if d in offered]
        ask = prompt or f"Seat {seat} is to declare. What may he declare?"
    else:
        kind = "pick_card"
        choices = list(in_hand_order(hand.held[seat], hand.trumps))
        verb = "lead" if words.leading(hand) else "play"
        ask = prompt or f"Seat {seat} is to {words.task_words(hand)}. Which cards may he {verb}?"
    verdicts: dict[str, dict[str, Any]] = {}
    rule_ids: list[str] = []
    for a in choices:
        ok = a in v.legal
        law = allowed_law(v, a) if ok else v.law_for(a)
        if law is None:  # the engine names a law for every option; never guess one
            raise ValueError(f"the engine gave no law for {action_key(a)}")
        verdicts[action_key(a)] = {"correct": ok, **law_json(law, hand.options)}
        if law.rule not in rule_ids:
            rule_ids.append(law.rule)
    legal = [action_key(a) for a in choices if a in v.legal]
    allowed = [action_label(a) for a in choices if a in v.legal]
    note = leader_note(hand)
    parts = [f"{note[1]} ({note[0]})"] if note is not None else []
    if note is not None and note[0] not in rule_ids:
        rule_ids.append(note[0])
    parts += [
        f"{'Only ' if len(allowed) == 1 and len(choices) > 1 else ''}{and_list(allowed)} "
        f"{'is' if len(allowed) == 1 else 'are'} allowed"
        + (f" ({v.why.rule}): {sentence(v.why.reason)}" if v.why is not None else ".")
    ]
    by_law: dict[Law, list[str]] = {}
    for a, law in v.forbidden:
        if a in choices:
            by_law.setdefault(law, []).append(action_label(a))
    for law, labels in by_law.items():
        parts.append(
            f"{and_list(labels)} {'is' if len(labels) == 1 else 'are'} not ({law.rule}): "
            f"{sentence(law.reason)}"
        )
    options = hand.options
    return {
        "id": qid,
        "topic": topic,
        "level": 1,
        "preset": preset_matching(options),
        "rules": options.to_dict(),
        "prompt": ask,
        "view": table_view(pos, reveal=reveal),
        "scenario": dict(pos.data) if isinstance(pos, Scenario) else {},
        "kind": kind,
        "choices": [{"key": action_key(a), "label": action_label(a)} for a in choices],
        "multi": len(legal) > 1,
        "answer": legal,
        "verdicts": verdicts,
        "explanation": " ".join(parts),
        "rule_ids": rule_ids,
    }


# --- the settlement ----------------------------------------------------------------------------


