"""Nothing is lost: a server stopped mid-game and started again on the same data folder
resumes every room at the same position, with the same seats and credentials, and its
computer players carry on by themselves."""

from __future__ import annotations

import contextlib
import sqlite3
import time
from pathlib import Path

import pytest

from cardtable.records import replayed_returns

from .harness import HTTP, Client, create_room, live_server, play_randomly, run_threads
from .process import ServerProcess, group_members


def test_restart_resumes_rooms_tokens_and_computer_turns(tmp_path: Path) -> None:
    with live_server(tmp_path, bot_delay=30.0) as srv:  # computers wait: one is to move at the stop
        info = create_room(srv, "rummy432_v0", 3, level="greedy", rounds_to_win=1)
        room = info["room"]
        ann = Client(srv, room, host_token=info["host_token"])
        bob = Client(srv, room)
        ann.sit(0, "Ann")
        bob.sit(1, "Bob")
        ann.send({"type": "start"})
        t = ann.until(lambda m: m["type"] == "table" and bool(m["moves"]))
        ann.send({"type": "move", "text": t["moves"][0]["text"], "step": t["step"]})  # draw or take
        t = ann.until(lambda m: m["type"] == "table" and m["step"] == 1)
        ann.send({"type": "move", "id": t["moves"][0]["id"], "step": 1})  # a throw: Bob is to move
        bob_table = bob.until(lambda m: m["type"] == "table" and m["step"] == 2 and bool(m["moves"]))
        bob.send({"type": "move", "id": bob_table["moves"][0]["id"], "step": 2})
        bob_table = bob.until(lambda m: m["type"] == "table" and m["step"] == 3 and bool(m["moves"]))
        bob.send({"type": "move", "id": bob_table["moves"][-1]["id"], "step": 3})
        before = bob.until(lambda m: m["type"] == "table" and m["step"] == 4)
        assert before["current"] == 2  # the computer's turn, paused by the delay
        ann_view = ann.until(lambda m: m["type"] == "table" and m["step"] == 4)["view"]
        tokens = (ann.token, bob.token)
        ann.close()
        bob.close()
    with live_server(tmp_path, bot_delay=0.0) as srv:
        listed = HTTP.get(srv.url + f"/api/rooms/{room}").json()
        assert listed["status"] == "playing"
        assert [s["name"] for s in listed["seats"]][:2] == ["Ann", "Bob"]
        assert [s["kind"] for s in listed["seats"]] == ["person", "person", "computer"]
        bob = Client(srv, room, token=tokens[1])
        assert bob.until(lambda m: m["type"] == "seated") == {"type": "seated", "seat": 1, "token": tokens[1]}
        first = bob.table()
        assert first["step"] >= 4  # the computer moved by itself after the restart
        assert all(m["step"] >= 4 for m in bob.seen if m["type"] == "table")
        core = srv.core
        state = core.rooms[room].play.state
        game = core.rooms[room].game
        assert game.to_json(state) is not None
        ann = Client(srv, room, token=tokens[0], host_token=info["host_token"])
        assert ann.until(lambda m: m["type"] == "seated")["seat"] == 0
        room_msg = ann.until(lambda m: m["type"] == "room" and m["you"] == 0)
        assert room_msg["host"]
        # the position after the restart is the one before, carried on by the computer only
        replay_view = core.rooms[room].play.log[:4]
        assert [e["seat"] for e in replay_view] == [0, 0, 1, 1]
        ann_table = ann.table()
        if ann_table["step"] == 4:
            assert ann_table["view"] == ann_view
        ends = run_threads(lambda: play_randomly(ann, 1), lambda: play_randomly(bob, 2))
        assert ends[0]["result"] is not None and ends[0]["step"] == ends[1]["step"]
        record = HTTP.get(srv.url + f"/api/rooms/{room}/games/0").json()
        assert record["moves"][:4] == [e["text"] for e in replay_view]
        assert replayed_returns(record) == ends[0]["result"]["returns"]


