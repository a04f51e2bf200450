"""The server: HTTP endpoints, the WebSocket protocol, computer turns and coaches.

:func:`create_app` builds the Starlette application for a data folder.  One
:class:`Server` holds the rooms (loaded from SQLite at start-up), the connections and the
:class:`~.workers.Pool`.  Everything that changes a room runs on the event loop, one
message at a time, and is saved before anyone is told of it; computer players and
coaches think in the pool and their answers are applied only if the position they were
asked about is still the one on the table.  See ``PROTOCOL.md``; for operators
``docs/table.md``.

Every message and request is treated as hostile: sizes, nesting, rates (:mod:`.limits`),
origins and quotas (:mod:`.settings`), names (:mod:`.names`); the timers that keep a game
from stalling are in :mod:`.presence`, the pages for links that lead nowhere and the
security headers in :mod:`.pages`.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import logging
import secrets
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from . import catalog, pages
from .limits import RATES, TOTAL, ConnLimits
from .names import NameError_, clean_name, unique_name
from .presence import Presence
from .records import Replay
from .room import TIME_SETTINGS, Room, RoomError, check_time_settings, new_token
from .rules import NoRules, rules_doc, toc_html
from .settings import HOUR, Settings, same_origin
from .store import Store
from .workers import Job, Pool

log = logging.getLogger("cardtable")

STATIC = Path(__file__).resolve().parent / "static"
#: the largest message or request body accepted (bytes)
MAX_MESSAGE = 4096
#: messages queued for one client before it is considered gone
MAX_QUEUE = 1000
#: how long a connection the server closes gets to receive what was queued before the close
CLOSE_SECONDS = 5.0
#: seconds a computer waits before trying again a move that could not be saved
RETRY_SECONDS = 1.0
#: what a failed write to the file raises
STORAGE_ERRORS = (sqlite3.Error, OSError)
#: computer moves applied per pass of the event loop (keeps people's latency low under load)
BOT_MOVES_PER_PASS = 1
#: the deepest nesting of lists and objects a message or request body may have (the
#: protocol's own messages are flat objects, room requests one level more)
MAX_DEPTH = 4
#: finished games' replays a server keeps built (least recently used go first)
REPLAYS_KEPT = 16
#: the fields of a room request (``POST /api/rooms``)
ROOM_FIELDS = ("game", "num_players", "options", "level", *TIME_SETTINGS)
#: the client-to-server message types and their fields: name -> (types, required)
FIELDS: dict[str, dict[str, tuple[tuple[type, ...], bool]]] = {
    "hello": {"token": ((str, type(None)), False), "host_token": ((str, type(None)), False)},
    "sit": {"seat": ((int,), True), "name": ((str,), True)},
    "leave": {},
    "level": {"seat": ((int,), True), "level": ((str,), True)},
    "start": {},
    "move": {"id": ((int,), False), "text": ((str,), False), "step": ((int,), False)},
    "coach": {"on": ((bool,), True)},
    "rematch": {},
    "resign": {},
    "settings": {"away_seconds": ((int,), False), "turn_seconds": ((int, type(None)), False)},
}


def too_deep(obj: Any, limit: int = MAX_DEPTH) -> bool:
    """Whether ``obj`` nests lists and objects more than ``limit`` levels (without recursion)."""
    stack = [(obj, 1)]
    while stack:
        x, depth = stack.pop()
        if isinstance(x, (list, dict)):
            if depth > limit:
                return True
            stack.extend((y, depth + 1) for y in (x.values() if isinstance(x, dict) else x))
    return False


def parse_json(text: str | bytes) -> Any:
    """A JSON text as Python data; ``ValueError`` saying what is wrong when it is no JSON or
    nests more than :data:`MAX_DEPTH` levels (a deep nesting never reaches a recursive
    parser's limit unhandled)."""
    try:
        obj = json.loads(text)
    except RecursionError:
        raise ValueError(f"nested too deeply: at most {MAX_DEPTH} levels of lists and objects") from None
    if too_deep(obj):
        raise ValueError(f"nested too deeply: at most {MAX_DEPTH} levels of lists and objects")
    return obj


class StorageFailed(RuntimeError):
    """A new room could not be written (the request is answered 503)."""


class Refused(RuntimeError):
    """A request over a quota: answered ``status`` with the message, ``Retry-After: retry``."""

    def __init__(self, status: int, message: str, retry: int) -> None:
        super().__init__(message)
        self.status = status
        self.retry = retry


class Conn:
    """One WebSocket client of a room: who it is (seat, host), its outgoing queue and its
    message rates (:mod:`.limits`)."""

    def __init__(self, ws: WebSocket) -> None:
        self.ws = ws
        self.seat: int | None = None
        self.token: str | None = None
        self.host = False
        self.hello = False
        #: texts to send, or a ``(code, reason)`` to close with
        self.queue: asyncio.Queue[str | tuple[int, str]] = asyncio.Queue()
        self.closed = False
        self.limits = ConnLimits()

    def send_text(self, text: str) -> None:
        """Queue a message (a client that stops reading is dropped)."""
        if self.closed:
            return
        if self.queue.qsize() >= MAX_QUEUE:
            self.close(1008, "too many messages waiting: the client stopped reading")
            return
        self.queue.put_nowait(text)

    def close(self, code: int, reason: str) -> None:
        """Close the connection once what is queued before has been sent."""
        if self.closed:
            return
        self.closed = True
        self.queue.put_nowait((code, reason[:120]))

    def send(self, msg: dict[str, Any]) -> None:
        """Queue a message object."""
        self.send_text(json.dumps(msg, separators=(",", ":")))

    def error(self, message: str, for_type: str | None = None) -> None:
        """Tell this client what was wrong with its message."""
        self.send({"type": "error", "message": message, "for": for_type})

    async def writer(self) -> None:
        """Send the queued messages in order until the connection ends."""
        while True:
            text = await self.queue.get()
            if not isinstance(text, str):
                with contextlib.suppress(Exception):
                    await self.ws.close(code=text[0], reason=text[1])
                return
            try:
                await self.ws.send_text(text)
            except Exception:  # the client went away; the reader notices too
                self.closed = True
                return


class Server:
    """Rooms, connections, the store and the pool of one running table."""

    def __init__(self, data: str | Path, bot_delay: float = 0.6, workers: int = 0,
                 settings: Settings | None = None) -> None:
        self.settings = settings or Settings()
        self.store = Store(data)
        self.bot_delay = bot_delay
        self.pool = Pool(workers, nice=self.settings.worker_nice)
        self.rooms: dict[str, Room] = {}
        self.conns: dict[str, set[Conn]] = {}
        self.drivers: dict[str, asyncio.Task[None]] = {}
        self.coaching: dict[tuple[str, int], tuple[int, int]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        #: computer moves applied per pass of the event loop, at most
        self.gate = asyncio.Semaphore(BOT_MOVES_PER_PASS)
        #: rooms whose saved row could not be loaded: id -> what went wrong (their links say so)
        self.broken: dict[str, str] = {}
        #: WebSocket connections open, in all and per client address
        self.open_conns = 0
        self.by_address: dict[str, int] = {}
        #: per client address: when it created rooms in the last hour
        self.created_by: dict[str, collections.deque[float]] = {}
        #: the host role, absent people's seats, the turn clock
        self.presence = Presence(self)
        #: replays of finished games, built on demand: (room, game index) -> Replay
        self.replays: collections.OrderedDict[tuple[str, int], Replay] = collections.OrderedDict()
        self._replay_lock = asyncio.Lock()
        for room_id, text, updated in self.store.rooms():
            try:
                data_room = json.loads(text)
                pd = data_room["play"]
                moves = [] if pd is None else self.store.moves(room_id, pd["index"])
                room = Room.restore(data_room, moves)
                if room.id != room_id:
                    raise ValueError(f"the row of room {room_id} holds room {room.id!r}")
            except Exception as err:  # one bad row must not stop the others, nor go unnoticed
                why = f"{type(err).__name__}: {str(err)[:200]}"
                log.error("room %s could not be loaded from %s and is skipped (%s); its link says so",
                          room_id, self.store.path, why)
                self.broken[room_id] = why
                continue
            room.active = updated
            self.rooms[room.id] = room
            self.conns[room.id] = set()

    async def replay(self, room_id: str, index: int, record: dict[str, Any]) -> Replay:
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
            if self.conns.get(room.id):
                continue
            never_dealt = room.play is None
            limit = self.settings.expire_waiting if never_dealt else self.settings.expire_idle
            if now - room.active >= limit:
                self.expire(room)
                gone.append(room.id)
        hour_ago = time.monotonic() - HOUR
        for address, times in list(self.created_by.items()):
            while times and times[0] < hour_ago:
                times.popleft()
            if not times:
                del self.created_by[address]
        return gone

    def expire(self, room: Room) -> None:
        """Forget an idle room: its row and its current game's moves are deleted; its
        finished games' records stay (export, and the room's record links); its link says it
        expired."""
        try:
            self.store.expire_room(room.id, room.games_played)
        except STORAGE_ERRORS as err:
            log.error("could not expire room %s (%s); it stays", room.id, err)
            return
        task = self.drivers.pop(room.id, None)
        if task is not None:
            task.cancel()
        self.presence.forget(room)
        self.rooms.pop(room.id, None)
        self.conns.pop(room.id, None)
        for seat in range(room.num_players):
            self.coaching.pop((room.id, seat), None)
        log.info("room %s expired after %.0f s idle (%d finished games kept)", room.id,
                 time.time() - room.active, room.games_played)

    async def shutdown(self) -> None:
        """Stop the computer players, the timers and the pool; close the file."""
        self.presence.close()
        for task in list(self.drivers.values()) + list(self._tasks):
            task.cancel()
        for task in list(self.drivers.values()) + list(self._tasks):
            with contextlib.suppress(BaseException):
                await task
        self.pool.close()
        self.store.close()

    def spawn(self, coro: Awaitable[Any]) -> asyncio.Task[Any]:
        """Run ``coro`` as a task the server keeps (cancelled at shutdown)."""
        task: asyncio.Task[Any] = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    # --------------------------------------------------------------- rooms
    def create_room(self, body: Any, address: str = "?") -> dict[str, Any]:
        """``POST /api/rooms`` from a client ``address``: a new room (``ValueError`` with what
        is allowed; ``Refused`` over a quota; ``StorageFailed``)."""
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
        if len(self.rooms) >= self.settings.max_rooms:
            self.sweep()
            if len(self.rooms) >= self.settings.max_rooms:
                raise Refused(503, f"the table is full ({self.settings.max_rooms} rooms); try again later",
                              600)
        created = self.created_by.setdefault(address, collections.deque())
        hour_ago = time.monotonic() - HOUR
        while created and created[0] < hour_ago:
            created.popleft()
        if len(created) >= self.settings.rooms_per_hour:
            wait = int(created[0] - hour_ago) + 1
            raise Refused(429, f"too many new rooms from your address: at most "
                               f"{self.settings.rooms_per_hour} an hour; the next in {wait} s", wait)
        room_id = secrets.token_urlsafe(6)
        while room_id in self.rooms:
            room_id = secrets.token_urlsafe(6)
        host_token = new_token()
        room = Room(room_id, env, n, options, level, host_token)
        for name, value in times.items():
            setattr(room, name, value)
        try:
            self.store.save_room(room.id, room.snapshot())
        except STORAGE_ERRORS as err:
            log.error("could not save a new room: %s", err)
            raise StorageFailed(f"the table could not save the new room ({err}); try again later") from None
        created.append(time.monotonic())
        self.rooms[room_id] = room
        self.conns[room_id] = set()
        return {"room": room_id, "host_token": host_token, "link": f"/room/{room_id}"}

    def commit(self, room: Room, memo: tuple[Any, ...], move: bool = False,
               record: dict[str, Any] | None = None, prune_moves: bool = False) -> None:
        """Write the room as it is now (and the move just played, and a finished game's
        record; ``prune_moves``: a new game was dealt, the moves of earlier games, which
        their records hold, are deleted).  When the write fails the change is undone (back
        to ``memo``, taken before it) and ``RoomError`` tells the one who asked: what the
        file holds is what everyone sees, nobody is told of a change the file does not have."""
        p = room.play
        prune = p.index if prune_moves and p is not None else None
        try:
            self.store.save_room(room.id, room.snapshot(), room.last_move() if move else None, record,
                                 prune_moves_before=prune)
            room.active = time.time()
        except STORAGE_ERRORS as err:
            room.undo(memo)
            log.error("could not save room %s (%s): the change was undone", room.id, err)
            raise RoomError(f"the table could not save this ({err}), so nothing changed; "
                            "try again in a moment") from None

    def connected(self, room: Room) -> list[int]:
        """How many clients are connected to each seat."""
        counts = [0] * room.num_players
        for c in self.conns.get(room.id, ()):
            if c.seat is not None:
                counts[c.seat] += 1
        return counts

    def broadcast_room(self, room: Room) -> None:
        """Send everyone in the room its ``room`` message."""
        connected = self.connected(room)
        away = self.presence.away_left(room)
        for c in self.conns.get(room.id, ()):
            if c.hello:
                c.send(room.room_message(c.seat, c.host, connected, away))

    def room_msg(self, room: Room, conn: Conn | None = None) -> dict[str, Any]:
        """The ``room`` message for one client (``None``: a spectator without the host's
        credential)."""
        return room.room_message(None if conn is None else conn.seat, conn is not None and conn.host,
                                 self.connected(room), self.presence.away_left(room))

    def notice(self, room: Room, message: str) -> None:
        """Tell everyone in the room something that happened (``notice``)."""
        msg = {"type": "notice", "message": message}
        for c in self.conns.get(room.id, ()):
            if c.hello:
                c.send(msg)

    def unseat(self, room: Room, seat: int, host_leaves: bool = False) -> None:
        """A computer plays ``seat`` from now on (kept for its person: their token takes it
        back); its clients become spectators (``host_leaves``: the host is one of them, who
        now watches).  ``RoomError`` if it could not be saved."""
        memo = room.memo()
        room.leave(seat)
        if host_leaves and room.host_seat == seat:
            room.host_seat = None
        self.commit(room, memo)
        for c in self.conns.get(room.id, ()):
            if c.seat == seat:
                c.seat = None
                self.send_table(room, c)
        self.presence.check_away(room)

    def send_table(self, room: Room, conn: Conn) -> None:
        """Send one client its ``table`` (if a game was dealt)."""
        text = room.table_text(conn.seat)
        if text is not None:
            conn.send_text(text)

    def broadcast_table(self, room: Room) -> None:
        """Send everyone in the room its ``table`` message."""
        for c in self.conns.get(room.id, ()):
            if c.hello:
                self.send_table(room, c)

    # --------------------------------------------------------------- computer turns
    def kick(self, room: Room) -> None:
        """Make sure a computer player is thinking if one is to move, and that the coach of
        a person to move is asked; run the clock of a person to move."""
        self.presence.check_clock(room)
        seat = room.current()
        if seat < 0:
            return
        if not room.seats[seat].person:
            task = self.drivers.get(room.id)
            if task is None or task.done():
                self.drivers[room.id] = asyncio.ensure_future(self._drive(room))
        elif room.seats[seat].coach:
            self.ask_coach(room, seat)

    def _job(self, room: Room, kind: str, seat: int, level: str) -> Job:
        p = room.play
        assert p is not None
        return Job(kind=kind, room=room.id, game_index=p.index, env=room.env, num_players=room.num_players,
                   options=catalog.options_key(room.options), seat=seat, level=level, seed=p.seed,
                   step=p.step, prev_step=room.prev_step(seat), view=room.game.view(p.state, seat),
                   legal=list(room.game.legal_actions(p.state)), ids=list(p.ids))

    async def _drive(self, room: Room) -> None:
        """Play the computer seats' turns, one at a time, paced by ``bot_delay``.

        Thinking happens in the pool; applying a move happens on the loop behind
        :attr:`gate`, which lets only a few computer moves through per pass of the event
        loop, so people's messages are answered promptly even when many rooms of computer
        players run without pauses.
        """
        loop = asyncio.get_running_loop()
        failed = False
        while room.status == "playing":
            seat = room.current()
            if seat < 0 or room.seats[seat].person or self.rooms.get(room.id) is not room:
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
            async with self.gate:
                p = room.play
                if (room.status == "playing" and p is not None and p.index == index and p.step == step
                        and not room.seats[seat].person and room.current() == seat
                        and room.seats[seat].level == level):
                    if action is None:
                        action = await self.think(room, seat, level)  # random: at once, inline
                    try:
                        self.play_move(room, seat, action)
                    except RoomError as err:  # not saved, so not played: think again in a while
                        log.error("room %s: the computer's move was not played: %s", room.id, err)
                        failed = True
                # else the table changed while it thought: think again about the new one
                await asyncio.sleep(0)  # hold the gate for one pass of the loop
            if failed:
                failed = False
                await asyncio.sleep(RETRY_SECONDS)

    async def think(self, room: Room, seat: int, level: str) -> int:
        """A computer's move for the current position (a random legal move if it fails)."""
        job = self._job(room, "move", seat, level)
        try:
            return int(await self.pool.run(job))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("computer player failed in room %s; it plays a random move", room.id)
            return job.legal[secrets.randbelow(len(job.legal))]

    def play_move(self, room: Room, seat: int, action: Any) -> None:
        """Apply a checked move, save it, tell everyone, and go on (``RoomError`` if refused,
        or if it could not be saved: then it is not played)."""
        memo = room.memo()
        record = room.apply(seat, action)
        self.commit(room, memo, move=True, record=record)
        if record is not None:
            self.presence.check_away(room)  # the game is over: nobody's seat is counted down
            self.broadcast_room(room)  # the status first: the table that follows shows the result
        self.broadcast_table(room)
        self.kick(room)

    # --------------------------------------------------------------- coaches
    def ask_coach(self, room: Room, seat: int) -> None:
        """Ask the seat's coach about the current decision (once per decision)."""
        p = room.play
        if p is None:
            return
        key = (room.id, seat)
        if self.coaching.get(key) == (p.index, p.step):
            return
        self.coaching[key] = (p.index, p.step)
        self.spawn(self._coach(room, seat, p.index, p.step))

    async def _coach(self, room: Room, seat: int, index: int, step: int) -> None:
        job = self._job(room, "coach", seat, "planner")
        try:
            advice = await self.pool.run(job)
        except Exception:
            log.exception("coach failed in room %s", room.id)
            self.coaching.pop((room.id, seat), None)
            return
        p = room.play
        if p is None or p.index != index or p.step != step or not room.seats[seat].coach:
            self.coaching.pop((room.id, seat), None)
            return
        msg = {"type": "coach", "advice": advice, "step": step}
        for c in self.conns.get(room.id, ()):
            if c.seat == seat:
                c.send(msg)

    def resend_coach(self, room: Room, seat: int) -> None:
        """A client of ``seat`` (re)joined or switched the coach on: ask again."""
        self.coaching.pop((room.id, seat), None)
        if room.current() == seat and room.seats[seat].person and room.seats[seat].coach:
            self.ask_coach(room, seat)

    # --------------------------------------------------------------- messages
    def refuse(self, conn: Conn, message: str, for_type: str | None = None) -> None:
        """Answer a malformed or over-rate message with an ``error``; a connection that
        keeps sending them is closed (code 1008), the others of its room stay."""
        conn.error(message, for_type)
        if not conn.limits.strikes.take(time.monotonic()):
            log.warning("closed a connection to room %s: too many refused messages",
                        conn.ws.path_params.get("room_id"))
            conn.close(1008, "too many refused messages")

    def handle(self, room: Room, conn: Conn, text: str) -> None:
        """One message from a client: checked, then done, or an ``error`` to that client."""
        now = time.monotonic()
        total = conn.limits.total
        if not total.take(now):
            self.refuse(conn, f"too many messages: at most {TOTAL.words()} (this one was ignored)")
            return
        if len(text.encode("utf-8", "surrogatepass")) > MAX_MESSAGE:
            self.refuse(conn, f"message too long: at most {MAX_MESSAGE} bytes")
            return
        try:
            msg = parse_json(text)
        except ValueError as err:
            words = str(err) if str(err).startswith("nested") else "not JSON"
            self.refuse(conn, f'{words}: every message is one JSON object with a "type"')
            return
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            self.refuse(conn, 'every message is one JSON object with a string "type"; the types are '
                        + ", ".join(FIELDS))
            return
        kind = msg["type"]
        fields = FIELDS.get(kind)
        if fields is None:
            self.refuse(conn, f"unknown message type {kind[:40]!r}; the types are {', '.join(FIELDS)}", None)
            return
        for name, (types, required) in fields.items():
            if name not in msg or (msg[name] is None and type(None) not in types):
                if required:
                    self.refuse(conn, f"{kind}: the field {name!r} is missing", kind)
                    return
                continue
            value = msg[name]
            if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
                names = " or ".join("null" if t is type(None) else t.__name__ for t in types)
                self.refuse(conn, f"{kind}: the field {name!r} must be {names}, got {type(value).__name__}",
                            kind)
                return
        bucket = conn.limits.kind(kind)
        if not bucket.take(now):
            self.refuse(conn, f"too many {kind!r} messages: at most {RATES[kind].words()} (this one was "
                        "ignored)", kind)
            return
        if kind != "hello" and not conn.hello:
            self.refuse(conn, 'send "hello" first ({"type": "hello", "token": null, "host_token": null})',
                        kind)
            return
        try:
            getattr(self, f"on_{kind}")(room, conn, msg)
        except RoomError as err:
            conn.error(str(err), kind)
            return
        except Exception:  # a bug: say so to the client, keep its socket, log it once
            log.exception("room %s: a %r message failed", room.id, kind)
            conn.error(f"the server failed on this {kind!r} message (it is in the server's log)", kind)
            return
        if kind == "move":  # a played move is paced by the game, not counted
            bucket.refund()
            total.refund()

    def on_hello(self, room: Room, conn: Conn, msg: dict[str, Any]) -> None:
        """Identify the client: a seat (by its token), the host (by the host token), or a spectator."""
        first = not conn.hello
        conn.hello = True
        problems = []
        token, host_token = msg.get("token"), msg.get("host_token")
        if host_token is not None:
            if secrets.compare_digest(host_token.encode(), room.host_token.encode()):
                conn.host = True
                self.presence.host_here(room)
            else:
                problems.append("the host token is wrong (or no longer the host's: the role passes on when "
                                "the host leaves): you are not the host")
        if token is not None:
            seat = room.seat_of_token(token)
            if seat is None:
                problems.append("this token is no seat's credential in this room: you watch as a spectator")
            elif conn.seat != seat:
                if conn.seat is not None:
                    problems.append(f"you already sit in seat {conn.seat}")
                else:
                    name = unique_name(room.seats[seat].name or room.seat_name(seat), room.other_names(seat))
                    memo = room.memo()
                    room.sit(seat, name, token)
                    if conn.host:
                        room.host_seat = seat
                    try:
                        self.commit(room, memo)
                    except RoomError as err:
                        problems.append(str(err))
                    else:
                        conn.seat, conn.token = seat, token
                        conn.send({"type": "seated", "seat": seat, "token": token})
        for p in problems:
            conn.error(p, "hello")
        self.presence.check_away(room)  # the seat is connected now: no countdown
        if first or conn.seat is not None:
            self.broadcast_room(room)  # the seat is connected now
        else:
            conn.send(self.room_msg(room, conn))
        self.send_table(room, conn)
        if room.id in self.presence.clocks:
            conn.send(self.presence.clock_message(room))
        if conn.seat is not None:
            self.resend_coach(room, conn.seat)
            self.kick(room)
            self.presence.hand_over(room)  # a person is here: the host role may pass to them

    def on_sit(self, room: Room, conn: Conn, msg: dict[str, Any]) -> None:
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
        self.commit(room, memo)
        if token != conn.token:  # a new credential: other clients holding the old one lose the seat
            for c in self.conns.get(room.id, ()):
                if c.seat == seat:
                    c.seat = None
        conn.seat, conn.token = seat, token
        conn.send({"type": "seated", "seat": seat, "token": token})
        self.presence.check_away(room)
        self.broadcast_room(room)
        self.send_table(room, conn)
        self.resend_coach(room, seat)
        self.kick(room)
        self.presence.hand_over(room)

    def on_leave(self, room: Room, conn: Conn, msg: dict[str, Any]) -> None:
        """Give the seat to a computer (the token still takes it back)."""
        if conn.seat is None:
            raise RoomError("you do not sit at this table")
        self.unseat(room, conn.seat, host_leaves=conn.host)
        self.broadcast_room(room)
        self.kick(room)

    def _host(self, conn: Conn, what: str) -> None:
        if not conn.host:
            raise RoomError(f"only the host can {what}")

    def on_level(self, room: Room, conn: Conn, msg: dict[str, Any]) -> None:
        """The host sets a computer seat's level (a disconnected person's seat becomes a computer)."""
        self._host(conn, "set levels")
        seat = room.check_seat(msg["seat"])
        if room.seats[seat].person and self.connected(room)[seat]:
            raise RoomError(f"seat {seat} is played by {room.seat_name(seat)}, who is here")
        memo = room.memo()
        try:
            if room.seats[seat].person:
                room.leave(seat)
            room.set_level(seat, msg["level"])
        except RoomError:
            room.undo(memo)
            raise
        self.commit(room, memo)
        self.presence.check_away(room)
        self.broadcast_room(room)
        self.kick(room)

    def on_settings(self, room: Room, conn: Conn, msg: dict[str, Any]) -> None:
        """The host sets the room's time settings, between games."""
        self._host(conn, "change the room's settings")
        if room.status == "playing":
            raise RoomError("the settings change between games, not during one")
        values = check_time_settings({k: msg[k] for k in TIME_SETTINGS if k in msg}, partial=True)
        memo = room.memo()
        for name, value in values.items():
            setattr(room, name, value)
        self.commit(room, memo)
        self.broadcast_room(room)

    def on_start(self, room: Room, conn: Conn, msg: dict[str, Any]) -> None:
        """The host deals the first game."""
        self._host(conn, "start the game")
        if room.status != "waiting":
            raise RoomError(f"the game has already started (the room is {room.status}); "
                            "after it ends the host can ask for a rematch")
        self._deal(room)

    def on_rematch(self, room: Room, conn: Conn, msg: dict[str, Any]) -> None:
        """The host deals a new game with the same seats."""
        self._host(conn, "ask for a rematch")
        if room.status != "finished":
            raise RoomError(f"a rematch is possible once the game has ended (the room is {room.status})")
        self._deal(room)

    def _deal(self, room: Room) -> None:
        memo = room.memo()
        room.start()
        for s in room.seats:
            s.timeouts = 0
        self.commit(room, memo, prune_moves=True)
        self.presence.check_away(room)
        self.broadcast_room(room)
        self.broadcast_table(room)
        self.kick(room)

    def on_resign(self, room: Room, conn: Conn, msg: dict[str, Any]) -> None:
        """The seat's person gives up the game: it ends now, they lose, the others share the win."""
        if conn.seat is None or not room.seats[conn.seat].person:
            raise RoomError("only a seated person can resign; sit first")
        if room.status != "playing":
            raise RoomError(f"no game is being played (the room is {room.status})")
        memo = room.memo()
        record = room.resign(conn.seat)
        self.commit(room, memo, record=record)
        self.presence.check_away(room)
        self.notice(room, str(record["result"]["summary"]))
        self.broadcast_room(room)
        self.broadcast_table(room)
        self.kick(room)

    def on_move(self, room: Room, conn: Conn, msg: dict[str, Any]) -> None:
        """The seat's move, checked by the rules core."""
        if conn.seat is None or not room.seats[conn.seat].person:
            raise RoomError("only a seated person can move; sit first")
        if room.status != "playing" or room.play is None:
            raise RoomError(f"no game is being played (the room is {room.status})")
        has_id, has_text = msg.get("id") is not None, msg.get("text") is not None
        if has_id == has_text:
            raise RoomError('a move has exactly one of "id" (an action id) or "text" (the move in notation)')
        step = msg.get("step")
        if step is not None and step != room.play.step:
            raise RoomError(f"that move answers step {step}, but the table is at step {room.play.step}")
        action: Any = msg["id"] if has_id else None
        if has_text:
            if len(msg["text"]) > 100:
                raise RoomError("move text too long")
            try:
                action = room.game.str_to_action(msg["text"])
            except ValueError as err:
                raise RoomError(str(err)) from None
        seat = room.seats[conn.seat]
        timeouts, seat.timeouts = seat.timeouts, 0  # they move by themselves again (saved with the move)
        try:
            self.play_move(room, conn.seat, action)
        except RoomError:
            seat.timeouts = timeouts
            raise

    def on_coach(self, room: Room, conn: Conn, msg: dict[str, Any]) -> None:
        """Switch this seat's coach on or off.  Not written to the file by itself: the switch
        is saved with the room's next change (a client switches it on again when it comes
        back), so toggling costs no write."""
        if conn.seat is None:
            raise RoomError("only a seated person has a coach; sit first")
        on = bool(msg["on"])
        if room.seats[conn.seat].coach != on:
            room.seats[conn.seat].coach = on
            self.broadcast_room(room)
        if on:
            self.resend_coach(room, conn.seat)

    # --------------------------------------------------------------- websocket
    async def websocket(self, ws: WebSocket) -> None:
        """``/ws/{room_id}``: one client's session."""
        room_id = ws.path_params["room_id"]
        if not same_origin(ws.headers.get("origin"), ws.headers.get("host"), self.settings):
            # a page of another site opening the table's socket: refused at the handshake (403)
            log.warning("refused a socket to room %s from the page of %s", room_id[:40],
                        ws.headers.get("origin", "")[:80])
            await ws.close(code=4403)
            return
        await ws.accept()
        room = self.rooms.get(room_id)
        if room is None:
            if room_id in self.broken:
                await ws.close(code=4500, reason="this room could not be loaded")
            elif self.store.expired(room_id) is not None:
                await ws.close(code=4410, reason="this room has expired")
            else:
                await ws.close(code=4404, reason="no such room")
            return
        address = ws.client.host if ws.client else "?"
        limits = self.settings
        refusal = None
        if self.open_conns >= limits.max_conns:
            refusal = (4503, f"the table is full ({limits.max_conns} connections); try again later")
        elif self.by_address.get(address, 0) >= limits.conns_per_address:
            refusal = (4429, f"too many connections from your address (at most {limits.conns_per_address} "
                             "at once): close some pages of this table")
        if refusal is not None:
            await ws.send_text(json.dumps({"type": "error", "message": refusal[1], "for": None}))
            await ws.close(code=refusal[0], reason=refusal[1][:120])
            return
        conn = Conn(ws)
        self.conns[room_id].add(conn)
        self.open_conns += 1
        self.by_address[address] = self.by_address.get(address, 0) + 1
        room.active = time.time()
        writer = asyncio.ensure_future(conn.writer())

        def no_hello() -> None:
            if not conn.hello:
                conn.error(f'no "hello" within {limits.handshake_seconds:g} seconds: closed')
                conn.close(4408, "no hello")

        deadline = asyncio.get_running_loop().call_later(limits.handshake_seconds, no_hello)
        try:
            while not conn.closed:
                msg = await ws.receive()
                if msg["type"] == "websocket.disconnect":
                    break
                text = msg.get("text")
                if text is None:
                    self.refuse(conn, "send text frames of JSON, not binary")
                    continue
                self.handle(room, conn, text)
        except WebSocketDisconnect:
            pass
        finally:
            deadline.cancel()
            self.conns.get(room_id, set()).discard(conn)
            self.open_conns -= 1
            left = self.by_address[address] - 1
            if left:
                self.by_address[address] = left
            else:
                del self.by_address[address]
            room.active = time.time()
            if self.rooms.get(room_id) is room:
                if conn.host and not any(c.host for c in self.conns.get(room_id, ())):
                    self.presence.host_left(room)  # after the grace the role passes on
                self.presence.check_away(room)
            if conn.closed:  # the server closes it: the writer sends what is queued, then the close
                with contextlib.suppress(BaseException):
                    await asyncio.wait_for(asyncio.shield(writer), CLOSE_SECONDS)
            conn.closed = True
            writer.cancel()
            with contextlib.suppress(BaseException):
                await writer
            if conn.seat is not None and self.rooms.get(room_id) is room:
                self.broadcast_room(room)


def _json_error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def create_app(data: str | Path = "./data", bot_delay: float = 0.6, workers: int = 0,
               settings: Settings | None = None) -> Starlette:
    """The table's ASGI application, keeping its rooms in ``<data>/cardtable.sqlite3``.

    ``bot_delay``: seconds between computer moves (0 in tests); ``workers``: processes for
    computer players and coaches (0: threads in this process); ``settings``: the limits,
    origins and operator token (:class:`~.settings.Settings`; safe defaults).
    """
    server: Server | None = None
    config = settings or Settings()

    def srv() -> Server:
        assert server is not None, "the application has not started (use it as a context manager)"
        return server

    async def index(request: Request) -> Response:
        room_id = request.path_params.get("room_id")
        if room_id is not None and room_id not in srv().rooms:
            if room_id in srv().broken:
                return pages.broken_room(room_id)
            gone = srv().store.expired(room_id)
            if gone is not None:
                return pages.expired_room(room_id, gone[0], gone[1])
            return pages.no_room(room_id)
        page = STATIC / "index.html"
        if not page.exists():
            return _json_error(404, "the client (cardtable/static/index.html) is not installed")
        return FileResponse(page)

    async def games(request: Request) -> Response:
        return JSONResponse(catalog.all_games())

    async def rules_api(request: Request) -> Response:
        """A game's rules as HTML (``GET /api/games/{game}/rules``)."""
        try:
            return JSONResponse(rules_doc(request.path_params["env"]).as_json())
        except NoRules as err:
            return _json_error(404, str(err))

    async def rules_page(request: Request) -> Response:
        """A game's rules as a page (``/rules/{game}``)."""
        try:
            doc = rules_doc(request.path_params["env"])
        except NoRules as err:
            return pages.error_page(404, "No rules here", str(err))
        return pages.rules_page(doc.title, doc.html, toc_html(doc))

    async def replay_page(request: Request) -> Response:
        """``/room/{id}/replay/{index}``: the client's page, which shows the replay viewer
        (also for an expired room, whose records are kept)."""
        room_id = request.path_params["room_id"]
        if room_id not in srv().rooms:
            if room_id in srv().broken:
                return pages.broken_room(room_id)
            if srv().store.expired(room_id) is None:
                return pages.no_room(room_id)
        raw = request.path_params["index"]
        if not raw.isdecimal() or len(raw) > 9 or srv().store.game(room_id, int(raw)) is None:
            return pages.error_page(404, "No such game",
                                    f"Room {room_id[:40]!r} has no finished game {raw[:12]!r} to replay.")
        return FileResponse(STATIC / "index.html")

    async def board(request: Request) -> Response:
        """A game's board: the JavaScript module its kit names."""
        path = catalog.board_file(request.path_params["env"])
        if path is None:
            return _json_error(404, f"no board for {request.path_params['env'][:40]!r}; "
                               f"the games are {', '.join(catalog.env_names())}")
        return FileResponse(path, media_type="text/javascript")

    async def rooms(request: Request) -> Response:
        if not same_origin(request.headers.get("origin"), request.headers.get("host"), config):
            return _json_error(403, "a request from another site's page is refused: rooms are made from "
                                    "this table's own pages")
        ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if ctype != "application/json":
            return _json_error(415, f"the body must be JSON sent as Content-Type: application/json, "
                                    f"not {ctype[:60] or 'no type'}")
        body = b""
        async for chunk in request.stream():  # at most MAX_MESSAGE + one chunk is ever held
            body += chunk
            if len(body) > MAX_MESSAGE:
                return _json_error(413, f"the body is over {MAX_MESSAGE} bytes")
        try:
            obj = parse_json(body or b"{}")
        except ValueError as err:
            words = str(err) if str(err).startswith("nested") else "the body must be JSON"
            return _json_error(400, f'{words}: {{"game", "num_players", "options", "level"}}')
        try:
            address = request.client.host if request.client else "?"
            return JSONResponse(srv().create_room(obj, address), status_code=201)
        except ValueError as err:
            return _json_error(400, str(err))
        except Refused as err:
            return JSONResponse({"error": str(err)}, status_code=err.status,
                                headers={"Retry-After": str(err.retry)})
        except StorageFailed as err:
            return _json_error(503, str(err))

    def room_of(request: Request, records: bool = False) -> str:
        """The room id of the path (``records``: an expired room's finished games count:
        their records are kept); else the HTTP error that says why there is none."""
        room_id = str(request.path_params["room_id"])
        if room_id in srv().rooms:
            return room_id
        if room_id in srv().broken:
            raise HTTPException(503, f"room {room_id[:40]!r} could not be loaded from the file when the "
                                     "server started (the server's log says why)")
        gone = srv().store.expired(room_id)
        if gone is not None:
            if records:
                return room_id
            raise HTTPException(410, f"room {room_id[:40]!r} expired (nobody played in it for long); its "
                                     f"{gone[1]} finished games' records are kept at "
                                     f"/api/rooms/{room_id}/games")
        raise HTTPException(404, f"no room {room_id[:40]!r} on this server")

    async def room_info(request: Request) -> Response:
        room = srv().rooms[room_of(request)]
        return JSONResponse(srv().room_msg(room))

    async def room_games(request: Request) -> Response:
        room_id = room_of(request, records=True)
        out = [{"index": r["index"], "result": r["result"], "moves": len(r["moves"])}
               for r in srv().store.games(room_id)]
        return JSONResponse({"games": out})

    async def room_game(request: Request) -> Response:
        room_id = room_of(request, records=True)
        raw = request.path_params["index"]
        known = ", ".join(str(r["index"]) for r in srv().store.games(room_id)) or "none yet"
        if not raw.isdecimal() or len(raw) > 9:
            return _json_error(400, f"a game index is a number; finished games: {known}")
        record = srv().store.game(room_id, int(raw))
        if record is None:
            return _json_error(404, f"no finished game {raw} in room {room_id}; finished games: {known}")
        name = f"cardtable-{room_id}-{raw}.json"
        return JSONResponse(record, headers={"Content-Disposition": f'attachment; filename="{name}"'})

    async def finished_game(request: Request) -> tuple[str, int, dict[str, Any]]:
        """The room, index and record of the path's finished game; else the HTTP error."""
        room_id = room_of(request, records=True)
        raw = request.path_params["index"]
        known = ", ".join(str(r["index"]) for r in srv().store.games(room_id)) or "none yet"
        if not raw.isdecimal() or len(raw) > 9:
            raise HTTPException(400, f"a game index is a number; finished games: {known}")
        record = srv().store.game(room_id, int(raw))
        if record is None:
            raise HTTPException(404, f"no finished game {raw} in room {room_id}; finished games: {known}")
        return room_id, int(raw), record

    async def replay_of(request: Request) -> Replay:
        room_id, index, record = await finished_game(request)
        try:
            return await srv().replay(room_id, index, record)
        except (ValueError, KeyError, TypeError) as err:
            log.error("the record of game %d of room %s does not replay: %s", index, room_id, err)
            raise HTTPException(409, f"this game's record cannot be replayed by the rules of this server "
                                     f"({str(err)[:200]})") from None

    async def replay_summary(request: Request) -> Response:
        """``GET /api/rooms/{id}/games/{index}/replay``: the moves, seats and result."""
        return JSONResponse((await replay_of(request)).summary())

    async def replay_frame(request: Request) -> Response:
        """``GET /api/rooms/{id}/games/{index}/replay/{step}[?seat=S]``: one position."""
        rep = await replay_of(request)
        raw = request.path_params["step"]
        if not raw.isdecimal() or len(raw) > 9 or int(raw) > rep.steps:
            return _json_error(400, f"step must be a number in 0..{rep.steps} (the moves played), "
                                    f"got {raw[:20]!r}")
        seat_raw = request.query_params.get("seat", "")
        n = rep.game.num_players
        if seat_raw and (not seat_raw.isdecimal() or len(seat_raw) > 3 or int(seat_raw) >= n):
            return _json_error(400, f"seat must be a seat number in 0..{n - 1}, or left out for what "
                                    f"everyone saw; got {seat_raw[:20]!r}")
        unknown = sorted(set(request.query_params) - {"seat"})
        if unknown:
            return _json_error(400, f"unknown parameter(s) {', '.join(unknown)[:100]}; the only one is seat")
        return JSONResponse(rep.frame(int(raw), int(seat_raw) if seat_raw else None))

    async def export(request: Request) -> Response:
        token = config.operator_token
        if token is None:
            return _json_error(404, "the export is off on this table: its operator starts the server with "
                                    "--operator-token (or CARDTABLE_OPERATOR_TOKEN) and sends it as "
                                    "Authorization: Bearer <token>")
        given = request.headers.get("authorization", "")
        scheme, _, value = given.partition(" ")
        if scheme.lower() != "bearer" or not secrets.compare_digest(value.strip().encode(), token.encode()):
            return JSONResponse({"error": "the export is the operator's: send the operator token as "
                                          "Authorization: Bearer <token>"},
                                status_code=401, headers={"WWW-Authenticate": 'Bearer realm="cardtable"'})

        async def lines() -> AsyncIterator[str]:
            for n, (room_id, text) in enumerate(srv().store.export()):
                room = srv().rooms.get(room_id)
                if room is not None and room.status == "playing":
                    continue  # a room playing now (a rematch) is left out until it stops
                yield text + "\n"
                if n % 100 == 99:
                    await asyncio.sleep(0)  # let the tables play meanwhile

        return StreamingResponse(lines(), media_type="application/x-ndjson",
                                 headers={"Content-Disposition": 'attachment; filename="cardtable.jsonl"'})

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        if not request.url.path.startswith("/api/") and exc.status_code == 404:  # a page, for people
            return pages.error_page(404, "Nothing here",
                                    f"There is no page at {request.url.path[:80]} on this table.")
        detail = exc.detail
        if exc.status_code == 405:
            detail = f"{request.method} is not allowed on {request.url.path}"
        elif exc.status_code == 404 and detail == "Not Found":
            detail = (f"nothing at {request.url.path[:80]}; the API is GET /api/games, "
                      "GET /api/games/{game}/rules, POST /api/rooms, GET /api/rooms/{id}, "
                      "GET /api/rooms/{id}/games[/{index}[/replay[/{step}]]], GET /api/export")
        return _json_error(exc.status_code, str(detail))

    async def ws_route(ws: WebSocket) -> None:
        await srv().websocket(ws)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        nonlocal server
        server = Server(data, bot_delay=bot_delay, workers=workers, settings=config)
        app.state.server = server
        await server.startup()
        try:
            yield
        finally:
            await server.shutdown()

    routes = [
        Route("/", index),
        Route("/room/{room_id}", index),
        Route("/room/{room_id}/replay/{index}", replay_page),
        Route("/rules/{env}", rules_page),
        Route("/api/games", games),
        Route("/api/games/{env}/rules", rules_api),
        Route("/games/{env}/board.js", board),
        Route("/api/rooms", rooms, methods=["POST"]),
        Route("/api/rooms/{room_id}", room_info),
        Route("/api/rooms/{room_id}/games", room_games),
        Route("/api/rooms/{room_id}/games/{index}", room_game),
        Route("/api/rooms/{room_id}/games/{index}/replay", replay_summary),
        Route("/api/rooms/{room_id}/games/{index}/replay/{step}", replay_frame),
        Route("/api/export", export),
        WebSocketRoute("/ws/{room_id}", ws_route),
        Mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static"),
    ]
    handlers: dict[Any, Callable[..., Any]] = {HTTPException: http_error}
    return Starlette(routes=routes, lifespan=lifespan, exception_handlers=handlers,
                     middleware=[Middleware(pages.SecurityHeaders)])
