"""Positions back to scenario text: what quizzes and search write, and `load` reads again."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from loo_lessons.engine.position import position_mapping  # the one writer, in the engine

__all__ = ["dump", "position_mapping"]


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
