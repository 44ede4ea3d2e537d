"""The one-way flow of design.md, enforced: the engine imports nothing but the standard
library and itself, and no layer imports a layer above it."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parent.parent / "loo_lessons"

# each layer and the layers it may import (besides itself and the standard library)
ALLOWED: dict[str, set[str]] = {
    "engine": set(),
    "scenario": {"engine"},
    "explain": {"engine", "scenario"},
    "quiz": {"engine", "scenario", "explain"},
    "sim": {"engine", "scenario", "explain"},
    "views": {"engine", "scenario", "explain", "quiz", "sim"},
}
# third-party modules a layer may use, lazily and only where it says so
THIRD_PARTY: dict[str, set[str]] = {"scenario": {"yaml"}}


def _imports(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = ".".join(path.relative_to(PKG.parent).parent.parts)  # what `.` means in this file
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            found.append((node.lineno, mod))
    return found


def _layer(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "loo_lessons" else None


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_a_layer_imports_only_what_is_below_it(layer: str) -> None:
    stdlib = sys.stdlib_module_names
    bad = []
    for path in sorted((PKG / layer).rglob("*.py")):
        for line, mod in _imports(path):
            top = mod.split(".")[0]
            if top == "loo_lessons":
                other = _layer(mod)
                if other is None or mod == "loo_lessons":
                    bad.append(f"{path.name}:{line} imports the package root ({mod})")
                elif other != layer and other not in ALLOWED[layer]:
                    bad.append(f"{path.relative_to(PKG)}:{line} imports {mod}")
            elif top not in stdlib and top != "__future__" and top not in THIRD_PARTY.get(layer, set()):
                bad.append(f"{path.relative_to(PKG)}:{line} imports {mod} (not the standard library)")
    assert bad == []


def test_the_checker_sees_a_forbidden_import(tmp_path: Path) -> None:
    f = tmp_path / "x.py"
    f.write_text("from loo_lessons.views.html import card_svg\nimport yaml\nfrom . import y\n")
    mods = [m for _, m in _imports_outside(f)]
    assert "loo_lessons.views.html" in mods and "yaml" in mods


def _imports_outside(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text())
    return [
        (n.lineno, n.module if isinstance(n, ast.ImportFrom) else n.names[0].name)
        for n in ast.walk(tree)
        if isinstance(n, ast.Import | ast.ImportFrom) and (not isinstance(n, ast.ImportFrom) or n.module)
    ]


def test_the_engine_runs_on_the_standard_library_alone() -> None:
    """In a fresh interpreter with every third-party import blocked, the engine deals, plays
    and settles a hand: what Pyodide in the reader's browser needs."""
    code = (
        "import sys, importlib.abc\n"
        "class Block(importlib.abc.MetaPathFinder):\n"
        "    def find_spec(self, name, path, target=None):\n"
        "        top = name.split('.')[0]\n"
        "        if top not in sys.stdlib_module_names and top != 'loo_lessons':\n"
        "            raise ImportError('blocked: ' + name)\n"
        "sys.meta_path.insert(0, Block())\n"
        "import random\n"
        "from loo_lessons.engine.game import Hand\n"
        "h = Hand.from_seed(42, players=5, options='peel')\n"
        "rng = random.Random(1)\n"
        "while h.settlement is None:\n"
        "    h.apply(rng.choice(list(h.legal_actions())))\n"
        "print('settled', sorted(h.settlement.receives.items()))\n"
        "assert 'yaml' not in sys.modules\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("settled")
