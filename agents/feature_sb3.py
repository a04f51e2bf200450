"""Kept for saved models: SB3 ``.zip`` files name their policy (and rollout buffer) class by
module, ``agents.feature_sb3.X``; the module is :mod:`agents.learning.feature_sb3`."""

import sys

from agents.learning import feature_sb3

sys.modules[__name__] = feature_sb3
