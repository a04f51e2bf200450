"""Checks of the learner observations (``planes``, ``action_features``) that every game's
property tests run on their random positions (cardenvs.core.observers)."""

from __future__ import annotations

from typing import Any

import numpy as np

from cardenvs.core.game import Game
from cardenvs.core.observers import OBSERVATIONS, Observer


def check_designs(game: Game[Any, Any], state: Any, resampled: Any, player: int) -> None:
    """The learner observations of ``player`` in ``state`` lie in their spaces, and are the
    same in ``resampled`` (a state dealt from the player's View: what the player cannot
    see re-dealt), so they read nothing hidden; the mover's action rows are non-zero
    exactly at the legal actions."""
    to_move = game.current_player(state) == player
    for name in OBSERVATIONS[1:]:
        obs = Observer(game, name)
        a = obs.observe(state, player, to_move)
        assert a.dtype == np.float32 and a.shape == obs.shape
        assert obs.space.contains(a), f"{name} leaves its space: {a.min()}..{a.max()}"
        assert np.array_equal(obs.observe(resampled, player, to_move), a), f"{name} reads hidden cards"
        legal = game.legal_actions(state) if to_move else []
        assert np.array_equal(obs.encode(game.view(state, player), legal), a)
        if name == "action_features":
            assert np.flatnonzero(np.abs(a).sum(1) > 0).tolist() == sorted(legal)
