"""The tables' moves in SQLite: every accepted move one row, never replaced.

A table is its setup (JSON, as `referee.TableSetup.as_json` writes it), its seats' pupils
and its moves in order (deal, move number, seat, action key). That is all `referee.replay`
needs to rebuild it, every move checked again by the engine. Each batch (a pupil's move and
the bots' answers) is written in one transaction: a table is never stored half-moved.
Beside them: which pupils are away (their seat's bot plays), and, when the service stops,
each pupil's recent requests (the flood check's window), so a restart forgets neither.
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
CREATE TABLE IF NOT EXISTS started (
    table_id TEXT PRIMARY KEY REFERENCES tables (id),
    at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS away (
    table_id TEXT NOT NULL REFERENCES tables (id),
    seat INTEGER NOT NULL,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS requests (
    pupil TEXT NOT NULL,
    at REAL NOT NULL
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
        """The table is over, stopped or its deals played (a restart lists it among the last
        closed, `listed_ids`, no longer among the open)."""
        with self.db:
            self.db.execute("UPDATE tables SET closed = ? WHERE id = ?", (time.time(), table_id))

    def start_table(self, table_id: str) -> None:
        """The teacher started a table that waited for its pupils."""
        with self.db:
            self.db.execute("INSERT INTO started (table_id, at) VALUES (?, ?)", (table_id, time.time()))

    def started(self, table_id: str) -> bool:
        """Was the table started by its teacher (a table that waited for its pupils)?"""
        return self.db.execute("SELECT 1 FROM started WHERE table_id = ?", (table_id,)).fetchone() is not None

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

    def listed_ids(self, stopped: int) -> list[str]:
        """The tables a restarted service lists, oldest first: every one not closed, and the
        `stopped` closed most recently (the teacher still reads how they ended)."""
        rows = self.db.execute(
            "SELECT id FROM tables WHERE closed IS NULL OR id IN"
            " (SELECT id FROM tables WHERE closed IS NOT NULL ORDER BY closed DESC LIMIT ?) ORDER BY opened",
            (stopped,),
        )
        return [r[0] for r in rows]

    def closed(self, table_id: str) -> bool:
        """Was the table stopped by its teacher?"""
        row = self.db.execute("SELECT closed FROM tables WHERE id = ?", (table_id,)).fetchone()
        return row is not None and row[0] is not None

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

    def set_away(self, table_id: str, seat: int, away: bool) -> None:
        """The pupil at `seat` is away (their seat's bot plays), or back."""
        with self.db:
            if away:
                self.db.execute("INSERT OR IGNORE INTO away (table_id, seat) VALUES (?, ?)", (table_id, seat))
            else:
                self.db.execute("DELETE FROM away WHERE table_id = ? AND seat = ?", (table_id, seat))

    def away(self, table_id: str) -> set[int]:
        """The seats of the table whose pupils are away."""
        return {int(s) for (s,) in self.db.execute("SELECT seat FROM away WHERE table_id = ?", (table_id,))}

    def keep_requests(self, times: dict[str, list[float]]) -> None:
        """Each pupil's recent requests (wall-clock times), in place of those kept before."""
        with self.db:
            self.db.execute("DELETE FROM requests")
            self.db.executemany(
                "INSERT INTO requests (pupil, at) VALUES (?, ?)", [(p, t) for p, ts in times.items() for t in ts]
            )

    def requests(self) -> dict[str, list[float]]:
        """The requests kept by `keep_requests`, oldest first."""
        found: dict[str, list[float]] = {}
        for pupil, at in self.db.execute("SELECT pupil, at FROM requests ORDER BY at"):
            found.setdefault(str(pupil), []).append(float(at))
        return found
