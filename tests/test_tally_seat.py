"""`Tally.seat` is written out row by row for speed (issue 25); it must add exactly what the
plain `_add` of every row would, to the value and the type, in any sequence of seats."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from loo_lessons.sim.tally import PLAY, TAKE_MISS, Tally, _add

_SEAT = st.tuples(
    st.integers(1, 6),  # position
    st.integers(0, 4),  # declaration code
    st.integers(0, 15),  # dealt features
    st.integers(0, 15),  # played features
    st.integers(0, 3),  # tricks
    st.integers(0, 40),  # won
    st.integers(0, 40),  # paid
    st.integers(0, 20),  # staked
    st.booleans(),  # awarded
    st.integers(0, 3),  # bot
)


def _reference(t: Tally, seat: tuple[Any, ...]) -> None:
    """The seat added row by row through `_add` (what `Tally.seat` was before it was sped up)."""
    position, code, dealt, played, tricks, won, paid, staked, awarded, bot = seat
    net = won - paid
    if paid:
        t.count("loos")
    balance = net - staked
    _add(t.bots, bot, (1, balance, balance * balance, paid > 0, code in (PLAY, TAKE_MISS)))
    _add(t.decl, (position, code), (1, net, net - staked))
    if code in (PLAY, TAKE_MISS):
        _add(t.miss, (dealt, code), (1, net))
        if not awarded:
            _add(t.play, (played, position), (1, tricks > 0, paid > 0, tricks, net))


def _typed(d: dict[Any, Any]) -> dict[Any, Any]:
    return {
        k: [(type(x).__name__, x) for x in v] if isinstance(v, list) else v for k, v in d.items()
    }


@given(st.lists(_SEAT, max_size=40))
def test_seat_adds_what_add_would(seats: list[tuple[Any, ...]]) -> None:
    fast, slow = Tally(5), Tally(5)
    for s in seats:
        fast.seat(*s)
        _reference(slow, s)
    for name in ("totals", "play", "decl", "miss", "bots"):
        assert _typed(getattr(fast, name)) == _typed(getattr(slow, name)), name
    assert fast.tables() == slow.tables()
