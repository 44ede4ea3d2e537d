"""The JupyterLab server config of `make lessons`: a lesson is saved without its outputs.

A learner runs a lesson, JupyterLab autosaves it, and the file in notebooks/ would then carry
outputs and execution counts: `git status` dirty after every lesson. This pre-save hook
writes notebooks as tools/strip_outputs.py cleans them (outputs, counts, the kernel's
language details, timings, widget state dropped); the page in the browser keeps showing the
outputs until it is reloaded, and the learner's own edits to the cells are saved as usual.

    jupyter lab --config=tools/lab_config.py
"""
# `c` is given by Jupyter when it loads this file.
# ruff: noqa: F821

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

_spec = importlib.util.spec_from_file_location(
    "strip_outputs", Path(__file__).resolve().parent / "strip_outputs.py"
)
assert _spec is not None and _spec.loader is not None
strip_outputs = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(strip_outputs)


def save_without_outputs(model: dict[str, Any], **_: Any) -> None:
    if model.get("type") == "notebook" and isinstance(model.get("content"), dict):
        strip_outputs.strip(model["content"])


c = get_config()  # type: ignore[name-defined]
c.FileContentsManager.pre_save_hook = save_without_outputs
