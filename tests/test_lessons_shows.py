"""A table and its plot (or its YAML) are one set of parameters (`lessons.shows`), and the
strategy tables take the simulation's settings once (`strategy.Simulation`, `SIMULATION`)."""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from loo_lessons import lessons as L
from loo_lessons.engine.errors import LooError
from loo_lessons.lessons import strategy
from loo_lessons.lessons.shows import Call, keywords, shows


def _table(name: str, size: int = 3, *, wide: bool = False) -> list[str]:
    """A stand-in for a lesson's table: refuses a bad size as a lesson function would."""
    if size < 0:
        raise LooError(f"size: {size} is below 0")
    return [name] * size + (["wide"] if wide else [])


@shows(_table)
def _drawn(rows: list[str], call: Call) -> dict[str, Any]:
    """The stand-in table, drawn."""
    return {"rows": rows, "call": dict(call)}


@given(
    name=st.text(max_size=5),
    size=st.integers(0, 6),
    wide=st.booleans(),
    positional=st.booleans(),
)
def test_the_drawing_gets_the_tables_result_and_every_argument(
    name: str, size: int, wide: bool, positional: bool
) -> None:
    out = _drawn(name, size, wide=wide) if positional else _drawn(name=name, size=size, wide=wide)
    assert out["rows"] == _table(name, size, wide=wide)
    assert out["call"] == {"name": name, "size": size, "wide": wide}


def test_the_drawing_fills_in_the_tables_defaults() -> None:
    assert _drawn("x")["call"] == {"name": "x", "size": 3, "wide": False}


def test_the_drawn_function_is_called_as_the_table_and_named_as_the_drawing() -> None:
    table, drawn = inspect.signature(_table), inspect.signature(_drawn)
    assert drawn.parameters == table.parameters
    assert drawn.return_annotation == "dict[str, Any]"
    assert (_drawn.__name__, _drawn.__doc__) == ("_drawn", "The stand-in table, drawn.")
    with pytest.raises(LooError, match="size: -1"):
        _drawn("x", -1)  # the table's own refusal, not a binding error
    with pytest.raises(TypeError):
        _drawn("x", colour="red")  # type: ignore[call-arg]


def test_keywords_name_the_settings_with_their_defaults() -> None:
    defaults: Mapping[str, Any] = {"hands": 10, "rules": "peel"}

    @keywords(defaults)
    def f(by: str = "a", **settings: Any) -> dict[str, Any]:
        return {"by": by, **settings}

    params = inspect.signature(f).parameters
    assert [(p.name, p.kind, p.default) for p in params.values()] == [
        ("by", inspect.Parameter.POSITIONAL_OR_KEYWORD, "a"),
        ("hands", inspect.Parameter.KEYWORD_ONLY, 10),
        ("rules", inspect.Parameter.KEYWORD_ONLY, "peel"),
    ]
    assert f("b", hands=3) == {"by": "b", "hands": 3}  # the function itself is unchanged


@pytest.mark.parametrize(
    ("table", "plot"),
    [
        (L.trick_rates, L.trick_rates_plot),
        (L.expected_counters, L.expected_counters_plot),
        (L.miss_value, L.miss_value_plot),
        (L.session, L.session_plot),
        (L.find, L.find_yaml),
    ],
)
def test_every_plot_takes_its_tables_parameters(table: Any, plot: Any) -> None:
    assert inspect.signature(plot).parameters == inspect.signature(table).parameters
    assert plot.__doc__ and plot.__doc__ != table.__doc__


def test_the_simulation_settings_are_shown_with_their_defaults() -> None:
    for f in (L.simulate, L.trick_rates):
        params = inspect.signature(f).parameters
        assert {k: params[k].default for k in strategy.SIMULATION} == strategy.SIMULATION
    lab = inspect.signature(L.lab).parameters
    assert {k: p.default for k, p in lab.items()} == strategy.LAB
    assert strategy.LAB == {**strategy.SIMULATION, "hands": 300, "by": "trumps"}
    assert strategy.SIMULATION == {
        "hands": 3000,
        "players": 5,
        "seed": 1,
        "rules": "hoffmann",
        "bots": "sensible",
    }


@pytest.mark.parametrize("call", [L.simulate, L.trick_rates])
def test_a_setting_that_is_not_one_is_refused_by_name(call: Any) -> None:
    with pytest.raises(LooError, match=r"^hand: not a setting of a simulation \(hands, "):
        call(hand=100)


def test_a_session_plot_draws_the_loos_given_by_an_iterator() -> None:
    fig = L.session_plot(deals=5, players=4, seed=2, loo=iter(("pool_capped", "fixed")))
    (ax,) = fig.axes
    labels = ax.get_legend_handles_labels()[1]
    assert labels == ["unlimited, capped (pool_capped)", "limited (fixed)", "after a single"]
    assert "5 deals: 4 players, sensible bots, seed 2, stake 3" in ax.get_title()


def test_a_plot_title_names_the_defaults_it_ran_with() -> None:
    fig = L.trick_rates_plot("seat", hands=120, players=4)
    (ax,) = fig.axes
    assert ax.get_title() == "Who takes a trick: 120 hands, 4 players, seed 1, hoffmann"
    assert [t.get_text() for t in ax.get_xticklabels()] == ["1", "2", "3", "4"]
