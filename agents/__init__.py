"""Agents for the cardenvs games: the Agent interface, the difficulty ladder, named
opponents, the coach, and the arena that plays whole games.

Every agent acts on what ``env.last()`` gives its player, never on the true state.
"""

from .arena import GameResult, play_game
from .base import Agent, RandomAgent
from .coach import Advice, Coach
from .ladder import LEVELS, knowledge, levels, make_agent, opponents, playable_levels

__all__ = [
    "LEVELS",
    "Advice",
    "Agent",
    "Coach",
    "GameResult",
    "RandomAgent",
    "knowledge",
    "levels",
    "make_agent",
    "opponents",
    "playable_levels",
    "play_game",
]
