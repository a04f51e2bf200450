"""Bounded: quotas on new rooms and open sockets per client address (and in all), a socket
that never says hello is closed, idle rooms expire (their finished games' records stay),
and the file keeps one game's moves per room."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from .harness import HTTP, Client, create_room, live_server, play_randomly

GAME = {"game": "line_v0", "num_players": 2, "level": "random"}


def _table_of_game(index: int) -> Callable[[dict[str, Any]], bool]:
    """Whether a message is a table of game ``index`` (0-based) of the room."""
    return lambda m: m["type"] == "table" and m["game_index"] == index


def from_address(address: str) -> dict[str, str]:
    """Headers of a request that the trusted proxy (127.0.0.1, as the test says) forwards for
    ``address``."""
    return {"X-Forwarded-For": address}


def close_code(c: Client, timeout: float = 5.0) -> int:
    with pytest.raises(ConnectionClosed) as exc:  # noqa: PT012 - read until it closes
        while True:
            c.recv(timeout=timeout)
    assert exc.value.rcvd is not None
    return int(exc.value.rcvd.code)


def test_new_rooms_per_address_and_in_all(tmp_path: Path) -> None:
    with live_server(tmp_path, rooms_per_hour=3, max_rooms=5, trusted_proxies=("127.0.0.1",)) as srv:
        for _ in range(3):
            assert HTTP.post(srv.url + "/api/rooms", json=GAME).status_code == 201
        r = HTTP.post(srv.url + "/api/rooms", json=GAME)
        assert r.status_code == 429 and "at most 3 an hour" in r.json()["error"]
        assert 3000 <= int(r.headers["retry-after"]) <= 3601
        # another address has its own quota, until the table is full
        for _ in range(2):
            r = HTTP.post(srv.url + "/api/rooms", json=GAME, headers=from_address("10.0.0.2"))
            assert r.status_code == 201
        r = HTTP.post(srv.url + "/api/rooms", json=GAME, headers=from_address("10.0.0.3"))
        assert r.status_code == 503 and "the table is full (5 rooms)" in r.json()["error"]
        assert len(srv.core.rooms) == 5


def test_sockets_per_address_and_the_handshake(tmp_path: Path) -> None:
    with live_server(tmp_path, conns_per_address=3, handshake_seconds=0.5,
                     trusted_proxies=("127.0.0.1",)) as srv:
        room = create_room(srv, "line_v0", 2)["room"]
        kept = [Client(srv, room) for _ in range(3)]
        for c in kept:
            c.until(lambda m: m["type"] == "room")
        over = Client(srv, room, hello=False)
        assert "too many connections from your address" in over.error()["message"]
        assert close_code(over) == 4429
        # another address may still connect; so may this one once a page is closed
        with connect(f"{srv.ws_url}/ws/{room}", additional_headers=from_address("10.0.0.9")) as ws:
            ws.send('{"type": "hello", "token": null, "host_token": null}')
            assert '"type":"room"' in str(ws.recv(timeout=5))
        kept.pop().close()
        deadline = time.monotonic() + 5
        while srv.core.by_address.get("127.0.0.1", 0) >= 3 and time.monotonic() < deadline:
            time.sleep(0.02)
        again = Client(srv, room)
        again.until(lambda m: m["type"] == "room")
        # a socket that never says hello is closed after the handshake time; the others stay
        again.close()
        mute = Client(srv, room, hello=False)
        started = time.monotonic()
        assert "no \"hello\" within 0.5 seconds" in mute.error()["message"]
        assert close_code(mute) == 4408 and time.monotonic() - started < 3
        for c in kept:
            c.send({"type": "hello", "token": None, "host_token": None})
            c.until(lambda m: m["type"] == "room")
        assert srv.core.open_conns == len(kept)


def test_idle_rooms_expire_and_their_records_stay(tmp_path: Path) -> None:
    settings = {"expire_waiting": 0.6, "expire_idle": 1.2, "sweep_seconds": 0.2, "operator_token": "t" * 20}
    with live_server(tmp_path, **settings) as srv:
        waiting = create_room(srv, "line_v0", 2)["room"]  # never dealt, nobody there
        played = create_room(srv, "lineit_v0", 2, level="random")
        ann = Client(srv, played["room"], host_token=played["host_token"])
        ann.sit(0, "Ann")
        ann.send({"type": "start"})
        ann.table()
        final = play_randomly(ann, 3)
        ann.send({"type": "rematch"})  # a second game, left unfinished
        ann.until(lambda m: m["type"] == "table" and m["game_index"] == 1)
        watched = create_room(srv, "line_v0", 2)["room"]
        eve = Client(srv, watched)  # somebody is there: it does not expire
        time.sleep(1.0)
        assert waiting not in srv.core.rooms and played["room"] in srv.core.rooms
        ann.close()
        deadline = time.monotonic() + 10
        while played["room"] in srv.core.rooms and time.monotonic() < deadline:
            time.sleep(0.05)
        assert played["room"] not in srv.core.rooms and watched in srv.core.rooms
        eve.send({"type": "hello", "token": None, "host_token": None})
        eve.until(lambda m: m["type"] == "room")
        # the links say it; the finished game's record stays (its link and the export)
        for room_id, games in ((waiting, 0), (played["room"], 1)):
            page = HTTP.get(srv.url + f"/room/{room_id}")
            assert page.status_code == 410 and "This room has expired" in page.text
            assert page.text.count("/games/") == games
            api = HTTP.get(srv.url + f"/api/rooms/{room_id}")
            assert api.status_code == 410 and "expired" in api.json()["error"]
            c = Client(srv, room_id, hello=False)
            assert close_code(c) == 4410
        record = HTTP.get(srv.url + f"/api/rooms/{played['room']}/games/0")
        assert record.status_code == 200 and record.json()["result"] == final["result"]
        listed = HTTP.get(srv.url + f"/api/rooms/{played['room']}/games").json()["games"]
        assert [g["index"] for g in listed] == [0]
        # its finished game still replays (linked from the page); the game left unfinished not
        assert f"/room/{played['room']}/replay/0" in HTTP.get(srv.url + f"/room/{played['room']}").text
        assert HTTP.get(srv.url + f"/room/{played['room']}/replay/0").status_code == 200
        steps = HTTP.get(srv.url + f"/api/rooms/{played['room']}/games/0/replay").json()["steps"]
        end = HTTP.get(srv.url + f"/api/rooms/{played['room']}/games/0/replay/{steps}").json()
        assert end["result"]["winners"] == final["result"]["winners"]
        assert HTTP.get(srv.url + f"/api/rooms/{played['room']}/games/1/replay/0").status_code == 404
        assert HTTP.get(srv.url + f"/room/{played['room']}/replay/1").status_code == 404
        export = HTTP.get(srv.url + "/api/export", headers={"Authorization": "Bearer " + "t" * 20})
        assert played["room"] in export.text
        # the file no longer holds the room or its moves
        db = srv.core.store.db
        assert db.execute("SELECT COUNT(*) FROM rooms WHERE id = ?", (played["room"],)).fetchone() == (0,)
        assert db.execute("SELECT COUNT(*) FROM moves WHERE room = ?", (played["room"],)).fetchone() == (0,)


def test_the_file_keeps_one_games_moves_per_room(tmp_path: Path) -> None:
    with live_server(tmp_path) as srv:
        info = create_room(srv, "lineit_v0", 2, level="random")
        ann = Client(srv, info["room"], host_token=info["host_token"])
        ann.sit(0, "Ann")
        ann.send({"type": "start"})
        ann.table()
        for game in range(3):
            play_randomly(ann, game)
            ann.send({"type": "rematch"})
            ann.until(_table_of_game(game + 1))
        db = srv.core.store.db
        games = db.execute("SELECT DISTINCT game FROM moves WHERE room = ?", (info["room"],)).fetchall()
        assert games in ([], [(3,)])  # only the game being played (no move of it yet, or some)
        assert len(db.execute("SELECT idx FROM games WHERE room = ?", (info["room"],)).fetchall()) == 3


def test_the_wal_stays_bounded_under_sustained_writes(tmp_path: Path) -> None:
    # a writer that never pauses: PASSIVE checkpoints alone never empty the WAL then
    # (174 MiB in 8 s of this loop; 506 MB in 30 s of 100 unpaced rooms)
    from cardtable.store import WAL_LIMIT, Store

    store = Store(tmp_path)
    snapshot = {"state": "x" * 9000, "n": 0}
    peak = 0
    written = 0
    try:
        while written < 8000:  # ~75 MB of snapshots through the WAL
            snapshot["n"] = written
            move = {"game": 0, "step": written, "seat": 0, "action": 1, "text": "draw", "label": "Draw"}
            store.save_room(f"room{written % 100}", snapshot, move)
            written += 1
            if written % 100 == 0 and store.wal.exists():
                peak = max(peak, store.wal.stat().st_size)
    finally:
        store.close()
    # bounded, not exact: a background checkpoint that holds the file makes the writer wait
    # (one run at load 7 on 2 cores peaked at 6.0x the limit); unbounded was 174 MiB here
    assert peak < 12 * WAL_LIMIT, peak
    assert not store.wal.exists() or store.wal.stat().st_size == 0  # emptied at the close
