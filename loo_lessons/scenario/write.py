"""Positions back to scenario text: what quizzes and search write, and `load` reads again."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from loo_lessons.engine.position import position_mapping  # the one writer, in the engine

__all__ = ["dump", "position_mapping", "write_whole"]


def dump(data: Mapping[str, Any], *, compact: bool = False) -> str:
    """A scenario mapping as YAML text (card codes as strings), JSON where PyYAML is absent.
    `compact`: lists of plain values on one line (`hands: {1: [AS, KS, 3C]}`), lines of at
    most 88 characters, as search and the lessons show a found position."""
    plain = json.loads(json.dumps(dict(data)))
    try:
        import yaml
    except ImportError:
        return json.dumps(plain, indent=2, ensure_ascii=False) + "\n"
    layout: dict[str, Any] = {"default_flow_style": None, "width": 88} if compact else {}
    text: str = yaml.safe_dump(plain, sort_keys=False, allow_unicode=True, **layout)
    return text


def write_whole(path: Path, text: str) -> None:
    """Write `text` to `path` so that a reader sees the old file or the new one, never half of
    it (a saved deal or evening is read back by the guarded reader, maybe by another process):
    a temporary file beside it, then renamed over it."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
