"""The expert's search hooks in Line-it (:class:`LineItSearch`): the greedy rollout move,
the one-loop rollouts and the evaluation that cuts them short."""

from __future__ import annotations

import math

import numpy as np

from cardenvs.core.game import Game
from cardenvs.lineit.state import (
    LineItView,
    State,
)

from ...players.knowledge import Knowledge, Rollouts, argmax_random
from .context import _Table
from .rollouts import LineItRollouts
from .scoring import _greedy_values, _Planner


class LineItSearch(Knowledge[State, LineItView]):
    """What the expert's search asks of Line-it's knowledge."""

    def rollout_action(self, game: Game[State, LineItView], state: State, rng: np.random.Generator) -> int:
        """Greedy move of the player to move, read straight off the (sampled) state.

        Line-it hides only the deck order, which the heuristics never use, so the state
        gives the same scores as that player's view, without building the view.
        """
        legal = game.legal_actions(state)
        if len(legal) == 1:
            return legal[0]
        p = state.current
        sc = _greedy_values(state.stats[p], [len(x) for x in state.jackpots], len(state.hands[p]), legal)
        return legal[argmax_random(sc, rng)]

    def rollouts(self, game: Game[State, LineItView], root: LineItView) -> Rollouts[State, LineItView]:
        """The greedy rollouts of :meth:`rollout_action`, in one tight loop (:class:`LineItRollouts`)."""
        if type(self).rollout_action is not LineItSearch.rollout_action:
            return Rollouts(self, game, root)  # a subclass's own rollout policy: the generic loop
        return LineItRollouts(self, game, root)

    # ------------------------------------------------------------------ evaluate
    def evaluate(self, game: Game[State, LineItView], state: State, player: int) -> float:
        """The lead of ``player``'s expected final score over the best rival's, squashed by tanh."""
        n = state.n
        tabs = _Table.of_state(state, player)
        eq = [_Planner(tabs, s).equity() for s in range(n)]
        best_other = max(eq[s] for s in range(n) if s != player)
        return float(math.tanh((eq[player] - best_other) / 6.0))
