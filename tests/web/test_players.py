"""What players of a good online card table expect, in a real browser (headless Debian
chromium, the real server):

* a phone (390x844): at your turn the prompt, the legal moves and your hand are in view
  together, without scrolling, in every game (checked by element geometry: inside the
  viewport and covered by nothing), also on the biggest tables;
* keyboard play: a move chosen and played with the keyboard only (Tab to a card, Enter,
  a digit), with a visible focus, and screen-reader labels for cards, seats and moves;
* the rules one click away, in the lobby and at the table;
* the replay viewer: a finished game stepped through by its buttons and keys, every hand
  shown, linked from the room's finished games.

Run with ``pytest -m browser tests/web/test_players.py``; skipped without chromium.
"""

from __future__ import annotations

import json
import re
import time
import urllib.request
from typing import Any

import pytest

from tests.web import browser_kit as K

_MISSING = K.missing()
pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(_MISSING is not None, reason=f"browser tests need chromium: {_MISSING}")]

#: the biggest table of each game (most opponents, most cards in hand)
PHONE_TABLES: dict[str, tuple[int, dict[str, Any]]] = {
    "rummy432_v0": (3, {"hand_size": 12}),
    "line_v0": (4, {}),
    "lineit_v0": (5, {}),
}
SPOKEN_CARD = re.compile(r"^(ace|[2-9]|10|jack|queen|king) of (clubs|diamonds|hearts|spades)"
                         r"(, (playable|chosen))?$")


def start_alone(drv: Any, base: str, game: str, players: int, options: dict[str, Any] | None = None,
                level: str = "random") -> None:
    """A room of ``game`` with computers in every other seat, started by its host in seat 0."""
    K.create_room(drv, base, game, players, options or {}, level=level, name="Sam")
    K.wait(lambda: K.you(drv) == 0, what="the host in seat 0")
    K.click(drv, "#start")


def wait_turn(drv: Any) -> None:
    K.wait(lambda: K.my_turn(drv) or K.game_over(drv), 60, "the person's turn")
    time.sleep(0.3)  # the last redraw


