"""What the kit tests: a game named by its environment name, ``module:attr``, or a factory."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Union

from ..core.game import Game
from ..registry import GAMES, GameKit

#: a game as the checks take it: a registered environment name (``"line_v0"``),
#: ``"module:attr"`` (attr: an ``env`` function, an environment module, a ``GameKit`` or a
#: ``raw_env`` class), a module name, or a factory ``f(num_players=..., **options)`` of AEC
#: environments built on :class:`cardenvs.core.env.CardGameEnv`
GameRef = Union[str, Callable[..., Any], "Target"]


@dataclass
class Target:
    """A resolved game: how to make its environment, its rules class and its spec."""

    #: a name for messages (the environment name where there is one)
    name: str
    #: ``factory(num_players=n, **options)``: an order-enforced AEC environment
    factory: Callable[..., Any]
    #: the rules behind the environment
    game_class: type[Game[Any, Any]]
    #: the environment module's docstring (its spec), ``None`` if it has none
    doc: str | None
    #: game options every environment and game of the checks is made with
    options: dict[str, Any] = field(default_factory=dict)

    def make(self, players: int, **kwargs: Any) -> Any:
        """A new environment at ``players`` seats (under :attr:`options`, then ``kwargs``)."""
        return self.factory(num_players=players, **{**self.options, **kwargs})

    def game(self, players: int) -> Game[Any, Any]:
        """The rules at ``players`` seats under :attr:`options`."""
        return self.game_class(players, **self.options)

    def seat_counts(self) -> list[int]:
        """Every seat count the game allows."""
        return list(range(self.game_class.min_players, self.game_class.max_players + 1))


def _factory_of(obj: Any) -> Callable[..., Any]:
    """The environment factory ``obj`` stands for."""
    from ..core.env import CardGameEnv, wrapped_env_fn

    if isinstance(obj, GameKit):
        obj = obj.env_module()
    if isinstance(obj, ModuleType):
        if not callable(getattr(obj, "env", None)):
            raise ValueError(f"module {obj.__name__} has no env() function")
        factory: Callable[..., Any] = obj.env
        return factory
    if isinstance(obj, type) and issubclass(obj, CardGameEnv):
        return wrapped_env_fn(obj)
    if callable(obj):
        return obj
    raise ValueError(f"{obj!r} names no game: give an environment name, 'module:attr' or a factory")


def _factory_of_name(name: str) -> tuple[str, Callable[..., Any]]:
    if name in GAMES:
        return name, GAMES[name].env_module().env
    module, _, attr = name.partition(":")
    try:
        mod = importlib.import_module(module)
    except ImportError as err:
        known = ", ".join(GAMES)
        raise ValueError(
            f"unknown game {name!r}: not a registered environment ({known}) nor an importable module ({err})"
        ) from None
    if attr:
        if not hasattr(mod, attr):
            raise ValueError(f"module {module} has no attribute {attr!r}")
        return name, _factory_of(getattr(mod, attr))
    return name, _factory_of(mod)


def resolve(game: GameRef, options: dict[str, Any] | None = None) -> Target:
    """The :class:`Target` of ``game`` (``options``: game options for every environment)."""
    if isinstance(game, Target):
        if options:
            return Target(game.name, game.factory, game.game_class, game.doc, {**game.options, **options})
        return game
    if isinstance(game, str):
        name, factory = _factory_of_name(game)
    else:
        factory = _factory_of(game)
        name = getattr(game, "__name__", type(game).__name__)
    probe = factory()  # the defaults: for the rules class and the spec (options may need a seat count)
    raw = probe.unwrapped
    game_class = getattr(type(raw), "game_class", None)
    if game_class is None or not hasattr(raw, "state_json"):
        raise ValueError(
            f"{name}: the kit tests environments built on cardenvs.core.env.CardGameEnv "
            f"(with a game_class); got {type(raw).__name__}"
        )
    module = sys.modules.get(type(raw).__module__)
    doc = module.__doc__ if module is not None else None
    if not (isinstance(game, str) and game in GAMES):
        name = str(type(raw).metadata.get("name", name))
    return Target(name, factory, game_class, doc, dict(options or {}))
