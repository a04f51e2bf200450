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
missing or empty file in a folder that held a table is refused the same way unless the
operator asks for a new table (``new``, ``--new``): a table deleted or cut to nothing never
restarts empty without anyone noticing.  A row that cannot be read is the server's to skip,
loudly (:meth:`Store.rooms` hands out the raw rows); a finished game's record that cannot be
read is :class:`DamagedRecord` (logged with its row), and the room's other games still work.

A write that fails (a full disk, an I/O error) leaves the file as it was before it, and
raises the write's own error (:func:`storage_cause` puts it in words): when SQLite has
already rolled the transaction back by itself, as it does on a full disk, the rollback that
follows is skipped rather than failing in its place.
"""

from __future__ import annotations

import errno
import json
import logging
import sqlite3
import threading
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import cast

from .types import JsonDict, MoveRow, Record

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


#: the file beside the database that says this folder holds a table (written when the
#: database is first made): with it, a missing database is a lost table, not a first start
MARK = "cardtable.table"


class StorageError(RuntimeError):
    """The data file cannot be used (damaged, not a database, missing or empty where a table
    was); the message names it."""


class DamagedRecord(ValueError):
    """A finished game's record in the file cannot be read (its row is logged)."""

    def __init__(self, room: str, index: int, why: str) -> None:
        super().__init__(f"game {index} of room {room} is damaged in the table's file and cannot be "
                         f"shown ({why}); the room's other games are not affected, and the "
                         "operator's log names the row")
        self.room, self.index, self.why = room, index, why


def recovery_hint(path: Path) -> str:
    """What an operator can do with a damaged file."""
    return (f"Nothing was changed. Stop here, keep a copy of {path.name}, then either move it "
            f"aside and start with --new (an empty table) or recover what can be read: "
            f"sqlite3 {path} .recover | sqlite3 recovered.sqlite3, and put that in its place")


#: SQLite's primary result codes (the module's own names for them are Python 3.11+)
SQLITE_BUSY, SQLITE_LOCKED, SQLITE_READONLY, SQLITE_IOERR, SQLITE_CORRUPT, SQLITE_FULL = 5, 6, 8, 10, 11, 13


def storage_cause(err: BaseException) -> str:
    """A failed write's cause in words a player and an operator read ("the table's disk is
    full"), from SQLite's error code (or its message) or the OS's errno."""
    code = getattr(err, "sqlite_errorcode", None)
    primary = None if code is None else int(code) & 0xFF
    text = str(err).lower()
    number = getattr(err, "errno", None)
    if primary == SQLITE_FULL or "disk is full" in text or number == errno.ENOSPC:
        return "the table's disk is full"
    if number == errno.EDQUOT:
        return "the table's disk quota is used up"
    if primary == SQLITE_READONLY or "readonly" in text or number == errno.EROFS:
        return "the table's file is read-only"
    if primary in (SQLITE_BUSY, SQLITE_LOCKED) or "locked" in text:
        return "the table's file is locked by another program"
    if primary == SQLITE_CORRUPT or "malformed" in text:
        return "the table's file is damaged"
    if primary == SQLITE_IOERR or "disk i/o error" in text or isinstance(err, OSError):
        return "the table's disk failed to write (an I/O error)"
    return f"the table could not write its file ({str(err)[:200]})"


def _record(text: str, index: int) -> Record:
    """A finished game's record from its row (``ValueError`` saying what is wrong with it)."""
    record = json.loads(text)
    if not isinstance(record, dict):
        raise ValueError(f"a record is a JSON object, this row holds {type(record).__name__}")
    if record.get("index") != index or not isinstance(record.get("moves"), list) or "result" not in record:
        raise ValueError("the row is JSON but no record of this game (index, moves, result)")
    return cast(Record, record)


