"""Storage faults are loud and never split the truth: a room that cannot be loaded is skipped
with an error naming it (its link says so) while the server starts; a damaged file stops
the server with a message that says what to do; a change whose save fails is neither
applied nor sent (the mover gets an error, the room stays at the saved position)."""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from .harness import HTTP, Client, LiveServer, create_room, live_server
from .process import ROOT


def db_rows(data: Path, sql: str, *args: Any) -> list[Any]:
    with sqlite3.connect(data / "cardtable.sqlite3") as db:
        return db.execute(sql, args).fetchall()


def test_a_room_that_cannot_be_loaded_is_skipped_loudly(tmp_path: Path,
                                                        caplog: pytest.LogCaptureFixture) -> None:
    with live_server(tmp_path) as srv:
        good = create_room(srv, "line_v0", 2)
        garbage = create_room(srv, "line_v0", 2)["room"]
        mismatch = create_room(srv, "rummy432_v0", 2)["room"]
    with sqlite3.connect(tmp_path / "cardtable.sqlite3") as db:
        db.execute("UPDATE rooms SET data = ? WHERE id = ?", ("{not json at all", garbage))
        data = json.loads(db.execute("SELECT data FROM rooms WHERE id = ?", (mismatch,)).fetchone()[0])
        data["env"] = "poker_v0"  # a game the server does not have
        db.execute("UPDATE rooms SET data = ? WHERE id = ?", (json.dumps(data), mismatch))
    caplog.set_level(logging.ERROR, logger="cardtable")
    with live_server(tmp_path) as srv:
        # the server started; the good room is there and works
        assert good["room"] in srv.core.rooms and set(srv.core.broken) == {garbage, mismatch}
        c = Client(srv, good["room"], host_token=good["host_token"])
        c.sit(0, "Ann")
        # each bad room is named in the log
        logged = "\n".join(r.getMessage() for r in caplog.records)
        assert garbage in logged and mismatch in logged and "could not be loaded" in logged
        for bad in (garbage, mismatch):
            page = HTTP.get(srv.url + f"/room/{bad}")
            assert page.status_code == 503 and page.headers["content-type"].startswith("text/html")
            assert "could not be loaded" in page.text and "<h1>" in page.text
            api = HTTP.get(srv.url + f"/api/rooms/{bad}")
            assert api.status_code == 503 and "could not be loaded" in api.json()["error"]
            ws = Client(srv, bad, hello=False)
            with pytest.raises(ConnectionClosed) as exc:
                ws.recv(timeout=5)
            assert exc.value.rcvd is not None and exc.value.rcvd.code == 4500
    # nothing was deleted: the rows are still there for the operator to look at
    assert len(db_rows(tmp_path, "SELECT id FROM rooms WHERE id IN (?, ?)", garbage, mismatch)) == 2


def start_server(data: Path) -> subprocess.CompletedProcess[str]:
    """``python -m cardtable`` on a data folder; it must stop by itself (the file is bad)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "cardtable", "--port", "1", "--data", str(data)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("where", ["pages", "header"])
def test_a_damaged_file_stops_the_server_with_what_to_do(tmp_path: Path, where: str) -> None:
    with live_server(tmp_path) as srv:
        for _ in range(30):
            create_room(srv, "rummy432_v0", 4)
    path = tmp_path / "cardtable.sqlite3"
    raw = bytearray(path.read_bytes())
    assert len(raw) > 3 * 4096
    if where == "pages":  # garbage over the pages after the first (the header is intact)
        raw[4096:len(raw) - 4096] = os.urandom(len(raw) - 8192)
    else:
        raw[:100] = os.urandom(100)
    path.write_bytes(bytes(raw))
    before = path.read_bytes()
    done = start_server(tmp_path)
    assert done.returncode == 2, done.stderr[-2000:]
    assert "cannot start" in done.stderr and str(path) in done.stderr
    assert ("damaged" if where == "pages" else "cannot be read") in done.stderr
    assert ".recover" in done.stderr and "Traceback" not in done.stderr
    assert path.read_bytes() == before  # the file was left as it was


@pytest.fixture
def failing_saves(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """A switch that makes the server's writes fail as a full disk does."""
    return {"on": False, "moves_only": False}


