"""The Agent interface: ``act(observation) -> action id``.

An agent receives exactly what ``env.last()`` gives its player (the dict with
``"observation"`` and ``"action_mask"``) and nothing else, so it can never see the true
state.  Each agent owns a seeded ``numpy`` generator; nothing touches global randomness.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

import numpy as np

Observation = dict[str, np.ndarray]


class Agent(ABC):
    """Base class of every agent: seeded, stateless between games unless documented."""

    #: display name (a named opponent's name, or the level)
    name: str = "agent"

    def __init__(self, seed: int | None = None, name: str | None = None) -> None:
        self.rng = np.random.default_rng(seed)
        if name is not None:
            self.name = name

    def seed(self, seed: int | None) -> None:
        """Reseed the agent's own generator (same seed, same choices)."""
        self.rng = np.random.default_rng(seed)

    @abstractmethod
    def act(self, observation: Observation) -> int:
        """The action id to play, from the player's own observation dict."""

    def __call__(self, observation: Observation) -> int:
        return self.act(observation)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r})"


class RandomAgent(Agent):
    """Uniformly random among the legal actions of the mask."""

    name = "random"

    def act(self, observation: Observation) -> int:
        legal = np.flatnonzero(observation["action_mask"])
        if legal.size == 0:
            raise ValueError("the action mask has no legal action: this player is not to move")
        return int(legal[self.rng.integers(legal.size)])


def legal_ids(observation: Observation) -> np.ndarray:
    """The legal action ids of an observation dict."""
    return np.flatnonzero(observation["action_mask"])


def describe(agent: Any) -> str:
    """Short display name of an agent."""
    return str(getattr(agent, "name", type(agent).__name__))
