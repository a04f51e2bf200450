"""The Agent interface: an agent chooses from its own player's View.

Inside the library (tournament, coach, terminal table, training opponents) an agent is
asked ``choose(game, view, legal)``: the rules object of the table, the player's View
(their information set, computed by the rules core from the state) and the legal
action ids.  It never sees the true state.  For PettingZoo users holding only what
``env.last()`` gives, ``act(observation_dict)`` reads the same View back from the
observation (``Game.decode``) and chooses the same way.

Each agent owns a seeded ``numpy`` generator; nothing touches global randomness.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from functools import lru_cache

import numpy as np

import cardenvs
from cardenvs.core.game import Game

from ..types import S, SomeGame, V, View

Observation = Mapping[str, np.ndarray]


@lru_cache(maxsize=64)
def rules_for(env_name: str, num_players: int, options: tuple[tuple[str, object], ...]) -> SomeGame:
    """The (cached) rules object of a game (environment name) for a seat count and options."""
    return cardenvs.game_class(env_name)(num_players, **dict(options))


class Agent(ABC):
    """Base class of every agent: seeded, stateless between games unless documented.

    Subclasses implement :meth:`choose`.  ``env_name`` (set by agents that know their
    game) lets :meth:`act` decode observation dicts.
    """

    #: display name (a named opponent's name, or the level)
    name: str = "agent"
    #: the environment the agent plays, for :meth:`act` (``None``: any; needs no View)
    env_name: str | None = None

    def __init__(self, seed: int | None = None, name: str | None = None) -> None:
        self.rng = np.random.default_rng(seed)
        if name is not None:
            self.name = name

    def seed(self, seed: int | None) -> None:
        """Reseed the agent's own generator (same seed, same choices)."""
        self.rng = np.random.default_rng(seed)

    @abstractmethod
    def choose(self, game: Game[S, V], view: V, legal: list[int]) -> int:
        """The action id to play: one of ``legal``, decided from ``view`` alone."""

    @property
    def remembers(self) -> bool:
        """Whether the agent's choices depend on a memory of its seat's earlier Views (then
        :meth:`observe` rebuilds it); most agents decide from the current View alone."""
        return False

    def observe(self, game: Game[S, V], view: V) -> None:
        """Take in a View of the agent's seat at one of its past decisions, without deciding.

        This is how an agent that remembers (:attr:`remembers`) is given back its memory
        after a restart: feed it the seat's own Views at the seat's earlier decisions, in
        order, and it then chooses exactly as the agent that played them.  Agents without
        memory ignore it.
        """
        return None

    def act(self, observation: Observation) -> int:
        """The action id to play from the observation dict ``env.last()`` gives.

        Decodes the View with ``Game.decode`` (the exact inverse of the encoding) and
        calls :meth:`choose`; the same information gives the same move.
        """
        game, view, legal = self.read(observation)
        return self.choose(game, view, legal)

    def read(self, observation: Observation) -> tuple[SomeGame, View, list[int]]:
        """``(game, view, legal)`` of an observation dict (``ValueError`` if no move)."""
        legal = legal_ids(observation).tolist()
        if not legal:
            raise ValueError("the action mask has no legal action: this player is not to move")
        if self.env_name is None:
            raise ValueError(f"{type(self).__name__} has no env_name, so it cannot read observations")
        cls = cardenvs.game_class(self.env_name)
        view = cls.decode(observation["observation"])
        game = rules_for(self.env_name, int(view.num_players), tuple(sorted(view.options.items())))
        return game, view, legal

    def __call__(self, observation: Observation) -> int:
        return self.act(observation)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r})"


class RandomAgent(Agent):
    """Uniformly random among the legal actions."""

    name = "random"

    def choose(self, game: Game[S, V], view: V, legal: list[int]) -> int:
        """A legal action drawn uniformly with the agent's generator."""
        return int(legal[self.rng.integers(len(legal))])

    def act(self, observation: Observation) -> int:
        """Draws from the mask alone (no View needed)."""
        legal = legal_ids(observation)
        if legal.size == 0:
            raise ValueError("the action mask has no legal action: this player is not to move")
        return int(legal[self.rng.integers(legal.size)])


def legal_ids(observation: Observation) -> np.ndarray:
    """The legal action ids of an observation dict."""
    return np.flatnonzero(observation["action_mask"])


def describe(agent: object) -> str:
    """Short display name of an agent."""
    return str(getattr(agent, "name", type(agent).__name__))
