"""Honest agents built on a game's View: heuristics, determinised search, and helpers.

Every agent here decides from its player's View (``Agent.choose(game, view, legal)``,
or ``Agent.act(observation)``, which decodes the View from the observation); a
search agent that needs full states samples them consistent with the View through
the rules core (``Game.sample_state``).  Nothing reads the true state, so swapping
the cards a player cannot see cannot change a decision (tested).

A game plugs in with a :class:`Knowledge` subclass: scores of legal actions for a View
(the heuristic levels), a reason in words for a move (the coach), and a value of a
full state for one seat (to cut search rollouts short).
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cardenvs.core.game import Game

from .base import Agent


class Knowledge(ABC):
    """A game's strategic knowledge, shared by its heuristic levels and the coach."""

    env_name: str

    @abstractmethod
    def scores(self, game: Game[Any, Any], view: Any, legal: list[int], level: int) -> np.ndarray:
        """A score per legal action (higher is better) at heuristic depth ``level``.

        ``level`` 1 is the greedy heuristic, 2 the planning one (card counting, dead
        ranks, blocking...).  Only ``view`` may be used, never a full state.
        """

    @abstractmethod
    def reason(self, game: Game[Any, Any], view: Any, action: int) -> str:
        """A short reason a player understands for playing ``action`` in ``view``."""

    @abstractmethod
    def evaluate(self, game: Game[Any, Any], state: Any, player: int) -> float:
        """Value in [-1, 1] of a (sampled) full state for ``player``, to end rollouts early."""

    def outcome(self, game: Game[Any, Any], state: Any, player: int) -> float:
        """Value of a finished (sampled) game for ``player``; by default its reward.

        A game may return a finer margin (still in [-1, 1]) so that search can tell
        a narrow loss from a heavy one.
        """
        return float(game.returns(state)[player])

    def action_facts(self, game: Game[Any, Any], view: Any, legal: list[int]) -> np.ndarray:
        """``[len(legal), k]`` facts about each legal action for learned scorers (:mod:`agents.scorer`).

        Computed from ``view`` alone; by default none (``k == 0``).  A game adds what its
        flat observation hides (does the card fit my line, how much room it leaves...).
        """
        return np.zeros((len(legal), 0), np.float32)

    def sample_state(self, game: Game[Any, Any], view: Any, rng: np.random.Generator) -> Any:
        """A full state consistent with ``view`` for search; by default ``game.sample_state``.

        A game may re-weight the hidden cards towards what players really hold (still a
        valid state consistent with the view, and a function of the view and ``rng`` only).
        """
        return game.sample_state(view, rng)

    def search_here(self, game: Game[Any, Any], view: Any, legal: list[int], prior: np.ndarray) -> bool:
        """Whether the search agent searches this decision; by default always.

        A game may answer ``False`` for decisions the planning heuristic settles well
        (the agent then plays by the heuristic scores there).
        """
        return True

    def rollout_action(self, game: Game[Any, Any], state: Any, rng: np.random.Generator) -> int:
        """The move of the player to move inside a search rollout (greedy on their view)."""
        p = game.current_player(state)
        legal = game.legal_actions(state)
        if len(legal) == 1:
            return legal[0]
        sc = self.scores(game, game.view(state, p), legal, 1)
        return legal[_argmax_random(sc, rng)]


def _argmax_random(scores: np.ndarray, rng: np.random.Generator) -> int:
    """Index of the best score, ties broken by ``rng``."""
    best = np.flatnonzero(scores >= scores.max() - 1e-9)
    return int(best[0] if best.size == 1 else best[rng.integers(best.size)])


