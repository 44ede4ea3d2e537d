"""One module per topic; `GENERATORS` maps each topic to its generator, in lesson order.

Every question is built from a real position and answered by the engine; nothing here decides a
rule.
"""

from __future__ import annotations

from collections.abc import Callable

from loo_lessons.quiz.asking import Gen
from loo_lessons.quiz.model import Question
from loo_lessons.quiz.topics.deal import gen_deal
from loo_lessons.quiz.topics.dealer import gen_dealer
from loo_lessons.quiz.topics.declare import gen_declare
from loo_lessons.quiz.topics.follow import gen_follow
from loo_lessons.quiz.topics.lead import gen_lead
from loo_lessons.quiz.topics.must import gen_must
from loo_lessons.quiz.topics.penalty import gen_penalty
from loo_lessons.quiz.topics.pool import gen_pool
from loo_lessons.quiz.topics.trick import gen_trick

GENERATORS: dict[str, Callable[[Gen], Question]] = {
    "deal": gen_deal,
    "declare": gen_declare,
    "dealer": gen_dealer,
    "lead": gen_lead,
    "follow": gen_follow,
    "trick": gen_trick,
    "pool": gen_pool,
    "must": gen_must,
    "penalty": gen_penalty,
}

#: Levels at which Hoffmann's and Peel's rules can give different verdicts, per topic.
DISAGREEMENT_LEVELS: dict[str, tuple[int, ...]] = {
    "lead": (1, 2),
    "follow": (1, 2),
    "trick": (2,),
    "pool": (2,),
    "penalty": (2,),
}
