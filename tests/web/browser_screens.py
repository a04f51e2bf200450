"""Screenshots of the browser table for the docs: ``docs/img/table_<name>.png``.

    .venv/bin/python -m tests.web.browser_screens [--out docs/img]

Starts the real server (computer players without delay) and headless Debian chromium,
opens the lobby, and plays a little of each game (the person follows the coach in Rummy)
to show the tables: ``lobby``, ``rummy``, ``rummy_result``, ``line``, ``lineit``; and on a
phone (390x844, what is in view without scrolling, at the person's turn with a card
chosen): ``phone_rummy432``, ``phone_line``, ``phone_lineit``; and the replay viewer at a
Rummy game's end with the rules panel beside it: ``replay``, ``rules``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from tests.web import browser_kit as K

ROOT = Path(__file__).resolve().parents[2]

WIDTH = 1360


def shoot(drv: Any, path: Path, height: int | None = None) -> None:
    """A screenshot of the whole page (the viewport grown to the page's height)."""
    h = height or int(K.js(drv, "return Math.max(document.documentElement.scrollHeight, 600)"))
    drv.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                        {"width": WIDTH, "height": h, "deviceScaleFactor": 1, "mobile": False})
    time.sleep(0.4)
    drv.save_screenshot(str(path))
    drv.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    print("wrote", path)


def settle(drv: Any) -> None:
    """Wait until it is this page's turn (or the game is over), animations done."""
    K.wait(lambda: K.my_turn(drv) or K.game_over(drv), 60, "the person's turn")
    time.sleep(1.8)


def coach_move(drv: Any) -> None:
    K.wait(lambda: K.css(drv, "#advice .play-advice:not([disabled])"), 30, "advice")
    before = K.step_of(drv)
    K.click(drv, "#advice .play-advice")
    K.wait(lambda: K.step_of(drv) > before or K.game_over(drv), 20, "the move")


def rummy(base: str, out: Path) -> None:
    d = K.driver(WIDTH, 1000)
    try:
        d.get(base + "/")
        K.click(d, '.game-tile[data-game="rummy432_v0"]')
        K.wait(lambda: K.css(d, "#create-room"))
        time.sleep(0.5)
        shoot(d, out / "table_lobby.png")
        K.create_room(d, base, "rummy432_v0", 4, {"pack": "mixed", "hand_size": 8}, level="planner",
                      name="Sam")
        K.wait(lambda: K.you(d) == 0)
        K.click(d, "#coach-toggle + .slider")
        K.click(d, "#start")
        for _ in range(7):
            settle(d)
            coach_move(d)
        settle(d)
        if "throw" not in " ".join(K.legal_texts(d)):
            coach_move(d)
            settle(d)
        # tap the card the coach would throw, so the move buttons show
        K.wait(lambda: K.css(d, "#advice .advice-item"), 30)
        best = K.room_state(d)["advice"][0]
        move = next(m for m in K.moves(d) if m["id"] == best["id"])
        if move["cards"]:
            K.tap_card(d, move["cards"][0])
        time.sleep(0.5)
        shoot(d, out / "table_rummy.png")
    finally:
        K.quit_driver(d)

    d = K.driver(WIDTH, 1000)
    try:
        K.create_room(d, base, "rummy432_v0", 4, {"pack": "mixed", "hand_size": 6, "run_out_limit": 2,
                                                   "rounds_to_win": 1}, level="planner", name="Sam")
        K.wait(lambda: K.you(d) == 0)
        K.click(d, "#coach-toggle + .slider")
        K.click(d, "#start")
        while not K.game_over(d):
            settle(d)
            if not K.game_over(d):
                coach_move(d)
        time.sleep(1)
        K.js(d, "window.scrollTo(0, 0)")
        shoot(d, out / "table_rummy_result.png")
    finally:
        K.quit_driver(d)


def coached_game(d: Any, base: str, env: str, moves: int) -> None:
    """Create a 3-seat room of ``env`` against planners, switch the coach on, start, and
    play up to ``moves`` of the coach's advised moves."""
    K.create_room(d, base, env, 3, level="planner", name="Sam")
    K.wait(lambda: K.you(d) == 0)
    K.click(d, "#coach-toggle + .slider")
    K.click(d, "#start")
    for _ in range(moves):
        settle(d)
        if K.game_over(d):
            break
        coach_move(d)
    settle(d)


