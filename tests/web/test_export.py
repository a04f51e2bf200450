"""The export is the operator's: ``GET /api/export`` needs the operator token given at
``serve`` (or is off), and lists finished games only, leaving out rooms playing now."""

from __future__ import annotations

import json
from typing import Any

from .harness import HTTP, Client, LiveServer, create_room, live_server, play_randomly

TOKEN = "a-long-operator-token-0123456789"


#: the settings of this module's server (the ``srv`` fixture of conftest.py)
SERVER = {"operator_token": TOKEN}


def export(srv: LiveServer, auth: str | None = f"Bearer {TOKEN}") -> Any:
    return HTTP.get(srv.url + "/api/export", headers={} if auth is None else {"Authorization": auth})


def finish_a_game(c: Client, seed: int) -> dict[str, Any]:
    return play_randomly(c, seed, timeout=60)


def test_the_export_needs_the_operator_token(srv: LiveServer) -> None:
    for auth in (None, "Bearer nope", f"Basic {TOKEN}", f"Bearer {TOKEN}x", TOKEN):
        r = export(srv, auth)
        assert r.status_code == 401 and "operator" in r.json()["error"], auth
        assert r.headers["www-authenticate"].startswith("Bearer")
    assert export(srv).status_code == 200


def test_the_export_lists_finished_games_only(srv: LiveServer) -> None:
    info = create_room(srv, "lineit_v0", 2, level="random")
    room = info["room"]
    ann = Client(srv, room, host_token=info["host_token"])
    ann.sit(0, "Ann")
    ann.send({"type": "start"})
    ann.table()
    listed = [json.loads(x) for x in export(srv).text.splitlines()]
    assert room not in {r["room"] for r in listed}  # playing its first game: nothing finished yet
    finish_a_game(ann, 1)
    listed = [json.loads(x) for x in export(srv).text.splitlines()]
    assert [r["index"] for r in listed if r["room"] == room] == [0]
    # a rematch is being played: the room is left out (its link would let anyone walk in)
    ann.send({"type": "rematch"})
    ann.until(lambda m: m["type"] == "table" and m["game_index"] == 1)
    listed = [json.loads(x) for x in export(srv).text.splitlines()]
    assert room not in {r["room"] for r in listed}
    finish_a_game(ann, 2)
    r = export(srv)
    assert r.headers["content-type"].startswith("application/x-ndjson")
    listed = [json.loads(x) for x in r.text.splitlines()]
    records = [x for x in listed if x["room"] == room]
    assert [x["index"] for x in records] == [0, 1] and all(x["result"] for x in records)


def test_the_export_is_off_without_a_token(tmp_path: Any) -> None:
    with live_server(tmp_path) as srv:
        r = export(srv)
        assert r.status_code == 404 and "the export is off" in r.json()["error"]
