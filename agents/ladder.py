"""The difficulty ladder of each game, named opponents, and the coach.

Levels, weakest first (the same names for every game):

| level | what it does |
|---|---|
| ``random`` | a uniformly random legal move |
| ``greedy`` | the best move for this turn alone (the game's greedy heuristic) |
| ``planner`` | a heuristic that plans: card counting, dead ranks, keeping options open, blocking |
| ``expert`` | determinised Monte-Carlo search over states sampled from its own view |
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

import numpy as np

import cardenvs

from .base import Agent, Observation, RandomAgent
from .policy import HeuristicAgent, Knowledge, SearchAgent

LEVELS: tuple[str, ...] = ("random", "greedy", "planner", "expert")

_KNOWLEDGE: dict[str, str] = {
    "line_v0": "agents.games.line:LineKnowledge",
    "lineit_v0": "agents.games.lineit:LineItKnowledge",
    "rummy432_v0": "agents.games.rummy432:Rummy432Knowledge",
}

#: each game's cast of named computer players
CASTS: dict[str, tuple[str, ...]] = {
    "rummy432_v0": ("Rosie", "Dev", "Mags", "Theo"),
    "line_v0": ("Ada", "Bo", "Cyd"),
    "lineit_v0": ("Juno", "Kit", "Lou", "Max"),
}

#: search budget of the expert per game (simulations, rollout depth, candidates)
EXPERT_BUDGET: dict[str, dict[str, Any]] = {
    # paired worlds re-weighted towards kept hands, rollouts to the end (agents/games/line.py)
    "line_v0": {"simulations": 64, "depth": 100, "max_candidates": 5, "paired": True, "prior_weight": 0.02},
    "lineit_v0": {"simulations": 48, "depth": 16, "max_candidates": 6},
    "rummy432_v0": {"simulations": 40, "depth": 30, "max_candidates": 2, "paired": True},
}


def _check_env(env_name: str) -> None:
    if env_name not in cardenvs.ENVS:
        raise ValueError(f"unknown environment {env_name!r}; the environments are {', '.join(cardenvs.ENVS)}")


def knowledge(env_name: str) -> Knowledge:
    """The game's strategic knowledge (heuristic scores, reasons, evaluation)."""
    _check_env(env_name)
    module, _, cls = _KNOWLEDGE[env_name].partition(":")
    return getattr(importlib.import_module(module), cls)()


def levels(env_name: str) -> list[str]:
    """The difficulty levels of a game, weakest first."""
    _check_env(env_name)
    out = list(LEVELS)
    from .trained import trained_rank

    after = trained_rank(env_name)
    if after is not None:
        # the shipped policy sits where its measured strength puts it (stored in its file)
        out.insert(out.index(after) + 1, "trained")
    return out


def make_agent(env_name: str, level: str, seed: int | None = None, name: str | None = None) -> Agent:
    """An agent of ``level`` for ``env_name`` (any seat count the game allows).

    Besides the ladder levels, ``"policy:<path.npz>"`` loads an exported policy file.
    """
    if level.startswith("policy:"):
        from .trained import TrainedAgent

        return TrainedAgent(env_name, level[len("policy:"):], seed=seed, name=name or "policy")
    allowed = levels(env_name)
    if level not in allowed:
        raise ValueError(f"unknown level {level!r} for {env_name}; the levels are {', '.join(allowed)}")
    if level == "random":
        return RandomAgent(seed, name or "random")
    if level == "trained":
        from .trained import TrainedAgent

        return TrainedAgent(env_name, seed=seed, name=name or "trained")
    know = knowledge(env_name)
    if level == "greedy":
        return HeuristicAgent(know, 1, seed, name or "greedy")
    if level == "planner":
        return HeuristicAgent(know, 2, seed, name or "planner")
    return SearchAgent(know, seed=seed, name=name or "expert", **EXPERT_BUDGET[env_name])


def opponents(env_name: str, difficulty: str, n: int, seed: int | None = None) -> list[Agent]:
    """``n`` named computer players of the game's cast at ``difficulty``."""
    _check_env(env_name)
    cast = CASTS[env_name]
    if not 1 <= n <= cardenvs.game_class(env_name).max_players - 1:
        raise ValueError(f"{env_name} seats at most {cardenvs.game_class(env_name).max_players - 1} opponents, got n={n}")
    base = 0 if seed is None else seed
    return [
        make_agent(env_name, difficulty, seed=None if seed is None else base + i, name=cast[i % len(cast)])
        for i in range(n)
    ]


@dataclass(frozen=True)
class Advice:
    """One suggested move: the action id, the move in RULES.md words, a value and why."""

    action: int
    move: str
    value: float
    reason: str

    def __str__(self) -> str:
        return f"{self.move} ({self.value:+.2f}): {self.reason}"


class Coach:
    """Advice for one player, from that player's own observation only.

    ``level`` picks the engine: ``"planner"`` (instant heuristic scores) or
    ``"expert"`` (search values; slower, stronger).
    """

    def __init__(self, env_name: str, level: str = "planner", seed: int | None = 0) -> None:
        _check_env(env_name)
        if level not in ("greedy", "planner", "expert"):
            raise ValueError(f"coach level must be greedy, planner or expert, got {level!r}")
        self.env_name = env_name
        self.level = level
        self.knowledge = knowledge(env_name)
        self._seed = seed
        self._engine: HeuristicAgent | SearchAgent = make_agent(env_name, level, seed)  # type: ignore[assignment]

    def advise(self, observation: Observation, top: int | None = None) -> list[Advice]:
        """Legal moves ranked best first, each with a value and a reason in words."""
        self._engine.seed(self._seed)  # same observation, same advice
        game, view, legal, values = self._engine.evaluate_actions(observation)
        order = np.argsort(-np.asarray(values, float), kind="stable")
        if top is not None:
            order = order[:top]
        return [
            Advice(
                action=legal[i],
                move=game.action_to_str(legal[i]),
                value=float(values[i]) if np.isfinite(values[i]) else float("nan"),
                reason=self.knowledge.reason(game, view, legal[i]),
            )
            for i in order
        ]

    def comment(self, observation: Observation, action: int) -> str:
        """A line on a move actually played: the coach's pick and, if different, why."""
        ranked = self.advise(observation)
        best = ranked[0]
        played = next((a for a in ranked if a.action == int(action)), None)
        if played is not None and (played.action == best.action or played.value >= best.value - 1e-9):
            return f"coach agrees: {_said(played)}"  # the best move, or one worth as much
        return f"coach would rather {_said(best)}"


def _said(advice: Advice) -> str:
    """The move and its reason in one phrase (reasons may already start with the move)."""
    if advice.reason.startswith(advice.move):
        return advice.reason
    return f"{advice.move}: {advice.reason}"
