"""The rules one click away and the replay viewer's positions, over HTTP (the real server).

* ``/api/games/{game}/rules`` and ``/rules/{game}``: each game's own rules document
  (``docs/rules/``), rendered on the server with raw HTML escaped, relative links unlinked and
  no inline style; a name that is not a game (path traversal, a file name) is a 404 page, and
  every answer keeps the security headers (CSP);
* ``/api/rooms/{id}/games/{index}/replay[/{step}]``: every position of a whole recorded game,
  stepped from the deal to the end, is the rules core's own replay of the record (each seat's
  view, the public view, every hand), and nothing of a game still being played is served.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import cardenvs
from cardtable.catalog import view_dict
from cardtable.pages import SECURITY_HEADERS
from cardtable.records import replay
from cardtable.rules_docs import render_markdown

from .harness import HTTP, Client, LiveServer, create_room, is_end

ROOT = Path(__file__).resolve().parents[2]


def as_sent(view: Any) -> Any:
    """A View as a message carries it (JSON: tuples become lists)."""
    return json.loads(json.dumps(view_dict(view)))


def secure(r: Any) -> None:
    for name, value in SECURITY_HEADERS:
        assert r.headers.get(name) == value, (str(r.url), name)


@pytest.mark.parametrize("game", list(cardenvs.GAMES))
def test_each_games_rules_are_served_from_its_own_document(srv: LiveServer, game: str) -> None:
    r = HTTP.get(f"{srv.url}/api/games/{game}/rules")
    assert r.status_code == 200
    secure(r)
    doc = r.json()
    assert doc["game"] == game and doc["page"] == f"/rules/{game}"
    source = (ROOT / "docs" / "rules" / f"{game.removesuffix('_v0')}.md").read_text(encoding="utf-8")
    # players get the players' part of the project's document: its section for players
    # (every one of its subsections without developer material), not the developers' parts
    heads = [line.lstrip("#").strip() for line in source.splitlines() if line.startswith("## ")]
    assert "1. The rules for a player" in heads and "4. Position JSON" in heads
    assert [t["text"] for t in doc["toc"] if t["level"] == 2] == ["The rules for a player"]
    assert len([t for t in doc["toc"] if t["level"] == 3]) >= 5
    for dev in ("Position JSON", "Environment", "_v0", "cardenvs", "class ", "Decisions", "player_0"):
        assert dev not in doc["html"], (game, dev)
    assert all(f'id="{t["id"]}"' in doc["html"] for t in doc["toc"])
    assert "<script" not in doc["html"] and " style=" not in doc["html"]
    page = HTTP.get(f"{srv.url}/rules/{game}")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    secure(page)
    assert doc["html"] in page.text and "<script" not in page.text
    assert " style=" not in page.text and " onclick=" not in page.text
    # the lobby's catalog says where the rules are
    info = next(g for g in HTTP.get(f"{srv.url}/api/games").json()["games"] if g["name"] == game)
    assert info["rules"] == f"/rules/{game}"


@pytest.mark.parametrize("path", [
    "/rules/..%2f..%2fpyproject.toml", "/rules/..%2F..%2F..%2Fetc%2Fpasswd", "/rules/%2e%2e",
    "/rules/line_v0.md", "/rules/line", "/rules/line_v0%00", "/rules/" + "x" * 5000,
    "/api/games/..%2f..%2fpyproject.toml/rules", "/api/games/nope/rules",
])
def test_a_name_that_is_not_a_game_gets_no_file(srv: LiveServer, path: str) -> None:
    r = HTTP.get(srv.url + path)
    assert r.status_code == 404, (path, r.status_code)
    secure(r)
    assert "[build-system]" not in r.text and "root:" not in r.text
    if path.startswith("/rules/"):  # a page for people
        assert r.headers["content-type"].startswith("text/html")
    if path in ("/rules/line", "/rules/line_v0.md"):  # a name of one part: it says which games there are
        assert "line_v0" in r.text and "rummy432_v0" in r.text


def test_rules_markdown_is_rendered_safely() -> None:
    text = ("# T\n\n## A `b`\n\n<script>alert(1)</script>\n\n<b onmouseover=x>bold</b>\n\n"
            "[here](javascript:alert(1)) [there](../README.md) [web](https://example.org) [up](#rules-t)\n\n"
            "![pic](http://evil.example/x.png)\n\n| l | r |\n|:--|--:|\n| 1 | 2 |\n\n## A b\n")
    html, toc = render_markdown(text)
    assert "<script" not in html and "&lt;script&gt;" in html and "<b " not in html  # raw HTML is text
    assert 'href="javascript' not in html and "README.md" not in html and "<img" not in html
    assert 'href="https://example.org" rel="noopener noreferrer" target="_blank"' in html
    assert 'href="#rules-t"' in html and "pic" in html
    assert " style=" not in html and 'class="align-right"' in html
    assert toc == (("rules-t", "T", 1), ("rules-a-b", "A b", 2), ("rules-a-b-2", "A b", 2))


def finished_room(srv: LiveServer, game: str, players: int, **options: Any) -> tuple[dict[str, Any], Client]:
    """A room whose computers played a whole game, and its host's client (still connected)."""
    room = create_room(srv, game, players, level="random", **options)
    host = Client(srv, room["room"], host_token=room["host_token"])
    host.until(lambda m: m["type"] == "room")
    host.send({"type": "start"})
    host.until(is_end, timeout=90)
    return room, host


