"""One client's WebSocket session (``/ws/{room_id}``): the handshake's checks (origin, the
room, the connection limits), the reading loop that hands each text to :mod:`.protocol`,
and what its end changes (the host's role, absent seats)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable

from starlette.websockets import WebSocket, WebSocketDisconnect

from . import protocol
from .addresses import Defences, address_key
from .connection import Conn
from .room import Room
from .server import Server
from .settings import same_origin

log = logging.getLogger("cardtable")

#: how long a connection the server closes gets to receive what was queued before the close
CLOSE_SECONDS = 5.0


def address_of(ws: WebSocket) -> str:
    """The client's address key (:class:`~.guard.Edge` put it in the scope's state)."""
    key = ws.scope.get("state", {}).get("address")
    return str(key) if key else address_key(ws.client.host if ws.client else None)


async def _admit(server: Server, ws: WebSocket) -> Room | None:
    """Accept the socket if it may come in; its room, or ``None`` when it was closed."""
    room_id = ws.path_params["room_id"]
    if not same_origin(ws.headers.get("origin"), ws.headers.get("host"), server.settings):
        # a page of another site opening the table's socket: refused at the handshake (403)
        log.warning("refused a socket to room %s from the page of %s", room_id[:40],
                    ws.headers.get("origin", "")[:80])
        await ws.close(code=4403)
        return None
    await ws.accept()
    room = server.rooms.get(room_id)
    if room is None:
        if room_id in server.broken:
            await ws.close(code=4500, reason="this room could not be loaded")
        elif server.store.expired(room_id) is not None:
            await ws.close(code=4410, reason="this room has expired")
        else:
            await ws.close(code=4404, reason="no such room")
        return None
    address = address_of(ws)
    limits = server.settings
    refusal = None
    if server.open_conns >= limits.max_conns:
        refusal = (4503, f"the table is full ({limits.max_conns} connections); try again later")
    elif server.by_address.get(address, 0) >= limits.conns_per_address:
        refusal = (4429, f"too many connections from your address (at most {limits.conns_per_address} "
                         "at once): close some pages of this table")
    if refusal is not None:
        await ws.send_text(json.dumps({"type": "error", "message": refusal[1], "for": None}))
        await ws.close(code=refusal[0], reason=refusal[1][:120])
        return None
    return room


async def _read(server: Server, room: Room, conn: Conn, ws: WebSocket) -> None:
    """Hand every text the client sends to the protocol until it goes or is closed."""
    try:
        while not conn.closed:
            msg = await ws.receive()
            if msg["type"] == "websocket.disconnect":
                break
            conn.heard = time.monotonic()
            text = msg.get("text")
            if text is None:
                protocol.refuse(conn, "send text frames of JSON, not binary")
                continue
            protocol.handle(server, room, conn, text)
    except WebSocketDisconnect:
        pass


async def _gone(server: Server, room: Room, conn: Conn, writer: asyncio.Task[None]) -> None:
    """After the connection: the host role and the absent seats; the queued messages sent."""
    room.active = time.time()
    if server.rooms.get(room.id) is room:
        if conn.host and not any(c.host for c in server.conns.get(room.id, ())):
            server.presence.host_left(room)  # after the grace the role passes on
        server.presence.check_away(room)
    if conn.closed:  # the server closes it: the writer sends what is queued, then the close
        with contextlib.suppress(BaseException):
            await asyncio.wait_for(asyncio.shield(writer), CLOSE_SECONDS)
    conn.closed = True
    writer.cancel()
    with contextlib.suppress(BaseException):
        await writer
    if conn.seat is not None and server.rooms.get(room.id) is room:
        server.broadcast_room(room)


def _watch(server: Server, conn: Conn) -> Callable[[], None]:
    """Close the connection if it sends no ``hello`` within ``handshake_seconds``, and when
    it sends nothing for ``idle_seconds`` (the table's pages send a ``ping`` every 25 s);
    returns what stops the watch."""
    loop = asyncio.get_running_loop()
    seconds, idle = server.settings.handshake_seconds, server.settings.idle_seconds
    start = time.monotonic()
    timer: list[asyncio.TimerHandle] = []

    def check() -> None:
        if conn.closed:
            return
        now = time.monotonic()
        if not conn.hello:
            if now - start >= seconds:
                conn.error(f'no "hello" within {seconds:g} seconds: closed')
                conn.close(4408, "no hello")
                return
            due = min(start + seconds, now + idle)
        elif now - conn.heard >= idle:
            conn.error(f"nothing sent for {idle:g} seconds: closed")
            conn.close(4408, "idle")
            return
        else:
            due = conn.heard + idle
        timer[0] = loop.call_later(max(0.01, due - now), check)

    timer.append(loop.call_later(min(seconds, idle), check))
    return lambda: timer[0].cancel()


async def websocket(server: Server, ws: WebSocket, defences: Defences | None = None) -> None:
    """``/ws/{room_id}``: one client's session (``defences``: an address whose sockets keep
    being closed for flooding is barred there)."""
    room = await _admit(server, ws)
    if room is None:
        return
    address = address_of(ws)
    conn = Conn(ws)
    server.hub.join(room.id, conn, address)
    room.active = time.time()
    writer = asyncio.ensure_future(conn.writer())
    stop_watch = _watch(server, conn)
    try:
        await _read(server, room, conn, ws)
    finally:
        stop_watch()
        server.hub.part(room.id, conn, address)
        if defences is not None and conn.flooded:
            barred = defences.penalties.flooded(address, time.monotonic())
            if barred:
                defences.count("addresses barred after floods", address)
                log.warning("barred %s for %.0f s: its sockets keep being closed for flooding",
                            address, barred)
        await _gone(server, room, conn, writer)
