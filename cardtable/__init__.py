"""The browser card table: rooms where people and computer players play the cardenvs games.

An ASGI server (Starlette on uvicorn) with WebSockets and a SQLite file; the protocol between
the server and the static client is ``cardtable/PROTOCOL.md``.  Start it with
``python -m cardtable`` (or ``python3 dev.py serve``).

Modules: :mod:`.catalog` (what the lobby offers, public views, results), :mod:`.moves`
(labels, cards and spots of moves), :mod:`.room` (a room's seats and game), :mod:`.store`
(SQLite), :mod:`.workers` (computer players and coaches off the event loop), :mod:`.app`
(the application) with :mod:`.server` (the running table), :mod:`.protocol` (the messages'
schemas and dispatch), their handlers (:mod:`.seating`, :mod:`~cardtable.play`, :mod:`~cardtable.coach`),
:mod:`.computers`, :mod:`.routes` (HTTP) and :mod:`.session` (one socket),
:mod:`.records` (replaying a finished game's record), :mod:`.rules_docs` (the rules documents);
what keeps a public table fair and bounded: :mod:`.presence` (nobody stalls a game),
:mod:`.limits`, :mod:`.settings`, :mod:`.names`, :mod:`.pages` (``docs/table.md``).
"""

from __future__ import annotations

__all__ = ["create_app"]


def __getattr__(name: str) -> object:
    if name == "create_app":
        from .app import create_app

        return create_app
    raise AttributeError(name)
