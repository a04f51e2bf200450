"""The WebSocket protocol: seats and credentials, reconnecting, leaving and taking back,
host-only requests, and refused messages that change nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest

from .harness import Client, LiveServer, create_room


def started_room(srv: LiveServer, env: str = "rummy432_v0",
                 n: int = 4) -> tuple[dict[str, Any], Client, Client]:
    """A room with Ann (host, seat 0) and Bob (seat 1), computers elsewhere, started, at
    Ann's first decision (seat 0 moves first in every game)."""
    info = create_room(srv, env, n, level="random")
    ann = Client(srv, info["room"], host_token=info["host_token"])
    bob = Client(srv, info["room"])
    ann.sit(0, "Ann")
    bob.sit(1, "Bob")
    ann.send({"type": "start"})
    ann.until(lambda m: m["type"] == "table" and bool(m["moves"]))
    return info, ann, bob


def latest_table(c: Client) -> dict[str, Any]:
    """Ask for nothing but read the next ``table`` (a fresh hello sends one)."""
    c.send({"type": "hello", "token": c.token, "host_token": None})
    return c.table()


def test_reconnect_with_the_token_is_the_same_seat(srv: LiveServer) -> None:
    info, ann, bob = started_room(srv)
    before = latest_table(ann)
    token = ann.token
    ann.close()
    room = bob.until(lambda m: m["type"] == "room" and not m["seats"][0]["connected"])
    assert room["seats"][0]["kind"] == "person"  # the seat waits for Ann
    again = Client(srv, info["room"], token=token, host_token=info["host_token"])
    seated = again.until(lambda m: m["type"] == "seated")
    assert seated == {"type": "seated", "seat": 0, "token": token}
    table = again.table()
    assert table["step"] == before["step"] and table["view"] == before["view"] and table["moves"]
    room = [m for m in again.seen if m["type"] == "room"][-1]  # sent before the table
    assert room["you"] == 0 and room["host"] and room["seats"][0]["connected"]
    again.send({"type": "move", "id": table["moves"][0]["id"]})
    assert again.table()["step"] == before["step"] + 1


def test_wrong_token_cannot_act_or_see_a_hand(srv: LiveServer) -> None:
    info, ann, bob = started_room(srv)
    thief = Client(srv, info["room"], token="not-" + (ann.token or ""), host_token="wrong")
    errors = [thief.error()["message"], thief.error()["message"]]
    assert any("host link is not this room's" in e for e in errors)
    assert any("no seat's credential" in e for e in errors)
    table = thief.table()
    assert table["view"]["seat"] == -1 and table["view"]["hand"] == [] and table["moves"] == []
    thief.send({"type": "move", "id": table["view"]["discard_top"]})
    assert "sit first" in thief.error()["message"]
    thief.send({"type": "start"})
    assert "only the host" in thief.error()["message"]
    thief.send({"type": "level", "seat": 2, "level": "expert"})
    assert "only the host" in thief.error()["message"]
    # Ann's seat is taken: sitting there is refused
    thief.send({"type": "sit", "seat": 0, "name": "Eve"})
    assert "taken by Ann" in thief.error()["message"]
    assert latest_table(ann)["step"] == table["step"]


def test_leave_and_take_back(srv: LiveServer) -> None:
    info, ann, bob = started_room(srv, "line_v0", 3)
    token = bob.token
    bob.send({"type": "leave"})
    room = bob.until(lambda m: m["type"] == "room" and m["you"] is None)
    assert room["seats"][1]["kind"] == "computer"
    assert [s["reserved"] for s in room["seats"]] == [False, True, False]
    # while the game runs, the seat is kept for Bob: nobody else takes it
    eve = Client(srv, info["room"])
    eve.send({"type": "sit", "seat": 1, "name": "Eve"})
    assert "kept for the person who left" in eve.error()["message"]
    # Bob takes it back with his token (he still holds it)
    bob.send({"type": "sit", "seat": 1, "name": "Bob"})
    seated = bob.until(lambda m: m["type"] == "seated")
    assert seated["token"] == token
    room = bob.until(lambda m: m["type"] == "room" and m["you"] == 1)
    assert room["seats"][1]["kind"] == "person" and room["seats"][1]["name"] == "Bob"
    assert not room["seats"][1]["reserved"]
    # leaving, then coming back by hello with the token
    bob.send({"type": "leave"})
    bob.until(lambda m: m["type"] == "room" and m["you"] is None)
    bob.close()
    back = Client(srv, info["room"], token=token)
    assert back.until(lambda m: m["type"] == "seated")["seat"] == 1
    assert back.until(lambda m: m["type"] == "room" and m["you"] == 1)["seats"][1]["kind"] == "person"


