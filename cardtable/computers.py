"""The computer players: each room whose computer seat is to move has one driver task,
which asks the :class:`~.workers.Pool` for a move and plays it if the position it asked
about is still the one on the table.

People come first (:class:`Scheduler`): a computer's move is thought out and applied only
when it gets a turn, the computers of all rooms queue for their turns in the order they
asked (a room that just moved goes to the back), at most one search per worker process is in
flight (nothing waits queued inside a worker, where no one could reorder it), and the
computers' moves in flight in all shrink whenever the event loop runs late, which is when a
person's move waits: the loop answers people and the workers stop taking the cores they
need (``docs/cardtable/load.md``).  A person's move, a coach's advice and a move played for
a person whose time ran out never wait for a turn.
"""

from __future__ import annotations

import asyncio
import collections
import logging
import secrets
from types import TracebackType
from typing import cast

from . import catalog
from .ports import Table
from .room import Room, RoomError
from .workers import INLINE, THREADS, Job, Pool

log = logging.getLogger("cardtable")

#: seconds a computer waits before trying again a move that could not be saved
RETRY_SECONDS = 1.0
#: computer moves applied per pass of the event loop (keeps people's latency low under load)
BOT_MOVES_PER_PASS = 1
#: computer moves in flight at once on the server's threads (the light levels) and inline
#: (``random``), at most; a worker process takes one at a time
THREAD_TURNS, INLINE_TURNS = 4, 8
#: seconds between two looks at how late the event loop runs
TICK = 0.01
#: how late the event loop may run, in seconds, before people wait: past it the computers'
#: turns in flight are halved (down to one, so the computers never stop)
LAG_HIGH = 0.003
#: a loop under this lateness, in seconds, for ``CALM_TICKS`` looks in a row lets one more turn in
LAG_LOW = 0.0015
#: looks in a row under ``LAG_LOW`` before one more turn is let in
CALM_TICKS = 10


class Turn:
    """One computer's turn (``async with``): held while it thinks and plays;
    :meth:`release` gives it back early (before a pause of ``--bot-delay``)."""

    def __init__(self, scheduler: Scheduler, room: str, lane: int) -> None:
        self.scheduler, self.room, self.lane = scheduler, room, lane
        self.held = False

    async def __aenter__(self) -> Turn:
        await self.scheduler.take(self.room, self.lane)
        self.held = True
        return self

    def release(self) -> None:
        if self.held:
            self.held = False
            self.scheduler.done(self.lane)

    async def __aexit__(self, kind: type[BaseException] | None, err: BaseException | None,
                        tb: TracebackType | None) -> None:
        self.release()


