"""The sparse masked policy computes what sb3-contrib's dense masked policy computes."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

import gymnasium  # noqa: E402
import torch  # noqa: E402
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy  # noqa: E402

from agents.learning.sparse_policy import BoolMaskRolloutBuffer, SparseMaskablePolicy, fast_ppo_kwargs  # noqa: E402

N_OBS, N_ACT = 12, 200


def _pair(seed: int = 0) -> tuple[MaskableActorCriticPolicy, SparseMaskablePolicy]:
    obs_space = gymnasium.spaces.Box(-1, 1, (N_OBS,), np.float32)
    act_space = gymnasium.spaces.Discrete(N_ACT)
    torch.manual_seed(seed)
    dense = MaskableActorCriticPolicy(obs_space, act_space, lambda _: 1e-3, net_arch=[32, 32])
    sparse = SparseMaskablePolicy(obs_space, act_space, lambda _: 1e-3, net_arch=[32, 32])
    sparse.load_state_dict(dense.state_dict())
    return dense, sparse


def _batch(rng: np.random.Generator, n: int) -> tuple[torch.Tensor, np.ndarray, torch.Tensor]:
    obs = torch.as_tensor(rng.normal(size=(n, N_OBS)).astype(np.float32))
    masks = np.zeros((n, N_ACT), dtype=bool)
    for i in range(n):  # 1 to 30 legal actions, as in the games
        masks[i, rng.choice(N_ACT, int(rng.integers(1, 31)), replace=False)] = True
    actions = torch.as_tensor([rng.choice(np.flatnonzero(m)) for m in masks])
    return obs, masks, actions


@pytest.mark.parametrize("mask_kind", ["numpy bool", "tensor float", "tensor bool"])
def test_log_probs_entropy_values_and_gradients_match_the_dense_policy(mask_kind: str) -> None:
    dense, sparse = _pair()
    obs, masks, actions = _batch(np.random.default_rng(1), 64)
    # sb3-contrib takes numpy masks too, though its annotations say tensors only
    given: Any = {"numpy bool": masks, "tensor float": torch.as_tensor(masks, dtype=torch.float32),
                  "tensor bool": torch.as_tensor(masks)}[mask_kind]
    out = []
    for policy in (dense, sparse):
        policy.zero_grad()
        values, log_prob, entropy = policy.evaluate_actions(obs, actions, action_masks=given)
        assert entropy is not None
        (log_prob.mean() + 0.01 * entropy.mean() + values.pow(2).mean()).backward()
        out.append((values, log_prob, entropy,
                    {n: p.grad.clone() for n, p in policy.named_parameters() if p.grad is not None}))
    (v1, lp1, e1, g1), (v2, lp2, e2, g2) = out
    torch.testing.assert_close(v1, v2)
    torch.testing.assert_close(lp1, lp2, atol=1e-5, rtol=1e-5)
    torch.testing.assert_close(e1, e2, atol=1e-5, rtol=1e-5)
    assert g1.keys() == g2.keys()
    for name in g1:
        torch.testing.assert_close(g1[name], g2[name], atol=1e-6, rtol=1e-4, msg=name)


def test_a_row_without_legal_actions_falls_back_to_the_dense_head() -> None:
    dense, sparse = _pair()
    obs, np_masks, actions = _batch(np.random.default_rng(2), 4)
    np_masks[2] = False
    masks: Any = np_masks  # numpy masks (see above)
    with torch.no_grad():
        _, lp1, e1 = dense.evaluate_actions(obs, actions, action_masks=masks)
        _, lp2, e2 = sparse.evaluate_actions(obs, actions, action_masks=masks)
    torch.testing.assert_close(lp1, lp2)
    torch.testing.assert_close(e1, e2)


def test_sampling_draws_legal_actions_with_the_dense_probabilities() -> None:
    dense, sparse = _pair()
    obs, np_masks, _ = _batch(np.random.default_rng(3), 1)
    masks: Any = np_masks  # numpy masks (see above)
    n = 20000
    torch.manual_seed(0)
    with torch.no_grad():
        acts, values, log_probs = sparse(obs.repeat(n, 1), action_masks=np.repeat(masks, n, axis=0))
        dist: Any = dense.get_distribution(obs, masks).distribution
        probs = dist.probs[0].numpy()
        rep_masks: Any = np.repeat(masks, n, axis=0)
        _, lp_ref, _ = dense.evaluate_actions(obs.repeat(n, 1), acts, action_masks=rep_masks)
    assert masks[0, acts.numpy()].all()
    torch.testing.assert_close(log_probs, lp_ref, atol=1e-5, rtol=1e-5)
    freq = np.bincount(acts.numpy(), minlength=N_ACT) / n
    legal = np.flatnonzero(masks[0])
    # binomial standard error: every legal action within 5 sigma of its probability
    sigma = np.sqrt(probs[legal] * (1 - probs[legal]) / n)
    assert np.all(np.abs(freq[legal] - probs[legal]) <= 5 * sigma + 1e-4)
    with torch.no_grad():
        best, _, _ = sparse(obs, deterministic=True, action_masks=masks)
    assert int(best) == int(np.argmax(np.where(masks[0], probs, -1)))


def test_fast_kwargs_train_maskable_ppo_reproducibly() -> None:
    from sb3_contrib import MaskablePPO

    from agents import RandomAgent
    from cardenvs.vector import make_vec_env

    def run() -> tuple[MaskablePPO, list[torch.Tensor]]:
        venv = make_vec_env("rummy432_v0", 2, lambda i: [RandomAgent(i)], seed=3)
        model = MaskablePPO(env=venv, n_steps=64, batch_size=64, n_epochs=1, seed=3, verbose=0,
                            **fast_ppo_kwargs({"net_arch": [32]}))
        before.append([p.detach().clone() for p in model.policy.parameters()])
        model.learn(256)
        return model, [p.detach().clone() for p in model.policy.parameters()]

    before: list[list[torch.Tensor]] = []
    m1, p1 = run()
    _, p2 = run()
    assert isinstance(m1.policy, SparseMaskablePolicy)
    assert isinstance(m1.rollout_buffer, BoolMaskRolloutBuffer)
    assert m1.rollout_buffer.action_masks.dtype == bool
    assert m1.num_timesteps >= 256
    for a, b in zip(p1, p2):
        torch.testing.assert_close(a, b, atol=0, rtol=0)
    assert all(not torch.equal(a, b) for a, b in zip(p1, before[0]))  # every layer was updated
