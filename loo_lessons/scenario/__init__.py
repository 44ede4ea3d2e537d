"""Scenario files (shared/scenario-format.md) and saved games, in and out.

`read` is the one guarded reader (bytes → plain data, bounded whatever the file holds);
`fields` and `build` turn plain data into a checked position (`model.Scenario`), replaying
its moves through the engine (`replay`); `write` turns positions back into scenario text;
`transcripts` reads saved games through the same reader and checks them (`load_transcript`).
A scenario is refused with one `ScenarioError` naming the field and the problem (the engine's
own refusals met on the way, `InputError`, `NotationError`, `IllegalAction`, are turned into
it); it is never half-answered. YAML is used
only in this package, imported only for a file that is not JSON; nothing is ever evaluated.
"""

from __future__ import annotations

import os
from pathlib import Path

from loo_lessons.engine.errors import InputError, LooError, NotationError
from loo_lessons.engine.options import Ante
from loo_lessons.engine.settle import new_pool_stake

from .build import load
from .errors import ScenarioError
from .keys import CONTRACT_KEYS, DECLARATION_ALIASES, EXTRA_KEYS, NOTE_KEYS
from .model import Scenario
from .read import MAX_BYTES, read_path, read_text
from .transcripts import load_transcript, read_transcript, transcript_from
from .write import dump, position_mapping


def load_file(path: str | os.PathLike[str] | Path) -> Scenario:
    """A scenario from a file (YAML or JSON), read by the guarded reader."""
    return load(read_path(path))


def loads(text: str) -> Scenario:
    """A scenario from its text (YAML or JSON)."""
    return load(read_text(text))


__all__ = [
    "CONTRACT_KEYS",
    "DECLARATION_ALIASES",
    "EXTRA_KEYS",
    "MAX_BYTES",
    "NOTE_KEYS",
    "Ante",
    "InputError",
    "LooError",
    "NotationError",
    "Scenario",
    "ScenarioError",
    "dump",
    "load",
    "load_file",
    "load_transcript",
    "loads",
    "new_pool_stake",
    "position_mapping",
    "read_text",
    "read_transcript",
    "transcript_from",
]