def test_bad_messages_get_errors_and_change_nothing(srv: LiveServer) -> None:
    info, ann, bob = started_room(srv)
    table = latest_table(ann)
    step, view = table["step"], table["view"]
    legal = {m["id"] for m in table["moves"]}
    illegal = next(a for a in range(106) if a not in legal)
    cases: list[tuple[Any, str]] = [
        ("{not json", "not JSON"),
        ("[1, 2]", 'string "type"'),
        ({"type": 5}, 'string "type"'),
        ({"type": "dance"}, "unknown message type 'dance'"),
        ({"type": "move"}, 'exactly one of "id"'),
        ({"type": "move", "id": "draw"}, "'id' must be int"),
        ({"type": "move", "id": True}, "'id' must be int"),
        ({"type": "move", "id": 1, "text": "draw"}, 'exactly one of "id"'),
        ({"type": "move", "id": illegal}, "illegal action"),
        ({"type": "move", "id": 10**30}, "out of range"),
        ({"type": "move", "id": -1}, "out of range"),
        ({"type": "move", "text": "fly away"}, "draw"),  # the notation error lists the forms
        ({"type": "move", "id": sorted(legal)[0], "step": step - 1}, f"table is at step {step}"),
        ({"type": "sit", "seat": 9, "name": "X"}, "seat must be an int in 0..3"),
        ({"type": "sit", "seat": 2}, "'name' is missing"),
        ({"type": "coach", "on": "yes"}, "'on' must be bool"),
        ({"type": "level", "seat": 2, "level": "god"}, "level must be one of"),
        ({"type": "level", "seat": 1, "level": "greedy"}, "levels change between games, not during one"),
        ({"type": "rematch"}, "once the game has ended"),
        ({"type": "start"}, "already started"),
        ({"type": "hello", "token": 3}, "'token' must be str or null"),
        (json.dumps({"type": "move", "text": "x" * 5000}), "too long: at most 4096 bytes"),
    ]
    for msg, words in cases:
        ann.send(msg)
        err = ann.error()
        assert words in err["message"], (msg, err)
    # Bob is not to move: his move is refused
    bob.send({"type": "move", "id": sorted(legal)[0]})
    assert "not your turn" in bob.error()["message"]
    after = latest_table(ann)
    assert after["step"] == step and after["view"] == view
    # a message before hello
    raw = Client(srv, info["room"], hello=False)
    raw.send({"type": "sit", "seat": 2, "name": "Zed"})
    assert "hello" in raw.error()["message"]


def test_unknown_room_closes_the_socket(srv: LiveServer) -> None:
    from websockets.exceptions import ConnectionClosed

    c = Client(srv, "no-such-room", hello=False)
    with pytest.raises(ConnectionClosed) as exc:
        c.recv(timeout=5)
    assert exc.value.rcvd is not None and exc.value.rcvd.code == 4404


def test_host_levels_rematch_and_coach_switch(srv: LiveServer) -> None:
    info = create_room(srv, "lineit_v0", 2, level="random")
    ann = Client(srv, info["room"], host_token=info["host_token"])
    ann.sit(0, "Ann")
    ann.send({"type": "level", "seat": 1, "level": "greedy"})
    room = ann.until(lambda m: m["type"] == "room" and m["seats"][1]["level"] == "greedy")
    assert room["host"] and room["status"] == "waiting"
    ann.send({"type": "coach", "on": True})
    ann.until(lambda m: m["type"] == "room" and m["seats"][0]["coach"])
    ann.send({"type": "start"})
    advice = ann.until(lambda m: m["type"] == "coach")
    assert advice["step"] == 0 and advice["advice"]
    ann.send({"type": "coach", "on": False})
    ann.until(lambda m: m["type"] == "room" and not m["seats"][0]["coach"])
    first = [m for m in ann.seen if m["type"] == "table"][-1]
    assert first["step"] == 0 and first["moves"]
    ann.send({"type": "move", "id": first["moves"][-1]["id"], "step": 0})
    while True:
        msg = ann.recv()
        if msg["type"] == "table" and msg["result"] is not None:
            break
        assert msg["type"] != "coach" or msg["step"] == 0
        if msg["type"] == "table" and msg["moves"]:
            ann.send({"type": "move", "id": msg["moves"][-1]["id"], "step": msg["step"]})
    ann.send({"type": "rematch"})
    room = ann.until(lambda m: m["type"] == "room" and m["status"] == "playing")
    assert room["games_played"] == 1 and room["game_index"] == 1
    table = ann.table()
    assert table["step"] == 0 and table["game_index"] == 1 and table["result"] is None
