"""What a message handler may ask of the table: the narrow interface between the
handlers (:mod:`.seating`, :mod:`~cardtable.play`, :mod:`~cardtable.coach`) and the server that runs them.

:class:`Table` is a :class:`typing.Protocol`: :class:`~.server.Server` is one, and so is
any stand-in a test builds; the handlers import this module, never the server's.
"""

from __future__ import annotations

from typing import Protocol

from .connection import Conn
from .presence import Host, Presence
from .room import Room
from .types import JsonDict


class Table(Host, Protocol):
    """The rooms, their connections and the changes a handler makes (see :class:`~.presence.Host`
    for those the timers need too)."""

    @property
    def presence(self) -> Presence: ...

    def room_msg(self, room: Room, conn: Conn | None = None) -> JsonDict:
        """The ``room`` message for one client."""

    def send_table(self, room: Room, conn: Conn) -> None:
        """Send one client its ``table`` (if a game was dealt)."""

    def broadcast_table(self, room: Room) -> None:
        """Send everyone in the room its ``table`` message."""

    def resend_coach(self, room: Room, seat: int) -> None:
        """A client of ``seat`` (re)joined or switched the coach on: ask again."""
