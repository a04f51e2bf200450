"""Nobody can stall a game: the host role passes on when the host leaves; an absent person's
seat is played by a computer after the room's timeout (counted down in the ``room``
message) and is theirs to take back; a room's turn clock (off by default) has the computer
move for a person whose time runs out; a player can resign."""

from __future__ import annotations

import time
from typing import Any

from .harness import HTTP, Client, LiveServer, create_room, live_server

GRACE = 0.4


#: the settings of this module's server (the ``srv`` fixture of conftest.py)
SERVER = {"host_grace": GRACE}


def room_with(srv: LiveServer, game: str = "rummy432_v0", n: int = 2, **body: Any) -> dict[str, Any]:
    r = HTTP.post(srv.url + "/api/rooms", json={"game": game, "num_players": n, "level": "random", **body})
    assert r.status_code == 201, r.text
    return dict(r.json())


def notice(c: Client, words: str, timeout: float = 10.0) -> str:
    """Read until a ``notice`` holding ``words`` (already read ones count)."""
    for m in c.seen:
        if m["type"] == "notice" and words in m["message"]:
            return str(m["message"])
    return str(c.until(lambda m: m["type"] == "notice" and words in m["message"], timeout)["message"])


def test_room_time_settings_are_checked(srv: LiveServer) -> None:
    room = room_with(srv, away_seconds=30, turn_seconds=20)
    info = HTTP.get(srv.url + f"/api/rooms/{room['room']}").json()
    assert info["settings"] == {"away_seconds": 30, "turn_seconds": 20}
    default = HTTP.get(srv.url + f"/api/rooms/{room_with(srv)['room']}").json()
    assert default["settings"] == {"away_seconds": 60, "turn_seconds": None}  # no clock by default
    for body, words in (({"away_seconds": 0}, "away_seconds must be a whole number of seconds in 1..3600"),
                        ({"turn_seconds": "fast"}, "turn_seconds must be"),
                        ({"away_seconds": None}, "away_seconds must be"),
                        ({"turn_seconds": 10**9}, "1..3600 or null"),
                        ({"clock": 5}, "unknown field(s) clock")):
        r = HTTP.post(srv.url + "/api/rooms", json={"game": "line_v0", **body})
        assert r.status_code == 400 and words in r.json()["error"], (body, r.text)
    # the host changes them between games, nobody else, never during one
    ann = Client(srv, room["room"], host_token=room["host_token"])
    ann.sit(0, "Ann")
    bob = Client(srv, room["room"])
    bob.sit(1, "Bob")
    bob.send({"type": "settings", "turn_seconds": None})
    assert "only the host" in bob.error()["message"]
    ann.send({"type": "settings", "turn_seconds": None, "away_seconds": 120})
    got = ann.until(lambda m: m["type"] == "room" and m["settings"]["turn_seconds"] is None)
    assert got["settings"]["away_seconds"] == 120
    ann.send({"type": "settings", "away_seconds": 5000})
    assert "1..3600" in ann.error()["message"]
    ann.send({"type": "start"})
    ann.table()
    ann.send({"type": "settings", "turn_seconds": 30})
    assert "between games" in ann.error()["message"]


def test_the_host_role_passes_on_when_the_host_leaves(srv: LiveServer) -> None:
    info = room_with(srv, "line_v0", 3)
    ann = Client(srv, info["room"], host_token=info["host_token"])
    bob = Client(srv, info["room"])
    eve = Client(srv, info["room"])  # a spectator: the role goes to a person at the table
    ann.sit(0, "Ann")
    bob.sit(2, "Bob")
    room = bob.until(lambda m: m["type"] == "room" and m["you"] == 2)
    assert room["host_seat"] == 0 and not room["host"]
    ann.close()  # the host closes the page; within the grace nothing happens
    bob.until(lambda m: m["type"] == "room" and not m["seats"][0]["connected"])
    assert not [m for m in bob.seen if m["type"] == "host"]
    handed = bob.until(lambda m: m["type"] == "host", timeout=GRACE + 5)
    room = bob.until(lambda m: m["type"] == "room" and m["host"])
    assert room["host_seat"] == 2 and len(handed["host_token"]) >= 20
    notice(bob, "Bob is the host now")
    notice(eve, "Bob is the host now")
    eve_room = eve.until(lambda m: m["type"] == "room" and m["host_seat"] == 2)
    assert not eve_room["host"]
    # Bob can do what the host does; the old host token no longer works
    bob.send({"type": "start"})
    bob.table()
    back = Client(srv, info["room"], token=None, host_token=info["host_token"])
    # the former host is told who the host is now (a notice: nothing went wrong)
    notice(back, "you were the host; Bob is the host now")
    # a new page of Bob's with the new host token is the host
    bob_tab = Client(srv, info["room"], token=bob.token, host_token=handed["host_token"])
    assert bob_tab.until(lambda m: m["type"] == "room")["host"]


