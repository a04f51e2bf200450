"""The toy game of the tests in the browser table: a game from outside, known to the server
only through its kit (``tests/core/toy_kit.py``, loaded by ``CARDENVS_GAMES``), played end
to end with nothing in ``cardtable`` changed for it.

The lobby lists it with its blurb; a person plays a whole game against a computer by
pressing the move buttons the server words; the board drawn is the toy's own module
(served from the kit's file), the computer's moves read in a third person's words, and the
result shows the face's score heading.  A screenshot of its table is written:

    .venv/bin/python -m tests.web.test_toy_table [--out docs/img]   # docs/img/table_toy.png
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web import browser_kit as K

_MISSING = K.missing()
pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(_MISSING is not None, reason=f"browser tests need chromium: {_MISSING}")]

#: how the server learns the toy's kit: a module that registers it when imported
PLUGIN = "tests.core.toy_plugin"


@contextlib.contextmanager
def toy_server() -> Iterator[str]:
    """The real table server with the toy's kit loaded (as a game from another distribution)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("CARDENVS_GAMES", PLUGIN)
        with K.server() as url:
            yield url


def play_toy(base: str, drv: Any, shot: Path | None = None) -> dict[str, Any]:
    """Create a toy room, play it to the end by its buttons; the final client state.
    ``shot``: where to save a screenshot of the table mid-game."""
    drv.get(base + "/")
    tile = K.wait(lambda: K.css(drv, '.game-tile[data-game="toy_v0"]'), what="the toy's tile")[0]
    assert "reaches the target" in tile.text  # the face's blurb
    K.create_room(drv, base, "toy_v0", 2, level="greedy", name="Ann")
    K.wait(lambda: K.you(drv) == 0, what="the host in seat 0")
    K.click(drv, "#start")
    K.wait(lambda: K.css(drv, "#board #toy-total"), what="the toy's board")
    turns = 0
    deadline = time.monotonic() + 60
    while not K.game_over(drv):
        assert time.monotonic() < deadline, "the toy game did not end in time"
        if K.my_turn(drv):
            status = K.css(drv, "#status")[0].text
            assert "to go" in status, status  # the face's prompt
            moves = K.moves(drv)
            assert [m["label"] for m in moves] == [f"Add {k} to the total" for k in (1, 2, 3)]
            if shot is not None and turns == 1:
                drv.save_screenshot(str(shot))
            K.play_by_taps(drv, moves[0])  # add 1: a long game
            turns += 1
        else:
            time.sleep(0.02)
        assert not K.errors(drv), K.errors(drv)
    assert turns >= 2
    return K.room_state(drv)


#: the environment of this module's server: the toy's kit loaded (the ``base`` fixture of
#: conftest.py)
SERVER_ENV = {"CARDENVS_GAMES": PLUGIN}


def test_the_toy_game_is_played_in_the_browser_table(base: str, tmp_path: Path) -> None:
    drv = K.driver()
    try:
        shot = tmp_path / "table_toy.png"
        state = play_toy(base, drv, shot)
        assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        table = state["table"]
        assert table["result"] is not None and "Game over" in K.css(drv, "#result")[0].text
        assert "points" in K.css(drv, "#result")[0].text  # the face's score heading
        mine = [e["label"] for e in table["log"] if e["seat"] == 0]
        theirs = [e["label"] for e in table["log"] if e["seat"] == 1]
        # the log is in sentences, the same for every seat: "Alice adds 1 to the total"
        assert mine and all(w.startswith("adds ") for w in mine)
        assert theirs and all(w.startswith("adds ") for w in theirs)
        assert K.css(drv, "#log li")
    finally:
        K.quit_driver(drv)


def main(argv: list[str] | None = None) -> int:
    """Write ``<out>/table_toy.png``: the toy's table in a game."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default="docs/img")
    args = ap.parse_args(argv)
    why = K.missing()
    if why is not None:
        print(why, file=sys.stderr)
        return 1
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with toy_server() as url:
        drv = K.driver(1100, 700)
        try:
            play_toy(url, drv, out / "table_toy.png")
        finally:
            K.quit_driver(drv)
    print("wrote", out / "table_toy.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
