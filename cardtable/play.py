"""The messages of the game itself: ``start``, ``rematch``, ``resign`` and ``move`` (see
``PROTOCOL.md``), and :func:`play_move`, which every move goes through (a person's, a
computer's, one played for a person whose time ran out).

Handlers take the :class:`~.ports.Table`, the room, the client's
:class:`~.connection.Conn` and the checked message; a refusal is a
:class:`~.room.RoomError`.
"""

from __future__ import annotations

from .connection import Conn
from .ports import Table
from .room import Room, RoomError
from .seating import require_host
from .types import Message


def play_move(t: Table, room: Room, seat: int, action: object) -> None:
    """Apply a checked move, save it, tell everyone, and go on (``RoomError`` if refused,
    or if it could not be saved: then it is not played)."""
    memo = room.memo()
    record = room.apply(seat, action)
    t.commit(room, memo, move=True, record=record)
    if record is not None:
        t.presence.check_away(room)  # the game is over: nobody's seat is counted down
        t.broadcast_room(room)  # the status first: the table that follows shows the result
    t.broadcast_table(room)
    t.kick(room)


def deal(t: Table, room: Room) -> None:
    """Deal a new game with the room's seats (saved, then everyone told)."""
    memo = room.memo()
    room.start()
    for s in room.seats:
        s.timeouts = 0
    t.commit(room, memo, prune_moves=True)
    t.presence.check_away(room)
    t.broadcast_room(room)
    t.broadcast_table(room)
    t.kick(room)


def on_start(t: Table, room: Room, conn: Conn, msg: Message) -> None:
    """The host deals the first game."""
    require_host(conn, "start the game")
    if room.status != "waiting":
        raise RoomError(f"the game has already started (the room is {room.status}); "
                        "after it ends the host can ask for a rematch")
    deal(t, room)


def on_rematch(t: Table, room: Room, conn: Conn, msg: Message) -> None:
    """The host deals a new game with the same seats."""
    require_host(conn, "ask for a rematch")
    if room.status != "finished":
        raise RoomError(f"a rematch is possible once the game has ended (the room is {room.status})")
    deal(t, room)


def on_resign(t: Table, room: Room, conn: Conn, msg: Message) -> None:
    """The seat's person gives up the game: it ends now, they lose, the others share the win."""
    if conn.seat is None or not room.seats[conn.seat].person:
        raise RoomError("only a seated person can resign; sit first")
    if room.status != "playing":
        raise RoomError(f"no game is being played (the room is {room.status})")
    memo = room.memo()
    record = room.resign(conn.seat)
    t.commit(room, memo, record=record)
    t.presence.check_away(room)
    result = record["result"]
    assert result is not None  # a resignation's record has its result
    t.notice(room, str(result["summary"]))
    t.broadcast_room(room)
    t.broadcast_table(room)
    t.kick(room)


def _action(room: Room, msg: Message) -> int:
    """The action a ``move`` message names (by id or in notation), checked against the step."""
    assert room.play is not None
    has_id, has_text = msg.get("id") is not None, msg.get("text") is not None
    if has_id == has_text:
        raise RoomError('a move has exactly one of "id" (an action id) or "text" (the move in notation)')
    step = msg.get("step")
    if step is not None and step != room.play.step:
        raise RoomError(f"that move answers step {step}, but the table is at step {room.play.step}")
    if has_id:
        return msg["id"]
    if len(msg["text"]) > 100:
        raise RoomError("move text too long")
    try:
        return room.game.str_to_action(msg["text"])
    except ValueError as err:
        raise RoomError(str(err)) from None


def on_move(t: Table, room: Room, conn: Conn, msg: Message) -> None:
    """The seat's move, checked by the rules core."""
    if conn.seat is None or not room.seats[conn.seat].person:
        raise RoomError("only a seated person can move; sit first")
    if room.status != "playing" or room.play is None:
        raise RoomError(f"no game is being played (the room is {room.status})")
    action = _action(room, msg)
    seat = room.seats[conn.seat]
    timeouts, seat.timeouts = seat.timeouts, 0  # they move by themselves again (saved with the move)
    try:
        t.play_move(room, conn.seat, action)
    except RoomError:
        seat.timeouts = timeouts
        raise
