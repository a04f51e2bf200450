"""The table's SQLite file: every room's snapshot and every finished game's record.

One file (``<data>/cardtable.sqlite3``) in WAL mode.  A room's snapshot (seats, tokens,
names, levels, the game's seed, position JSON and random generator state) and the move
that led to it (the move history is one row per move) are written in one transaction
after every change, so a server killed at any moment restarts
from the last move it answered.  A finished game's record is written in the same
transaction as the snapshot that ends the game.

A damaged file is never used quietly: :class:`Store` checks the file when it opens it
(``PRAGMA quick_check``) and raises :class:`StorageError` naming the file and what is
wrong, and the server refuses to start (``docs/table.md``, "When the file is damaged").  A
row that cannot be read is the server's to skip, loudly (:meth:`Store.rooms` hands out the
raw rows).
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

log = logging.getLogger("cardtable")

#: how often the WAL is folded into the database file
CHECKPOINT_SECONDS = 0.5
#: the WAL's size past which the writer empties it after its next commit (a few
#: milliseconds: what is left to copy after the background checkpoints, and an fsync)
WAL_LIMIT = 4 * 2**20
#: how long the writer waits for a background checkpoint to let it empty the WAL (ms)
TRUNCATE_WAIT_MS = 50

SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (
    id TEXT PRIMARY KEY,
    data TEXT NOT NULL,
    updated REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS moves (
    room TEXT NOT NULL,
    game INTEGER NOT NULL,
    step INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action INTEGER NOT NULL,
    text TEXT NOT NULL,
    label TEXT NOT NULL,
    PRIMARY KEY (room, game, step)
);
CREATE TABLE IF NOT EXISTS games (
    room TEXT NOT NULL,
    idx INTEGER NOT NULL,
    record TEXT NOT NULL,
    finished REAL NOT NULL,
    PRIMARY KEY (room, idx)
);
CREATE TABLE IF NOT EXISTS expired (
    id TEXT PRIMARY KEY,
    at REAL NOT NULL,
    games INTEGER NOT NULL
);
"""


class StorageError(RuntimeError):
    """The data file cannot be used (damaged, or not a database); the message names it."""


def recovery_hint(path: Path) -> str:
    """What an operator can do with a damaged file."""
    return (f"Nothing was changed. Stop here, keep a copy of {path.name}, then either move it "
            f"aside (the table starts empty) or recover what can be read: "
            f"sqlite3 {path} .recover | sqlite3 recovered.sqlite3, and put that in its place")


