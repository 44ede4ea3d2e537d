"""The simulation's modules import one another in layers, never in a circle (issue 26): the
coached bot sits above the coach it asks, and the coach above the bots it plays out with."""

from __future__ import annotations

import ast
from pathlib import Path

import loo_lessons.sim

SIM = Path(loo_lessons.sim.__file__).parent


def _imports() -> dict[str, set[str]]:
    """Each sim module and the sim modules it imports, at the top or inside a function."""
    graph: dict[str, set[str]] = {}
    for path in SIM.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                if node.module.startswith("loo_lessons.sim."):
                    found.add(node.module.split(".")[2])
                elif node.module == "loo_lessons.sim":
                    found |= {a.name for a in node.names if (SIM / f"{a.name}.py").exists()}
            elif isinstance(node, ast.Import):
                found |= {
                    a.name.split(".")[2]
                    for a in node.names
                    if a.name.startswith("loo_lessons.sim.")
                }
        graph[path.stem] = found - {path.stem}
    return graph


def test_no_sim_module_imports_itself_back() -> None:
    graph = _imports()
    done: set[str] = set()

    def visit(m: str, path: tuple[str, ...]) -> None:
        assert m not in path, " -> ".join((*path, m))
        if m in done:
            return
        for n in sorted(graph.get(m, ())):
            visit(n, (*path, m))
        done.add(m)

    for m in sorted(graph):
        visit(m, ())


def test_the_coached_bot_sits_above_the_coach_and_the_bots() -> None:
    graph = _imports()
    assert {"coach", "bots"} <= graph["coached"]
    assert "coached" not in graph["coach"] | graph["bots"] | graph["tally"]
    assert "montecarlo" not in graph["coach"]  # the coach plays out with sim.bots.play_hand
    from loo_lessons.sim.bots import BOTS
    from loo_lessons.sim.coached import ALL_BOTS, Coached, get_bot

    assert "coached" not in BOTS and isinstance(ALL_BOTS["coached"], Coached)
    assert get_bot("coached") is ALL_BOTS["coached"] and get_bot("bold") is BOTS["bold"]
    from loo_lessons.sim.bots import play_hand
    from loo_lessons.sim.montecarlo import play_hand as old_place

    assert old_place is play_hand  # the name stays importable where it was
