"""Every public name in the package says what it is: each public module, class, function,
method and property of `loo_lessons/` carries a docstring that says more than its name (issue
26, "Once"). Read with `ast`, so nothing is imported and the check stays cheap."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

PKG = Path(__file__).resolve().parent.parent / "loo_lessons"

_Def = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


def _public(name: str) -> bool:
    return not name.startswith("_")


def _decorator_names(node: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    names: set[str] = set()
    for decorator in node.decorator_list:
        if isinstance(decorator, ast.Name):
            names.add(decorator.id)
        elif isinstance(decorator, ast.Attribute):
            names.add(decorator.attr)
    return names


def _counted(node: _Def) -> bool:
    """An overload's signatures count once (by the implementation) and a property's setter or
    deleter is the property itself."""
    if isinstance(node, ast.ClassDef):
        return True
    return not _decorator_names(node) & {"overload", "setter", "deleter"}


def _definitions(body: list[ast.stmt], prefix: str) -> Iterator[tuple[str, _Def]]:
    """The public classes and functions of a module or class body, with their members; the
    bodies of functions (nested helpers) are not walked."""
    for node in body:
        if isinstance(node, ast.If | ast.Try):
            # `if TYPE_CHECKING:` or a guarded import may define names on either branch
            branches = [node.body, node.orelse]
            if isinstance(node, ast.Try):
                branches += [h.body for h in node.handlers] + [node.finalbody]
            for branch in branches:
                yield from _definitions(branch, prefix)
            continue
        if not isinstance(node, _Def) or not _public(node.name):
            continue
        qualname = f"{prefix}{node.name}"
        if _counted(node):
            yield qualname, node
        if isinstance(node, ast.ClassDef):
            yield from _definitions(node.body, f"{qualname}.")


def _module_name(path: Path) -> str:
    parts = path.relative_to(PKG.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _walk(path: Path) -> Iterator[tuple[str, str | None]]:
    """Each public name of the module at `path` (`module:qualname`, the module itself as
    `module:(module)`) with its docstring."""
    tree = ast.parse(path.read_text(), filename=str(path))
    module = _module_name(path)
    yield f"{module}:(module)", ast.get_docstring(tree)
    for qualname, node in _definitions(tree.body, ""):
        yield f"{module}:{qualname}", ast.get_docstring(node)


# small words that say nothing of their own beside a name
_SMALL = frozenset(
    {"a", "an", "and", "as", "by", "for", "get", "gets", "in", "is", "it", "its", "of", "on"}
    | {"or", "return", "returns", "set", "the", "this", "to"}
)


def _words(text: str) -> set[str]:
    spaced = re.sub(r"([a-z])([A-Z])", r"\1 \2", text)  # camelCase and CapWords apart
    return set(re.findall(r"[a-z]+", spaced.lower()))


def _says_something(name: str, doc: str | None) -> bool:
    """A docstring says more than its name: a word beyond the name's own and small words
    ("Returns the pool." for `pool` does not)."""
    own = name.split(":")[-1].rsplit(".", 1)[-1]
    if own == "(module)":
        own = name.split(":")[0].rsplit(".", 1)[-1]
    return bool(_words(doc or "") - _words(own) - _SMALL)


def _undocumented(path: Path) -> Iterator[str]:
    return (name for name, doc in _walk(path) if not _says_something(name, doc))


def _public_modules() -> list[Path]:
    """The package's modules but private ones (`_x.py`, `__main__.py`, inside `_pkg/`)."""
    found = []
    for path in sorted(PKG.rglob("*.py")):
        parts = path.relative_to(PKG).parts
        if any(not _public(p) for p in parts[:-1]):
            continue
        if path.name != "__init__.py" and not _public(path.name):
            continue
        found.append(path)
    return found


def test_every_public_name_has_a_docstring() -> None:
    missing = [name for path in _public_modules() for name in _undocumented(path)]
    assert not missing, (
        f"{len(missing)} public names lack a docstring that says more than the name:\n"
        + "\n".join(missing)
    )


def test_the_walk_reaches_the_package() -> None:
    """Every layer's modules are walked, with their methods, properties, class- and static
    methods (the engine's core names among them)."""
    walked = {name for path in _public_modules() for name, _ in _walk(path)}
    for name in (
        "loo_lessons.engine:(module)",
        "loo_lessons.engine.game:Hand.verdict",
        "loo_lessons.engine.game:Hand.from_seed",
        "loo_lessons.engine.cards:Suit.symbol",
        "loo_lessons.engine.settle:Stakes.make",
        "loo_lessons.quiz.topics.deal:gen_deal",
        "loo_lessons.widgets.controllers.play:PlayController.handle_request",
        "loo_lessons.classroom.service:AnswersHandler.post",
    ):
        assert name in walked, name
    assert not any(":_" in n or "._" in n.split(":")[1] for n in walked if ":(" not in n)


def test_the_walk_finds_what_it_should() -> None:
    """The walk itself: a public method, a property (its setter once), an overload's
    implementation, a class and the module count; private names, dunders and nested helpers do
    not."""
    source = '''
import typing

class Seat:
    def __init__(self) -> None: ...
    def __repr__(self) -> str: ...
    @property
    def stake(self) -> int: ...
    @stake.setter
    def stake(self, value: int) -> None: ...
    def _private(self) -> None: ...
    @classmethod
    def make(cls) -> "Seat": ...
    @staticmethod
    def rule() -> str:
        """R23."""

class _Hidden:
    def shown(self) -> None: ...

@typing.overload
def pool(x: int) -> int: ...
@typing.overload
def pool(x: str) -> str: ...
def pool(x):
    def nested() -> None: ...
    return x

if typing.TYPE_CHECKING:
    def typed() -> None:
        """Documented."""
'''
    tree = ast.parse(source)
    found = [name for name, node in _definitions(tree.body, "") if ast.get_docstring(node) is None]
    assert found == ["Seat", "Seat.stake", "Seat.make", "pool"]
    assert ast.get_docstring(tree) is None
    assert not _says_something("m:Seat.pool", "Returns the pool.")
    assert not _says_something("m.pool_sum:(module)", "Pool sum.")
    assert not _says_something("m:SeatView", "The seat view.")
    assert _says_something("m:Seat.pool", "The counters in the pool (R02).")
    assert _module_name(PKG / "engine" / "__init__.py") == "loo_lessons.engine"
    assert _module_name(PKG / "engine" / "laws.py") == "loo_lessons.engine.laws"
