"""OpenSpiel's IS-MCTS as an agent: the ``ismcts`` level (needs ``open-spiel``).

:class:`ISMCTSAgent` runs ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` (Cowling,
Powley and Whitehouse's information-set Monte-Carlo tree search) on the game's
OpenSpiel adapter (:mod:`cardenvs.integrations.openspiel`), from its player's View
only:

* the root is an OpenSpiel state built from ``game.sample_state(view, rng)`` (any state
  consistent with the View will do: every simulation starts from a fresh
  ``resample_from_infostate`` of it, which re-deals the hidden cards through
  ``Game.sample_state`` from the View again, so the true hidden cards are never seen);
* the tree is keyed on the player-to-move's View (``use_observation_string=True``: the
  adapter's observation is the View, see the adapter's docstring);
* leaves are valued by a rollout of at most ``depth`` uniformly random moves
  (:class:`~cardenvs.integrations.openspiel.CoreRolloutEvaluator`), scored at its end by
  the game's returns, or, when cut short, by the game's ``Knowledge.evaluate`` (the
  value the ``expert`` level also ends its rollouts with), one value per seat;
* the move is the most visited root action (``MAX_VISIT_COUNT``, ties broken by the
  bot's seeded random state).

``simulations`` (not wall time) is the budget and every random number comes from the
agent's own generator, so a seeded agent is deterministic.  A decision with one legal
move is not searched.

Default budget (:data:`DEFAULT_BUDGET`): 64 simulations, rollouts of at most 16
moves, exploration constant ``uct_c=2.0``: about 30 ms (Line), 60 ms (Line-it) and
45 ms (Rummy) of CPU per searched decision, a few seconds per two-player game.  At
that budget it beats ``random`` but not the heuristic levels
(``experiments/ismcts_ladder.py``).  ``make_ismcts(env, simulations=...)``
builds one; the ladder's ``ismcts`` and ``ismcts:<simulations>`` levels are meant to
call it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict

import numpy as np

from cardenvs.core.game import Game

from ..types import S, V
from .base import Agent
from .knowledge import Knowledge
from .knowledge import knowledge as game_knowledge

if TYPE_CHECKING:
    from cardenvs.integrations.openspiel import CardenvsGame


class Budget(TypedDict):
    """A search budget: simulations per decision, rollout depth (``None``: to the end), UCT constant."""

    simulations: int
    depth: int | None
    uct_c: float


#: the default search budget: simulations per decision, rollout depth, UCT constant
DEFAULT_BUDGET: Budget = {"simulations": 64, "depth": 16, "uct_c": 2.0}


class ISMCTSAgent(Agent):
    """OpenSpiel's ``ISMCTSBot`` on the adapter, deciding from the player's View.

    ``depth=None`` plays rollouts out to the end of the game (no knowledge used: pure
    IS-MCTS with random rollouts; slow for Rummy, whose random games last about 1500
    moves).  ``knowledge`` (default: the game's own, through its kit) values the
    cut rollouts.
    """

    name = "ismcts"

    def __init__(
        self,
        env_name: str,
        simulations: int = DEFAULT_BUDGET["simulations"],
        depth: int | None = DEFAULT_BUDGET["depth"],
        uct_c: float = DEFAULT_BUDGET["uct_c"],
        seed: int | None = None,
        name: str | None = None,
        knowledge: Knowledge | None = None,
    ) -> None:
        super().__init__(seed, name)
        if simulations < 1:
            raise ValueError(f"simulations must be at least 1, got {simulations}")
        if depth is not None and depth < 0:
            raise ValueError(f"depth must be None or at least 0, got {depth}")
        try:
            from cardenvs.integrations import openspiel
        except ImportError as err:
            raise ImportError(
                "the ismcts agent needs open-spiel: pip install 'cardenvs[openspiel]'"
            ) from err
        self._openspiel = openspiel
        self.env_name = env_name
        self.simulations = int(simulations)
        self.depth = depth
        self.uct_c = float(uct_c)
        if knowledge is None and depth is not None:
            knowledge = game_knowledge(env_name)
        self.knowledge = knowledge
        self._games: dict[tuple[int, tuple[tuple[str, object], ...]], CardenvsGame] = {}

    def _adapter(self, game: Game[S, V]) -> CardenvsGame:
        """The OpenSpiel game of the table (cached per seat count and options)."""
        key = (game.num_players, tuple(sorted(game.options.items())))
        found = self._games.get(key)
        if found is None:
            found = self._games[key] = self._openspiel.from_game(game)
        return found

    def _leaf_value(self, game: Game[S, V], state: S) -> list[float]:
        assert self.knowledge is not None
        know = self.knowledge
        return [float(know.evaluate(game, state, p)) for p in range(game.num_players)]

    def choose(self, game: Game[S, V], view: V, legal: list[int]) -> int:
        """The most visited root move of an IS-MCTS search from ``view``."""
        if len(legal) == 1:
            return int(legal[0])
        from open_spiel.python.algorithms import ismcts

        os_game = self._adapter(game)
        rng = self.rng
        root = os_game.wrap(game.sample_state(view, rng), seed=rng)
        evaluator = self._openspiel.CoreRolloutEvaluator(
            max_moves=self.depth,
            leaf_value=None if self.depth is None else self._leaf_value,
            seed=int(rng.integers(2**63)),
        )
        bot = ismcts.ISMCTSBot(
            os_game,
            evaluator,
            self.uct_c,
            self.simulations,
            random_state=np.random.RandomState(int(rng.integers(2**32))),
            final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
            use_observation_string=True,
        )
        resample_rng = np.random.default_rng(int(rng.integers(2**63)))
        bot.set_resampler(lambda state, player: state.resample_with(player, resample_rng))
        action = int(bot.step(root))
        if action not in legal:  # the root is consistent with the view, so this cannot happen
            raise RuntimeError(f"ISMCTS chose {action}, not a legal action of the view")
        return action


def parse_level(level: str) -> int | None:
    """The simulations of a level name: ``"ismcts"`` -> ``None`` (the default budget),
    ``"ismcts:200"`` -> 200; ``ValueError`` for anything else."""
    if level == "ismcts":
        return None
    head, sep, tail = level.partition(":")
    if head == "ismcts" and sep and tail.isdigit() and int(tail) >= 1:
        return int(tail)
    raise ValueError(f"not an ismcts level: {level!r} (use 'ismcts' or 'ismcts:<simulations>')")


def make_ismcts(
    env_name: str,
    simulations: int | None = None,
    seed: int | None = None,
    name: str | None = None,
    depth: int | None = DEFAULT_BUDGET["depth"],
    uct_c: float = DEFAULT_BUDGET["uct_c"],
    knowledge: Knowledge | None = None,
) -> ISMCTSAgent:
    """An :class:`ISMCTSAgent` for ``env_name``; ``simulations=None``: the default
    budget.  ``depth``, ``uct_c`` and ``knowledge`` as for the agent.  The name defaults to
    ``ismcts`` (``ismcts:<simulations>`` for another budget)."""
    sims = DEFAULT_BUDGET["simulations"] if simulations is None else int(simulations)
    if name is None:
        name = "ismcts" if sims == DEFAULT_BUDGET["simulations"] else f"ismcts:{sims}"
    return ISMCTSAgent(env_name, simulations=sims, depth=depth, uct_c=uct_c, seed=seed, name=name,
                       knowledge=knowledge)
