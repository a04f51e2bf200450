"""The types the table's signatures share: JSON data, the checked client message, the
moves a room logs, and the rules object of a table.

A table's game is known only at run time (found by its env name), so the table holds its
rules as a :data:`TableGame`, a ``Game`` whose states it passes back without looking into
them (``object``) and whose Views it reads only through :class:`~cardenvs.core.game.View`
(and the game's table face); code that takes any game is written over ``Game[S, V]``
(:mod:`agents.types`).
"""

from __future__ import annotations

from typing import TypeAlias, TypedDict

from cardenvs.core.game import Game, View

#: any JSON value, as ``json.loads`` gives it
JsonValue: TypeAlias = None | bool | int | float | str | list["JsonValue"] | dict[str, "JsonValue"]
#: a JSON object: a message, a snapshot, a record or part of one (built from Python data
#: ``json.dumps`` writes: its values are of any JSON-ready type)
JsonDict: TypeAlias = dict[str, object]
#: the rules object of a table: its states are opaque to the table, its Views are read as Views
TableGame: TypeAlias = Game[object, View]
#: an options dict in hashable form (:func:`~.catalog.options_key`)
OptionsKey: TypeAlias = tuple[tuple[str, object], ...]


class Message(TypedDict, total=False):
    """A client's message once checked (:func:`~.protocol.check_fields`): its ``type`` and
    the fields of every type, each of the type :data:`~.protocol.FIELDS` allows (a field a
    type does not have is absent)."""

    type: str
    token: str | None
    host_token: str | None
    seat: int
    name: str
    level: str
    id: int
    text: str
    step: int
    on: bool
    away_seconds: int
    turn_seconds: int | None


#: a move's marks in the log when a computer made it for a person (:func:`~.room.stand_in`)
StandIn = TypedDict("StandIn", {"stand_in": str, "for": str}, total=False)


class LogEntry(StandIn, total=False):
    """A move as a room logs it: ``step`` (from 1), the mover's ``seat``, the move's
    ``text`` (notation), its ``label`` in the mover's words and ``others`` in everyone
    else's (absent on a restored log whose words could not be replayed)."""

    step: int
    seat: int
    text: str
    label: str
    others: str


class MoveRow(TypedDict):
    """One row of a room's move history in the store (:meth:`~.store.Store.moves`)."""

    step: int
    seat: int
    action: int
    text: str
    label: str


class GameResult(TypedDict, total=False):
    """A finished game's ``result`` (:func:`~.catalog.game_result`; a resignation's,
    :meth:`~.room.Room.resign`, adds ``resigned``; one kept by an older table may lack
    ``why`` and ``hands``)."""

    returns: list[float]
    winners: list[int]
    truncated: bool
    infos: list[JsonDict]
    summary: str
    why: list[str]
    hands: list[list[int]] | None
    resigned: int


class Record(TypedDict, total=False):
    """A finished game's record (PROTOCOL.md, "Records"; :meth:`~.room.Room.record` writes
    every key; one kept by an older table may lack some, ``movers`` for one)."""

    game: str
    num_players: int
    options: JsonDict
    room: str
    index: int
    seats: list[JsonDict]
    seed: int
    start: JsonDict
    moves: list[str]
    ids: list[int]
    movers: list[int]
    result: GameResult | None
    started: str
    finished: str | None
