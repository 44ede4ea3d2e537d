"""The table as the components draw it, and the small words every view of a position shares:
the position read from whatever a notebook gives (`as_scenario_or_hand`), the action key and
label, the table view of the question schema (`table_view`), the law that allowed a move, a
verdict's forbidden options, the penalty words, and the settlement told line by line
(`settlement_working`). Every verdict, winner and payment comes from the engine; these only
reshape it into JSON-ready mappings.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from pathlib import Path
from typing import Any

from loo_lessons.engine.cards import Card, in_hand_order
from loo_lessons.engine.game import Action, Hand, Phase, Verdict
from loo_lessons.engine.laws import Law
from loo_lessons.engine.options import RuleOptions
from loo_lessons.engine.settle import Settlement
from loo_lessons.explain import law_json, words
from loo_lessons.explain.settlement import settlement_lines
from loo_lessons.scenario import Scenario, load, load_file, loads

Position = Scenario | Hand | Mapping[str, Any] | str | Path


def as_scenario_or_hand(position: Position) -> Scenario | Hand:
    """A Scenario or Hand as given; a mapping, YAML text or a file path is loaded."""
    if isinstance(position, Scenario | Hand):
        return position
    if isinstance(position, Mapping):
        return load(position)
    if isinstance(position, Path):
        return load_file(position)
    text = str(position)
    if "\n" not in text and text.strip().endswith((".yaml", ".yml", ".json")):
        return load_file(text.strip())
    return loads(text)


def hand_of(position: Scenario | Hand) -> Hand:
    """The engine's hand of a position given as a scenario or as a hand."""
    return position.hand if isinstance(position, Scenario) else position


def sentence(text: str) -> str:
    """`text` as a sentence: stripped, with a full stop unless it ends in one already."""
    text = text.strip()
    return text if text.endswith((".", "!", "?")) else text + "."


def action_key(a: Action) -> str:
    """The key of an action in answers and JSON: a card's code ("QH") or a declaration's word
    ("stand")."""
    return a.code if isinstance(a, Card) else str(a)


def action_label(a: Action) -> str:
    """A button's label: `Stand`, `Take miss`, `Throw up`, `Play the miss for the pool`, `10♥`."""
    return words.action_label(a, capital=True)


# --- the table ---------------------------------------------------------------------------------


def table_view(
    position: Scenario | Hand,
    *,
    reveal: bool | Collection[int] = True,
    show_miss: bool = False,
    last_trick: bool = False,
) -> dict[str, Any]:
    """The table view of the question schema for the position now.

    `reveal`: True (every known hand face up), False, or the seats shown face up. Seats whose
    cards the position does not know are always face down. `show_miss`: the untaken miss face
    up. `last_trick`: when no card of the next trick is down yet, show the trick just won
    (with its winner) as the trick on the table.
    """
    hand = hand_of(position)
    s = hand.setup
    settled = position.settlement if isinstance(position, Scenario) else None
    won: dict[int, int] = {}
    if settled is not None:
        won = dict(settled.tricks_won)
    else:
        for w in hand.winners:
            won[w] = won.get(w, 0) + 1
    seats: list[dict[str, Any]] = []
    for seat in range(s.players):
        d = hand.declared.get(seat)
        if d is not None:
            status: str | None = "in" if d.plays else "out"
        elif hand.phase in (Phase.DEAL, Phase.DECLARE):
            status = "to_declare"
        else:
            status = None
        shown = reveal if isinstance(reveal, bool) else seat in reveal
        known = seat not in hand.partial
        held = hand.held[seat]
        played = sum(1 for t in hand.tricks for p, _ in t if p == seat)
        seats.append(
            {
                "seat": seat,
                "role": "dealer" if seat == s.dealer else ("elder" if seat == s.elder else None),
                "status": status,
                "declaration": str(d) if d is not None else None,
                "cards": [c.code for c in in_hand_order(held, hand.trumps)]
                if shown and known
                else None,
                "n_cards": len(held) if known else (0 if status == "out" else max(0, 3 - played)),
                "tricks_won": won.get(seat, 0),
            }
        )
    miss: list[str | None] | str | None
    if hand.miss_holder is not None:
        miss = "taken"
    elif hand.miss is not None:
        miss = [c.code for c in hand.miss] if show_miss and len(hand.miss) == 3 else [None] * 3
    else:
        miss = None
    finished = len(hand.winners)
    trick: list[list[Any]] = []
    trick_winner: int | None = None
    trick_number = min(3, finished + 1)
    if len(hand.tricks) > finished and hand.tricks[-1]:
        trick = [[p, c.code] for p, c in hand.tricks[-1]]
    elif last_trick and finished:
        trick = [[p, c.code] for p, c in hand.tricks[finished - 1]]
        trick_winner = hand.winners[finished - 1]
        trick_number = finished
    tricks = [t.as_json() for t in hand.completed_tricks() if t.winner is not None]
    if trick_winner is not None:
        tricks = tricks[:-1]
    return {
        "players": s.players,
        "dealer": s.dealer,
        "elder": s.elder,
        "turn_up": hand.turn_up.code if hand.turn_up is not None else None,
        "trumps": hand.trumps.value if hand.trumps is not None else None,
        "pool": hand.pool_on_table,  # the stake and any penalty paid into it at once
        "seats": seats,
        "miss": miss,
        "trick": trick,
        "tricks": tricks,
        "to_act": hand.to_act if settled is None else None,
        # optional keys (the components use them when present)
        "phase": hand.phase.value if settled is None else Phase.SETTLED.value,
        "must": s.must,
        "miss_holder": hand.miss_holder,
        "trick_winner": trick_winner,
        "trick_number": trick_number,
    }


# --- pick a card / a declaration ---------------------------------------------------------------


def allowed_law(v: Verdict, a: Action) -> Law | None:
    """The law that allows action `a` in the verdict, or the verdict's own law (`why`) when no
    single law is named for it."""
    for x, law in v.allowed_by:
        if x is a:
            return law
    return v.why


def award_rule(hand: Hand | None) -> str:
    """The rule id of how the pool was awarded without play: the hand's award law, else R14 (all
    before the dealer threw up)."""
    if hand is not None and hand.award_law is not None:
        return hand.award_law.rule
    return "R14"


def settlement_working(
    s: Settlement,
    hand: Hand | None = None,
    *,
    winners: list[int] | None = None,
    you: int | None = None,
) -> list[dict[str, Any]]:
    """The settlement line by line, each line with the rule it applies: the engine's
    `Settlement.lines` in `explain.settlement`'s words (text, rule_id, reason, quote, book).
    `winners` is kept for callers; the lines already know the tricks' order."""
    del winners
    return settlement_lines(s, hand, you=you)


def forbidden_json(v: Verdict, options: RuleOptions | None = None) -> list[dict[str, Any]]:
    """The forbidden actions of a verdict as JSON: each key and label with the law (rule id, quote,
    book) that forbids it."""
    return [
        {"key": action_key(a), "label": action_label(a), "law": law_json(law, options)}
        for a, law in v.forbidden
    ]
