"""A question's verdicts: one per choice, each citing its rule and the book's words, and the
explanation that groups them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from loo_lessons.engine.sources import RULES
from loo_lessons.explain import words
from loo_lessons.quiz.model import Choice, Verdict


def loo_quote_index(rule_id: str) -> int:
    """The quote of a rule that names the penalty ('looed', 'loo', 'pool'), else the first."""
    quotes = RULES[rule_id].quotes
    for i, q in enumerate(quotes):
        if "loo" in q.text or "pool" in q.text:
            return i
    return 0


def same_verdict(
    keys: Iterable[str],
    answer: Sequence[str],
    rule_id: str,
    slug: str,
    right: str,
    wrong: str | Mapping[str, str] | None = None,
    quote_index: int = 0,
) -> dict[str, Verdict]:
    """Verdicts citing one rule for every choice: `right` for the answer, `wrong` for the rest."""
    out: dict[str, Verdict] = {}
    for k in keys:
        if k in answer:
            out[k] = Verdict.from_rule(rule_id, slug, right, True, quote_index)
        else:
            why = wrong.get(k) if isinstance(wrong, Mapping) else wrong
            out[k] = Verdict.from_rule(
                rule_id, slug, why if why is not None else f"No. {right}", False, quote_index
            )
    return out


def cite(v: Verdict) -> str:
    """The verdict's rule and the book's words as a learner reads them (markup rendered)."""
    return f"{v.rule_id}; {v.book}: “{words.quote_text(v.quote)}”"


def legal_explanation(
    subject: str, verb: str, choices: Sequence[Choice], verdicts: Mapping[str, Verdict]
) -> str:
    """'Seat 3 may lead: K♥. <reason> (R24; book: “quote”). Not 7♣, 2♦: <reason> (R24).'"""
    label = {c.key: c.label for c in choices}
    right = [c.key for c in choices if verdicts[c.key].correct]
    parts = [f"{subject} may {verb}: {', '.join(label[k] for k in right)}."]
    groups: dict[tuple[bool, str, str], list[str]] = {}
    firsts: dict[tuple[bool, str, str], Verdict] = {}
    for c in choices:
        v = verdicts[c.key]
        key = (v.correct, v.rule_id, v.reason)
        groups.setdefault(key, []).append(c.key)
        firsts.setdefault(key, v)
    for key in groups:
        v = firsts[key]
        if v.correct:
            parts.append(f"{v.reason} ({cite(v)})")
    for key, ks in groups.items():
        v = firsts[key]
        if not v.correct:
            parts.append(f"Not {', '.join(label[k] for k in ks)}: {v.reason} ({v.rule_id})")
    return " ".join(parts)


def ordered_ids(*groups: Iterable[str]) -> tuple[str, ...]:
    """The rule ids of the groups in order, each once, keeping only ids of the rules digest
    (R01-R63)."""
    out: list[str] = []
    for g in groups:
        for r in g:
            if r in RULES and r not in out:
                out.append(r)
    return tuple(out)
