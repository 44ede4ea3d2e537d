"""A pupil's server, as the hub starts it: lay out their copy of the lessons, then become
JupyterHub's single-user server (same process, same arguments).

Runs as the pupil (the hub's LocalProcessSpawner has already switched to their Unix user),
so everything in their home is theirs and the hub never writes into it. Their home is made
private (0700) again at each start. The first start copies the lessons
(~/loo-lessons/notebooks); later starts keep the pupil's work and only refresh the reference
pages beside it (tools/lab_root.py). The local repositories the hub names for nbgitpuller are
added to the pupil's own git config as safe (git refuses another user's repository).
"""

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(REPO))
from tools.lab_root import lay_out  # noqa: E402

home = Path.home()
os.chmod(home, 0o700)
lay_out(home / "loo-lessons", copy=True)
# Local repositories the teacher publishes for nbgitpuller (LOO_HUB_GIT_REPOS) belong to
# another user: git pulls from them only when the pupil's own git config trusts them.
repos = [r for r in os.environ.get("LOO_HUB_GIT_REPOS", "").split(os.pathsep) if r]


def trust(repos: list[str]) -> None:
    have = subprocess.run(
        ["git", "config", "--global", "--get-all", "safe.directory"],
        capture_output=True,
        text=True,
    ).stdout.split()
    for repo in repos:
        if repo not in have:
            subprocess.run(["git", "config", "--global", "--add", "safe.directory", repo])


if repos:
    try:
        trust(repos)
    except OSError as e:  # no git: nbgitpuller will say so; the server still starts
        print(f"pupil-server: git: {e}", file=sys.stderr)
os.chdir(home)
os.execv(sys.executable, [sys.executable, "-m", "jupyterhub.singleuser", *sys.argv[1:]])
