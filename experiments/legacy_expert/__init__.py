"""The expert as it was before issue 30, frozen, for measurement only.

A verbatim copy of the expert's code path at commit ``db48bae`` (branch ``game-kits``):
``agents/search.py``, ``agents/knowledge.py`` and the three games' knowledge
(``agents/games/``), with only the import of ``Agent`` made absolute.  The rules cores
(``cardenvs``) are shared with the live agents.

It exists so that ``experiments/bench_expert.py`` can time the old and the new expert side
by side on the same positions, and so that strength runs can seat the old expert against
the new one (``python -m experiments.ladder_pairs --pairs expert-old:expert``, any
level name ``expert-old``: :func:`make_level`).  The old
expert's cost cannot be had from the live code with its old settings: the live rollouts,
heuristics and inference were also made cheaper (with the same decisions), so only a
frozen copy keeps what it cost.  Nothing in ``agents/`` or ``cardtable/`` imports it.
Do not edit it, except to keep it importable.
"""

from __future__ import annotations

import importlib

from agents.base import Agent

from .knowledge import GameAgents
from .search import SearchAgent

#: the level name under which the scripts seat the frozen expert
LEVEL = "expert-old"

_MODULES = {
    "line_v0": ".games.line",
    "lineit_v0": ".games.lineit",
    "rummy432_v0": ".games.rummy432",
}


def legacy_spec(env_name: str) -> GameAgents:
    """The frozen ``SPEC`` (knowledge class and search budget) of a game."""
    if env_name not in _MODULES:
        raise ValueError(f"no frozen expert for {env_name!r}; games: {', '.join(_MODULES)}")
    spec: GameAgents = importlib.import_module(_MODULES[env_name], __name__).SPEC
    return spec


def legacy_expert(env_name: str, seed: int | None = None, name: str | None = None) -> Agent:
    """The expert of ``env_name`` as it was before issue 30 (search, budget and knowledge)."""
    spec = legacy_spec(env_name)
    return SearchAgent(spec.knowledge(), seed=seed, name=name or LEVEL, **spec.expert_budget)


def make_level(env_name: str, level: str, seed: int | None = None, name: str | None = None) -> Agent:
    """:func:`agents.make_agent`, plus the level ``"expert-old"``: the frozen expert (for
    ``agents.tournament.run_matches(..., make=make_level)``)."""
    if level == LEVEL:
        return legacy_expert(env_name, seed=seed, name=name)
    from agents.ladder import make_agent

    return make_agent(env_name, level, seed=seed, name=name)
