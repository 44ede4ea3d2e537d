"""Build the release (`make dist`): the sdist and the engine's wheel from the files git tracks,
and, when the book has been built, the offline book as a wheel of its own.

    python -m tools.dist [--out dist] [--book book/_build/html] [--no-book]

1. The sdist is built from a copy of `git ls-files` (only what the repository holds: never the
   `.lessons` folder `make lessons` lays out, an Untitled.ipynb from JupyterLab's "New" button,
   .ipynb_checkpoints, a built book or a venv), so it is the same whether or not the lessons or
   the book ran here.
2. The wheel is built from that sdist, unpacked (as `python -m build` does): what the wheel
   holds, the sdist holds.
3. The book's wheel, `loo-lessons-book` (data only: the built site in `loo_lessons_book/html`, its
   version the engine's), is built from `book/_build/html` when it is there (`make book` first),
   so the engine's wheel stays small and the book is installed only where it is read.
   `loo-lessons book` serves it.

Hatchling does the building (the `test` extra has it; `pip install hatchling` otherwise), with
no network: nothing is fetched.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
#: The distribution name of the book's wheel, and the package it installs.
BOOK_NAME = "loo-lessons-book"
BOOK_PACKAGE = "loo_lessons_book"


def version(repo: Path = REPO) -> str:
    """The one version, `__version__` in loo_lessons/__init__.py (pyproject reads it there)."""
    text = (repo / "loo_lessons" / "__init__.py").read_text(encoding="utf-8")
    m = re.search(r'^__version__ = "([^"]+)"$', text, re.M)
    if not m:
        raise SystemExit("loo_lessons/__init__.py: no __version__ line")
    return m.group(1)


def tracked(repo: Path = REPO) -> list[str]:
    """The files git tracks in `repo` (that are there: a deletion not yet committed is left
    out)."""
    try:
        out = subprocess.run(
            ["git", "-C", str(repo), "ls-files", "-z"],
            check=True,
            capture_output=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        raise SystemExit(f"git ls-files: {e} (make dist builds from a git checkout)") from None
    names = [n for n in out.decode().split("\0") if n]
    return [n for n in names if (repo / n).is_file() or (repo / n).is_symlink()]


def _hatchling(target: str, source: Path, out: Path) -> Path:
    """Build `target` (sdist or wheel) of the project in `source` into `out`; the file made."""
    before = set(out.glob("*")) if out.exists() else set()
    r = subprocess.run(
        [sys.executable, "-m", "hatchling", "build", "-t", target, "-d", str(out)],
        cwd=source,
        capture_output=True,
        text=True,
    )
    if r.returncode:
        raise SystemExit(f"hatchling build -t {target} in {source}:\n{r.stdout}{r.stderr}")
    made = sorted(set(out.glob("*")) - before)
    if len(made) != 1:
        raise SystemExit(f"hatchling build -t {target}: expected one file, got {made}")
    return made[0]


def engine(out: Path, repo: Path = REPO) -> tuple[Path, Path]:
    """The sdist from the tracked files, then the wheel from the sdist: (sdist, wheel)."""
    with tempfile.TemporaryDirectory(prefix="loo-dist-") as tmp:
        stage = Path(tmp) / "tracked"
        for name in tracked(repo):
            dest = stage / name
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(repo / name, dest, follow_symlinks=False)
        sdist = _hatchling("sdist", stage, out)
        unpacked = Path(tmp) / "unpacked"
        with tarfile.open(sdist) as tar:
            tar.extractall(unpacked, filter="data")
        (top,) = unpacked.iterdir()
        wheel = _hatchling("wheel", top, out)
    return sdist, wheel


#: The book package's one module: where the site is, for `loo-lessons book`.
BOOK_INIT = '''"""The offline book of loo-lessons, built: `loo-lessons book` serves it on 127.0.0.1.

A data-only package (the site's HTML, scripts and the in-page engine), installed beside
`loo-lessons` of the same version.
"""

from pathlib import Path

__version__ = "{version}"
#: The built site (index.html at its top).
HTML = Path(__file__).resolve().parent / "html"
'''

BOOK_PYPROJECT = """[build-system]
requires = ["hatchling>=1.27"]
build-backend = "hatchling.build"

[project]
name = "{name}"
version = "{version}"
description = "The offline book of loo-lessons (three-card Loo), built: `loo-lessons book` serves it"
requires-python = ">=3.11"
license = "MIT"
license-files = ["LICENSE"]

[tool.hatch.build.targets.wheel]
packages = ["{package}"]
"""


def book(html: Path, out: Path, repo: Path = REPO) -> Path:
    """The built book at `html` as the data-only wheel `loo-lessons-book`."""
    if not (html / "index.html").is_file():
        raise SystemExit(f"{html}: no index.html (make book builds the site)")
    v = version(repo)
    with tempfile.TemporaryDirectory(prefix="loo-book-") as tmp:
        stage = Path(tmp)
        (stage / "pyproject.toml").write_text(
            BOOK_PYPROJECT.format(name=BOOK_NAME, version=v, package=BOOK_PACKAGE),
            encoding="utf-8",
        )
        shutil.copy2(repo / "LICENSE", stage / "LICENSE")
        package = stage / BOOK_PACKAGE
        package.mkdir()
        (package / "__init__.py").write_text(BOOK_INIT.format(version=v), encoding="utf-8")
        shutil.copytree(
            html,
            package / "html",
            ignore=shutil.ignore_patterns(".buildinfo", ".doctrees", "*.pickle"),
        )
        return _hatchling("wheel", stage, out)


def main(argv: list[str] | None = None) -> int:
    """`python -m tools.dist`: build the release into `--out`."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--out", type=Path, default=REPO / "dist", help="where the files go (dist/)")
    ap.add_argument(
        "--book",
        type=Path,
        default=REPO / "book" / "_build" / "html",
        help="the built book to package (default book/_build/html, when it is there)",
    )
    ap.add_argument("--no-book", action="store_true", help="the engine's sdist and wheel only")
    args = ap.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    made = list(engine(args.out))
    if not args.no_book:
        if (args.book / "index.html").is_file():
            made.append(book(args.book, args.out))
        else:
            print(f"no built book at {args.book}: {BOOK_NAME} not made (make book, then make dist)")
    for path in made:
        print(f"{path}  {path.stat().st_size / 1e6:.1f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
