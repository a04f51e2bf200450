"""The table's edge, before any request reaches the application.

* **Connections** (:func:`protocols`: uvicorn's h11 and WebSocket protocols, each with a
  guard): at most ``http_conns_per_address`` TCP connections at once from one client address
  (an IPv6 address counts as its /64; a trusted proxy's connections are not counted), and
  at most :func:`open_files_cap` in all, so the server never runs out of open files; the
  connections beyond are closed at once.  A request's headers must arrive within
  ``header_seconds`` and its body within ``body_seconds`` (answered ``408`` and closed):
  uvicorn has no such timeout of its own, and a half-sent request would be held forever.
* **Requests** (:class:`Edge`, ASGI): the client's address (a trusted proxy's
  ``X-Forwarded-For``, see :func:`~.addresses.client_host`), put in ``scope["state"]
  ["address"]`` as its key (:func:`~.addresses.address_key`); a token bucket per address for
  every HTTP request and socket handshake (over it: ``429`` with ``Retry-After``); an address
  barred after repeated floods opens no socket.

:func:`uvicorn_options` gives uvicorn all of it (``__main__`` and the tests' server use it).
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import resource
import time
from typing import TYPE_CHECKING, TypedDict

import h11
from starlette.types import ASGIApp, Receive, Scope, Send

if TYPE_CHECKING:
    from starlette.applications import Starlette
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from .addresses import Defences, address_key, client_host, is_trusted

log = logging.getLogger("cardtable")

#: connections uvicorn lets wait in the kernel's queue to be accepted; asyncio accepts up
#: to this many in one go, and a refused one is closed only a few loop turns later
BACKLOG = 64
#: accept bursts that can be open before the first one's refusals are closed (accept, the
#: transport's task, connection_made, the close: a fast client fills the queue each turn);
#: with one burst reserved, a flood of half-sent requests on a loaded machine still ran
#: the server out of open files
BURSTS_IN_FLIGHT = 4
#: open files kept for the server's own use (its file, the workers' pipes, imports)
FILE_RESERVE = 64
#: the largest request head (request line and headers) h11 reads
MAX_HEAD = 16 * 1024
#: uvicorn's timeout for a kept-alive connection without a request (seconds)
KEEP_ALIVE = 5
TIMED_OUT = b"HTTP/1.1 408 Request Timeout\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"


def open_files_cap() -> int:
    """Connections open at once in all: the process's open-file limit, less what the
    server needs itself and the accept bursts in flight."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        soft = 65536
    return max(8, soft - FILE_RESERVE - BURSTS_IN_FLIGHT * BACKLOG)


class Connections:
    """The TCP connections open, in all and per address key."""

    def __init__(self, defences: Defences, cap: int | None = None) -> None:
        self.defences = defences
        self.settings = defences.settings
        self.cap = open_files_cap() if cap is None else cap
        #: transport -> its address key ("" when not counted per address: a trusted proxy)
        self.open: dict[asyncio.BaseTransport, str] = {}
        self.per_key: dict[str, int] = {}

    def admit(self, transport: asyncio.BaseTransport) -> bool:
        """Count a new connection; ``False`` (not counted) when it is over a limit."""
        if transport in self.open:  # the same connection, upgraded to a socket
            return True
        peer = transport.get_extra_info("peername")
        host = peer[0] if isinstance(peer, (tuple, list)) and peer else None
        key = "" if is_trusted(host, self.settings.proxies) else address_key(host)
        if len(self.open) >= self.cap:
            self.defences.count("connections refused (the table at its most open files)", key or None)
            return False
        if key and self.per_key.get(key, 0) >= self.settings.http_conns_per_address:
            self.defences.count("connections refused (over the address's limit)", key)
            return False
        self.open[transport] = key
        if key:
            self.per_key[key] = self.per_key.get(key, 0) + 1
        return True

    def release(self, transport: asyncio.BaseTransport) -> None:
        """A connection ended (nothing if it was not counted)."""
        key = self.open.pop(transport, None)
        if key:
            left = self.per_key[key] - 1
            if left:
                self.per_key[key] = left
            else:
                del self.per_key[key]


