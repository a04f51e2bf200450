"""The runner: every check of the contract, at every seat count, with a report."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

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
from .target import GameRef, resolve
from .trace import check_golden

#: every check of the contract, by name, in the order :func:`run_contract` runs them
CHECKS: dict[str, Callable[..., None]] = {
    "api": check_api,
    "seed": check_seed,
    "copy": check_copy,
    "json": check_json,
    "bad_input": check_bad_input,
    "global_rng": check_global_rng,
    "spec": check_spec,
    "notation": check_notation,
    "view_leak": check_view_leak,
    "draws": check_draws,
    "bounds": check_bounds,
    "golden": check_golden,
}

#: checks of the game's code rather than of play at a table: run at one seat count
ONCE = ("spec", "notation")


@dataclass(frozen=True)
class CheckResult:
    """One check at one seat count: passed, or the message of its failure."""

    check: str
    players: int
    passed: bool
    message: str = ""
    seconds: float = 0.0

    def line(self) -> str:
        """One line for a terminal: ``PASS api 2p (0.31 s)`` or ``FAIL ...: why``."""
        head = f"{'PASS' if self.passed else 'FAIL'} {self.check} {self.players}p ({self.seconds:.2f} s)"
        return head if self.passed else f"{head}: {self.message.splitlines()[0] if self.message else ''}"


@dataclass
class ContractReport:
    """What :func:`run_contract` found: one :class:`CheckResult` per check and seat count."""

    game: str
    results: list[CheckResult] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        """Whether every check passed."""
        return all(r.passed for r in self.results)

    @property
    def failures(self) -> list[CheckResult]:
        """The checks that failed."""
        return [r for r in self.results if not r.passed]

    def by_check(self) -> dict[str, bool]:
        """Each check's name: whether it passed at every seat count."""
        out: dict[str, bool] = {}
        for r in self.results:
            out[r.check] = out.get(r.check, True) and r.passed
        return out

    def __str__(self) -> str:
        verdict = "passed" if self.passed else f"{len(self.failures)} failed"
        return "\n".join(
            [*(r.line() for r in self.results), f"{self.game}: {len(self.results)} checks, {verdict}"]
        )


def run_check(
    name: str, game: GameRef, players: int, *, quick: bool = False, options: dict[str, Any] | None = None
) -> CheckResult:
    """Run one named check and say how it went (never raises for a failure)."""
    fn = CHECKS[name]
    start = time.perf_counter()
    try:
        fn(game, players, quick=quick, options=options)
    except AssertionError as err:
        return CheckResult(name, players, False, str(err) or "assertion failed", time.perf_counter() - start)
    return CheckResult(name, players, True, "", time.perf_counter() - start)


def run_contract(
    game: GameRef,
    players: int | Sequence[int] | None = None,
    quick: bool = False,
    *,
    options: dict[str, Any] | None = None,
    checks: Iterable[str] | None = None,
) -> ContractReport:
    """Run every check (or those named in ``checks``) of the contract on ``game`` (an
    environment name, ``"module:attr"`` or a factory) at every seat count it allows (or
    ``players``: one count or several), under the game ``options``.  ``quick`` plays
    fewer steps.  :data:`ONCE` checks run at the first seat count only."""
    target = resolve(game, options)
    counts = (
        target.seat_counts() if players is None else [players] if isinstance(players, int) else list(players)
    )
    names = list(CHECKS) if checks is None else list(checks)
    unknown = sorted(set(names) - set(CHECKS))
    if unknown:
        raise ValueError(f"unknown check(s) {', '.join(unknown)}; the checks are {', '.join(CHECKS)}")
    report = ContractReport(target.name)
    for n in counts:
        for name in names:
            if name in ONCE and n != counts[0]:
                continue
            report.results.append(run_check(name, target, n, quick=quick))
    return report
