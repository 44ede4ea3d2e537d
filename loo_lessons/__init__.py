"""Three-card Loo: rules engine and lessons.

The layers, each importing only those above it (a test enforces it):

- `engine/`: the rules (standard library only; no I/O, no HTML, no YAML);
- `scenario/`: scenario files and saved games in and out (the only YAML user);
- `explain/`: every verdict and settlement put into words;
- `quiz/`, `sim/`: questions and simulations over the engine;
- `views/`, `widgets/`: HTML and terminal rendering, widget controllers and adapters;
- `lessons/`: what the notebooks call; `cli/`: the `loo-lessons` command.
"""

from __future__ import annotations

from loo_lessons import _compat
from loo_lessons.engine.cards import Card
from loo_lessons.engine.errors import IllegalAction, LooError, ScenarioError
from loo_lessons.engine.game import Hand
from loo_lessons.engine.options import RuleOptions, preset
from loo_lessons.views import html as _html

__version__ = "0.2.0"

_html.register()
_compat.install()


def load_scenario(source: str) -> object:
    """A scenario from a file path (YAML or JSON): `loo_lessons.scenario.load_file`."""
    from loo_lessons.scenario import load_file

    return load_file(source)


__all__ = [
    "Card",
    "Hand",
    "IllegalAction",
    "LooError",
    "RuleOptions",
    "ScenarioError",
    "__version__",
    "load_scenario",
    "preset",
]
