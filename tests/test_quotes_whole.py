"""Every quote the explanation shows is whole: never cut before a clause of the same sentence
that the rule's reason rests on (issue 15: R27's "he must lead the highest" shown without
"unless his highest trumps are in sequence or of equal value"). In `explain --json` (the
reasons of the verdict and of every illegal card) and in the text a learner reads."""

from __future__ import annotations

import pytest

from loo_lessons import lessons as L
from loo_lessons.engine.sources import RULES
from loo_lessons.explain import explain_json, explain_text
from loo_lessons.explain.quotes import uncut
from loo_lessons.lessons import scenario_names


def test_r27_is_quoted_with_its_exception() -> None:
    doc = explain_json(L.scenario("lead-two-declared-highest"))
    quotes = [law["quote"] for law in [doc["why"], *doc["illegal"].values()]]
    assert quotes and all("unless his highest trumps are in sequence" in q for q in quotes)
    assert "unless his highest trumps are in sequence" in " ".join(
        explain_text(L.scenario("lead-two-declared-highest")).split()
    )


@pytest.mark.parametrize("name", scenario_names())
def test_every_quote_of_a_shipped_scenario_is_whole(name: str) -> None:
    doc = explain_json(L.scenario(name))
    cited = [doc["why"], *doc["illegal"].values()] if isinstance(doc.get("why"), dict) else []
    for law in cited:
        rid = law["rule_id"]
        # a part of a longer passage of the rule's words is never shown alone
        longer = [uncut(rid, q).text for q in RULES[rid].quotes if law["quote"] in uncut(rid, q).text]
        assert all(w == law["quote"] for w in longer), (name, rid, law["quote"])
