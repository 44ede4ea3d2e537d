"""The tables' moves in SQLite: every accepted move one row, never replaced.

A table is its setup (JSON, as `referee.TableSetup.as_json` writes it), its seats' pupils
and its moves in order (deal, move number, seat, action key). That is all `referee.replay`
needs to rebuild it, every move checked again by the engine. Each batch (a pupil's move and
the bots' answers) is written in one transaction: a table is never stored half-moved.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from loo_lessons.classroom.database import Database

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    setup TEXT NOT NULL,
    opened REAL NOT NULL,
    closed REAL
);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL REFERENCES tables (id),
    seat INTEGER NOT NULL,
    pupil TEXT NOT NULL,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS moves (
    table_id TEXT NOT NULL REFERENCES tables (id),
    deal INTEGER NOT NULL,
    number INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    by_bot INTEGER NOT NULL,
    PRIMARY KEY (table_id, number)
);
"""


@dataclass(frozen=True, slots=True)
class MoveRow:
    """One stored move: its deal (1-based), its number at the table (0-based, across deals),
    the seat that made it, the action's key, and whether a bot made it."""

    deal: int
    number: int
    seat: int
    action: str
    by_bot: bool


class Store(Database):
    """The tables' database (one file; `:memory:` for a test)."""

    SCHEMA = _SCHEMA

    def open_table(self, table_id: str, setup: dict[str, Any]) -> None:
        """A new table and its setup."""
        with self.db:
            self.db.execute(
                "INSERT INTO tables (id, setup, opened) VALUES (?, ?, ?)",
                (table_id, json.dumps(setup, sort_keys=True), time.time()),
            )

    def close_table(self, table_id: str) -> None:
        """The table is stopped (it is not replayed when the service starts again)."""
        with self.db:
            self.db.execute("UPDATE tables SET closed = ? WHERE id = ?", (time.time(), table_id))

    def seat(self, table_id: str, seat: int, pupil: str) -> None:
        """`pupil` sits at `seat` (a seat is taken once)."""
        with self.db:
            self.db.execute(
                "INSERT INTO seats (table_id, seat, pupil) VALUES (?, ?, ?)", (table_id, seat, pupil)
            )

    def append(self, table_id: str, moves: Sequence[MoveRow]) -> None:
        """The moves, all or none (the primary key refuses a number stored twice)."""
        if not moves:
            return
        with self.db:
            self.db.executemany(
                "INSERT INTO moves (table_id, deal, number, seat, action, by_bot) VALUES (?,?,?,?,?,?)",
                [(table_id, m.deal, m.number, m.seat, m.action, int(m.by_bot)) for m in moves],
            )

    def setup(self, table_id: str) -> dict[str, Any]:
        """The table's setup as stored (KeyError: no such table)."""
        row = self.db.execute("SELECT setup FROM tables WHERE id = ?", (table_id,)).fetchone()
        if row is None:
            raise KeyError(table_id)
        found: dict[str, Any] = json.loads(row[0])
        return found

    def open_ids(self) -> list[str]:
        """The tables not closed, oldest first."""
        return [r[0] for r in self.db.execute("SELECT id FROM tables WHERE closed IS NULL ORDER BY opened")]

    def seats(self, table_id: str) -> dict[int, str]:
        """The table's pupils, seat by seat."""
        rows = self.db.execute("SELECT seat, pupil FROM seats WHERE table_id = ?", (table_id,))
        return {int(s): str(p) for s, p in rows}

    def moves(self, table_id: str) -> list[MoveRow]:
        """The table's moves in order."""
        rows = self.db.execute(
            "SELECT deal, number, seat, action, by_bot FROM moves WHERE table_id = ? ORDER BY number",
            (table_id,),
        )
        return [MoveRow(int(d), int(n), int(s), str(a), bool(b)) for d, n, s, a, b in rows]

    def count(self, table_id: str) -> int:
        """How many moves the table has stored."""
        (n,) = self.db.execute("SELECT COUNT(*) FROM moves WHERE table_id = ?", (table_id,)).fetchone()
        return int(n)
