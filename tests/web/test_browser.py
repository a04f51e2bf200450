"""The browser table end to end: the real server, headless chromium, people clicking.

* Rummy 4x3x2's: two friends in two browsers join one room by its link (the third seat is a
  computer), each sees only their own hand, one plays with the coach (advised moves), and
  they play through the rounds to the game's end (round results, game result, record).
* Line and Line-it: one person plays a whole game against a computer by tapping cards and
  spots; on the way the Line player leaves the seat, takes it back, and closes and reopens
  the page (the seat token in localStorage brings them back).

Run with ``pytest -m browser tests/web/test_browser.py``; skipped when Debian's chromium or
chromedriver is missing.
"""

from __future__ import annotations

import json
import random
import time
import urllib.request
from typing import Any

import pytest

try:
    from . import browser_kit as K
except ImportError:  # run from inside tests/web
    import browser_kit as K  # type: ignore[no-redef]

_MISSING = K.missing()
pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(_MISSING is not None, reason=f"browser tests need chromium: {_MISSING}")]

#: the longest a whole game may take in these tests (seconds)
GAME_TIMEOUT = 150
#: a whole game's first turns are played by taps, the rest through the page's client:
#: taps cost about a second a turn and every kind of move is tapped in the players' tests
TAPPED_TURNS = 8


def private_cards(drv: Any, seat: int) -> set[int]:
    """The cards of the page's own hand that only its seat knows (not taken from the discard)."""
    state = K.room_state(drv)
    view = state["table"]["view"]
    return set(view["hand"]) - set(view["known"][seat])


def check_privacy(a: Any, b: Any, seat_a: int, seat_b: int) -> None:
    """Each page shows its own hand, and none of the other's private cards anywhere."""
    hand_a, hand_b = set(K.hand_cards(a)), set(K.hand_cards(b))
    assert hand_a and hand_b and not hand_a & hand_b
    # the last round's result shows every hand of that round (public once judged); the
    # cards of the new round's hands may be among them, so they are left out here
    in_a, in_b = K.page_cards(a, outside="#round-result"), K.page_cards(b, outside="#round-result")
    assert not private_cards(a, seat_a) & in_b, "B's page shows A's hidden cards"
    assert not private_cards(b, seat_b) & in_a, "A's page shows B's hidden cards"
    # the views themselves: the other seat's hand is never sent
    assert set(K.room_state(b)["table"]["view"]["hand"]) == hand_b


def rummy_taps(drv: Any, play: Any = K.play_by_taps) -> None:
    """B's way of playing: draw (or take a card that pairs), then throw the loosest card,
    or finish when a finish is offered; by tapping and pressing buttons (``play``:
    :func:`K.play_by_send` for the long middle of a game)."""
    moves = K.moves(drv)
    texts = [m["text"] for m in moves]
    if "draw" in texts or "take" in texts:
        hand = K.room_state(drv)["table"]["view"]["hand"]
        top = K.room_state(drv)["table"]["view"]["discard_top"]
        ranks = [c >> 2 for c in hand]
        take = [m for m in moves if m["text"] == "take"]
        if take and top >= 0 and ranks.count(top >> 2) >= 1:
            play(drv, take[0])
        else:
            play(drv, next(m for m in moves if m["text"] in ("draw", "take")))
        return
    finish = [m for m in moves if m["text"].startswith("finish")]
    if finish:
        play(drv, finish[0])
        return
    hand = K.room_state(drv)["table"]["view"]["hand"]
    ranks = [c >> 2 for c in hand]
    throws = [m for m in moves if m["text"].startswith("throw")]
    throws.sort(key=lambda m: (ranks.count(m["cards"][0] >> 2), -(m["cards"][0] >> 2)))
    play(drv, throws[0])


def play_advised(drv: Any) -> str:
    """Play the coach's best move by its Play button; the move's text."""
    K.wait(lambda: K.css(drv, "#advice .advice-item .play-advice:not([disabled])"), 30, "the coach's advice")
    item = K.css(drv, "#advice .advice-item")[0]
    move_id = int(item.get_attribute("data-advice-id"))
    moves = {m["id"]: m["text"] for m in K.moves(drv)}
    assert move_id in moves, "the coach advised a move that is not legal"
    reason = K.css(drv, "#advice .advice-item .reason")
    assert reason and reason[0].text.strip(), "advice comes with a reason"
    before = K.step_of(drv)
    K.click(drv, "#advice .advice-item .play-advice")
    K.wait(lambda: K.step_of(drv) > before or K.game_over(drv), 20, "the advised move to be played")
    return moves[move_id]


def wait_hand(drv: Any, what: str) -> None:
    """Until the page shows its own dealt hand (and no game result)."""
    K.wait(lambda: not K.game_over(drv) and K.css(drv, "#board #my-hand [data-card]"), what=what)


