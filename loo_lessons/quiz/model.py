"""The question schema shared by the quiz generators and the front-end components.

A `Question` is frozen; `to_json()` gives exactly the mapping the front-end reads
(see the shared question schema): the browser grades a click on choice k as right iff
k is in `answer`, and `verdicts[k]` explains it, right or wrong, with the rule id, a
reason in plain words and the book's own words.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from loo_lessons.engine.laws import Law
from loo_lessons.engine.sources import RULES
from loo_lessons.explain.quotes import uncut
from loo_lessons.explain.words import quote_text

#: The quiz topics, in lesson order (one generator module each under `quiz/topics/`).
TOPICS: tuple[str, ...] = (
    "deal",
    "declare",
    "dealer",
    "lead",
    "follow",
    "trick",
    "pool",
    "must",
    "penalty",
)
#: The kinds of question the front-end knows how to draw.
KINDS = ("pick_card", "pick_declaration", "pick_seat", "pick_number", "pick_option")


@dataclass(frozen=True, slots=True)
class Choice:
    """One thing the learner can click: a stable key and what is shown."""

    key: str
    label: str

    def to_json(self) -> dict[str, str]:
        """The choice as the question file and the page store it: `key` and `label`."""
        return {"key": self.key, "label": self.label}


@dataclass(frozen=True, slots=True)
class Verdict:
    """Why one choice is right or wrong: the rule (slug and id), a reason and the source quote
    (whole: never cut before a clause of the same sentence, `explain.quotes.uncut`)."""

    correct: bool
    rule: str
    rule_id: str
    reason: str
    source: str
    quote: str
    book: str

    def to_json(self) -> dict[str, Any]:
        """The verdict as the page shows it: right or wrong, the rule with its id, the book's quote
        verbatim and as the learner reads it, and the book's name."""
        return {
            "correct": self.correct,
            "rule": self.rule,
            "rule_id": self.rule_id,
            "reason": self.reason,
            "source": self.source,
            "quote": self.quote,
            # the quote as a learner reads it (seed markup like _i.e._ and {87} rendered);
            # `quote` stays verbatim, so it can be checked against the seed text
            "words": quote_text(self.quote),
            "book": self.book,
        }

    @staticmethod
    def from_law(law: Law, correct: bool, reason: str | None = None) -> Verdict:
        """A verdict citing one of the engine's laws (its `as_json()`: slug, id, reason, quote)."""
        j = law.as_json()
        q = uncut(law.rule, law.quote)
        return Verdict(
            correct,
            j["rule"],
            j["rule_id"],
            reason if reason is not None else j["reason"],
            q.source,
            q.text,
            q.book,
        )

    @staticmethod
    def from_line(line: Mapping[str, Any], slug: str, correct: bool, reason: str) -> Verdict:
        """A verdict citing one line of a settlement (`explain.settlement.line_json`): the rule
        and the quote the engine gave that event, so the quiz cites what every view cites."""
        return Verdict(
            correct,
            slug,
            str(line["rule_id"]),
            reason,
            str(line["source"]),
            str(line["quote"]),
            str(line["book"]),
        )

    @staticmethod
    def from_rule(
        rule_id: str, slug: str, reason: str, correct: bool, quote_index: int = 0
    ) -> Verdict:
        """A verdict citing a digest rule directly (for rules that are not a `Law`: R03, R37…)."""
        rule = RULES[rule_id]
        q = uncut(rule_id, rule.quotes[min(quote_index, len(rule.quotes) - 1)])
        return Verdict(correct, slug, rule_id, reason, q.source, q.text, q.book)

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Verdict:
        """A verdict read back from `to_json`'s mapping (the rendered `words` are made again, not
        read)."""
        return Verdict(
            bool(data["correct"]),
            str(data["rule"]),
            str(data["rule_id"]),
            str(data["reason"]),
            str(data["source"]),
            str(data["quote"]),
            str(data["book"]),
        )


@dataclass(frozen=True)
class Question:
    """One quiz question: the position, what to pick, the answer and a verdict per choice."""

    id: str
    topic: str
    level: int
    preset: str | None
    rules: Mapping[str, str | bool]
    prompt: str
    view: Mapping[str, Any]
    scenario: Mapping[str, Any]
    kind: str
    choices: tuple[Choice, ...]
    multi: bool
    answer: tuple[str, ...]
    verdicts: Mapping[str, Verdict]
    explanation: str
    rule_ids: tuple[str, ...]

    def __post_init__(self) -> None:
        keys = [c.key for c in self.choices]
        if self.kind not in KINDS:
            raise ValueError(f"unknown question kind {self.kind!r}")
        if len(set(keys)) != len(keys):
            raise ValueError(f"{self.id}: duplicate choice keys {keys}")
        if not self.answer or not set(self.answer) <= set(keys):
            raise ValueError(f"{self.id}: answer {self.answer} is not among the choices {keys}")
        if not self.multi and len(self.answer) != 1:
            raise ValueError(f"{self.id}: a single-answer question has {len(self.answer)} answers")
        if set(self.verdicts) != set(keys):
            raise ValueError(f"{self.id}: verdicts {sorted(self.verdicts)} do not match {keys}")
        for k, v in self.verdicts.items():
            if v.correct != (k in self.answer):
                raise ValueError(f"{self.id}: verdict for {k} says correct={v.correct}")
        bad = [r for r in self.rule_ids if r not in RULES]
        if not self.rule_ids or bad:
            raise ValueError(f"{self.id}: rule ids {list(self.rule_ids)} (unknown: {bad})")

    def to_json(self) -> dict[str, Any]:
        """The mapping of the question schema (a fresh copy: mutate it freely)."""
        return {
            "id": self.id,
            "topic": self.topic,
            "level": self.level,
            "preset": self.preset,
            "rules": dict(self.rules),
            "prompt": self.prompt,
            "view": copy.deepcopy(dict(self.view)),
            "scenario": copy.deepcopy(dict(self.scenario)),
            "kind": self.kind,
            "choices": [c.to_json() for c in self.choices],
            "multi": self.multi,
            "answer": list(self.answer),
            "verdicts": {c.key: self.verdicts[c.key].to_json() for c in self.choices},
            "explanation": self.explanation,
            "rule_ids": list(self.rule_ids),
        }

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Question:
        """A question read back from a question file's mapping; its view and scenario are copied so
        the question owns them."""
        return Question(
            id=str(data["id"]),
            topic=str(data["topic"]),
            level=int(data["level"]),
            preset=data.get("preset"),
            rules=dict(data["rules"]),
            prompt=str(data["prompt"]),
            view=copy.deepcopy(dict(data["view"])),
            scenario=copy.deepcopy(dict(data["scenario"])),
            kind=str(data["kind"]),
            choices=tuple(Choice(str(c["key"]), str(c["label"])) for c in data["choices"]),
            multi=bool(data["multi"]),
            answer=tuple(str(a) for a in data["answer"]),
            verdicts={str(k): Verdict.from_json(v) for k, v in data["verdicts"].items()},
            explanation=str(data["explanation"]),
            rule_ids=tuple(str(r) for r in data["rule_ids"]),
        )

    def grade(self, given: Sequence[str] | str) -> bool:
        """Right or wrong, as the browser grades: one key for a single answer, the set for multi."""
        keys = [given] if isinstance(given, str) else list(given)
        if self.multi:
            return set(keys) == set(self.answer)
        return len(keys) == 1 and keys[0] in self.answer
