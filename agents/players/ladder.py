"""The difficulty ladder of each game and its named opponents.

Levels, weakest first (the same names for every game):

* ``random``: a uniformly random legal move;
* ``greedy``: the best move for this turn alone (the game's greedy heuristic);
* ``planner``: a heuristic that plans: card counting, dead ranks, keeping options open, blocking;
* ``expert``: determinised Monte-Carlo search over states sampled from its own view.

:func:`levels` lists only what was measured: a level not separated from the one below it
(its share's 95% interval includes 50%) is *unranked*.  The shipped trained policy and, in
a game where the search does not beat the planner, the expert are left off the ordered
ladder and played beside the level they play like (:func:`unranked_levels`,
:func:`playable_levels`).
"""

from __future__ import annotations

import cardenvs

from .base import Agent, RandomAgent
from .heuristic import HeuristicAgent
from .ismcts import make_ismcts, parse_level
from .knowledge import LEVELS, cast, knowledge, spec
from .search import SearchAgent
from .trained import TrainedAgent, trained_peer, trained_rank

__all__ = ["LEVELS", "cast", "knowledge", "levels", "make_agent", "opponents", "playable_levels", "spec",
           "unranked_levels"]


def levels(env_name: str) -> list[str]:
    """The difficulty ladder of a game, weakest first: each level measured stronger than
    the one below it.

    A level not measured stronger than its neighbour is *unranked* and left out here:
    ``"trained"`` is on the ladder where the shipped policy's measured rank puts it
    (stored in its file), and ``"expert"`` unless the game's agents say it plays like a
    lower level (:attr:`~agents.players.knowledge.GameAgents.expert_peer`).  Unranked levels are
    listed by :func:`playable_levels`, and :func:`unranked_levels` says whom they play like.
    """
    cardenvs.entry(env_name)
    out = list(LEVELS)
    if spec(env_name).expert_peer is not None:
        out.remove("expert")
    after = trained_rank(env_name)
    if after is not None:
        out.insert(out.index(after) + 1, "trained")
    return out


def unranked_levels(env_name: str) -> dict[str, str]:
    """The playable levels that are not on the ordered ladder, each with the level it
    was measured to play like (its share against it is not separated from 50%)."""
    cardenvs.entry(env_name)
    out: dict[str, str] = {}
    peer = spec(env_name).expert_peer
    if peer is not None:
        out["expert"] = peer
    peer = trained_peer(env_name)
    if peer is not None:
        out["trained"] = peer
    return out


def playable_levels(env_name: str) -> list[str]:
    """Every level :func:`make_agent` plays by name, weakest first: the ladder, plus each
    unranked level (:func:`unranked_levels`) just after the level it plays like."""
    out = levels(env_name)
    for level, peer in unranked_levels(env_name).items():
        out.insert(out.index(peer) + 1, level)
    return out


def make_agent(env_name: str, level: str, seed: int | None = None, name: str | None = None) -> Agent:
    """An agent of ``level`` for ``env_name`` (any seat count the game allows).

    Besides the ladder levels, ``"policy:<path.npz>"`` loads an exported policy file, and
    ``"ismcts"`` / ``"ismcts:<simulations>"`` is OpenSpiel's IS-MCTS on the game (an outside
    opponent for rating ours; needs open-spiel).
    """
    if level.startswith("policy:"):
        return TrainedAgent(env_name, level[len("policy:"):], seed=seed, name=name or "policy")
    if level == "ismcts" or level.startswith("ismcts:"):
        # OpenSpiel's IS-MCTS as an outside opponent (needs the `openspiel` extra)
        return make_ismcts(env_name, parse_level(level), seed=seed, name=name)
    allowed = playable_levels(env_name)
    if level not in allowed:
        raise ValueError(f"unknown level {level!r} for {env_name}; the levels are {', '.join(allowed)}")
    if level == "random":
        return RandomAgent(seed, name or "random")
    if level == "trained":
        return TrainedAgent(env_name, seed=seed, name=name or "trained")
    know = knowledge(env_name)
    if level == "greedy":
        return HeuristicAgent(know, 1, seed, name or "greedy")
    if level == "planner":
        return HeuristicAgent(know, 2, seed, name or "planner")
    return SearchAgent(know, seed=seed, name=name or "expert", **spec(env_name).expert_budget)


def opponents(env_name: str, difficulty: str, n: int, seed: int | None = None) -> list[Agent]:
    """``n`` named computer players of the game's cast at ``difficulty``."""
    names = cast(env_name)
    most = cardenvs.game_class(env_name).max_players - 1
    if not 1 <= n <= most:
        raise ValueError(f"{env_name} seats at most {most} opponents, got n={n}")
    base = 0 if seed is None else seed
    return [
        make_agent(env_name, difficulty, seed=None if seed is None else base + i,
                   name=names[i % len(names)])
        for i in range(n)
    ]