@pytest.mark.parametrize(("game", "players", "options"), [
    ("rummy432_v0", 3, {"rounds_to_win": 2, "hand_size": 6}), ("line_v0", 2, {}), ("lineit_v0", 2, {})])
def test_the_replay_steps_through_a_whole_recorded_game(srv: LiveServer, game: str, players: int,
                                                        options: dict[str, Any]) -> None:
    room, host = finished_room(srv, game, players, **options)
    rid = room["room"]
    record = HTTP.get(f"{srv.url}/api/rooms/{rid}/games/0").json()
    summary = HTTP.get(f"{srv.url}/api/rooms/{rid}/games/0/replay")
    assert summary.status_code == 200
    secure(summary)
    s = summary.json()
    steps = len(record["moves"])
    assert s["steps"] == steps > 5 and [m["text"] for m in s["moves"]] == record["moves"]
    assert [m["seat"] for m in s["moves"]] == record["movers"]
    assert all(m["label"] for m in s["moves"]) and s["result"]["winners"] == record["result"]["winners"]
    assert s["result"]["why"] and len(s["result"]["hands"]) == players
    if game == "rummy432_v0":
        assert s["rounds"] and all(0 < k <= steps for k in s["rounds"])
    for step in range(steps + 1):
        frame = HTTP.get(f"{srv.url}/api/rooms/{rid}/games/0/replay/{step}").json()
        g, state, _ = replay(record, step)
        assert frame["type"] == "replay" and frame["step"] == step and frame["seat"] is None
        assert frame["view"] == as_sent(g.public_view(state))
        hands = frame["hands"]
        views: list[Any] = [g.view(state, p) for p in range(players)]  # a hand, or every seat's hands
        assert [sorted(h) for h in hands] == [sorted(v.hand) if hasattr(v, "hand") else sorted(v.hands[i])
                                              for i, v in enumerate(views)]
        assert frame["moves"] == [] and frame["prompt"] == ""
        if step == 0:
            assert frame["move"] is None
        else:
            assert frame["move"]["text"] == record["moves"][step - 1]
            assert frame["move"]["seat"] == record["movers"][step - 1]
        assert (frame["result"] is not None) == (step == steps)
    # one seat's view, at the end and half-way
    for step in (steps // 2, steps):
        g, state, _ = replay(record, step)
        seen = HTTP.get(f"{srv.url}/api/rooms/{rid}/games/0/replay/{step}?seat=1").json()
        assert seen["view"] == as_sent(g.view(state, 1)) and seen["seat"] == 1
    # bad steps and seats: a clear error, nothing else
    for bad, says in ((f"{steps + 1}", f"0..{steps}"), ("-1", "a number"), ("x", "a number"),
                      ("1?seat=9", "0.."), ("1?seat=a", "seat"), ("1?peek=1", "unknown")):
        r = HTTP.get(f"{srv.url}/api/rooms/{rid}/games/0/replay/{bad}")
        assert r.status_code == 400 and says in r.json()["error"], (bad, r.text)
    # the viewer's page
    page = HTTP.get(f"{srv.url}/room/{rid}/replay/0")
    assert page.status_code == 200 and 'src="/static/app.js"' in page.text
    secure(page)
    host.close()


def test_nothing_of_a_game_still_being_played_is_served(srv: LiveServer) -> None:
    room, host = finished_room(srv, "line_v0", 2)
    rid = room["room"]
    host.send({"type": "rematch"})  # game 1 is being played now
    host.until(lambda m: m["type"] == "table" and m["game_index"] == 1)
    r = HTTP.get(f"{srv.url}/api/rooms/{rid}/games/1/replay")
    assert r.status_code == 404 and "finished games: 0" in r.json()["error"]
    for path in (f"/api/rooms/{rid}/games/1/replay/0", f"/api/rooms/{rid}/games/1/replay/0?seat=0",
                 f"/api/rooms/{rid}/games/1"):
        r = HTTP.get(srv.url + path)
        assert r.status_code == 404 and "hand" not in r.text and "start" not in r.text, path
    page = HTTP.get(f"{srv.url}/room/{rid}/replay/1")
    assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")
    assert "no finished game" in page.text
    # a room that never finished a game, and a room that does not exist
    fresh = create_room(srv, "line_v0", 2)["room"]
    assert HTTP.get(f"{srv.url}/api/rooms/{fresh}/games/0/replay").status_code == 404
    assert HTTP.get(f"{srv.url}/room/{fresh}/replay/0").status_code == 404
    assert HTTP.get(f"{srv.url}/api/rooms/nope/games/0/replay/0").status_code == 404
    assert HTTP.get(f"{srv.url}/room/nope/replay/0").status_code == 404
    # the finished game 0 still replays
    assert HTTP.get(f"{srv.url}/api/rooms/{rid}/games/0/replay/3").status_code == 200
    host.close()
