"""A rule's quote never cut before a clause its reason rests on.

The digest splits some sentences of the seeds into several quotes of one rule (R27: "he must
lead the _highest_" / "unless his highest trumps are in sequence or of equal value, ... when
he may lead either of them."). Shown alone, the first half states a rule the book does not
make. `uncut` joins a quote with the quotes of the same rule that continue the same sentence
in the seed text, taking the seed's own words between them, so what is shown stays verbatim.
"""

from __future__ import annotations

from functools import cache

from loo_lessons.engine.sources import RULES, Quote, seed_text

#: Characters that end a sentence (a quote ending with one is not cut).
SENTENCE_END = ".?!"
#: At most this many characters of the seed lie between two parts of one sentence (", and ").
MAX_GAP = 8


def _ws(text: str) -> str:
    return " ".join(text.split())


@cache
def _body(seed: str) -> str:
    return _ws(seed_text(seed))


def _ends_sentence(text: str) -> bool:
    return text.rstrip("\"'”)]").endswith(tuple(SENTENCE_END))


def _span(q: Quote) -> tuple[int, int] | None:
    body = _body(q.seed)
    at = body.find(_ws(q.text))
    return None if at < 0 else (at, at + len(_ws(q.text)))


def _continues(before: Quote, after: Quote) -> bool:
    """`after` goes on with the sentence `before` leaves unfinished, right after it."""
    if before.seed != after.seed or before.outside or _ends_sentence(before.text):
        return False
    a, b = _span(before), _span(after)
    if a is None or b is None:
        return False
    gap = _body(before.seed)[a[1] : b[0]]
    return 0 <= b[0] - a[1] <= MAX_GAP and not any(c in SENTENCE_END for c in gap)


@cache
def uncut(rule_id: str, q: Quote) -> Quote:
    """`q` with every quote of `rule_id` that runs on in the same sentence before or after it,
    as one verbatim passage of the seed; `q` itself when it stands whole (or is not one of
    the rule's quotes, or comes from a book outside the seeds)."""
    quotes = RULES[rule_id].quotes if rule_id in RULES else ()
    if q.outside or q not in quotes:
        return q
    i = j = quotes.index(q)
    while i > 0 and _continues(quotes[i - 1], quotes[i]):
        i -= 1
    while j + 1 < len(quotes) and _continues(quotes[j], quotes[j + 1]):
        j += 1
    if i == j:
        return q
    first, last = _span(quotes[i]), _span(quotes[j])
    assert first is not None and last is not None
    return Quote(q.seed, _body(q.seed)[first[0] : last[1]])