def phone_check(drv: Any, what: str) -> None:
    """Prompt, moves and hand in view together, covered by nothing, no sideways scroll."""
    K.js(drv, "window.scrollTo(0, 0)")
    time.sleep(0.15)
    wrong = (K.in_view(drv, "#status")
             + K.in_view(drv, "#moves .btn.move:not(.any), #moves .hint, #moves summary")
             + K.in_view(drv, "#my-hand") + K.in_view(drv, "#my-hand [data-card]"))
    assert K.css(drv, "#my-hand"), f"{what}: no hand on the board"
    assert K.css(drv, "#moves .btn.move, #moves .hint"), f"{what}: no moves shown"
    assert not wrong, f"{what}: " + "; ".join(wrong[:6])
    width = K.js(drv, "return [document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], f"{what}: the page scrolls sideways ({width})"


@pytest.mark.parametrize("game", list(PHONE_TABLES))
def test_a_phone_shows_prompt_moves_and_hand_together(base: str, browsers: list[Any], game: str) -> None:
    d = K.new_browser(browsers, width=K.PHONE[0], height=K.PHONE[1])
    K.phone(d)
    players, options = PHONE_TABLES[game]
    start_alone(d, base, game, players, options)
    checked = 0
    for turn in range(4):
        wait_turn(d)
        if K.game_over(d):
            break
        phone_check(d, f"{game} turn {turn + 1}")
        moves = K.moves(d)
        with_card = [m for m in moves if m["cards"]]
        if with_card:  # a card chosen: its moves are the buttons now
            K.tap_card(d, with_card[0]["cards"][0])
            time.sleep(0.2)
            phone_check(d, f"{game} turn {turn + 1}, a card chosen")
            K.click(d, "#clear-sel")
        K.play_by_taps(d, moves[0])
        checked += 1
    assert checked >= 2
    assert not K.errors(d), K.errors(d)


def tab_to(drv: Any, selector: str, limit: int = 80) -> Any:
    """Press Tab until the focused element matches ``selector``; that element."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    for _ in range(limit):
        ActionChains(drv).send_keys(Keys.TAB).perform()
        if K.js(drv, "const a = document.activeElement; return !!(a && a.matches(arguments[0]))", selector):
            return K.js(drv, "return document.activeElement")
    raise AssertionError(f"Tab never reached {selector}")


def keys(drv: Any, *pressed: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(drv).send_keys(*pressed).perform()


def test_a_move_played_with_the_keyboard_only_and_labels_for_screen_readers(base: str,
                                                                             browsers: list[Any]) -> None:
    from selenium.webdriver.common.keys import Keys

    d = K.new_browser(browsers)
    start_alone(d, base, "rummy432_v0", 2)
    wait_turn(d)
    d.find_element("css selector", "body").click()  # the keyboard starts from the page
    # the pick-up: Tab to the draw button (a move that names no card), Enter
    before = K.step_of(d)
    tab_to(d, '#moves .btn.move[data-move-text="draw"]')
    keys(d, Keys.ENTER)
    K.wait(lambda: K.step_of(d) > before, what="the draw")
    wait_turn(d)
    # the throw: Tab to a card of the hand, Enter chooses it, a digit plays its first move
    card = tab_to(d, "#my-hand [data-card].playable")
    outline = K.js(d, "const s = getComputedStyle(document.activeElement); "
                      "return [s.outlineStyle, s.outlineWidth]")
    assert outline[0] != "none" and outline[1] != "0px", f"no visible focus on the card: {outline}"
    label = card.get_attribute("aria-label")
    assert SPOKEN_CARD.match(label), label
    keys(d, Keys.ENTER)
    K.wait(lambda: card.get_attribute("aria-pressed") == "true", what="the card chosen by Enter")
    buttons = K.css(d, "#moves .btn.move.picked")
    # its key, shown on the button (hidden on a touch screen, which has no keys)
    assert buttons and buttons[0].find_element("css selector", "kbd").get_attribute("textContent") == "1"
    announced = K.wait(lambda: K.css(d, "#announce")[0].get_attribute("textContent"), what="the announcement")
    assert "Chosen:" in announced and "1:" in announced, announced
    # the arrows move between the cards and places that can be chosen now (the chosen card
    # and the discard pile it goes to), round and round; Escape clears the choice
    ring = K.js(d, "return [...document.querySelectorAll('#board [tabindex=\"0\"]')]"
                   ".map((n) => n.dataset.card ?? n.dataset.spot)")
    assert str(chosen_first := card.get_attribute("data-card")) in ring and "discard" in ring, ring
    focused = []
    for _ in range(len(ring)):
        keys(d, Keys.ARROW_RIGHT)
        focused.append(K.js(d, "const a = document.activeElement; return a.dataset.card ?? a.dataset.spot"))
    assert sorted(focused) == sorted(ring) and focused[-1] == chosen_first, (focused, ring)
    keys(d, Keys.ESCAPE)
    K.wait(lambda: not K.css(d, "#moves .btn.move.picked"), what="the choice cleared by Escape")
    card = tab_to(d, "#my-hand [data-card].playable")
    chosen = int(card.get_attribute("data-card"))
    keys(d, Keys.SPACE)
    K.wait(lambda: K.css(d, "#moves .btn.move.picked"), what="the card chosen by Space")
    text = K.css(d, "#moves .btn.move.picked")[0].get_attribute("data-move-text")
    before = K.step_of(d)
    keys(d, "1")
    K.wait(lambda: K.step_of(d) > before, what="the move played by its digit")
    log = K.room_state(d)["table"]["log"]
    mine = [e for e in log if e["seat"] == 0]
    assert mine[-1]["text"] == text
    assert text.endswith(K.js(d, "return window.cardtable.stdText(arguments[0])", chosen))

    # what a screen reader says: cards, seats (name, person or computer, level, cards in
    # hand, whose turn) and moves
    wait_turn(d)
    hand = K.css(d, "#my-hand [data-card]")
    assert hand and all(SPOKEN_CARD.match(c.get_attribute("aria-label") or "") for c in hand)
    rows = {int(r.get_attribute("data-seat")): r.get_attribute("aria-label")
            for r in K.css(d, "#seats .seatrow")}
    assert "Sam (you)" in rows[0] and "a person" in rows[0] and "cards in hand" in rows[0]
    assert "a computer" in rows[1] and "beginner level" in rows[1] and "cards in hand" in rows[1]
    assert "your turn" in rows[0] or "to move" in rows[1]
    plates = {int(p.get_attribute("data-seat-plate")): p.get_attribute("aria-label")
              for p in K.css(d, "#board [data-seat-plate]")}
    assert "a computer" in plates[1] and "cards in hand" in plates[1]
    assert all((b.get_attribute("data-label") or "").strip() for b in K.css(d, "#moves .btn.move"))
    backs = K.css(d, "#board .backs")
    assert backs and "face down" in backs[0].get_attribute("aria-label")
    assert not K.errors(d), K.errors(d)


def test_keyboard_chooses_a_card_and_a_row_in_line(base: str, browsers: list[Any]) -> None:
    """A play into a row: the card, then (several rows take it) the row, both by keyboard."""
    from selenium.webdriver.common.keys import Keys

    d = K.new_browser(browsers)
    start_alone(d, base, "line_v0", 2)
    many: list[int] = []
    for _ in range(20):  # usually the first turn: a card that fits several rows
        wait_turn(d)
        if K.game_over(d):
            break
        plays = [m for m in K.moves(d) if m["text"].startswith("play ")]
        by_card: dict[int, list[dict[str, Any]]] = {}
        for m in plays:
            by_card.setdefault(m["cards"][0], []).append(m)
        many = [c for c, ms in by_card.items() if len(ms) > 1]
        if many:
            break
        K.play_by_taps(d, K.moves(d)[0])
    if not many:
        pytest.skip("no card with a choice of rows came up in 20 turns")
    card = many[0]
    d.find_element("css selector", "body").click()
    tab_to(d, f'#my-hand [data-card="{card}"].playable')
    keys(d, Keys.ENTER)
    K.wait(lambda: len(K.css(d, "#moves .btn.move.picked")) == len(by_card[card]), what="the card's moves")
    row = by_card[card][-1]["spots"][0]
    spot = tab_to(d, f'#board [data-spot="{row}"]')
    assert spot.get_attribute("role") == "button" and spot.get_attribute("aria-label").startswith("row ")
    keys(d, Keys.ENTER)
    K.wait(lambda: len(K.css(d, "#moves .btn.move.picked")) == 1, what="one move left after the row")
    before = K.step_of(d)
    keys(d, "1")
    K.wait(lambda: K.step_of(d) > before, what="the play")
    played = [e for e in K.room_state(d)["table"]["log"] if e["seat"] == 0][-1]
    assert played["text"] == by_card[card][-1]["text"]


def test_the_rules_are_one_click_away(base: str, browsers: list[Any]) -> None:
    from selenium.webdriver.common.keys import Keys

    d = K.new_browser(browsers)
    d.get(base + "/")
    K.click(d, '.game-tile[data-game="line_v0"]')
    K.click(d, "#lobby-rules")
    body = K.wait(lambda: K.css(d, "#rules-dialog #rules-the-rules-for-a-player"), what="the rules")[0]
    assert "The rules for a player" in body.text
    assert K.js(d, "return document.activeElement.id") == "rules-close"
    keys(d, Keys.ESCAPE)
    K.wait(lambda: not K.css(d, "#rules-dialog"), what="the rules closed by Escape")
    start_alone(d, base, "rummy432_v0", 2)
    K.wait(lambda: K.css(d, "#board"), what="the table")
    K.click(d, "#rules-button")
    K.wait(lambda: K.css(d, "#rules-dialog #rules-who-wins-the-round"), what="Rummy's rules at the table")
    assert "Rummy 4x3x2's" in K.css(d, "#rules-title")[0].text
    K.click(d, "#rules-close")
    K.wait(lambda: not K.css(d, "#rules-dialog"), what="the rules closed")
    page = d.current_url
    d.get(base + "/rules/rummy432_v0")
    assert K.css(d, "#rules-body #rules-who-wins-the-round") and K.css(d, ".rules-toc a")
    assert "Position JSON" not in K.css(d, "#rules-body")[0].text
    d.get(page)
    K.wait(lambda: K.css(d, "#board"), what="back at the table")


def finished_game(base: str, game: str, players: int, options: dict[str, Any]) -> str:
    """A room whose computers played a whole game (started by its host over the socket);
    its id."""
    from websockets.sync.client import connect

    body = {"game": game, "num_players": players, "options": options, "level": "random"}
    req = urllib.request.Request(base + "/api/rooms", method="POST",
                                 headers={"Content-Type": "application/json"}, data=json.dumps(body).encode())
    with urllib.request.urlopen(req, timeout=10) as res:
        room = json.loads(res.read())
    with connect(base.replace("http", "ws") + f"/ws/{room['room']}") as ws:
        ws.send(json.dumps({"type": "hello", "token": None, "host_token": room["host_token"]}))
        ws.send(json.dumps({"type": "start"}))
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            msg = json.loads(ws.recv(timeout=30))
            if msg["type"] == "table" and msg["result"] is not None:
                return str(room["room"])
    raise AssertionError("the computers' game did not end")


def test_the_replay_viewer_steps_through_a_finished_game(base: str, browsers: list[Any]) -> None:
    from selenium.webdriver.common.keys import Keys

    room = finished_game(base, "rummy432_v0", 3, {"rounds_to_win": 1, "hand_size": 6})
    d = K.new_browser(browsers)
    # linked from the room's finished games
    d.get(f"{base}/room/{room}")
    assert K.wait(lambda: K.css(d, "#result #replay-last"), what="the replay link at the game's end")
    K.click(d, '#records-panel a[data-replay="0"]')
    K.wait(lambda: "/replay/0" in d.current_url and K.css(d, "#replay #board"), what="the replay viewer")
    with urllib.request.urlopen(f"{base}/api/rooms/{room}/games/0/replay", timeout=10) as res:
        summary = json.loads(res.read())
    steps = summary["steps"]
    assert steps > 5

    def at() -> int:
        return int(K.room_state(d)["table"]["step"])

    assert at() == 0 and "The deal" in K.css(d, "#rp-step")[0].text
    # every hand shown at every step (the game is over), as the server built it
    assert len(K.css(d, "#rp-hands .final-hand")) == 3
    frame = K.room_state(d)["table"]
    shown = [sorted(int(c.get_attribute("data-card")) for c in h.find_elements("css selector", "[data-card]"))
             for h in K.css(d, "#rp-hands .final-hand")]
    assert shown == [sorted(h) for h in frame["hands"]]
    # next and previous, by button and by key
    K.click(d, "#rp-next")
    K.wait(lambda: at() == 1, what="step 1")
    first = summary["moves"][0]
    assert first["label"] in K.css(d, "#rp-step")[0].text
    d.find_element("css selector", "#rp-moves-panel h3").click()
    keys(d, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT)
    K.wait(lambda: at() == 3, what="step 3 by the right arrow")
    assert K.css(d, '#rp-moves li.current[data-step="3"]')
    keys(d, Keys.ARROW_LEFT)
    K.wait(lambda: at() == 2, what="step 2 by the left arrow")
    keys(d, Keys.END)
    K.wait(lambda: at() == steps, what="the end by End")
    assert "Game over" in K.css(d, "#result")[0].text and K.css(d, "#result-why li")
    assert K.css(d, "#rp-next")[0].get_attribute("disabled") is not None
    keys(d, Keys.HOME)
    K.wait(lambda: at() == 0, what="the deal by Home")
    # the board as one seat saw it: that seat's hand on the board
    from selenium.webdriver.support.ui import Select

    Select(K.css(d, "#rp-seat")[0]).select_by_value("1")
    K.wait(lambda: K.room_state(d)["table"]["seat"] == 1 and K.css(d, "#board #my-hand [data-card]"),
           what="seat 1's view")
    assert sorted(K.hand_cards(d)) == sorted(K.room_state(d)["table"]["hands"][1])
    K.click(d, '#rp-moves button[data-step="4"]')
    K.wait(lambda: at() == 4, what="a move picked from the list")
    assert not K.errors(d), K.errors(d)
