"""The standard library in the book's page (Pyodide): a small zip, and the whole one only if
ever asked for.

Pyodide's standard library is one 2.4 MB zip. The book's engine starts from a memory snapshot
(scripts/pyc_in_pyodide.mjs) in which every module a page needs at once is imported already;
after that, the page imports only the few modules its other components may need (the
controllers not in the snapshot, PyYAML's). The build writes those as a small zip
(`write_part`), which the page mounts where Pyodide's standard library goes. Anything else a
page ever imports is found in the whole zip, fetched once the first time (`WholeStdlib`, a
finder at the end of `sys.meta_path`, whose `fetch` the page's worker sets): a module left
out of the small zip is late, never missing. Standard library only.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
import zipfile
from collections.abc import Callable, Iterable
from importlib.machinery import ModuleSpec
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence

#: Where the page writes the whole standard library when it is fetched.
WHOLE_PATH = "/lib/python_stdlib_whole.zip"


def module_names(entries: Iterable[str]) -> frozenset[str]:
    """The modules a zip of Python sources holds, from its entry names
    (`a/__init__.py` is the package `a`, `a/b.py` the module `a.b`)."""
    out = set()
    for name in entries:
        if not name.endswith(".py") or "__pycache__/" in name:
            continue
        parts = name[: -len(".py")].split("/")
        if parts[-1] == "__init__":
            parts.pop()
        if parts and all(p.isidentifier() for p in parts):
            out.add(".".join(parts))
    return frozenset(out)


def entries_for(entries: Iterable[str], modules: Iterable[str]) -> list[str]:
    """The entries of a zip (names `entries`) that hold `modules`: each module's file, or its
    package's `__init__.py` and folder entry; modules the zip does not hold are left out."""
    have = set(entries)
    out: set[str] = set()
    for m in modules:
        path = m.replace(".", "/")
        if f"{path}.py" in have:
            out.add(f"{path}.py")
        elif f"{path}/__init__.py" in have:
            out.add(f"{path}/__init__.py")
            if f"{path}/" in have:
                out.add(f"{path}/")
    return sorted(out)


def write_part(whole: str, modules: Iterable[str], out: str) -> list[str]:
    """Write to `out` the part of the zip `whole` that holds `modules` (the entries as they
    are there: same names, dates and compression); the names written."""
    with zipfile.ZipFile(whole) as src:
        keep = entries_for(src.namelist(), modules)
        with zipfile.ZipFile(out, "w") as dst:
            for name in keep:
                info = src.getinfo(name)
                dst.writestr(info, src.read(info), compress_type=info.compress_type)
    return keep


class WholeStdlib(importlib.abc.MetaPathFinder):
    """Finds a standard-library module the small zip left out: the first time one is asked
    for, `fetch()` gives the whole zip's bytes, which go to `path`, on `sys.path` and on
    the `__path__` of every standard-library package already imported. Only the modules
    of `names` (the whole zip's) are looked for, so probing for a module Pyodide has not
    got (`pwd`, `_winapi`) fetches nothing."""

    def __init__(self, names: Iterable[str], path: str = WHOLE_PATH) -> None:
        self.names = frozenset(names)
        self.path = path
        self.fetch: Callable[[], bytes] | None = None
        self.mounted = False

    def find_spec(
        self, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        """Find a standard-library module Pyodide left out, mounting the whole library's zip first
        (once); None for any other module, or when it cannot be fetched."""
        if fullname not in self.names:
            return None
        if not self.mounted and not self._mount():
            return None
        return importlib.machinery.PathFinder.find_spec(fullname, path)

    def _mount(self) -> bool:
        if self.fetch is None:
            return False
        try:
            data = self.fetch()
        except Exception:  # offline and not kept: the import fails as it would have
            return False
        with open(self.path, "wb") as f:
            f.write(data)
        self.mounted = True
        sys.path.append(self.path)
        for name, module in list(sys.modules.items()):
            where = getattr(module, "__path__", None)
            if name in self.names and isinstance(where, list):
                where.append(f"{self.path}/{name.replace('.', '/')}")
        return True


def install(names: Iterable[str], path: str = WHOLE_PATH) -> WholeStdlib:
    """A `WholeStdlib` for `names`, last on `sys.meta_path` (one, however often called)."""
    for finder in sys.meta_path:
        if isinstance(finder, WholeStdlib):
            sys.meta_path.remove(finder)
    finder = WholeStdlib(names, path)
    sys.meta_path.append(finder)
    return finder


def finder() -> WholeStdlib | None:
    """The installed `WholeStdlib`, if any (the page's worker gives it its `fetch`)."""
    return next((f for f in sys.meta_path if isinstance(f, WholeStdlib)), None)