class GuardedH11(H11Protocol):
    """h11 with the connection limits and the request timeouts (``conns``: set by
    :func:`protocols`)."""

    conns: Connections
    _timer: asyncio.TimerHandle | None = None
    _phase: str | None = None
    _upgraded = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if not self.conns.admit(transport):
            transport.abort()
            return
        self._arm("headers")

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel()
        self.conns.release(self.transport)
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self._upgraded or self.transport.is_closing():
            self._cancel()
        elif self.conn.their_state is h11.IDLE:  # the headers are still coming
            if self._phase != "headers":
                self._arm("headers")
        elif self.conn.their_state is h11.SEND_BODY:
            if self._phase != "body":
                self._arm("body")
        else:
            self._cancel()

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        self._upgraded = True
        self._cancel()
        super().handle_websocket_upgrade(event)

    def _arm(self, phase: str) -> None:
        self._cancel()
        self._phase = phase
        settings = self.conns.settings
        seconds = settings.header_seconds if phase == "headers" else settings.body_seconds
        self._timer = self.loop.call_later(seconds, self._expired, phase)

    def _cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer, self._phase = None, None

    def _expired(self, phase: str) -> None:
        self._timer = None
        if self.transport.is_closing():
            return
        host = self.client[0] if self.client else None
        self.conns.defences.count(f"requests timed out (their {phase})", address_key(host))
        if self.conn.our_state is h11.IDLE or self.conn.our_state is h11.SEND_RESPONSE:
            self.transport.write(TIMED_OUT)
        self.transport.close()


class GuardedWebSocket(WebSocketsSansIOProtocol):
    """The socket protocol, releasing its connection's count when it ends (``conns``: set by
    :func:`protocols`)."""

    conns: Connections

    def connection_lost(self, exc: Exception | None) -> None:
        self.conns.release(self.transport)
        super().connection_lost(exc)


def protocols(conns: Connections) -> tuple[type[asyncio.Protocol], type[asyncio.Protocol]]:
    """uvicorn's HTTP and WebSocket protocol classes, guarded by ``conns`` (see the module)."""
    return (type("GuardedH11", (GuardedH11,), {"conns": conns}),
            type("GuardedWebSocket", (GuardedWebSocket,), {"conns": conns}))


class UvicornOptions(TypedDict):
    """The keyword arguments :func:`uvicorn_options` gives ``uvicorn.run`` (or ``Config``)."""

    http: type[asyncio.Protocol]
    ws: type[asyncio.Protocol]
    proxy_headers: bool
    backlog: int
    h11_max_incomplete_event_size: int
    timeout_keep_alive: int
    ws_max_size: int


def uvicorn_options(app: Starlette, cap: int | None = None) -> UvicornOptions:
    """uvicorn's settings for the table ``app`` (from :func:`~.app.create_app`): the guarded
    protocols, no proxy headers of uvicorn's own (:class:`Edge` reads those of the trusted
    proxies only), a bounded request head, the accept queue (``cap``: connections in all,
    else :func:`open_files_cap`)."""
    http, ws = protocols(Connections(app.state.defences, cap))
    return {"http": http, "ws": ws, "proxy_headers": False, "backlog": BACKLOG,
            "h11_max_incomplete_event_size": MAX_HEAD, "timeout_keep_alive": KEEP_ALIVE,
            "ws_max_size": 65536}


def _header(scope: Scope, name: bytes) -> str | None:
    """A request header's value (the last one of that name)."""
    found = None
    for key, value in scope.get("headers", ()):
        if key == name:
            found = value.decode("latin-1")
    return found


class Edge:
    """ASGI middleware: the client's address and the limits per address of every request
    (see the module)."""

    def __init__(self, app: ASGIApp, defences: Defences) -> None:
        self.app = app
        self.defences = defences

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        peer = scope.get("client")
        host = client_host(peer[0] if peer else None, _header(scope, b"x-forwarded-for"),
                           self.defences.settings.proxies)
        if peer is None or host != peer[0]:
            scope = dict(scope)
            scope["client"] = (host, 0) if host else None
        key = address_key(host)
        scope.setdefault("state", {})["address"] = key
        now = time.monotonic()
        wait = self.defences.http.take(key, now)
        barred = self.defences.penalties.barred(key, now) if scope["type"] == "websocket" else 0
        if wait:
            self.defences.count("requests over the rate (429)", key)
            most = self.defences.settings.http_rate
            await _refuse(scope, send, 429, math.ceil(wait),
                          f"too many requests from your address: at most {most:g} a second")
        elif barred:
            self.defences.count("sockets refused (address barred after floods)", key)
            await _refuse(scope, send, 429, barred,
                          f"your address is barred for {barred} s after repeated floods")
        else:
            await self.app(scope, receive, send)


async def _refuse(scope: Scope, send: Send, status: int, retry: int, message: str) -> None:
    """Answer a refused request (a socket: closed before it is accepted, which the client
    sees as a refused handshake)."""
    if scope["type"] == "websocket":
        await send({"type": "websocket.close", "code": 4429, "reason": message[:120]})
        return
    body = json.dumps({"error": message}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"retry-after", str(retry).encode()),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})
