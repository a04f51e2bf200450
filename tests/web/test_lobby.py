"""The lobby's HTTP side: games on offer, room creation with clear option errors, 4xx JSON."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .harness import HTTP, LiveServer


def post(srv: LiveServer, body: object) -> Any:
    return HTTP.post(srv.url + "/api/rooms", json=body)


def test_games_lists_seats_options_levels_and_cards(srv: LiveServer) -> None:
    games = {g["name"]: g for g in HTTP.get(srv.url + "/api/games").json()["games"]}
    assert set(games) == {"line_v0", "lineit_v0", "rummy432_v0"}
    rummy = games["rummy432_v0"]
    assert rummy["players"] == {"min": 2, "max": 5, "default": 4}
    opts = {o["name"]: o for o in rummy["options"]}
    assert opts["pack"]["allowed"] == ["four", "three", "mixed"]
    assert opts["run_out_limit"]["allowed"] == [2, 3, 4, 5, None]
    assert "max_turns_per_round" not in opts
    assert rummy["cast"] == ["Rosie", "Dev", "Mags", "Theo"]
    assert {"random", "greedy", "planner", "expert"} <= set(rummy["levels"])
    combos = rummy["combos"]
    assert combos["keys"] == ["num_players", "pack", "hand_size"]
    assert [4, "mixed", 8] in combos["valid"] and [4, "mixed", 12] not in combos["valid"]
    assert [3, "four", 12] in combos["valid"] and [2, "four", 9] not in combos["valid"]
    line = games["line_v0"]
    assert line["players"]["min"] == 2 and line["players"]["max"] == 4
    jp = line["options"][0]
    assert jp["name"] == "joker_points" and jp["min"] == 0 and jp["max"] == 100
    assert line["cards"][52] == "X" and line["cards"][0] == "Ac"
    lineit = games["lineit_v0"]
    assert lineit["cards"][0] is None and lineit["cards"][57] == "57" and lineit["cards"][101] == "B3"


def test_room_defaults_and_link(srv: LiveServer) -> None:
    r = post(srv, {"game": "rummy432_v0"})
    assert r.status_code == 201
    body = r.json()
    assert body["link"] == f"/room/{body['room']}" and len(body["host_token"]) >= 20
    room = HTTP.get(srv.url + f"/api/rooms/{body['room']}").json()
    assert room["num_players"] == 4 and room["options"]["pack"] == "mixed"
    assert room["options"]["hand_size"] == 8 and room["status"] == "waiting"
    assert [s["kind"] for s in room["seats"]] == ["computer"] * 4
    assert room["seats"][0]["level"] == "planner"


@pytest.mark.parametrize("body, words", [
    ({"game": "poker"}, "game must be one of line_v0, lineit_v0, rummy432_v0"),
    ({"game": "rummy432_v0", "num_players": 6}, "num_players must be an int in 2..5"),
    ({"game": "line_v0", "num_players": 5}, "2..4"),
    ({"game": "rummy432_v0", "num_players": "4"}, "num_players must be an int"),
    ({"game": "rummy432_v0", "options": {"pack": "five"}}, "allowed: 'four', 'three', 'mixed'"),
    ({"game": "rummy432_v0", "options": {"pack": "four", "hand_size": 9}}, "hand_size"),
    ({"game": "rummy432_v0", "num_players": 4, "options": {"hand_size": 12}}, "12"),
    ({"game": "rummy432_v0", "options": {"run_out_limit": 7}}, "2, 3, 4, 5, None"),
    ({"game": "rummy432_v0", "options": {"max_turns_per_round": 5}}, "unknown option"),
    ({"game": "line_v0", "options": {"joker_points": 101}}, "0..100"),
    ({"game": "lineit_v0", "options": {"pack": "four"}}, "the options are none"),
    ({"game": "rummy432_v0", "level": "god"}, "level must be one of random, greedy"),
    ({"game": "rummy432_v0", "seats": 3}, "unknown field(s) seats"),
    ([1, 2], "must be a JSON object"),
])
def test_room_options_are_validated_with_clear_errors(srv: LiveServer, body: object, words: str) -> None:
    r = post(srv, body)
    assert r.status_code == 400, r.text
    assert words in r.json()["error"]


def test_allowed_combinations_are_accepted(srv: LiveServer) -> None:
    cases: list[tuple[dict[str, Any], int]] = [({"pack": "four", "hand_size": 12}, 3),
                                               ({"pack": "three", "hand_size": 6}, 5),
                                               ({"run_out_limit": None, "rounds_to_win": 2}, 2)]
    for opts, n in cases:
        r = post(srv, {"game": "rummy432_v0", "num_players": n, "options": opts, "level": "greedy"})
        assert r.status_code == 201, r.text
        room = HTTP.get(srv.url + f"/api/rooms/{r.json()['room']}").json()
        for k, v in opts.items():
            assert room["options"][k] == v


def test_http_errors_are_json_4xx(srv: LiveServer) -> None:
    as_json = {"Content-Type": "application/json"}
    r = HTTP.post(srv.url + "/api/rooms", content=b"{not json", headers=as_json)
    assert r.status_code == 400 and "must be JSON" in r.json()["error"]
    r = HTTP.post(srv.url + "/api/rooms", content=b'{"game": "line_v0", "x": "' + b"a" * 5000 + b'"}',
                  headers=as_json)
    assert r.status_code == 413 and "4096" in r.json()["error"]
    r = HTTP.get(srv.url + "/api/rooms/nope")
    assert r.status_code == 404 and "no room" in r.json()["error"]
    # a wrong link is a page for people, not JSON
    r = HTTP.get(srv.url + "/room/nope")
    assert r.status_code == 404 and r.headers["content-type"].startswith("text/html")
    assert "No such room" in r.text and "nope" in r.text and 'href="/"' in r.text
    r = HTTP.get(srv.url + "/room/%3Cscript%3Ealert(1)%3C%2Fscript%3E")
    assert r.status_code == 404 and "<script>" not in r.text and "&lt;script&gt;" in r.text
    r = HTTP.get(srv.url + "/nowhere")
    assert r.status_code == 404 and r.headers["content-type"].startswith("text/html")
    r = HTTP.get(srv.url + "/api/rooms")
    assert r.status_code == 405 and "GET is not allowed" in r.json()["error"]
    r = HTTP.get(srv.url + "/api/nothing")
    assert r.status_code == 404 and "POST /api/rooms" in r.json()["error"]
    room = post(srv, {"game": "line_v0"}).json()["room"]
    r = HTTP.get(srv.url + f"/api/rooms/{room}/games/0")
    assert r.status_code == 404 and "finished games: none yet" in r.json()["error"]
    r = HTTP.get(srv.url + f"/api/rooms/{room}/games/x")
    assert r.status_code == 400
    assert HTTP.get(srv.url + f"/api/rooms/{room}/games").json() == {"games": []}


def test_pages_serve_the_client(srv: LiveServer) -> None:
    page = Path(__file__).resolve().parents[2] / "cardtable" / "static" / "index.html"
    room = post(srv, {"game": "line_v0"}).json()["room"]
    for path in ("/", f"/room/{room}"):
        r = HTTP.get(srv.url + path)
        if page.exists():
            assert r.status_code == 200 and r.text == page.read_text()
        else:
            assert r.status_code == 404