class Store:
    """The SQLite file of one server (used from the event loop's thread only).

    ``StorageError`` when the file is damaged or is no database, or when it is missing or
    empty in a folder that holds a table and ``new`` does not ask for a new one (see
    :meth:`_check_there`)."""

    def __init__(self, data_dir: str | Path, new: bool = False) -> None:
        self.dir = Path(data_dir)
        self.path = self.dir / "cardtable.sqlite3"
        self._check_there(new)
        self.dir.mkdir(parents=True, exist_ok=True)
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
        self._mark()
        #: rows of ``games`` already reported damaged in the log (each is named once)
        self._damaged_logged: set[int] = set()
        self._report_damaged_records()
        self.wal = self.path.with_name(self.path.name + "-wal")
        #: the writer's last try to empty the WAL found a background checkpoint at work
        self._truncate_busy = False
        self._stop = threading.Event()
        self._checkpointer = threading.Thread(target=self._checkpoint_loop, name="cardtable-checkpoint",
                                              daemon=True)
        self._checkpointer.start()

    def _check_there(self, new: bool) -> None:
        """Refuse a database that is missing or empty where a table was (``StorageError``),
        unless ``new``.  A first start (no folder, or a folder with no table in it) makes
        the file; a folder holds a table when it has the :data:`MARK` file written beside
        the database, or SQLite's WAL or shared-memory file of one."""
        if new:
            return
        try:
            size: int | None = self.path.stat().st_size
        except FileNotFoundError:
            size = None
        fresh = ("Start the server with --new to begin an empty table here (every room and "
                 "finished game of the old file is then gone), or put the file back")
        if size == 0:
            raise StorageError(f"the data file {self.path} is empty (0 bytes): the table it held is "
                               f"gone, or the file was cut. Nothing was changed. {fresh}")
        held = [self.dir / MARK, self.path.with_name(self.path.name + "-wal"),
                self.path.with_name(self.path.name + "-shm")]
        if size is None and any(f.exists() for f in held):
            raise StorageError(f"the data file {self.path} is missing, but {self.dir} held a table "
                               f"(it has {', '.join(f.name for f in held if f.exists())}). Nothing was "
                               f"changed. {fresh}")

    def _mark(self) -> None:
        """Write :data:`MARK` beside the database if it is not there yet (a file made before
        the mark existed gets it at its next start)."""
        mark = self.dir / MARK
        if mark.exists():
            return
        try:
            mark.write_text(f"This folder holds a card table: {self.path.name} (marked "
                            f"{time.strftime('%Y-%m-%d %H:%M:%S %Z')}). If that file is missing or empty, "
                            "the server refuses to start; --new begins an empty table "
                            "(docs/table.md, \"When something breaks\").\n")
        except OSError as err:  # a read-only folder: the table works, unguarded
            log.warning("could not write %s (%s): a deleted %s would not be noticed", mark, err,
                        self.path.name)

    def _report_damaged_records(self) -> None:
        """Name in the log every finished game's record that is no JSON (SQLite's
        ``json_valid``; records that are JSON but no record are named when first read)."""
        try:
            rows = self.db.execute("SELECT rowid, room, idx FROM games "
                                   "WHERE NOT json_valid(record)").fetchall()
        except sqlite3.Error:  # a SQLite without JSON: they are named when read
            return
        for rowid, room, idx in rows:
            self._log_damaged(int(rowid), str(room), int(idx), "not JSON")

    def _log_damaged(self, rowid: int, room: str, index: int, why: str) -> None:
        if rowid in self._damaged_logged:
            return
        self._damaged_logged.add(rowid)
        log.error("the record of game %d of room %s (row %d of the table games in %s) is damaged: %s; "
                  "it is listed as damaged, its record and replay answer 410, the export marks it; "
                  "the row is left as it is", index, room, rowid, self.path, why)

    def _abandon(self) -> None:
        """After a failed write: roll back what SQLite did not roll back by itself (on a
        full disk or an I/O error it has done so already), never raising in place of the
        write's own error."""
        if not self.db.in_transaction:
            return
        try:
            self.db.execute("ROLLBACK")
        except sqlite3.Error as err:
            log.error("rolling back a failed write to %s failed too: %s", self.path, err)

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

    def save_room(self, room_id: str, data: Mapping[str, object], move: JsonDict | None = None,
                  record: Record | None = None, prune_moves_before: int | None = None) -> None:
        """Write a room's snapshot, the move that led to it (``{"game", "step", "seat",
        "action", "text", "label"}``, ``step`` counted from 1) and, when a game just ended,
        its record, in one transaction.  ``prune_moves_before``: delete the room's moves of
        the games before this one (a new game was dealt; the finished games' records hold
        their moves), so the file keeps one game's moves per room."""
        text = json.dumps(data, separators=(",", ":"))
        now = time.time()
        self._abandon()  # a failed write whose ROLLBACK failed too
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
            self._abandon()
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
        self._abandon()
        self.db.execute("BEGIN")
        try:
            self.db.execute("DELETE FROM rooms WHERE id = ?", (room_id,))
            self.db.execute("DELETE FROM moves WHERE room = ?", (room_id,))
            self.db.execute("INSERT OR REPLACE INTO expired (id, at, games) VALUES (?, ?, ?)",
                            (room_id, time.time(), games))
            self.db.execute("COMMIT")
        except BaseException:
            self._abandon()
            raise

    def expired(self, room_id: str) -> tuple[float, int] | None:
        """``(when, finished games)`` of a room that expired, or ``None``."""
        row = self.db.execute("SELECT at, games FROM expired WHERE id = ?", (room_id,)).fetchone()
        return None if row is None else (float(row[0]), int(row[1]))

    def moves(self, room_id: str, game: int) -> list[MoveRow]:
        """The moves of one game of a room, in order (``{"step", "seat", "action", "text", "label"}``)."""
        rows = self.db.execute(
            "SELECT step, seat, action, text, label FROM moves WHERE room = ? AND game = ? ORDER BY step",
            (room_id, game))
        return [{"step": st, "seat": se, "action": a, "text": t, "label": lb} for st, se, a, t, lb in rows]

    def _read(self, rowid: int, room: str, index: int, text: str) -> tuple[Record | None, str]:
        """A row's record and ``""``, or ``None`` and what is wrong with it (logged once)."""
        try:
            return _record(text, index), ""
        except (ValueError, RecursionError) as err:
            why = f"{type(err).__name__}: {str(err)[:200]}"
            self._log_damaged(rowid, room, index, why)
            return None, why

    def games(self, room_id: str) -> list[Record]:
        """A room's finished games' records that can be read, oldest first (a damaged one is
        left out, and logged: :meth:`game_list` lists it)."""
        rows = self.db.execute("SELECT rowid, idx, record FROM games WHERE room = ? ORDER BY idx", (room_id,))
        found = (self._read(int(r), room_id, int(i), str(t))[0] for r, i, t in rows.fetchall())
        return [rec for rec in found if rec is not None]

    def game_list(self, room_id: str) -> list[JsonDict]:
        """A room's finished games, oldest first, as the games list shows them: ``{"index",
        "result", "moves"}`` (how many), or ``{"index", "damaged"}`` (what is wrong) for a
        record that cannot be read."""
        out: list[JsonDict] = []
        rows = self.db.execute("SELECT rowid, idx, record FROM games WHERE room = ? ORDER BY idx", (room_id,))
        for rowid, idx, text in rows.fetchall():
            rec, why = self._read(int(rowid), room_id, int(idx), str(text))
            out.append({"index": int(idx), "damaged": why} if rec is None else
                       {"index": rec["index"], "result": rec["result"], "moves": len(rec["moves"])})
        return out

    def game(self, room_id: str, index: int) -> Record | None:
        """One finished game's record, or ``None`` (:class:`DamagedRecord` when its row
        cannot be read; logged)."""
        row = self.db.execute("SELECT rowid, record FROM games WHERE room = ? AND idx = ?",
                              (room_id, index)).fetchone()
        if row is None:
            return None
        record, why = self._read(int(row[0]), room_id, index, str(row[1]))
        if record is None:
            raise DamagedRecord(room_id, index, why)
        return record

    def export(self, batch: int = 500) -> Iterator[tuple[str, str]]:
        """Every finished game's record as ``(room id, record JSON text)``, oldest first; a
        damaged record as a line that says so, ``{"damaged": why, "room", "index"}`` (logged).

        Read ``batch`` rows at a time, each batch a statement of its own: no read stays
        open on the connection while the caller (a streamed answer) lets writes run."""
        last = 0
        while True:
            rows = self.db.execute("SELECT rowid, room, idx, record FROM games WHERE rowid > ? "
                                   "ORDER BY rowid LIMIT ?", (last, batch)).fetchall()
            if not rows:
                return
            for rowid, room, idx, text in rows:
                record, why = self._read(int(rowid), str(room), int(idx), str(text))
                if record is None:
                    text = json.dumps({"damaged": why, "room": str(room), "index": int(idx)},
                                      separators=(",", ":"))
                yield str(room), str(text)
            last = int(rows[-1][0])

    def close(self) -> None:
        """Stop the checkpoints, fold the WAL into the file and close it."""
        self._stop.set()
        self._checkpointer.join()
        self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self.db.close()
