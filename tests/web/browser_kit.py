"""Helpers for the browser tests and screenshots: the real server in a subprocess, headless
Debian chromium through Selenium, and a person's clicks at the table (lobby, seats, tapping
cards and spots, the move buttons, the coach).

Only Debian's ``/usr/bin/chromium`` and ``/usr/bin/chromedriver`` are used; nothing here
downloads a browser.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from typing import Any

from .process import ServerProcess

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
CHROME_FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--no-first-run", "--disable-extensions", "--mute-audio",
)


def missing() -> str | None:
    """Why the browser tests cannot run here (``None`` when they can)."""
    for path in (CHROMIUM, CHROMEDRIVER):
        if not os.access(path, os.X_OK):
            return (f"{path} is missing: install Debian's chromium and chromium-driver "
                    "(python3 dev.py test does)")
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (the `browser` extra)"
    for mod in ("starlette", "uvicorn"):
        try:
            __import__(mod)
        except ImportError:
            return f"{mod} is not installed (the `web` extra)"
    return None


#: the per-address limits of a browser test's server (all its browsers are one address);
#: a module's ``SERVER_ARGS`` come after, so they may set them again
ROOMY_ARGS = ("--http-rate", "10000", "--http-burst", "100000", "--http-conns-per-address", "10000",
              "--waiting-rooms-per-address", "10000")


@contextlib.contextmanager
def server(data_dir: str | None = None, timeout: float = 40.0, args: tuple[str, ...] = (),
           port: int | None = None) -> Iterator[str]:
    """The real card table server (``python -m cardtable``, more ``args``) on a free port (or
    ``port``), computer players without delay; yields its base URL and stops it afterwards."""
    own_dir = data_dir is None
    data = tempfile.mkdtemp(prefix="ct-web-") if own_dir else data_dir
    assert data is not None
    srv = ServerProcess(data, bot_delay=0.0, workers=0, timeout=timeout, args=(*ROOMY_ARGS, *args), port=port)
    try:
        yield srv.url
    finally:
        srv.stop()
        if own_dir:
            shutil.rmtree(data, ignore_errors=True)


#: each driver's own profile folder (by ``id`` of the driver)
_PROFILES: dict[int, str] = {}


def driver(width: int = 1360, height: int = 900) -> Any:
    """A fresh headless chromium (its own profile, so its own localStorage)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for flag in CHROME_FLAGS:
        opts.add_argument(flag)
    profile = tempfile.mkdtemp(prefix="ct-chrome-")
    opts.add_argument(f"--user-data-dir={profile}")
    opts.add_argument(f"--window-size={width},{height}")
    drv = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    _PROFILES[id(drv)] = profile  # removed by quit_driver()
    drv.set_script_timeout(20)
    return drv


#: a phone's screen (CSS pixels), as the phone tests and screenshots emulate it
PHONE = (390, 844)


def phone(drv: Any, scale: int = 1) -> None:
    """Make ``drv`` a phone: a 390x844 touch screen with a mobile viewport (``scale``: device
    pixels per CSS pixel, for sharper screenshots)."""
    drv.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                        {"width": PHONE[0], "height": PHONE[1], "deviceScaleFactor": scale, "mobile": True})
    drv.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})


def in_view(drv: Any, selector: str) -> list[str]:
    """What is wrong with the elements matching ``selector`` for a person who does not scroll:
    each must lie inside the viewport and be the topmost thing at one of a few points across
    its middle (a card of a fan may be overlapped by its neighbours, but never hidden); empty
    when all is well (or nothing matches)."""
    found = js(drv, """
        const out = [];
        const W = window.innerWidth, H = window.innerHeight;
        for (const e of document.querySelectorAll(arguments[0])) {
          const b = e.getBoundingClientRect();
          if (!b.width || !b.height) continue;
          const name = e.id ? '#' + e.id
            : (e.dataset.card !== undefined ? 'card ' + e.dataset.card : e.className);
          if (b.top < -0.5 || b.left < -0.5 || b.bottom > H + 0.5 || b.right > W + 0.5) {
            const box = [b.left, b.top, b.right, b.bottom].map(Math.round).join(',');
            out.push(`${name} at ${box} is outside ${W}x${H}`);
            continue;
          }
          const y = Math.min(H - 1, Math.max(0, b.top + b.height / 2));
          const d = Math.min(b.width / 2, 8);
          const xs = [b.left + d, b.left + b.width / 2, b.right - d];
          let top = null, seen = false;
          for (const x of xs) {
            top = document.elementFromPoint(Math.min(W - 1, Math.max(0, x)), y);
            if (top && (top === e || e.contains(top))) { seen = true; break; }
          }
          if (!seen) out.push(`${name} is covered by ${top ? top.className || top.tagName : 'nothing'}`);
        }
        return out;""", selector)
    return [str(x) for x in found]


