"""The `deal` questions: who receives which card, trumps from the turn-up, the stock (R01–R05)."""

from __future__ import annotations

from typing import Any

from loo_lessons.engine.cards import Suit, shuffled_pack
from loo_lessons.engine.deal import round_order
from loo_lessons.explain.words import cards_words
from loo_lessons.quiz.asking import Gen, ask, finish
from loo_lessons.quiz.choices import SUIT_LABELS, number_choices, seat_label
from loo_lessons.quiz.model import Choice, Question, Verdict
from loo_lessons.quiz.positions import (
    card_label,
    table_size,
    view_of,
)
from loo_lessons.quiz.prompts import ordinal
from loo_lessons.quiz.verdicts import same_verdict

# === deal: who receives which card, trumps from the turn-up, the stock ===========================


def gen_deal(g: Gen) -> Question:
    """A `deal` question: who receives a given card of the pack, which suit the turn-up makes
    trumps, or what the stock holds (R01-R05); at level 2, musts and the miss dealt first each
    round."""
    rng = g.rng
    custom = {"miss_deal_position": "first_each_round"} if g.level == 2 and g.chance(0.35) else None
    rules = g.rules(custom)
    n = table_size(rng, 2, 7)
    dealer = rng.randrange(n)
    must = g.level == 2 and g.chance(0.3)
    order = round_order(n, dealer, not must, rules.options().miss_deal_position)
    dealt = 3 * len(order)  # cards dealt before the turn-up
    pack = shuffled_pack(rng)
    deck = [c.code for c in pack[: dealt + 4]]
    mapping: dict[str, Any] = {"rules": rules.mapping(), "players": n, "dealer": dealer}
    if must:
        mapping["must"] = True
    mapping["deck"] = deck
    if g.level == 1:
        what = rng.choices(["deal_card", "trumps"], weights=[3, 1])[0]
    else:
        what = rng.choices(["deal_card", "stock"], weights=[3, 2])[0]

    def who(i: int) -> str:
        if i == dealt:
            return "turn_up"
        seat = order[i % len(order)]
        return "miss" if seat < 0 else str(seat)

    def who_words(k: str) -> str:
        return {"turn_up": "the turn-up", "miss": "the miss"}.get(k, f"seat {k}")

    order_words = ", ".join("the miss" if s < 0 else f"seat {s}" for s in order)
    no_miss = " (a must: no miss, R45)" if must else ""
    setting = (
        f"{n} players; seat {dealer} deals{', a must' if must else ''}. "
        f"The pack is dealt from the top."
    )
    if what == "deal_card":
        # level 1: the first round; level 2: the later rounds, or the turn-up
        first = g.level == 1
        index = rng.randrange(len(order)) if first else rng.randrange(len(order), dealt + 1)
        a = ask(g, mapping, {"ask": "deal_card", "index": index}, rules)
        sc = a.sc
        keys = [str(s) for s in range(n)] + ["miss", "turn_up"]
        choices = tuple(
            Choice(k, seat_label(sc, int(k)) if k.isdigit() else who_words(k).capitalize())
            for k in keys
        )
        ans = a.answer[0]
        if ans == "turn_up":
            right = (
                f"Three rounds of {len(order)} cards ({dealt} cards) go to "
                f"{order_words}; the next card, the {ordinal(dealt + 1)}, is turned up "
                f"and fixes trumps (R04){no_miss}."
            )
            rid, slug = "R04", "turn-up"
        else:
            rnd, place = divmod(index, len(order))
            right = (
                f"Each round gives one card to {order_words}, in that order{no_miss}. "
                f"Card {index + 1} is number {place + 1} of round {rnd + 1}: it goes to "
                f"{who_words(ans)}."
            )
            rid, slug = "R03", "deal-order"
        verdicts = same_verdict(keys, a.answer, rid, slug, right, f"No. {right}")
        if must:
            verdicts["miss"] = Verdict.from_rule(
                "R45", "no-miss-in-must", "No: there is no miss in a must.", False
            )
        card = card_label(deck[index])
        return finish(
            g,
            a,
            kind="pick_seat",
            prompt=f"{setting} Who receives the {ordinal(index + 1)} card, the {card}?",
            choices=choices,
            verdicts=verdicts,
            explanation=right,
            rule_ids=("R03", "R05", "R04") + (("R45",) if must else ()),
            view=view_of(sc, before_deal=True),
        )
    if what == "trumps":
        a = ask(g, mapping, {"ask": "trumps"}, rules)
        shown = deck[: dealt + 3]
        keys = [s.value for s in Suit]
        turn = card_label(deck[dealt])
        right = (
            f"{n} players{' and the miss' if not must else ''} take three cards each: "
            f"{dealt} cards. The {ordinal(dealt + 1)} card, the {turn}, is turned up and "
            f"fixes trumps: {SUIT_LABELS[a.answer[0]].split()[0].lower()}."
        )
        return finish(
            g,
            a,
            kind="pick_option",
            prompt=f"{setting} The top cards of the pack are: {cards_words(shown)}. "
            "Which suit is trumps?",
            choices=[Choice(k, SUIT_LABELS[k]) for k in keys],
            verdicts=same_verdict(keys, a.answer, "R04", "turn-up", right, f"No. {right}"),
            explanation=right,
            rule_ids=("R04", "R03"),
            view=view_of(a.sc, before_deal=True),
        )
    a = ask(g, mapping, {"ask": "stock"}, rules)
    count = int(a.answer[0])
    miss_words = "" if must else ", 3 to the miss"
    right = (
        f"The pack has 52 cards (R01). {n} players take 3 each ({3 * n}){miss_words}, and "
        f"one is turned up (R04): {count} are left in the stock{no_miss}."
    )
    choices = number_choices(rng, count, [count + 1, count + 3, count - 3, count + 4, count - 1])
    keys = [c.key for c in choices]
    return finish(
        g,
        a,
        kind="pick_number",
        prompt=f"{n} players; seat {dealer} deals{', a must' if must else ''}. After the deal and "
        "the turn-up, how many cards are left in the stock?",
        choices=choices,
        verdicts=same_verdict(keys, a.answer, "R03", "deal-size", right, f"No. {right}"),
        explanation=right,
        rule_ids=("R01", "R03", "R04") + (("R45",) if must else ()),
        view=view_of(a.sc, before_deal=True),
    )
