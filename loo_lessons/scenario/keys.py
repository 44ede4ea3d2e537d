"""The names a scenario file may use (shared/scenario-format.md): its keys and declarations."""

from __future__ import annotations

from loo_lessons.engine.declare import DECLARATION_ALIASES  # the engine's one reader of the words

__all__ = ["CONTRACT_KEYS", "DECLARATION_ALIASES", "EXTRA_KEYS", "NOTE_KEYS"]

CONTRACT_KEYS = (
    "title",
    "description",
    "rules",
    "players",
    "dealer",
    "turn_up",
    "trumps",
    "stake",
    "loo",
    "single_loo",
    "loo_cap",
    "pool",
    "must",
    "declarations",
    "hands",
    "miss",
    "tricks",
    "tricks_won",
    "trick_winners",
    "deck",
)
#: Keys this package adds (the contract allows additions).
EXTRA_KEYS = ("penalties",)
#: Annotation keys a teacher may add; they never change the answer.
NOTE_KEYS = (
    "notes",
    "expect",
    "expected",
    "answer",
    "source",
    "sources",
    "tags",
    "question",
    "id",
    "name",
    "comment",
    "comments",
    "rule_ids",
    "topic",
    "level",
)
