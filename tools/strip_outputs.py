"""Git's clean filter for the lessons: a notebook as it is committed, without what running it
left behind (outputs, execution counts, the kernel's language details, widget state).

`make lessons` registers it for `notebooks/*.ipynb` (see .gitattributes):

    git config filter.loo-outputs.clean "python3 tools/strip_outputs.py"

so a learner's saved work stays on disk while `git status` and `git diff` see the notebook as
committed. Standard library only (git runs it with whatever `python3` is first on PATH).
Anything that is not a notebook's JSON is passed through untouched: a filter must never lose
a file.
"""

from __future__ import annotations

import json
import sys
from typing import Any

# Keys of a cell's metadata that JupyterLab writes while a learner works (timings, scroll
# and collapse state); tags and the book's keys are kept.
RUN_KEYS = ("execution", "scrolled", "collapsed", "jupyter")
#: The tag of a code cell whose text the lesson shows (book/_ext/loo_book.py SHOW_INPUT).
SHOW_INPUT = "show-input"


def strip(nb: dict[str, Any]) -> dict[str, Any]:
    for cell in nb.get("cells", []):
        if cell.get("cell_type") == "code":
            cell["outputs"] = []
            cell["execution_count"] = None
        meta = cell.get("metadata", {})
        for key in RUN_KEYS:
            meta.pop(key, None)
        # a lesson opens with its code collapsed (issue 34), whatever a learner toggled since;
        # a cell tagged `show-input` (lesson 11's scenario files) stays open
        if cell.get("cell_type") == "code" and SHOW_INPUT not in meta.get("tags", []):
            meta["jupyter"] = {"source_hidden": True}
    meta = nb.get("metadata", {})
    meta.pop("widgets", None)
    if isinstance(meta.get("language_info"), dict):
        meta["language_info"] = {"name": meta["language_info"].get("name", "python")}
    return nb


def clean(text: str) -> str:
    try:
        nb = json.loads(text)
    except ValueError:
        return text
    if not isinstance(nb, dict) or "cells" not in nb:
        return text
    # the layout JupyterLab and nbformat write: one-space indent, sorted keys
    return json.dumps(strip(nb), indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def main() -> int:
    data = sys.stdin.buffer.read().decode("utf-8")
    sys.stdout.buffer.write(clean(data).encode("utf-8"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