class HeuristicAgent(Agent):
    """Plays the best-scoring legal move of a :class:`Knowledge` at a given depth."""

    def __init__(self, knowledge: Knowledge, level: int, seed: int | None = None,
                 name: str | None = None) -> None:
        super().__init__(seed, name)
        self.knowledge = knowledge
        self.level = level
        self.env_name = knowledge.env_name

    def values(self, game: Game[Any, Any], view: Any, legal: list[int]) -> np.ndarray:
        """The heuristic score of each legal action (higher is better)."""
        return np.asarray(self.knowledge.scores(game, view, legal, self.level), float)

    def choose(self, game: Game[Any, Any], view: Any, legal: list[int]) -> int:
        """The best-scoring legal action, ties broken by the agent's generator."""
        return legal[_argmax_random(self.values(game, view, legal), self.rng)]


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
    the rules core, tries the most promising candidate moves (by the planning
    heuristic), plays each sample out with the greedy heuristic for up to ``depth``
    moves and scores the end with ``Knowledge.evaluate``.  ``simulations`` (not wall
    time) is the budget, so a seeded agent is deterministic.

    With ``paired=True`` every candidate is played on the same sampled worlds with the
    same rollout randomness (common random numbers), so the comparison between moves
    is not drowned by the luck of the deal; ``simulations`` then counts worlds, and
    each world costs one rollout per candidate.  ``prior_weight`` (paired search only)
    adds that multiple of each candidate's heuristic score, less the best one's, to its
    estimate, so that the search overrules the heuristic only by a clear margin.
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

    def values(self, game: Game[Any, Any], view: Any, legal: list[int]) -> np.ndarray:
        """The estimated value of each legal action; unsearched moves get -inf.

        Decisions the game's knowledge does not search get the planning scores.
        """
        prior = np.asarray(self.knowledge.scores(game, view, legal, 2), float)
        if len(legal) > 1 and not self.knowledge.search_here(game, view, legal, prior):
            return prior
        values = np.full(len(legal), -np.inf)
        if len(legal) == 1:
            values[0] = 0.0
            return values
        order = np.argsort(-prior, kind="stable")[: self.max_candidates]
        if self.paired:
            values[order] = self._paired(game, view, legal, order, prior)
        else:
            values[order] = self._ucb(game, view, legal, order)
        # keep the heuristic order among equal estimates
        values[order] += 1e-6 * (len(order) - np.arange(len(order)))
        return values

    def _paired(self, game: Game[Any, Any], view: Any, legal: list[int], order: np.ndarray,
                prior: np.ndarray) -> np.ndarray:
        """Mean outcome of each candidate over the same sampled worlds and rollout seeds."""
        totals = np.zeros(len(order))
        rng = self.rng
        for _world in range(self.simulations):
            base = self.knowledge.sample_state(game, view, rng)
            seed = int(rng.integers(2**63))
            for k in range(len(order)):
                state = game.clone(base)
                sim_rng = np.random.default_rng(seed)
                game.apply(state, legal[order[k]], sim_rng)
                totals[k] += self._rollout(game, state, view.seat, sim_rng)
        means = totals / max(self.simulations, 1)
        if self.prior_weight:
            means += self.prior_weight * (prior[order] - prior[order[0]])
        return means

    def _ucb(self, game: Game[Any, Any], view: Any, legal: list[int], order: np.ndarray) -> np.ndarray:
        """Mean outcome of each candidate, simulations shared out by UCB1."""
        totals = np.zeros(len(order))
        counts = np.zeros(len(order))
        rng = self.rng
        for sim in range(self.simulations):
            if sim < len(order):
                k = sim
            else:  # UCB1 over the candidates
                mean = totals / counts
                k = int(np.argmax(mean + 0.7 * np.sqrt(np.log(sim + 1) / counts)))
            state = self.knowledge.sample_state(game, view, rng)
            game.apply(state, legal[order[k]], rng)
            totals[k] += self._rollout(game, state, view.seat, rng)
            counts[k] += 1
        return totals / np.maximum(counts, 1)

    def _rollout(self, game: Game[Any, Any], state: Any, me: int, rng: np.random.Generator) -> float:
        know = self.knowledge
        for _ in range(self.depth):
            if game.is_terminal(state) or game.is_truncated(state):
                break
            game.apply(state, know.rollout_action(game, state, rng), rng)
        if game.is_terminal(state):
            return know.outcome(game, state, me)
        return know.evaluate(game, state, me)

    def choose(self, game: Game[Any, Any], view: Any, legal: list[int]) -> int:
        """The legal action of the highest estimated value."""
        return legal[int(np.argmax(self.values(game, view, legal)))]


@dataclass(frozen=True)
class GameAgents:
    """What the agents package holds for one game: the ``SPEC`` of ``agents.games.<g>``.

    The game's registry entry (:mod:`cardenvs.registry`) names the module; the ladder,
    the coach, the named opponents and training read everything per game from here.
    """

    #: the game's strategic knowledge (heuristic scores, reasons, evaluation)
    knowledge: type[Knowledge]
    #: the game's cast of named computer players
    cast: tuple[str, ...]
    #: keyword arguments of the expert's :class:`SearchAgent` (its search budget)
    expert_budget: dict[str, Any]
    #: starting hyperparameters of ``experiments/train.py`` for the game
    train_defaults: dict[str, Any] = field(default_factory=lambda: {
        "net_arch": [256, 256], "lr": 3e-4, "n_steps": 1024, "ent_coef": 0.01})
