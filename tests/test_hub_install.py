"""deploy/README.md's install block, run line by line beside the release's wheel, built by
`make dist`'s script from a clean `git clone` of the project.

The block (marked `<!-- install: … -->` in the README) makes the hub's venv and state outside
the project, installs the release's wheel with the `hub` extra, the proxy from the recipe the
wheel carries, and makes a class list. Offline: the new venv is given a .pth line to the
packages this test runs with (standing in for PyPI, so `pip install --no-index` finds every
requirement installed), and npm installs the locked proxy from its cache
(`npm_config_offline`). Every command is bounded in time. Then: the hub's Python imports
JupyterHub, nbgitpuller and the lessons from the venv; the proxy is in the installed recipe;
the class list holds the three names, private; the clone has no untracked file (no hub-venv/,
hub-state/ or class list inside the project); and the config refuses a state folder inside the
project or inside the hub's venv.
"""

from __future__ import annotations

import os
import re
import shlex
import stat
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from loo_lessons.classroom import pupils
from loo_lessons.classroom.drive import REPO

README = REPO / "deploy" / "README.md"


def install_block() -> list[str]:
    text = README.read_text()
    m = re.search(r"<!-- install:[^>]*-->\s*```sh\n(.*?)```", text, re.S)
    assert m, "deploy/README.md has no install block"
    return [line for line in m.group(1).splitlines() if line.strip()]


def test_the_install_block_names_this_release() -> None:
    from loo_lessons import __version__

    assert any(f"loo_lessons-{__version__}-py3-none-any.whl[hub]" in line for line in install_block())


