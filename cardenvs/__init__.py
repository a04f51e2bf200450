"""cardenvs: PettingZoo environments for Line, Line-it and Rummy 4x3x2's.

>>> import cardenvs
>>> env = cardenvs.make("line_v0", num_players=3)
>>> env.reset(seed=1)
"""

from __future__ import annotations

import importlib
from typing import Any

from .core.game import (
    Game,
    IllegalActionError,
    InvalidStateError,
    NotationError,
    OptionError,
)

__version__ = "0.1.0"

#: every environment of the library: name -> module (each has ``env()`` and ``raw_env``)
ENVS: dict[str, str] = {
    "line_v0": "cardenvs.line_v0",
    "lineit_v0": "cardenvs.lineit_v0",
    "rummy432_v0": "cardenvs.rummy432_v0",
}


def env_module(name: str) -> Any:
    """The PettingZoo-style module of an environment name (``ValueError`` if unknown)."""
    if name not in ENVS:
        raise ValueError(f"unknown environment {name!r}; the environments are {', '.join(ENVS)}")
    return importlib.import_module(ENVS[name])


def make(name: str, **options: Any) -> Any:
    """Create an environment by name: ``make("line_v0", num_players=3, render_mode="ansi")``.

    ``options`` are ``render_mode``, ``render_viewer``, ``num_players`` and the game's own
    options; an unknown name or option raises ``ValueError`` naming what exists.
    """
    return env_module(name).env(**options)


def game_class(name: str) -> type[Game[Any, Any]]:
    """The rules class (legality core) behind an environment name."""
    return env_module(name).raw_env.game_class


__all__ = [
    "ENVS",
    "Game",
    "IllegalActionError",
    "InvalidStateError",
    "NotationError",
    "OptionError",
    "env_module",
    "game_class",
    "make",
]