def new_browser(browsers: list[Any], **kw: Any) -> Any:
    """A fresh driver (``driver``'s options), kept in ``browsers`` (the tests' fixture of
    that name, ``tests/web/conftest.py``) so that it is quit when the test ends."""
    d = driver(**kw)
    browsers.append(d)
    return d


def quit_driver(drv: Any) -> None:
    with contextlib.suppress(Exception):
        drv.quit()
    profile = _PROFILES.pop(id(drv), None)
    if profile:
        shutil.rmtree(profile, ignore_errors=True)


# ------------------------------------------------------------------------ waiting
def wait(cond: Callable[[], Any], timeout: float = 20.0, what: str = "a condition",
         step: float = 0.05) -> Any:
    """Poll ``cond`` until it returns something truthy; its value."""
    deadline = time.monotonic() + timeout
    last_err: Exception | None = None
    while time.monotonic() < deadline:
        try:
            val = cond()
            if val:
                return val
        except Exception as err:  # stale elements while the page re-renders
            last_err = err
        time.sleep(step)
    extra = f" (last error: {last_err!r})" if last_err else ""
    raise AssertionError(f"timed out waiting for {what}{extra}")


def css(drv: Any, selector: str) -> list[Any]:
    from selenium.webdriver.common.by import By

    return list(drv.find_elements(By.CSS_SELECTOR, selector))


def js(drv: Any, script: str, *args: Any) -> Any:
    return drv.execute_script(script, *args)


def click(drv: Any, selector: str, timeout: float = 15.0) -> None:
    """Click the first element matching ``selector`` once it is there and enabled."""
    def go() -> bool:
        els = [e for e in css(drv, selector) if e.is_displayed() and e.is_enabled()]
        if not els:
            return False
        els[0].click()
        return True
    wait(go, timeout, f"clickable {selector}")


def errors(drv: Any) -> list[str]:
    """The error messages the page shows."""
    found = js(drv, "return [...document.querySelectorAll('#errors .error-text')].map(e => e.textContent)")
    return [str(t) for t in found]


# -------------------------------------------------------------------------- lobby
def create_room(drv: Any, base: str, game: str, players: int, options: dict[str, Any] | None = None,
                level: str | None = None, name: str = "Ann",
                times: dict[str, int | None] | None = None) -> str:
    """Make a room through the lobby form (``times``: its ``turn_seconds``/``away_seconds``
    choices); returns the room's URL (the page is in it)."""
    from selenium.webdriver.support.ui import Select

    drv.get(base + "/")
    click(drv, f'.game-tile[data-game="{game}"]')
    wait(lambda: css(drv, "#opt-num_players"), what="the options form")
    Select(css(drv, "#opt-num_players")[0]).select_by_value(str(players))
    for key, value in (options or {}).items():
        field = css(drv, f"#opt-{key}")[0]
        if field.tag_name == "input":
            field.clear()
            field.send_keys(str(value))
            js(drv, "arguments[0].dispatchEvent(new Event('change'))", field)
        else:  # the option whose value (JSON) is the one asked for; its words are the game's
            want = json.dumps(value)
            choice = [o for o in field.find_elements("css selector", "option")
                      if o.get_attribute("data-value") == want]
            assert choice, f"no {key} option {value!r} in the lobby"
            Select(field).select_by_value(str(choice[0].get_attribute("value")))
    if level:
        Select(css(drv, "#opt-level")[0]).select_by_value(level)
    for key, seconds in (times or {}).items():
        Select(css(drv, f"#opt-{key}")[0]).select_by_value("" if seconds is None else str(seconds))
    name_box = css(drv, "#lobby-name")[0]
    name_box.clear()
    name_box.send_keys(name)
    click(drv, "#create-room")
    wait(lambda: "/room/" in drv.current_url, what="the room page")
    wait(lambda: css(drv, "#room-link"), what="the room link")
    return str(css(drv, "#room-link")[0].get_attribute("value"))


