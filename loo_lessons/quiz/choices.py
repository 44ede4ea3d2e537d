"""Answer choices: the cards, declarations, seats and numbers a question offers, labelled as the
learner reads them, and put in a seeded order."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from loo_lessons.engine.declare import ALL_DECLARATIONS
from loo_lessons.explain import words
from loo_lessons.quiz.model import Choice
from loo_lessons.quiz.positions import card_label
from loo_lessons.scenario import Scenario

#: A declaration's button: the books' words (`explain.words.action_label`).
DECLARATION_LABELS: dict[str, str] = {
    str(d): words.action_label(d, capital=True) for d in ALL_DECLARATIONS
}

#: A suit as a choice names it: its name and its sign.
SUIT_LABELS: dict[str, str] = {"C": "Clubs ♣", "D": "Diamonds ♦", "H": "Hearts ♥", "S": "Spades ♠"}


def card_choices(codes: Sequence[str]) -> tuple[Choice, ...]:
    """The answer choices for these card codes, each labelled as the learner reads the card."""
    return tuple(Choice(c, card_label(c)) for c in codes)


def declaration_choices() -> tuple[Choice, ...]:
    """The choices of every declaration (stand, pass, ...), labelled in the lessons' words."""
    return tuple(Choice(str(d), DECLARATION_LABELS[str(d)]) for d in ALL_DECLARATIONS)


def seat_label(sc: Scenario, seat: int) -> str:
    """A choice's seat, as plain as "Seat 3": a label naming a role ("(the elder hand)",
    "(the dealer)") would answer the questions that ask who holds it. The prompt says who
    deals; the learner works out the rest."""
    del sc
    return f"Seat {seat}"


def seat_choices(sc: Scenario, seats: Iterable[int]) -> tuple[Choice, ...]:
    """The answer choices for these seats, each labelled plainly "Seat 3" (see `seat_label`)."""
    return tuple(Choice(str(s), seat_label(sc, s)) for s in seats)


def number_choices(rng: random.Random, answer: int, wrong: Iterable[int]) -> tuple[Choice, ...]:
    """The answer and three plausible wrong numbers (in ascending order here; `finish` puts
    every question's choices in a seeded order)."""
    pool = sorted({w for w in wrong if w >= 0 and w != answer})
    rng.shuffle(pool)
    picked = pool[:3]
    step = 1
    while len(picked) < 3:
        for cand in (answer + step, answer - step):
            if cand >= 0 and cand != answer and cand not in picked and len(picked) < 3:
                picked.append(cand)
        step += 1
    return tuple(Choice(str(n), str(n)) for n in sorted([answer, *picked]))


def in_seeded_order(rng: random.Random, choices: Sequence[Choice]) -> tuple[Choice, ...]:
    """The choices in an order drawn from the question's own RNG, so the place of the right
    answers tells a learner nothing ("click the first" scores no better than chance); the same
    seed (a class code) still deals every pupil the same order."""
    shuffled = list(choices)
    rng.shuffle(shuffled)
    return tuple(shuffled)
