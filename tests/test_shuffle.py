"""The engine's shuffle is `random.Random.shuffle`'s: a seed deals what it always dealt."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from loo_lessons.engine.cards import FULL_PACK, shuffled_pack


@given(st.integers(min_value=-(2**70), max_value=2**70))
def test_same_permutation_as_random_shuffle(seed: int) -> None:
    theirs = list(FULL_PACK)
    random.Random(seed).shuffle(theirs)
    assert shuffled_pack(random.Random(seed)) == theirs


@given(st.integers(min_value=0, max_value=2**32))
def test_leaves_the_generator_where_random_shuffle_does(seed: int) -> None:
    mine, theirs = random.Random(seed), random.Random(seed)
    shuffled_pack(mine)
    theirs.shuffle(list(FULL_PACK))
    assert mine.random() == theirs.random()


class _Loaded(random.Random):
    """A generator of its own kind: the engine asks it to shuffle, as `random.shuffle` would."""

    def random(self) -> float:
        return 0.0


def test_a_generator_of_its_own_kind_shuffles_its_own_way() -> None:
    theirs = list(FULL_PACK)
    _Loaded(1).shuffle(theirs)
    assert shuffled_pack(_Loaded(1)) == theirs
