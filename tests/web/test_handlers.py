"""The message handlers called directly, without a socket: a real :class:`~cardtable.server.Server`
on a temporary folder (it is a :class:`~cardtable.ports.Table`) and a fake connection that
keeps what it is sent."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest

from cardtable import coach, play, protocol, seating
from cardtable.connection import Conn
from cardtable.room import Room, RoomError
from cardtable.server import Server

T = TypeVar("T")


class FakeConn(Conn):
    """A connection without a socket: what it is sent is kept in ``sent``."""

    def __init__(self) -> None:
        super().__init__(None)
        self.sent: list[dict[str, Any]] = []

    def send_text(self, text: str) -> None:
        self.sent.append(json.loads(text))

    def kinds(self) -> list[str]:
        return [m["type"] for m in self.sent]


def with_server(tmp_path: Path, fn: Callable[[Server], T]) -> T:
    """``fn(server)`` on the event loop, the server shut down afterwards."""

    async def main() -> T:
        server = Server(tmp_path, bot_delay=0.0)
        try:
            return fn(server)
        finally:
            await server.shutdown()

    return asyncio.run(main())


def new_room(server: Server) -> tuple[Room, FakeConn]:
    """A two-seat room of computers and its host, said hello (not seated)."""
    made = server.create_room({"game": "line_v0", "num_players": 2, "level": "random"})
    room = server.rooms[made["room"]]
    host = FakeConn()
    server.conns[room.id].add(host)
    seating.on_hello(server, room, host, {"type": "hello", "token": None, "host_token": made["host_token"]})
    return room, host


def test_hello_and_sit_seat_the_client_and_save_the_seat(tmp_path: Path) -> None:
    def check(server: Server) -> None:
        room, host = new_room(server)
        assert host.host and host.hello and host.kinds() == ["room"]
        seating.on_sit(server, room, host, {"type": "sit", "seat": 1, "name": "Ann"})
        seated = [m for m in host.sent if m["type"] == "seated"]
        assert seated == [{"type": "seated", "seat": 1, "token": host.token}]
        assert host.sent[-1]["type"] == "room" and host.sent[-1]["seats"][1]["name"] == "Ann"
        assert room.seats[1].person and room.host_seat == 1
        (row,) = [json.loads(text) for rid, text, _ in server.store.rooms() if rid == room.id]
        assert row["seats"][1]["name"] == "Ann"  # saved before anyone was told
        with pytest.raises(RoomError, match="already sit in seat 1"):
            seating.on_sit(server, room, host, {"type": "sit", "seat": 1, "name": "Ann"})

    with_server(tmp_path, check)


def test_only_the_host_deals_and_a_move_must_answer_the_step(tmp_path: Path) -> None:
    def check(server: Server) -> None:
        room, host = new_room(server)
        guest = FakeConn()
        server.conns[room.id].add(guest)
        seating.on_hello(server, room, guest, {"type": "hello"})
        with pytest.raises(RoomError, match="only the host can start the game"):
            play.on_start(server, room, guest, {"type": "start"})
        seating.on_sit(server, room, host, {"type": "sit", "seat": 0, "name": "Ann"})
        play.on_start(server, room, host, {"type": "start"})
        assert room.status == "playing" and "table" in guest.kinds()
        assert room.play is not None and room.current() == 0
        with pytest.raises(RoomError, match="answers step 7"):
            play.on_move(server, room, host, {"type": "move", "id": 0, "step": 7})
        with pytest.raises(RoomError, match="only a seated person can move"):
            play.on_move(server, room, guest, {"type": "move", "id": 0})
        with pytest.raises(RoomError, match="only a seated person has a coach"):
            coach.on_coach(server, room, guest, {"type": "coach", "on": True})

    with_server(tmp_path, check)


def test_the_dispatcher_checks_before_any_handler_runs(tmp_path: Path) -> None:
    def check(server: Server) -> list[str]:
        room, _ = new_room(server)
        c = FakeConn()
        server.conns[room.id].add(c)
        for text in ("{", '{"type": "dance"}', '{"type": "sit", "seat": 0}', '{"type": "start"}',
                     '{"type": "hello", "token": 5}'):
            protocol.handle(server, room, c, text)
        assert not c.hello and room.status == "waiting"
        return [m["message"] for m in c.sent if m["type"] == "error"]

    errors = with_server(tmp_path, check)
    assert errors[0].startswith("not JSON")
    assert errors[1].startswith("unknown message type 'dance'")
    assert errors[2] == "sit: the field 'name' is missing"
    assert errors[3].startswith('send "hello" first')
    assert errors[4] == "hello: the field 'token' must be str or null, got int"
    assert set(protocol.HANDLERS) == set(protocol.FIELDS)  # every type has its handler


def test_a_handler_that_fails_is_answered_and_logged(tmp_path: Path, caplog: pytest.LogCaptureFixture,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(*args: Any) -> None:
        raise KeyError("bug")

    monkeypatch.setitem(protocol.HANDLERS, "leave", boom)

    def check(server: Server) -> FakeConn:
        room, host = new_room(server)
        protocol.handle(server, room, host, '{"type": "leave"}')
        return host

    host = with_server(tmp_path, check)
    failed = "the server failed on this 'leave' message (it is in the server's log)"
    assert host.sent[-1] == {"type": "error", "for": "leave", "message": failed}
    assert "a 'leave' message failed" in caplog.text
