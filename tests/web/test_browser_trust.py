"""What the browser shows of a table nobody can stall or break: the turn clock counting
down, resigning, an absent player's countdown, the host badge moving when the host leaves,
the pages of wrong links, and a page whose room is gone that stops reconnecting.

Headless Debian chromium against the real server (``tests/web/browser_kit.py``); skipped
when chromium or chromedriver is missing.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from typing import Any

import pytest

try:
    from . import browser_kit as K
except ImportError:  # run from inside tests/web
    import browser_kit as K  # type: ignore[no-redef]

_MISSING = K.missing()
pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(_MISSING is not None, reason=f"browser tests need chromium: {_MISSING}")]


#: the arguments of this module's server (the ``base`` fixture of conftest.py)
SERVER_ARGS = ("--host-grace", "1")


def clock_seconds(drv: Any, selector: str = "#status #clock") -> int:
    """The seconds a countdown shows (``m:ss``)."""
    text = K.css(drv, selector)[0].text.strip()
    minutes, seconds = text.split(":")
    return int(minutes) * 60 + int(seconds)


def notices(drv: Any) -> list[str]:
    return [str(t) for t in K.js(drv, "return [...document.querySelectorAll('#errors .notice-text')]"
                                      ".map(e => e.textContent)")]


def test_the_turn_clock_and_resigning(base: str, browsers: list[Any]) -> None:
    a = K.new_browser(browsers)
    K.create_room(a, base, "line_v0", 2, level="greedy", name="Ann", times={"turn_seconds": 15})
    K.wait(lambda: K.you(a) == 0, what="the host in seat 0")
    assert "turn clock 15 s" in K.css(a, "#seats-panel .optline")[0].text
    K.click(a, "#start")
    K.wait(lambda: K.my_turn(a), what="Ann's turn")
    K.wait(lambda: K.css(a, "#status #clock"), what="the turn clock")
    first = clock_seconds(a)
    assert 10 <= first <= 15
    K.wait(lambda: clock_seconds(a) < first, 5, "the clock to count down")
    assert K.css(a, "#board .plate.to-move .plate-clock"), "the clock on the mover's name plate too"
    # resign: the first press asks, the second resigns
    K.click(a, "#resign")
    K.wait(lambda: "Really resign" in K.css(a, "#resign")[0].text, what="the resign confirmation")
    assert not K.game_over(a)
    K.click(a, "#resign")
    K.wait(lambda: K.game_over(a), what="the game's end")
    assert "Ann resigned" in K.css(a, "#result")[0].text
    assert not K.css(a, "#status #clock") and not K.css(a, "#resign")
    assert K.wait(lambda: [n for n in notices(a) if "Ann resigned" in n], what="the notice")
    assert not K.errors(a)


def test_an_absent_host_hands_over_and_the_seat_counts_down(base: str, browsers: list[Any]) -> None:
    a = K.new_browser(browsers)
    link = K.create_room(a, base, "line_v0", 3, level="greedy", name="Ann", times={"away_seconds": 30})
    K.wait(lambda: K.you(a) == 0, what="the host in seat 0")
    b = K.new_browser(browsers)
    b.get(link)
    K.sit(b, 1, "Ben")
    K.wait(lambda: K.css(b, "#seats #host-badge-0"), what="the host badge on Ann's seat")
    assert not K.css(b, "#start") and not K.css(b, ".level-select")
    K.click(a, "#start")
    K.wait(lambda: K.css(b, "#board"), what="Ben's table")
    # Ann closes her browser: her seat counts down for everyone, and Ben becomes the host
    K.quit_driver(a)
    browsers.remove(a)
    K.wait(lambda: K.css(b, '#seats [data-away-seat="0"]'), 10, "Ann's seat counting down")
    left = clock_seconds(b, '#seats [data-away-seat="0"]')
    assert 20 <= left <= 30
    K.wait(lambda: clock_seconds(b, '#seats [data-away-seat="0"]') < left, 5, "the countdown to tick")
    K.wait(lambda: K.css(b, "#seats #host-badge-1"), 10, "the host badge on Ben's seat")
    assert not K.css(b, "#seats #host-badge-0")
    K.wait(lambda: [n for n in notices(b) if "Ben is the host now" in n], what="the notice")
    assert K.room_state(b)["room"]["host"]
    assert K.js(b, "return localStorage.getItem('cardtable:host:' + window.cardtable.S.roomId)")
    # levels change between games, not during one: the new host is offered none in play
    assert not K.css(b, ".level-select")
    assert not K.errors(b)


def test_wrong_links_show_pages_and_a_gone_room_stops_reconnecting(browsers: list[Any]) -> None:
    data = tempfile.mkdtemp(prefix="ct-gone-")
    empty = tempfile.mkdtemp(prefix="ct-gone-empty-")
    try:
        with K.server(data_dir=data) as url:
            a = K.new_browser(browsers)
            a.get(url + "/room/nope")
            assert K.css(a, "#error-page h1")[0].text == "No such room"
            assert "nope" in K.css(a, "#error-page")[0].text
            a.get(url + "/no/such/page")
            assert K.css(a, "#error-page h1")[0].text == "Nothing here"
            K.create_room(a, url, "line_v0", 2, name="Ann")
            K.wait(lambda: K.you(a) == 0, what="Ann seated")
            port = int(url.rsplit(":", 1)[1])
        # the server comes back without the room (its data is gone): the page says so, once
        with K.server(data_dir=empty, port=port):
            K.wait(lambda: K.css(a, "#room-gone"), 30, "the page to say the room is gone")
            assert "not on the server" in K.css(a, "#room-gone")[0].text
            time.sleep(2.5)  # no more reconnecting
            assert K.css(a, "#room-gone") and "reconnecting" not in K.css(a, "body")[0].text.lower()
    finally:
        shutil.rmtree(data, ignore_errors=True)
        shutil.rmtree(empty, ignore_errors=True)
