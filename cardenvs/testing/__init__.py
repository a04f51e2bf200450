"""The contract every game keeps, as a kit: named checks, a runner and a command line.

Shipped in the package so that a game from another distribution (a plugin, see
:mod:`cardenvs.registry`) is held to exactly what the library's own games are::

    from cardenvs.testing import run_contract
    report = run_contract("line_v0", quick=True)   # every check, every seat count
    assert report.passed, report

    python -m cardenvs.testing mygame_v0 --quick         # a registered name
    python -m cardenvs.testing mypkg.mygame:env --players 2

Each check is a plain function ``check_xxx(game, players, *, quick=False, seed=0,
options=None)`` that raises ``AssertionError`` saying what broke; ``game`` is a
registered environment name, ``"module:attr"`` or a factory of environments built on
:class:`cardenvs.core.env.CardGameEnv`:

=================== ==========================================================================
check               what it holds the game to
=================== ==========================================================================
``api``             PettingZoo's ``api_test``
``seed``            PettingZoo's ``seed_test``; ``reset(seed)`` deals and seeds the spaces alike
``copy``            pickle and deepcopy at any point play on exactly as the original
``json``            ``state_json`` after any play loads back (object or text) and plays on alike
``bad_input``       bad actions (illegal, out of range, wrong type) and malformed positions are
                    refused with a ``ValueError`` and change nothing, the generator included
``global_rng``      numpy's global generator and ``random`` are never drawn from nor read
``spec``            the environment module's docstring tables match the encoder and actions
``notation``        every action id reads back from its move text; bad text is refused
``view_leak``       re-dealing what a seat cannot see (``sample_state``, ``redraw_unseen``)
                    changes none of its observations
``draws``           draws come from the end of the face-down cards ``UNSEEN_TOP`` names
``bounds``          every observation lies in its space; masks are the legal actions
``golden``          a seeded playthrough records the same trace twice (:mod:`.trace`)
=================== ==========================================================================

Importing this package needs numpy, gymnasium and pettingzoo only (no pytest, no
hypothesis).
"""

from __future__ import annotations

from .checks import (
    check_api,
    check_bad_input,
    check_bounds,
    check_copy,
    check_draws,
    check_global_rng,
    check_json,
    check_notation,
    check_seed,
    check_spec,
    check_view_leak,
)
from .runner import CHECKS, CheckResult, ContractReport, run_check, run_contract
from .target import GameRef, Target, resolve
from .trace import (
    check_golden,
    check_trace,
    compare_traces,
    load_trace,
    record_trace,
    save_trace,
    trace_lines,
)

__all__ = [
    "CHECKS",
    "CheckResult",
    "ContractReport",
    "GameRef",
    "Target",
    "check_api",
    "check_bad_input",
    "check_bounds",
    "check_copy",
    "check_draws",
    "check_global_rng",
    "check_golden",
    "check_json",
    "check_notation",
    "check_seed",
    "check_spec",
    "check_trace",
    "check_view_leak",
    "compare_traces",
    "load_trace",
    "record_trace",
    "resolve",
    "run_check",
    "run_contract",
    "save_trace",
    "trace_lines",
]
