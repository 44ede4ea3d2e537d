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
    """A checked move that the rules forbid. Carries the verdict and the position."""

    def __init__(self, message: str, verdict: Any = None, position: Any = None) -> None:
        self.verdict = verdict
        self.position = position
        super().__init__(message)