def test_a_host_who_comes_back_in_time_stays_host(srv: LiveServer) -> None:
    info = room_with(srv, "line_v0", 2)
    ann = Client(srv, info["room"], host_token=info["host_token"])
    bob = Client(srv, info["room"])
    ann.sit(0, "Ann")
    bob.sit(1, "Bob")
    token = ann.token
    ann.close()  # a reload
    again = Client(srv, info["room"], token=token, host_token=info["host_token"])
    assert again.until(lambda m: m["type"] == "room" and m["you"] == 0)["host"]
    time.sleep(GRACE + 0.3)
    assert not [m for m in bob.seen if m["type"] in ("host", "notice")]
    again.send({"type": "start"})
    again.table()


def test_with_nobody_seated_the_role_goes_to_the_first_person_who_sits(srv: LiveServer) -> None:
    info = room_with(srv, "line_v0", 2)
    host = Client(srv, info["room"], host_token=info["host_token"])  # a host who only watches
    host.until(lambda m: m["type"] == "room")
    host.close()
    time.sleep(GRACE + 0.3)
    bob = Client(srv, info["room"])
    bob.sit(1, "Bob")
    assert bob.until(lambda m: m["type"] == "host")["host_token"]
    assert bob.until(lambda m: m["type"] == "room" and m["host"])["host_seat"] == 1


def test_an_absent_persons_seat_is_played_and_theirs_to_take_back(srv: LiveServer) -> None:
    info = room_with(srv, "rummy432_v0", 2, away_seconds=1)
    ann = Client(srv, info["room"], host_token=info["host_token"])
    bob = Client(srv, info["room"])
    ann.sit(0, "Ann")
    bob.sit(1, "Bob")
    ann.send({"type": "start"})
    table = ann.until(lambda m: m["type"] == "table" and bool(m["moves"]))
    bob_token = bob.token
    bob.close()  # Bob walks away
    counting = ann.until(lambda m: m["type"] == "room" and m["seats"][1]["away"] is not None)
    assert 0 < counting["seats"][1]["away"] <= 1.0 and counting["seats"][1]["kind"] == "person"
    assert counting["seats"][0]["away"] is None  # Ann is here
    taken = ann.until(lambda m: m["type"] == "room" and m["seats"][1]["kind"] == "computer", timeout=5)
    assert taken["seats"][1]["reserved"] and taken["seats"][1]["away"] is None
    notice(ann, "Bob has been away for 1 s")
    # the game goes on: Ann moves, the computer plays Bob's turn
    while not any(e["seat"] == 1 for e in table["log"]):
        if table["moves"]:
            ann.send({"type": "move", "id": table["moves"][0]["id"], "step": table["step"]})
        table = ann.table()
    # Bob opens the link again: his seat is his
    back = Client(srv, info["room"], token=bob_token)
    assert back.until(lambda m: m["type"] == "seated")["seat"] == 1
    room = ann.until(lambda m: m["type"] == "room" and m["seats"][1]["kind"] == "person")
    assert room["seats"][1]["connected"] and room["seats"][1]["away"] is None
    # nothing counts down between games
    back.send({"type": "resign"})
    ann.until(lambda m: m["type"] == "room" and m["status"] == "finished")
    back.close()
    time.sleep(1.3)
    assert srv.core.rooms[info["room"]].seats[1].person


def test_the_turn_clock(srv: LiveServer) -> None:
    info = room_with(srv, "lineit_v0", 2, turn_seconds=1)
    ann = Client(srv, info["room"], host_token=info["host_token"])
    ann.sit(0, "Ann")
    ann.send({"type": "start"})
    first = ann.until(lambda m: m["type"] == "table" and bool(m["moves"]))
    clock = ann.until(lambda m: m["type"] == "clock")
    assert clock["seat"] == 0 and clock["step"] == first["step"] and 0 < clock["left"] <= 1
    assert clock["seconds"] == 1
    # Ann does not move: the computer moves for her, she is told, and she keeps her seat
    moved = ann.until(lambda m: m["type"] == "table" and m["step"] > first["step"], timeout=5)
    assert moved["log"][0]["seat"] == 0
    said = notice(ann, "Ann's time ran out: the computer ")
    # the move in past-tense words ("drew a card"), not just "played"
    assert said.endswith(" for them") and not said.endswith("computer played for them"), said
    seat = srv.core.rooms[info["room"]].seats[0]
    assert seat.person and seat.timeouts >= 1
    # a clock of her own again for her next turn; moving herself resets the count
    mine = ann.until(lambda m: m["type"] == "table" and bool(m["moves"]), timeout=10)
    ann.send({"type": "move", "id": mine["moves"][0]["id"], "step": mine["step"]})
    ann.until(lambda m: m["type"] == "table" and m["step"] == mine["step"] + 1)
    assert seat.timeouts == 0
    # three turns in a row without a move: a computer plays her seat until she takes it back
    gone = ann.until(lambda m: m["type"] == "room" and m["you"] is None, timeout=20)
    assert gone["seats"][0]["kind"] == "computer" and gone["seats"][0]["reserved"]
    notice(ann, "3 turns in a row")
    ann.send({"type": "sit", "seat": 0, "name": "Ann"})
    ann.until(lambda m: m["type"] == "seated")
    # a clock is sent to a page that comes (back) at a person's turn
    spectator = Client(srv, info["room"])
    ann.until(lambda m: m["type"] == "table" and bool(m["moves"]), timeout=10)
    spectator.until(lambda m: m["type"] == "clock" and m["seat"] == 0, timeout=5)


