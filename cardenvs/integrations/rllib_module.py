"""The action-masking PPO module of :func:`cardenvs.integrations.rllib.ppo_config` (needs torch).

:class:`ActionMaskingPPOModule` is RLlib's ``DefaultPPOTorchRLModule`` (an MLP encoder
with separate actor and critic, a policy head and a value head) on the
``"observations"`` part of a :class:`~cardenvs.integrations.rllib.CardEnv` observation,
with the illegal actions' logits pushed to RLlib's ``FLOAT_MIN`` by the
``"action_mask"`` part, in every forward pass (inference, exploration and training).
It replaces RLlib's example module ``ActionMaskingTorchRLModule``, which builds on the
deprecated ``PPOTorchRLModule`` and printed two deprecation warnings per process.

The module never edits the batch it is given (it reads the two parts of the
observation into a copy), so RLlib may call it on the same batch several times.

Importing this module (which every process that builds the module does) also silences
two messages RLlib 2.60 prints about itself, not about anything a caller did
(:func:`quiet_rllib`): the deprecation of ``RLModuleConfig``, which ``RLModule.__init__``
builds for every module, and the notice that PPO runs on the new API stack, which
:func:`~cardenvs.integrations.rllib.ppo_config` asks for explicitly.
"""

from __future__ import annotations

import logging
from typing import Any

import gymnasium
import torch
from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import DefaultPPOTorchRLModule
from ray.rllib.core.columns import Columns
from ray.rllib.utils.torch_utils import FLOAT_MIN

#: the keys of an observation the module reads
OBS_KEY, MASK_KEY = "observations", "action_mask"

#: (logger, words) of RLlib's messages about itself that :func:`quiet_rllib` drops
RLLIB_NOISE = (
    ("ray._common.deprecation", "RLModule(config=[RLModuleConfig object])"),
    ("ray.rllib.algorithms.algorithm_config", "on the new API stack!"),
)


class _Drop(logging.Filter):
    def __init__(self, words: str) -> None:
        super().__init__()
        self.words = words

    def filter(self, record: logging.LogRecord) -> bool:
        return self.words not in record.getMessage()


def quiet_rllib() -> None:
    """Drop :data:`RLLIB_NOISE` from RLlib's loggers in this process (once)."""
    for name, words in RLLIB_NOISE:
        log = logging.getLogger(name)
        if not any(isinstance(f, _Drop) and f.words == words for f in log.filters):
            log.addFilter(_Drop(words))


quiet_rllib()


class ActionMaskingPPOModule(DefaultPPOTorchRLModule):
    """PPO's default torch module on ``obs["observations"]``, masked by ``obs["action_mask"]``."""

    def __init__(self, *, observation_space: Any = None, action_space: Any = None, **kwargs: Any) -> None:
        if not (isinstance(observation_space, gymnasium.spaces.Dict)
                and set(observation_space.spaces) == {OBS_KEY, MASK_KEY}):
            raise ValueError(f"ActionMaskingPPOModule needs a Dict observation space with the keys "
                             f"{OBS_KEY!r} and {MASK_KEY!r} (what CardEnv gives); got {observation_space!r}")
        # the networks are built for the observation vector alone; RLlib's connectors see
        # the whole Dict space again once the module is set up
        self._space_with_mask = observation_space
        super().__init__(observation_space=observation_space[OBS_KEY], action_space=action_space, **kwargs)

    def setup(self) -> None:
        """Build the networks, then show RLlib the observation space with the mask."""
        super().setup()
        self.observation_space = self._space_with_mask

    @staticmethod
    def _split(batch: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
        """The mask, and a shallow copy of ``batch`` whose observation is the vector alone."""
        obs = batch[Columns.OBS]
        if not isinstance(obs, dict):
            raise ValueError(f"the observation batch has no {MASK_KEY!r}: use CardEnv's Dict observations")
        out = dict(batch)
        out[Columns.OBS] = obs[OBS_KEY]
        return obs[MASK_KEY], out

    @staticmethod
    def _mask(out: dict[str, Any], mask: Any) -> dict[str, Any]:
        """Illegal actions' logits pushed down to ``FLOAT_MIN`` (legal ones unchanged)."""
        out[Columns.ACTION_DIST_INPUTS] = out[Columns.ACTION_DIST_INPUTS] + torch.clamp(
            torch.log(mask), min=FLOAT_MIN)
        return out

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        mask, inner = self._split(batch)
        return self._mask(super()._forward(inner, **kwargs), mask)

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        mask, inner = self._split(batch)
        return self._mask(super()._forward_train(inner, **kwargs), mask)

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> Any:
        """The value head on the observation vector (the mask plays no part)."""
        if embeddings is None and isinstance(batch[Columns.OBS], dict):
            _, batch = self._split(batch)
        return super().compute_values(batch, embeddings)
