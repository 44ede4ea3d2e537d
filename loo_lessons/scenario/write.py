"""Positions back to scenario text: what quizzes and search write, and `load` reads again."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from loo_lessons.engine.position import position_mapping  # the one writer, in the engine

__all__ = ["dump", "position_mapping"]


def dump(data: Mapping[str, Any]) -> str:
    """A scenario mapping as YAML (card codes as strings); JSON where PyYAML is absent."""
    plain = json.loads(json.dumps(dict(data)))
    try:
        import yaml
    except ImportError:
        return json.dumps(plain, indent=2, ensure_ascii=False) + "\n"
    text: str = yaml.safe_dump(plain, sort_keys=False, allow_unicode=True)
    return text
