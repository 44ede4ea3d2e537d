"""The topic generators, now one module per topic under `loo_lessons.quiz.topics`.

Kept so that `loo_lessons.quiz.generators.GENERATORS` (and each `gen_<topic>`) still import.
"""

from __future__ import annotations

from loo_lessons.quiz.topics import DISAGREEMENT_LEVELS, GENERATORS
from loo_lessons.quiz.topics.deal import gen_deal
from loo_lessons.quiz.topics.dealer import gen_dealer
from loo_lessons.quiz.topics.declare import gen_declare
from loo_lessons.quiz.topics.follow import gen_follow
from loo_lessons.quiz.topics.lead import gen_lead
from loo_lessons.quiz.topics.must import gen_must
from loo_lessons.quiz.topics.penalty import gen_penalty
from loo_lessons.quiz.topics.pool import gen_pool
from loo_lessons.quiz.topics.trick import gen_trick

__all__ = [
    "DISAGREEMENT_LEVELS",
    "GENERATORS",
    "gen_deal",
    "gen_dealer",
    "gen_declare",
    "gen_follow",
    "gen_lead",
    "gen_must",
    "gen_penalty",
    "gen_pool",
    "gen_trick",
]
