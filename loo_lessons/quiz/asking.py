"""Asking the engine and assembling the `Question`: what every topic generator shares.

The flow of every question: a real position is written as a scenario mapping, the mapping
is loaded with `scenario.load`, and `derive.answer_of` reads the answer from the engine's
verdict on it (`explain_json`, the settlement, the penalty records). Verdicts cite the law
the engine names (`Law.as_json()`) or, for rules that are not a `Law` (the deal, the trick
winner, the money), the digest rule itself with its verbatim quote."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from loo_lessons.engine.errors import InputError
from loo_lessons.engine.options import PRESETS
from loo_lessons.engine.sources import RULES
from loo_lessons.explain import explain_json
from loo_lessons.explain.table import action_key
from loo_lessons.quiz.choices import card_choices, declaration_choices, in_seeded_order
from loo_lessons.quiz.derive import answer_of, summary_of
from loo_lessons.quiz.model import Choice, Question, Verdict
from loo_lessons.quiz.positions import PRESET_NAMES, Rules, hand_codes, view_of
from loo_lessons.quiz.verdicts import legal_explanation, ordered_ids
from loo_lessons.scenario import Scenario, load


class Reject(Exception):
    """This random position does not make the question wanted; draw another."""


@dataclass
class Gen:
    """The context of one question being generated."""

    topic: str
    qid: str
    rng: random.Random
    level: int
    preset: str | None
    disagreement: bool
    #: how the table reached the deal asked about (`positions.Reached.history`), if it did
    table: dict[str, Any] | None = None

    def rules(self, custom: Mapping[str, str | bool] | None = None) -> Rules:
        """The rules to ask under: the preset filter, else either book at random.

        Custom options are used only without a preset filter and outside disagreement mode.
        """
        base = self.preset or self.rng.choice(PRESET_NAMES)
        if custom and self.may_customise:
            return Rules(base, dict(custom))
        return Rules(base)

    @property
    def may_customise(self) -> bool:
        """Whether a question may change a preset's options: only without a preset filter and
        outside disagreement mode, where both books must give the same position."""
        return self.preset is None and not self.disagreement

    def chance(self, p: float) -> bool:
        """True with probability `p`, from the question's own random stream (so a seed makes the
        same quiz)."""
        return self.rng.random() < p


@dataclass
class Asked:
    """A position loaded by the engine, with the engine's answer (and the other book's)."""

    mapping: dict[str, Any]
    ask: dict[str, Any]
    rules: Rules
    sc: Scenario
    j: dict[str, Any]
    answer: tuple[str, ...]
    other: str | None = None  # the other book's answer, in words (disagreement mode)


def ask(g: Gen, mapping: dict[str, Any], question: Mapping[str, Any], rules: Rules) -> Asked:
    """Load the scenario, read the answer from the engine; in disagreement mode keep the
    position only if the other book answers differently."""
    mapping = dict(mapping)
    mapping["question"] = dict(question)
    if g.table is not None:
        mapping["question"]["table"] = dict(g.table)
    try:
        sc = load(mapping)
    except InputError as e:
        if "penalties" not in mapping:
            raise  # a generator bug, not an unlucky draw
        raise Reject(f"the penalty cannot happen here: {e}") from None
    j = explain_json(sc)
    try:
        answer = answer_of(sc, question, j)
    except LookupError as e:
        raise Reject(str(e)) from None
    other = None
    if g.disagreement:
        swapped = rules.swapped()
        m2 = dict(mapping)
        m2["rules"] = swapped.mapping()
        try:
            sc2 = load(m2)
        except InputError:
            raise Reject("the position cannot arise under the other book") from None
        j2 = explain_json(sc2)
        try:
            a2 = answer_of(sc2, question, j2)
        except LookupError:
            raise Reject("the other book gives no answer") from None
        if a2 == answer:
            raise Reject("both books agree")
        other = summary_of(sc2, question, j2)
    return Asked(mapping, dict(question), rules, sc, j, answer, other)


def legal_verdicts(a: Asked) -> dict[str, Verdict]:
    """One verdict per option of the seat to act, from the engine's `Hand.verdict()`."""
    v = a.sc.hand.verdict()
    out: dict[str, Verdict] = {}
    for act, law in v.allowed_by:
        out[action_key(act)] = Verdict.from_law(law, action_key(act) in a.answer)
    for act, law in v.forbidden:
        out[action_key(act)] = Verdict.from_law(law, action_key(act) in a.answer)
    return out


