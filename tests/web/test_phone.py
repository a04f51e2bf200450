"""A phone (390x844) at every moment of a game (issue 37): the move buttons, the hand, the
coach's first line and the result's one-line summary are in view without scrolling, whatever
the scroll and whatever is shown over the board, in a real browser (headless Debian chromium,
the real server).  Checked by element geometry (inside the viewport, covered by nothing:
``browser_kit.in_view``) and by screenshots (``PHONE_SHOTS``: a folder to keep them in).

* a notice ("time ran out") never covers the status bar or its move buttons;
* a round just judged is one line in the status bar (its whole folded below), also while
  the next turn is played; a game that ends while scrolled down says so in view;
* the coach's first line is in the status bar;
* the lobby's name field and its button, and the name field of a room's link, are in view
  (tapping "Sit here" with no name asks for one instead of seating "Player");
* the replay viewer is no wider than the phone.

Run with ``pytest -m browser tests/web/test_phone.py``; skipped without chromium.
"""

from __future__ import annotations

import json
import os
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.web import browser_kit as K

_MISSING = K.missing()
pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(_MISSING is not None, reason=f"browser tests need chromium: {_MISSING}")]

#: the longest name a seat takes (24 columns)
LONG = "Maximilian-Alexandra Bax"


def shots(tmp_path: Path) -> Path:
    out = Path(os.environ.get("PHONE_SHOTS") or tmp_path)
    out.mkdir(parents=True, exist_ok=True)
    return out


