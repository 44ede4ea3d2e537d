"""Where the chunks of a simulation are played: here, in a pool of local processes, or on a Dask
cluster. Every backend yields the chunks' results in chunk order, so `simulate` merges the same
tallies in the same order whatever runs them, and its tables are identical.

A worker that dies never hangs a run. The local pool (`concurrent.futures`) notices a process
that vanished and the run ends with `WorkerLost`: one sentence, the hands finished so far kept.
A Dask cluster retries the chunk of a lost worker on another (the scheduler's own rule); if the
cluster has no worker at all for `NO_WORKER_GRACE` seconds, or a chunk keeps killing workers,
the run ends with `WorkerLost` too.

Dask is optional (`pip install 'loo-lessons[cluster]'`); it is imported only when asked for.
"""

from __future__ import annotations

import logging
import os
import re
import signal
import sys
import threading
from collections import deque
from collections.abc import Callable, Generator, Iterator, Sequence
from contextlib import contextmanager, suppress
from typing import TYPE_CHECKING, Any, TypeVar

from loo_lessons.engine.errors import LooError

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor

J = TypeVar("J")
R = TypeVar("R")

#: What to install for `--dask`.
CLUSTER_EXTRA = "pip install 'loo-lessons[cluster]'"
#: Seconds a Dask run waits with no worker in the cluster before it gives up.
NO_WORKER_GRACE = 60.0
#: How long a Dask run waits for a chunk in one step (seconds): a lost cluster, or a Ctrl-C,
#: is noticed within a step.
WAIT_STEP = 0.5
#: `local:N`: a local Dask cluster of N worker processes.
_LOCAL = re.compile(r"local:(\d{1,3})")
MAX_LOCAL_WORKERS = 64


class WorkerLost(LooError):
    """A worker died and its chunk could not be played: the run stops (`done` chunks kept)."""

    def __init__(self, message: str, done: int = 0) -> None:
        super().__init__(message)
        self.done = done


def available_cores() -> int:
    """The cores this process may run on (its affinity, not the machine's count)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def _ignore_sigint() -> None:
    """Workers leave Ctrl-C to the parent, which stops them and keeps what is finished."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def in_order(
    play: Callable[[J], R], jobs: Sequence[J], workers: int = 1, dask: str | None = None
) -> Generator[R, None, None]:
    """`play(job)` for each job, yielded in the jobs' order: here (`workers` 1), in `workers`
    local processes, or on the Dask cluster at `dask` (an address, or `local:N`)."""
    if dask is not None:
        return _on_dask(play, jobs, dask)
    if workers > 1 and len(jobs) > 1:
        return _in_processes(play, jobs, min(workers, len(jobs)))
    return (play(job) for job in jobs)


def _in_processes(
    play: Callable[[J], R], jobs: Sequence[J], workers: int
) -> Generator[R, None, None]:
    # imported here: the page's Python (Pyodide) has no processes and plays every chunk itself
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    ctx = multiprocessing.get_context("fork" if sys.platform == "linux" else "spawn")
    pool = ProcessPoolExecutor(workers, mp_context=ctx, initializer=_ignore_sigint)
    window: deque[Future[R]] = deque()
    todo = iter(jobs)
    done = 0
    try:
        # a few chunks ahead of the one awaited: the pool stays busy, memory stays bounded
        for job in todo:
            window.append(pool.submit(play, job))
            if len(window) >= 2 * workers:
                break
        while window:
            try:
                part = window.popleft().result()
            except BrokenProcessPool:
                raise WorkerLost(
                    f"simulate: a worker process died during the run; {done} chunks were "
                    "finished; the run is stopped",
                    done,
                ) from None
            done += 1
            for job in todo:
                window.append(pool.submit(play, job))
                break
            yield part
    finally:
        _stop(pool)


def _stop(pool: ProcessPoolExecutor) -> None:
    """Stop the pool now: cancel what is queued and end the processes still playing."""
    # the processes, taken before shutdown() drops the pool's list of them (a pool shut down
    # without waiting leaves a busy worker playing its chunk to the end)
    procs: dict[int, Any] = dict(getattr(pool, "_processes", None) or {})
    pool.shutdown(wait=False, cancel_futures=True)
    for p in list(procs.values()):
        if p.is_alive():
            p.terminate()
    for p in list(procs.values()):
        p.join(5)