def shown(drv: Any, selector: str, what: str) -> None:
    K.wait(lambda: K.css(drv, selector), what=what)


def leave_and_take_back(a: Any) -> None:
    """While the friend is to move: leave the seat (a computer takes it), then take it back."""
    K.click(a, "#leave")
    K.wait(lambda: K.you(a) is None, what="leaving the seat")
    assert K.room_state(a)["room"]["seats"][0]["kind"] == "computer"
    K.wait(lambda: not K.css(a, "#my-hand"), what="the page without a hand after leaving")
    K.click(a, "#take-back")
    K.wait(lambda: K.you(a) == 0, what="taking the seat back")
    K.wait(lambda: K.css(a, "#board #my-hand [data-card]"), what="the hand again")


def test_rummy_two_friends_by_link_with_coach(base: str, browsers: list[Any]) -> None:
    t0 = time.monotonic()
    a = K.new_browser(browsers)
    link = K.create_room(a, base, "rummy432_v0", 3, {"pack": "mixed", "hand_size": 6, "run_out_limit": 2,
                                                      "rounds_to_win": 2}, level="planner", name="Ann")
    K.wait(lambda: K.you(a) == 0, what="the host in seat 0")
    assert "/room/" in link
    # the host sets the computer seat's level
    from selenium.webdriver.support.ui import Select

    Select(K.css(a, '.level-select[data-seat="2"]')[0]).select_by_value("greedy")
    K.wait(lambda: K.room_state(a)["room"]["seats"][2]["level"] == "greedy", what="the level change")

    b = K.new_browser(browsers)
    b.get(link)
    K.wait(lambda: K.css(b, ".wait-seat .sit"), what="the seat picker")
    assert "watching" in K.css(b, "#seats-panel")[0].text.lower()
    assert not K.css(b, "#start"), "only the host can start"
    K.sit(b, 1, "Ben")
    K.wait(lambda: [s["name"] for s in K.room_state(a)["room"]["seats"]][:2] == ["Ann", "Ben"],
           what="Ben at A's table")
    assert K.room_state(a)["room"]["seats"][2]["kind"] == "computer"

    K.click(a, "#coach-toggle + .slider")
    K.click(a, "#start")
    for d in (a, b):
        wait_hand(d, "the dealt hands")
    check_privacy(a, b, 0, 1)

    advised: list[str] = []
    rounds_seen = set()
    privacy_checks = 0
    b_turns = 0
    deadline = time.monotonic() + GAME_TIMEOUT
    while not (K.game_over(a) and K.game_over(b)):
        assert time.monotonic() < deadline, "the Rummy game did not end in time"
        for drv in (a, b):
            table = K.room_state(drv).get("table") or {}
            rr = table.get("round_result")
            if rr and not table.get("result"):
                rounds_seen.add(rr["round"])
                shown(drv, "#round-result .rr-row", "the round result")
                assert len(K.css(drv, "#round-result .rr-row")) == 3
            if K.my_turn(drv):
                if privacy_checks < 6 and not table.get("result"):
                    check_privacy(a, b, 0, 1)
                    privacy_checks += 1
                if drv is a:
                    if len(advised) < TAPPED_TURNS:
                        advised.append(play_advised(a))
                    else:
                        rummy_taps(a, K.play_by_send)
                else:
                    b_turns += 1
                    if b_turns == 2:
                        leave_and_take_back(a)
                    rummy_taps(b, K.play_by_taps if b_turns <= TAPPED_TURNS else K.play_by_send)
        time.sleep(0.02)
        assert not K.errors(a) and not K.errors(b), (K.errors(a), K.errors(b))

    assert advised, "Ann never played an advised move"
    assert rounds_seen, "no round result was shown before the game ended"
    for drv in (a, b):
        result = K.css(drv, "#result")[0].text
        assert "Game over" in result
        rr = K.css(drv, "#round-result")
        assert rr, "the last round's result is shown at the end"
        K.js(drv, "document.querySelector('#round-result').open = true")
        assert len(K.css(drv, "#round-result .rr-row")) == 3
        assert "Why:" in K.css(drv, "#round-result")[0].text
    # the host may ask for a rematch, the friend may not; both can download the record
    assert K.css(a, "#rematch-banner") and not K.css(b, "#rematch-banner")
    href = K.wait(lambda: K.css(b, "#download-record"), what="the record link")[0].get_attribute("href")
    with urllib.request.urlopen(href, timeout=10) as res:
        record = json.loads(res.read())
    assert record["game"] == "rummy432_v0" and record["moves"]
    assert [s["name"] for s in record["seats"]][:2] == ["Ann", "Ben"]
    # a rematch deals a new game to the same seats
    K.click(a, "#rematch-banner")
    for d in (a, b):
        wait_hand(d, "the rematch deal")
    print(f"rummy: {len(advised)} advised moves, rounds {sorted(rounds_seen)}, {time.monotonic() - t0:.1f}s")


