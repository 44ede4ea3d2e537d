"""A pupil's server, as the hub starts it (`python -m loo_lessons.classroom.pupil_server`): lay
out their copy of the lessons, then become JupyterHub's single-user server (same process, same
arguments).

Runs as the pupil (the hub's spawner has already switched to their Unix user), so everything in
their home is theirs and the hub never writes into it. Their home is made private (0700) again at
each start. The first start copies the lessons (~/loo-lessons/notebooks) from the installed
package (`classroom.lab_root`: never from the teacher's checkout, which may be private); later
starts keep the pupil's work, add any lesson a new release brought, and refresh the reference
pages beside it. The local
repositories the hub names for nbgitpuller are added to the pupil's own git config as safe (git
refuses another user's repository).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from loo_lessons.classroom.lab_root import lay_out


def trust(repos: list[str]) -> None:
    """Add each local repository to the pupil's git config as safe, once."""
    have = subprocess.run(
        ["git", "config", "--global", "--get-all", "safe.directory"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.split()
    for repo in repos:
        if repo not in have:
            subprocess.run(
                ["git", "config", "--global", "--add", "safe.directory", repo], check=False
            )


def main(argv: list[str]) -> None:
    """Lay out the pupil's lessons, trust the teacher's repositories, become the server."""
    home = Path.home()
    os.chmod(home, 0o700)
    lay_out(home / "loo-lessons", copy=True)
    # Local repositories the teacher publishes for nbgitpuller (LOO_HUB_GIT_REPOS) belong to
    # another user: git pulls from them only when the pupil's own git config trusts them.
    repos = [r for r in os.environ.get("LOO_HUB_GIT_REPOS", "").split(os.pathsep) if r]
    if repos:
        try:
            trust(repos)
        except OSError as e:  # no git: nbgitpuller will say so; the server still starts
            print(f"pupil-server: git: {e}", file=sys.stderr)
    os.chdir(home)
    os.execv(sys.executable, [sys.executable, "-m", "jupyterhub.singleuser", *argv])


if __name__ == "__main__":
    main(sys.argv[1:])