def check_address(text: str) -> str:
    """`--dask`: `local:N` (N from 1 to MAX_LOCAL_WORKERS) or a scheduler's address."""
    s = text.strip()
    m = _LOCAL.fullmatch(s)
    if m is not None:
        n = int(m.group(1))
        if not 1 <= n <= MAX_LOCAL_WORKERS:
            raise LooError(f"--dask: local:{n} is out of range: 1 to {MAX_LOCAL_WORKERS} workers")
        return s
    if s.startswith("local"):
        raise LooError(f"--dask: expected local:N (N workers), got {s[:40]!r}")
    if not s or len(s) > 200 or any(ch.isspace() for ch in s):
        raise LooError("--dask: expected a scheduler address (tcp://host:port) or local:N")
    _check_scheduler(s)
    return s


#: A host name: letters, digits, dots and hyphens (what a scheduler's address may name).
_HOST = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252})")


def _check_scheduler(address: str) -> None:
    """A scheduler's address as `distributed` would take it, checked here so that a wrong one
    is one line naming `--dask` (not Dask's own error, nor a 30-second wait for a port that
    cannot exist): `[tcp://]host:port`, the host a name, an IPv4 address or an IPv6 address in
    brackets, the port 1 to 65535. `tls://` is refused: it needs certificates the command line
    cannot give."""
    import ipaddress

    scheme, sep, rest = address.partition("://")
    if not sep:
        scheme, rest = "tcp", address
    if scheme == "tls":
        raise LooError(
            "--dask: tls:// needs certificates the command line cannot give; use tcp:// "
            "(through an SSH tunnel for a scheduler on another network)"
        )
    if scheme != "tcp":
        raise LooError(f"--dask: {scheme[:20]!r} is not a scheduler protocol here: use tcp://host:port")
    host, colon, port = rest.rpartition(":")
    if not colon or not host:
        raise LooError(f"--dask: {address[:60]!r} has no port: expected tcp://host:port")
    if not port.isascii() or not port.isdigit() or not 1 <= int(port[:6]) <= 65535:
        raise LooError(f"--dask: port {port[:20]!r} is not a number from 1 to 65535")
    if host.startswith("["):
        try:
            if not host.endswith("]"):
                raise ValueError(host)
            ipaddress.IPv6Address(host[1:-1])
        except ValueError:
            raise LooError(
                f"--dask: {host[:60]!r} is not an IPv6 address in brackets, like [::1]"
            ) from None
    elif _HOST.fullmatch(host) is None:
        raise LooError(
            f"--dask: {host[:60]!r} is not a host name or address (an IPv6 address goes in "
            "brackets, like [::1]:8786)"
        )


