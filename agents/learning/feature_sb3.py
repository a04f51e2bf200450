"""sb3-contrib's ``MaskablePPO`` on the ``action_features`` observation: an action-scorer policy.

With ``observation="action_features"`` an environment's observation is a matrix with one
row of facts per action (zero for the illegal ones; :mod:`cardenvs.core.observers`).
:class:`ActionScorerPolicy` is a ``MaskableActorCriticPolicy`` whose networks are
:class:`agents.learning.feature_torch.ActionScorerNet`: one MLP shared by every action scores
each legal row, and the value reads the pooled rows.  It finds the legal rows itself
(every legal row has a non-zero entry: its phase), so it needs no mask to compute
values, and it gives MaskablePPO exactly the masked softmax over the legal actions::

    import torch
        import agents
    from agents.learning.feature_sb3 import ActionScorerPolicy, export_policy
    from cardenvs.vector import make_vec_env

    torch.set_num_threads(1)
    env_name = ...  # a registered environment whose matrix fits a rollout buffer (below)
    venv = make_vec_env(env_name, 8, lambda i: [agents.make_agent(env_name, "greedy", seed=i)],
                        observation="action_features")
    model = MaskablePPO(ActionScorerPolicy, venv, learning_rate=1e-3, n_steps=256, batch_size=512)
    model.learn(200_000, progress_bar=True)
    agents.evaluate(model, env_name, against=["greedy"], games=200)  # the model (or its .zip) as it is
    export_policy(model, env_name).save("my_policy.npz")   # plays as "policy:my_policy.npz"

The observation holds a row for every action id, so the rollout buffer grows with the
action space: Line-it (414 x 51 floats a step) and Rummy 4x3x2's (106 x 42) fit; Line
(4,014 x 42, about 0.7 MB a step) does not, and ``experiments/selfplay.py`` (which stores
only the legal rows) is the way to train on it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import numpy as np
import torch as th
from gymnasium import spaces
from sb3_contrib.common.maskable.distributions import MaskableCategorical, MaskableCategoricalDistribution
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from stable_baselines3.common.type_aliases import PyTorchObs, Schedule
from torch import nn

from ..players.feature_policy import FeaturePolicy
from .feature_torch import ActionScorerNet, export, segment_entropy, segment_log_softmax, segment_sample

if TYPE_CHECKING:
    from sb3_contrib import MaskablePPO


class _Rows(BaseFeaturesExtractor):
    """The observation as it is: ``(batch, actions, facts)``."""

    def __init__(self, observation_space: spaces.Box) -> None:
        super().__init__(observation_space, features_dim=int(observation_space.shape[-1]))

    def forward(self, observations: th.Tensor) -> th.Tensor:
        return observations


def _legal_rows(obs: th.Tensor) -> tuple[th.Tensor, th.Tensor]:
    """``(rows, cols)`` of the legal actions: the rows of the matrix that are not all zero."""
    rows, cols = th.nonzero(obs.abs().sum(-1) > 0, as_tuple=True)
    return rows, cols


class ActionScorerPolicy(MaskableActorCriticPolicy):
    """MaskablePPO policy over the ``action_features`` matrix (see the module docstring).

    ``net_arch``: the hidden sizes of the scorer and of the value network (default
    ``[128, 128]``); the other arguments are ``MaskableActorCriticPolicy``'s (the features
    extractor by default the matrix as it is, ``ortho_init`` always off).  The distribution
    is the softmax of the scores over the legal actions, which is what sb3-contrib's masked
    categorical gives with the same logits.
    """

    def __init__(self, observation_space: spaces.Space, action_space: spaces.Space, lr_schedule: Schedule,
                 net_arch: list[int] | None = None, activation_fn: type[nn.Module] = nn.Tanh,
                 ortho_init: bool = False, features_extractor_class: type[BaseFeaturesExtractor] = _Rows,
                 features_extractor_kwargs: dict[str, object] | None = None,
                 share_features_extractor: bool = True, normalize_images: bool = True,
                 optimizer_class: type[th.optim.Optimizer] = th.optim.Adam,
                 optimizer_kwargs: dict[str, object] | None = None) -> None:
        if not isinstance(observation_space, spaces.Box) or len(observation_space.shape) != 2:
            raise ValueError("ActionScorerPolicy reads the action_features matrix (a 2-D Box): build the "
                             "environment with observation='action_features'")
        self.hidden = list(net_arch or [128, 128])
        super().__init__(observation_space, action_space, lr_schedule, net_arch=self.hidden,
                         activation_fn=activation_fn, ortho_init=False,
                         features_extractor_class=features_extractor_class,
                         features_extractor_kwargs=features_extractor_kwargs,
                         share_features_extractor=share_features_extractor, normalize_images=normalize_images,
                         optimizer_class=optimizer_class, optimizer_kwargs=optimizer_kwargs)

    def _build(self, lr_schedule: Schedule) -> None:
        features = int(self.observation_space.shape[-1])  # type: ignore[index]
        self.scorer = ActionScorerNet(features, self.hidden, self.hidden)
        self.optimizer = self.optimizer_class(
            self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs)  # type: ignore[call-arg]

    def _scores(self, obs: th.Tensor) -> tuple[th.Tensor, th.Tensor, th.Tensor, th.Tensor, th.Tensor]:
        """``(rows, cols, log-probabilities, values, empty)`` for a batch of matrices;
        ``empty`` marks the observations without a legal action (a game's end)."""
        obs = obs.float()
        n = obs.shape[0]
        rows, cols = _legal_rows(obs)
        logits, values = self.scorer(obs[rows, cols], rows, n)
        logp = segment_log_softmax(logits, rows, n)
        empty = th.bincount(rows, minlength=n) == 0
        return rows, cols, logp, th.where(empty, th.zeros_like(values), values), empty

    def forward(self, obs: th.Tensor, deterministic: bool = False,
                action_masks: np.ndarray | None = None) -> tuple[th.Tensor, th.Tensor, th.Tensor]:
        rows, cols, logp, values, empty = self._scores(obs)
        if bool(empty.any()):
            raise ValueError("an observation has no legal action: nothing to choose")
        entry = segment_sample(logp, rows, obs.shape[0], greedy=deterministic)
        return cols[entry], values[:, None], logp[entry]

    def evaluate_actions(self, obs: th.Tensor, actions: th.Tensor,
                         action_masks: th.Tensor | None = None) -> tuple[th.Tensor, th.Tensor, th.Tensor]:
        rows, cols, logp, values, _ = self._scores(obs)
        n = obs.shape[0]
        dense = th.full((n, obs.shape[1]), -th.inf, dtype=logp.dtype)
        dense = dense.index_put((rows, cols), logp)
        log_prob = dense.gather(1, actions.long().reshape(n, 1))[:, 0]
        return values[:, None], log_prob, segment_entropy(logp, rows, n)

    def get_distribution(self, obs: PyTorchObs,
                         action_masks: np.ndarray | None = None) -> MaskableCategoricalDistribution:
        obs = _matrices(obs)
        rows, cols, logp, _, _ = self._scores(obs)
        n = obs.shape[0]
        dense = th.full((n, obs.shape[1]), -1e8, dtype=logp.dtype).index_put((rows, cols), logp)
        dist = MaskableCategoricalDistribution(int(self.action_space.n))  # type: ignore[attr-defined]
        dist.distribution = MaskableCategorical(logits=dense)
        if action_masks is not None:
            dist.apply_masking(action_masks)
        return dist

    def predict_values(self, obs: PyTorchObs) -> th.Tensor:
        return self._scores(_matrices(obs))[3][:, None]


def _matrices(obs: PyTorchObs) -> th.Tensor:
    """The batch of ``action_features`` matrices (never a dict of tensors: the Box is 2-D)."""
    if not isinstance(obs, th.Tensor):
        raise TypeError("ActionScorerPolicy reads a batch of action_features matrices, not a dict")
    return obs


def export_policy(model: MaskablePPO, env_name: str,
                  meta: Mapping[str, object] | None = None) -> FeaturePolicy:
    """The policy of a ``MaskablePPO(ActionScorerPolicy, ...)`` model as a numpy
    :class:`~agents.players.feature_policy.FeaturePolicy` (plays as ``policy:FILE`` once saved)."""
    policy = model.policy
    if not isinstance(policy, ActionScorerPolicy):
        raise TypeError(f"export_policy exports an ActionScorerPolicy model, not {type(policy).__name__}")
    return export(policy.scorer, env_name, None, meta)


__all__ = ["ActionScorerPolicy", "export_policy"]
