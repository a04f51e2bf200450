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

A level may be ``expert-old``: the expert as it was before issue 30, frozen in
:mod:`experiments.legacy_expert` (``--pairs expert-old:expert`` measures the new expert
against it).

The table prints the share with its 95% Wilson interval and whether it is above the fair
share by the interval (``separated``); ``--out`` writes it as markdown with the command,
the date and the wall time per pair.  Games run in ``--workers`` processes.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one BLAS thread per process (see agents.scorer.dense)

import argparse
import datetime
import time
from dataclasses import dataclass
from pathlib import Path

import agents
import cardenvs
from agents.cli import HelpFormatter
from agents.tournament import Match, points, run_matches, wilson
from experiments.legacy_expert import LEVEL as LEGACY
from experiments.legacy_expert import make_level
from experiments.reporting import command_line, machine

#: the machine, read when the script starts (the load before any game is played)
MACHINE = machine()


@dataclass
class PairResult:
    """The upper level's share against the lower one over ``games`` games."""

    lower: str
    upper: str
    games: int
    share: float
    low: float
    high: float
    shared_wins: int
    seconds: float

    def separated(self, players: int) -> bool:
        """Whether the interval lies above the fair share ``1 / players``."""
        return self.low > 1 / players


def matches(env: str, lower: str, upper: str, players: int, games: int, seed: int) -> list[Match]:
    """``games`` games: the upper level at seat ``g % players``, deal ``seed + g // players``."""
    out = []
    for g in range(games):
        seats = [lower] * players
        seats[g % players] = upper
        out.append(Match(env, tuple(seats), seed + g // players))
    return out


def play_pair(env: str, lower: str, upper: str, players: int, games: int, seed: int,
              workers: int) -> PairResult:
    """Play one adjacent pair and score the upper level."""
    start = time.time()
    make = make_level if LEGACY in (lower, upper) else None
    results = run_matches(matches(env, lower, upper, players, games, seed), workers=workers, progress=True,
                          make=make)
    total, shared = 0.0, 0
    for g, res in enumerate(results):
        pts = points(res.rewards)
        shared += sum(p > 0 for p in pts) > 1
        total += pts[g % players]
    share = total / len(results)
    lo, hi = wilson(share, len(results))
    return PairResult(lower, upper, len(results), share, lo, hi, shared, time.time() - start)


def markdown(env: str, players: int, rows: list[PairResult], command: str) -> str:
    """The results as a markdown table with how they were made."""
    fair = 1 / players
    lines = [f"# {env}, {players} players: adjacent levels", "",
             f"One seat the upper level, {players - 1} the lower; fair share {fair:.0%}. "
             "Share = the upper level's points per game (a shared win split), 95% Wilson interval.", "",
             "| lower → upper | games | upper's share [95%] | shared wins | separated | wall time |",
             "|---|---:|---:|---:|---|---:|"]
    for r in rows:
        sep = "yes" if r.separated(players) else "**no**"
        lines.append(f"| {r.lower} → {r.upper} | {r.games:,} | {r.share:.1%} [{r.low:.1%}, {r.high:.1%}] | "
                     f"{r.shared_wins} | {sep} | {r.seconds / 60:.1f} min |")
    lines += ["", f"Command: `{command}`", "",
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
    ap.add_argument("--out", default=None, help="write the markdown table to this file")
    args = ap.parse_args(argv)
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
        r = play_pair(args.env, lower, upper, args.players, args.games, args.seed, args.workers)
        rows.append(r)
        # the exact points, so that runs on other deals can be pooled without rounding
        print(f"{lower} -> {upper}: {r.share:.1%} [{r.low:.1%}, {r.high:.1%}] over {r.games} "
              f"({r.share * r.games:.2f} points; {r.seconds / 60:.1f} min)", flush=True)
    text = markdown(args.env, args.players, rows, command_line("experiments.ladder_pairs", argv))
    print(text)
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(text)
    return rows


if __name__ == "__main__":
    main()
