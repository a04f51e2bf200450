"""What players tripped on (issue 37), on the server: fair seats when someone drops, and
clear words.

* a person's seat is played at the room's level while they are away, decided by the room's
  settings alone: the host sets no level of a person's seat, and no level during a game;
* a returning former host is told who the host is now (a notice, not an error);
* an absent person's seat keeps their name while a computer plays it, and the moves the
  computer makes for them are marked so in the log;
* the move log speaks of every move in the past tense, the viewer's own too;
* look-alike names (another alphabet's letters) are refused;
* the rules panel holds the players' rules only.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from cardtable.catalog import game_info
from cardtable.names import NameError_, skeleton, unique_name
from cardtable.room import Room, RoomError
from cardtable.types import MoveRow

from .harness import HTTP, Client, LiveServer

GRACE = 0.3
SERVER = {"host_grace": GRACE}


def room_with(srv: LiveServer, game: str = "rummy432_v0", n: int = 2, level: str = "greedy",
              **body: Any) -> dict[str, Any]:
    r = HTTP.post(srv.url + "/api/rooms", json={"game": game, "num_players": n, "level": level, **body})
    assert r.status_code == 201, r.text
    return dict(r.json())


def last_room(c: Client) -> dict[str, Any]:
    return [m for m in c.seen if m["type"] == "room"][-1]


def test_the_host_cannot_hand_an_absent_persons_seat_to_a_computer(srv: LiveServer) -> None:
    info = room_with(srv, "rummy432_v0", 3, level="greedy", away_seconds=1)
    ann = Client(srv, info["room"], host_token=info["host_token"])
    ann.sit(0, "Ann")
    bob = Client(srv, info["room"])
    bob.sit(1, "Bob")
    # before the deal: a person's seat has no level of its own
    ann.send({"type": "level", "seat": 1, "level": "random"})
    assert "Bob's: a person's seat has no level" in ann.error()["message"]
    ann.send({"type": "start"})
    ann.until(lambda m: m["type"] == "table")
    bob.close()
    ann.until(lambda m: m["type"] == "room" and not m["seats"][1]["connected"])
    # half a second after Bob dropped: refused, the seat is still his, the level unchanged
    for seat in (1, 2):
        ann.send({"type": "level", "seat": seat, "level": "random"})
        assert "levels change between games, not during one" in ann.error()["message"]
    room = srv.core.rooms[info["room"]]
    assert room.seats[1].person and room.seats[1].level == "greedy" and room.seats[2].level == "greedy"
    # the room's away time (1 s) hands it to a computer, at the room's level
    ann.until(lambda m: m["type"] == "room" and m["seats"][1]["kind"] == "computer", timeout=5)
    assert room.seats[1].level == "greedy"


def test_a_person_who_sits_is_played_at_the_rooms_level(srv: LiveServer) -> None:
    info = room_with(srv, "rummy432_v0", 2, level="greedy")
    ann = Client(srv, info["room"], host_token=info["host_token"])
    ann.send({"type": "level", "seat": 1, "level": "random"})  # a computer seat, before the deal
    ann.until(lambda m: m["type"] == "room" and m["seats"][1]["level"] == "random")
    bob = Client(srv, info["room"])
    bob.sit(1, "Bob")
    assert srv.core.rooms[info["room"]].seats[1].level == "greedy"  # the room's, not the seat's


def test_a_former_host_is_told_who_the_host_is_now(srv: LiveServer) -> None:
    info = room_with(srv, "rummy432_v0", 2)
    ann = Client(srv, info["room"], host_token=info["host_token"])
    ann.sit(0, "Ann")
    bob = Client(srv, info["room"])
    bob.sit(1, "Bob")
    ann.close()
    bob.until(lambda m: m["type"] == "host", timeout=5)
    back = Client(srv, info["room"], token=ann.token, host_token=info["host_token"])
    said = back.until(lambda m: m["type"] == "notice" and "host" in m["message"])["message"]
    assert said.startswith("you were the host; Bob is the host now"), said
    back.until(lambda m: m["type"] == "table" or m["type"] == "room")
    time.sleep(0.2)
    while True:  # nothing red: no error about the host token
        try:
            back.recv(timeout=0.3)
        except TimeoutError:
            break
    assert not [m for m in back.seen if m["type"] == "error"], back.seen
    stranger = Client(srv, info["room"], host_token="made-up")
    assert "not this room's: you are not the host (Bob is the host)" in stranger.error()["message"]


def test_an_absent_persons_seat_keeps_their_name_and_the_log_says_who_moved(srv: LiveServer) -> None:
    info = room_with(srv, "rummy432_v0", 2, level="random", away_seconds=1)
    ann = Client(srv, info["room"], host_token=info["host_token"])
    ann.sit(0, "Ann")
    eve = Client(srv, info["room"])  # a spectator
    ann.send({"type": "start"})
    first = ann.until(lambda m: m["type"] == "table" and bool(m["moves"]))
    ann.send({"type": "move", "id": first["moves"][0]["id"], "step": first["step"]})
    mine = ann.until(lambda m: m["type"] == "table" and m["step"] == first["step"] + 1)
    # the viewer's own move in the past tense, as everyone else reads it
    own = [e for e in mine["log"] if e["seat"] == 0][-1]
    seen = eve.until(lambda m: m["type"] == "table" and m["step"] == mine["step"])
    assert own["label"] == [e for e in seen["log"] if e["seat"] == 0][-1]["label"]
    assert own["label"].split()[0] in ("drew", "took", "threw", "finished"), own
    ann.close()
    room = eve.until(lambda m: m["type"] == "room" and m["seats"][0]["kind"] == "computer", timeout=5)
    assert room["seats"][0]["name"] == "Ann" and room["seats"][0]["reserved"]
    late = eve.until(lambda m: m["type"] == "table" and any(e.get("stand_in") for e in m["log"]), timeout=10)
    marked = [e for e in late["log"] if e.get("stand_in")]
    assert all(e["seat"] == 0 and e["stand_in"] == "away" and e["for"] == "Ann" for e in marked)
    assert not [e for e in late["log"] if e["seat"] == 0 and e["step"] <= mine["step"] and e.get("stand_in")]


def test_lookalike_names_are_refused() -> None:
    cyrillic = "\u0410lice"  # a Cyrillic A
    assert cyrillic != "Alice" and skeleton(cyrillic) == skeleton("Alice")
    for fake in (cyrillic, "\u0391lice", "A1ice", "AIice", "\u0430lic\u0435"):
        with pytest.raises(NameError_, match="looks like 'Alice'"):
            unique_name(fake, ["Alice", "Bob"])
    assert unique_name("Alice", ["Alice"]) == "Alice 2"  # the same name: numbered, as before
    assert unique_name("Alina", ["Alice"]) == "Alina"


def test_a_lookalike_name_is_refused_at_the_table(srv: LiveServer) -> None:
    info = room_with(srv, "rummy432_v0", 3)
    ann = Client(srv, info["room"], host_token=info["host_token"])
    ann.sit(0, "Alice")
    eve = Client(srv, info["room"])
    eve.send({"type": "sit", "seat": 1, "name": "\u0410lice"})
    assert "looks like 'Alice', who is already at this table" in eve.error()["message"]


def test_levels_are_fixed_at_the_deal_in_the_room() -> None:
    room = Room("r", "line_v0", 2, {}, "random", "h")
    room.sit(0, "Ann", None)
    with pytest.raises(RoomError, match="Ann's"):
        room.set_level(0, "greedy")
    room.set_level(1, "greedy")
    room.start(seed=1)
    with pytest.raises(RoomError, match="between games"):
        room.set_level(1, "random")
    room.leave(0)
    assert room.seat_name(0) == "Ann" and room.reserved(0)


def test_the_rules_panel_holds_the_players_rules_only(srv: LiveServer) -> None:
    doc = HTTP.get(f"{srv.url}/api/games/rummy432_v0/rules").json()
    assert "Who wins the round" in doc["html"]
    for dev in ("Position JSON", "rummy432_v0", "Rummy432Game", "Environment", "Move notation"):
        assert dev not in doc["html"], dev


def test_the_record_names_an_absent_persons_seat_as_the_result_does() -> None:
    room = Room("r", "line_v0", 2, {}, "random", "h")
    room.sit(0, "Ann", None)
    room.start(seed=3)
    room.leave(0)  # a computer plays Ann's seat to the end
    record = None
    while record is None:
        mover = room.current()
        record = room.apply(mover, int(room.game.legal_actions(room.play.state)[0]))  # type: ignore[union-attr]
    assert record["seats"][0]["name"] == "Ann" and record["seats"][0]["kind"] == "computer"
    cast = game_info("line_v0")["cast"][0]
    assert "Ann" in json.dumps(record["result"]) and cast not in json.dumps(record), cast
    assert any(e.get("stand_in") == "away" for e in room.play.log)  # type: ignore[union-attr]


def test_the_tables_coach_names_the_players() -> None:
    """The coach's words at the table name the seats as the room does ("Bob took eights")."""
    from cardtable import computers, workers

    room = Room("r1", "rummy432_v0", 2, {}, "planner", "h")
    room.sit(0, "Alice", None)
    room.sit(1, "Bob", None)
    room.start(seed=3)
    job = computers.job(room, "coach", 0, "planner")
    assert job.names == ("Alice", "Bob")
    coach: Any = workers._new_engine(job)
    assert coach.names == ("Alice", "Bob")
    unnamed: Any = workers._new_engine(computers.job(room, "move", 0, "planner"))
    assert not hasattr(unnamed, "names") or unnamed.names is None


def test_a_computers_marks_for_an_absent_person_outlive_a_restart() -> None:
    from cardtable.persistence import restore, snapshot

    room = Room("r", "line_v0", 2, {}, "random", "h")
    room.sit(0, "Ann", None)
    room.start(seed=5)
    room.leave(0)
    p = room.play
    assert p is not None
    for _ in range(6):
        room.apply(room.current(), int(room.game.legal_actions(p.state)[0]))
    marked = [(e["step"], e["stand_in"], e["for"]) for e in p.log if "stand_in" in e]
    assert marked  # the computer moved for Ann
    moves: list[MoveRow] = [{"step": e["step"], "seat": e["seat"], "action": a, "text": e["text"],
                             "label": e["label"]}
             for e, a in zip(p.log, p.ids)]
    again = restore(json.loads(json.dumps(snapshot(room))), moves)
    assert again.play is not None
    assert [(e["step"], e["stand_in"], e["for"]) for e in again.play.log if "stand_in" in e] == marked
    # a file written before the marks were kept loads, unmarked
    old = json.loads(json.dumps(snapshot(room)))
    del old["play"]["stand_ins"]
    older = restore(old, moves)
    assert older.play is not None and not [e for e in older.play.log if "stand_in" in e]
