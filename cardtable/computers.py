"""The computer players: each room whose computer seat is to move has one driver task,
which asks the :class:`~.workers.Pool` for a move and plays it if the position it asked
about is still the one on the table."""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import Any

from . import catalog
from .ports import Table
from .room import Room, RoomError
from .workers import Job, Pool

log = logging.getLogger("cardtable")

#: seconds a computer waits before trying again a move that could not be saved
RETRY_SECONDS = 1.0
#: computer moves applied per pass of the event loop (keeps people's latency low under load)
BOT_MOVES_PER_PASS = 1


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
               legal=list(room.game.legal_actions(p.state)), ids=list(p.ids))


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

    def drive(self, room: Room) -> None:
        """Make sure a driver plays the room's computer seats."""
        task = self.drivers.get(room.id)
        if task is None or task.done():
            self.drivers[room.id] = asyncio.ensure_future(self._drive(room))

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

        Thinking happens in the pool; applying a move happens on the loop behind
        :attr:`gate`, which lets only a few computer moves through per pass of the event
        loop, so people's messages are answered promptly even when many rooms of computer
        players run without pauses.
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
            action: Any = None
            if level != "random":
                action = await self.think(room, seat, level)
            wait = self.bot_delay - (loop.time() - started)
            if wait > 0:
                await asyncio.sleep(wait)
            if not await self._apply(room, seat, (index, step, level), action):
                await asyncio.sleep(RETRY_SECONDS)

    async def _apply(self, room: Room, seat: int, asked: tuple[int, int, str], action: Any) -> bool:
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
            return int(await self.pool.run(j))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("computer player failed in room %s; it plays a random move", room.id)
            return j.legal[secrets.randbelow(len(j.legal))]

    def tasks(self) -> list[asyncio.Task[None]]:
        """The driver tasks (cancelled at shutdown)."""
        return list(self.drivers.values())
