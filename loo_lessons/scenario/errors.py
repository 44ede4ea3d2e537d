"""The scenario layer's refusal: a scenario file or saved game that cannot be read."""

from __future__ import annotations

from loo_lessons.engine.errors import InputError


class ScenarioError(InputError):
    """A bad scenario file or saved game: one line, `"field: problem"`, naming the field as the
    file spells it (`hands.2`, `tricks[1][0]`, `transcript.actions[4]`) and the problem. Every
    refusal of the engine met while reading a file (an `InputError` or `NotationError`, an
    `IllegalAction` in its moves) reaches the caller as this one class."""
