"""Torch networks for the learner observations, and their export to numpy.

Two actor-critic networks, both evaluated only at the legal actions (a decision has a
handful of legal moves among up to 4,014 ids), in batches of decisions of different
sizes: a decision ``i`` owns the entries whose segment id ``seg`` is ``i``.

* :class:`ActionScorerNet` (``observation="action_features"``): the policy is one MLP
  shared by every action that turns an action's row of facts into its logit; the
  value reads the mean and the maximum of an embedding of the decision's rows (so it
  sees the position's facts, which every row repeats, and the best moves on offer).
* :class:`VectorNet` (``"flat"``, ``"planes"``): an MLP trunk over the observation with
  a linear action layer, of which only the legal rows are computed, and a separate MLP
  for the value (SB3's default layout).

:func:`export` turns the policy half into a :class:`~agents.players.feature_policy.FeaturePolicy`
(numpy, no torch at play time).  ``experiments/selfplay.py`` trains these networks with
its own batched PPO; :mod:`agents.learning.feature_sb3` wraps :class:`ActionScorerNet` for
sb3-contrib's ``MaskablePPO``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import torch as th
from torch import nn

from ..players.feature_policy import FeaturePolicy


def mlp(sizes: Sequence[int], activation: str = "relu", last_activation: bool = False) -> nn.Sequential:
    """Linear layers between consecutive ``sizes``, with ``activation`` between them."""
    act = {"relu": nn.ReLU, "tanh": nn.Tanh}[activation]
    layers: list[nn.Module] = []
    for i in range(len(sizes) - 1):
        layers.append(nn.Linear(sizes[i], sizes[i + 1]))
        if i < len(sizes) - 2 or last_activation:
            layers.append(act())
    return nn.Sequential(*layers)


def segment_log_softmax(logits: th.Tensor, seg: th.Tensor, n: int) -> th.Tensor:
    """Log-probabilities of ``logits`` normalised within each segment (decision)."""
    top = th.full((n,), -th.inf, dtype=logits.dtype).scatter_reduce(0, seg, logits.detach(), "amax")
    z = (logits - top[seg]).exp()
    lse = th.zeros(n, dtype=logits.dtype).index_add(0, seg, z).log() + top
    return logits - lse[seg]


def segment_entropy(logp: th.Tensor, seg: th.Tensor, n: int) -> th.Tensor:
    """Entropy of each segment's distribution."""
    return -th.zeros(n, dtype=logp.dtype).index_add(0, seg, logp.exp() * logp)


def segment_sample(logp: th.Tensor, seg: th.Tensor, n: int, greedy: bool = False) -> th.Tensor:
    """The chosen entry (an index into ``logp``) of each segment: a Gumbel-max draw, an
    exact sample of the segment's softmax (``greedy``: the most probable)."""
    key = logp if greedy else logp - th.log(-th.log(th.rand_like(logp).clamp_(min=1e-20)))
    best = th.full((n,), -th.inf, dtype=key.dtype).scatter_reduce(0, seg, key, "amax")
    hit = th.nonzero(key == best[seg], as_tuple=True)[0]
    out = th.empty(n, dtype=th.long)
    out[seg[hit]] = hit  # on an exact tie the later entry wins
    return out


def _masked_mean_max(h: th.Tensor, seg: th.Tensor, n: int) -> th.Tensor:
    """``[mean, max]`` of the rows of each segment."""
    dim = h.shape[1]
    count = th.zeros(n, dtype=h.dtype).index_add(0, seg, th.ones_like(seg, dtype=h.dtype)).clamp_(min=1)
    mean = th.zeros(n, dim, dtype=h.dtype).index_add(0, seg, h) / count[:, None]
    top = th.full((n, dim), -th.inf, dtype=h.dtype).scatter_reduce(
        0, seg[:, None].expand(-1, dim), h, "amax")
    top = th.where(th.isinf(top), th.zeros_like(top), top)  # a decision without rows
    return th.cat([mean, top], 1)


class ActionScorerNet(nn.Module):
    """Actor-critic over per-action facts (see the module docstring).

    ``forward(rows, seg, n)``: ``rows`` ``(nnz, F)`` the legal actions' facts of ``n``
    decisions, ``seg`` ``(nnz,)`` each row's decision; returns the ``(nnz,)`` logits and
    the ``(n,)`` values.
    """

    observation = "action_features"

    def __init__(self, num_features: int, hidden: Sequence[int] = (128, 128),
                 value_hidden: Sequence[int] = (128, 128)) -> None:
        super().__init__()
        self.num_features = num_features
        self.hidden = tuple(hidden)
        self.pi = mlp([num_features, *hidden, 1])
        self.v_embed = mlp([num_features, value_hidden[0]], last_activation=True)
        self.v_head = mlp([2 * value_hidden[0], *value_hidden[1:], 1])

    def forward(self, rows: th.Tensor, seg: th.Tensor, n: int) -> tuple[th.Tensor, th.Tensor]:
        logits = self.pi(rows)[:, 0]
        values = self.v_head(_masked_mean_max(self.v_embed(rows), seg, n))[:, 0]
        return logits, values


class VectorNet(nn.Module):
    """Actor-critic over one observation vector per decision, with a sparse action layer.

    ``forward(obs, legal, seg)``: ``obs`` ``(n, D)``, ``legal`` ``(nnz,)`` the legal
    action ids of all decisions, ``seg`` ``(nnz,)`` their decision; returns the
    ``(nnz,)`` logits and the ``(n,)`` values.
    """

    def __init__(self, input_size: int, num_actions: int, hidden: Sequence[int] = (256, 256),
                 activation: str = "tanh", observation: str = "flat") -> None:
        super().__init__()
        self.observation = observation
        self.activation = activation
        self.trunk = mlp([input_size, *hidden], activation, last_activation=True)
        self.head = nn.Linear(hidden[-1], num_actions)
        self.vf = mlp([input_size, *hidden, 1], activation)

    def forward(self, obs: th.Tensor, legal: th.Tensor, seg: th.Tensor) -> tuple[th.Tensor, th.Tensor]:
        latent = self.trunk(obs)
        logits = (latent[seg] * self.head.weight[legal]).sum(-1) + self.head.bias[legal]
        return logits, self.vf(obs)[:, 0]


def _linears(module: nn.Module) -> list[nn.Linear]:
    return [m for m in module.modules() if isinstance(m, nn.Linear)]


def export(net: ActionScorerNet | VectorNet, env_name: str, obs_scale: np.ndarray | None = None,
           meta: Mapping[str, object] | None = None) -> FeaturePolicy:
    """The policy half of ``net`` as a numpy :class:`FeaturePolicy`."""
    if isinstance(net, ActionScorerNet):
        layers, activation = _linears(net.pi), "relu"
    else:
        layers, activation = [*_linears(net.trunk), net.head], net.activation
    weights = [layer.weight.detach().cpu().numpy().copy() for layer in layers]
    biases = [layer.bias.detach().cpu().numpy().copy() for layer in layers]
    return FeaturePolicy(net.observation, env_name, weights, biases, activation, obs_scale, meta)


__all__ = ["ActionScorerNet", "VectorNet", "export", "mlp", "segment_entropy", "segment_log_softmax",
           "segment_sample"]
