"""What the operator meets when the storage goes wrong (issue 37, operator rows 7-10).

* A finished game's record that is damaged in the file is isolated as a damaged room is:
  the room's games list marks it, its record and replay answer 410 with why, the room's
  other games and other rooms still work, the export marks it, and the log names the row.
* A full disk is named as such, to the player and in the log ("the table's disk is full"),
  never hidden behind a failing rollback; a refused save changes nothing anyone sees.
* A missing or empty database where a table was is refused unless ``--new`` asks for an
  empty table; a first start (no folder, or a folder with no table) makes one.
* Row 10: people's moves go before the computers' thinking (the scheduling test is at the
  end; its timing is in docs/cardtable/load.md).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from cardtable import computers
from cardtable.computers import CALM_TICKS, LAG_HIGH, LAG_LOW, Scheduler, Turn
from cardtable.store import MARK, StorageError, Store, storage_cause
from cardtable.workers import INLINE, THREADS

from .harness import HTTP, Client, LiveServer, create_room, live_server
from .process import ROOT

TOKEN = "a-long-operator-token-0123456789"


def db(data: Path) -> sqlite3.Connection:
    return sqlite3.connect(data / "cardtable.sqlite3")


def finish_games(srv: LiveServer, games: int) -> str:
    """A room of Line with Ann and a computer, where Ann resigned ``games`` games."""
    info = create_room(srv, "line_v0", 2, level="random")
    ann = Client(srv, info["room"], host_token=info["host_token"])
    ann.sit(0, "Ann")
    ended: list[dict[str, Any]] = []
    for g in range(games):
        ann.send({"type": "start" if g == 0 else "rematch"})
        ann.until(lambda m: m["type"] == "table" and m["game_index"] == len(ended))
        ann.send({"type": "resign"})
        ended.append(ann.until(lambda m: m["type"] == "table" and m["game_index"] == len(ended)
                               and m["result"] is not None))
    ann.close()
    return str(info["room"])


# --------------------------------------------------------------------------- row 7
def test_a_damaged_record_is_isolated(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    with live_server(tmp_path, operator_token=TOKEN) as srv:
        room = finish_games(srv, 3)
        other = finish_games(srv, 1)
    with db(tmp_path) as con:
        con.execute("UPDATE games SET record = '{not json' WHERE room = ? AND idx = 0", (room,))
        con.execute("UPDATE games SET record = '[1, 2]' WHERE room = ? AND idx = 2", (room,))
        (row,) = con.execute("SELECT rowid FROM games WHERE room = ? AND idx = 0", (room,)).fetchone()
    caplog.set_level(logging.ERROR, logger="cardtable")
    with live_server(tmp_path, operator_token=TOKEN) as srv:
        # the start-up names the row that is no JSON
        logged = "\n".join(r.getMessage() for r in caplog.records)
        assert f"game 0 of room {room} (row {row} of the table games" in logged
        # the list marks the damaged games, the good one is as before
        listed = HTTP.get(srv.url + f"/api/rooms/{room}/games")
        assert listed.status_code == 200, listed.text
        games = listed.json()["games"]
        assert [g["index"] for g in games] == [0, 1, 2]
        assert "JSONDecodeError" in games[0]["damaged"] and "is a JSON object" in games[2]["damaged"]
        assert "damaged" not in games[1] and games[1]["moves"] >= 0 and games[1]["result"]
        for bad in (0, 2):
            for path in (f"/api/rooms/{room}/games/{bad}", f"/api/rooms/{room}/games/{bad}/replay",
                         f"/api/rooms/{room}/games/{bad}/replay/0"):
                r = HTTP.get(srv.url + path)
                assert r.status_code == 410, (path, r.status_code, r.text)
                assert f"game {bad} of room {room} is damaged" in r.json()["error"]
            page = HTTP.get(srv.url + f"/room/{room}/replay/{bad}")
            assert page.status_code == 410 and "damaged" in page.text
        logged = "\n".join(r.getMessage() for r in caplog.records)
        assert f"game 2 of room {room} (row" in logged and "is damaged" in logged
        # the room's good game and the other room work
        assert HTTP.get(srv.url + f"/api/rooms/{room}/games/1").json()["index"] == 1
        assert HTTP.get(srv.url + f"/api/rooms/{room}/games/1/replay").status_code == 200
        assert HTTP.get(srv.url + f"/api/rooms/{other}/games/0/replay/0").status_code == 200
        assert HTTP.get(srv.url + f"/api/rooms/{room}/games/7").status_code == 404
        # the export marks the damaged games, every line is JSON
        export = HTTP.get(srv.url + "/api/export", headers={"Authorization": f"Bearer {TOKEN}"})
        lines = [json.loads(x) for x in export.text.splitlines()]
        mine = {x["index"]: x for x in lines if x["room"] == room}
        assert set(mine) == {0, 1, 2} and "damaged" not in mine[1] and mine[1]["moves"] is not None
        assert "JSONDecodeError" in mine[0]["damaged"] and "is a JSON object" in mine[2]["damaged"]
        assert [x["index"] for x in lines if x["room"] == other] == [0]
    with db(tmp_path) as con:  # the rows were left as they were, for the operator
        assert con.execute("SELECT record FROM games WHERE rowid = ?", (row,)).fetchone() == ("{not json",)


# --------------------------------------------------------------------------- row 8
def test_a_full_disk_is_named_and_changes_nothing_in_the_file(tmp_path: Path) -> None:
    store = Store(tmp_path)
    try:
        store.save_room("r", {"x": "small"})
        pages = store.db.execute("PRAGMA page_count").fetchone()[0]
        store.db.execute(f"PRAGMA max_page_count = {pages}")  # the disk is full now
        with pytest.raises(sqlite3.OperationalError) as exc:
            store.save_room("r", {"x": "a" * 200_000}, record={"index": 0, "moves": [], "result": None})
        assert "full" in str(exc.value) and "rollback" not in str(exc.value)
        assert storage_cause(exc.value) == "the table's disk is full"
        assert not store.db.in_transaction
        assert store.rooms()[0][1] == '{"x":"small"}' and store.games("r") == []
        store.db.execute(f"PRAGMA max_page_count = {pages * 1000}")  # space again: it works
        store.save_room("r", {"x": "a" * 200_000})
        assert len(store.rooms()[0][1]) > 200_000
    finally:
        store.close()


class FullDisk:
    """The store's connection on a disk that fills at the next commit when ``full``: SQLite
    then rolls the transaction back by itself and says ``database or disk is full``."""

    def __init__(self, real: sqlite3.Connection) -> None:
        self.real = real
        self.full = False

    def execute(self, sql: str, *args: Any) -> Any:
        if self.full and sql == "COMMIT":
            self.real.execute("ROLLBACK")
            raise sqlite3.OperationalError("database or disk is full")
        return self.real.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)


def test_a_move_on_a_full_disk_says_so_and_is_undone(tmp_path: Path,
                                                     caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.ERROR, logger="cardtable")
    with live_server(tmp_path) as srv:
        info = create_room(srv, "rummy432_v0", 2, level="random")
        room_id = info["room"]
        ann = Client(srv, room_id, host_token=info["host_token"])
        ann.sit(0, "Ann")
        eve = Client(srv, room_id)
        eve.until(lambda m: m["type"] == "room")
        ann.send({"type": "start"})
        table = ann.until(lambda m: m["type"] == "table" and bool(m["moves"]))
        eve.until(lambda m: m["type"] == "table" and m["step"] == table["step"])
        room = srv.core.rooms[room_id]
        before = (room.game.to_json(room.play.state), room.play.rng.bit_generator.state, list(room.play.log))
        with db(tmp_path) as con:
            row_before = con.execute("SELECT data FROM rooms WHERE id = ?", (room_id,)).fetchall()
        disk = FullDisk(srv.core.store.db)
        srv.core.store.db = disk
        disk.full = True
        seen = len(eve.seen)
        ann.send({"type": "move", "id": table["moves"][0]["id"], "step": table["step"]})
        message = ann.error()["message"]
        assert message.startswith("the table's disk is full; your move was not saved and is undone"), message
        assert "rollback" not in message
        logged = "\n".join(r.getMessage() for r in caplog.records)
        assert f"could not save room {room_id}: the table's disk is full" in logged
        assert "cannot rollback" not in logged
        # nothing changed: the room, what Eve saw, the file
        with pytest.raises(TimeoutError):
            eve.until(lambda m: m["type"] == "table", timeout=0.5)
        assert not [m for m in eve.seen[seen:] if m["type"] == "table"]
        after = (room.game.to_json(room.play.state), room.play.rng.bit_generator.state, room.play.log)
        assert after == before
        with db(tmp_path) as con:
            assert con.execute("SELECT data FROM rooms WHERE id = ?", (room_id,)).fetchall() == row_before
        ann.send({"type": "hello", "token": ann.token, "host_token": None})
        assert ann.table() == table
        disk.full = False  # space again: the same move is played
        ann.send({"type": "move", "id": table["moves"][0]["id"], "step": table["step"]})
        assert eve.until(lambda m: m["type"] == "table")["step"] == table["step"] + 1
        srv.core.store.db = disk.real


# --------------------------------------------------------------------------- row 9
def test_a_first_start_makes_the_table(tmp_path: Path) -> None:
    for folder in (tmp_path / "not-yet", tmp_path):  # no folder; a folder with no table
        Store(folder).close()
        assert (folder / "cardtable.sqlite3").stat().st_size > 0 and (folder / MARK).exists()
        Store(folder).close()  # and the next start opens it


@pytest.mark.parametrize("how", ["deleted", "zero bytes"])
def test_a_missing_or_empty_file_is_refused_unless_new(tmp_path: Path, how: str) -> None:
    store = Store(tmp_path)
    store.save_room("r", {"x": 1})
    store.close()
    path = tmp_path / "cardtable.sqlite3"
    if how == "deleted":
        path.unlink()
    else:
        path.write_bytes(b"")
    with pytest.raises(StorageError) as exc:
        Store(tmp_path)
    words = str(exc.value)
    assert str(path) in words and ("missing" if how == "deleted" else "empty (0 bytes)") in words
    assert "--new" in words
    if how == "deleted":  # left as it was
        assert not path.exists()
    else:
        assert path.stat().st_size == 0
    fresh = Store(tmp_path, new=True)  # the operator asks for an empty table
    assert fresh.rooms() == []
    fresh.close()
    Store(tmp_path).close()  # from now on it is the table


def serve(data: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    with socket.socket() as busy:  # the port is taken: a server that gets past the file stops there
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        return subprocess.run([sys.executable, "-m", "cardtable", "--port", str(port), "--workers", "0",
                               "--data", str(data), *args], cwd=ROOT, env=env, capture_output=True,
                              text=True, timeout=60)


def test_the_command_line_refuses_a_deleted_file_and_new_starts_afresh(tmp_path: Path) -> None:
    store = Store(tmp_path)
    store.save_room("r", {"x": 1})
    store.close()
    (tmp_path / "cardtable.sqlite3").unlink()
    done = serve(tmp_path)
    assert done.returncode == 2, done.stderr[-2000:]
    assert "cannot start" in done.stderr and "missing" in done.stderr and "--new" in done.stderr
    assert "Traceback" not in done.stderr and not (tmp_path / "cardtable.sqlite3").exists()
    done = serve(tmp_path, "--new")
    assert "cannot start" not in done.stderr, done.stderr[-2000:]
    assert (tmp_path / "cardtable.sqlite3").stat().st_size > 0


# --------------------------------------------------------------------------- row 10
def test_turns_go_room_after_room_and_at_most_the_caps_at_once() -> None:
    async def main() -> None:
        s = Scheduler({0: 1, 1: 1})
        s.limit = s.most  # the loop keeps time
        held: list[Turn] = []

        async def computer(room: str, lane: int) -> None:
            turn = s.turn(room, lane)
            await turn.__aenter__()
            held.append(turn)

        tasks = [asyncio.ensure_future(computer(f"r{i}", 0)) for i in range(4)]
        tasks.append(asyncio.ensure_future(computer("other", 1)))
        await asyncio.sleep(0)
        assert [t.room for t in held] == ["r0", "other"] and s.queued() == 3 and s.in_flight == 2
        for expected in ("r1", "r2", "r3"):  # lane 0 serves its rooms in the order they asked
            first = next(t for t in held if t.lane == 0 and t.held)
            first.release()
            await asyncio.sleep(0)
            assert held[-1].room == expected and s.busy[0] == 1
        tasks.append(asyncio.ensure_future(computer("r0", 0)))  # r0 moved: it asks again, at the back
        tasks.append(asyncio.ensure_future(computer("r9", 0)))
        await asyncio.sleep(0)
        next(t for t in held if t.lane == 0 and t.held).release()
        await asyncio.sleep(0)
        assert held[-1].room == "r0"
        await asyncio.gather(*tasks[:-1])
        tasks[-1].cancel()  # one that waits can give up its place
        await asyncio.sleep(0)
        assert s.queued() == 0

    asyncio.run(main())


def test_a_late_event_loop_shrinks_the_computers_turns() -> None:
    s = Scheduler({0: 1, 1: 1, THREADS: 4, INLINE: 8})
    assert (s.limit, s.most) == (1, 14)  # one turn at first, more while the loop keeps time
    for _ in range(13 * CALM_TICKS):
        s.observe(0.0)
    assert s.limit == 14
    for expected in (7, 3, 1, 1):
        s.observe(LAG_HIGH * 2)  # people wait: halve
        assert s.limit == expected
    for expected in (2, 3):  # on time again for a while: one more at a time
        for _ in range(CALM_TICKS - 1):
            s.observe(0.0)
        assert s.limit == expected - 1
        s.observe(0.0)
        assert s.limit == expected
    s.observe((LAG_LOW + LAG_HIGH) / 2)  # in between: as it is
    assert s.limit == 3
    for _ in range(CALM_TICKS - 1):
        s.observe(0.0)
    s.observe(LAG_HIGH * 2)  # late again before calm: halved, the calm starts over
    assert s.limit == 1


def test_a_persons_move_is_answered_while_the_computers_wait_their_turn(tmp_path: Path) -> None:
    with live_server(tmp_path, workers=0) as srv:
        core = srv.core
        original = core.pool.run
        seen: dict[str, Any] = {"in": 0, "most": 0, "go": 0, "rooms": []}

        async def run(job: Any) -> Any:  # a search that lasts until the test lets it end
            if job.level == "random":
                return await original(job)
            seen["in"] += 1
            seen["most"] = max(seen["most"], seen["in"])
            seen["rooms"].append(job.room)
            try:
                while seen["go"] <= 0:
                    await asyncio.sleep(0.005)
                seen["go"] -= 1
                return job.legal[0]
            finally:
                seen["in"] -= 1

        core.pool.run = run
        scheduler = core.computers.scheduler
        scheduler.observe = lambda lag: None  # the loop's lag is another test's
        scheduler.limit = scheduler.most
        rooms = []
        for _ in range(10):  # ten rooms of two expert computers each, all thinking
            info = create_room(srv, "line_v0", 2, level="expert")
            host = Client(srv, info["room"], host_token=info["host_token"])
            host.send({"type": "start"})
            host.table()
            rooms.append(info["room"])
        wait_for(lambda: seen["in"] >= computers.THREAD_TURNS)
        time.sleep(0.3)
        # at most the lane's turns think at once; the other rooms wait for theirs
        assert seen["most"] == computers.THREAD_TURNS and core.computers.scheduler.queued() == 6
        # a person's move is answered at once meanwhile
        info = create_room(srv, "line_v0", 2, level="random")
        ann = Client(srv, info["room"], host_token=info["host_token"])
        ann.sit(0, "Ann")
        ann.send({"type": "start"})
        table = ann.until(lambda m: m["type"] == "table" and bool(m["moves"]))
        ann.send({"type": "move", "id": table["moves"][0]["id"], "step": table["step"]})
        assert ann.until(lambda m: m["type"] == "table" and m["step"] > table["step"], timeout=5)
        assert seen["in"] == computers.THREAD_TURNS and core.computers.scheduler.queued() == 6
        # the rooms get their turns in the order they asked, every room before any room again
        seen["go"] = 16
        wait_for(lambda: len(seen["rooms"]) >= 20)
        assert sorted(seen["rooms"][:10]) == sorted(rooms) and sorted(seen["rooms"][10:20]) == sorted(rooms)
        assert seen["most"] == computers.THREAD_TURNS
        seen["go"] = 10**9
        core.pool.run = original


def wait_for(check: Any, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)
