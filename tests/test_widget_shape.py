"""The widget layer's shape (issue 26): controllers of one concern, no class over 400 lines, and
a widget added with its controller, its JS component and one registry entry (the bundler's
components and the static pages' starting states are read from the registry)."""

from __future__ import annotations

import ast
from importlib import resources
from pathlib import Path

import pytest

from loo_lessons.widgets import bundle, static
from loo_lessons.widgets.registry import REGISTRY, controller_class

WIDGETS = Path(__file__).resolve().parents[1] / "loo_lessons" / "widgets"
PACKAGE = WIDGETS.parent
#: The one class allowed to be long: the game state, as python-chess's `Board` is (issue 26).
LONG_BY_DESIGN = {"engine/game.py:Hand"}


def test_no_class_in_the_package_is_over_400_lines() -> None:
    long = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and node.end_lineno is not None:
                n = node.end_lineno - node.lineno + 1
                where = f"{path.relative_to(PACKAGE).as_posix()}:{node.name}"
                if n > 400 and where not in LONG_BY_DESIGN:
                    long.append(f"{where} ({n} lines)")
    assert long == []
    # the exemption names a class that is there (a rename would leave it guarding nothing)
    game = ast.parse((PACKAGE / "engine" / "game.py").read_text(encoding="utf-8"))
    assert any(isinstance(c, ast.ClassDef) and c.name == "Hand" for c in game.body)


@pytest.mark.parametrize("kind", sorted(REGISTRY))
def test_a_registry_entry_is_the_whole_widget(kind: str) -> None:
    entry = REGISTRY[kind]
    assert resources.files("loo_lessons.widgets").joinpath("js", f"{entry.js}.js").is_file()
    assert entry.js in bundle.COMPONENTS
    # the controller's traits are its component's, as the registry gives them
    assert controller_class(kind).TRAITS == dict(entry.state) == static.DEFAULT_STATE[entry.js]


def test_the_components_are_the_registrys_once_each() -> None:
    assert sorted(bundle.COMPONENTS) == sorted({e.js for e in REGISTRY.values()})
    assert set(static.DEFAULT_STATE) == set(bundle.COMPONENTS)


def test_any_registry_entry_is_a_jupyterlab_widget_with_no_class_of_its_own() -> None:
    from loo_lessons.widgets.backends.kernel import KernelWidget, widget_class

    made = widget_class("search")
    assert issubclass(made, KernelWidget) and made.kind == "search" and widget_class("search") is made
    assert made.controller_class is controller_class("search")
    assert set(REGISTRY["search"].state) <= set(made.class_trait_names())
    w = made(count=5)
    assert w.controller.data["find"]["count"] == 5  # the controller's own constructor
