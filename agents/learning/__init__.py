"""Learning: what trains policies (torch and SB3, imported lazily).

:mod:`agents.learning.ppo` is the project's own batched PPO (the self-play trainer's and
the approximate best response's learner); :mod:`agents.learning.feature_torch`,
:mod:`agents.learning.feature_sb3`, :mod:`agents.learning.sparse_policy` and
:mod:`agents.learning.sb3_speedups` are the torch and SB3 policies and speed-ups, and
:mod:`agents.learning.gym` the single-agent Gymnasium env against ladder opponents.
It imports no :mod:`agents.programs`.
"""
