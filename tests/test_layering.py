"""The one-way flow of design.md, enforced: the engine imports nothing but the standard
library and itself, no layer imports a layer above it (engine < scenario < explain < quiz, sim <
views < widgets < lessons < cli; the hub's classroom service beside cli, on the quizzes and the
bots its tables seat), and
importing the engine loads the engine alone."""

from __future__ import annotations

import ast
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parent.parent / "loo_lessons"

# the layers from the bottom up; each may import the layers before it (quiz and sim sit side by
# side: neither imports the other; the hub's `classroom` service sits beside the command line)
_BELOW_VIEWS = {"engine", "scenario", "explain", "quiz", "sim", "progress"}
ALLOWED: dict[str, set[str]] = {
    "engine": set(),
    "scenario": {"engine"},
    "explain": {"engine", "scenario"},
    "quiz": {"engine", "scenario", "explain"},
    "sim": {"engine", "scenario", "explain"},
    # a learner's record by rule and practice sessions, over the quiz generators
    "progress": {"engine", "scenario", "explain", "quiz"},
    "views": _BELOW_VIEWS,
    "widgets": _BELOW_VIEWS | {"views"},
    "lessons": _BELOW_VIEWS | {"views", "widgets"},
    # the class hub's services: beside the command line, on the quizzes' own tables (results)
    # and the simulation's bots (the tables of pupils, whose empty seats bots play)
    # and the seat widget's component, which the tables service serves to a pupil's browser
    "classroom": _BELOW_VIEWS | {"widgets"},
    "cli": _BELOW_VIEWS | {"views", "widgets", "lessons", "classroom"},
}
# folders of the package that hold data, not code
DATA = {"scenarios", "seeds"}
# modules at the package root below every layer (the standard library only, checked below):
# reading a regular file, bounded, shared by the scenario reader and the class list; the class
# tables service's client, which a teacher's notebook (classroom's side) and a pupil's seat
# widget (widgets/controllers/seat.py) both call
ROOT_MODULES = {"regular_file", "class_tables"}
#: Names of the package root any layer may import: the one version (`loo-lessons --version`).
ROOT_NAMES = {"__version__"}
# third-party modules a layer may use: YAML for scenario files (scenario/ is the only YAML user);
# Dask for a simulation on a cluster (sim/workers.py, `simulate --dask`, the cluster extra);
# pandas (and numpy, which comes with it) for the DataFrames of views/frames.py, so the
# simulation and the quizzes stay plain Python; anywidget and
# traitlets for JupyterLab's widget adapter; the notebook's own libraries for the lessons;
# Playwright for the command line's browser benchmark
THIRD_PARTY: dict[str, set[str]] = {
    "scenario": {"yaml"},
    "sim": {"dask", "distributed"},
    "views": {"pandas", "numpy"},
    "widgets": {"anywidget", "traitlets"},
    "lessons": {"IPython", "ipywidgets", "matplotlib", "pandas", "numpy"},
    "cli": {"playwright"},
    # the class hub's side: JupyterHub (its authenticator and service), and driving a hub
    # over HTTP for its tests and benchmark
    "classroom": {"jupyterhub", "tornado", "traitlets", "requests", "websocket"},
}
# optional extras: imported only inside the functions that need them, never by importing a module
LAZY = {"pandas", "numpy", "dask", "distributed", "playwright", "matplotlib"}
_SUBPACKAGES = frozenset(p.name for p in PKG.iterdir() if (p / "__init__.py").exists())


