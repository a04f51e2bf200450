"""The ``expert`` level: determinised Monte-Carlo search over worlds sampled from the View.

For each decision a :class:`SearchAgent` samples full states consistent with its player's
View through the game's knowledge (which reads, never writes, the seat's memory), plays
each candidate move out in them and keeps the move of the best mean value.  The budget is
counted in simulations, never wall time, so a seeded agent is deterministic.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Generic, TypedDict, cast

import numpy as np

from cardenvs.core.game import Game

from ..types import JsonDict, S, V
from .base import Agent
from .knowledge import Knowledge, Memory, Rollouts, SeatMemories

#: the settings of a :class:`SearchAgent` a caller may change (its search budget)
SEARCH_SETTINGS = ("simulations", "depth", "max_candidates", "paired", "prior_weight", "min_worlds",
                   "confidence", "tolerance")


class SearchSettings(TypedDict, total=False):
    """:data:`SEARCH_SETTINGS` as :class:`SearchAgent`'s keyword arguments (a game's expert budget)."""

    simulations: int
    depth: int
    max_candidates: int
    paired: bool
    prior_weight: float
    min_worlds: int
    confidence: float
    tolerance: float


def settings_from_json(text: str, where: str) -> JsonDict:
    """A JSON object of settings (a command-line option's text) as a dict.

    ``ValueError`` naming ``where`` when the text is not JSON or not an object.
    """
    try:
        settings = json.loads(text)
    except json.JSONDecodeError as err:
        raise ValueError(f"{where}: the settings are not JSON ({err.msg}): {text!r}") from None
    if not isinstance(settings, dict):
        raise ValueError(f"{where}: the settings must be a JSON object such as "
                         f'{{"simulations": 96}}, got {text!r}')
    return settings


def check_search_settings(settings: Mapping[str, object], where: str) -> SearchSettings:
    """``settings`` if they are valid :class:`SearchAgent` settings (keys of
    :data:`SEARCH_SETTINGS`, whole numbers >= 1 for the counts, a bool for ``paired``, a
    number for ``prior_weight``, numbers >= 0 for ``confidence`` and ``tolerance``); else
    ``ValueError`` naming ``where``, the fault and what is allowed."""
    unknown = sorted(set(settings) - set(SEARCH_SETTINGS))
    if unknown:
        raise ValueError(f"{where}: unknown key(s) {', '.join(unknown)}; "
                         f"allowed: {', '.join(SEARCH_SETTINGS)}")
    for key in ("simulations", "depth", "max_candidates", "min_worlds"):
        v = settings.get(key, 1)
        if isinstance(v, bool) or not isinstance(v, int) or v < 1:
            raise ValueError(f"{where}: {key} must be a whole number >= 1, got {v!r}")
    if not isinstance(settings.get("paired", False), bool):
        raise ValueError(f"{where}: paired must be true or false, got {settings['paired']!r}")
    pw = settings.get("prior_weight", 0.0)
    if isinstance(pw, bool) or not isinstance(pw, (int, float)):
        raise ValueError(f"{where}: prior_weight must be a number, got {pw!r}")
    for key in ("confidence", "tolerance"):
        v = settings.get(key, 0.0)
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 <= v < float("inf"):
            raise ValueError(f"{where}: {key} must be a number >= 0, got {v!r}")
    return cast(SearchSettings, settings)  # checked: the keys and the types of their values


class SearchAgent(Agent):
    """Determinised Monte-Carlo search (perfect-information sampling over worlds).

    For each decision it samples full states consistent with the player's View through
    the game's knowledge (``Knowledge.sample_state``, which may read what the seat
    remembers), tries the most promising candidate moves (by the planning heuristic),
    plays each sample out for up to ``depth`` moves and values the end, both as the
    knowledge's :class:`~agents.players.knowledge.Rollouts` for that decision say.
    ``simulations`` (not wall time) is the budget, so a seeded agent is deterministic.

    With ``paired=True`` every candidate is played on the same sampled worlds with the
    same rollout randomness (common random numbers), so the comparison between moves
    is not drowned by the luck of the deal; ``simulations`` then counts worlds at most,
    and each world costs one rollout per candidate still in the race.  ``prior_weight``
    (paired search only) adds that multiple of each candidate's heuristic score, less
    the best one's, to its estimate, so that the search overrules the heuristic only by a
    clear margin.  Without ``paired`` the simulations are shared out by UCB1, one fresh
    world each.

    **The race** (paired search): from ``min_worlds`` worlds on, after every world, a
    candidate leaves the race once it is clearly no better than the leader: the paired
    difference of their estimates exceeds ``confidence`` standard errors less
    ``tolerance`` (it cannot beat the leader by more than ``tolerance``).  The search ends
    when one candidate is left or after ``simulations`` worlds.  ``min_worlds >=
    simulations`` (the default) turns the race off: every candidate plays every world.

    The agent holds its seats' memories (:attr:`memories`): each decision first updates
    the seat's memory with its View, then searches.
    """

    def __init__(
        self,
        knowledge: Knowledge,
        simulations: int = 48,
        depth: int = 24,
        max_candidates: int = 6,
        seed: int | None = None,
        name: str | None = None,
        paired: bool = False,
        prior_weight: float = 0.0,
        min_worlds: int | None = None,
        confidence: float = 1.5,
        tolerance: float = 0.0,
    ) -> None:
        super().__init__(seed, name)
        self.knowledge = knowledge
        self.simulations = simulations
        self.depth = depth
        self.max_candidates = max_candidates
        self.paired = paired
        self.prior_weight = prior_weight
        self.min_worlds = simulations if min_worlds is None else min_worlds
        self.confidence = confidence
        self.tolerance = tolerance
        self.env_name = knowledge.env_name
        #: what each seat this agent plays remembers of its own Views
        self.memories = SeatMemories(knowledge)

    @property
    def remembers(self) -> bool:
        """Whether this agent's choices depend on its seat's memory (the game's knowledge says)."""
        return self.knowledge.remembers

    def observe(self, game: Game[S, V], view: V) -> None:
        """Update the seat's memory with ``view`` without deciding (rebuilds it after a restart)."""
        self.memories.update(game, view)

    def values(self, game: Game[S, V], view: V, legal: list[int]) -> np.ndarray:
        """The estimated value of each legal action; unsearched moves get -inf.

        Decisions the game's knowledge does not search get the planning scores.  A
        candidate that left the race (see the class docstring) is valued below the winner.
        """
        memory = self.memories.update(game, view)
        if len(legal) == 1:
            return np.zeros(1)
        prior = np.asarray(self.knowledge.scores(game, view, legal, 2), float)
        if not self.knowledge.search_here(game, view, legal, prior):
            return prior
        values = np.full(len(legal), -np.inf)
        order = np.argsort(-prior, kind="stable")[: self.max_candidates]
        search = _Search(self, game, view, legal, memory)
        values[order] = search.paired(order, prior) if self.paired else search.ucb(order)
        # keep the heuristic order among equal estimates
        values[order] += 1e-6 * (len(order) - np.arange(len(order)))
        return values

    def choose(self, game: Game[S, V], view: V, legal: list[int]) -> int:
        """The legal action of the highest estimated value."""
        return legal[int(np.argmax(self.values(game, view, legal)))]


class _Search(Generic[S, V]):
    """One searched decision: its worlds, candidates and rollouts."""

    def __init__(self, agent: SearchAgent, game: Game[S, V], view: V, legal: list[int],
                 memory: Memory[V] | None) -> None:
        self.agent = agent
        self.game = game
        self.view = view
        self.legal = legal
        self.memory = memory
        self.me = int(view.seat)
        self.rollouts: Rollouts[S, V] = agent.knowledge.rollouts(game, view)

    def world(self, rng: np.random.Generator) -> S:
        """A full state consistent with the View, dealt by the game's knowledge."""
        return self.agent.knowledge.sample_state(self.game, self.view, rng, self.memory)

    def paired(self, order: np.ndarray, prior: np.ndarray) -> list[float]:
        """Mean outcome of each candidate over the same sampled worlds and rollout seeds,
        candidates leaving the race as soon as they are clearly no better than the leader."""
        agent, game, ro = self.agent, self.game, self.rollouts
        depth, me = agent.depth, self.me
        moves = [self.legal[int(i)] for i in order]
        n_cand = len(moves)
        pw = agent.prior_weight
        offset = [pw * (float(prior[i]) - float(prior[order[0]])) for i in order] if pw else [0.0] * n_cand
        total = [0.0] * n_cand
        # sums of products of two candidates' results over the worlds both played
        # (the paired differences' variances come from them)
        cross = [[0.0] * n_cand for _ in range(n_cand)]
        alive = list(range(n_cand))
        value = [0.0] * n_cand  # the estimate a candidate leaves the race with
        left: list[tuple[int, float]] = []  # (candidate, its paired deficit to the leader)
        worlds = agent.simulations
        racing = agent.min_worlds < worlds
        first_check = max(agent.min_worlds, 2)
        z, tol = agent.confidence, agent.tolerance
        rng = agent.rng
        n = 0
        for _world in range(worlds):
            base = self.world(rng)
            # every candidate's rollout draws the same numbers: one generator, rewound
            sim_rng = np.random.default_rng(int(rng.integers(2**63)))
            start = sim_rng.bit_generator.state
            res = [0.0] * n_cand
            for k in alive:
                state = game.clone(base)
                sim_rng.bit_generator.state = start
                game.apply(state, moves[k], sim_rng)
                res[k] = r = ro.play_out(state, sim_rng, depth, me)
                total[k] += r
            for j in alive:
                rj, row = res[j], cross[j]
                for k in alive:
                    row[k] += rj * res[k]
            n += 1
            if racing and n >= first_check and len(alive) > 1:
                alive = self._race(alive, total, cross, offset, n, z, tol, value, left)
                if len(alive) == 1:
                    break
        means = [total[k] / n + offset[k] for k in range(n_cand)]
        for k in alive:
            value[k] = means[k]
        if left:  # the race's losers rank below the winner, by their deficit
            best = max(value[k] for k in alive)
            for k, deficit in left:
                value[k] = min(value[k], best - max(deficit, 0.0) - 1e-3)
        return value

    @staticmethod
    def _race(alive: list[int], total: list[float], cross: list[list[float]], offset: list[float], n: int,
              z: float, tol: float, value: list[float], left: list[tuple[int, float]]) -> list[int]:
        """The candidates still in the race after ``n`` worlds (each played every one of them)."""
        mean = {k: total[k] / n + offset[k] for k in alive}
        lead = max(alive, key=lambda k: mean[k])
        keep = []
        tl, cl = total[lead], cross[lead]
        for k in alive:
            if k == lead:
                keep.append(k)
                continue
            gap = mean[lead] - mean[k]  # > 0: k looks worse
            d_sum = tl - total[k]
            d_sq = cl[lead] - 2.0 * cl[k] + cross[k][k]
            var = max(d_sq - d_sum * d_sum / n, 0.0) / (n - 1)  # sample variance of the differences
            if gap - z * math.sqrt(var / n) > -tol:
                value[k] = mean[k]
                left.append((k, gap))
            else:
                keep.append(k)
        return keep

    def ucb(self, order: np.ndarray) -> list[float]:
        """Mean outcome of each candidate, simulations shared out by UCB1."""
        agent, game, ro = self.agent, self.game, self.rollouts
        totals = np.zeros(len(order))
        counts = np.zeros(len(order))
        rng = agent.rng
        for sim in range(agent.simulations):
            if sim < len(order):
                k = sim
            else:  # UCB1 over the candidates
                mean = totals / counts
                k = int(np.argmax(mean + 0.7 * np.sqrt(np.log(sim + 1) / counts)))
            state = self.world(rng)
            game.apply(state, self.legal[order[k]], rng)
            totals[k] += ro.play_out(state, rng, agent.depth, self.me)
            counts[k] += 1
        return (totals / np.maximum(counts, 1)).tolist()
