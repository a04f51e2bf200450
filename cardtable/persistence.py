"""Rooms to and from the file (:class:`~.store.Store`): a room's saved form
(:func:`snapshot`, :func:`last_move`, :func:`restore`), every room loaded at start-up, and
every change written before anyone is told of it (:func:`commit`)."""

from __future__ import annotations

import json
import logging
import sqlite3
import time
from collections.abc import Mapping
from typing import TypedDict

import numpy as np

from .moves import words
from .room import Memo, Play, Room, RoomError, Seat, SeatData, check_time_settings, seat_data
from .store import Store, storage_cause
from .types import GameResult, JsonDict, LogEntry, MoveRow, Record

log = logging.getLogger("cardtable")

#: what a failed write to the file raises
STORAGE_ERRORS = (sqlite3.Error, OSError)


class StorageFailed(RuntimeError):
    """A new room could not be written (the request is answered 503)."""


class PlaySnapshot(TypedDict):
    """The game of a :class:`Snapshot` (a file written before ``stand_ins`` lacks it)."""

    index: int
    seed: int
    start: JsonDict
    state: JsonDict
    rng: Mapping[str, object]
    started: str
    step: int
    round_result: JsonDict | None
    result: GameResult | None
    finished: str | None
    stand_ins: list[LogEntry]


class Snapshot(TypedDict):
    """A room's saved form (:func:`snapshot`; a file written before ``host_seat`` or
    ``settings`` lacks them)."""

    id: str
    env: str
    num_players: int
    options: JsonDict
    default_level: str
    host_token: str
    created: str
    status: str
    games_played: int
    host_seat: int | None
    settings: dict[str, int | None]
    seats: list[SeatData]
    play: PlaySnapshot | None


def snapshot(room: Room) -> Snapshot:
    """Everything needed to carry on after a restart (JSON-ready)."""
    p = room.play
    return {
        "id": room.id, "env": room.env, "num_players": room.num_players, "options": room.options,
        "default_level": room.default_level, "host_token": room.host_token, "created": room.created,
        "status": room.status, "games_played": room.games_played, "host_seat": room.host_seat,
        "settings": room.settings(),
        "seats": [seat_data(s) for s in room.seats],
        "play": None if p is None else {
            "index": p.index, "seed": p.seed, "start": p.start, "state": room.game.to_json(p.state),
            "rng": p.rng.bit_generator.state, "started": p.started, "step": p.step,
            "round_result": p.round_result, "result": p.result, "finished": p.finished,
            # a computer's moves for an absent person: their marks outlive a restart
            "stand_ins": [{"step": e["step"], "stand_in": e["stand_in"], "for": e["for"]}
                          for e in p.log if "stand_in" in e],
        },
    }


def last_move(room: Room) -> JsonDict:
    """The latest move as the store keeps it (one row of the move history)."""
    p = room.play
    assert p is not None and p.log
    e = p.log[-1]
    return {"game": p.index, "step": e["step"], "seat": e["seat"], "action": p.ids[-1],
            "text": e["text"], "label": e["label"]}


def restore(data: Snapshot, moves: list[MoveRow]) -> Room:
    """A room from its snapshot and its current game's moves (from the store), at the
    exact position it was saved in (``ValueError`` if they disagree)."""
    room = Room(data["id"], data["env"], int(data["num_players"]), data["options"],
                data["default_level"], data["host_token"])
    room.created = data["created"]
    room.status = data["status"]
    room.games_played = int(data["games_played"])
    room.seats = [Seat(**s) for s in data["seats"]]
    room.host_seat = data.get("host_seat")  # absent in files written before it existed
    for name, value in check_time_settings(data.get("settings", {})).items():
        setattr(room, name, value)
    pd = data["play"]
    if pd is not None:
        state = room.game.from_json(pd["state"])
        rng = np.random.default_rng()
        rng.bit_generator.state = pd["rng"]
        moves = moves[: pd["step"]]  # a move row is written with its snapshot, never ahead of it
        if len(moves) != pd["step"]:
            raise ValueError(f"room {room.id}: {len(moves)} moves saved for the position after "
                             f"{pd['step']}")
        room.play = Play(index=pd["index"], seed=pd["seed"], start=pd["start"], state=state, rng=rng,
                         started=pd["started"], ids=[m["action"] for m in moves],
                         movers=[m["seat"] for m in moves],
                         log=[{"step": m["step"], "seat": m["seat"], "text": m["text"], "label": m["label"]}
                              for m in moves],
                         round_result=pd["round_result"], result=pd["result"], finished=pd["finished"])
        _reword_log(room)
        marks = {int(m["step"]): m for m in pd.get("stand_ins", [])}  # absent in older files
        for entry in room.play.log:
            mark = marks.get(int(entry["step"]))
            if mark is not None:
                entry["stand_in"], entry["for"] = str(mark["stand_in"]), str(mark["for"])
    return room


