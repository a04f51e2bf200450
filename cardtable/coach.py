"""The coach: a person who switches it on (``coach``) is sent the planner's advice on each of
their decisions (``coach`` messages), asked once per decision, in the pool."""

from __future__ import annotations

import logging

from .computers import job
from .connection import Conn
from .ports import Table
from .room import Room, RoomError
from .types import JsonDict, Message
from .workers import Pool

log = logging.getLogger("cardtable")


class Coaches:
    """The coaches asked in one server's rooms."""

    def __init__(self, table: Table, pool: Pool) -> None:
        self.table = table
        self.pool = pool
        #: (room, seat) -> the (game index, step) its coach was last asked about
        self.coaching: dict[tuple[str, int], tuple[int, int]] = {}

    def ask(self, room: Room, seat: int) -> None:
        """Ask the seat's coach about the current decision (once per decision)."""
        p = room.play
        if p is None:
            return
        key = (room.id, seat)
        if self.coaching.get(key) == (p.index, p.step):
            return
        self.coaching[key] = (p.index, p.step)
        self.table.spawn(self._coach(room, seat, p.index, p.step))

    async def _coach(self, room: Room, seat: int, index: int, step: int) -> None:
        j = job(room, "coach", seat, "planner")
        try:
            advice = await self.pool.run(j)
        except Exception:
            log.exception("coach failed in room %s", room.id)
            self.coaching.pop((room.id, seat), None)
            return
        p = room.play
        if p is None or p.index != index or p.step != step or not room.seats[seat].coach:
            self.coaching.pop((room.id, seat), None)
            return
        msg: JsonDict = {"type": "coach", "advice": advice, "step": step}
        for c in self.table.conns.get(room.id, ()):
            if c.seat == seat:
                c.send(msg)

    def resend(self, room: Room, seat: int) -> None:
        """A client of ``seat`` (re)joined or switched the coach on: ask again."""
        self.coaching.pop((room.id, seat), None)
        if room.current() == seat and room.seats[seat].person and room.seats[seat].coach:
            self.ask(room, seat)

    def forget(self, room: Room) -> None:
        """Forget what the room's coaches were asked (it expired)."""
        for seat in range(room.num_players):
            self.coaching.pop((room.id, seat), None)


def on_coach(t: Table, room: Room, conn: Conn, msg: Message) -> None:
    """Switch this seat's coach on or off.  Not written to the file by itself: the switch
    is saved with the room's next change (a client switches it on again when it comes
    back), so toggling costs no write."""
    if conn.seat is None:
        raise RoomError("only a seated person has a coach; sit first")
    on = bool(msg["on"])
    if room.seats[conn.seat].coach != on:
        room.seats[conn.seat].coach = on
        t.broadcast_room(room)
    if on:
        t.resend_coach(room, conn.seat)