def _imports(source: str, package: str) -> list[tuple[int, str]]:
    """(line, absolute module) for every import in `source`, a module of `package`;
    `from loo_lessons import quiz` is an import of `loo_lessons.quiz`."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            mod = node.module or ""
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                mod = ".".join(base + ([mod] if mod else []))
            if mod == "loo_lessons":
                found += [
                    (
                        node.lineno,
                        f"loo_lessons.{a.name}"
                        if a.name in _SUBPACKAGES | ROOT_NAMES
                        else mod,
                    )
                    for a in node.names
                ]
            else:
                found.append((node.lineno, mod))
    return found


def violations(layer: str, source: str, package: str) -> list[str]:
    bad = []
    for line, mod in _imports(source, package):
        top = mod.split(".")[0]
        if top == "loo_lessons":
            parts = mod.split(".")
            other = parts[1] if len(parts) > 1 else "the package root"
            if other != layer and other not in ALLOWED[layer] | ROOT_MODULES | ROOT_NAMES:
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
    for layer in ("engine", "scenario", "explain", "quiz", "sim", "widgets", "cli"):
        assert violations(layer, "import pandas\n", f"loo_lessons.{layer}") == [
            "1: pandas (not the standard library)"
        ]
    # the upper layers: each below the next, the package root above them all
    assert violations("widgets", "from loo_lessons import lessons\n", "loo_lessons.widgets") == [
        "1: loo_lessons.lessons"
    ]
    assert violations("lessons", "from ..cli import main\n", "loo_lessons.lessons") == [
        "1: loo_lessons.cli"
    ]
    assert violations("views", "from loo_lessons.widgets import play\n", "loo_lessons.views") == [
        "1: loo_lessons.widgets"
    ]
    assert violations("lessons", "from loo_lessons import Hand\n", "loo_lessons.lessons") == [
        "1: loo_lessons"
    ]
    assert violations("cli", "from loo_lessons import lessons, widgets\n", "loo_lessons.cli") == []
    assert violations(
        "classroom", "from loo_lessons.cli import main\n", "loo_lessons.classroom"
    ) == ["1: loo_lessons.cli"]
    assert violations("lessons", "import yaml\n", "loo_lessons.lessons") == [
        "1: yaml (not the standard library)"
    ]


def test_optional_libraries_are_imported_lazily() -> None:
    """views/ may use pandas, sim/ Dask, cli/ Playwright, but only inside the functions that
    need them: importing a module never imports an optional extra."""
    top_level = []
    for path in sorted(PKG.rglob("*.py")):
        tree = ast.parse(path.read_text())
        for node in tree.body:
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            top_level += [f"{path.relative_to(PKG)}: {n}" for n in names if n.split(".")[0] in LAZY]
    assert top_level == []


def test_every_package_folder_is_a_known_layer() -> None:
    """A new folder of code gets a place in the order (and so is checked) before it lands."""
    code = {p.relative_to(PKG).parts[0] for p in PKG.rglob("*.py") if p.parent != PKG}
    assert code - set(ALLOWED) == set()
    assert code & DATA == set()
    assert {p.name for p in PKG.glob("*.py")} == {"__init__.py"} | {f"{m}.py" for m in ROOT_MODULES}
    for m in ROOT_MODULES:  # below every layer: the standard library alone
        assert [i for _, i in _imports((PKG / f"{m}.py").read_text(), "loo_lessons") if i.split(".")[0] not in sys.stdlib_module_names] == []


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


def _fresh(code: str) -> str:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


@pytest.mark.parametrize("module", ["loo_lessons.engine", "loo_lessons.engine.game"])
def test_importing_the_engine_loads_the_engine_alone(module: str) -> None:
    """The package's `__init__` imports nothing until asked (PEP 562): the engine, in a fresh
    interpreter, loads no scenario, explain or view module (what Pyodide and a simulation's
    workers pay for), and still deals and plays."""
    loaded = _fresh(
        f"import sys, {module}\n"
        "import loo_lessons.engine.game as g\n"
        "h = g.Hand.from_seed(5)\n"
        "h.apply(h.legal_actions()[0])\n"
        "print(' '.join(sorted(m for m in sys.modules if m.startswith('loo_lessons'))))\n"
    ).split()
    assert "loo_lessons.engine.game" in loaded
    outside = [m for m in loaded if m != "loo_lessons" and not m.startswith("loo_lessons.engine")]
    assert outside == []


def test_the_public_names_still_import_from_the_package() -> None:
    """`from loo_lessons import Hand, load_scenario, ...` works as before; asking for them
    gives the engine's own objects and their notebook pictures; an unknown name is an
    AttributeError, and the first layout's module paths (`loo_lessons.game`) are gone."""
    out = _fresh(
        "import loo_lessons\n"
        "from loo_lessons import (Card, Hand, IllegalAction, InputError, LooError,\n"
        "    NotationError, RuleOptions, ScenarioError, __version__, load_scenario, preset)\n"
        "import loo_lessons.engine.game as g, loo_lessons.scenario.errors as se\n"
        "assert Hand is g.Hand and ScenarioError is se.ScenarioError\n"
        "assert issubclass(ScenarioError, InputError) and issubclass(NotationError, InputError)\n"
        "assert issubclass(IllegalAction, LooError) and not issubclass(IllegalAction, InputError)\n"
        "assert set(loo_lessons.__all__) <= set(dir(loo_lessons))\n"
        "sc = load_scenario('loo_lessons/scenarios/deal-two-players.yaml')\n"
        "assert '<svg' in Hand.from_seed(3)._repr_html_() and Card.__name__ == 'Card'\n"
        "try:\n"
        "    loo_lessons.Nothing\n"
        "except AttributeError as e:\n"
        "    print(e)\n"
        "try:\n"
        "    import loo_lessons.game\n"
        "except ModuleNotFoundError:\n"
        "    print('gone')\n"
    )
    assert out.splitlines() == ["module 'loo_lessons' has no attribute 'Nothing'", "gone"]


