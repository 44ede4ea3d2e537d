"""A backup of the class results database, taken while the hub runs (`loo-lessons class backup`).

SQLite's online backup copies a consistent snapshot page by page, even while pupils post
answers; a plain `cp` of a database being written can copy half a transaction. The copy is
private (0600: it holds every pupil's answers) and written whole (a temporary file, then renamed),
so a backup interrupted half-way never leaves a broken file under the backup's name.
"""

from __future__ import annotations

import os
import sqlite3
import tempfile
from pathlib import Path


class BackupError(ValueError):
    """A backup that cannot be taken, in one line naming the file and the problem."""


def backup(database: Path, to: Path) -> int:
    """Copy `database` (an SQLite file) to `to`; returns the number of tables copied."""
    if not database.is_file():
        raise BackupError(f"database: {database} is not a file")
    try:
        src = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    except sqlite3.Error as e:
        raise BackupError(f"database: {database}: {e}") from None
    folder = to.resolve().parent
    if not folder.is_dir():
        raise BackupError(f"to: the folder {folder} does not exist")
    fd, tmp = tempfile.mkstemp(prefix=".backup-", dir=folder)  # 0600, beside the target
    os.close(fd)
    try:
        with src:
            try:
                tables = src.execute("select count(*) from sqlite_master where type='table'").fetchone()[0]
            except sqlite3.DatabaseError as e:
                raise BackupError(f"database: {database} is not an SQLite database ({e})") from None
            dst = sqlite3.connect(tmp)
            try:
                src.backup(dst)
            finally:
                dst.close()
        os.replace(tmp, to)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    finally:
        src.close()
    return int(tables)
