"""The heuristic levels (``greedy``, ``planner``): the best-scoring move of the game's knowledge."""

from __future__ import annotations

import numpy as np

from cardenvs.core.game import Game

from ..types import S, V
from .base import Agent
from .knowledge import Knowledge, argmax_random


class HeuristicAgent(Agent):
    """Plays the best-scoring legal move of a :class:`~agents.players.knowledge.Knowledge` at a given depth.

    Its scores are pure functions of the View, so it keeps no memory.
    """

    def __init__(self, knowledge: Knowledge, level: int, seed: int | None = None,
                 name: str | None = None) -> None:
        super().__init__(seed, name)
        self.knowledge = knowledge
        self.level = level
        self.env_name = knowledge.env_name

    def values(self, game: Game[S, V], view: V, legal: list[int]) -> np.ndarray:
        """The heuristic score of each legal action (higher is better)."""
        return np.asarray(self.knowledge.scores(game, view, legal, self.level), float)

    def choose(self, game: Game[S, V], view: V, legal: list[int]) -> int:
        """The best-scoring legal action, ties broken by the agent's generator."""
        return legal[argmax_random(self.values(game, view, legal), self.rng)]
