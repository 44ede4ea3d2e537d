"""Three-card Loo: rules engine and lessons.

The layers, each importing only those above it (a test enforces it):

- `engine/`: the rules (standard library only; no I/O, no HTML, no YAML);
- `scenario/`: scenario files and saved games in and out (the only YAML user);
- `explain/`: every verdict and settlement put into words;
- `quiz/`, `sim/`: questions and simulations over the engine;
- `views/`, `widgets/`: HTML and terminal rendering, widget controllers and adapters;
- `lessons/`: what notebooks call; `cli/`: the `loo-lessons` command.

Nothing is imported until it is asked for (PEP 562): `import loo_lessons.engine.game` loads the
engine alone, while `from loo_lessons import Hand, load_scenario` works as before. Asking the
package for `Hand` or `Card` also gives the engine's objects their notebook pictures (the
`_repr_html_` hooks of `views/html.py`, which any view registers when it is imported).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from loo_lessons.engine.cards import Card
    from loo_lessons.engine.errors import IllegalAction, InputError, LooError, NotationError
    from loo_lessons.engine.game import Hand
    from loo_lessons.engine.options import RuleOptions, preset
    from loo_lessons.scenario.errors import ScenarioError
    from loo_lessons.scenario.model import Scenario

__version__ = "0.2.0"

# each public name and the module that holds it
_PUBLIC: dict[str, str] = {
    "Card": "loo_lessons.engine.cards",
    "Hand": "loo_lessons.engine.game",
    "IllegalAction": "loo_lessons.engine.errors",
    "InputError": "loo_lessons.engine.errors",
    "LooError": "loo_lessons.engine.errors",
    "NotationError": "loo_lessons.engine.errors",
    "RuleOptions": "loo_lessons.engine.options",
    "preset": "loo_lessons.engine.options",
    "ScenarioError": "loo_lessons.scenario.errors",
}
# names whose objects a notebook shows: asking for them registers the pictures
_PICTURED = frozenset({"Card", "Hand"})


def __getattr__(name: str) -> Any:
    """The public name `name`, imported from its module on first use (PEP 562)."""
    module = _PUBLIC.get(name)
    if module is None:
        raise AttributeError(f"module 'loo_lessons' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    if name in _PICTURED:
        importlib.import_module("loo_lessons.views.html")  # registers the `_repr_html_` hooks
    globals()[name] = value  # found once; later look-ups do not come here
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_PUBLIC))


def load_scenario(source: str) -> Scenario:
    """The scenario in the file at `source` (YAML or JSON), read by the one guarded reader
    (`loo_lessons.scenario.load_file`); a bad file raises one `ScenarioError` naming the field."""
    from loo_lessons.scenario import load_file

    return load_file(source)


__all__ = [
    "Card",
    "Hand",
    "IllegalAction",
    "InputError",
    "LooError",
    "NotationError",
    "RuleOptions",
    "ScenarioError",
    "__version__",
    "load_scenario",
    "preset",
]
