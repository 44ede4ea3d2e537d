"""The release as a learner without a checkout meets it: `make dist`'s files (tools/dist.py)
installed into a fresh venv outside the tree, and the doors run from there.

Built once for the module: the sdist from git's tracked files, the wheel from the sdist, and the
book's data-only wheel (`loo-lessons-book`) from `book/_build/html` when a built book is there
(`make book`; any fresh one will do), else from a stub site this test writes (a page and a
WebAssembly file: what `loo-lessons book` must serve, not what the book says; the book's own
tests read the real one).

The fresh venv stands its registry in with the packages this test runs with, as the hub's
install test does: a folder of links to this Python's site-packages, leaving out the project
itself (its editable install would point back at the checkout), named in a .pth line, so
`pip install --no-index` finds every dependency offline and installs only our two wheels.
JupyterLab's application files (share/jupyter) are linked likewise.
"""

from __future__ import annotations

import email.parser
import fcntl
import http.client
import os
import re
import signal
import subprocess
import sys
import sysconfig
import tarfile
import time
import urllib.error
import urllib.request
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tools import dist

REPO = Path(__file__).resolve().parent.parent
VERSION = f"python{sys.version_info.major}.{sys.version_info.minor}"
#: What JupyterLab and a learner leave in the folders the package is built from.
STRAYS = ("notebooks/Untitled.ipynb", "notebooks/.ipynb_checkpoints/01-welcome-checkpoint.ipynb")


def _stub_book(folder: Path) -> Path:
    folder.mkdir(parents=True)
    (folder / "index.html").write_text(
        '<!doctype html><html lang="en"><title>Loo Lessons</title><h1>Loo Lessons</h1></html>\n'
    )
    (folder / "_static").mkdir()
    (folder / "_static" / "engine.wasm").write_bytes(b"\0asm\1\0\0\0")
    return folder