def test_restart_keeps_the_exact_position(tmp_path: Path) -> None:
    with live_server(tmp_path) as srv:
        info = create_room(srv, "line_v0", 2, level="random")
        ann = Client(srv, info["room"], host_token=info["host_token"])
        ann.sit(1, "Ann")  # seat 0 is a computer: it moves first
        ann.send({"type": "start"})
        t = ann.until(lambda m: m["type"] == "table" and bool(m["moves"]))
        core = srv.core
        js = core.rooms[info["room"]].game.to_json(core.rooms[info["room"]].play.state)
        rng_state = core.rooms[info["room"]].play.rng.bit_generator.state
        ann.close()
    with live_server(tmp_path) as srv:
        room = srv.core.rooms[info["room"]]
        assert room.game.to_json(room.play.state) == js
        assert room.play.rng.bit_generator.state == rng_state
        assert room.seats[1].name == "Ann" and room.seats[1].token is not None
        again = Client(srv, info["room"], token=room.seats[1].token)
        t2 = again.table()
        assert t2["view"] == t["view"] and t2["moves"] == t["moves"] and t2["log"] == t["log"]


def test_a_killed_server_resumes_at_the_last_move_it_answered(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path, bot_delay=0.0)  # computers in every seat, as fast as they go
    try:
        info = create_room(server, "rummy432_v0", 3, level="random")
        host = Client(server, info["room"], host_token=info["host_token"])
        host.send({"type": "start"})
        host.until(lambda m: m["type"] == "table" and m["step"] >= 150, timeout=60)
    finally:
        server.kill()
    host.close()
    seen = {m["step"]: m for m in host.seen if m["type"] == "table"}
    last = max(seen)
    # every move was saved before anyone was told of it: the file holds every move the
    # client was told of, the position after a restart is the last one saved (at least the
    # last one the client saw), and its latest moves are the saved ones
    with contextlib.closing(sqlite3.connect(tmp_path / "cardtable.sqlite3")) as db:
        saved = {step: (seat, text) for step, seat, text in db.execute(
            "SELECT step, seat, text FROM moves WHERE room = ? AND game = 0", (info["room"],))}
    told = {e["step"]: (e["seat"], e["text"]) for m in seen.values() for e in m["log"]}
    assert len(told) >= 150 and all(saved.get(s) == told[s] for s in told)
    server = ServerProcess(tmp_path, bot_delay=60.0)  # computers wait: the position stays put
    try:
        watcher = Client(server, info["room"])
        after = watcher.table()
        assert after["step"] == max(saved) >= last
        assert all(saved[e["step"]] == (e["seat"], e["text"]) for e in after["log"])
        if after["step"] == last:  # nothing was saved past what the client saw
            assert after["view"] == seen[last]["view"]
        watcher.close()
    finally:
        server.kill()


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc (Linux)")
def test_kill_9_leaves_no_process_of_the_server(tmp_path: Path) -> None:
    # the server leads a process group of its own; its forkserver, resource tracker and
    # worker processes are in it
    server = ServerProcess(tmp_path, bot_delay=0.0, workers=2, new_session=True)
    try:
        info = create_room(server, "line_v0", 2, level="expert")  # experts think in the workers
        host = Client(server, info["room"], host_token=info["host_token"])
        host.send({"type": "start"})
        host.until(lambda m: m["type"] == "table" and m["step"] >= 2, timeout=60)
        members = group_members(server.proc.pid)
        assert len(members) >= 4, members  # the server, the forkserver, the tracker, a worker
        assert any("forkserver" in cmd for _, cmd in members)
        assert any("resource_tracker" in cmd for _, cmd in members)
    finally:
        server.kill()
    deadline = time.monotonic() + 15
    while group_members(server.proc.pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert group_members(server.proc.pid) == []
