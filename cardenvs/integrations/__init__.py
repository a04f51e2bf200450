"""Bridges from the games of :mod:`cardenvs` to other game libraries.

* :mod:`cardenvs.integrations.openspiel`: every game as an OpenSpiel game (needs the
  optional ``open-spiel`` package: ``pip install cardenvs[openspiel]``).
* :mod:`cardenvs.integrations.rllib`: a ready multi-agent env for RLlib, its PPO config
  with action masking, Ray start-up for clusters, and export to numpy policies (needs
  the optional Ray packages: ``pip install cardenvs[rllib]``).
* :mod:`cardenvs.integrations.ray_runtime`: the Ray start-up alone (``init_ray``,
  ``runtime_env``), without RLlib or torch; ``agents``' Ray backend uses it.

Nothing here is imported by ``import cardenvs``; import the submodule you need.
"""
