"""Soak tests: many whole games per game and seat count (run with `python3 dev.py soak`).

Marked ``slow``: the default suite skips them.  Every few moves the position goes through
the JSON validator (which checks every card is in exactly one place and every rule
invariant), the mask must match the legal list, and every game must end.
"""

from __future__ import annotations

import numpy as np
import pytest

import cardenvs

CONFIGS = [
    (name, n)
    for name in cardenvs.ENVS
    for n in range(cardenvs.game_class(name).min_players, cardenvs.game_class(name).max_players + 1)
]


@pytest.mark.slow
@pytest.mark.parametrize(("env_name", "players"), CONFIGS)
def test_soak_random_games(env_name: str, players: int) -> None:
    game = cardenvs.game_class(env_name)(players)
    rng = np.random.default_rng(players)
    games = 300 if env_name == "rummy432_v0" else 1500
    for g in range(games):
        state = game.new_state(rng)
        step = 0
        while not game.is_terminal(state) and not game.is_truncated(state):
            legal = game.legal_actions(state)
            assert legal, "a decision point with no legal move"
            if step % 17 == g % 17:
                mask = game.legal_mask(state)
                assert np.flatnonzero(mask).tolist() == legal
                again = game.from_json(game.to_json(state))  # validates every invariant
                assert game.legal_actions(again) == legal
            game.apply(state, legal[int(rng.integers(len(legal)))], rng)
            step += 1
        assert game.is_terminal(state), f"{env_name} game {g} was truncated"
        ret = game.returns(state)
        assert max(ret) >= 0 and all(r in (-1.0, 0.0, 1.0) for r in ret)
