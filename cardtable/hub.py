"""Who is connected to each room, and the messages that go to all of a room's clients.

The :class:`Hub` holds every room's open connections and the counts the connection limits
need (:class:`~.settings.Settings`); it builds nothing itself: the ``room`` and ``table``
messages come from the :class:`~.room.Room`, the absent seats' countdowns from
:mod:`.presence` (given as a function, so the hub knows nothing of timers).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable

from .connection import Conn
from .room import Room
from .types import JsonDict

#: seconds left before a computer plays each absent person's seat, for a room
AwayLeft = Callable[[Room], dict[int, float]]
#: seconds within which a room's ``room`` messages to its spectators are sent as one (the
#: latest); any other message to the room sends the waiting one first, so none overtakes it
SPECTATOR_BATCH = 0.15


class Hub:
    """The open connections of every room and the messages sent to them."""

    def __init__(self, away_left: AwayLeft) -> None:
        self.away_left = away_left
        #: room -> its open connections
        self.conns: dict[str, set[Conn]] = {}
        #: WebSocket connections open, in all and per client address
        self.open_conns = 0
        self.by_address: dict[str, int] = {}
        #: rooms whose spectators are to get the ``room`` message: id -> (room, timer)
        self._batched: dict[str, tuple[Room, asyncio.TimerHandle]] = {}

    # ------------------------------------------------------------------ joining
    def join(self, room_id: str, conn: Conn, address: str) -> None:
        """A client connected to a room."""
        self.conns[room_id].add(conn)
        self.open_conns += 1
        self.by_address[address] = self.by_address.get(address, 0) + 1

    def part(self, room_id: str, conn: Conn, address: str) -> None:
        """A client's connection ended."""
        self.conns.get(room_id, set()).discard(conn)
        self.open_conns -= 1
        left = self.by_address[address] - 1
        if left:
            self.by_address[address] = left
        else:
            del self.by_address[address]

    def clients(self, room: Room) -> set[Conn]:
        """The room's open connections (none for a room that is gone)."""
        return self.conns.get(room.id, set())

    # ------------------------------------------------------------------ messages
    def connected(self, room: Room) -> list[int]:
        """How many clients are connected to each seat."""
        counts = [0] * room.num_players
        for c in self.conns.get(room.id, ()):
            if c.seat is not None:
                counts[c.seat] += 1
        return counts

    def broadcast_room(self, room: Room) -> None:
        """Send everyone in the room its ``room`` message: the seated and the host at once,
        the spectators (who all get the same one) within :data:`SPECTATOR_BATCH`."""
        connected = self.connected(room)
        away = self.away_left(room)
        watchers = False
        for c in self.conns.get(room.id, ()):
            if c.hello and (c.seat is not None or c.host):
                c.send(room.room_message(c.seat, c.host, connected, away))
            elif c.hello:
                watchers = True
        if not watchers or room.id in self._batched:
            return
        try:
            timer = asyncio.get_running_loop().call_later(SPECTATOR_BATCH, self.flush, room)
        except RuntimeError:  # no event loop (a test's stand-in): at once
            self.flush(room, now=True)
            return
        self._batched[room.id] = (room, timer)

    def flush(self, room: Room, now: bool = False) -> None:
        """Send the room's spectators the ``room`` message now (built once for all)."""
        waiting = self._batched.pop(room.id, None)
        if waiting is None and not now:
            return
        if waiting is not None:
            waiting[1].cancel()
        text = json.dumps(room.room_message(None, False, self.connected(room), self.away_left(room)),
                          separators=(",", ":"))
        for c in self.conns.get(room.id, ()):
            if c.hello and c.seat is None and not c.host:
                c.send_text(text)

    def room_msg(self, room: Room, conn: Conn | None = None) -> JsonDict:
        """The ``room`` message for one client (``None``: a spectator without the host's
        credential)."""
        return room.room_message(None if conn is None else conn.seat, conn is not None and conn.host,
                                 self.connected(room), self.away_left(room))

    def tell(self, room: Room, msg: JsonDict) -> None:
        """Send every client of the room that said hello one message."""
        if room.id in self._batched:
            self.flush(room)
        for c in self.conns.get(room.id, ()):
            if c.hello:
                c.send(msg)

    def notice(self, room: Room, message: str) -> None:
        """Tell everyone in the room something that happened (``notice``)."""
        self.tell(room, {"type": "notice", "message": message})

    def send_table(self, room: Room, conn: Conn) -> None:
        """Send one client its ``table`` (if a game was dealt)."""
        text = room.table_text(conn.seat)
        if text is not None:
            conn.send_text(text)

    def broadcast_table(self, room: Room) -> None:
        """Send everyone in the room its ``table`` message."""
        if room.id in self._batched:
            self.flush(room)
        for c in self.conns.get(room.id, ()):
            if c.hello:
                self.send_table(room, c)