@pytest.fixture(scope="module")
def release(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The release's three files, built as `make dist` builds them."""
    out = tmp_path_factory.mktemp("dist")
    built = REPO / "book" / "_build" / "html"
    (REPO / "book").mkdir(exist_ok=True)
    # the book's tests may be building the site in the other test process: its lock
    # (tests/_book_site.py) keeps this copy from reading a half-built one
    with open(REPO / "book" / ".build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        site = built if (built / "index.html").is_file() else _stub_book(out.parent / "book-stub")
        r = subprocess.run(
            [sys.executable, "-m", "tools.dist", "--out", str(out), "--book", str(site)],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=600,
        )
    assert r.returncode == 0, r.stdout + r.stderr
    v = dist.version()
    files = {
        "sdist": out / f"loo_lessons-{v}.tar.gz",
        "wheel": out / f"loo_lessons-{v}-py3-none-any.whl",
        "book": out / f"loo_lessons_book-{v}-py3-none-any.whl",
        "site": site,
    }
    for name, path in files.items():
        assert path.exists(), f"{name}: {path} not made\n{r.stdout}"
    return files


def test_the_sdist_holds_the_tracked_files_and_the_wheel_the_lessons(
    release: dict[str, Path],
) -> None:
    v = dist.version()
    with tarfile.open(release["sdist"]) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
        files = {
            m.name.split("/", 1)[1] for m in tar.getmembers() if m.isfile() and "/" in m.name
        }
    assert files - {"PKG-INFO"} == set(dist.tracked()), "the sdist is not git's tracked files"
    assert not {n for n in names if ".lessons" in n or "_build" in n or "Untitled" in n}
    with zipfile.ZipFile(release["wheel"]) as whl:
        inside = whl.namelist()
        meta = email.parser.Parser().parsestr(
            whl.read(f"loo_lessons-{v}.dist-info/METADATA").decode()
        )
    lessons = [n for n in inside if n.startswith("loo_lessons/_lessons/notebooks/")]
    tracked_lessons = [n for n in dist.tracked() if n.startswith("notebooks/")]
    assert len(lessons) == len(tracked_lessons) >= 14
    assert f"loo_lessons-{v}.dist-info/licenses/LICENSE" in inside
    assert "loo_lessons/_hub/jupyterhub_config.py" in inside
    assert not [n for n in inside if "checkpoint" in n or "Untitled" in n or "/tests/" in n]
    assert meta["Version"] == v and meta["License-Expression"] == "MIT"
    # the book is its own wheel: the engine's stays small
    assert release["wheel"].stat().st_size < 2_000_000
    with zipfile.ZipFile(release["book"]) as whl:
        assert "loo_lessons_book/html/index.html" in whl.namelist()


def test_a_checkout_after_make_lessons_builds_the_same_clean_package(tmp_path: Path) -> None:
    """`pip install .` from a checkout where `make lessons` ran (its `.lessons/notebooks` link)
    and JupyterLab left an Untitled.ipynb and checkpoints: the package leaves them all out."""
    copy = tmp_path / "checkout"
    for name in dist.tracked():
        (copy / name).parent.mkdir(parents=True, exist_ok=True)
        (copy / name).write_bytes((REPO / name).read_bytes())
    (copy / ".lessons").mkdir()
    (copy / ".lessons" / "notebooks").symlink_to(copy / "notebooks", target_is_directory=True)
    for stray in STRAYS:
        (copy / stray).parent.mkdir(parents=True, exist_ok=True)
        (copy / stray).write_text("{}")
    out = tmp_path / "out"
    r = subprocess.run(
        [sys.executable, "-m", "hatchling", "build", "-d", str(out)],
        cwd=copy,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    (wheel,) = out.glob("*.whl")
    (sdist,) = out.glob("*.tar.gz")
    with zipfile.ZipFile(wheel) as whl:
        inside = whl.namelist()
    with tarfile.open(sdist) as tar:
        held = tar.getnames()
    for names in (inside, held):
        assert not [n for n in names if "Untitled" in n or "checkpoint" in n or ".lessons" in n]
    assert len([n for n in inside if "/_lessons/notebooks/" in n]) == len(
        [n for n in held if "/notebooks/" in n and n.endswith(".ipynb")]
    ) >= 14


@pytest.fixture(scope="module")
def venv(release: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv outside the tree with the release's two wheels installed (the `lessons`
    extra's dependencies from the stand-in registry); its bin folder."""
    home = tmp_path_factory.mktemp("learner")
    folder = home / "venv"
    # no pip of its own (ensurepip costs seconds): this Python's pip installs into it
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True, timeout=120
    )
    registry = home / "registry"
    registry.mkdir()
    ours = Path(sysconfig.get_paths()["purelib"])
    for entry in ours.iterdir():
        if "loo_lessons" in entry.name or entry.name.startswith("__editable__"):
            continue  # the project comes from the wheel, never from the checkout
        (registry / entry.name).symlink_to(entry)
    site = folder / "lib" / VERSION / "site-packages"
    (site / "stand-in-registry.pth").write_text(f"{registry}\n")
    for shared in ("share/jupyter", "etc/jupyter"):
        if (Path(sys.prefix) / shared).is_dir():
            (folder / shared).parent.mkdir(parents=True, exist_ok=True)
            (folder / shared).symlink_to(Path(sys.prefix) / shared)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(folder / "bin" / "python"),
            "install",
            "--quiet",
            "--no-index",
            "--disable-pip-version-check",
            f"{release['wheel']}[lessons]",
            str(release["book"]),
        ],
        env=env,
        cwd=home,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    return folder / "bin"


def _run(venv: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run(
        [str(venv / "loo-lessons"), *args],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_installed_command_is_the_release(venv: Path, tmp_path: Path) -> None:
    r = _run(venv, "--version", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    metadata = subprocess.run(
        [str(venv / "python"), "-c", "import importlib.metadata as m, loo_lessons;"
         "print(m.version('loo-lessons'), loo_lessons.__version__, loo_lessons.__file__)"],
        env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert r.stdout.strip() == f"loo-lessons {metadata[0]}"
    assert metadata[0] == metadata[1] == dist.version()
    assert Path(metadata[2]).is_relative_to(venv.parent), "loo_lessons came from the checkout"


def test_scenarios_by_name_explain_from_the_installed_package(venv: Path, tmp_path: Path) -> None:
    listed = _run(venv, "scenarios", cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    names = [line.split()[0] for line in listed.stdout.splitlines()]
    assert "lead-king-when-ace-turned" in names and len(names) >= 80
    r = _run(venv, "explain", "lead-king-when-ace-turned", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "Legal: KS" in r.stdout and "R24" in r.stdout
    j = _run(venv, "explain", "lead-king-when-ace-turned", "--json", cwd=tmp_path)
    assert j.returncode == 0 and j.stdout.lstrip().startswith("{")
    unknown = _run(venv, "explain", "lead-the-joker", cwd=tmp_path)
    assert unknown.returncode == 2 and unknown.stdout == ""
    assert unknown.stderr.count("\n") == 1 and "loo-lessons scenarios" in unknown.stderr
    assert "Traceback" not in unknown.stderr


def _wait_for_line(proc: subprocess.Popen[str], pattern: str, seconds: float) -> str:
    """The first line of the process's output (stdout and stderr together) matching
    `pattern`."""
    assert proc.stdout is not None
    deadline = time.monotonic() + seconds
    seen = []
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            if proc.poll() is not None:
                break
            continue
        seen.append(line)
        if re.search(pattern, line):
            return line
    raise AssertionError(f"no line matching {pattern!r}:\n{''.join(seen[-40:])}")


def _get(url: str, seconds: float = 60) -> tuple[int, http.client.HTTPMessage, bytes]:
    """The status, headers and body of `url`, asked again while nothing listens there yet (a
    server prints its address as it starts)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(url, timeout=30) as answer:
                return answer.status, answer.headers, answer.read()
        except ConnectionRefusedError:
            pass
        except urllib.error.URLError as e:
            if not isinstance(e.reason, ConnectionRefusedError):
                raise
        if time.monotonic() > deadline:
            raise AssertionError(f"{url}: nothing answered in {seconds} s")
        time.sleep(0.5)


@pytest.fixture
def started() -> Iterator[list[subprocess.Popen[str]]]:
    """Processes a test starts, each in its own group, stopped at the end by their ids."""
    procs: list[subprocess.Popen[str]] = []
    yield procs
    for proc in procs:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGINT)
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=15)


def _start(venv: Path, *args: str, cwd: Path) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    # JupyterLab's runtime files (its cookie secret, the server's record) in the test's folder
    env |= {"JUPYTER_RUNTIME_DIR": str(cwd / "runtime"), "JUPYTER_CONFIG_DIR": str(cwd / "config")}
    return subprocess.Popen(
        [str(venv / "loo-lessons"), *args],
        env=env,
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )


def test_the_lessons_open_in_jupyterlab_and_keep_the_learners_work(
    venv: Path, tmp_path: Path, started: list[subprocess.Popen[str]]
) -> None:
    folder = tmp_path / "my lessons"
    first = _run(venv, "lessons", str(folder), "--print-only", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    lessons = sorted(p.name for p in (folder / "notebooks").glob("*.ipynb"))
    assert len(lessons) >= 14 and lessons[0] == "01-welcome.ipynb"
    assert (folder / "book" / "glossary.md").is_file()
    assert (folder / "book" / "generated" / "variants.md").is_file()
    # her work: lesson 1 changed, a notebook of her own; a second run keeps both
    mine = folder / "notebooks" / "01-welcome.ipynb"
    mine.write_text('{"cells": [], "mine": true}')
    (folder / "notebooks" / "notes.ipynb").write_text("{}")
    (folder / "notebooks" / "14-strategy-lab.ipynb").unlink()
    again = _run(venv, "lessons", str(folder), "--print-only", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert mine.read_text() == '{"cells": [], "mine": true}'
    assert (folder / "notebooks" / "notes.ipynb").read_text() == "{}"
    assert (folder / "notebooks" / "14-strategy-lab.ipynb").is_file(), "a missing lesson comes back"
    assert "1 copied" in again.stdout and "kept as you left them" in again.stdout

    proc = _start(venv, "lessons", str(folder), "--no-browser", "--port", "18888", cwd=tmp_path)
    started.append(proc)
    line = _wait_for_line(proc, r"http://127\.0\.0\.1:\d+/lab\S*\?token=\w+", 120)
    url = re.search(r"http://127\.0\.0\.1:\d+/lab\S*\?token=(\w+)", line)
    assert url is not None and "01-welcome.ipynb" in url.group(0)
    base = url.group(0).split("/lab")[0]
    status, _, _ = _get(
        f"{base}/api/contents/notebooks/01-welcome.ipynb?content=0&token={url.group(1)}"
    )
    assert status == 200
    status, _, page = _get(f"{base}/lab?token={url.group(1)}")
    assert status == 200 and b"JupyterLab" in page


def test_the_book_serves_offline_from_the_installed_package(
    venv: Path, release: dict[str, Path], tmp_path: Path, started: list[subprocess.Popen[str]]
) -> None:
    proc = _start(venv, "book", "--no-browser", "--port", "18000", cwd=tmp_path)
    started.append(proc)
    line = _wait_for_line(proc, r"http://127\.0\.0\.1:\d+/", 60)
    url = re.search(r"http://127\.0\.0\.1:\d+/", line)
    assert url is not None and "loo_lessons_book" in line, line
    # what the book's wheel holds (the site it was built from may be built again meanwhile)
    with zipfile.ZipFile(release["book"]) as whl:
        index = whl.read("loo_lessons_book/html/index.html")
        wasm = next(n for n in whl.namelist() if n.endswith(".wasm"))
    _, _, page = _get(url.group(0))
    assert page == index
    _, headers, _ = _get(url.group(0) + wasm.removeprefix("loo_lessons_book/html/"))
    assert headers["Content-Type"] == "application/wasm"


def test_the_hub_recipe_is_in_the_installed_package(venv: Path, tmp_path: Path) -> None:
    """A hub installed from the wheel finds its recipe in the venv, and `class bench` (driven by
    `classroom.drive`) starts that recipe with the venv's own Python, not a checkout's."""
    r = _run(venv, "class", "recipe", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    recipe = Path(r.stdout.strip())
    assert recipe.is_relative_to(venv.parent)
    for name in ("jupyterhub_config.py", "install-proxy.sh", "package-lock.json", "loo-hub.service"):
        assert (recipe / name).is_file(), name
    drive = subprocess.run(
        [
            str(venv / "python"),
            "-c",
            "from loo_lessons.classroom import drive, recipe; "
            "print(recipe.in_checkout(), drive.RECIPE, drive.PROXY.parent.parent.parent)",
        ],
        env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert drive.returncode == 0, drive.stderr
    assert drive.stdout.split() == ["False", str(recipe), str(recipe)]
