"""The agents' side of the toy game (``tests/core/toy.py``): what ``agents.games.<g>``
holds for a real game, used to show that one registry entry is all a game needs."""

from __future__ import annotations

from typing import Any

import numpy as np

from agents.players.knowledge import GameAgents, Knowledge
from cardenvs.core.game import Game


class ToyKnowledge(Knowledge):
    """Greedy: reach the target if possible, else add as little as possible."""

    env_name = "toy_v0"

    def scores(self, game: Game[Any, Any], view: Any, legal: list[int], level: int) -> np.ndarray:
        target = game.options["target"]
        return np.array([10.0 if view.total + a + 1 >= target else -float(a) for a in legal])

    def reason(self, game: Game[Any, Any], view: Any, action: int) -> str:
        return "reaches the target" if view.total + action + 1 >= game.options["target"] else "adds little"

    def evaluate(self, game: Game[Any, Any], state: Any, player: int) -> float:
        return 0.0


SPEC = GameAgents(knowledge=ToyKnowledge, cast=("Tam", "Tor"),
                  expert_budget={"simulations": 8, "depth": 10, "max_candidates": 3})
