"""Nobody stalls a game: the host role, absent people's seats and the turn clock.

* **The host role passes on.**  When the last connection holding the host's credential
  closes, and the host has not come back within ``--host-grace`` (15 s), the role passes to
  the person in the lowest seat who is connected: a new host credential is sent to them
  (``host``), the old one stops working, and everyone is told (``notice``).  With nobody
  seated and connected it passes to the first person who comes.
* **An absent person's seat is played by a computer** after the room's ``away_seconds``
  (60 s by default) without a connection to it during a game; the ``room`` message shows
  the countdown (``seats[i].away``).  The seat stays theirs: their token takes it back
  (opening the room's link again does).
* **The turn clock** (the room's ``turn_seconds``; off by default): a person to move has
  that long (``clock`` messages); when it runs out the computer plays that one move for
  them at the seat's level, and after :data:`~.room.MAX_TIMEOUTS` in a row it plays their
  seat until they take it back.

Everything runs on the event loop: timers are ``loop.call_later`` handles, checked against
the room's position when they fire (a timer that fires for a position that has moved on
does nothing).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import Protocol

from .connection import Conn
from .room import MAX_TIMEOUTS, Memo, Room, RoomError, new_token
from .settings import Settings
from .types import JsonDict, Record

log = logging.getLogger("cardtable")

#: seconds before a failed takeover (a write that failed) is tried again
RETRY_SECONDS = 2.0
#: how the words to a former host begin (a notice, not an error: nothing went wrong)
FORMER_HOST = "you were the host"


@dataclass
class Clock:
    """The running clock of a room: whose turn, at which position, until when."""

    handle: asyncio.TimerHandle
    deadline: float  # loop time
    seat: int
    index: int
    step: int


class Host(Protocol):
    """What the timers need of the server (:class:`~.server.Server` is one): its rooms and
    their connections, and the few changes a timer makes to a room."""

    @property
    def settings(self) -> Settings: ...

    @property
    def rooms(self) -> dict[str, Room]: ...

    @property
    def conns(self) -> dict[str, set[Conn]]: ...

    def connected(self, room: Room) -> list[int]:
        """How many clients are connected to each seat."""

    def commit(self, room: Room, memo: Memo, move: bool = False,
               record: Record | None = None, prune_moves: bool = False) -> None:
        """Save the room (``RoomError``, the change undone, when the write fails)."""

    def unseat(self, room: Room, seat: int, host_leaves: bool = False) -> None:
        """A computer plays the seat from now on."""

    def notice(self, room: Room, message: str) -> None:
        """Tell everyone in the room something."""

    def broadcast_room(self, room: Room) -> None:
        """Send everyone in the room its ``room`` message."""

    def kick(self, room: Room) -> None:
        """Go on: a computer to move thinks, a clock runs."""

    def spawn(self, coro: Awaitable[None]) -> asyncio.Task[None]:
        """Run a task the server keeps."""

    async def think(self, room: Room, seat: int, level: str) -> int:
        """A computer's move for the current position."""

    def play_move(self, room: Room, seat: int, action: object) -> None:
        """Apply, save and tell a move."""


