"""The engine's errors, each saying what kind of thing went wrong (cf. python-chess's
`InvalidMoveError` and `IllegalMoveError`):

- `NotationError`: text the engine cannot read (a card code, a declaration or a move that is
  not one: bad syntax);
- `IllegalAction`: a well-formed move the rules forbid now, carrying the verdict and the
  position;
- `InputError`: any other value the engine refuses (an unknown rule option, a table it cannot
  seat, an offence that cannot have happened here), naming the field and the problem.

All are `LooError` (catch that for every refusal of this package) and `ValueError`. A bad
scenario file or saved game is the scenario layer's `ScenarioError`, an `InputError` too.
"""

from __future__ import annotations

from typing import Any


class LooError(Exception):
    """Base class of every error this package raises on purpose."""


class InputError(LooError, ValueError):
    """A value the engine refuses: `str(e)` is one line, `"field: problem"`, naming the field
    (as a scenario file would spell it: `rules.ante`, `hands.2`, `seat`) and the problem."""

    def __init__(self, field: str, problem: str) -> None:
        self.field = field
        self.problem = problem
        super().__init__(f"{field}: {problem}")


class NotationError(InputError):
    """Bad syntax: text that is not a card code (`10H`, `TH`, `KD`), a declaration (`stand`,
    `take miss`, `throw up`, `play the miss for the pool`) or a move; `field` names where it
    was read (`action`, `hands.1`, `turn_up`)."""


class IllegalAction(LooError, ValueError):
    """A move that cannot be made now: forbidden by the rules (the message cites the rule id),
    out of turn, or made when the deal is over.

    `verdict` is the engine's verdict on the position (None when there is nobody to act);
    `position` the position itself as scenario JSON text (`Hand.to_scenario()`), an immutable
    record like python-chess's FEN in its errors: the live hand may move on, the error's
    position does not."""

    def __init__(self, message: str, verdict: Any = None, position: object = None) -> None:
        self.verdict = verdict
        # a live hand handed in is written down at once, so that it cannot change here
        to_text = getattr(position, "to_scenario", None)
        self.position: str | None = (
            to_text() if callable(to_text) else None if position is None else str(position)
        )
        super().__init__(message)
