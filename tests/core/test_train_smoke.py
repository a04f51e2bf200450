"""MaskablePPO trains on the single-agent wrapper (needs the `train` extra)."""

from __future__ import annotations

import pytest

pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

import cardenvs
from agents import RandomAgent
from cardenvs.core.wrappers import SingleAgentEnv


@pytest.mark.train
def test_maskable_ppo_trains_on_line() -> None:
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.utils import get_action_masks

    game = cardenvs.game_class("line_v0")(2)
    env = SingleAgentEnv(game, [RandomAgent(0)], learner_seat=None)
    model = MaskablePPO("MlpPolicy", env, n_steps=256, batch_size=64, n_epochs=1, seed=0, verbose=0,
                        policy_kwargs={"net_arch": [64]})
    model.learn(total_timesteps=2048)
    assert model.num_timesteps >= 2048
    obs, _ = env.reset(seed=1)
    action, _ = model.predict(obs, action_masks=get_action_masks(env), deterministic=True)
    assert env.action_masks()[int(action)]
