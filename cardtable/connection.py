"""One WebSocket client of a room: who it is, its outgoing queue and its message rates.

A :class:`Conn` is what every message handler is given; it sends by queueing (a writer task
drains the queue into the socket), so a handler never waits on a slow client, and a test
can stand one up without a socket (see ``tests/web/test_handlers.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Mapping
from typing import Protocol, cast

from .limits import ConnLimits
from .types import JsonDict

#: messages queued for one client before it is considered gone
MAX_QUEUE = 1000


class Socket(Protocol):
    """What a :class:`Conn` uses of its WebSocket (Starlette's ``WebSocket`` is one)."""

    @property
    def path_params(self) -> Mapping[str, object]: ...

    async def send_text(self, data: str) -> None: ...

    async def close(self, code: int = 1000, reason: str | None = None) -> None: ...


class Conn:
    """One WebSocket client of a room: who it is (seat, host), its outgoing queue and its
    message rates (:mod:`.limits`)."""

    def __init__(self, ws: Socket | None) -> None:
        self.ws = ws
        self.seat: int | None = None
        self.token: str | None = None
        self.host = False
        self.hello = False
        #: texts to send, or a ``(code, reason)`` to close with
        self.queue: asyncio.Queue[str | tuple[int, str]] = asyncio.Queue()
        self.closed = False
        self.limits = ConnLimits()
        #: when it last sent anything (``time.monotonic()``; the idle timeout)
        self.heard = time.monotonic()
        #: closed for flooding (too many refused messages): it counts against its address
        self.flooded = False

    @property
    def room_id(self) -> object:
        """The room of the socket's path (for the log)."""
        return self.ws.path_params.get("room_id") if self.ws is not None else None

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

    def send(self, msg: JsonDict) -> None:
        """Queue a message object."""
        self.send_text(json.dumps(msg, separators=(",", ":")))

    def error(self, message: str, for_type: str | None = None) -> None:
        """Tell this client what was wrong with its message."""
        self.send({"type": "error", "message": message, "for": for_type})

    async def writer(self) -> None:
        """Send the queued messages in order until the connection ends (a connection with a
        socket: one without fails its first send, as a gone client does)."""
        ws = cast(Socket, self.ws)
        while True:
            text = await self.queue.get()
            if not isinstance(text, str):
                with contextlib.suppress(Exception):
                    await ws.close(code=text[0], reason=text[1])
                return
            try:
                await ws.send_text(text)
            except Exception:  # the client went away; the reader notices too
                self.closed = True
                return