def break_store(srv: LiveServer, switch: dict[str, Any]) -> None:
    store = srv.core.store
    original = store.save_room

    def save_room(room_id: str, data: dict[str, Any], move: Any = None, record: Any = None,
                  **kw: Any) -> None:
        if switch["on"] and (move is not None or not switch["moves_only"]):
            raise sqlite3.OperationalError("database or disk is full")
        original(room_id, data, move, record, **kw)

    store.save_room = save_room


def test_a_move_whose_save_fails_is_not_played(tmp_path: Path, failing_saves: dict[str, Any]) -> None:
    with live_server(tmp_path) as srv:
        break_store(srv, failing_saves)
        info = create_room(srv, "rummy432_v0", 2, level="random")
        room_id = info["room"]
        ann = Client(srv, room_id, host_token=info["host_token"])
        ann.sit(0, "Ann")
        eve = Client(srv, room_id)
        eve.until(lambda m: m["type"] == "room")
        # a deal that cannot be saved is not dealt
        failing_saves["on"] = True
        ann.send({"type": "start"})
        assert "disk is full; " in ann.error()["message"]
        room = srv.core.rooms[room_id]
        assert (room.status, room.play) == ("waiting", None)
        failing_saves["on"] = False
        ann.send({"type": "start"})
        table = ann.until(lambda m: m["type"] == "table" and bool(m["moves"]))
        assert eve.table()["step"] == table["step"]  # Eve has read everything so far
        row_before = db_rows(tmp_path, "SELECT data FROM rooms WHERE id = ?", room_id)
        assert room.play is not None
        state_before = room.game.to_json(room.play.state)
        rng_before = room.play.rng.bit_generator.state
        seen_before = len(eve.seen)
        # Ann's move cannot be saved: she gets an error, nobody is told of it, nothing moved
        failing_saves["on"] = True
        move = table["moves"][0]
        ann.send({"type": "move", "id": move["id"], "step": table["step"]})
        assert "disk is full; " in ann.error()["message"]
        with pytest.raises(TimeoutError):
            eve.until(lambda m: m["type"] == "table", timeout=0.5)
        assert not [m for m in eve.seen[seen_before:] if m["type"] == "table"]
        assert room.play.step == table["step"] and room.game.to_json(room.play.state) == state_before
        assert room.play.rng.bit_generator.state == rng_before and not room.play.log
        assert db_rows(tmp_path, "SELECT data FROM rooms WHERE id = ?", room_id) == row_before
        # the table she sees is the saved one, and the same move is played once the disk works
        ann.send({"type": "hello", "token": ann.token, "host_token": None})
        assert ann.table() == table
        failing_saves["on"] = False
        ann.send({"type": "move", "id": move["id"], "step": table["step"]})
        after = eve.until(lambda m: m["type"] == "table" and m["step"] == table["step"] + 1)
        assert after["log"][-1]["text"] == move["text"]


def test_a_computer_move_whose_save_fails_waits(tmp_path: Path, failing_saves: dict[str, Any]) -> None:
    with live_server(tmp_path) as srv:
        break_store(srv, failing_saves)
        info = create_room(srv, "line_v0", 2, level="random")
        eve = Client(srv, info["room"], host_token=info["host_token"])
        failing_saves.update(on=True, moves_only=True)
        eve.send({"type": "start"})  # two computers: they would play on by themselves
        first = eve.table()
        assert first["step"] == 0
        with pytest.raises(TimeoutError):
            eve.until(lambda m: m["type"] == "table", timeout=1.5)
        assert srv.core.rooms[info["room"]].play.step == 0
        failing_saves["on"] = False
        assert eve.until(lambda m: m["type"] == "table", timeout=5)["step"] == 1
