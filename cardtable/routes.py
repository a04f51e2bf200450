"""The HTTP side of the table: the pages, the JSON API and the errors' answers.

:class:`Pages` serves what people open (the client, rules and replay pages, the boards);
:class:`Api` the JSON endpoints.  Both read the running :class:`~.server.Server` through a
function, since it is made when the application starts, after the routes.  See
``PROTOCOL.md`` for what each answers.
"""

from __future__ import annotations

import asyncio
import collections
import logging
import secrets
from collections.abc import AsyncIterator, Callable
from pathlib import Path

from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse

from . import catalog, pages
from .addresses import address_key
from .lifecycle import Refused
from .persistence import StorageFailed
from .protocol import MAX_MESSAGE, parse_json
from .records import Replay
from .rules_docs import NoRules, rules_doc, toc_html
from .server import Server
from .settings import Settings, same_origin
from .store import DamagedRecord
from .types import JsonValue, Record

log = logging.getLogger("cardtable")

STATIC = Path(__file__).resolve().parent / "static"
#: replay frames kept built (least recently used go first): (room, game, step, seat) -> JSON
FRAMES_KEPT = 2048


def address_of(request: Request) -> str:
    """The client's address key (:class:`~.guard.Edge` put it in the scope's state)."""
    key = request.scope.get("state", {}).get("address")
    return str(key) if key else address_key(request.client.host if request.client else None)


def json_error(status: int, message: str) -> JSONResponse:
    """A JSON error answer: ``{"error": message}``."""
    return JSONResponse({"error": message}, status_code=status)


class Pages:
    """The pages people open (HTML, the client and the boards)."""

    def __init__(self, server: Callable[[], Server]) -> None:
        self.srv = server

    async def index(self, request: Request) -> Response:
        """The client, for the lobby (``/``) and a room (``/room/{id}``)."""
        room_id = request.path_params.get("room_id")
        if room_id is not None and room_id not in self.srv().rooms:
            if room_id in self.srv().broken:
                return pages.broken_room(room_id)
            gone = self.srv().store.expired(room_id)
            if gone is not None:
                return pages.expired_room(room_id, gone[0], gone[1])
            return pages.no_room(room_id)
        page = STATIC / "index.html"
        if not page.exists():
            return json_error(404, "the client (cardtable/static/index.html) is not installed")
        return FileResponse(page)

    async def rules_page(self, request: Request) -> Response:
        """A game's rules as a page (``/rules/{game}``)."""
        try:
            doc = rules_doc(request.path_params["env"])
        except NoRules as err:
            return pages.error_page(404, "No rules here", str(err))
        return pages.rules_page(doc.title, doc.html, toc_html(doc))

    async def replay_page(self, request: Request) -> Response:
        """``/room/{id}/replay/{index}``: the client's page, which shows the replay viewer
        (also for an expired room, whose records are kept)."""
        srv = self.srv()
        room_id = request.path_params["room_id"]
        if room_id not in srv.rooms:
            if room_id in srv.broken:
                return pages.broken_room(room_id)
            if srv.store.expired(room_id) is None:
                return pages.no_room(room_id)
        raw = request.path_params["index"]
        try:
            found = raw.isdecimal() and len(raw) <= 9 and srv.store.game(room_id, int(raw)) is not None
        except DamagedRecord as err:
            return pages.error_page(410, "A damaged game", str(err))
        if not found:
            return pages.error_page(404, "No such game",
                                    f"Room {room_id[:40]!r} has no finished game {raw[:12]!r} to replay.")
        return FileResponse(STATIC / "index.html")

    async def board(self, request: Request) -> Response:
        """A game's board: the JavaScript module its kit names."""
        path = catalog.board_file(request.path_params["env"])
        if path is None:
            return json_error(404, f"no board for {request.path_params['env'][:40]!r}; "
                              f"the games are {', '.join(catalog.env_names())}")
        return FileResponse(path, media_type="text/javascript")


async def http_error(request: Request, exc: Exception) -> Response:
    """An HTTP error: a page for people, JSON for the API (saying what is there)."""
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
    return json_error(exc.status_code, str(detail))


