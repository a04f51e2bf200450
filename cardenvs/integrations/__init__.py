"""Bridges from the games of :mod:`cardenvs` to other game libraries.

* :mod:`cardenvs.integrations.openspiel`: every game as an OpenSpiel game (needs the
  optional ``open-spiel`` package: ``pip install cardenvs[openspiel]``).

Nothing here is imported by ``import cardenvs``; import the submodule you need.
"""
