"""The console scripts of the agents package, started from ``cardenvs``.

``cardenvs-play``, ``cardenvs-evaluate`` and ``cardenvs-demo`` run ``agents.programs.play``,
``agents.evaluation.evaluator`` and ``agents.programs.demo``.  Their entry points are these functions, not
the ``agents`` modules themselves, so that when a folder or module named ``agents``
shadows the package the command says so and how to fix it (and exits with status 2)
instead of failing with ``No module named 'agents.programs.play'`` before any of the project's
code runs.  Like the Gymnasium ids, they import ``agents`` by name, when run.
"""

from __future__ import annotations

import sys

from ._agents_import import AgentsShadowedError, load_agents

__all__ = ["demo", "evaluate", "play", "run_agents_main"]


def run_agents_main(submodule: str, command: str, argv: list[str] | None = None) -> int:
    """Run ``agents.<submodule>.main(argv)``; its exit status (0 when it returns none).

    A shadowed ``agents`` package is reported on stderr as an error of ``command``, with
    status 2.
    """
    try:
        main = load_agents(submodule, "main")
    except AgentsShadowedError as err:
        print(f"{command}: error: {err}", file=sys.stderr)
        return 2
    status = main(argv)
    return 0 if status is None else int(status)


def play(argv: list[str] | None = None) -> int:
    """``cardenvs-play``: a game in the terminal against computer players (``agents.programs.play``)."""
    return run_agents_main("programs.play", "cardenvs-play", argv)


def evaluate(argv: list[str] | None = None) -> int:
    """``cardenvs-evaluate``: a policy against the ladder (``agents.evaluation.evaluator``)."""
    return run_agents_main("evaluation.evaluator", "cardenvs-evaluate", argv)


def demo(argv: list[str] | None = None) -> int:
    """``cardenvs-demo``: computer players play a rendered game (``agents.programs.demo``)."""
    return run_agents_main("programs.demo", "cardenvs-demo", argv)
