"""The expert's greedy rollouts in Line-it, in one loop on the state (:class:`LineItRollouts`)."""

from __future__ import annotations

import numpy as np

from cardenvs.lineit.rules import apply_action, legal_actions
from cardenvs.lineit.state import (
    OVER,
    LineItView,
    State,
)

from ...players.knowledge import Rollouts, Ties
from .scoring import _greedy_values


class LineItRollouts(Rollouts[State, LineItView]):
    """The expert's rollouts in Line-it: :meth:`LineItKnowledge.rollout_action`'s greedy
    moves, played by one loop straight on the rules' state (no call per move through the
    game's checked ``apply``: the moves are legal by construction), ties broken by a
    :class:`~agents.players.knowledge.Ties` stream."""

    def play_out(self, state: State, rng: np.random.Generator, depth: int, player: int) -> float:
        """Play ``state`` on greedily for up to ``depth`` moves and value the end for ``player``."""
        ties = Ties(rng)
        for _ in range(depth):
            if state.phase == OVER:
                break
            legal = state.legal if state.legal is not None else legal_actions(state)
            if len(legal) == 1:
                action = legal[0]
            else:
                p = state.current
                jack = [len(x) for x in state.jackpots]
                action = legal[ties.argmax(_greedy_values(state.stats[p], jack, len(state.hands[p]), legal))]
            apply_action(state, action)
        if state.phase == OVER:
            return self.outcome(state, player)
        return self.evaluate(state, player)
