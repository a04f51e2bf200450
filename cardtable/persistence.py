"""Rooms to and from the file (:class:`~.store.Store`): every room is loaded at start-up,
and every change is written before anyone is told of it (:func:`commit`)."""

from __future__ import annotations

import json
import logging
import sqlite3
import time
from typing import Any

from .room import Room, RoomError
from .store import Store

log = logging.getLogger("cardtable")

#: what a failed write to the file raises
STORAGE_ERRORS = (sqlite3.Error, OSError)


class StorageFailed(RuntimeError):
    """A new room could not be written (the request is answered 503)."""


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
            room = Room.restore(data_room, moves)
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
        store.save_room(room.id, room.snapshot())
    except STORAGE_ERRORS as err:
        log.error("could not save a new room: %s", err)
        raise StorageFailed(f"the table could not save the new room ({err}); try again later") from None


def commit(store: Store, room: Room, memo: tuple[Any, ...], move: bool = False,
           record: dict[str, Any] | None = None, prune_moves: bool = False) -> None:
    """Write the room as it is now (and the move just played, and a finished game's
    record; ``prune_moves``: a new game was dealt, the moves of earlier games, which
    their records hold, are deleted).  When the write fails the change is undone (back
    to ``memo``, taken before it) and ``RoomError`` tells the one who asked: what the
    file holds is what everyone sees, nobody is told of a change the file does not have."""
    p = room.play
    prune = p.index if prune_moves and p is not None else None
    try:
        store.save_room(room.id, room.snapshot(), room.last_move() if move else None, record,
                        prune_moves_before=prune)
        room.active = time.time()
    except STORAGE_ERRORS as err:
        room.undo(memo)
        log.error("could not save room %s (%s): the change was undone", room.id, err)
        raise RoomError(f"the table could not save this ({err}), so nothing changed; "
                        "try again in a moment") from None


def expire(store: Store, room: Room) -> bool:
    """Delete an idle room's row and its current game's moves (its finished games' records
    stay); false, logged, when the write fails (the room stays)."""
    try:
        store.expire_room(room.id, room.games_played)
    except STORAGE_ERRORS as err:
        log.error("could not expire room %s (%s); it stays", room.id, err)
        return False
    return True