def borrowed_laws(preset: str | None, rule_ids: Iterable[str]) -> list[str]:
    """The laws a question cites that the stated book does not give: Peel's penalties (R50–R63,
    seed 004 alone) asked under Hoffmann's rules, which the engine plays under every preset
    (the penalty table is the only one the seeds give). Empty without a preset."""
    if preset is None:
        return []
    seeds = set(PRESETS[preset].seeds)
    return [r for r in rule_ids if r in RULES and not any(q.seed in seeds for q in RULES[r].quotes)
            and r in PENALTY_LAWS]


#: Peel's laws of penalties (seed 004), which Hoffmann's book (seed 000) does not give.
PENALTY_LAWS = frozenset(f"R{n}" for n in range(50, 64))


def stated_books(preset: str | None, words_: str, rule_ids: Iterable[str]) -> str:
    """The books a question is asked under, as its prompt states them: the preset's rules,
    and the book of any law it cites that the preset's book does not give (R53 is Peel's:
    "Under Hoffmann's rules, with Peel's penalties (R53)")."""
    borrowed = borrowed_laws(preset, rule_ids)
    if not borrowed:
        return words_
    return f"{words_}, with Peel's penalties ({', '.join(borrowed)})"


def finish(
    g: Gen,
    a: Asked,
    *,
    kind: str,
    prompt: str,
    choices: Sequence[Choice],
    verdicts: Mapping[str, Verdict],
    explanation: str,
    rule_ids: Iterable[str] = (),
    multi: bool = False,
    view: Mapping[str, Any] | None = None,
    show: Sequence[int] = (),
) -> Question:
    """Assemble the question: annotate the scenario, put the choices in a seeded order, state
    both books in disagreement mode."""
    ids = ordered_ids(rule_ids, (verdicts[c.key].rule_id for c in choices))
    if a.other is not None:
        mine = summary_of(a.sc, a.ask, a.j)
        explanation += (
            f" The books disagree here. Under {a.rules.words()}: {mine}. "
            f"Under {a.rules.swapped().words()}: {a.other}."
        )
    scenario = dict(a.mapping)
    scenario["topic"] = g.topic
    scenario["level"] = g.level
    scenario["answer"] = list(a.answer)
    scenario["rule_ids"] = list(ids)
    choices = in_seeded_order(g.rng, choices)
    order = {c.key: i for i, c in enumerate(choices)}
    answer = tuple(sorted(a.answer, key=lambda k: order.get(k, len(order))))
    return Question(
        id=g.qid,
        topic=g.topic,
        level=g.level,
        preset=a.rules.preset,
        rules=a.sc.options.to_dict(),
        prompt=f"Under {stated_books(a.rules.preset, a.rules.words(), ids)}: {prompt}",
        view=dict(view) if view is not None else view_of(a.sc, show),
        scenario=scenario,
        kind=kind,
        choices=tuple(choices),
        multi=multi,
        answer=answer,
        verdicts=dict(verdicts),
        explanation=explanation,
        rule_ids=ids,
    )


def legal_question(g: Gen, a: Asked, *, prompt: str, subject: str, verb: str) -> Question:
    """'Which cards/declarations may he …?': every option of the seat to act, select all legal."""
    h = a.sc.hand
    seat = h.to_act
    if seat is None:
        raise Reject("nobody is to act")
    verdicts = legal_verdicts(a)
    if a.j["phase"] == "declare":
        choices = declaration_choices()
        kind = "pick_declaration"
    else:
        choices = card_choices(hand_codes(h.held[seat], h))
        kind = "pick_card"
    return finish(
        g,
        a,
        kind=kind,
        prompt=prompt,
        choices=choices,
        verdicts=verdicts,
        explanation=legal_explanation(subject, verb, choices, verdicts),
        multi=True,
        show=[seat],
    )
