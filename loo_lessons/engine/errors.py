"""Errors that say which field is wrong and why, and errors that carry the position."""

from __future__ import annotations

from typing import Any


class LooError(Exception):
    """Base class of every error this package raises on purpose."""


class ScenarioError(LooError, ValueError):
    """Bad input: one message naming the field and the problem."""

    def __init__(self, field: str, problem: str) -> None:
        self.field = field
        self.problem = problem
        super().__init__(f"{field}: {problem}")


class IllegalAction(LooError, ValueError):
    """A move that cannot be made: forbidden by the rules, impossible now, or not a move at
    all (a malformed action string).

    `verdict` is the engine's verdict on the position (None when there is nobody to act or
    the text was not a move); `position` the position itself as scenario JSON text
    (`Hand.to_scenario()`), an immutable record like python-chess's FEN in its errors:
    the live hand may move on, the error's position does not."""

    def __init__(self, message: str, verdict: Any = None, position: object = None) -> None:
        self.verdict = verdict
        # a live hand handed in is written down at once, so that it cannot change here
        to_text = getattr(position, "to_scenario", None)
        self.position: str | None = (
            to_text() if callable(to_text) else None if position is None else str(position)
        )
        super().__init__(message)
