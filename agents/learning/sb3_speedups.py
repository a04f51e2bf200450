"""Opt-in speed-ups for training with sb3-contrib's MaskablePPO on large action spaces.

``enable()`` does three things, none of which changes what is computed:

* turns off ``torch.distributions`` argument validation (it costs more than the
  policy's forward pass on these networks);
* normalises ``MaskableCategorical`` logits with ``log_softmax`` (3-5x faster on the
  CPU than torch's ``logits - logsumexp``, the same numbers);
* samples ``MaskableCategorical`` actions by inverse CDF (``cumsum`` + ``searchsorted``)
  instead of ``torch.multinomial``, which on the CPU is ~10x slower for thousands of
  categories (Line has 4014 actions).  It draws from exactly the same distribution, and
  a masked action (probability 0) is never drawn.

Measured with 8 rows of 4014 logits on one core: 1.36 ms per sample before, 0.14 ms after.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # torch is imported when the speed-ups are enabled
    import torch
    from torch.distributions import Categorical

_enabled = False


def _inverse_cdf_sample(self: Categorical,
                        sample_shape: torch.Size | Sequence[int] | None = None) -> torch.Tensor:
    """``Categorical.sample`` by inverse CDF: one draw per row of ``probs``."""
    import torch

    probs = self.probs
    if sample_shape is not None and len(torch.Size(sample_shape)) > 0:
        raise NotImplementedError("batched sample_shape is not used by MaskablePPO")
    flat = probs.reshape(-1, probs.shape[-1])
    cdf = flat.cumsum(-1)
    # u in (0, total]: the first index whose cdf reaches u never has zero probability
    u = (1.0 - torch.rand(flat.shape[0], 1, dtype=cdf.dtype, device=cdf.device)) * cdf[:, -1:]
    idx = torch.searchsorted(cdf, u).squeeze(-1).clamp_(max=flat.shape[-1] - 1)
    return idx.reshape(probs.shape[:-1])


def _log_softmax_init(self: Categorical, probs: torch.Tensor | None = None,
                      logits: torch.Tensor | None = None, validate_args: bool | None = None) -> None:
    """``Categorical.__init__`` for logits, normalised by ``log_softmax``."""
    import torch
    from torch.distributions import Categorical, Distribution

    if probs is not None or logits is None or logits.dim() < 1:
        Categorical.__init__(self, probs, logits, validate_args)
        return
    self.logits = torch.log_softmax(logits, dim=-1)
    self._param = self.logits
    self._num_events = self._param.size()[-1]
    batch_shape = self._param.size()[:-1] if self._param.ndimension() > 1 else torch.Size()
    Distribution.__init__(self, batch_shape, validate_args=validate_args)


def enable() -> None:
    """Apply the speed-ups (idempotent); needs torch and sb3-contrib."""
    global _enabled
    if _enabled:
        return
    import torch
    from sb3_contrib.common.maskable.distributions import MaskableCategorical

    torch.distributions.Distribution.set_default_validate_args(False)

    # MaskableCategorical inherits sample() and calls Categorical.__init__ through super():
    # give it its own base with the fast versions
    class _FastCategorical(torch.distributions.Categorical):
        __init__ = _log_softmax_init
        sample = _inverse_cdf_sample

    MaskableCategorical.__bases__ = (_FastCategorical,)
    _enabled = True