def test_resign(srv: LiveServer) -> None:
    info = room_with(srv, "line_v0", 2)
    ann = Client(srv, info["room"], host_token=info["host_token"])
    bob = Client(srv, info["room"])
    ann.sit(0, "Ann")
    bob.sit(1, "Bob")
    eve = Client(srv, info["room"])
    ann.send({"type": "start"})
    ann.table()
    eve.send({"type": "resign"})
    assert "only a seated person" in eve.error()["message"]
    bob.send({"type": "resign"})  # not his turn: he may resign anyway
    final = ann.until(lambda m: m["type"] == "table" and m["result"] is not None)
    result = final["result"]
    assert result["resigned"] == 1 and result["winners"] == [0] and result["returns"] == [1.0, -1.0]
    assert result["summary"] == "Bob resigned: Ann wins" and final["current"] == -1 and not final["moves"]
    notice(eve, "Bob resigned")
    record = HTTP.get(srv.url + f"/api/rooms/{info['room']}/games/0").json()
    assert record["result"]["resigned"] == 1 and record["moves"] == [e["text"] for e in final["log"]]
    bob.send({"type": "resign"})
    assert "no game is being played" in bob.error()["message"]
    # a rematch after a resignation is a new game as usual
    ann.send({"type": "rematch"})
    assert ann.until(lambda m: m["type"] == "table" and m["game_index"] == 1)["result"] is None


def test_resigning_at_a_table_of_four(srv: LiveServer) -> None:
    info = create_room(srv, "rummy432_v0", 4, level="random")
    ann = Client(srv, info["room"], host_token=info["host_token"])
    ann.sit(2, "Ann")
    ann.send({"type": "start"})
    ann.table()
    ann.send({"type": "resign"})
    result = ann.until(lambda m: m["type"] == "table" and m["result"] is not None)["result"]
    assert result["winners"] == [0, 1, 3] and result["returns"] == [0.0, 0.0, -1.0, 0.0]  # a shared win
    assert result["summary"].endswith("win (shared)")


def test_a_resigned_game_replays_to_where_it_stopped(srv: LiveServer) -> None:
    from cardtable.records import replay

    info = room_with(srv, "lineit_v0", 2)
    ann = Client(srv, info["room"], host_token=info["host_token"])
    ann.sit(0, "Ann")
    ann.send({"type": "start"})
    t = ann.until(lambda m: m["type"] == "table" and bool(m["moves"]))
    ann.send({"type": "move", "id": t["moves"][0]["id"], "step": t["step"]})
    ann.until(lambda m: m["type"] == "table" and m["step"] > t["step"])
    ann.send({"type": "resign"})
    final = ann.until(lambda m: m["type"] == "table" and m["result"] is not None)
    record = HTTP.get(srv.url + f"/api/rooms/{info['room']}/games/0").json()
    game, state, _ = replay(record)
    assert not game.is_terminal(state) and len(record["moves"]) == final["step"]


def test_after_a_restart_nobody_waits_for_who_does_not_come_back(tmp_path: Any) -> None:
    with live_server(tmp_path) as first:
        info = room_with(first, "line_v0", 2, away_seconds=1)
        ann = Client(first, info["room"], host_token=info["host_token"])
        bob = Client(first, info["room"])
        ann.sit(0, "Ann")
        bob.sit(1, "Bob")
        ann.send({"type": "start"})
        ann.table()
        bob_token = bob.token
    with live_server(tmp_path, host_grace=0.3) as again:
        bob = Client(again, info["room"], token=bob_token)  # Bob comes back, Ann does not
        room = bob.until(lambda m: m["type"] == "room" and m["you"] == 1)
        assert room["seats"][0]["away"] is not None and room["seats"][1]["away"] is None
        bob.until(lambda m: m["type"] == "room" and m["seats"][0]["kind"] == "computer", timeout=5)
        # the host role passed to Bob meanwhile (after the grace, well before the seat went)
        handed = [m for m in bob.seen if m["type"] == "host"] or [bob.until(lambda m: m["type"] == "host")]
        assert handed[0]["host_token"]