def solo_game(base: str, browsers: list[Any], game: str, players: int, pick: Any,
              midgame: Any = None) -> Any:
    a = K.new_browser(browsers)
    K.create_room(a, base, game, players, level="greedy", name="Ann")
    K.wait(lambda: K.you(a) == 0, what="the host in seat 0")
    K.click(a, "#start")
    K.wait(lambda: K.css(a, "#board"), what="the table")
    rng = random.Random(7)
    turns = 0
    deadline = time.monotonic() + GAME_TIMEOUT
    while not K.game_over(a):
        assert time.monotonic() < deadline, f"the {game} game did not end in time"
        if K.my_turn(a):
            play = K.play_by_taps if turns < TAPPED_TURNS else K.play_by_send
            play(a, pick(K.moves(a), rng))
            turns += 1
            if midgame is not None and turns == 4:
                midgame(a)
        else:
            time.sleep(0.02)
        assert not K.errors(a), K.errors(a)
    assert turns > 3
    assert "Game over" in K.css(a, "#result")[0].text
    assert K.css(a, "#rematch-banner")
    return a


def line_pick(moves: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """Play cards out when possible (plays before upgrades and shifts; draw only when forced)."""
    for kind in ("play", "upgrade", "shift", "take", "discard", "draw"):
        some = [m for m in moves if m["text"].startswith(kind)]
        if some:
            return rng.choice(some)
    return rng.choice(moves)


def watch_and_come_back(browsers: list[Any]) -> Any:
    """Midgame checks at a Line table: a spectator sees the public table only, and a move
    from a spectator is refused with an error shown on the page; the player closes the
    page and reopens the link (the seat token brings them back)."""
    def check(a: Any) -> None:
        url = a.current_url
        s = K.new_browser(browsers)
        s.get(url)
        K.wait(lambda: K.css(s, "#board .grid .row"), what="the spectator's table")
        assert not K.css(s, "#my-hand"), "a spectator has no hand"
        assert len(K.css(s, "#board .opp")) == 2, "a spectator sees every seat from outside"
        assert "Watching" in K.css(s, "#status")[0].text
        assert not K.css(s, ".sit"), "no seat is offered during a game (its cards are its holder's)"
        assert K.room_state(s)["table"]["view"]["hand"] == []
        K.js(s, "window.cardtable.send({type: 'move', id: 0})")
        msg = K.wait(lambda: K.errors(s), what="the refusal")[0]
        assert "sit first" in msg, msg
        K.quit_driver(s)
        browsers.remove(s)
        a.get("about:blank")
        a.get(url)
        K.wait(lambda: K.you(a) == 0, what="the seat after reopening the link")
        K.wait(lambda: K.css(a, "#board #my-hand"), what="the hand after reopening")
    return check


def test_line_full_game_against_the_computer(base: str, browsers: list[Any]) -> None:
    a = solo_game(base, browsers, "line_v0", 2, line_pick, midgame=watch_and_come_back(browsers))
    assert len(K.css(a, "#board .grid .row")) == 4
    # the game's end: why in words, every comparison naming the other player, every hand
    result = K.room_state(a)["table"]["result"]
    why = [li.text for li in K.css(a, "#result-why li")]
    assert why == result["why"] and any("hand total" in w or "share the win" in w for w in why)
    assert "reward" not in K.css(a, "#result")[0].text
    hands = K.css(a, "#result-hands .final-hand")
    assert len(hands) == 2
    for seat, box in enumerate(hands):
        cards = box.find_elements("css selector", "[data-card]")
        shown = sorted(int(c.get_attribute("data-card")) for c in cards)
        assert shown == sorted(result["hands"][seat])
    link = K.wait(lambda: K.css(a, "#replay-last"), what="the replay link")[0]
    assert link.get_attribute("href").endswith("/replay/0")


def lineit_pick(moves: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """Mostly sensible: pick to the line, play from the hand, score a long enough line."""
    texts = [m["text"] for m in moves]
    if "score" in texts:
        return moves[texts.index("score")] if rng.random() < 0.5 else moves[texts.index("pass")]
    for kind in ("pick", "play"):
        some = [m for m in moves if m["text"].startswith(kind) and not m["text"].endswith(" new")]
        if some:
            return rng.choice(some)
    return rng.choice(moves)


def test_lineit_full_game_against_the_computer(base: str, browsers: list[Any]) -> None:
    a = solo_game(base, browsers, "lineit_v0", 2, lineit_pick)
    assert K.css(a, "#board .market")
    assert len(K.css(a, "#board .jackpot")) == 4
