"""Masked sampling over ``gymnasium.make_vec`` never meets an empty mask.

Gymnasium's vector envs autoreset a copy whose episode ended: by default on the *next*
step (that step's action is ignored), or in the *same* step with
``AutoresetMode.SAME_STEP``.  Over many episode ends, sync and async, every mask read
with ``envs.call("action_masks")`` holds a move, every sampled move is legal, and the
reset-step mask is the documented one (action 0 alone).  The docs show this pattern
(docs/training/vector.md).
"""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AsyncVectorEnv, SyncVectorEnv

import cardenvs  # noqa: F401  (registers the ids)
from cardenvs.core.wrappers import RESET_STEP_ACTION, SingleAgentEnv

MODES = {
    "next_step": gymnasium.vector.AutoresetMode.NEXT_STEP,
    "same_step": gymnasium.vector.AutoresetMode.SAME_STEP,
}


@pytest.mark.parametrize("vectorization", ["sync", "async"])
@pytest.mark.parametrize("autoreset", list(MODES))
def test_masked_sampler_never_sees_an_empty_mask(vectorization: str, autoreset: str) -> None:
    envs = gymnasium.make_vec("cardenvs/Line-v0", num_envs=4, vectorization_mode=vectorization,
                              vector_kwargs={"autoreset_mode": MODES[autoreset]}, opponents="random")
    assert isinstance(envs, (SyncVectorEnv, AsyncVectorEnv))  # both have call()
    rng = np.random.default_rng(0)
    try:
        envs.reset(seed=0)
        ended = np.zeros(4, bool)  # the copies whose episode ended at the last step
        ends = 0
        for _ in range(250):
            masks = np.stack(envs.call("action_masks"))
            assert masks.shape == (4, 4014) and masks.dtype == bool
            assert masks.any(axis=1).all(), "a copy has no legal action"
            for i in np.flatnonzero(ended):
                if autoreset == "next_step":  # the step spent on reset(): the documented mask
                    assert np.flatnonzero(masks[i]).tolist() == [RESET_STEP_ACTION]
            actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
            _, rewards, terminated, truncated, info = envs.step(actions)
            assert "illegal_action" not in info, info.get("illegal_action")
            ended = terminated | truncated
            ends += int(ended.sum())
            if autoreset == "same_step" and ended.any():
                assert "final_obs" in info and info["_final_obs"][ended].all()
        assert ends >= 20, f"only {ends} episode ends in 250 steps x 4 copies"
    finally:
        envs.close()


def test_single_env_reset_step_mask_and_refusal() -> None:
    env = gymnasium.make("cardenvs/Line-v0", opponents="random")
    env.reset(seed=1)
    base = env.unwrapped
    assert isinstance(base, SingleAgentEnv)
    done = False
    while not done:
        legal = np.flatnonzero(base.action_masks())
        _, _, term, trunc, _ = env.step(int(legal[0]))
        done = term or trunc
    assert np.flatnonzero(base.action_masks()).tolist() == [RESET_STEP_ACTION]
    with pytest.raises(RuntimeError, match="call reset"):
        base.step(RESET_STEP_ACTION)
    env.reset(seed=2)
    assert base.action_masks().any()
