"""Same origin by default: the table's sockets and room requests refuse other sites' pages
(an option adds allowed origins), room requests take JSON only, and every answer carries
the security headers (CSP with frame-ancestors 'none', nosniff, Referrer-Policy)."""

from __future__ import annotations

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect
from websockets.typing import Origin

from cardtable.pages import SECURITY_HEADERS

from .harness import HTTP, Client, LiveServer, create_room

FRIEND = "https://cards.example.org"
EVIL = "https://evil.example"


#: the settings of this module's server (the ``srv`` fixture of conftest.py)
SERVER = {"allowed_origins": (FRIEND + "/",)}


def open_socket(srv: LiveServer, room: str, origin: str | None) -> None:
    """Open a socket with this Origin header, say hello, read the room; raises if refused."""
    with connect(f"{srv.ws_url}/ws/{room}", origin=None if origin is None else Origin(origin)) as ws:
        ws.send('{"type": "hello", "token": null, "host_token": null}')
        assert '"type":"room"' in str(ws.recv(timeout=5))


def test_sockets_from_other_sites_are_refused(srv: LiveServer) -> None:
    room = create_room(srv, "line_v0", 2)["room"]
    for origin in (EVIL, "null", "http://127.0.0.1.evil.example", f"http://127.0.0.1:{srv.port + 1}",
                   "https://cards.example.org.evil.example"):
        with pytest.raises(InvalidStatus) as exc:
            open_socket(srv, room, origin)
        assert exc.value.response.status_code == 403
    # the table's own pages, an allowed origin, and clients that are no browser
    for allowed in (srv.url, FRIEND, FRIEND.upper(), None):
        open_socket(srv, room, allowed)


def room_count(srv: LiveServer) -> int:
    return len(srv.core.rooms)


def test_room_requests_from_other_sites_or_not_json_are_refused(srv: LiveServer) -> None:
    before = room_count(srv)
    body = '{"game": "line_v0"}'
    # a form or fetch from another site's page: refused, nothing made
    r = HTTP.post(srv.url + "/api/rooms", content=body,
                  headers={"Origin": EVIL, "Content-Type": "text/plain"})
    assert r.status_code == 403 and "another site" in r.json()["error"]
    r = HTTP.post(srv.url + "/api/rooms", content=body,
                  headers={"Origin": EVIL, "Content-Type": "application/json"})
    assert r.status_code == 403
    # a cross-site "simple" request (no preflight) is text/plain or a form: only JSON is taken
    for ctype in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", None):
        headers = {} if ctype is None else {"Content-Type": ctype}
        r = HTTP.post(srv.url + "/api/rooms", content=body, headers=headers)
        assert r.status_code == 415 and "application/json" in r.json()["error"], ctype
    assert room_count(srv) == before
    for origin in (srv.url, FRIEND):
        r = HTTP.post(srv.url + "/api/rooms", content=body,
                      headers={"Origin": origin, "Content-Type": "application/json; charset=utf-8"})
        assert r.status_code == 201, r.text
    assert room_count(srv) == before + 2


def test_every_answer_carries_the_security_headers(srv: LiveServer) -> None:
    room = create_room(srv, "line_v0", 2)["room"]
    answers = [HTTP.get(srv.url + path) for path in
               ("/", f"/room/{room}", "/room/nope", "/nowhere", "/static/app.js", "/static/style.css",
                "/api/games", f"/api/rooms/{room}", "/api/rooms/nope", "/api/export")]
    answers.append(HTTP.post(srv.url + "/api/rooms", content="x", headers={"Content-Type": "text/plain"}))
    answers.append(HTTP.post(srv.url + "/api/rooms", json={"game": "nope"}))
    assert {r.status_code for r in answers} >= {200, 400, 404, 415}
    for r in answers:
        for name, value in SECURITY_HEADERS:
            assert r.headers.get(name) == value, (r.url, name)
    csp = dict(SECURITY_HEADERS)["content-security-policy"]
    assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp and "unsafe" not in csp
    assert answers[0].headers["x-content-type-options"] == "nosniff"
    assert answers[0].headers["referrer-policy"] == "same-origin"
    # the client keeps to the policy: no inline script, style attribute or handler in the page
    page = answers[0].text
    assert "<script>" not in page and " style=" not in page and " onclick=" not in page
    c = Client(srv, room)  # sockets are not HTTP answers, but they work under the policy
    c.until(lambda m: m["type"] == "room")
