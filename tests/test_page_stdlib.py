"""The book page's standard library (loo_lessons.widgets.backends.stdlib), in this CPython: the
small zip the build writes holds exactly the modules asked for, and a module it left out is
found in the whole zip, fetched once, the first time it is imported. (In the page itself:
scripts/pyc_in_pyodide.mjs restores the snapshot with the small zip and imports every module
of the package from it; tests/test_book_weight.py counts its bytes.)"""

from __future__ import annotations

import importlib
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from loo_lessons.widgets.backends import stdlib

#: A stand-in for Pyodide's zip: modules no other path holds, so only the zips can find them.
WHOLE = {
    "loofake_one.py": "VALUE = 1\n",
    "loofake_two.py": "import loofake_one\nVALUE = loofake_one.VALUE + 1\n",
    "loofake_pkg/": "",
    "loofake_pkg/__init__.py": "NAME = 'pkg'\n",
    "loofake_pkg/inner.py": "VALUE = 'inner'\n",
    "loofake_pkg/sub/__init__.py": "",
    "loofake_pkg/sub/deep.py": "VALUE = 'deep'\n",
    "loofake_pkg/__pycache__/inner.cpython-313.pyc": "",
    "loofake_pkg/data.txt": "not a module\n",
}


def _write(path: Path, files: dict[str, str]) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, text in files.items():
            z.writestr(name, text)
    return path


@pytest.fixture
def clean() -> Iterator[None]:
    """sys.path, sys.meta_path and sys.modules as they were, after each test."""
    path, meta = list(sys.path), list(sys.meta_path)
    yield
    sys.path[:], sys.meta_path[:] = path, meta
    for name in [n for n in sys.modules if n.startswith("loofake")]:
        del sys.modules[name]
    importlib.invalidate_caches()


def test_module_names_of_a_zip() -> None:
    assert stdlib.module_names(WHOLE) == {
        "loofake_one", "loofake_two", "loofake_pkg", "loofake_pkg.inner", "loofake_pkg.sub", "loofake_pkg.sub.deep",
    }


def test_the_part_holds_the_modules_asked_for_and_nothing_else(tmp_path: Path) -> None:
    whole = _write(tmp_path / "whole.zip", WHOLE)
    kept = stdlib.write_part(str(whole), ["loofake_pkg", "loofake_pkg.sub.deep", "loofake_nowhere"], str(tmp_path / "p.zip"))
    assert kept == ["loofake_pkg/", "loofake_pkg/__init__.py", "loofake_pkg/sub/deep.py"]
    with zipfile.ZipFile(tmp_path / "p.zip") as z, zipfile.ZipFile(whole) as w:
        assert z.namelist() == kept
        for name in kept:  # as they were: the same bytes, dates and compression
            assert z.read(name) == w.read(name)
            assert z.getinfo(name).date_time == w.getinfo(name).date_time
            assert z.getinfo(name).compress_type == w.getinfo(name).compress_type


@given(st.sets(st.sampled_from(sorted(stdlib.module_names(WHOLE)))))
def test_the_part_of_any_modules_holds_them(modules: set[str]) -> None:
    assert stdlib.module_names(stdlib.entries_for(WHOLE, modules)) == modules


def test_a_module_left_out_is_fetched_once_from_the_whole_zip(tmp_path: Path, clean: None) -> None:
    whole = _write(tmp_path / "whole.zip", WHOLE)
    part = tmp_path / "part.zip"
    stdlib.write_part(str(whole), ["loofake_pkg", "loofake_one"], str(part))
    sys.path.insert(0, str(part))
    fetched: list[int] = []

    def fetch() -> bytes:
        fetched.append(1)
        return whole.read_bytes()

    finder = stdlib.install(stdlib.module_names(WHOLE), str(tmp_path / "fetched.zip"))
    assert stdlib.install(stdlib.module_names(WHOLE), str(tmp_path / "fetched.zip")) is not finder
    finder = stdlib.install(stdlib.module_names(WHOLE), str(tmp_path / "fetched.zip"))
    assert [f for f in sys.meta_path if isinstance(f, stdlib.WholeStdlib)] == [finder] == [stdlib.finder()]
    finder.fetch = fetch

    assert importlib.import_module("loofake_pkg").NAME == "pkg"  # in the part: nothing fetched
    assert importlib.import_module("loofake_one").VALUE == 1
    assert fetched == [] and not finder.mounted
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("loofake_absent")  # not the whole zip's either: nothing fetched
    assert fetched == []

    # a submodule of a package the part holds, then a top-level module: one fetch for both
    assert importlib.import_module("loofake_pkg.inner").VALUE == "inner"
    assert fetched == [1] and finder.mounted
    assert importlib.import_module("loofake_two").VALUE == 2
    assert importlib.import_module("loofake_pkg.sub.deep").VALUE == "deep"
    assert fetched == [1]
    assert (tmp_path / "fetched.zip").read_bytes() == whole.read_bytes()


def test_no_fetch_or_a_failed_one_leaves_the_import_failing(tmp_path: Path, clean: None) -> None:
    finder = stdlib.install(stdlib.module_names(WHOLE), str(tmp_path / "fetched.zip"))
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("loofake_one")  # no fetch given (the build, a test)

    def offline() -> bytes:
        raise OSError("offline, and the whole zip was never kept")

    finder.fetch = offline
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("loofake_one")
    assert not finder.mounted and not (tmp_path / "fetched.zip").exists()
    whole = _write(tmp_path / "whole.zip", WHOLE)
    finder.fetch = whole.read_bytes  # back online: the next import finds it
    assert importlib.import_module("loofake_one").VALUE == 1
