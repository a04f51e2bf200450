"""The one registry of games: each game is registered once, here.

An entry names the game's PettingZoo module (which holds ``raw_env`` and, through it,
the :class:`~cardenvs.core.game.Game` class) and the module of the ``agents`` package
that carries the game's strategic knowledge, named computer players, search budget
and training defaults.  Everything else (``cardenvs.make``, ``cardenvs.ENVS``, the
ladder, the coach, training, the terminal table) looks games up through this entry,
so adding a game is one :func:`register` call (see ``docs/CONTRIBUTING_GAMES.md``).

The entry names the agents module as text: ``cardenvs`` never imports ``agents``.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from .core.game import Game


@dataclass(frozen=True)
class GameEntry:
    """One registered game."""

    #: versioned environment name, e.g. ``"line_v0"``
    env_name: str
    #: display title, e.g. ``"Line"``
    title: str
    #: the PettingZoo-style module: ``env()``, ``raw_env`` (whose ``game_class`` is the rules)
    module: str
    #: the ``agents`` module of the game (``SPEC``: knowledge, cast, budgets, defaults)
    agents: str
    #: the Gymnasium id (single-agent env against ladder opponents), e.g. ``"cardenvs/Line-v0"``
    gym_id: str | None = None

    def env_module(self) -> ModuleType:
        """The imported environment module."""
        return importlib.import_module(self.module)

    @property
    def game_class(self) -> type[Game[Any, Any]]:
        """The rules class (legality core) of the game."""
        cls: type[Game[Any, Any]] = self.env_module().raw_env.game_class
        return cls


GAMES: dict[str, GameEntry] = {}


class EnvModules(Mapping[str, str]):
    """A live, read-only view of the registry: environment name -> module name."""

    def __getitem__(self, name: str) -> str:
        return GAMES[name].module

    def __iter__(self) -> Iterator[str]:
        return iter(GAMES)

    def __len__(self) -> int:
        return len(GAMES)

    def __repr__(self) -> str:
        return repr(dict(self))


def register(entry: GameEntry) -> GameEntry:
    """Add a game to the registry (``ValueError`` if its name is taken)."""
    if entry.env_name in GAMES:
        raise ValueError(f"a game named {entry.env_name!r} is registered already")
    GAMES[entry.env_name] = entry
    if entry.gym_id is not None:
        _register_gym(entry)
    return entry


def _register_gym(entry: GameEntry) -> None:
    """Register the game's Gymnasium id (its entry point lives in the agents package,
    which gives it opponents; it is imported only when the id is made)."""
    import gymnasium

    gym_id = entry.gym_id
    if gym_id is not None and gym_id not in gymnasium.registry:
        gymnasium.register(id=gym_id, entry_point="agents.gym:single_agent_env",
                           kwargs={"env_name": entry.env_name})


def entry(name: Any) -> GameEntry:
    """The entry of an environment name; ``ValueError`` naming the environments if unknown."""
    if not isinstance(name, str) or name not in GAMES:
        raise ValueError(f"unknown environment {name!r}; the environments are {', '.join(GAMES)}")
    return GAMES[name]


register(GameEntry("line_v0", "Line", "cardenvs.line_v0", "agents.games.line", "cardenvs/Line-v0"))
register(GameEntry("lineit_v0", "Line-it", "cardenvs.lineit_v0", "agents.games.lineit",
                   "cardenvs/LineIt-v0"))
register(GameEntry("rummy432_v0", "Rummy 4x3x2's", "cardenvs.rummy432_v0", "agents.games.rummy432",
                   "cardenvs/Rummy432-v0"))
