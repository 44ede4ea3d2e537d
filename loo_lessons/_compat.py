"""The module paths of the first, flat layout (`loo_lessons.game`, `loo_lessons.cards`, …)
keep working: each old name is an alias of the module that now holds it, so code and
notebooks written against 0.1 import the very same objects. New code uses the new paths."""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import types
from collections.abc import Sequence

_ENGINE = (
    "cards",
    "sources",
    "laws",
    "options",
    "deal",
    "declare",
    "play",
    "settle",
    "penalties",
    "game",
    "table",
    "errors",
)
MOVED: dict[str, str] = {f"loo_lessons.{m}": f"loo_lessons.engine.{m}" for m in _ENGINE} | {
    "loo_lessons.catalogue": "loo_lessons.explain.catalogue",
    "loo_lessons.view_html": "loo_lessons.views.html",
    "loo_lessons.sim.terminal": "loo_lessons.views.terminal",
    "loo_lessons.sim.commands": "loo_lessons.cli.sim",
    "loo_lessons.bench": "loo_lessons.cli.bench",
}


class _Alias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: types.ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in MOVED:
            return None
        return importlib.machinery.ModuleSpec(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        module = importlib.import_module(MOVED[spec.name])
        self._spec = module.__spec__
        return module

    def exec_module(self, module: types.ModuleType) -> None:
        # the import system stamped the alias's spec on the real module: give it back its own
        module.__spec__ = self._spec


def install() -> None:
    if not any(isinstance(f, _Alias) for f in sys.meta_path):
        sys.meta_path.append(_Alias())
