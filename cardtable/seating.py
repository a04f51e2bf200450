"""The messages that seat people and the host's: ``hello``, ``sit``, ``leave``, ``level`` and
``settings`` (see ``PROTOCOL.md``).

Each handler takes the :class:`~.ports.Table`, the room, the client's
:class:`~.connection.Conn` and the checked message (:mod:`.protocol` checked its fields);
a refusal is a :class:`~.room.RoomError`, which the dispatcher sends back as an ``error``.
"""

from __future__ import annotations

import secrets

from .connection import Conn
from .names import NameError_, clean_name, unique_name
from .ports import Table
from .presence import FORMER_HOST
from .room import TIME_SETTINGS, Room, RoomError, check_time_settings
from .types import Message


def require_host(conn: Conn, what: str) -> None:
    """``RoomError`` unless the client holds the host's credential."""
    if not conn.host:
        raise RoomError(f"only the host can {what}")


def unseat(t: Table, room: Room, seat: int, host_leaves: bool = False) -> None:
    """A computer plays ``seat`` from now on (kept for its person: their token takes it
    back); its clients become spectators (``host_leaves``: the host is one of them, who
    now watches).  ``RoomError`` if it could not be saved."""
    memo = room.memo()
    room.leave(seat)
    if host_leaves and room.host_seat == seat:
        room.host_seat = None
    t.commit(room, memo)
    for c in t.conns.get(room.id, ()):
        if c.seat == seat:
            c.seat = None
            t.send_table(room, c)
    t.presence.check_away(room)


def _host_by_token(t: Table, room: Room, conn: Conn, host_token: str) -> str | None:
    """Take the host role with its credential; what is wrong, if it is not the host's."""
    if secrets.compare_digest(host_token.encode(), room.host_token.encode()):
        conn.host = True
        t.presence.host_here(room)
        return None
    return t.presence.not_host(room, host_token)


def _seat_by_token(t: Table, room: Room, conn: Conn, token: str) -> str | None:
    """Take back the seat whose credential ``token`` is; what is wrong, if it cannot."""
    seat = room.seat_of_token(token)
    if seat is None:
        return "this token is no seat's credential in this room: you watch as a spectator"
    if conn.seat == seat:
        return None
    if conn.seat is not None:
        return f"you already sit in seat {conn.seat}"
    name = unique_name(room.seats[seat].name or room.seat_name(seat), room.other_names(seat))
    memo = room.memo()
    room.sit(seat, name, token)
    if conn.host:
        room.host_seat = seat
    try:
        t.commit(room, memo)
    except RoomError as err:
        return str(err)
    conn.seat, conn.token = seat, token
    conn.send({"type": "seated", "seat": seat, "token": token})
    return None


def _watchers(t: Table, room: Room) -> int:
    """The room's connections that said hello and hold no seat (spectators)."""
    return sum(1 for c in t.conns.get(room.id, ()) if c.hello and c.seat is None and not c.closed)


def on_hello(t: Table, room: Room, conn: Conn, msg: Message) -> None:
    """Identify the client: a seat (by its token), the host (by the host token), or a spectator."""
    first = not conn.hello
    conn.hello = True
    token, host_token = msg.get("token"), msg.get("host_token")
    problems = []
    if host_token is not None:
        problems.append(_host_by_token(t, room, conn, host_token))
    if token is not None:
        problems.append(_seat_by_token(t, room, conn, token))
    for p in problems:
        if p is not None and p.startswith(FORMER_HOST):  # not a mistake: the role passed on
            conn.send({"type": "notice", "message": p})
        elif p is not None:
            conn.error(p, "hello")
    if first and conn.seat is None and not conn.host and _watchers(t, room) > t.settings.spectators_per_room:
        cap = t.settings.spectators_per_room
        conn.error(f"this room has its most spectators ({cap}); try again later", "hello")
        conn.close(4503, f"the room has its most spectators ({cap})")
        return
    t.presence.check_away(room)  # the seat is connected now: no countdown
    if conn.seat is not None or (first and conn.host):
        t.broadcast_room(room)  # the seat is connected now (a spectator changes nobody's view)
    else:
        conn.send(t.room_msg(room, conn))
    t.send_table(room, conn)
    if room.id in t.presence.clocks:
        conn.send(t.presence.clock_message(room))
    if conn.seat is not None:
        t.resend_coach(room, conn.seat)
        t.kick(room)
        t.presence.hand_over(room)  # a person is here: the host role may pass to them


def on_sit(t: Table, room: Room, conn: Conn, msg: Message) -> None:
    """Take a free seat."""
    seat = room.check_seat(msg["seat"])
    try:
        name = unique_name(clean_name(msg["name"]), room.other_names(seat))
    except NameError_ as err:
        raise RoomError(str(err)) from None
    if conn.seat is not None:
        if conn.seat == seat:
            raise RoomError(f"you already sit in seat {seat}")
        raise RoomError(f"you already sit in seat {conn.seat}; leave it first")
    memo = room.memo()
    token = room.sit(seat, name, conn.token)
    if conn.host:
        room.host_seat = seat
    t.commit(room, memo)
    if token != conn.token:  # a new credential: other clients holding the old one lose the seat
        for c in t.conns.get(room.id, ()):
            if c.seat == seat:
                c.seat = None
    conn.seat, conn.token = seat, token
    conn.send({"type": "seated", "seat": seat, "token": token})
    t.presence.check_away(room)
    t.broadcast_room(room)
    t.send_table(room, conn)
    t.resend_coach(room, seat)
    t.kick(room)
    t.presence.hand_over(room)


def on_leave(t: Table, room: Room, conn: Conn, msg: Message) -> None:
    """Give the seat to a computer (the token still takes it back)."""
    if conn.seat is None:
        raise RoomError("you do not sit at this table")
    t.unseat(room, conn.seat, host_leaves=conn.host)
    t.broadcast_room(room)
    t.kick(room)


def on_level(t: Table, room: Room, conn: Conn, msg: Message) -> None:
    """The host sets a computer seat's level, between games; never a person's seat (an
    absent person's seat goes to a computer at the room's level after the room's away
    time, by the room's settings alone)."""
    require_host(conn, "set levels")
    seat = room.check_seat(msg["seat"])
    memo = room.memo()
    room.set_level(seat, msg["level"])
    t.commit(room, memo)
    t.broadcast_room(room)
    t.kick(room)


def on_settings(t: Table, room: Room, conn: Conn, msg: Message) -> None:
    """The host sets the room's time settings, between games."""
    require_host(conn, "change the room's settings")
    if room.status == "playing":
        raise RoomError("the settings change between games, not during one")
    values = check_time_settings({k: v for k, v in msg.items() if k in TIME_SETTINGS}, partial=True)
    memo = room.memo()
    for name, value in values.items():
        setattr(room, name, value)
    t.commit(room, memo)
    t.broadcast_room(room)
