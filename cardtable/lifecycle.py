"""A room's life: its request checked (``POST /api/rooms``), the quotas on making rooms, and
which rooms are idle long enough to expire (:class:`~.settings.Settings`)."""

from __future__ import annotations

import collections
import secrets
import time
from collections.abc import Container, Mapping
from dataclasses import dataclass

from . import catalog
from .room import TIME_SETTINGS, Room, check_time_settings, new_token
from .settings import HOUR, Settings
from .types import JsonDict

#: the fields of a room request (``POST /api/rooms``)
ROOM_FIELDS = ("game", "num_players", "options", "level", *TIME_SETTINGS)


class Refused(RuntimeError):
    """A request over a quota: answered ``status`` with the message, ``Retry-After: retry``."""

    def __init__(self, status: int, message: str, retry: int) -> None:
        super().__init__(message)
        self.status = status
        self.retry = retry


@dataclass(frozen=True)
class RoomRequest:
    """A checked room request: the game, its seats and options, the computers' level and
    the room's time settings."""

    env: str
    num_players: int
    options: JsonDict
    level: str
    times: dict[str, int | None]


def room_request(body: object) -> RoomRequest:
    """The room a request asks for (``ValueError`` with what is allowed)."""
    if isinstance(body, dict):
        unknown = sorted(set(body) - set(ROOM_FIELDS))
        if unknown:
            raise ValueError(f"unknown field(s) {', '.join(unknown)[:200]}; the fields are "
                             f"{', '.join(ROOM_FIELDS)}")
        times = check_time_settings({k: body[k] for k in TIME_SETTINGS if k in body})
        body = {k: v for k, v in body.items() if k not in TIME_SETTINGS}
    else:
        times = check_time_settings({})
    env, n, options, level = catalog.validate_table(body)
    return RoomRequest(env, n, options, level, times)


def new_room(request: RoomRequest, taken: Container[str]) -> Room:
    """The room of a checked request, with an id not among ``taken`` and a fresh host
    credential; not saved yet."""
    room_id = secrets.token_urlsafe(6)
    while room_id in taken:
        room_id = secrets.token_urlsafe(6)
    room = Room(room_id, request.env, request.num_players, request.options, request.level, new_token())
    for name, value in request.times.items():
        setattr(room, name, value)
    return room


class Quotas:
    """How many rooms each client address made in the last hour, and which of them wait for
    their first game."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        #: per client address: when it created rooms in the last hour
        self.created_by: dict[str, collections.deque[float]] = {}
        #: per client address: the rooms it made (those dealt or gone are dropped when seen)
        self.made_by: dict[str, list[Room]] = {}

    def waiting(self, address: str, held: Mapping[str, Room]) -> int:
        """The rooms ``address`` made that the table still holds and that were never dealt."""
        rooms = [r for r in self.made_by.get(address, []) if held.get(r.id) is r and r.play is None]
        if rooms:
            self.made_by[address] = rooms
        else:
            self.made_by.pop(address, None)
        return len(rooms)

    def check(self, address: str, rooms: int, held: Mapping[str, Room] | None = None) -> None:
        """``Refused`` when the table holds its most rooms (``rooms`` now), the address made
        its most this hour, or it holds its most rooms waiting for a first game (of ``held``,
        the table's rooms)."""
        if rooms >= self.settings.max_rooms:
            raise Refused(503, f"the table is full ({self.settings.max_rooms} rooms); try again later", 600)
        most = self.settings.waiting_per_address
        if held is not None and self.waiting(address, held) >= most:
            raise Refused(429, f"your address holds {most} rooms where no game was started yet: start a "
                               "game in one, or wait until one expires "
                               f"({self.settings.expire_waiting / 60:g} minutes with nobody in it)", 60)
        created = self.created_by.setdefault(address, collections.deque())
        hour_ago = time.monotonic() - HOUR
        while created and created[0] < hour_ago:
            created.popleft()
        if len(created) >= self.settings.rooms_per_hour:
            wait = int(created[0] - hour_ago) + 1
            raise Refused(429, f"too many new rooms from your address: at most "
                               f"{self.settings.rooms_per_hour} an hour; the next in {wait} s", wait)

    def took(self, address: str, room: Room | None = None) -> None:
        """The address made a room (``room``) now."""
        self.created_by.setdefault(address, collections.deque()).append(time.monotonic())
        if room is not None:
            self.made_by.setdefault(address, []).append(room)

    def forget_old(self) -> None:
        """Forget the counts older than an hour."""
        hour_ago = time.monotonic() - HOUR
        for address, times in list(self.created_by.items()):
            while times and times[0] < hour_ago:
                times.popleft()
            if not times:
                del self.created_by[address]
        for address, rooms in list(self.made_by.items()):
            if not any(r.play is None for r in rooms):
                del self.made_by[address]


def idle(room: Room, settings: Settings, now: float) -> bool:
    """Whether a room nobody is connected to has been idle long enough to expire (never
    dealt: ``expire_waiting``; else ``expire_idle``)."""
    limit = settings.expire_waiting if room.play is None else settings.expire_idle
    return now - room.active >= limit
