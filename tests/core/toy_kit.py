"""The toy game's kit: its four faces registered with one call (importing this module).

* rules: ``tests/core/toy.py`` (``ToyGame`` with ``view`` and ``public_view``);
* knowledge: ``tests/core/toy_agents.py`` (``ToyKnowledge``, its cast and budget);
* words: ``tests/core/toy_words.py`` (``ToyFace``: move words, prompt, board facts);
* board: ``tests/core/toy_board.js`` (drawn by the browser table).

Tests register it with :func:`registered` and remove it afterwards; a browser-table server
gets it through ``CARDENVS_GAMES=tests.core.toy_plugin``, a module that registers it when
imported (by ``import cardenvs``, in the server and in its worker processes).  Nothing in
``cardtable`` or the generic agents changes for it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from cardenvs.registry import GAMES, GameKit, register, unregister

KIT = GameKit("toy_v0", "Toy", "tests.core.toy", "tests.core.toy_agents", gym_id="cardenvs/Toy-v0",
              words="tests.core.toy_words", board="tests.core:toy_board.js")


@contextmanager
def registered() -> Iterator[GameKit]:
    """The toy registered for the block (not when it was already), removed after."""
    mine = KIT.env_name not in GAMES
    if mine:
        register(KIT)
    try:
        yield KIT
    finally:
        if mine:
            unregister(KIT.env_name)
