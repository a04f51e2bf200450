"""The running table: its rooms, their connections, the store, the pool and the timers.

One :class:`Server` is made per application (:func:`~.app.create_app`) when it starts.
Everything that changes a room runs on the event loop, one message at a time, and is saved
before anyone is told of it; computer players (:mod:`.computers`) and coaches
(:mod:`~cardtable.coach`) think in the pool and their answers are applied only if the position they
were asked about is still the one on the table.  The messages are checked and dispatched by
:mod:`.protocol` to handlers that see the server only as a :class:`~.ports.Table`.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import time
from collections.abc import Awaitable
from pathlib import Path
from typing import TypedDict

from . import persistence, play, seating
from .coach import Coaches
from .computers import Computers
from .connection import Conn
from .hub import Hub
from .lifecycle import Quotas, idle, new_room, room_request
from .presence import Presence
from .records import Replay
from .room import Memo, Room
from .settings import Settings
from .store import Store
from .types import JsonDict, Record
from .workers import Pool

log = logging.getLogger("cardtable")

#: finished games' replays a server keeps built (least recently used go first)
REPLAYS_KEPT = 16


class NewRoom(TypedDict):
    """A room just made (``POST /api/rooms``'s answer): its id, the host's credential, its link."""

    room: str
    host_token: str
    link: str


class Server:
    """Rooms, connections, the store and the pool of one running table."""

    def __init__(self, data: str | Path, bot_delay: float = 0.6, workers: int = 0,
                 settings: Settings | None = None) -> None:
        self.settings = settings or Settings()
        self.store = Store(data)
        self.bot_delay = bot_delay
        self.pool = Pool(workers, nice=self.settings.worker_nice)
        self._tasks: set[asyncio.Task[None]] = set()
        #: the host role, absent people's seats, the turn clock
        self.presence = Presence(self)
        self.hub = Hub(self.presence.away_left)
        self.computers = Computers(self, self.pool, bot_delay)
        self.coaches = Coaches(self, self.pool)
        self.quotas = Quotas(self.settings)
        #: replays of finished games, built on demand: (room, game index) -> Replay
        self.replays: collections.OrderedDict[tuple[str, int], Replay] = collections.OrderedDict()
        self._replay_lock = asyncio.Lock()
        #: rooms whose saved row could not be loaded: id -> what went wrong (their links say so)
        self.rooms, self.broken = persistence.load_rooms(self.store)
        for room_id in self.rooms:
            self.conns[room_id] = set()

    # --------------------------------------------------------------- what tests and pages read
    @property
    def conns(self) -> dict[str, set[Conn]]:
        """room -> its open connections"""
        return self.hub.conns

    @property
    def open_conns(self) -> int:
        """WebSocket connections open in all."""
        return self.hub.open_conns

    @property
    def by_address(self) -> dict[str, int]:
        """WebSocket connections open per client address."""
        return self.hub.by_address

    async def replay(self, room_id: str, index: int, record: Record) -> Replay:
        """The replay of a finished game (built once off the event loop, then kept while it
        is among the :data:`REPLAYS_KEPT` latest used); ``ValueError`` if it does not replay."""
        key = (room_id, index)
        async with self._replay_lock:  # one build at a time: a burst of requests builds once
            found = self.replays.get(key)
            if found is None:
                found = await asyncio.to_thread(Replay, record)
                self.replays[key] = found
                while len(self.replays) > REPLAYS_KEPT:
                    self.replays.popitem(last=False)
            self.replays.move_to_end(key)
            return found

    # --------------------------------------------------------------- lifecycle
    async def startup(self) -> None:
        """Resume every room whose computer player is to move; look for idle rooms now and
        then."""
        now = asyncio.get_running_loop().time()
        for room in self.rooms.values():
            self.presence.host_gone[room.id] = now  # nobody is here yet: see Presence.hand_over
            self.presence.check_away(room)
            self.kick(room)
        self.spawn(self._sweep_loop())

    async def _sweep_loop(self) -> None:
        while True:
            await asyncio.sleep(self.settings.sweep_seconds)
            try:
                self.sweep()
            except Exception:  # a sweep that fails must not end the sweeping
                log.exception("the sweep for idle rooms failed")

    def sweep(self, now: float | None = None) -> list[str]:
        """Expire the rooms idle for too long (nobody connected, nothing played: see
        :class:`~.settings.Settings`); forget old room-creation counts.  Returns the rooms
        expired."""
        now = time.time() if now is None else now
        gone = []
        for room in list(self.rooms.values()):
            if not self.conns.get(room.id) and idle(room, self.settings, now):
                self.expire(room)
                gone.append(room.id)
        self.quotas.forget_old()
        return gone

    def expire(self, room: Room) -> None:
        """Forget an idle room: its row and its current game's moves are deleted; its
        finished games' records stay (export, and the room's record links); its link says it
        expired."""
        if not persistence.expire(self.store, room):
            return
        self.computers.stop(room)
        self.presence.forget(room)
        self.rooms.pop(room.id, None)
        self.conns.pop(room.id, None)
        self.coaches.forget(room)
        log.info("room %s expired after %.0f s idle (%d finished games kept)", room.id,
                 time.time() - room.active, room.games_played)

    async def shutdown(self) -> None:
        """Stop the computer players, the timers and the pool; close the file."""
        self.presence.close()
        tasks = self.computers.tasks() + list(self._tasks)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        self.pool.close()
        self.store.close()

    def spawn(self, coro: Awaitable[None]) -> asyncio.Task[None]:
        """Run ``coro`` as a task the server keeps (cancelled at shutdown)."""
        task: asyncio.Task[None] = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    # --------------------------------------------------------------- rooms
    def create_room(self, body: object, address: str = "?") -> NewRoom:
        """``POST /api/rooms`` from a client ``address``: a new room (``ValueError`` with what
        is allowed; :class:`~.lifecycle.Refused` over a quota;
        :class:`~.persistence.StorageFailed`)."""
        request = room_request(body)
        if len(self.rooms) >= self.settings.max_rooms:
            self.sweep()
        self.quotas.check(address, len(self.rooms), self.rooms)
        room = new_room(request, self.rooms)
        persistence.save_new(self.store, room)
        self.quotas.took(address, room)
        self.rooms[room.id] = room
        self.conns[room.id] = set()
        return {"room": room.id, "host_token": room.host_token, "link": f"/room/{room.id}"}

    def commit(self, room: Room, memo: Memo, move: bool = False,
               record: Record | None = None, prune_moves: bool = False) -> None:
        """Write the room as it is now (:func:`~.persistence.commit`: undone, ``RoomError``,
        when the write fails)."""
        persistence.commit(self.store, room, memo, move, record, prune_moves)

    # --------------------------------------------------------------- what the handlers use
    def connected(self, room: Room) -> list[int]:
        """How many clients are connected to each seat."""
        return self.hub.connected(room)

    def broadcast_room(self, room: Room) -> None:
        """Send everyone in the room its ``room`` message."""
        self.hub.broadcast_room(room)

    def room_msg(self, room: Room, conn: Conn | None = None) -> JsonDict:
        """The ``room`` message for one client (``None``: a spectator without the host's
        credential)."""
        return self.hub.room_msg(room, conn)

    def notice(self, room: Room, message: str) -> None:
        """Tell everyone in the room something that happened (``notice``)."""
        self.hub.notice(room, message)

    def send_table(self, room: Room, conn: Conn) -> None:
        """Send one client its ``table`` (if a game was dealt)."""
        self.hub.send_table(room, conn)

    def broadcast_table(self, room: Room) -> None:
        """Send everyone in the room its ``table`` message."""
        self.hub.broadcast_table(room)

    def unseat(self, room: Room, seat: int, host_leaves: bool = False) -> None:
        """A computer plays ``seat`` from now on (:func:`~.seating.unseat`)."""
        seating.unseat(self, room, seat, host_leaves)

    def play_move(self, room: Room, seat: int, action: object) -> None:
        """Apply a checked move, save it, tell everyone, go on (:func:`~.play.play_move`)."""
        play.play_move(self, room, seat, action)

    def kick(self, room: Room) -> None:
        """Make sure a computer player is thinking if one is to move, and that the coach of
        a person to move is asked; run the clock of a person to move."""
        self.presence.check_clock(room)
        seat = room.current()
        if seat < 0:
            return
        if not room.seats[seat].person:
            self.computers.drive(room)
        elif room.seats[seat].coach:
            self.coaches.ask(room, seat)

    async def think(self, room: Room, seat: int, level: str) -> int:
        """A computer's move for the current position (a random legal move if it fails)."""
        return await self.computers.think(room, seat, level)

    def resend_coach(self, room: Room, seat: int) -> None:
        """A client of ``seat`` (re)joined or switched the coach on: ask again."""
        self.coaches.resend(room, seat)
