"""The `follow` questions: following suit and trumping (R32–R36)."""

from __future__ import annotations

from loo_lessons.engine.game import Hand
from loo_lessons.quiz.asking import Gen, Reject, legal_question
from loo_lessons.quiz.dealing import ask_legal_at, positions_kept, random_play
from loo_lessons.quiz.model import Question
from loo_lessons.quiz.positions import (
    card_label,
)
from loo_lessons.quiz.prompts import in_words, table_words, trumps_words

# === follow: following and trumping, R32–R36 ======================================================


def _follow_level(h: Hand) -> int | None:
    trick = h.current_trick if len(h.tricks) > len(h.winners) else []
    seat = h.to_act
    if not trick or seat is None or len(h.held[seat]) < 2:
        return None
    led = trick[0][1].suit
    held = h.held[seat]
    if any(c.suit is led for c in held):
        return 1
    return 2 if any(c.suit is h.trumps for c in held) else 1


def gen_follow(g: Gen) -> Question:
    """A `follow` question: which cards a player may play to a trick, following suit and trumping
    (R32-R36), at the level asked."""
    rules = g.rules()
    hand = random_play(g, rules)
    found = [
        m
        for m, lvl in positions_kept(
            hand, g, lambda h, d: _follow_level(h) if d or not g.disagreement else None, rules
        )
        if lvl == g.level
    ]
    if not found:
        raise Reject("no following position of this level")
    a, seat = ask_legal_at(g, hand, found, rules)
    sc = a.sc
    trick = sc.hand.current_trick
    played = ", ".join(f"seat {s} {card_label(c.code)}" for s, c in trick)
    number = len(sc.hand.winners) + 1
    return legal_question(
        g,
        a,
        prompt=f"{table_words(sc)} {trumps_words(sc)} {in_words(sc)} Trick {number}: {played}. "
        f"Seat {seat} is to play. Which cards may he play? Select every legal card.",
        subject=f"Seat {seat}",
        verb="play",
    )