def line(base: str, out: Path) -> None:
    d = K.driver(WIDTH, 1000)
    try:
        coached_game(d, base, "line_v0", 6)
        shoot(d, out / "table_line.png")
    finally:
        K.quit_driver(d)


def lineit(base: str, out: Path) -> None:
    d = K.driver(WIDTH, 1000)
    try:
        coached_game(d, base, "lineit_v0", 16)
        while not K.game_over(d) and K.room_state(d)["table"]["view"]["phase"] != "pick":
            coach_move(d)
            settle(d)
        time.sleep(1.5)
        shoot(d, out / "table_lineit.png")
    finally:
        K.quit_driver(d)


#: the phone screenshots: name -> (game, seats, options)
PHONE_TABLES: dict[str, tuple[str, int, dict[str, Any]]] = {
    "rummy": ("rummy432_v0", 3, {}), "line": ("line_v0", 3, {}), "lineit": ("lineit_v0", 3, {})}


def phone(base: str, out: Path, only: tuple[str, ...] = tuple(PHONE_TABLES)) -> None:
    """Each game at a phone's size, as the person sees it at their turn (a few moves in,
    a card chosen so its moves show): ``table_phone_<game>.png``, the viewport only."""
    for name in only:
        env, seats, options = PHONE_TABLES[name]
        phone_shot(base, out, env, seats, options)


def phone_shot(base: str, out: Path, env: str, seats: int, options: dict[str, Any]) -> None:
    """One game's phone screenshot (see :func:`phone`)."""
    d = K.driver(K.PHONE[0], K.PHONE[1])
    try:
        K.phone(d)
        K.create_room(d, base, env, seats, options, level="greedy", name="Sam")
        K.wait(lambda: K.you(d) == 0)
        K.click(d, "#start")
        for _ in range(3):
            settle(d)
            if K.game_over(d):
                break
            K.play_by_taps(d, K.moves(d)[0])
        settle(d)
        with_card = [m for m in K.moves(d) if m["cards"]]
        if with_card:
            K.tap_card(d, with_card[-1]["cards"][0])
        K.js(d, "window.scrollTo(0, 0)")
        time.sleep(0.6)
        path = out / f"table_phone_{env.removesuffix('_v0')}.png"
        d.save_screenshot(str(path))
        print("wrote", path)
    finally:
        K.quit_driver(d)


def replay(base: str, out: Path) -> None:
    """A finished Rummy game of computers, replayed: its end (``table_replay.png``), then the
    rules panel open over it (``table_rules.png``)."""
    from tests.web.test_players import finished_game

    room = finished_game(base, "rummy432_v0", 3, {"rounds_to_win": 1, "hand_size": 6})
    d = K.driver(WIDTH, 900)
    try:
        d.get(f"{base}/room/{room}/replay/0")
        K.wait(lambda: K.css(d, "#replay #board"), what="the replay viewer")
        K.click(d, "#rp-last")
        K.wait(lambda: K.css(d, "#result-why li"), what="the game's end")
        time.sleep(0.8)
        d.save_screenshot(str(out / "table_replay.png"))
        print("wrote", out / "table_replay.png")
        K.click(d, "#rules-button")
        K.wait(lambda: K.css(d, "#rules-dialog h1"), what="the rules")
        time.sleep(0.8)
        d.save_screenshot(str(out / "table_rules.png"))
        print("wrote", out / "table_rules.png")
    finally:
        K.quit_driver(d)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=str(ROOT / "docs" / "img"))
    ap.add_argument("--only", nargs="*", default=["rummy", "line", "lineit", "phone", "replay"])
    args = ap.parse_args(argv)
    why = K.missing()
    if why:
        print("cannot make screenshots:", why)
        return 1
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with K.server() as base:
        jobs = {"rummy": rummy, "line": line, "lineit": lineit, "phone": phone, "replay": replay}
        for name in args.only:
            jobs[name](base, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