def room_state(drv: Any) -> dict[str, Any]:
    """What the client holds (read from ``window.cardtable``): room and table messages."""
    return js(drv, "const S = window.cardtable && window.cardtable.S; "
                   "return S ? {room: S.room, table: S.table, advice: S.advice} : {};") or {}


def you(drv: Any) -> int | None:
    room = room_state(drv).get("room") or {}
    return room.get("you")


def sit(drv: Any, seat: int, name: str) -> None:
    """Type a name and take ``seat`` (the page must show the seat picker)."""
    box = wait(lambda: css(drv, "#name-input"), what="the name field")[0]
    box.clear()
    box.send_keys(name)
    click(drv, f'.wait-seat .sit[data-seat="{seat}"], .seatrow .sit[data-seat="{seat}"]')
    wait(lambda: you(drv) == seat, what=f"seat {seat}")


# ------------------------------------------------------------------------ playing
def my_turn(drv: Any) -> bool:
    """Whether the page offers this seat moves now."""
    return bool(js(drv, "const S = window.cardtable.S; return !!(S.table && S.room"
                        " && S.table.current === S.room.you && (S.table.moves || []).length && !S.pending);"))


def game_over(drv: Any) -> bool:
    return bool(css(drv, "#result"))


def page_cards(drv: Any, outside: str | None = None) -> set[int]:
    """Every card id shown anywhere on the page (``outside``: but not inside the elements
    matching this selector)."""
    found = js(drv, "const out = arguments[0]; return [...document.querySelectorAll('[data-card]')]"
                    ".filter(e => !out || !e.closest(out)).map(e => e.dataset.card)", outside)
    return {int(x) for x in found}


def hand_cards(drv: Any) -> list[int]:
    """The card ids shown in this page's own hand."""
    return [int(x) for x in js(drv, "return [...document.querySelectorAll('#my-hand [data-card]')]"
                                    ".map(e => e.dataset.card);")]


def step_of(drv: Any) -> int:
    t = room_state(drv).get("table") or {}
    return int(t.get("step", -1)) if t else -1


def legal_texts(drv: Any) -> list[str]:
    t = room_state(drv).get("table") or {}
    return [m["text"] for m in t.get("moves", [])]


def tap_card(drv: Any, card: int, where: str = "#board") -> None:
    click(drv, f'{where} [data-pick][data-card="{card}"].playable')


def tap_spot(drv: Any, spot: str) -> None:
    els = [e for e in css(drv, f'#board [data-spot="{spot}"]') if e.is_displayed()]
    assert els, f"no spot {spot}"
    # click the spot itself, away from any card in it
    js(drv, "arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", els[0])


def press(drv: Any, text: str) -> None:
    """Click the move button whose move text is ``text`` (shown after the taps)."""
    click(drv, f'#moves .move:not(.any)[data-move-text="{text}"]', timeout=5)


def play_by_taps(drv: Any, move: dict[str, Any]) -> None:
    """Make ``move`` (one of the table's legal moves) the way a person does: tap its first
    card (and a spot when the card alone leaves several moves), then press its button;
    moves that name no card are buttons already."""
    before = step_of(drv)
    if move["cards"]:
        tap_card(drv, move["cards"][0])
        shown = [e.get_attribute("data-move-text") for e in css(drv, "#moves .move:not(.any)")]
        if move["text"] not in shown:
            for spot in move["spots"]:
                tap_spot(drv, spot)
                shown = [e.get_attribute("data-move-text") for e in css(drv, "#moves .move:not(.any)")]
                if move["text"] in shown:
                    break
        if move["text"] not in shown and len(move["cards"]) > 1:
            tap_card(drv, move["cards"][1])
    press(drv, move["text"])
    wait(lambda: step_of(drv) > before or game_over(drv), 20, f"the server to take {move['text']}")


def play_by_send(drv: Any, move: dict[str, Any]) -> None:
    """Make ``move`` through the page's own client (``cardtable.send``, what a pressed move
    button sends), without the taps: for the long middle of a whole game."""
    before = step_of(drv)
    js(drv, "window.cardtable.send({type: 'move', id: arguments[0], step: arguments[1]})", move["id"], before)
    wait(lambda: step_of(drv) > before or game_over(drv), 20, f"the server to take {move['text']}")


def moves(drv: Any) -> list[dict[str, Any]]:
    t = room_state(drv).get("table") or {}
    return list(t.get("moves", []))
