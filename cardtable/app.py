"""The table's ASGI application: :func:`create_app` wires the routes, the WebSocket and the
lifespan of one :class:`~.server.Server` for a data folder.

Where things are: the running table (rooms, connections, store, pool) is
:mod:`.server`; the WebSocket protocol (schemas, checks, dispatch) :mod:`.protocol`, its
handlers :mod:`.seating`, :mod:`~cardtable.play` and :mod:`~cardtable.coach`, the computer players
:mod:`.computers`, the timers :mod:`.presence`; a room's life and its file
:mod:`.lifecycle` and :mod:`.persistence`; the HTTP endpoints :mod:`.routes`, one client's
socket :mod:`.session`.  See ``PROTOCOL.md``; for operators ``docs/table.md``.

Every message and request is treated as hostile: sizes, nesting, rates (:mod:`.limits`),
origins and quotas (:mod:`.settings`), names (:mod:`.names`); the timers that keep a game
from stalling are in :mod:`.presence`, the pages for links that lead nowhere and the
security headers in :mod:`.pages`.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import HTTPExceptionHandler
from starlette.websockets import WebSocket

from . import guard, pages, session
from .addresses import Defences
from .connection import Conn
from .lifecycle import ROOM_FIELDS, Refused
from .persistence import StorageFailed
from .protocol import FIELDS, MAX_DEPTH, MAX_MESSAGE, parse_json, too_deep
from .routes import STATIC, Api, Pages, http_error
from .server import Server
from .settings import Settings

__all__ = ["FIELDS", "MAX_DEPTH", "MAX_MESSAGE", "ROOM_FIELDS", "STATIC", "Conn", "Refused", "Server",
           "StorageFailed", "create_app", "parse_json", "too_deep"]


def _routes(server: Callable[[], Server], config: Settings, defences: Defences) -> list[BaseRoute]:
    """Every route of the table."""
    page, api = Pages(server), Api(server, config)

    async def ws_route(ws: WebSocket) -> None:
        await session.websocket(server(), ws, defences)

    return [
        Route("/", page.index),
        Route("/room/{room_id}", page.index),
        Route("/room/{room_id}/replay/{index}", page.replay_page),
        Route("/rules/{env}", page.rules_page),
        Route("/api/games", api.games),
        Route("/api/games/{env}/rules", api.rules),
        Route("/games/{env}/board.js", page.board),
        Route("/api/rooms", api.rooms, methods=["POST"]),
        Route("/api/rooms/{room_id}", api.room_info),
        Route("/api/rooms/{room_id}/games", api.room_games),
        Route("/api/rooms/{room_id}/games/{index}", api.room_game),
        Route("/api/rooms/{room_id}/games/{index}/replay", api.replay_summary),
        Route("/api/rooms/{room_id}/games/{index}/replay/{step}", api.replay_frame),
        Route("/api/export", api.export),
        WebSocketRoute("/ws/{room_id}", ws_route),
        Mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static"),
    ]


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

    handlers: dict[type[Exception] | int, HTTPExceptionHandler] = {HTTPException: http_error}
    defences = Defences(config)  # the limits per address (guard.uvicorn_options: per connection too)
    app = Starlette(routes=_routes(srv, config, defences), lifespan=lifespan, exception_handlers=handlers,
                    middleware=[Middleware(guard.Edge, defences=defences), Middleware(pages.SecurityHeaders)])
    app.state.defences = defences
    return app