class Store:
    """The SQLite file of one server (used from the event loop's thread only).

    ``StorageError`` when the file is damaged or is no database."""

    def __init__(self, data_dir: str | Path) -> None:
        self.dir = Path(data_dir)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.path = self.dir / "cardtable.sqlite3"
        self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")  # with WAL: a killed process loses nothing
            problems = [row[0] for row in self.db.execute("PRAGMA quick_check(20)")]
            if problems != ["ok"]:
                raise StorageError(f"the data file {self.path} is damaged (SQLite's quick_check: "
                                   f"{'; '.join(problems[:5])}). {recovery_hint(self.path)}")
            self.db.executescript(SCHEMA)
            # checkpoints run on a thread of their own (below), not after a commit on the event
            # loop; when the WAL is reset, the file is cut back to this size
            self.db.execute("PRAGMA wal_autocheckpoint=0")
            self.db.execute(f"PRAGMA journal_size_limit={WAL_LIMIT}")
        except sqlite3.DatabaseError as err:
            self.db.close()
            raise StorageError(f"the data file {self.path} cannot be read ({err}). "
                               f"{recovery_hint(self.path)}") from None
        except StorageError:
            self.db.close()
            raise
        self.wal = self.path.with_name(self.path.name + "-wal")
        #: the writer's last try to empty the WAL found a background checkpoint at work
        self._truncate_busy = False
        self._stop = threading.Event()
        self._checkpointer = threading.Thread(target=self._checkpoint_loop, name="cardtable-checkpoint",
                                              daemon=True)
        self._checkpointer.start()

    def _checkpoint_loop(self) -> None:
        """Every :data:`CHECKPOINT_SECONDS`, copy the WAL's pages into the database file (and
        sync it) without waiting for, or blocking, the writer (a PASSIVE checkpoint), so
        that little is left to copy when the writer empties the WAL (:meth:`_truncate`)."""
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            while not self._stop.wait(CHECKPOINT_SECONDS):
                try:
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                except sqlite3.Error as err:  # busy or failing: next time; say so
                    log.warning("checkpoint of %s failed: %s", self.path, err)
        finally:
            db.close()

    def _truncate(self) -> None:
        """After a commit: empty the WAL when it is over :data:`WAL_LIMIT`.

        The background PASSIVE checkpoints alone never empty it under sustained writes: the
        writer appends while they copy, so the WAL is never wholly copied at the moment a
        write begins, which is when SQLite would start it over (measured: 0 -> 506 MB in
        30 s of 100 unpaced rooms).  A TRUNCATE checkpoint from the background thread would
        starve (it polls for the write lock, which a busy writer takes back at once).  So
        the writer does it, between its own transactions: it copies what the PASSIVE left,
        syncs the file and cuts the WAL to nothing (10-20 ms measured here, once per
        :data:`WAL_LIMIT` written).  While a background checkpoint holds the file it waits
        at most :data:`TRUNCATE_WAIT_MS`, then tries again after each commit without waiting
        (a refused try costs microseconds) until the checkpoint is done.
        """
        try:
            if self.wal.stat().st_size <= WAL_LIMIT:
                return
        except OSError:
            return
        busy = 1
        try:
            self.db.execute(f"PRAGMA busy_timeout={0 if self._truncate_busy else TRUNCATE_WAIT_MS}")
            busy = int(self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()[0][0])
        except sqlite3.Error as err:
            log.warning("emptying the WAL of %s failed: %s", self.path, err)
        finally:
            self.db.execute("PRAGMA busy_timeout=5000")
        self._truncate_busy = bool(busy)

    def save_room(self, room_id: str, data: dict[str, Any], move: dict[str, Any] | None = None,
                  record: dict[str, Any] | None = None, prune_moves_before: int | None = None) -> None:
        """Write a room's snapshot, the move that led to it (``{"game", "step", "seat",
        "action", "text", "label"}``, ``step`` counted from 1) and, when a game just ended,
        its record, in one transaction.  ``prune_moves_before``: delete the room's moves of
        the games before this one (a new game was dealt; the finished games' records hold
        their moves), so the file keeps one game's moves per room."""
        text = json.dumps(data, separators=(",", ":"))
        now = time.time()
        if self.db.in_transaction:  # a failed write whose ROLLBACK failed too
            self.db.rollback()
        self.db.execute("BEGIN")
        try:
            self.db.execute(
                "INSERT INTO rooms (id, data, updated) VALUES (?, ?, ?) "
                "ON CONFLICT(id) DO UPDATE SET data = excluded.data, updated = excluded.updated",
                (room_id, text, now),
            )
            if move is not None:
                self.db.execute(
                    "INSERT OR REPLACE INTO moves (room, game, step, seat, action, text, label) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (room_id, move["game"], move["step"], move["seat"], move["action"], move["text"],
                     move["label"]),
                )
            if record is not None:
                self.db.execute(
                    "INSERT OR REPLACE INTO games (room, idx, record, finished) VALUES (?, ?, ?, ?)",
                    (room_id, int(record["index"]), json.dumps(record, separators=(",", ":")), now),
                )
            if prune_moves_before is not None:
                self.db.execute("DELETE FROM moves WHERE room = ? AND game < ?",
                                (room_id, prune_moves_before))
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self._truncate()

    def rooms(self) -> list[tuple[str, str, float]]:
        """Every saved room as its row: ``(id, snapshot JSON text, time of its last write)``
        (parsing is the caller's, so that one bad row stops nothing)."""
        return [(str(i), str(t), float(u)) for i, t, u in
                self.db.execute("SELECT id, data, updated FROM rooms ORDER BY updated")]

    def expire_room(self, room_id: str, games: int) -> None:
        """Forget a room: its row and its moves go, its finished games' records stay, and a
        note that it expired (when, with how many finished games) answers its link."""
        if self.db.in_transaction:
            self.db.rollback()
        self.db.execute("BEGIN")
        try:
            self.db.execute("DELETE FROM rooms WHERE id = ?", (room_id,))
            self.db.execute("DELETE FROM moves WHERE room = ?", (room_id,))
            self.db.execute("INSERT OR REPLACE INTO expired (id, at, games) VALUES (?, ?, ?)",
                            (room_id, time.time(), games))
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise

    def expired(self, room_id: str) -> tuple[float, int] | None:
        """``(when, finished games)`` of a room that expired, or ``None``."""
        row = self.db.execute("SELECT at, games FROM expired WHERE id = ?", (room_id,)).fetchone()
        return None if row is None else (float(row[0]), int(row[1]))

    def moves(self, room_id: str, game: int) -> list[dict[str, Any]]:
        """The moves of one game of a room, in order (``{"step", "seat", "action", "text", "label"}``)."""
        rows = self.db.execute(
            "SELECT step, seat, action, text, label FROM moves WHERE room = ? AND game = ? ORDER BY step",
            (room_id, game))
        return [{"step": st, "seat": se, "action": a, "text": t, "label": lb} for st, se, a, t, lb in rows]

    def games(self, room_id: str) -> list[dict[str, Any]]:
        """A room's finished games' records, oldest first."""
        rows = self.db.execute("SELECT record FROM games WHERE room = ? ORDER BY idx", (room_id,))
        return [json.loads(t) for (t,) in rows]

    def game(self, room_id: str, index: int) -> dict[str, Any] | None:
        """One finished game's record, or ``None``."""
        row = self.db.execute("SELECT record FROM games WHERE room = ? AND idx = ?",
                              (room_id, index)).fetchone()
        return None if row is None else json.loads(row[0])

    def export(self, batch: int = 500) -> Iterator[tuple[str, str]]:
        """Every finished game's record as ``(room id, record JSON text)``, oldest first.

        Read ``batch`` rows at a time, each batch a statement of its own: no read stays
        open on the connection while the caller (a streamed answer) lets writes run."""
        last = 0
        while True:
            rows = self.db.execute("SELECT rowid, room, record FROM games WHERE rowid > ? ORDER BY rowid "
                                   "LIMIT ?", (last, batch)).fetchall()
            if not rows:
                return
            for _, room, text in rows:
                yield str(room), str(text)
            last = int(rows[-1][0])

    def close(self) -> None:
        """Stop the checkpoints, fold the WAL into the file and close it."""
        self._stop.set()
        self._checkpointer.join()
        self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self.db.close()
