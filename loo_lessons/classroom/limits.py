"""Each pupil's memory and CPU limit, enforced by a control group of their own.

JupyterHub's LocalProcessSpawner takes `mem_limit` and `cpu_limit` but leaves them unenforced;
The Littlest JupyterHub enforces them with systemd, which puts each server in a control group.
`PupilSpawner` does the same without systemd: before a pupil's server starts (in the child, while
it is still root), it joins the control group `loo-hub/<pupil>`, whose limits the hub has just
written; the pupil's kernels and terminals are its children and stay inside. Both kinds of
control-group file system are handled: version 1 (a `memory` and a `cpu` hierarchy, as on this
project's test machines) and version 2 (one unified hierarchy with the `memory` and `cpu`
controllers, as on current distributions under systemd). Where neither can be written (not root,
a container that hides them) the hub says so once in its log and pupils run without limits.
When a pupil's server stops (the culler, the hub's stop, the admin's button) its control group
goes with it (`remove`): a term of pupils leaves no folder behind.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jupyterhub.spawner import LocalProcessSpawner

ROOT = Path("/sys/fs/cgroup")
GROUP = "loo-hub"
#: CPU time is shared out in periods of this many microseconds (the kernel's default).
PERIOD_US = 100_000


@dataclass(frozen=True)
class Place:
    """Where a pupil's control group lives: `version` 1 or 2, and the folders (one per
    controller under version 1, one in all under version 2)."""

    version: int
    memory: Path
    cpu: Path

    def folders(self) -> tuple[Path, ...]:
        """The control-group folders the pupil's server joins."""
        return (self.memory,) if self.memory == self.cpu else (self.memory, self.cpu)


def place(name: str, root: Path = ROOT) -> Place | None:
    """The control group for pupil `name` under `root`, or None where no memory and cpu
    controllers can be used."""
    unified = root / "cgroup.controllers"
    if unified.exists():
        if {"memory", "cpu"} <= set(unified.read_text().split()):
            group = root / GROUP / name
            return Place(2, group, group)
        return None
    if (root / "memory").is_dir() and (root / "cpu").is_dir():
        return Place(1, root / "memory" / GROUP / name, root / "cpu" / GROUP / name)
    return None


def prepare(name: str, memory: int | None, cpu: float | None, root: Path = ROOT) -> Place:
    """Make pupil `name`'s control group with these limits (bytes; cores) and return it.
    Raises OSError where control groups cannot be written here."""
    where = place(name, root)
    if where is None:
        raise OSError(f"no memory and cpu control groups under {root}")
    if where.version == 2:
        # a version-2 group hands its controllers down only when asked, level by level
        for parent in (root, root / GROUP):
            parent.mkdir(exist_ok=True)
            (parent / "cgroup.subtree_control").write_text("+memory +cpu")
        where.memory.mkdir(exist_ok=True)
        (where.memory / "memory.max").write_text(str(memory) if memory else "max")
        (where.memory / "memory.swap.max").write_text("0" if memory else "max")
        quota = f"{round(cpu * PERIOD_US)} {PERIOD_US}" if cpu else f"max {PERIOD_US}"
        (where.cpu / "cpu.max").write_text(quota)
        return where
    for folder in where.folders():
        folder.mkdir(parents=True, exist_ok=True)
    # -1: no limit (what a new group starts with)
    (where.memory / "memory.limit_in_bytes").write_text(str(memory) if memory else "-1")
    (where.cpu / "cpu.cfs_period_us").write_text(str(PERIOD_US))
    (where.cpu / "cpu.cfs_quota_us").write_text(str(round(cpu * PERIOD_US)) if cpu else "-1")
    return where


def join(where: Place) -> None:
    """Move the calling process into `where` ("0" is the writer itself)."""
    for folder in where.folders():
        (folder / "cgroup.procs").write_text("0")


