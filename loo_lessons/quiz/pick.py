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
    choice_lines(verdicts, v, choices)
    note = leader_note(hand)
    parts = [f"{note[1]} ({note[0]})"] if note is not None else []
    if note is not None and note[0] not in rule_ids:
        rule_ids.append(note[0])
    parts += explanation_lines(v, choices)
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


def choice_lines(verdicts: dict[str, dict[str, Any]], v: Any, choices: list[Action]) -> None:
    """Each choice's own line where one rule both allows some choices and refuses others (issue
    34: the allowed card and the refused ones read the same sentence): the allowed choice's line
    says it does what the rule asks, a refused one's that it does not and which do."""
    on_offer = [a for a in choices if a in v.legal]
    allowing = {a: allowed_law(v, a) for a in on_offer}
    refusing = {a: law for a, law in v.forbidden if a in choices}
    shared = {(law.rule, law.reason) for law in refusing.values()} & {
        (law.rule, law.reason) for law in allowing.values() if law is not None
    }
    for a in choices:
        law = allowing.get(a) if a in v.legal else refusing.get(a)
        if law is None or (law.rule, law.reason) not in shared:
            continue
        label = action_label(a)
        if a in v.legal:
            line = f"{sentence(law.reason)} {label} does that, so it is allowed."
        else:
            these = [action_label(b) for b in on_offer if allowing[b] == law]
            line = f"{sentence(law.reason)} {label} does not: only {and_list(these)} {'does' if len(these) == 1 else 'do'}."
        verdicts[action_key(a)]["reason"] = line


def explanation_lines(v: Any, choices: list[Action]) -> list[str]:
    """The sentences of a pick's explanation: the allowed choices grouped by the law that allows
    each (stand and take miss under R17, play the miss for the pool under R18), then the refused
    ones by the law that refuses them. A refused choice whose law is the one that allowed the
    others is not given the same sentence again (issue 34): it is said to be refused by that
    same rule, which allows only the others, so each line says why."""
    on_offer = [a for a in choices if a in v.legal]
    allowed = [action_label(a) for a in on_offer]
    only = "Only " if len(on_offer) == 1 and len(choices) > 1 else ""
    by_allowing: dict[Law | None, list[str]] = {}
    for a in on_offer:
        by_allowing.setdefault(allowed_law(v, a), []).append(action_label(a))
    lines: list[str] = []
    said: dict[tuple[str, str], str] = {}
    for law, labels in by_allowing.items():
        verb = "is" if len(labels) == 1 else "are"
        if law is None:
            lines.append(f"{only}{and_list(labels)} {verb} allowed.")
            continue
        lines.append(f"{only}{and_list(labels)} {verb} allowed ({law.rule}): {sentence(law.reason)}")
        said[(law.rule, law.reason)] = and_list(labels)
    by_law: dict[Law, list[str]] = {}
    for a, law in v.forbidden:
        if a in choices:
            by_law.setdefault(law, []).append(action_label(a))
    for law, labels in by_law.items():
        verb = "is" if len(labels) == 1 else "are"
        same = said.get((law.rule, law.reason))
        if same is not None:
            lines.append(
                f"{and_list(labels)} {verb} not: the same rule ({law.rule}) allows "
                f"{'only ' if len(allowed) == 1 else ''}{same if len(by_allowing) > 1 else and_list(allowed)}."
            )
        else:
            lines.append(f"{and_list(labels)} {verb} not ({law.rule}): {sentence(law.reason)}")
    return lines


# --- the settlement ----------------------------------------------------------------------------


