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
# third-party modules a layer may use (lazily, where the module says why): YAML for scenario
# files; pandas (and numpy, which comes with it) for the DataFrames of views/frames.py only,
# so the simulation and the quizzes stay plain Python; Dask for sim/workers.py alone
THIRD_PARTY: dict[str, set[str]] = {
    "scenario": {"yaml"},
    "views": {"pandas", "numpy"},
    "sim": {"distributed"},  # sim/workers.py, only for `simulate --dask` (the cluster extra)
}


def _imports(source: str, package: str) -> list[tuple[int, str]]:
    """(line, absolute module) for every import in `source`, a module of `package`."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            mod = node.module or ""
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                mod = ".".join(base + ([mod] if mod else []))
            found.append((node.lineno, mod))
    return found


def violations(layer: str, source: str, package: str) -> list[str]:
    bad = []
    for line, mod in _imports(source, package):
        top = mod.split(".")[0]
        if top == "loo_lessons":
            parts = mod.split(".")
            other = parts[1] if len(parts) > 1 else "the package root"
            if other != layer and other not in ALLOWED[layer]:
                bad.append(f"{line}: {mod}")
        elif top not in sys.stdlib_module_names and top not in THIRD_PARTY.get(layer, set()):
            bad.append(f"{line}: {mod} (not the standard library)")
    return bad


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_a_layer_imports_only_what_is_below_it(layer: str) -> None:
    bad = []
    for path in sorted((PKG / layer).rglob("*.py")):
        package = ".".join(path.relative_to(PKG.parent).parent.parts)
        bad += [
            f"{path.relative_to(PKG)}:{v}" for v in violations(layer, path.read_text(), package)
        ]
    assert bad == []


def test_the_checker_sees_forbidden_imports() -> None:
    src = "from ..views.html import card_svg\nimport yaml\nfrom . import deal\nimport random\n"
    assert violations("engine", src, "loo_lessons.engine") == [
        "1: loo_lessons.views.html",
        "2: yaml (not the standard library)",
    ]
    assert violations("scenario", "import yaml\n", "loo_lessons.scenario") == []
    assert violations("views", "import pandas\n", "loo_lessons.views") == []
    for layer in ("engine", "scenario", "explain", "quiz", "sim"):
        assert violations(layer, "import pandas\n", f"loo_lessons.{layer}") == [
            "1: pandas (not the standard library)"
        ]


def test_pandas_is_imported_lazily_where_it_is_allowed() -> None:
    """views/ may use pandas, but only inside the functions that make a frame: importing a
    view never imports pandas."""
    top_level = []
    for path in sorted((PKG / "views").rglob("*.py")):
        tree = ast.parse(path.read_text())
        for node in tree.body:
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            top_level += [
                f"{path.name}: {n}" for n in names if n.split(".")[0] in ("pandas", "numpy")
            ]
    assert top_level == []


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
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("settled")


def test_the_simulation_and_the_quizzes_run_without_pandas() -> None:
    """Simulating, tallying, comparing and recording quiz answers is plain Python: in a fresh
    interpreter none of it (nor importing the frames view) imports pandas or numpy."""
    code = (
        "import sys\n"
        "from loo_lessons.sim.montecarlo import simulate, session, paired_miss_value\n"
        "from loo_lessons.sim.compare import compare\n"
        "from loo_lessons.quiz import generate\n"
        "from loo_lessons.quiz.results import ResultLog\n"
        "import loo_lessons.views.frames\n"
        "r = simulate(20, 4, 1, rows=True)\n"
        "assert r.trick_rates('trumps').rows and r.tally.tables()\n"
        "assert session(5, 4, 1).rows and paired_miss_value(5, 4, 1).position == 1\n"
        "assert compare(1, 4).step_rows()\n"
        "log = ResultLog()\n"
        "q = generate('pool', 1, 1)[0]\n"
        "log.record(q, list(q.answer), 1.0)\n"
        "print(','.join(m for m in ('pandas', 'numpy') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == ""


def test_the_first_layouts_module_paths_still_import_the_same_objects() -> None:
    """Code written against 0.1 (`from loo_lessons.game import Hand`) gets the engine's own
    classes, not copies; the alias leaves the real module's own spec alone."""
    code = (
        "from loo_lessons.game import Hand as A\n"
        "from loo_lessons.engine.game import Hand as B\n"
        "import loo_lessons.cards, loo_lessons.engine.cards\n"
        "from loo_lessons.view_html import card_svg\n"
        "assert A is B and loo_lessons.cards is loo_lessons.engine.cards\n"
        "assert loo_lessons.engine.cards.__spec__.name == 'loo_lessons.engine.cards'\n"
        "try:\n"
        "    import loo_lessons.no_such_module\n"
        "except ModuleNotFoundError:\n"
        "    print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