def remove(name: str, root: Path = ROOT, wait: float = 5.0) -> bool:
    """Remove pupil `name`'s control group (its server has stopped); whether none is left. A
    group still holding a process that is exiting is busy for a moment: tried again for up to
    `wait` seconds. A control group's files are the kernel's: the folder goes by `rmdir` alone."""
    where = place(name, root)
    if where is None:
        return True
    deadline = time.monotonic() + wait
    left = [f for f in where.folders() if f.is_dir()]
    while left:
        for folder in list(left):
            try:
                folder.rmdir()
            except FileNotFoundError:
                pass
            except OSError as e:
                if e.errno not in (errno.EBUSY, errno.ENOTEMPTY):
                    raise
                continue
            left.remove(folder)
        if left:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.1)
    return True


def limits_of(pid: int, root: Path = ROOT) -> dict[str, str]:
    """The memory and CPU limits in force for process `pid`, read back from its control groups
    (for the hub's tests and an admin's check): {"group": ..., "memory": bytes or "max",
    "cpu": "quota period"}."""
    out: dict[str, str] = {}
    for line in Path(f"/proc/{pid}/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        if controllers == "" and (root / "cgroup.controllers").exists():  # version 2
            folder = root / path.lstrip("/")
            out |= {
                "group": path,
                "memory": (folder / "memory.max").read_text().strip(),
                "cpu": (folder / "cpu.max").read_text().strip(),
            }
        elif "memory" in controllers.split(","):
            out["group"] = path
            out["memory"] = (
                (root / "memory" / path.lstrip("/") / "memory.limit_in_bytes").read_text().strip()
            )
        elif "cpu" in controllers.split(","):
            folder = root / "cpu" / path.lstrip("/")
            if (folder / "cpu.cfs_quota_us").exists():
                quota = (folder / "cpu.cfs_quota_us").read_text().strip()
                out["cpu"] = f"{quota} {(folder / 'cpu.cfs_period_us').read_text().strip()}"
    return out


class PupilSpawner(LocalProcessSpawner):  # type: ignore[misc]
    """LocalProcessSpawner whose servers run in the pupil's own control group, holding the
    spawner's `mem_limit` (bytes) and `cpu_limit` (cores)."""

    _warned = False

    async def start(self) -> Any:
        """Write the pupil's limits, then start the server inside them."""
        self._place: Place | None = None
        if self.mem_limit or self.cpu_limit:
            try:
                self._place = prepare(self.user.name, self.mem_limit, self.cpu_limit)
            except OSError as e:
                if not PupilSpawner._warned:
                    PupilSpawner._warned = True
                    self.log.warning("pupils' memory and CPU limits are not enforced: %s", e)
        return await super().start()

    async def stop(self, now: bool = False) -> None:
        """Stop the server, then remove the pupil's control group (it held only that server).

        The server is sent SIGTERM at once, never the SIGINT LocalProcessSpawner starts with: a
        server still starting (a pupil who just logged in when the hub is stopped) takes SIGINT
        as Python's KeyboardInterrupt and prints its traceback into the hub's log, and one that
        ignores it holds the hub's Ctrl-C for `interrupt_timeout`. SIGTERM stops a running
        server cleanly (its kernels shut down) and a starting one quietly. Its end is looked for
        every `death_interval`, not with the spawner's backoff, which noticed a server gone a
        second ago only seconds later (a Ctrl-C took 15 s)."""
        for sig, seconds in ((signal.SIGTERM, self.term_timeout), (signal.SIGKILL, self.kill_timeout)):
            if await self.poll() is not None:
                break
            await self._signal(sig)
            deadline = time.monotonic() + seconds
            while await self.poll() is None and time.monotonic() < deadline:
                await asyncio.sleep(self.death_interval)
        else:
            if await self.poll() is None:
                self.log.warning("%s's server (process %s) never ended", self.user.name, self.pid)
        if self.mem_limit or self.cpu_limit:
            with contextlib.suppress(OSError):  # not written here (no limits): nothing to remove
                if not await asyncio.to_thread(remove, self.user.name):
                    self.log.warning("%s's control group is still busy: not removed", self.user.name)

    def make_preexec_fn(self, name: str) -> Callable[[], None]:
        """In the child, still root: join the pupil's control group, then become the pupil."""
        become = super().make_preexec_fn(name)
        where = getattr(self, "_place", None)

        def preexec() -> None:
            if where is not None:
                join(where)
            become()

        return preexec