class Presence:
    """The timers of one server's rooms (see the module's docstring)."""

    def __init__(self, server: Host) -> None:
        self.server = server
        #: room -> seat -> (timer, loop time at which a computer takes the seat)
        self.away: dict[str, dict[int, tuple[asyncio.TimerHandle, float]]] = {}
        #: room -> its turn clock
        self.clocks: dict[str, Clock] = {}
        #: room -> loop time since which no connection holds the host's credential
        self.host_gone: dict[str, float] = {}
        self.host_timers: dict[str, asyncio.TimerHandle] = {}
        #: room -> host credentials the role has passed on from (kept while the server runs)
        self.former: dict[str, set[str]] = {}

    @staticmethod
    def _now() -> float:
        return asyncio.get_running_loop().time()

    # ------------------------------------------------------------------ absent people
    def away_left(self, room: Room) -> dict[int, float]:
        """Seconds left before a computer plays each absent person's seat."""
        timers = self.away.get(room.id)
        if not timers:
            return {}
        now = self._now()
        return {seat: deadline - now for seat, (_, deadline) in timers.items()}

    def check_away(self, room: Room) -> None:
        """Start the countdown of every person's seat with nobody connected to it during a
        game; stop the others (call after any change of seats, connections or status)."""
        connected = self.server.connected(room)
        loop = asyncio.get_running_loop()
        timers = self.away.setdefault(room.id, {})
        for seat, s in enumerate(room.seats):
            absent = room.status == "playing" and s.person and connected[seat] == 0
            timer = timers.get(seat)
            if absent and timer is None:
                handle = loop.call_later(room.away_seconds, self._away_over, room, seat)
                timers[seat] = (handle, loop.time() + room.away_seconds)
            elif not absent and timer is not None:
                timer[0].cancel()
                del timers[seat]
        if not timers:
            del self.away[room.id]

    def _away_over(self, room: Room, seat: int) -> None:
        timers = self.away.get(room.id, {})
        timers.pop(seat, None)
        if not timers:
            self.away.pop(room.id, None)
        srv = self.server
        if (srv.rooms.get(room.id) is not room or room.status != "playing" or not room.seats[seat].person
                or srv.connected(room)[seat]):
            return
        name = room.seat_name(seat)
        try:
            srv.unseat(room, seat)
        except RoomError as err:  # not saved: try again in a moment
            log.error("room %s: seat %d could not go to a computer: %s", room.id, seat, err)
            handle = asyncio.get_running_loop().call_later(RETRY_SECONDS, self._away_over, room, seat)
            self.away.setdefault(room.id, {})[seat] = (handle, self._now() + RETRY_SECONDS)
            return
        srv.notice(room, f"{name} has been away for {room.away_seconds} s: a computer plays their seat "
                         "until they come back (their link takes it back)")
        srv.broadcast_room(room)
        srv.kick(room)

    # ------------------------------------------------------------------ the turn clock
    def check_clock(self, room: Room) -> None:
        """Run the clock of the person to move (when the room has one); stop a clock whose
        position has moved on (call after every move, deal and change of seats)."""
        p = room.play
        seat = room.current()
        want = (room.turn_seconds is not None and p is not None and seat >= 0 and room.seats[seat].person)
        clock = self.clocks.get(room.id)
        if clock is not None and (not want or p is None or (clock.seat, clock.index, clock.step)
                                  != (seat, p.index, p.step)):
            clock.handle.cancel()
            del self.clocks[room.id]
            clock = None
        if want and clock is None:
            assert p is not None and room.turn_seconds is not None
            loop = asyncio.get_running_loop()
            handle = loop.call_later(room.turn_seconds, self._time_over, room, seat, p.index, p.step)
            self.clocks[room.id] = Clock(handle, loop.time() + room.turn_seconds, seat, p.index, p.step)
            msg = self.clock_message(room)
            for c in self.server.conns.get(room.id, ()):
                if c.hello:
                    c.send(msg)

    def clock_message(self, room: Room) -> JsonDict:
        """The ``clock`` message: whose turn is timed and the seconds left (``seat`` null:
        no clock runs)."""
        clock = self.clocks.get(room.id)
        if clock is None:
            return {"type": "clock", "seat": None, "left": None, "seconds": room.turn_seconds,
                    "step": None, "game_index": None}
        return {"type": "clock", "seat": clock.seat, "left": round(max(0.0, clock.deadline - self._now()), 1),
                "seconds": room.turn_seconds, "step": clock.step, "game_index": clock.index}

    def _time_over(self, room: Room, seat: int, index: int, step: int) -> None:
        clock = self.clocks.get(room.id)
        if clock is not None and (clock.seat, clock.index, clock.step) == (seat, index, step):
            del self.clocks[room.id]
        self.server.spawn(self._play_for(room, seat, index, step))

    def _still(self, room: Room, seat: int, index: int, step: int) -> bool:
        p = room.play
        return (self.server.rooms.get(room.id) is room and room.status == "playing" and p is not None
                and p.index == index and p.step == step and room.current() == seat
                and room.seats[seat].person)

    async def _play_for(self, room: Room, seat: int, index: int, step: int) -> None:
        """The clock ran out: the computer plays this move for the person (at the seat's
        level); the third time in a row it plays their seat until they take it back."""
        srv = self.server
        if not self._still(room, seat, index, step):
            return
        name = room.seat_name(seat)
        s = room.seats[seat]
        if s.timeouts + 1 >= MAX_TIMEOUTS:
            try:
                srv.unseat(room, seat)
            except RoomError as err:
                log.error("room %s: seat %d could not go to a computer: %s", room.id, seat, err)
                return
            srv.notice(room, f"{name}'s time ran out {MAX_TIMEOUTS} turns in a row: a computer plays their "
                             "seat until they take it back")
            srv.broadcast_room(room)
            srv.kick(room)
            return
        action = await srv.think(room, seat, room.default_level)  # a person's seat: the room's level
        if not self._still(room, seat, index, step):
            return
        s.timeouts += 1  # saved with the move
        try:
            srv.play_move(room, seat, action)
        except RoomError as err:
            s.timeouts -= 1
            log.error("room %s: the move for %s whose time ran out was not played: %s", room.id, name, err)
            return
        log_ = room.play.log if room.play is not None else []
        move = log_[-1].get("others", "played") if log_ else "played"
        srv.notice(room, f"{name}'s time ran out: the computer {move} for them")

    # ------------------------------------------------------------------ the host
    def not_host(self, room: Room, host_token: str) -> str:
        """What a client whose host token is not the room's is told: who the host is now
        (a former host: that the role passed on, :data:`FORMER_HOST`)."""
        host = "nobody seated" if room.host_seat is None else room.seat_name(room.host_seat)
        if host_token in self.former.get(room.id, ()):
            return (f"{FORMER_HOST}; {host} is the host now (the role passes on when the host is away "
                    f"for {self.server.settings.host_grace:g} s): you play or watch as before")
        return f"that host link is not this room's: you are not the host ({host} is the host)"

    def host_here(self, room: Room) -> None:
        """A connection holding the host's credential is here."""
        self.host_gone.pop(room.id, None)
        timer = self.host_timers.pop(room.id, None)
        if timer is not None:
            timer.cancel()

    def host_left(self, room: Room, since: float | None = None) -> None:
        """No connection holds the host's credential any more: after the grace, the role
        passes on (:meth:`hand_over`)."""
        if room.id in self.host_gone:
            return
        self.host_gone[room.id] = self._now() if since is None else since
        self._schedule_host(room)

    def _schedule_host(self, room: Room) -> None:
        if room.id in self.host_timers:
            return
        wait = max(0.0, self.host_gone[room.id] + self.server.settings.host_grace - self._now())
        self.host_timers[room.id] = asyncio.get_running_loop().call_later(wait, self._host_check, room)

    def _host_check(self, room: Room) -> None:
        self.host_timers.pop(room.id, None)
        self.hand_over(room)

    def hand_over(self, room: Room) -> None:
        """If the host has been gone for the grace, pass the role to the connected person in
        the lowest seat (none: the next who comes, see the callers)."""
        since = self.host_gone.get(room.id)
        srv = self.server
        if since is None or srv.rooms.get(room.id) is not room:
            return
        if self._now() - since < srv.settings.host_grace:
            self._schedule_host(room)
            return
        conns = srv.conns.get(room.id, set())
        seats = sorted({c.seat for c in conns if c.seat is not None and room.seats[c.seat].person})
        if not seats:
            return  # nobody to pass it to yet: the first person who sits or comes back gets it
        seat = seats[0]
        old = room.host_seat
        memo = room.memo()
        self.former.setdefault(room.id, set()).add(room.host_token)
        token = room.host_token = new_token()
        room.host_seat = seat
        try:
            srv.commit(room, memo)
        except RoomError as err:
            log.error("room %s: the host role could not pass on: %s", room.id, err)
            self.host_timers[room.id] = asyncio.get_running_loop().call_later(RETRY_SECONDS, self._host_check,
                                                                              room)
            return
        self.host_gone.pop(room.id, None)
        for c in conns:
            c.host = c.seat == seat
            if c.host:
                c.send({"type": "host", "host_token": token})
        old_name = None if old is None or old == seat else room.seats[old].name or room.seat_name(old)
        was = f"{old_name} (the host) left" if old_name else "The host left"
        srv.notice(room, f"{was}: {room.seat_name(seat)} is the host now")
        srv.broadcast_room(room)
        log.info("room %s: the host role passed to seat %d", room.id, seat)

    # ------------------------------------------------------------------ lifecycle
    def forget(self, room: Room) -> None:
        """Stop every timer of a room (it expired)."""
        for handle, _ in self.away.pop(room.id, {}).values():
            handle.cancel()
        clock = self.clocks.pop(room.id, None)
        if clock is not None:
            clock.handle.cancel()
        self.former.pop(room.id, None)
        self.host_here(room)

    def close(self) -> None:
        """Stop every timer."""
        for timers in self.away.values():
            for handle, _ in timers.values():
                handle.cancel()
        for clock in self.clocks.values():
            clock.handle.cancel()
        for timer in self.host_timers.values():
            timer.cancel()
        self.away.clear()
        self.clocks.clear()
        self.host_timers.clear()
