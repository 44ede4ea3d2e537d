"""The record in a file of the learner's own folder (JupyterLab and the terminal).

`~/loo-progress.json` unless the path is given or `LOO_PROGRESS` names another. Reading is
bounded (`regular_file.read_regular`: a regular file of at most `record.MAX_BYTES`); a missing
file is an empty record; a damaged one is refused in one line and never overwritten. Writing
goes to a temporary file beside it, then replaces it, so a crash leaves the old record whole.
Saving merges with what the file holds now (another tab, a record loaded from the book), so
nothing either wrote is lost.
"""

from __future__ import annotations

import os
import tempfile
from datetime import datetime
from pathlib import Path

from loo_lessons.engine.errors import InputError
from loo_lessons.progress.document import dumps
from loo_lessons.progress.record import MAX_BYTES, Answer, Record, loads
from loo_lessons.regular_file import NotAFile, read_regular

#: The file's name in the learner's home folder.
FILE_NAME = "loo-progress.json"
#: The environment variable that names another file.
ENV = "LOO_PROGRESS"


def default_path() -> Path:
    """Where the record lives: `$LOO_PROGRESS`, else `~/loo-progress.json`."""
    named = os.environ.get(ENV)
    return Path(named).expanduser() if named else Path.home() / FILE_NAME


def load(path: str | os.PathLike[str] | None = None) -> Record:
    """The record in `path` (the default when None); an empty one if there is no file yet."""
    p = Path(path) if path is not None else default_path()
    if not os.path.lexists(p):
        return Record()
    try:
        data = read_regular(p, MAX_BYTES, p.name, f"{MAX_BYTES // 1_000_000} MB")
    except NotAFile as e:
        raise InputError("progress file", str(e)) from None
    try:
        return loads(data)
    except InputError as e:
        raise InputError(f"{p.name}: {e.field}", e.problem) from None


def save(record: Record, path: str | os.PathLike[str] | None = None, now: datetime | None = None) -> Record:
    """Write `record`, merged with what the file holds now, and return what was written."""
    p = Path(path) if path is not None else default_path()
    merged = load(p).merge(record)
    p.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".loo-progress-", suffix=".json", dir=p.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(dumps(merged, now))
        os.replace(tmp, p)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return merged


def record(answer: Answer, path: str | os.PathLike[str] | None = None) -> Record:
    """Keep one graded answer in the learner's record (a task's decision, a pick, an evening's
    decision: make it with `record.answer(...)`); the record as written."""
    return save(Record.of([answer]), path)


def merge_file(source: str | os.PathLike[str], path: str | os.PathLike[str] | None = None) -> tuple[int, int]:
    """Add the progress file `source` (downloaded from the book, or another JupyterLab's) to
    the record in `path`: (answers added, answers in all). A damaged `source` is refused in one
    line, and the record is left as it was."""
    src = Path(source)
    try:
        data = read_regular(src, MAX_BYTES, src.name, f"{MAX_BYTES // 1_000_000} MB")
    except NotAFile as e:
        raise InputError("progress file", str(e)) from None
    try:
        loaded = loads(data)
    except InputError as e:
        raise InputError(f"{src.name}: {e.field}", e.problem) from None
    before = len(load(path).answers)
    merged = save(loaded, path)
    return len(merged.answers) - before, len(merged.answers)


__all__ = ["ENV", "FILE_NAME", "default_path", "load", "merge_file", "record", "save"]
