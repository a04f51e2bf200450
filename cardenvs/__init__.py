"""cardenvs: PettingZoo environments for Line, Line-it and Rummy 4x3x2's.

>>> import cardenvs
>>> env = cardenvs.make("line_v0", num_players=3)
>>> env.reset(seed=1)
"""

from __future__ import annotations

from typing import Any

from .core.game import (
    Game,
    IllegalActionError,
    InvalidStateError,
    NotationError,
    OptionError,
)
from .registry import GAMES, EnvModules, GameEntry, GameKit, entry, load_plugins, register, unregister

__version__ = "0.1.0"

#: every environment of the library: name -> module (each has ``env()`` and ``raw_env``);
#: a view of :data:`cardenvs.registry.GAMES`, where games are registered
ENVS: EnvModules = EnvModules()


def env_module(name: str) -> Any:
    """The PettingZoo-style module of an environment name (``ValueError`` if unknown)."""
    return entry(name).env_module()


def make(name: str, **options: Any) -> Any:
    """Create an environment by name: ``make("line_v0", num_players=3, render_mode="ansi")``.

    ``options`` are ``render_mode``, ``render_viewer``, ``num_players``,
    ``illegal_action`` (``"raise"`` or ``"terminate"``), ``illegal_reward`` and the game's
    own options; an unknown name or option raises ``ValueError`` naming what exists.
    The environment's spec (options, observation and action tables, rewards, infos,
    positions) is its module's docstring: ``help(cardenvs.env_module(name))``, also on the
    game's page of the documentation site (``python3 dev.py docs``).
    """
    return entry(name).env_module().env(**options)


def game_class(name: str) -> type[Game[Any, Any]]:
    """The rules class (legality core) behind an environment name."""
    return entry(name).game_class


__all__ = [
    "ENVS",
    "GAMES",
    "GameEntry",
    "GameKit",
    "Game",
    "IllegalActionError",
    "InvalidStateError",
    "NotationError",
    "OptionError",
    "entry",
    "env_module",
    "game_class",
    "make",
    "register",
    "unregister",
]

load_plugins()  # games registered by other distributions or named in CARDENVS_GAMES