async def _body(request: Request) -> JsonValue:
    """The JSON body of a room request; else the error answer (as ``HTTPException``)."""
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype != "application/json":
        raise HTTPException(415, f"the body must be JSON sent as Content-Type: application/json, "
                                 f"not {ctype[:60] or 'no type'}")
    body = b""
    try:
        async for chunk in request.stream():  # at most MAX_MESSAGE + one chunk is ever held
            body += chunk
            if len(body) > MAX_MESSAGE:
                raise HTTPException(413, f"the body is over {MAX_MESSAGE} bytes")
    except ClientDisconnect:  # gone, or its body took too long (guard.py): nobody to answer
        raise HTTPException(400, "the body did not arrive") from None
    try:
        return parse_json(body or b"{}")
    except ValueError as err:
        words = str(err) if str(err).startswith("nested") else "the body must be JSON"
        raise HTTPException(400, f'{words}: {{"game", "num_players", "options", "level"}}') from None


def _index(raw: str, known: str) -> int:
    """A game index of the path; else the 400 that says which there are."""
    if not raw.isdecimal() or len(raw) > 9:
        raise HTTPException(400, f"a game index is a number; finished games: {known}")
    return int(raw)


def _frame_json(rep: Replay, step: int, seat: int | None) -> bytes:
    """One replay frame as JSON (in a thread: building it replays up to 32 moves)."""
    return bytes(JSONResponse(rep.frame(step, seat)).body)


