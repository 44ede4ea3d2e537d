"""Positions written back as scenario text (`scenario.dump`) read back as the same position,
in the long layout and in the compact one that search and the lessons show."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from loo_lessons.engine.game import Hand
from loo_lessons.scenario import dump, loads, position_mapping


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 8), st.integers(0, 20), st.booleans())
def test_dump_reads_back_as_the_same_position(
    seed: int, players: int, moves: int, compact: bool
) -> None:
    h = Hand.from_seed(seed, players=players)
    for _ in range(moves):
        if h.to_act is None:
            break
        h.apply_unchecked(h.legal_actions()[0])
    text = dump(position_mapping(h), compact=compact)
    again = loads(text).hand
    assert (again.phase, again.to_act) == (h.phase, h.to_act)
    assert [sorted(again.hand_of(s)) for s in range(players)] == [
        sorted(h.hand_of(s)) for s in range(players)
    ]
    assert position_mapping(again) == position_mapping(h)


def test_the_compact_layout_puts_a_hand_on_one_line() -> None:
    mapping = position_mapping(Hand.from_seed(4, players=3))
    compact, long = dump(mapping, compact=True), dump(mapping)
    hand = [str(c) for c in Hand.from_seed(4, players=3).hand_of(1)]
    assert f"[{', '.join(hand)}]" in compact
    assert f"- {hand[0]}\n" in long
    assert len(compact.splitlines()) < len(long.splitlines())
    assert all(len(line) <= 88 for line in compact.splitlines())
