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
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

import cardenvs
from cardenvs.core.game import Game

from .base import Agent, Observation, RandomAgent
from .policy import GameAgents, HeuristicAgent, Knowledge, SearchAgent

LEVELS: tuple[str, ...] = ("random", "greedy", "planner", "expert")


def spec(env_name: str) -> GameAgents:
    """The agents' side of a game (knowledge, cast, expert budget, training defaults).

    Found through the game's one registry entry (``ValueError`` naming the
    environments if the name is unknown).
    """
    module = importlib.import_module(cardenvs.entry(env_name).agents)
    found: GameAgents = module.SPEC
    return found


def knowledge(env_name: str) -> Knowledge:
    """The game's strategic knowledge (heuristic scores, reasons, evaluation)."""
    return spec(env_name).knowledge()


def cast(env_name: str) -> tuple[str, ...]:
    """The game's named computer players."""
    return spec(env_name).cast


def levels(env_name: str) -> list[str]:
    """The difficulty ladder of a game, weakest first: each level measured stronger than
    the one below it.

    ``"trained"`` is on it where the shipped policy's measured rank puts it (stored in
    its file); an unranked policy (not separated from a neighbour) is left out here and
    listed by :func:`playable_levels`.
    """
    cardenvs.entry(env_name)
    out = list(LEVELS)
    from .trained import trained_rank

    after = trained_rank(env_name)
    if after is not None:
        out.insert(out.index(after) + 1, "trained")
    return out


def playable_levels(env_name: str) -> list[str]:
    """Every level :func:`make_agent` plays by name, weakest first: the ladder, plus an
    unranked shipped policy (``"trained"``) just after the level it plays like."""
    out = levels(env_name)
    from .trained import trained_peer

    peer = trained_peer(env_name)
    if peer is not None:
        out.insert(out.index(peer) + 1, "trained")
    return out


def make_agent(env_name: str, level: str, seed: int | None = None, name: str | None = None) -> Agent:
    """An agent of ``level`` for ``env_name`` (any seat count the game allows).

    Besides the ladder levels, ``"policy:<path.npz>"`` loads an exported policy file, and
    ``"ismcts"`` / ``"ismcts:<simulations>"`` is OpenSpiel's IS-MCTS on the game (an outside
    opponent for rating ours; needs open-spiel).
    """
    if level.startswith("policy:"):
        from .trained import TrainedAgent

        return TrainedAgent(env_name, level[len("policy:"):], seed=seed, name=name or "policy")
    if level == "ismcts" or level.startswith("ismcts:"):
        # OpenSpiel's IS-MCTS as an outside opponent (needs the `openspiel` extra)
        from .ismcts import make_ismcts, parse_level

        return make_ismcts(env_name, parse_level(level), seed=seed, name=name)
    allowed = playable_levels(env_name)
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


@dataclass(frozen=True)
class Advice:
    """One suggested move: the action id, the move in the game's notation, a value and why.

    ``equals`` lists the other legal moves the coach values exactly as much (filled in
    grouped advice, where they are folded into this one instead of listed apart).
    """

    action: int
    move: str
    value: float
    reason: str
    equals: tuple[str, ...] = ()

    def __str__(self) -> str:
        also = f" (equally good: {', '.join(self.equals)})" if self.equals else ""
        return f"{self.move} ({self.value:+.2f}){also}: {self.reason}"


def _same(a: float, b: float) -> bool:
    """Two advice values that the coach cannot tell apart."""
    return (np.isnan(a) and np.isnan(b)) or abs(a - b) <= 1e-9


class Coach:
    """Advice for one player, from that player's own observation only.

    ``level`` picks the engine: ``"planner"`` (instant heuristic scores) or
    ``"expert"`` (search values; slower, stronger).
    """

    def __init__(self, env_name: str, level: str = "planner", seed: int | None = 0) -> None:
        cardenvs.entry(env_name)
        if level not in ("greedy", "planner", "expert"):
            raise ValueError(f"coach level must be greedy, planner or expert, got {level!r}")
        self.env_name = env_name
        self.level = level
        self.knowledge = knowledge(env_name)
        self._seed = seed
        engine = make_agent(env_name, level, seed)
        assert isinstance(engine, (HeuristicAgent, SearchAgent))
        self._engine: HeuristicAgent | SearchAgent = engine

    @property
    def engine(self) -> HeuristicAgent | SearchAgent:
        """The agent whose values rank the moves (it carries the seat's memory, if any)."""
        return self._engine

    def advise(self, observation: Observation, top: int | None = None) -> list[Advice]:
        """Legal moves ranked best first, from the observation dict ``env.last()`` gives."""
        return self.advise_view(*self._engine.read(observation), top=top)

    def advise_view(self, game: Game[Any, Any], view: Any, legal: list[int],
                    top: int | None = None, group: bool = False) -> list[Advice]:
        """Legal moves ranked best first, each with a value and a reason in words.

        Computed from the player's View alone (their own information).  With
        ``group=True`` moves of exactly equal value are folded into the first of them
        (the others listed in ``equals``), so advice never ranks equal moves apart;
        ``top`` then counts groups.
        """
        self._engine.seed(self._seed)  # same information, same advice
        values = self._engine.values(game, view, legal)
        order = np.argsort(-np.asarray(values, float), kind="stable")
        ranked = [
            Advice(
                action=legal[i],
                move=game.action_to_str(legal[i]),
                value=float(values[i]) if np.isfinite(values[i]) else float("nan"),
                reason="",
            )
            for i in order
        ]
        out = _grouped(ranked) if group else ranked
        if top is not None:
            out = out[:top]
        return [replace(a, reason=self.knowledge.reason(game, view, a.action)) for a in out]

    def comment(self, observation: Observation, action: int) -> str:
        """A line on a move actually played (from the observation dict before it)."""
        return self.comment_view(*self._engine.read(observation), action=action)

    def comment_view(self, game: Game[Any, Any], view: Any, legal: list[int], action: int) -> str:
        """A line on a move actually played: the coach's pick and, if different, why."""
        ranked = self.advise_view(game, view, legal)
        best = ranked[0]
        played = next((a for a in ranked if a.action == int(action)), None)
        if played is not None and (played.action == best.action or played.value >= best.value - 1e-9):
            return f"coach agrees: {_said(played)}"  # the best move, or one worth as much
        return f"coach would rather {_said(best)}"


def _grouped(ranked: list[Advice]) -> list[Advice]:
    """Fold each run of equally valued moves (ranked best first) into its first move."""
    out: list[Advice] = []
    for a in ranked:
        if out and _same(out[-1].value, a.value):
            out[-1] = replace(out[-1], equals=(*out[-1].equals, a.move))
        else:
            out.append(a)
    return out


def _said(advice: Advice) -> str:
    """The move and its reason in one phrase (reasons may already start with the move)."""
    if advice.reason.startswith(advice.move):
        return advice.reason
    return f"{advice.move}: {advice.reason}"
