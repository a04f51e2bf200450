"""Beliefs at the environment: what a seat knows, and full positions consistent with it.

:class:`BeliefsMixin` gives :class:`~cardenvs.core.env.CardGameEnv` two methods that
rest on the game's information sets (:meth:`Game.view <cardenvs.core.game.Game.view>`,
:meth:`Game.public_view <cardenvs.core.game.Game.public_view>`) and its determinisation
(:meth:`Game.sample_state <cardenvs.core.game.Game.sample_state>`):

* :meth:`BeliefsMixin.sample_worlds`: ``n`` full positions (state JSON, as
  ``state_json()`` writes them and ``reset(options={"state": ...})`` loads them) that an
  agent cannot tell from the real one, for search agents (IS-MCTS), strength estimates
  (local best response) and tests;
* :meth:`BeliefsMixin.information`: an agent's View split into the part every seat and
  a spectator knows and the part only that agent knows.

Both only read the environment (its ``game``, ``state`` and ``possible_agents``); a world
is drawn with its own numpy Generator, never with the environment's, so calling them
changes nothing the environment does next.  The distribution of the worlds is each
game's sampler's, stated per game in ``docs/beliefs.md``.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Protocol

import numpy as np

from .game import Game, InvalidStateError

__all__ = ["MAX_DRAWS", "BeliefsMixin"]

#: draws of ``Game.sample_state`` allowed for one world before giving up (a draw that
#: does not load, or shows the agent another View, is drawn again)
MAX_DRAWS = 1000


class _Table(Protocol):
    """What the mixin reads of the environment it is mixed into."""

    game: Game[Any, Any]
    state: Any
    possible_agents: list[str]


class BeliefsMixin:
    """Worlds an agent cannot tell apart, and the public/private split of its View.

    Mixed into :class:`~cardenvs.core.env.CardGameEnv`; reached as
    ``env.unwrapped.sample_worlds(...)`` and ``env.unwrapped.information(...)``.
    """

    def sample_worlds(self: _Table, agent: str, n: int,
                      seed: int | np.random.Generator | None = None) -> list[dict[str, Any]]:
        """``n`` positions consistent with everything ``agent`` knows now (its View).

        Each world is a position in the game's JSON format, exactly what ``state_json()``
        returns: ``env.reset(options={"state": world})`` loads it, and there ``agent``
        gets the same observation (the same View) as in the real position; only what
        ``agent`` cannot see differs (other hands, the order of face-down piles).

        Worlds are drawn with :meth:`Game.sample_state
        <cardenvs.core.game.Game.sample_state>` and a numpy Generator made from ``seed``
        (an int, ``None`` for fresh entropy, or a Generator to draw from, which is
        advanced): the same seed gives the same worlds.  The environment's own random
        generators are not touched.  A draw that does not load, or shows ``agent``
        another View, is drawn again (at most :data:`MAX_DRAWS` times per world), so the
        worlds follow the sampler's distribution given that they are consistent.

        Raises ``ValueError`` for an unknown agent or an ``n`` that is not an int >= 1,
        ``TypeError`` for a seed of another type, ``RuntimeError`` before ``reset()``.
        """
        seat = _seat(self, agent, "sample_worlds")
        count = _count(n)
        rng = _generator(seed)
        game = self.game
        view = game.view(self.state, seat)
        return [_world(game, view, seat, rng) for _ in range(count)]

    def information(self: _Table, agent: str) -> dict[str, Any]:
        """``agent``'s View split into ``{"public": ..., "private": ...}`` (JSON values).

        ``private`` holds the fields in which a seat's View differs from :meth:`Game.public_view
        <cardenvs.core.game.Game.public_view>` (for some seat of the position), with
        ``agent``'s values: what only ``agent`` knows.  ``public`` holds the other fields of
        the public View (its ``seat`` marker left out): what every seat and a spectator
        knows, the same for every agent.  Together they are ``agent``'s View, but for its
        ``seat``.  Tuples become lists; cards are the game's card ints.  Raises like
        :meth:`sample_worlds`.
        """
        seat = _seat(self, agent, "information")
        game, state = self.game, self.state
        public = _fields(game.public_view(state))
        private_names = [k for k in public if k != "seat" and any(
            _fields(game.view(state, q))[k] != public[k] for q in range(len(self.possible_agents)))]
        mine = _fields(game.view(state, seat))
        return {
            "public": {k: _jsonable(v) for k, v in public.items() if k != "seat" and k not in private_names},
            "private": {k: _jsonable(mine[k]) for k in private_names},
        }


def _seat(env: _Table, agent: Any, method: str) -> int:
    """The seat of ``agent``; errors for an unknown agent or an environment not reset."""
    agents = list(env.possible_agents)
    if not isinstance(agent, str) or agent not in agents:
        raise ValueError(f"{method}: unknown agent {agent!r}; the agents are {', '.join(agents)}")
    if env.state is None:
        raise RuntimeError(f"call reset() before {method}()")
    return agents.index(agent)


def _count(n: Any) -> int:
    """``n`` as an int >= 1 (numpy ints too, never a bool or a float)."""
    if isinstance(n, (bool, np.bool_)) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"n must be an int >= 1 (the number of worlds), got {n!r}")
    return int(n)


def _generator(seed: Any) -> np.random.Generator:
    """The Generator the worlds are drawn with: ``seed`` itself, or a new one from it."""
    if isinstance(seed, np.random.Generator):
        return seed
    if seed is None:
        return np.random.default_rng()
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"seed must be None, an int >= 0 or a numpy Generator, got {seed!r}")
    if seed < 0:
        raise ValueError(f"seed must be None, an int >= 0 or a numpy Generator, got {seed!r}")
    return np.random.default_rng(int(seed))


def _world(game: Game[Any, Any], view: Any, seat: int, rng: np.random.Generator) -> dict[str, Any]:
    """One position drawn by the game's sampler that loads and shows ``seat`` ``view``."""
    for _ in range(MAX_DRAWS):
        world = game.to_json(game.sample_state(view, rng))
        try:
            loaded = game.from_json(world)
        except InvalidStateError:
            continue
        if game.view(loaded, seat) == view:
            return world
    raise RuntimeError(f"{type(game).__name__}.sample_state gave no position consistent with "
                       f"seat {seat}'s View in {MAX_DRAWS} draws")


def _fields(view: Any) -> dict[str, Any]:
    """The fields of a View (a dataclass, or any object with attributes), in order."""
    if dataclasses.is_dataclass(view) and not isinstance(view, type):
        return {f.name: getattr(view, f.name) for f in dataclasses.fields(view)}
    return dict(vars(view))


def _jsonable(x: Any) -> Any:
    """``x`` as JSON values: tuples and lists as lists, numpy scalars as Python ones."""
    if isinstance(x, (list, tuple)):
        return [_jsonable(v) for v in x]
    if isinstance(x, dict):
        return {str(k): _jsonable(v) for k, v in x.items()}
    if isinstance(x, np.generic):
        return x.item()
    return x
