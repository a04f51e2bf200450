"""Measuring players: :func:`~agents.evaluation.evaluator.evaluate` against the ladder
(``python -m agents.evaluation``, ``cardenvs-evaluate``), the arena that plays whole games,
tournaments, estimates with confidence intervals, best responses (exploitability) and the
Ray backend.  It imports no :mod:`agents.programs`.
"""
