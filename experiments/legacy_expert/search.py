"""The ``expert`` level: determinised Monte-Carlo search over worlds sampled from the View.

For each decision a :class:`SearchAgent` samples full states consistent with its player's
View through the game's knowledge (which reads, never writes, the seat's memory), plays
each candidate move out in them and keeps the move of the best mean value.  The budget is
counted in simulations, never wall time, so a seeded agent is deterministic.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from agents.base import Agent
from cardenvs.core.game import Game

from .knowledge import Knowledge, Rollouts, SeatMemories

#: the settings of a :class:`SearchAgent` a caller may change (its search budget)
SEARCH_SETTINGS = ("simulations", "depth", "max_candidates", "paired", "prior_weight")


def settings_from_json(text: str, where: str) -> dict[str, Any]:
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


def check_search_settings(settings: dict[str, Any], where: str) -> dict[str, Any]:
    """``settings`` if they are valid :class:`SearchAgent` settings (keys of
    :data:`SEARCH_SETTINGS`, whole numbers >= 1 for the counts, a bool for ``paired``, a
    number for ``prior_weight``); else ``ValueError`` naming ``where``, the fault and what
    is allowed."""
    unknown = sorted(set(settings) - set(SEARCH_SETTINGS))
    if unknown:
        raise ValueError(f"{where}: unknown key(s) {', '.join(unknown)}; "
                         f"allowed: {', '.join(SEARCH_SETTINGS)}")
    for key in ("simulations", "depth", "max_candidates"):
        v = settings.get(key, 1)
        if isinstance(v, bool) or not isinstance(v, int) or v < 1:
            raise ValueError(f"{where}: {key} must be a whole number >= 1, got {v!r}")
    if not isinstance(settings.get("paired", False), bool):
        raise ValueError(f"{where}: paired must be true or false, got {settings['paired']!r}")
    pw = settings.get("prior_weight", 0.0)
    if isinstance(pw, bool) or not isinstance(pw, (int, float)):
        raise ValueError(f"{where}: prior_weight must be a number, got {pw!r}")
    return settings


class SearchAgent(Agent):
    """Determinised Monte-Carlo search (perfect-information sampling, flat UCB).

    For each decision it samples full states consistent with the player's View through
    the game's knowledge (``Knowledge.sample_state``, which may read what the seat
    remembers), tries the most promising candidate moves (by the planning heuristic),
    plays each sample out for up to ``depth`` moves and values the end, both as the
    knowledge's :class:`~agents.knowledge.Rollouts` for that decision say.
    ``simulations`` (not wall time) is the budget, so a seeded agent is deterministic.

    With ``paired=True`` every candidate is played on the same sampled worlds with the
    same rollout randomness (common random numbers), so the comparison between moves
    is not drowned by the luck of the deal; ``simulations`` then counts worlds, and
    each world costs one rollout per candidate.  ``prior_weight`` (paired search only)
    adds that multiple of each candidate's heuristic score, less the best one's, to its
    estimate, so that the search overrules the heuristic only by a clear margin.

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
    ) -> None:
        super().__init__(seed, name)
        self.knowledge = knowledge
        self.simulations = simulations
        self.depth = depth
        self.max_candidates = max_candidates
        self.paired = paired
        self.prior_weight = prior_weight
        self.env_name = knowledge.env_name
        #: what each seat this agent plays remembers of its own Views
        self.memories = SeatMemories(knowledge)

    @property
    def remembers(self) -> bool:
        """Whether this agent's choices depend on its seat's memory (the game's knowledge says)."""
        return self.knowledge.remembers

    def observe(self, game: Game[Any, Any], view: Any) -> None:
        """Update the seat's memory with ``view`` without deciding (rebuilds it after a restart)."""
        self.memories.update(game, view)

    def values(self, game: Game[Any, Any], view: Any, legal: list[int]) -> np.ndarray:
        """The estimated value of each legal action; unsearched moves get -inf.

        Decisions the game's knowledge does not search get the planning scores.
        """
        memory = self.memories.update(game, view)
        prior = np.asarray(self.knowledge.scores(game, view, legal, 2), float)
        if len(legal) > 1 and not self.knowledge.search_here(game, view, legal, prior):
            return prior
        values = np.full(len(legal), -np.inf)
        if len(legal) == 1:
            values[0] = 0.0
            return values
        order = np.argsort(-prior, kind="stable")[: self.max_candidates]
        search = _Search(self, game, view, legal, memory)
        values[order] = search.paired(order, prior) if self.paired else search.ucb(order)
        # keep the heuristic order among equal estimates
        values[order] += 1e-6 * (len(order) - np.arange(len(order)))
        return values

    def choose(self, game: Game[Any, Any], view: Any, legal: list[int]) -> int:
        """The legal action of the highest estimated value."""
        return legal[int(np.argmax(self.values(game, view, legal)))]


class _Search:
    """One searched decision: its worlds, candidates and rollouts."""

    def __init__(self, agent: SearchAgent, game: Game[Any, Any], view: Any, legal: list[int],
                 memory: Any) -> None:
        self.agent = agent
        self.game = game
        self.view = view
        self.legal = legal
        self.memory = memory
        self.me = int(view.seat)
        self.rollouts: Rollouts = agent.knowledge.rollouts(game, view)

    def world(self, rng: np.random.Generator) -> Any:
        """A full state consistent with the View, dealt by the game's knowledge."""
        return self.agent.knowledge.sample_state(self.game, self.view, rng, self.memory)

    def paired(self, order: np.ndarray, prior: np.ndarray) -> np.ndarray:
        """Mean outcome of each candidate over the same sampled worlds and rollout seeds."""
        agent, game = self.agent, self.game
        totals = np.zeros(len(order))
        rng = agent.rng
        for _world in range(agent.simulations):
            base = self.world(rng)
            seed = int(rng.integers(2**63))
            for k in range(len(order)):
                state = game.clone(base)
                sim_rng = np.random.default_rng(seed)
                game.apply(state, self.legal[order[k]], sim_rng)
                totals[k] += self.rollout(state, sim_rng)
        means = totals / max(agent.simulations, 1)
        if agent.prior_weight:
            means += agent.prior_weight * (prior[order] - prior[order[0]])
        return means

    def ucb(self, order: np.ndarray) -> np.ndarray:
        """Mean outcome of each candidate, simulations shared out by UCB1."""
        agent, game = self.agent, self.game
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
            totals[k] += self.rollout(state, rng)
            counts[k] += 1
        return totals / np.maximum(counts, 1)

    def rollout(self, state: Any, rng: np.random.Generator) -> float:
        """Play ``state`` on for up to ``depth`` moves and value the end for the searcher."""
        game, ro = self.game, self.rollouts
        for _ in range(self.agent.depth):
            if game.is_terminal(state) or game.is_truncated(state):
                break
            game.apply(state, ro.action(state, rng), rng)
        if game.is_terminal(state):
            return ro.outcome(state, self.me)
        return ro.evaluate(state, self.me)