class Scheduler:
    """People first: the computers' turns to think and play (see the module's docstring).

    ``caps``: lane (:meth:`~.workers.Pool.lane`) -> turns in flight there at most.  Each lane
    serves its waiting rooms first come, first served (a room has one driver, so it waits
    once: the rooms take turns); :attr:`limit` bounds the turns in flight in all, and
    :meth:`observe` sets it from the event loop's lag: halved when the loop runs
    :data:`LAG_HIGH` late, one more when it ran under :data:`LAG_LOW` :data:`CALM_TICKS` times
    in a row, between 1 (where it starts) and the sum of the caps.
    """

    def __init__(self, caps: dict[int, int]) -> None:
        self.caps = dict(caps)
        self.most = sum(self.caps.values())
        #: turns in flight in all, at most (set by :meth:`observe`): one at first, more while
        #: the loop keeps time (a start with every search at once delayed the first moves)
        self.limit = 1
        #: looks at the loop in a row that found it on time
        self.calm = 0
        #: turns in flight: per lane, and in all
        self.busy = dict.fromkeys(self.caps, 0)
        self.in_flight = 0
        #: per lane, the rooms waiting for a turn, in the order they asked
        self.waiting: dict[int, collections.deque[tuple[str, asyncio.Future[None]]]] = {
            lane: collections.deque() for lane in self.caps}
        #: lanes in the order they are next served when a turn frees (rotated)
        self._order = list(self.caps)
        #: turns given, for tests and the load doc: (room, lane), oldest first (the last 1000)
        self.given: collections.deque[tuple[str, int]] = collections.deque(maxlen=1000)

    def queued(self) -> int:
        """Rooms waiting for a turn."""
        return sum(len(q) for q in self.waiting.values())

    def _free(self, lane: int) -> bool:
        return self.in_flight < self.limit and self.busy[lane] < self.caps[lane]

    def _give(self, room: str, lane: int) -> None:
        self.busy[lane] += 1
        self.in_flight += 1
        self.given.append((room, lane))

    async def take(self, room: str, lane: int) -> None:
        """Wait for ``room``'s turn in ``lane`` (at once when one is free and nobody waits)."""
        if not self.waiting[lane] and self._free(lane):
            self._give(room, lane)
            return
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.waiting[lane].append((room, fut))
        try:
            await fut
        except asyncio.CancelledError:
            if fut.done() and not fut.cancelled():  # given, then cancelled: give it back
                self.done(lane)
            else:
                self.waiting[lane] = collections.deque(w for w in self.waiting[lane] if w[1] is not fut)
            raise

    def done(self, lane: int) -> None:
        """A turn in ``lane`` ended: give the next ones."""
        self.busy[lane] -= 1
        self.in_flight -= 1
        self._next()

    def _next(self) -> None:
        """Give free turns to the first waiting room of each lane, lane after lane."""
        given = True
        while given and self.in_flight < self.limit:
            given = False
            for _ in range(len(self._order)):
                lane = self._order.pop(0)
                self._order.append(lane)
                queue = self.waiting[lane]
                while queue and queue[0][1].done():  # cancelled meanwhile
                    queue.popleft()
                if queue and self._free(lane):
                    room, fut = queue.popleft()
                    self._give(room, lane)
                    fut.set_result(None)
                    given = True
                    break

    def observe(self, lag: float) -> None:
        """The event loop ran ``lag`` seconds late: fewer turns in flight, or more."""
        if lag > LAG_HIGH:
            self.limit = max(1, self.limit // 2)
            self.calm = 0
        elif lag < LAG_LOW:
            self.calm += 1
            if self.calm >= CALM_TICKS and self.limit < self.most:
                self.calm = 0
                self.limit += 1
                self._next()

    def turn(self, room: str, lane: int) -> Turn:
        """``async with scheduler.turn(room, lane):`` one computer's turn."""
        return Turn(self, room, lane)


def prev_step(room: Room, seat: int) -> int:
    """The step of ``seat``'s previous decision in the room's game (-1: none)."""
    assert room.play is not None
    movers = room.play.movers
    for i in range(len(movers) - 1, -1, -1):
        if movers[i] == seat:
            return i
    return -1


def job(room: Room, kind: str, seat: int, level: str) -> Job:
    """The pool's job for the current position of ``room`` seen from ``seat``."""
    p = room.play
    assert p is not None
    return Job(kind=kind, room=room.id, game_index=p.index, env=room.env, num_players=room.num_players,
               options=catalog.options_key(room.options), seat=seat, level=level, seed=p.seed,
               step=p.step, prev_step=prev_step(room, seat), view=room.game.view(p.state, seat),
               legal=list(room.game.legal_actions(p.state)), ids=list(p.ids), names=tuple(room.names()))


class Computers:
    """The driver tasks of one server's computer seats."""

    def __init__(self, table: Table, pool: Pool, bot_delay: float) -> None:
        self.table = table
        self.pool = pool
        self.bot_delay = bot_delay
        #: room -> the task playing its computer seats
        self.drivers: dict[str, asyncio.Task[None]] = {}
        #: computer moves applied per pass of the event loop, at most
        self.gate = asyncio.Semaphore(BOT_MOVES_PER_PASS)
        caps = {lane: 1 for lane in range(pool.workers)} | {THREADS: THREAD_TURNS, INLINE: INLINE_TURNS}
        #: the computers' turns, people first
        self.scheduler = Scheduler(caps)
        self._watch: asyncio.Task[None] | None = None

    def drive(self, room: Room) -> None:
        """Make sure a driver plays the room's computer seats."""
        task = self.drivers.get(room.id)
        if task is None or task.done():
            self.drivers[room.id] = asyncio.ensure_future(self._drive(room))
        if self._watch is None or self._watch.done():
            self._watch = asyncio.ensure_future(self._watch_lag())

    async def _watch_lag(self) -> None:
        """Every :data:`TICK`, tell the scheduler how late the event loop ran; end when no
        computer plays (:meth:`drive` starts it again)."""
        loop = asyncio.get_running_loop()
        while any(not t.done() for t in self.drivers.values()):
            before = loop.time()
            await asyncio.sleep(TICK)
            self.scheduler.observe(loop.time() - before - TICK)

    def stop(self, room: Room) -> None:
        """Stop the room's driver (it expired)."""
        task = self.drivers.pop(room.id, None)
        if task is not None:
            task.cancel()

    def _still(self, room: Room, seat: int, index: int, step: int, level: str) -> bool:
        p = room.play
        return (room.status == "playing" and p is not None and p.index == index and p.step == step
                and not room.seats[seat].person and room.current() == seat
                and room.seats[seat].level == level)

    async def _drive(self, room: Room) -> None:
        """Play the computer seats' turns, one at a time, paced by ``bot_delay``.

        Each move waits for its turn (:attr:`scheduler`: rooms in the order they asked, a
        search per worker, fewer in all while the loop runs late), held while it is thought
        out in the pool and applied on the loop behind :attr:`gate`, which lets only a few
        computer moves through per pass of the event loop, so people's messages are
        answered promptly even when many rooms of computer players run without pauses.
        """
        loop = asyncio.get_running_loop()
        while room.status == "playing":
            seat = room.current()
            if seat < 0 or room.seats[seat].person or self.table.rooms.get(room.id) is not room:
                return
            p = room.play
            assert p is not None
            step, index, level = p.step, p.index, room.seats[seat].level
            started = loop.time()
            async with self.scheduler.turn(room.id, self.pool.lane(room.id, level)) as turn:
                action: int | None = None  # random: chosen behind the gate
                if level != "random":
                    action = await self.think(room, seat, level)
                wait = self.bot_delay - (loop.time() - started)
                if wait > 0:  # paced: the pause holds no turn
                    turn.release()
                    await asyncio.sleep(wait)
                ok = await self._apply(room, seat, (index, step, level), action)
            if not ok:
                await asyncio.sleep(RETRY_SECONDS)

    async def _apply(self, room: Room, seat: int, asked: tuple[int, int, str], action: int | None) -> bool:
        """Play the move behind the gate if the table is still at the position it was asked
        about (else the driver thinks again about the new one); false if it could not be saved."""
        index, step, level = asked
        ok = True
        async with self.gate:
            if self._still(room, seat, index, step, level):
                if action is None:
                    action = await self.think(room, seat, level)  # random: at once, inline
                try:
                    self.table.play_move(room, seat, action)
                except RoomError as err:  # not saved, so not played: think again in a while
                    log.error("room %s: the computer's move was not played: %s", room.id, err)
                    ok = False
            await asyncio.sleep(0)  # hold the gate for one pass of the loop
        return ok

    async def think(self, room: Room, seat: int, level: str) -> int:
        """A computer's move for the current position (a random legal move if it fails)."""
        j = job(room, "move", seat, level)
        try:
            return int(cast(int, await self.pool.run(j)))  # a move job's answer: an action id
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("computer player failed in room %s; it plays a random move", room.id)
            return j.legal[secrets.randbelow(len(j.legal))]

    def tasks(self) -> list[asyncio.Task[None]]:
        """The driver tasks and the lag's watch (cancelled at shutdown)."""
        return list(self.drivers.values()) + ([self._watch] if self._watch is not None else [])