def test_a_view_registers_the_pictures_without_the_package_names() -> None:
    """Whoever imports a view (a lesson, a widget) gets the engine's `_repr_html_` hooks, even
    if nothing asked the package for `Hand`; the engine alone has none."""
    out = _fresh(
        "import loo_lessons.engine.game as g\n"
        "print(hasattr(g.Hand, '_repr_html_'))\n"
        "import loo_lessons.views.terminal\n"
        "print(hasattr(g.Hand, '_repr_html_'))\n"
        "import loo_lessons.views.html\n"
        "print('<svg' in g.Hand.from_seed(3)._repr_html_())\n"
    )
    assert out.split() == ["False", "False", "True"]


# --- no import circles, anywhere in the package (issue 26) ---------------------------------

_MODULES = {
    ".".join(p.relative_to(PKG.parent).with_suffix("").parts).removesuffix(".__init__"): p
    for p in PKG.rglob("*.py")
    if not set(p.relative_to(PKG).parts) & DATA
}


def _module_of(name: str, modules: dict[str, Path] = _MODULES) -> str | None:
    """The package's module `name` is, or is in (`loo_lessons.engine.game.Hand` -> `...game`)."""
    while name:
        if name in modules:
            return name
        name = name.rpartition(".")[0]
    return None


def import_graph(modules: dict[str, Path] = _MODULES) -> dict[str, set[str]]:
    """module -> the package's modules it imports: every import in the file, at the top, inside
    a function (imported lazily) or for the type checker only, each an edge (a circle through a
    lazy or a type-only import is still a circle a reader has to hold in mind)."""
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        edges: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                mod = node.module or ""
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - node.level + 1]
                    mod = ".".join(base + ([mod] if mod else []))
                # `from pkg import sub` imports the submodule; `from pkg import name`, the package
                targets = [f"{mod}.{a.name}" if f"{mod}.{a.name}" in modules else mod for a in node.names]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                continue
            for t in targets:
                m = _module_of(t, modules) if t.startswith("loo_lessons") else None
                if m:
                    edges.add(m)
        graph[name] = edges - {name}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_circles_in_the_package() -> None:
    found = circles(import_graph())
    assert found == [], "import circles: " + "; ".join(" ⇄ ".join(c) for c in found)


def test_the_circle_finder_finds_circles() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert circles(graph) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []
    # a lazy import inside a function and a type-only import are edges too
    src = {
        "loo_lessons.x": "def f():\n    from loo_lessons import y\n",
        "loo_lessons.y": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .x import f\n",
    }
    with tempfile.TemporaryDirectory() as d:
        paths = {}
        for name, text in src.items():
            p = Path(d) / f"{name.split('.')[-1]}.py"
            p.write_text(text)
            paths[name] = p
        assert circles(import_graph(paths)) == [["loo_lessons.x", "loo_lessons.y"]]