def test_the_install_steps_work_from_the_release(tmp_path: Path) -> None:
    clone = tmp_path / "loo-lessons"
    subprocess.run(["git", "clone", "--quiet", str(REPO), str(clone)], check=True, timeout=120)
    release = tmp_path / "release"
    subprocess.run(
        [sys.executable, "-m", "tools.dist", "--no-book", "--out", str(release)],
        cwd=clone,
        check=True,
        timeout=300,
        capture_output=True,
        env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
    )
    venv, state = tmp_path / "hub" / "venv", tmp_path / "hub" / "state"
    env = {
        **os.environ,
        "HUB_VENV": str(venv),
        "HUB_STATE": str(state),
        "PIP_NO_INDEX": "1",
        "PIP_NO_BUILD_ISOLATION": "0",  # pip's inverted switch: build with what is installed
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        "npm_config_offline": "true",
    }
    env.pop("PYTHONPATH", None)  # only what the steps install
    lines = install_block()
    assert lines[0].startswith("export HUB_VENV=")
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    for line in lines[1:]:
        # the exported defaults, then the line as a shell runs it
        script = f"{lines[0]}\nset -e\n{line}"
        r = subprocess.run(
            ["bash", "-c", script], cwd=release, env=env, capture_output=True, text=True, timeout=300
        )
        assert r.returncode == 0, f"{line}\n{r.stdout[-2000:]}\n{r.stderr[-2000:]}"
        if "-m venv" in line:  # stand in for the registry: what this test's Python has
            site = venv / "lib" / version / "site-packages"
            assert site.is_dir(), f"{line} made no venv at {venv}"
            (site / "offline-registry.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")

    python = venv / "bin" / "python"
    probe = subprocess.run(
        [
            str(python),
            "-c",
            "import jupyterhub, jupyterhub_idle_culler, nbgitpuller, loo_lessons; print(loo_lessons.__file__)",
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
        check=True,
    )
    # the project is installed into the venv, not run from the clone (which may be private)
    installed = Path(probe.stdout.strip())
    assert installed.is_relative_to(venv), probe.stdout
    assert (installed.parent / "_lessons" / "notebooks" / "01-welcome.ipynb").exists()
    assert (installed.parent / "_lessons" / "book" / "glossary.md").exists()
    recipe = installed.parent / "_hub"
    assert (recipe / "node_modules/.bin/configurable-http-proxy").exists()
    class_list = state / "class-list"
    assert set(pupils.read(class_list)) == {"tess", "ann", "bob"}
    assert stat.S_IMODE(class_list.stat().st_mode) == 0o600
    assert stat.S_IMODE(state.stat().st_mode) == 0o700
    untracked = subprocess.run(
        ["git", "status", "--porcelain"], cwd=clone, capture_output=True, text=True, check=True
    ).stdout
    assert untracked == "", f"the install left files in the project:\n{untracked}"

    # the recipe will not keep its state inside the project
    inside = subprocess.run(
        [str(python), "-m", "jupyterhub", "-f", "deploy/jupyterhub/jupyterhub_config.py"],
        cwd=clone,
        env={**env, "LOO_HUB_STATE": str(clone / "hub-state")},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert inside.returncode != 0
    assert "inside the project folder" in inside.stderr + inside.stdout
    assert not (clone / "hub-state").exists()
    # nor, installed from the release, inside the hub's venv (an upgrade or uninstall clears it)
    in_venv = subprocess.run(
        [str(python), "-m", "jupyterhub", "-f", str(recipe / "jupyterhub_config.py")],
        cwd=tmp_path,
        env={**env, "LOO_HUB_STATE": str(venv / "hub-state")},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert in_venv.returncode != 0
    assert str(venv) in in_venv.stderr + in_venv.stdout
    assert not (venv / "hub-state").exists()


@pytest.mark.parametrize("line", install_block())
def test_every_install_line_is_a_plain_command(line: str) -> None:
    """No line fetches a script from another host or asks for a shared password."""
    words = shlex.split(line, comments=True)
    assert words, line
    assert not any(w.startswith(("http://", "https://")) for w in words), line
    assert "PASSWORD" not in line


def docker_ignores(path: str, patterns: list[str]) -> bool:
    """Docker's reading of .dockerignore (Go's filepath.Match, with ** for any folders): a
    path is left out when it or a folder above it matches."""
    regexes = []
    for p in patterns:
        rx = re.escape(p).replace(r"\*\*/", "(?:.*/)?").replace(r"\*", "[^/]*")
        regexes.append(re.compile(rx + "$"))
    parts = path.split("/")
    prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]
    return any(r.match(prefix) for r in regexes for prefix in prefixes)


def test_the_image_takes_the_sources_and_nothing_else() -> None:
    patterns = [
        line.strip()
        for line in (REPO / ".dockerignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    left_out = [
        ".venv/bin/python",
        ".venv-bare/bin/python",
        "node_modules/pyodide/pyodide.js",
        "deploy/jupyterhub/node_modules/.bin/configurable-http-proxy",
        "book/_build/html/index.html",
        ".lessons/notebooks/01-welcome.ipynb",
        "hub-state/jupyterhub.sqlite",
        "hub-venv/bin/python",
        "class/ann.csv",
        "loo_lessons/__pycache__/x.pyc",
        ".git/HEAD",
    ]
    kept = [
        "pyproject.toml",
        "README.md",
        "loo_lessons/__init__.py",
        "loo_lessons/classroom/service.py",
        "notebooks/01-welcome.ipynb",
        "tools/lab_root.py",
        "book/glossary.md",
    ]
    assert [p for p in left_out if not docker_ignores(p, patterns)] == []
    assert [p for p in kept if docker_ignores(p, patterns)] == []
    for path in kept:
        assert (REPO / path).exists(), path


def test_the_kubernetes_recipe_has_no_usable_placeholder() -> None:
    import yaml
    from traitlets.config import Config

    values = yaml.safe_load((REPO / "deploy" / "z2jh" / "config.yaml").read_text())
    hub_config = values["hub"]["config"]
    text = (REPO / "deploy" / "z2jh" / "config.yaml").read_text()
    assert "shared-password" not in text and "user_password" not in text
    assert hub_config["JupyterHub"]["authenticator_class"] == "native"
    assert hub_config["NativeAuthenticator"]["open_signup"] is False

    def start(admins: list[str]) -> None:
        c = Config({**hub_config, "Authenticator": {**hub_config["Authenticator"]}})
        c.Authenticator.admin_users = admins
        for snippet in values["hub"]["extraConfig"].values():
            exec(compile(snippet, "hub.extraConfig", "exec"), {"c": c})

    with pytest.raises(SystemExit) as stopped:
        start(hub_config["Authenticator"]["admin_users"])  # as shipped
    assert "CHANGE-ME" in str(stopped.value) and "teacher's name" in str(stopped.value)
    start(["tess"])  # a real name: the hub starts


def test_the_systemd_unit_is_valid_and_runs_the_recipe(tmp_path: Path) -> None:
    """deploy/jupyterhub/loo-hub.service, with its paths made this machine's, passes
    `systemd-analyze verify`, and starts the recipe with the venv's jupyterhub."""
    unit = (REPO / "deploy" / "jupyterhub" / "loo-hub.service").read_text()
    assert "ExecStart=/opt/loo-hub/venv/bin/jupyterhub -f /srv/loo-lessons/deploy/jupyterhub/jupyterhub_config.py" in unit
    assert "KillSignal=SIGTERM" in unit and "Restart=on-failure" in unit
    here = unit.replace("/opt/loo-hub/venv", sys.prefix).replace("/srv/loo-lessons", str(REPO))
    (tmp_path / "loo-hub.service").write_text(here)
    r = subprocess.run(
        ["systemd-analyze", "verify", "--man=no", str(tmp_path / "loo-hub.service")],
        capture_output=True, text=True, timeout=60, cwd=tmp_path,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    # and a broken path is what verify catches
    (tmp_path / "loo-hub.service").write_text(unit.replace("/opt/loo-hub/venv", str(tmp_path / "none")))
    r = subprocess.run(
        ["systemd-analyze", "verify", "--man=no", str(tmp_path / "loo-hub.service")],
        capture_output=True, text=True, timeout=60, cwd=tmp_path,
    )
    assert r.returncode != 0 and "not executable" in r.stdout + r.stderr
