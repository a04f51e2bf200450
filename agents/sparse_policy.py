"""Kept for saved models: SB3 ``.zip`` files name their policy (and rollout buffer) class by
module, ``agents.sparse_policy.X``; the module is :mod:`agents.learning.sparse_policy`."""

import sys

from agents.learning import sparse_policy

sys.modules[__name__] = sparse_policy
