"""Every lesson executes top to bottom, and is committed without outputs."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

import nbclient
import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
LESSONS = [
    "01-welcome",
    "02-pack-stake-deal",
    "03-declaring",
    "04-dealer-special-cases",
    "05-leading",
    "06-following",
    "07-winning-tricks",
    "08-pool-and-loos",
    "09-singles-musts-unlimited",
    "10-penalties",
    "11-scenario-files",
    "12-play-a-hand",
    "13-edge-cases",
    "14-strategy-lab",
]


def test_every_lesson_is_there() -> None:
    assert [p.stem for p in NOTEBOOKS] == LESSONS


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_committed_without_outputs(path: Path) -> None:
    nb = json.loads(path.read_text(encoding="utf-8"))
    assert nb["metadata"]["kernelspec"]["name"] == "python3"
    for cell in nb["cells"]:
        if cell["cell_type"] == "code":
            assert cell.get("outputs") == [], f"{path.name}: a cell has outputs"
            assert cell.get("execution_count") is None, f"{path.name}: a cell has a count"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_lesson_shape(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    md = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    prose = re.sub(r"```.*?```", "", md, flags=re.S)  # not the comments of a code block
    heads = [line for line in prose.splitlines() if line.startswith("#")]
    assert sum(1 for h in heads if h.startswith("# ")) == 1, "exactly one title"
    levels = [len(h) - len(h.lstrip("#")) for h in heads]
    for a, b in itertools.pairwise(levels):
        assert b <= a + 1, f"{path.name}: heading level jumps from {a} to {b}"
    assert "Rules covered" in md, f"{path.name}: no 'Rules covered' line"
    code = [c.source for c in nb.cells if c.cell_type == "code"]
    assert code and "loo_lessons" in code[0]
    for src in code:  # notebooks hold prose and calls, not logic
        for word in ("def ", "for ", "while ", "class ", "lambda", "import random"):
            assert word not in src, f"{path.name}: logic in a cell: {src!r}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_lesson_executes(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(
        nb,
        timeout=30,
        kernel_name="python3",
        resources={"metadata": {"path": str(ROOT / "notebooks")}},
    )
    client.execute()
    errors = [
        o
        for c in nb.cells
        if c.cell_type == "code"
        for o in c.get("outputs", [])
        if o.get("output_type") == "error"
    ]
    assert not errors