class Api:
    """The JSON endpoints (``/api/...``)."""

    def __init__(self, server: Callable[[], Server], config: Settings) -> None:
        self.srv = server
        self.config = config
        #: replay frames built, as JSON (least recently used first)
        self.frames: collections.OrderedDict[tuple[str, ...], bytes] = collections.OrderedDict()

    async def games(self, request: Request) -> Response:
        """``GET /api/games``: the games and their options."""
        return JSONResponse(catalog.all_games())

    async def rules(self, request: Request) -> Response:
        """A game's rules as HTML (``GET /api/games/{game}/rules``)."""
        try:
            return JSONResponse(rules_doc(request.path_params["env"]).as_json())
        except NoRules as err:
            return json_error(404, str(err))

    async def rooms(self, request: Request) -> Response:
        """``POST /api/rooms``: a new room."""
        if not same_origin(request.headers.get("origin"), request.headers.get("host"), self.config):
            return json_error(403, "a request from another site's page is refused: rooms are made from "
                                   "this table's own pages")
        try:
            obj = await _body(request)
        except HTTPException as err:
            return json_error(err.status_code, str(err.detail))
        try:
            return JSONResponse(self.srv().create_room(obj, address_of(request)), status_code=201)
        except ValueError as err:
            return json_error(400, str(err))
        except Refused as err:
            return JSONResponse({"error": str(err)}, status_code=err.status,
                                headers={"Retry-After": str(err.retry)})
        except StorageFailed as err:
            return json_error(503, str(err))

    def room_of(self, request: Request, records: bool = False) -> str:
        """The room id of the path (``records``: an expired room's finished games count:
        their records are kept); else the HTTP error that says why there is none."""
        srv = self.srv()
        room_id = str(request.path_params["room_id"])
        if room_id in srv.rooms:
            return room_id
        if room_id in srv.broken:
            raise HTTPException(503, f"room {room_id[:40]!r} could not be loaded from the file when the "
                                     "server started (the server's log says why)")
        gone = srv.store.expired(room_id)
        if gone is not None:
            if records:
                return room_id
            raise HTTPException(410, f"room {room_id[:40]!r} expired (nobody played in it for long); its "
                                     f"{gone[1]} finished games' records are kept at "
                                     f"/api/rooms/{room_id}/games")
        raise HTTPException(404, f"no room {room_id[:40]!r} on this server")

    async def room_info(self, request: Request) -> Response:
        """``GET /api/rooms/{id}``: the room as a spectator sees it."""
        srv = self.srv()
        return JSONResponse(srv.room_msg(srv.rooms[self.room_of(request)]))

    async def room_games(self, request: Request) -> Response:
        """``GET /api/rooms/{id}/games``: the finished games."""
        room_id = self.room_of(request, records=True)
        return JSONResponse({"games": self.srv().store.game_list(room_id)})

    def finished_game(self, request: Request) -> tuple[str, int, Record]:
        """The room, index and record of the path's finished game; else the HTTP error."""
        room_id = self.room_of(request, records=True)
        store = self.srv().store
        raw = request.path_params["index"]
        known = ", ".join(str(r["index"]) for r in store.game_list(room_id)) or "none yet"
        try:
            record = store.game(room_id, _index(raw, known))
        except DamagedRecord as err:
            raise HTTPException(410, str(err)) from None
        if record is None:
            raise HTTPException(404, f"no finished game {raw} in room {room_id}; finished games: {known}")
        return room_id, int(raw), record

    async def room_game(self, request: Request) -> Response:
        """``GET /api/rooms/{id}/games/{index}``: a finished game's record (a download)."""
        room_id, index, record = self.finished_game(request)  # else the error, as JSON
        name = f"cardtable-{room_id}-{index}.json"
        return JSONResponse(record, headers={"Content-Disposition": f'attachment; filename="{name}"'})

    async def replay_of(self, request: Request) -> Replay:
        """The replay of the path's finished game; else the HTTP error."""
        room_id, index, record = self.finished_game(request)
        try:
            return await self.srv().replay(room_id, index, record)
        except (ValueError, KeyError, TypeError) as err:
            log.error("the record of game %d of room %s does not replay: %s", index, room_id, err)
            raise HTTPException(409, f"this game's record cannot be replayed by the rules of this server "
                                     f"({str(err)[:200]})") from None

    async def replay_summary(self, request: Request) -> Response:
        """``GET /api/rooms/{id}/games/{index}/replay``: the moves, seats and result."""
        return JSONResponse((await self.replay_of(request)).summary())

    async def replay_frame(self, request: Request) -> Response:
        """``GET /api/rooms/{id}/games/{index}/replay/{step}[?seat=S]``: one position (built
        in a thread, then kept while among the :data:`FRAMES_KEPT` latest used: a finished
        game's frames never change)."""
        p = request.path_params
        key = (str(p["room_id"]), str(p["index"]), str(p["step"]), str(request.url.query))
        found = self.frames.get(key)
        if found is not None:
            self.frames.move_to_end(key)
            return Response(found, media_type="application/json")
        rep = await self.replay_of(request)
        raw = request.path_params["step"]
        if not raw.isdecimal() or len(raw) > 9 or int(raw) > rep.steps:
            return json_error(400, f"step must be a number in 0..{rep.steps} (the moves played), "
                                   f"got {raw[:20]!r}")
        seat_raw = request.query_params.get("seat", "")
        n = rep.game.num_players
        if seat_raw and (not seat_raw.isdecimal() or len(seat_raw) > 3 or int(seat_raw) >= n):
            return json_error(400, f"seat must be a seat number in 0..{n - 1}, or left out for what "
                                   f"everyone saw; got {seat_raw[:20]!r}")
        unknown = sorted(set(request.query_params) - {"seat"})
        if unknown:
            return json_error(400, f"unknown parameter(s) {', '.join(unknown)[:100]}; the only one is seat")
        body = await asyncio.to_thread(_frame_json, rep, int(raw), int(seat_raw) if seat_raw else None)
        self.frames[key] = body
        while len(self.frames) > FRAMES_KEPT:
            self.frames.popitem(last=False)
        return Response(body, media_type="application/json")

    def _operator(self, request: Request) -> Response | None:
        """The refusal of an export request without the operator's token (``None``: it has it)."""
        token = self.config.operator_token
        if token is None:
            return json_error(404, "the export is off on this table: its operator starts the server with "
                                   "--operator-token (or CARDTABLE_OPERATOR_TOKEN) and sends it as "
                                   "Authorization: Bearer <token>")
        given = request.headers.get("authorization", "")
        scheme, _, value = given.partition(" ")
        if scheme.lower() != "bearer" or not secrets.compare_digest(value.strip().encode(), token.encode()):
            return JSONResponse({"error": "the export is the operator's: send the operator token as "
                                          "Authorization: Bearer <token>"},
                                status_code=401, headers={"WWW-Authenticate": 'Bearer realm="cardtable"'})
        return None

    async def export(self, request: Request) -> Response:
        """``GET /api/export``: every finished game's record, for the operator."""
        refused = self._operator(request)
        if refused is not None:
            return refused
        srv = self.srv()

        async def lines() -> AsyncIterator[str]:
            for n, (room_id, text) in enumerate(srv.store.export()):
                room = srv.rooms.get(room_id)
                if room is not None and room.status == "playing":
                    continue  # a room playing now (a rematch) is left out until it stops
                yield text + "\n"
                if n % 100 == 99:
                    await asyncio.sleep(0)  # let the tables play meanwhile

        return StreamingResponse(lines(), media_type="application/x-ndjson",
                                 headers={"Content-Disposition": 'attachment; filename="cardtable.jsonl"'})
