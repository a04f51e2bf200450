"""Learning: what trains policies (torch, imported lazily).

:mod:`agents.learning.ppo` is the project's own batched PPO (the self-play trainer's and
the approximate best response's learner).
"""
