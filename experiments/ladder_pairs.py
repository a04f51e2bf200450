#!/usr/bin/env python3
"""Is each difficulty level stronger than the one below it?  Adjacent pairs, any seat count.

    python -m experiments.ladder_pairs --env lineit_v0 --players 2 --games 400
    python -m experiments.ladder_pairs --env line_v0 --players 3 --games 300 \\
        --pairs greedy:trained trained:planner

For each pair of neighbouring levels (``agents.levels``, weakest first, or ``--pairs``),
one seat is the upper level and every other seat the lower one; the upper seat moves
round the table over the same deal (``players`` games per deal), so position and cards
are shared out evenly.  The upper level's *share* is its points per game, a win 1 and a
win shared by k players 1/k; a fair share is 1/players.  With 2 players that is the
usual head-to-head share (a draw half a point each).

A level may be ``expert-old``: the expert as it was before issue 30, played from that
commit's own code (:mod:`experiments.frozen`; ``--pairs expert-old:expert`` measures the new
expert against it).

The share is measured as ``agents.evaluate`` measures it (:mod:`agents.evaluation.estimate`): the
games of a deal are scored together (a Student interval over deals) and, unless
``--no-control-variates``, each game's points less its luck of the cards (AIVAT-style
chance corrections, :mod:`agents.measure`; unbiased); the plain share (points as they
fell, on the same games) stands beside it with the variance ratio.  The table says
whether the reported interval is above the fair share (``separated``); ``--out`` writes
it as markdown with the command, the date and the wall time per pair.  Games run in
``--workers`` processes, or on Ray (``--backend ray``, ``--ray-address auto``), with the
same results.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one BLAS thread a process (players.scorer.dense)

import argparse
import datetime
import math
import time
from dataclasses import dataclass
from pathlib import Path

import agents
import cardenvs
from agents.cli import HelpFormatter
from agents.evaluation.estimate import Estimate, estimate
from agents.evaluation.ray_backend import add_backend_arguments, backend_of
from agents.evaluation.tournament import Match, cpu_overhead, full_rotations, points, run_matches
from experiments.frozen import LEVEL as LEGACY
from experiments.frozen import make_level
from experiments.reporting import command_line, machine

#: the machine, read when the script starts (the load before any game is played)
MACHINE = machine()


@dataclass
class PairResult:
    """The upper level's share against the lower one over ``games`` games: the reported
    figure (``share``, ``low``, ``high``) and the whole :class:`~agents.evaluation.estimate.Estimate`."""

    lower: str
    upper: str
    games: int
    share: float
    low: float
    high: float
    shared_wins: int
    seconds: float
    est: Estimate | None = None
    #: the games' CPU with the control variates over their CPU without (1.0 without them)
    overhead: float = 1.0

    def separated(self, players: int) -> bool:
        """Whether the interval lies above the fair share ``1 / players``."""
        return self.low > 1 / players


def matches(env: str, lower: str, upper: str, players: int, games: int, seed: int,
            control_variates: bool = False, coupled_draws: bool = False) -> list[Match]:
    """``games`` games: the upper level at seat ``g % players``, deal ``seed + g // players``
    (``coupled_draws``: :attr:`agents.evaluation.tournament.Match.coupled_draws`)."""
    out = []
    for g in range(games):
        seats = [lower] * players
        seats[g % players] = upper
        out.append(Match(env, tuple(seats), seed + g // players, control_variates=control_variates,
                         deal_term=not full_rotations(g, players, games), coupled_draws=coupled_draws))
    return out


def play_pair(env: str, lower: str, upper: str, players: int, games: int, seed: int,
              workers: int, control_variates: bool = True, backend: str = "local",
              ray_address: str | None = None, coupled_draws: bool = False) -> PairResult:
    """Play one adjacent pair and score the upper level (``backend``, ``ray_address``:
    where the games run, as for :func:`agents.evaluation.tournament.run_matches`)."""
    start = time.time()
    make = make_level if LEGACY in (lower, upper) else None
    results = run_matches(matches(env, lower, upper, players, games, seed, control_variates, coupled_draws),
                          workers=workers, progress=True, make=make, backend=backend, ray_address=ray_address)
    shared = 0
    records = []
    for g, res in enumerate(results):
        pts = points(res.rewards)
        shared += sum(p > 0 for p in pts) > 1
        corr = None if res.corrections is None else res.corrections[g % players]
        records.append((res.match.seed, pts[g % players], corr))
    est = estimate(records)
    overhead = cpu_overhead(math.fsum(r.seconds for r in results),
                            math.fsum(r.correction_seconds for r in results))
    return PairResult(lower, upper, len(results), est.share, est.low, est.high, shared, time.time() - start,
                      est, overhead)


def markdown(env: str, players: int, rows: list[PairResult], command: str, seed: int = 0,
             coupled_draws: bool = False) -> str:
    """The results as a markdown table with how they were made."""
    fair = 1 / players
    coupled = " (draws coupled across the rotations)" if coupled_draws else ""
    lines = [f"# {env}, {players} players: adjacent levels", "",
             f"One seat the upper level, {players - 1} the lower, each deal under every rotation{coupled}; "
             f"fair share {fair:.0%}. Share = the upper level's points per game (a shared win split) less "
             "the luck of the cards where control variates were on (unbiased); plain = the points as they "
             "fell on the same games; 95% Student intervals over deals.", "",
             "| lower → upper | games | upper's share [95%] | plain [95%] | variance ratio "
             "| CPU, corrected / plain | shared wins | separated | wall time |",
             "|---|---:|---:|---:|---:|---:|---:|---|---:|"]
    for r in rows:
        sep = "yes" if r.separated(players) else "**no**"
        e = r.est
        plain = "" if e is None else f"{e.plain_share:.1%} [{e.plain_low:.1%}, {e.plain_high:.1%}]"
        ratio = "" if r.est is None else f"{r.est.variance_ratio:.2f}"
        lines.append(f"| {r.lower} → {r.upper} | {r.games:,} | {r.share:.1%} [{r.low:.1%}, {r.high:.1%}] | "
                     f"{plain} | {ratio} | {r.overhead:.1f}x | {r.shared_wins} | {sep} | "
                     f"{r.seconds / 60:.1f} min |")
    lines += ["", f"Command: `{command}`", "", f"Deals from seed {seed} (deal `d` is seed `{seed} + d`).", "",
              f"Measured {datetime.date.today().isoformat()} on {MACHINE}."]
    return "\n".join(lines) + "\n"


def split_pair(text: str) -> tuple[str, str] | None:
    """``"LOWER:UPPER"`` as two level names, where a level may be ``policy:FILE.npz``."""
    parts: list[str] = []
    for token in text.split(":"):
        if parts and parts[-1] == "policy":
            parts[-1] += ":" + token
        else:
            parts.append(token)
    if len(parts) != 2 or not all(parts) or "policy" in parts:
        return None
    return parts[0], parts[1]


def main(argv: list[str] | None = None) -> list[PairResult]:
    """Measure the pairs the command line names and print (and write) the table."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=HelpFormatter)
    ap.add_argument("--env", default="lineit_v0", choices=list(cardenvs.ENVS))
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=400, help="games per pair")
    ap.add_argument("--pairs", nargs="*", default=None, metavar="LOWER:UPPER",
                    help="pairs to play (default: every neighbouring pair of agents.levels)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=1)
    add_backend_arguments(ap)
    ap.add_argument("--out", default=None, help="write the markdown table to this file")
    ap.add_argument("--no-control-variates", action="store_true",
                    help="the plain share only (points as they fell)")
    ap.add_argument("--coupled-draws", action="store_true",
                    help="couple the draws across each deal's rotations (agents.measure.coupling)")
    args = ap.parse_args(argv)
    backend, address = backend_of(ap, args)
    cardenvs.game_class(args.env)(args.players)  # a clear error for a bad seat count
    if args.pairs:
        pairs = []
        for p in args.pairs:
            pair = split_pair(p)
            if pair is None:
                ap.error(f"a pair is LOWER:UPPER, e.g. greedy:planner or planner:policy:FILE.npz; got {p!r}")
            pairs.append(pair)
    else:
        levels = agents.levels(args.env)
        pairs = list(zip(levels, levels[1:]))
    rows = []
    for lower, upper in pairs:
        r = play_pair(args.env, lower, upper, args.players, args.games, args.seed, args.workers,
                      control_variates=not args.no_control_variates, backend=backend, ray_address=address,
                      coupled_draws=args.coupled_draws)
        rows.append(r)
        # the exact points, so that runs on other deals can be pooled without rounding
        plain = r.est.plain_share if r.est is not None else r.share
        print(f"{lower} -> {upper}: {r.share:.1%} [{r.low:.1%}, {r.high:.1%}] over {r.games} "
              f"(plain {plain * r.games:.2f} points; {r.seconds / 60:.1f} min)", flush=True)
    text = markdown(args.env, args.players, rows, command_line("experiments.ladder_pairs", argv), args.seed,
                    args.coupled_draws)
    print(text)
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(text)
    return rows


if __name__ == "__main__":
    main()
