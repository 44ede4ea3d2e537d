"""Put this folder first on PYTHONPATH to run Python as if only the base install were there:
the packages of the `lessons` and `cluster` extras cannot be imported (tests/test_cli_bad.py,
tests/test_cluster.py, make bare)."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from types import ModuleType

BLOCKED = frozenset(
    (
        "pandas",
        "numpy",
        "matplotlib",
        "ipywidgets",
        "anywidget",
        "traitlets",
        "IPython",
        "dask",
        "distributed",
    )
)


class _Extras:
    def find_spec(
        self, name: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r} (bare install)", name=name)
        return None


sys.meta_path.insert(0, _Extras())
