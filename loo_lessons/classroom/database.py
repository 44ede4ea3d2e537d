"""The SQLite file a hub service keeps (the answers', `store`; the tables', `tables.store`),
opened with its schema: written once for both."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import ClassVar


class Database:
    """An SQLite file (`:memory:` for a test) holding the tables `SCHEMA` makes where they are
    not there yet."""

    SCHEMA: ClassVar[str] = ""

    def __init__(self, path: Path | str) -> None:
        self.db = sqlite3.connect(str(path))
        self.db.executescript(self.SCHEMA)

    def close(self) -> None:
        """Close the database."""
        self.db.close()
