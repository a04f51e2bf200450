"""The players: the :class:`~agents.players.base.Agent` interface and every rung of the
difficulty ladder (random, heuristic, search, ISMCTS, trained), the per-game knowledge they
share, the numpy policies trained agents run, and the coach.

This floor imports none of :mod:`agents.evaluation`, :mod:`agents.learning` or
:mod:`agents.programs` (``tests/test_layering.py``).
"""
