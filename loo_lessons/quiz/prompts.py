"""The words of a question's prompt: the table, the declarations so far, trumps, who is in."""

from __future__ import annotations

from loo_lessons.quiz.positions import card_label
from loo_lessons.scenario import Scenario

#: A declaration as a prompt tells it ("seat 3 stands").
DECLARED_WORDS: dict[str, str] = {
    "play": "stands",
    "take_miss": "takes the miss",
    "pass": "throws up",
    "play_miss_for_pool": "plays the miss for the pool",
}


def declarations_words(sc: Scenario) -> str:
    """The declarations made so far in the deal, in turn order, as a sentence for a prompt."""
    h = sc.hand
    said = [f"seat {s} {DECLARED_WORDS[str(h.declared[s])]}" for s in h.rotation if s in h.declared]
    return ", ".join(said) if said else "nobody has declared yet"


def table_words(sc: Scenario) -> str:
    """The table in a sentence: how many play, who deals, who is elder hand (R05), and whether the
    deal is a must."""
    s = sc.hand.setup
    must = " This deal is a must: everyone plays and there is no miss." if s.must else ""
    return (
        f"{s.players} players; seat {s.dealer} deals, so seat {s.elder} is the elder hand." + must
    )


def trumps_words(sc: Scenario) -> str:
    """Which suit is trumps and the turned-up card that made it (R04), as a sentence; empty before
    the turn-up."""
    h = sc.hand
    if h.turn_up is None or h.trumps is None:
        return ""
    return f"Trumps are {h.trumps.plural} (the {card_label(h.turn_up.code)} is turned up)."


def in_words(sc: Scenario) -> str:
    """'Seats 2, 0 and 1 are in (3 players).' from the engine's players_in."""
    ins = [str(x) for x in sc.hand.players_in]
    listed = ", ".join(ins[:-1]) + f" and {ins[-1]}" if len(ins) > 1 else ins[0]
    return f"Seats {listed} are in ({len(ins)} players)."


def ordinal(n: int) -> str:
    """`n` as an English ordinal: 1st, 2nd, 3rd, 11th, 22nd."""
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"
