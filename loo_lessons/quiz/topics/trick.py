"""The `trick` questions: who wins the trick (R37), and the lead after a trick (R29–R31)."""

from __future__ import annotations

from loo_lessons.engine.cards import Card, Suit, beats
from loo_lessons.engine.game import Hand, Phase
from loo_lessons.quiz.asking import Gen, Reject, ask, finish, legal_question
from loo_lessons.quiz.choices import seat_label
from loo_lessons.quiz.dealing import ask_legal_at, positions_kept, random_play, trumps_held
from loo_lessons.quiz.model import Choice, Question, Verdict
from loo_lessons.quiz.positions import (
    at_move,
    card_label,
    scenario_of,
    view_of,
)
from loo_lessons.quiz.prompts import in_words, table_words, trumps_words

# === trick: who wins the trick (R37), and trump after trick (R29–R31) =============================


def _winner_reasons(plays: list[tuple[int, Card]], trumps: Suit, winner: int) -> dict[str, str]:
    best = dict(plays)[winner]
    led = plays[0][1].suit
    out: dict[str, str] = {}
    for seat, c in plays:
        lc, lb = card_label(c.code), card_label(best.code)
        if seat == winner:
            out[str(seat)] = (
                f"{lb} is the highest trump in the trick."
                if best.suit is trumps
                else f"{lb} is the highest card of the suit led ({led.plural}), and no trump "
                "was played."
            )
        elif c.suit is trumps:
            out[str(seat)] = f"No: {lc} is a trump, but {lb} is a higher trump."
        elif c.suit is led:
            out[str(seat)] = (
                f"No: {lc} follows suit, but the trick is trumped by {lb}."
                if best.suit is trumps
                else f"No: {lc} follows suit, but {lb} is higher."
            )
        else:
            out[str(seat)] = (
                f"No: {lc} neither follows the suit led ({led.plural}) nor is a trump: "
                "it cannot win the trick."
            )
        # the engine's own comparison must agree with these words
        assert seat == winner or beats(best, c, trumps) or c.suit not in (led, trumps)
    return out


def _after_trick_level(h: Hand) -> int | None:
    if (
        h.winners
        and h.to_act is not None
        and not (len(h.tricks) > len(h.winners) and h.current_trick)
    ):
        return 2
    return None


def gen_trick(g: Gen) -> Question:
    """A `trick` question: who wins the trick (R37), or who leads after it (R29-R31)."""
    rules = g.rules()
    hand = random_play(g, rules)
    if g.level == 1:
        marks: list[int] = []
        while hand.phase is Phase.PLAY and hand.to_act is not None:
            legal = hand.legal_actions()
            done = len(hand.winners)
            hand.apply(legal[g.rng.randrange(len(legal))])
            if len(hand.winners) > done:  # this card finished a trick
                marks.append(len(hand.actions))
        pos = at_move(hand, g.rng.choice(marks)) if marks else hand
        i = len(pos.winners) - 1
        if i < 0:
            raise Reject("no finished trick")
        a = ask(g, scenario_of(pos, rules), {"ask": "trick_winner", "trick": i}, rules)
        sc = a.sc
        plays = list(sc.hand.tricks[i])
        assert sc.hand.trumps is not None
        reasons = _winner_reasons(plays, sc.hand.trumps, int(a.answer[0]))
        keys = [str(s) for s, _ in plays]
        verdicts = {
            k: Verdict.from_rule("R37", "trick-winner", reasons[k], k in a.answer) for k in keys
        }
        played = ", ".join(f"seat {s} {card_label(c.code)}" for s, c in plays)
        right = reasons[a.answer[0]] + (
            " The trick goes to the highest trump, else to the highest card of the suit led "
            "(R37: cards rank as at whist, R01)."
        )
        return finish(
            g,
            a,
            kind="pick_seat",
            prompt=f"{table_words(sc)} {trumps_words(sc)} {in_words(sc)} Trick {i + 1}: {played}. "
            "Who wins the trick?",
            choices=[
                Choice(str(s), f"{seat_label(sc, s)}: {card_label(c.code)}") for s, c in plays
            ],
            verdicts=verdicts,
            explanation=right,
            rule_ids=("R37", "R01"),
            view=view_of(sc, (), last_trick_open=True),
        )

    def keep(h: Hand, differs: bool) -> int | None:
        lvl = _after_trick_level(h)
        if lvl is None or h.to_act is None or (g.disagreement and not differs):
            return None
        if len(h.held[h.to_act]) < 2:
            return None  # a last card is no question
        t = trumps_held(list(h.held[h.to_act]), h.trumps)
        want = 2 if g.disagreement else 1
        if t < want and not (not g.disagreement and g.chance(0.15)):
            return None
        return lvl

    found = [m for m, _ in positions_kept(hand, g, keep, rules)]
    if not found:
        raise Reject("no lead after a trick")
    a, seat = ask_legal_at(g, hand, found, rules)
    sc = a.sc
    last = sc.hand.tricks[len(sc.hand.winners) - 1]
    won_with = card_label(dict(last)[seat].code)
    played = ", ".join(f"seat {s} {card_label(c.code)}" for s, c in last)
    n_trick = len(sc.hand.winners)
    return legal_question(
        g,
        a,
        prompt=f"{table_words(sc)} {trumps_words(sc)} {in_words(sc)} Trick {n_trick}: {played}. Seat {seat} "
        f"won it with the {won_with} and now leads to trick {n_trick + 1}. Which cards may he "
        "lead? Select every card he may lead.",
        subject=f"Seat {seat}",
        verb="lead",
    )
