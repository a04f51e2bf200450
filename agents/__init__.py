"""Agents for the cardenvs games: the Agent interface, the difficulty ladder, named
opponents, the coach, the arena that plays whole games, and :func:`evaluate`, which
measures any policy against the ladder.

Every agent acts on what ``env.last()`` gives its player, never on the true state.
"""

#: marks this package as cardenvs' own, so that a folder named ``agents`` that shadows it is
#: recognised (``cardenvs._agents_import``); set before anything else is imported
__cardenvs_agents__ = True

from .evaluation.arena import GameResult, play_game
from .evaluation.evaluator import Evaluation, evaluate
from .evaluation.exploitability import (
    ApproximateBestResponseResult,
    BestResponseResult,
    best_response,
    local_best_response,
)
from .players.base import Agent, RandomAgent
from .players.coach import Advice, Coach
from .players.ladder import LEVELS, knowledge, levels, make_agent, opponents, playable_levels, unranked_levels

__all__ = [
    "LEVELS",
    "Advice",
    "Agent",
    "ApproximateBestResponseResult",
    "BestResponseResult",
    "Coach",
    "Evaluation",
    "GameResult",
    "RandomAgent",
    "best_response",
    "evaluate",
    "knowledge",
    "levels",
    "local_best_response",
    "make_agent",
    "opponents",
    "playable_levels",
    "play_game",
    "unranked_levels",
]
