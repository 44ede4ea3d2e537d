"""Every lesson executes top to bottom, and is committed without outputs."""

from __future__ import annotations

import copy
import itertools
import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import nbformat
import pytest

from tools import lab_root, strip_outputs

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
def test_lesson_executes(path: Path, built_book: Path) -> None:
    """Every lesson runs top to bottom in a real kernel: the book's build runs each one
    (scripts/build-book.sh: `execute_notebooks: force`, `allow_errors: false`,
    `stderr_output: error`, warnings as errors), so a cell that raises or writes to stderr
    fails the build. Here: each lesson's page holds the outputs of its code cells, and none
    is a traceback."""
    page = (built_book / "notebooks" / f"{path.stem}.html").read_text(encoding="utf-8")
    cells = sum(1 for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code")
    outputs = page.count('class="cell_output')
    assert cells and outputs >= cells - 3, (path.stem, cells, outputs)  # the import cells show nothing
    assert "Traceback (most recent call last)" not in page and "output traceback" not in page


# --- a lesson used in JupyterLab stays clean in git ---------------------------------------------


def worked(nb: dict[str, Any]) -> dict[str, Any]:
    """What JupyterLab saves after a learner ran every cell (outputs, counts, the kernel's
    language details, timings, widget state)."""
    nb = copy.deepcopy(nb)
    for n, cell in enumerate(nb["cells"]):
        cell["metadata"]["execution"] = {"iopub.status.idle": "2026-01-01T00:00:00Z"}
        if cell["cell_type"] == "code":
            cell["execution_count"] = n
            cell["outputs"] = [{"output_type": "stream", "name": "stdout", "text": ["seen\n"]}]
    nb["metadata"]["language_info"] = {"name": "python", "version": "3.11.7", "mimetype": "x"}
    nb["metadata"]["widgets"] = {"application/vnd.jupyter.widget-state+json": {"state": {}}}
    return nb


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_the_output_filter_gives_back_the_committed_lesson(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert strip_outputs.clean(text) == text  # a committed lesson is left as it is
    dirty = json.dumps(worked(json.loads(text)), indent=1, sort_keys=True, ensure_ascii=False)
    assert dirty != text
    assert strip_outputs.clean(dirty) == text
    assert strip_outputs.clean("not a notebook {") == "not a notebook {"


def test_git_sees_a_worked_lesson_as_committed(tmp_path: Path) -> None:
    """In a repository with the project's .gitattributes and the filter `make lessons`
    registers, a lesson saved with outputs is committed without them; the Makefile registers
    that very filter."""
    make = (ROOT / "Makefile").read_text(encoding="utf-8")
    command = "python3 tools/strip_outputs.py"
    assert f'git config filter.loo-outputs.clean "{command}"' in make
    repo = tmp_path / "repo"
    (repo / "notebooks").mkdir(parents=True)
    (repo / "tools").mkdir()
    shutil.copy(ROOT / ".gitattributes", repo / ".gitattributes")
    shutil.copy(ROOT / "tools" / "strip_outputs.py", repo / "tools" / "strip_outputs.py")
    lesson = repo / "notebooks" / NOTEBOOKS[0].name
    shutil.copy(NOTEBOOKS[0], lesson)

    def git(*args: str) -> str:
        return subprocess.run(
            [
                "git",
                "-c",
                f"filter.loo-outputs.clean={command}",
                "-c",
                "user.name=t",
                "-c",
                "user.email=t@t",
                *args,
            ],
            cwd=repo,
            check=True,
            capture_output=True,
            text=True,
        ).stdout

    git("init", "-q")
    git("add", "-A")
    git("commit", "-qm", "lessons")
    lesson.write_text(
        json.dumps(worked(json.loads(lesson.read_text(encoding="utf-8"))), indent=1),
        encoding="utf-8",
    )
    assert '"seen' in lesson.read_text(encoding="utf-8")
    # git diff sees nothing, and what would be committed is the lesson as it was
    # (git status may still list the file until `git add`: it compares sizes first; the
    # JupyterLab of `make lessons` saves lessons without outputs, tests/test_jupyterlab.py)
    assert git("diff", "--stat") == ""
    git("add", "-A")
    assert git("status", "--porcelain") == ""
    assert git("show", f":notebooks/{lesson.name}") == NOTEBOOKS[0].read_text(encoding="utf-8")
    # a real change to the lesson's prose is still seen
    nb = json.loads(lesson.read_text(encoding="utf-8"))
    nb["cells"][0]["source"] = ["# Changed\n"]
    lesson.write_text(json.dumps(nb, indent=1), encoding="utf-8")
    assert git("status", "--porcelain").strip() == f"M notebooks/{lesson.name}"


def test_every_reference_link_of_a_lesson_reaches_its_entry_in_jupyterlab(
    tmp_path: Path,
) -> None:
    """Each `../book/…md#entry` link of every lesson, followed from the folder `make lessons`
    serves (tools/lab_root.py), reaches a page that is there and a heading whose JupyterLab
    anchor (its text, spaces as hyphens) is the entry; without an entry, the page is there."""
    root = tmp_path / "root"
    lab_root.lay_out(root, copy=True)
    lessons = root / "notebooks"
    checked = 0
    for path in NOTEBOOKS:
        nb = nbformat.read(path, as_version=4)
        md = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
        for target, entry in re.findall(r"\]\((\.\./book/[^)#\s]+\.md)(?:#([^)\s]+))?\)", md):
            page = (lessons / target).resolve()
            assert page.is_relative_to(root.resolve()), f"{path.name}: {target} is outside"
            assert page.exists(), f"{path.name}: {target} is not there"
            if entry:
                heads = re.findall(r"^#{1,6} (.+)$", page.read_text(encoding="utf-8"), re.M)
                ids = {re.sub(r"<[^>]+>", "", h).replace(" ", "-") for h in heads}
                assert entry in ids, f"{path.name}: no entry #{entry} in {target}"
            checked += 1
    assert checked > 50  # (the lessons link the glossary where a word first comes)


def test_the_served_folder_links_to_the_lessons_and_keeps_a_pupils_copy(tmp_path: Path) -> None:
    """`make lessons` serves the lessons themselves (a link: work is saved in notebooks/), and
    laying the folder out again is harmless; a copy (a pupil's, on the class hub) is made
    once and then kept, with the pupil's changes."""
    served = lab_root.lay_out(tmp_path / "served")
    assert served.is_symlink() and served.resolve() == (ROOT / "notebooks").resolve()
    assert lab_root.lay_out(tmp_path / "served") == served
    pupil = lab_root.lay_out(tmp_path / "pupil", copy=True)
    assert not pupil.is_symlink() and sorted(p.name for p in pupil.glob("*.ipynb")) == [
        p.name for p in NOTEBOOKS
    ]
    (pupil / NOTEBOOKS[0].name).write_text("my work", encoding="utf-8")
    lab_root.lay_out(tmp_path / "pupil", copy=True)
    assert (pupil / NOTEBOOKS[0].name).read_text(encoding="utf-8") == "my work"
    glossary = (tmp_path / "pupil" / "book" / "glossary.md").read_text(encoding="utf-8")
    assert '## <span style="text-transform:uppercase">e</span>lder hand' in glossary
