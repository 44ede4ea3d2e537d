"""The names a scenario file may use (shared/scenario-format.md): its keys and declarations."""

from __future__ import annotations

from loo_lessons.engine.declare import Declaration

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

#: The contract's declarations and the books' own words for them.
DECLARATION_ALIASES = {
    "play": Declaration.PLAY,
    "stand": Declaration.PLAY,
    "take_miss": Declaration.TAKE_MISS,
    "take miss": Declaration.TAKE_MISS,
    "pass": Declaration.PASS,
    "throw_up": Declaration.PASS,
    "throw up": Declaration.PASS,
    "play_miss_for_pool": Declaration.PLAY_MISS_FOR_POOL,
}
