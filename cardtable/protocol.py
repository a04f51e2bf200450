"""The WebSocket protocol: its messages' schemas, the checks every message passes, and the
dispatch to their handlers (the prose is ``PROTOCOL.md``).

A client's text is checked here in order (rate, size, JSON, nesting, type, fields, the
type's rate, ``hello`` first) and then handed to the handler of its type
(:data:`HANDLERS`: seating and the host's in :mod:`.seating`, the game in :mod:`~cardtable.play`,
the coach in :mod:`~cardtable.coach`).  A malformed or over-rate message is answered with an
``error``; a connection that keeps sending them is closed.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Mapping
from typing import cast

from . import coach, play, seating
from .connection import Conn
from .limits import RATES, TOTAL
from .ports import Table
from .room import Room, RoomError
from .types import JsonValue, Message

log = logging.getLogger("cardtable")

#: the largest message or request body accepted (bytes)
MAX_MESSAGE = 4096
#: the deepest nesting of lists and objects a message or request body may have (the
#: protocol's own messages are flat objects, room requests one level more)
MAX_DEPTH = 4
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
    "ping": {},
}

#: what a message handler is: (table, room, client, checked message) -> None, or RoomError
Handler = Callable[[Table, Room, Conn, Message], None]
#: each message type's handler
HANDLERS: dict[str, Handler] = {
    "hello": seating.on_hello,
    "sit": seating.on_sit,
    "leave": seating.on_leave,
    "level": seating.on_level,
    "settings": seating.on_settings,
    "start": play.on_start,
    "rematch": play.on_rematch,
    "resign": play.on_resign,
    "move": play.on_move,
    "coach": coach.on_coach,
    "ping": lambda t, room, conn, msg: None,  # keeps the connection from being closed as idle
}


def too_deep(obj: object, limit: int = MAX_DEPTH) -> bool:
    """Whether ``obj`` nests lists and objects more than ``limit`` levels (without recursion)."""
    stack: list[tuple[object, int]] = [(obj, 1)]
    while stack:
        x, depth = stack.pop()
        if isinstance(x, (list, dict)):
            if depth > limit:
                return True
            stack.extend((y, depth + 1) for y in (x.values() if isinstance(x, dict) else x))
    return False


def parse_json(text: str | bytes) -> JsonValue:
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


class Refusal(ValueError):
    """A message that is refused: what to tell the client, and which type it was for."""

    def __init__(self, message: str, for_type: str | None = None) -> None:
        super().__init__(message)
        self.for_type = for_type


def refuse(conn: Conn, message: str, for_type: str | None = None) -> None:
    """Answer a malformed or over-rate message with an ``error``; a connection that
    keeps sending them is closed (code 1008), the others of its room stay."""
    conn.error(message, for_type)
    if not conn.limits.strikes.take(time.monotonic()):
        log.warning("closed a connection to room %s: too many refused messages", conn.room_id)
        conn.flooded = True
        conn.close(1008, "too many refused messages")


def _message(text: str) -> dict[str, JsonValue]:
    """The message object of a text (size, JSON, nesting, a string type); else ``Refusal``."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_MESSAGE:
        raise Refusal(f"message too long: at most {MAX_MESSAGE} bytes")
    try:
        msg = parse_json(text)
    except ValueError as err:
        words = str(err) if str(err).startswith("nested") else "not JSON"
        raise Refusal(f'{words}: every message is one JSON object with a "type"') from None
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        raise Refusal('every message is one JSON object with a string "type"; the types are '
                      + ", ".join(FIELDS))
    return msg


def check_fields(msg: Mapping[str, object]) -> str:
    """The message's type, once its fields are those of the type (:data:`FIELDS`); else
    ``Refusal``."""
    kind = str(msg["type"])
    fields = FIELDS.get(kind)
    if fields is None:
        raise Refusal(f"unknown message type {kind[:40]!r}; the types are {', '.join(FIELDS)}", None)
    for name, (types, required) in fields.items():
        if name not in msg or (msg[name] is None and type(None) not in types):
            if required:
                raise Refusal(f"{kind}: the field {name!r} is missing", kind)
            continue
        value = msg[name]
        if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
            names = " or ".join("null" if t is type(None) else t.__name__ for t in types)
            raise Refusal(f"{kind}: the field {name!r} must be {names}, got {type(value).__name__}", kind)
    return kind


def handle(t: Table, room: Room, conn: Conn, text: str) -> None:
    """One message from a client: checked, then done, or an ``error`` to that client."""
    now = time.monotonic()
    total = conn.limits.total
    if not total.take(now):
        refuse(conn, f"too many messages: at most {TOTAL.words()} (this one was ignored)")
        return
    try:
        msg = _message(text)
        kind = check_fields(msg)
    except Refusal as err:
        refuse(conn, str(err), err.for_type)
        return
    bucket = conn.limits.kind(kind)
    if not bucket.take(now):
        refuse(conn, f"too many {kind!r} messages: at most {RATES[kind].words()} (this one was "
               "ignored)", kind)
        return
    if kind != "hello" and not conn.hello:
        refuse(conn, 'send "hello" first ({"type": "hello", "token": null, "host_token": null})', kind)
        return
    try:
        HANDLERS[kind](t, room, conn, cast(Message, msg))  # its fields are checked
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