def _reword_log(room: Room) -> None:
    """Give a restored log its third-person words (the store keeps the mover's): replay
    the game from its seed, describing each move from its mover's View before it."""
    p = room.play
    assert p is not None
    rng = np.random.default_rng(p.seed)
    state = room.game.new_state(rng)
    try:
        for entry, action in zip(p.log, p.ids):
            before = room.game.view(state, entry["seat"])
            entry["others"] = words(room.env, room.game, action, before).others
            room.game.apply(state, action, rng)
    except ValueError:  # a game saved by other rules: the rest keep the mover's words
        pass


def load_rooms(store: Store) -> tuple[dict[str, Room], dict[str, str]]:
    """Every room of the file, and the rooms whose row could not be loaded: id -> what went
    wrong (logged; their links say so)."""
    rooms: dict[str, Room] = {}
    broken: dict[str, str] = {}
    for room_id, text, updated in store.rooms():
        try:
            data_room = json.loads(text)
            pd = data_room["play"]
            moves = [] if pd is None else store.moves(room_id, pd["index"])
            room = restore(data_room, moves)
            if room.id != room_id:
                raise ValueError(f"the row of room {room_id} holds room {room.id!r}")
        except Exception as err:  # one bad row must not stop the others, nor go unnoticed
            why = f"{type(err).__name__}: {str(err)[:200]}"
            log.error("room %s could not be loaded from %s and is skipped (%s); its link says so",
                      room_id, store.path, why)
            broken[room_id] = why
            continue
        room.active = updated
        rooms[room.id] = room
    return rooms, broken


def save_new(store: Store, room: Room) -> None:
    """Write a new room (``StorageFailed`` when the write fails)."""
    try:
        store.save_room(room.id, snapshot(room))
    except STORAGE_ERRORS as err:
        cause = storage_cause(err)
        log.error("could not save a new room: %s (%s: %s)", cause, type(err).__name__, err)
        raise StorageFailed(f"{cause}; the new room was not saved, so it was not made; try again "
                            "later") from None


def commit(store: Store, room: Room, memo: Memo, move: bool = False,
           record: Record | None = None, prune_moves: bool = False) -> None:
    """Write the room as it is now (and the move just played, and a finished game's
    record; ``prune_moves``: a new game was dealt, the moves of earlier games, which
    their records hold, are deleted).  When the write fails the change is undone (back
    to ``memo``, taken before it) and ``RoomError`` tells the one who asked: what the
    file holds is what everyone sees, nobody is told of a change the file does not have."""
    p = room.play
    prune = p.index if prune_moves and p is not None else None
    try:
        store.save_room(room.id, snapshot(room), last_move(room) if move else None, record,
                        prune_moves_before=prune)
        room.active = time.time()
    except STORAGE_ERRORS as err:
        room.undo(memo)
        cause = storage_cause(err)
        what = "the move" if move else "the change"
        log.error("could not save room %s: %s (%s: %s); %s was undone, nobody was told of it", room.id,
                  cause, type(err).__name__, err, what)
        raise RoomError(f"{cause}; {'your move' if move else 'this'} was not saved and is undone "
                        "(nothing changed); try again in a moment") from None


def expire(store: Store, room: Room) -> bool:
    """Delete an idle room's row and its current game's moves (its finished games' records
    stay); false, logged, when the write fails (the room stays)."""
    try:
        store.expire_room(room.id, room.games_played)
    except STORAGE_ERRORS as err:
        log.error("could not expire room %s: %s (%s); it stays", room.id, storage_cause(err), err)
        return False
    return True
