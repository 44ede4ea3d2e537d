"""Another way of showing what a lesson function gives: called as that function is, drawn.

`@shows(trick_rates)` over `def trick_rates_plot(df, call)` makes `trick_rates_plot` take
`trick_rates`'s parameters (the same defaults; `help()` and JupyterLab show them), call
`trick_rates` with them and hand its result to the decorated drawing, with the call's
arguments (defaults filled in) for the words around it, a plot's title. So the table and its
plot cannot drift apart: they are one set of parameters, written once.

`@keywords(SIMULATION)` over a function taking `**simulation` shows those keywords, with
their defaults, as its parameters (`help()`, JupyterLab's tooltip, and `shows`).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Mapping
from typing import Any, ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")
R = TypeVar("R")
F = TypeVar("F", bound=Callable[..., Any])

#: The arguments of one call, by parameter name, defaults filled in.
Call = Mapping[str, Any]


def shows(source: Callable[P, T]) -> Callable[[Callable[[T, Call], R]], Callable[P, R]]:
    """Decorate `draw(result, call)`: the decorated function is called as `source` is and
    shows `source`'s result (see the module docstring). Its name and docstring are the
    drawing's; its signature is `source`'s."""
    signature = inspect.signature(source)

    def decorate(draw: Callable[[T, Call], R]) -> Callable[P, R]:
        @functools.wraps(draw)
        def shown(*args: P.args, **kwargs: P.kwargs) -> R:
            result = source(*args, **kwargs)  # its own refusal of a bad argument first
            call = signature.bind(*args, **kwargs)
            call.apply_defaults()
            return draw(result, call.arguments)

        shown.__signature__ = signature.replace(  # type: ignore[attr-defined]
            return_annotation=inspect.signature(draw).return_annotation
        )
        return shown

    return decorate


def keywords(defaults: Mapping[str, Any]) -> Callable[[F], F]:
    """Decorate a function whose `**kwargs` take the keys of `defaults`: its signature then
    names them as keyword parameters with those defaults (the function itself is unchanged)."""

    def decorate(fn: F) -> F:
        signature = inspect.signature(fn)
        own = [p for p in signature.parameters.values() if p.kind is not p.VAR_KEYWORD]
        named = [
            inspect.Parameter(
                k, inspect.Parameter.KEYWORD_ONLY, default=v, annotation=type(v).__name__
            )
            for k, v in defaults.items()
        ]
        fn.__signature__ = signature.replace(parameters=[*own, *named])  # type: ignore[attr-defined]
        return fn

    return decorate
