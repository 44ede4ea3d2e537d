"""Reading a regular file, bounded: the standard library only, so that the scenario reader
(`scenario.read`) and a bare install's class list (`classroom.pupils`) share it.

The file is opened without waiting (`O_NONBLOCK`: opening a FIFO for reading would otherwise
wait for a writer for ever) and looked at through the open descriptor, so a pipe, a device,
a socket or a directory is refused at once, even one put in the file's place after a look
at its name; no more than `limit` bytes are read, whatever the file claims."""

from __future__ import annotations

import os
import stat


class NotAFile(ValueError):
    """What `read_regular` refuses: `str(e)` is one line naming the file (as shown)."""


def read_regular(path: str | os.PathLike[str], limit: int, shown: str, limit_words: str) -> bytes:
    """At most `limit` bytes of the regular file `path`, or `NotAFile`; `shown` is the
    path as a refusal names it, `limit_words` the limit as it says it ("1 MB")."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as e:
        raise NotAFile(f"cannot read {shown}: {e.strerror}") from None
    except ValueError:  # a NUL in the path
        raise NotAFile(f"cannot read {shown}: not a valid path") from None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        what = "a directory" if stat.S_ISDIR(info.st_mode) else "a device, pipe or socket"
        raise NotAFile(f"{shown} is {what}, not a file")
    with os.fdopen(fd, "rb") as f:
        if info.st_size > limit:
            raise NotAFile(f"{shown} is larger than the limit of {limit_words} ({info.st_size:,} bytes)")
        try:
            data = f.read(limit + 1)
        except OSError as e:
            raise NotAFile(f"cannot read {shown}: {e.strerror}") from None
    if len(data) > limit:
        raise NotAFile(f"{shown} is larger than the limit of {limit_words}")
    return data


__all__ = ["NotAFile", "read_regular"]
