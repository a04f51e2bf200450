"""The expert's rollout policy in Line (:func:`rollout_move`) and its one-loop
rollouts (:class:`LineRollouts`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import numpy as np

from cardenvs.core.cards import JOKER
from cardenvs.line.rules import (
    ACTION_INFO,
    K_DRAW,
    K_PLAY,
    K_SHIFT,
    K_TAKE,
    K_UPGRADE,
    OVER,
    PLACE_DRAWN,
    ROW_LEN,
    LineState,
    LineView,
)

from ...players.knowledge import Rollouts, Ties
from .context import SHORT, _line
from .scoring import LineScoring


def rollout_move(state: LineState, legal: list[int], vals: Sequence[int], ties: Ties, threat: float) -> int:
    """The search's rollout policy: the greedy move of ``legal`` for the player to move in ``state``.

    By the cards a row holds before a card goes in: filling it earns a bonus turn (8
    points when not already on one), leaving it one card short hands the next player
    one (``-threat``); otherwise the points shed, a take at 0.5, a draw at -3, a discard
    by the card's value.  Ties (scores are whole or half points) are broken uniformly
    by ``ties``.
    """
    if len(legal) == 1:
        return legal[0]
    rows = state.rows
    placing = state.phase == PLACE_DRAWN
    fill = [0.0] * ROW_LEN
    fill[SHORT] = 0.0 if state.bonus else 8.0
    fill[SHORT - 1] = -threat
    info = ACTION_INFO
    best = -1e9
    picks: list[int] = []
    for a in legal:
        kind, c, r, x = info[a]
        if kind == K_PLAY:
            s = (0 if placing else vals[c]) + fill[len(rows[r])]
        elif kind == K_UPGRADE:
            s = vals[c] - vals[JOKER] if x < 0 else vals[c] + fill[len(rows[x])]
        elif kind == K_SHIFT:
            s = vals[c]
        elif kind == K_TAKE:
            s = 0.5 + fill[len(rows[r])]
        elif kind == K_DRAW:
            s = -3.0
        else:
            s = vals[c]
        if s > best:
            best, picks = s, [a]
        elif s == best:
            picks.append(a)
    return picks[0] if len(picks) == 1 else picks[ties.index(len(picks))]


class LineRollouts(Rollouts[LineState, LineView]):
    """The expert's rollouts in Line: :func:`rollout_move` to the end (or ``depth``), in
    one loop on the rules' state, then :meth:`LineKnowledge.outcome` or ``evaluate``."""

    def play_out(self, state: LineState, rng: np.random.Generator, depth: int, player: int) -> float:
        """Play ``state`` on for up to ``depth`` moves and value the end for ``player``."""
        game = _line(self.game)
        vals = game.card_values
        threat = cast(LineScoring, self.knowledge).ROLLOUT_THREAT
        apply, legal_actions = game.apply, game.legal_actions
        ties = Ties(rng)
        for _ in range(depth):
            if state.phase == OVER:
                break
            apply(state, rollout_move(state, legal_actions(state), vals, ties, threat), rng)
        if state.phase == OVER:
            return self.outcome(state, player)
        return self.evaluate(state, player)