def api_room(base: str, game: str, players: int, options: dict[str, Any], **body: Any) -> dict[str, Any]:
    data = {"game": game, "num_players": players, "options": options, "level": "random", **body}
    req = urllib.request.Request(base + "/api/rooms", method="POST", data=json.dumps(data).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as res:
        return dict(json.loads(res.read()))


def phone(browsers: list[Any]) -> Any:
    d = K.new_browser(browsers, width=K.PHONE[0], height=K.PHONE[1])
    K.phone(d)
    return d


def in_view(d: Any, what: str, *selectors: str) -> None:
    """Each selector matches something, and all of it is in view and uncovered."""
    for sel in selectors:
        assert K.css(d, sel), f"{what}: nothing matches {sel}"
    wrong = [w for sel in selectors for w in K.in_view(d, sel)]
    assert not wrong, f"{what}: " + "; ".join(wrong[:6])


def no_sideways(d: Any, what: str) -> None:
    """The page is no wider than the phone (a mobile viewport grows to a wider page, and
    ``innerWidth`` with it: the phone's width is the measure)."""
    width = K.js(d, "return document.documentElement.scrollWidth")
    assert width <= K.PHONE[0], f"{what}: the page is {width - K.PHONE[0]} px wider than the phone"


def scroll(d: Any, where: str) -> None:
    K.js(d, "window.scrollTo(0, arguments[0] === 'top' ? 0 : document.documentElement.scrollHeight)", where)
    time.sleep(0.1)


def table(d: Any) -> dict[str, Any]:
    return dict(K.room_state(d).get("table") or {})


def check_turn(d: Any, what: str) -> None:
    """At the person's turn: status, the move buttons, the hand, the coach's line (and the
    round's line while it is fresh) in view, covered by nothing."""
    sels = ["#status", "#moves .btn.move:not(.any), #moves .hint", "#my-hand [data-card]", "#coach-line"]
    t = table(d)
    rr = t.get("round_result")
    if rr and t["step"] - rr.get("step", t["step"]) <= 2:
        sels.append("#result-line")
    in_view(d, what, *sels)
    no_sideways(d, what)


def test_a_phone_game_keeps_moves_hand_coach_and_results_in_view(base: str, browsers: list[Any],
                                                                 tmp_path: Path) -> None:
    from websockets.sync.client import connect

    out = shots(tmp_path)
    room = api_room(base, "rummy432_v0", 2, {"hand_size": 6, "rounds_to_win": 2, "run_out_limit": 2},
                    turn_seconds=5)  # time to check a turn; the first one runs out
    d = phone(browsers)
    d.get(f"{base}/room/{room['room']}")
    # the link's page: the name field and the seats in view; no name yet: it asks for one
    K.wait(lambda: K.css(d, ".wait-seat .sit"), what="the seat picker")
    in_view(d, "the room's link", "#name-input", '.wait-seat .sit[data-seat="0"]')
    d.save_screenshot(str(out / "phone_join.png"))
    K.click(d, '.wait-seat .sit[data-seat="0"]')
    K.wait(lambda: K.errors(d), what="the request for a name")
    assert "name first" in K.errors(d)[-1] and K.you(d) is None
    K.sit(d, 0, LONG)
    assert K.room_state(d)["room"]["seats"][0]["name"] == LONG
    K.js(d, "document.getElementById('coach-toggle').click()")
    with connect(base.replace("http", "ws") + f"/ws/{room['room']}") as host:
        host.send(json.dumps({"type": "hello", "token": None, "host_token": room["host_token"]}))
        host.send(json.dumps({"type": "start"}))
        K.wait(lambda: K.my_turn(d), 30, "the first turn")
        time.sleep(0.2)
        check_turn(d, "the first turn")
        # the person does not move: the clock runs out, the computer moves, a notice says so;
        # at the next turn the notice covers no move button and the log marks that move
        K.wait(lambda: K.css(d, "#errors .notice"), 20, "the time-ran-out notice")
        K.wait(lambda: K.my_turn(d), 20, "the turn after the time ran out")
        time.sleep(0.3)
        assert K.css(d, "#errors .notice"), "the notice is gone already"
        check_turn(d, "a notice over the board")
        d.save_screenshot(str(out / "phone_notice.png"))
        log = K.css(d, "#log")[0].text
        assert f"(computer, {LONG}'s time ran out)" in log, log
        assert "Throw" not in log and "Draw" not in log, log  # the past tense: "threw", "drew"

        rounds_seen = over_seen = advised = 0
        for turn in range(400):
            K.wait(lambda: K.my_turn(d) or K.game_over(d), 30, "the person's turn")
            time.sleep(0.15)
            where = "top" if turn % 2 else "bottom"
            scroll(d, where)
            if K.game_over(d):
                in_view(d, f"the game's end, scrolled to the {where}", "#status", "#result-line")
                assert "Game over" in K.css(d, "#status")[0].text
                d.save_screenshot(str(out / "phone_over.png"))
                over_seen += 1
                break
            check_turn(d, f"turn {turn} scrolled to the {where}")
            advised += "thinking" not in K.css(d, "#coach-line")[0].text
            t = table(d)
            rr = t.get("round_result")
            if rr and not rounds_seen:
                rounds_seen += 1
                assert K.css(d, "#round-result") and not K.css(d, "#round-result[open]"), "the round opened"
                d.save_screenshot(str(out / "phone_round.png"))
            moves = K.moves(d)
            finish = [m for m in moves if m["text"].startswith("finish")]
            K.play_by_send(d, (finish or [m for m in moves if m["text"] == "draw"] or moves)[0])
        assert over_seen and rounds_seen and advised
        # the round's whole, opened from its line: long names end before the cards
        K.js(d, "const r = document.getElementById('round-result'); r.open = true; r.scrollIntoView()")
        time.sleep(0.2)
        for row in K.css(d, "#round-result .rr-row"):
            name = row.find_element("css selector", ".rr-name b").rect
            cards = row.find_element("css selector", ".rgroups").rect
            beside = name["y"] < cards["y"] + cards["height"] and cards["y"] < name["y"] + name["height"]
            assert not beside or name["x"] + name["width"] <= cards["x"] + 0.5, (name, cards)
            assert "card points" in row.text, row.text
        no_sideways(d, "the round's whole")
    assert not K.errors(d), K.errors(d)


def test_the_lobby_form_is_in_view_on_a_phone(base: str, browsers: list[Any], tmp_path: Path) -> None:
    d = phone(browsers)
    d.get(base + "/")
    K.wait(lambda: K.css(d, "#lobby-name"), what="the lobby")
    in_view(d, "the lobby", ".game-tile", "#lobby-name", "#create-room")
    d.save_screenshot(str(shots(tmp_path) / "phone_lobby.png"))
    K.click(d, '.game-tile[data-game="lineit_v0"]')
    time.sleep(0.3)
    in_view(d, "a game picked", "#lobby-name", "#create-room")
    no_sideways(d, "the lobby")


def test_the_replay_viewer_fits_a_phone(base: str, browsers: list[Any], tmp_path: Path) -> None:
    from tests.web.test_players import finished_game

    room = finished_game(base, "rummy432_v0", 3, {"rounds_to_win": 1, "hand_size": 6})
    d = phone(browsers)
    d.get(f"{base}/room/{room}/replay/0")
    K.wait(lambda: K.css(d, "#replay #board"), what="the replay viewer")
    time.sleep(0.3)
    no_sideways(d, "the replay at the deal")
    K.click(d, "#rp-last")
    time.sleep(0.3)
    no_sideways(d, "the replay at the end")
    d.save_screenshot(str(shots(tmp_path) / "phone_replay.png"))


def test_an_absent_persons_seat_and_moves_read_as_a_computers(base: str, browsers: list[Any],
                                                              tmp_path: Path) -> None:
    """Ann drops: her seat keeps her name and says a computer plays it, and the moves made
    for her are marked so in the log (a spectator's phone)."""
    from websockets.sync.client import connect

    room = api_room(base, "rummy432_v0", 2, {"hand_size": 6}, away_seconds=1)
    ws = base.replace("http", "ws") + f"/ws/{room['room']}"
    d = phone(browsers)
    with connect(ws) as ann:
        ann.send(json.dumps({"type": "hello", "token": None, "host_token": room["host_token"]}))
        ann.send(json.dumps({"type": "sit", "seat": 0, "name": "Ann"}))
        ann.send(json.dumps({"type": "start"}))
        d.get(f"{base}/room/{room['room']}")
        K.wait(lambda: K.css(d, "#board"), what="the table")

    def text(sel: str) -> str:  # read at once: the computers redraw the board all the time
        return str(K.js(d, "const n = document.querySelector(arguments[0]); return n ? n.textContent : ''",
                        sel))

    K.wait(lambda: "Ann \u2014 away, a computer is playing" in text("#seats-panel"), 20, "Ann's seat, away")
    plate = text('#board [data-seat-plate="0"]')
    assert "Ann" in plate and "a computer is playing" in plate, plate
    K.wait(lambda: "(computer, while Ann was away)" in text("#log"), 20, "a marked move")
    assert "Rosie" not in text("#seats-panel")
    d.save_screenshot(str(shots(tmp_path) / "phone_away.png"))