@contextmanager
def _sigint_ignored_by_children() -> Iterator[None]:
    """Processes started inside ignore Ctrl-C for good: a terminal's Ctrl-C reaches the whole
    process group, and a local Dask worker that took it would print its traceback before the
    partial tables. An ignored signal stays ignored across fork and exec, and neither Python
    nor asyncio installs its handler over it. This process's own handler is back on leaving,
    so its Ctrl-C still stops the run (`simulate`'s `Interrupted`). Only the main thread may
    set a handler; elsewhere (a run in a thread) nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


#: Dask settings for `local:N`, passed by each nanny to its worker process. A worker plays one
#: long chunk at a time in its one thread; Dask's statistical profiler (a look at that thread's
#: stack every 10 ms) and its event loop's tick (every 20 ms) would take the GIL from it only
#: to watch it work. A scheduler given by address keeps its cluster's own settings.
LOCAL_CLUSTER_CONFIG: dict[str, object] = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
}


def dask_module() -> Any:
    """`distributed`, or one LooError saying how to install it."""
    try:
        import distributed
    except ImportError:
        raise LooError(f"--dask: Dask is not installed; {CLUSTER_EXTRA}") from None
    return distributed


def _on_dask(play: Callable[[J], R], jobs: Sequence[J], address: str) -> Generator[R, None, None]:
    distributed = dask_module()
    address = check_address(address)
    m = _LOCAL.fullmatch(address)
    cluster = None
    if m is not None:
        import dask

        with _sigint_ignored_by_children(), dask.config.set(LOCAL_CLUSTER_CONFIG):
            cluster = distributed.LocalCluster(
                n_workers=int(m.group(1)),
                threads_per_worker=1,
                processes=True,
                dashboard_address=None,
                silence_logs=logging.ERROR,
            )
        client = distributed.Client(cluster)
    else:
        try:
            client = distributed.Client(address, timeout=30)
        except OSError as e:
            raise LooError(f"--dask: cannot reach the scheduler at {address}: {e}") from None
    with _ctrl_c_noted() as stop:
        try:
            yield from _dask_in_order(distributed, client, play, jobs, stop)
        finally:
            client.close()
            if cluster is not None:
                cluster.close()


@contextmanager
def _ctrl_c_noted() -> Iterator[threading.Event]:
    """Ctrl-C during a Dask run is noted, and the run stops at its next safe point (within a
    wait step, `_dask_in_order`) with `KeyboardInterrupt`. Raised wherever the main thread
    happened to be, it could land in one of `distributed`'s finalizers, which swallow it (the
    run then went on to the end), or in its `sync`, which logs an error of its own while
    cancelling (a NameError's traceback above the partial tables). Only the main thread may
    set a handler; elsewhere (a run in a thread) the event is never set."""
    stop = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        yield stop
        return
    previous = signal.signal(signal.SIGINT, lambda signum, frame: stop.set())
    try:
        yield stop
    finally:
        signal.signal(signal.SIGINT, previous)


def _working(client: Any) -> int:
    """How many of the cluster's workers can take a chunk: a worker being retired
    ("closing_gracefully") stays listed, maybe for good if its data cannot move, and a run
    that counted it would wait for it forever."""
    workers = client.scheduler_info().get("workers", {})
    return sum(1 for w in workers.values() if w.get("status", "running") in ("running", "paused"))


def _dask_in_order(
    distributed: Any,
    client: Any,
    play: Callable[[J], R],
    jobs: Sequence[J],
    stop: threading.Event | None = None,
) -> Generator[R, None, None]:
    import time

    workers = max(1, _working(client))
    window: deque[Any] = deque()
    todo = iter(jobs)
    done = 0
    for job in todo:
        window.append(client.submit(play, job, pure=False))
        if len(window) >= 2 * workers:
            break
    try:
        while window:
            head = window[0]
            alone_since: float | None = None
            while True:
                # wait in short steps, so a cluster left with no worker is noticed
                with suppress(TimeoutError):
                    distributed.wait(head, timeout=WAIT_STEP)
                if stop is not None and stop.is_set():
                    raise KeyboardInterrupt
                if head.done():
                    try:
                        # in short steps too: a finished chunk's tally lives on its worker,
                        # and one that is being retired may never hand it over
                        part = head.result(timeout=WAIT_STEP)
                        break
                    except TimeoutError:
                        pass
                    except distributed.KilledWorker:
                        raise WorkerLost(
                            f"simulate: a chunk killed Dask workers again and again; {done} "
                            "chunks were finished; the run is stopped",
                            done,
                        ) from None
                if _working(client):
                    alone_since = None
                elif alone_since is None:
                    alone_since = time.monotonic()
                elif time.monotonic() - alone_since > NO_WORKER_GRACE:
                    raise WorkerLost(
                        f"simulate: the Dask cluster has had no worker for "
                        f"{NO_WORKER_GRACE:.0f} s; {done} chunks were finished; the run is "
                        "stopped",
                        done,
                    )
            window.popleft()
            done += 1
            for job in todo:
                window.append(client.submit(play, job, pure=False))
                break
            if stop is not None and stop.is_set():  # noted while the consumer worked
                raise KeyboardInterrupt
            yield part
    finally:
        for f in window:
            f.cancel()
