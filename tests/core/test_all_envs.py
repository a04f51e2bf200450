"""Checks every registered environment keeps beside the contract kit's (``cardenvs.testing``,
run by ``tests/core/test_contract.py``): the registry, the wrappers, extreme options."""

from __future__ import annotations

import importlib
import re

import numpy as np
import pytest

import cardenvs
from agents import RandomAgent
from cardenvs.core.wrappers import SingleAgentEnv

ENV_NAMES = list(cardenvs.ENVS)


def test_registry_errors_name_what_exists() -> None:
    with pytest.raises(ValueError, match="line_v0, lineit_v0, rummy432_v0"):
        cardenvs.make("poker_v0")


@pytest.mark.parametrize("name", ENV_NAMES)
def test_make_equals_module_env(name: str) -> None:
    mod = importlib.import_module(f"cardenvs.{name}")
    a, b = cardenvs.make(name), mod.env()
    a.reset(seed=5)
    b.reset(seed=5)
    assert a.unwrapped.state_json() == b.unwrapped.state_json()
    assert isinstance(mod.raw_env(), mod.raw_env)
    with pytest.raises(ValueError, match="unknown option"):
        cardenvs.make(name, no_such_option=1)


@pytest.mark.parametrize("name", ENV_NAMES)
def test_single_agent_env_passes_gymnasium_and_sb3_checkers(name: str) -> None:
    from gymnasium.utils.env_checker import check_env

    game = cardenvs.game_class(name)()
    sa = SingleAgentEnv(game, [RandomAgent(i) for i in range(game.num_players - 1)], learner_seat=None)
    check_env(sa, skip_render_check=True)
    sb3 = pytest.importorskip("stable_baselines3.common.env_checker")
    sb3.check_env(SingleAgentEnv(game, [RandomAgent(1) for _ in range(game.num_players - 1)]))


@pytest.mark.parametrize("name", ENV_NAMES)
def test_single_agent_env_plays_whole_games(name: str) -> None:
    game = cardenvs.game_class(name)()
    sa = SingleAgentEnv(game, [RandomAgent(i) for i in range(game.num_players - 1)], learner_seat=None)
    rng = np.random.default_rng(0)
    rewards = []
    for ep in range(3):
        obs, _ = sa.reset(seed=ep)
        done = False
        while not done:
            legal = np.flatnonzero(sa.action_masks())
            obs, r, term, trunc, _ = sa.step(int(rng.choice(legal)))
            assert obs.shape == sa.observation_space.shape
            assert sa.observation_space.contains(obs)
            done = term or trunc
        rewards.append(r)
    assert all(r in (-1.0, 0.0, 1.0) for r in rewards)


@pytest.mark.parametrize("name", ENV_NAMES)
def test_docstrings_on_public_api(name: str) -> None:
    game = cardenvs.game_class(name)
    for attr in ["new_state", "legal_actions", "apply", "view", "encode", "decode", "to_json", "from_json"]:
        assert getattr(game, attr).__doc__, f"{game.__name__}.{attr} has no docstring"
    assert re.search(r"\| field \| start \| size \|", cardenvs.env_module(name).__doc__)


EXTREME_OPTIONS: dict[str, list[dict[str, object]]] = {
    "line_v0": [{}, {"joker_points": 100}, {"joker_points": 0}],
    "lineit_v0": [{}],
    "rummy432_v0": [{}, {"max_turns_per_round": 1_000_000, "run_out_limit": None, "rounds_to_win": 10},
                    {"max_turns_per_round": 1, "pack": "four", "hand_size": 12}],
}


@pytest.mark.parametrize("name", ENV_NAMES)
def test_observations_stay_inside_their_box_for_extreme_options(name: str) -> None:
    """Every observation of random play lies in the declared Box, whatever the options."""
    cls = cardenvs.game_class(name)
    rng = np.random.default_rng(0)
    for opts in EXTREME_OPTIONS.get(name, [{}]):
        for n in (cls.min_players, cls.max_players):
            if opts.get("hand_size") == 12 and n > 3:
                continue
            env = cardenvs.make(name, num_players=n, **opts)
            space = env.observation_space(env.possible_agents[0])
            for g in range(2):
                env.reset(seed=g)
                for step, _agent in enumerate(env.agent_iter(max_iter=400)):
                    obs, _r, term, trunc, _i = env.last()
                    assert space.contains(obs), (name, opts, n, step)
                    legal = np.flatnonzero(obs["action_mask"])
                    env.step(None if term or trunc else int(rng.choice(legal)))
