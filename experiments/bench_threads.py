#!/usr/bin/env python3
"""What one BLAS thread a process buys the evaluation games: the same seeded
``agents.evaluate`` runs with the library's limit and with numpy's default threads, side by side.

    python -m experiments.bench_threads
    python -m experiments.bench_threads --envs line_v0 --games 120 --repeats 5

For each game and ``--workers`` count, ``--games`` games of ``--pair`` (default greedy
against the planner, with control variates: the value net's small products are where the
threads show) through :func:`agents.evaluate`, once with the play loops' one BLAS thread
(:mod:`agents.evaluation.threads`, the default) and once with ``CARDENVS_BLAS_THREADS=none``
(numpy's own threads, one per core); each repeat times both back to back, in alternating
order.  A figure is the median over the repeats of the wall seconds; the ratio is the median
of the ratios within a repeat.  The scores agree either way to 1e-6 (checked; the value
net's float32 sums, split over threads or not, differ in the eighth digit).
"""

from __future__ import annotations

import os

os.environ.pop("OPENBLAS_NUM_THREADS", None)  # measure numpy's default beside the limit

import argparse
import time
from collections.abc import Callable

import agents
import cardenvs
from agents.cli import HelpFormatter
from agents.evaluation.threads import VARIABLE
from experiments.reporting import level_pair, side_by_side


def time_run(env: str, pair: tuple[str, str], games: int, workers: int, limit: bool) -> tuple[float, float]:
    """Wall seconds of one seeded evaluation, and its first opponent's reduced share."""
    old = os.environ.get(VARIABLE)
    if limit:
        os.environ.pop(VARIABLE, None)
    else:
        os.environ[VARIABLE] = "none"
    try:
        start = time.perf_counter()
        res = agents.evaluate(pair[0], env, against=[pair[1]], games=games, seed=0, workers=workers,
                              progress=False, verbose=False)
        return time.perf_counter() - start, res.scores[pair[1]].share
    finally:
        if old is None:
            os.environ.pop(VARIABLE, None)
        else:
            os.environ[VARIABLE] = old


def _timer(env: str, pair: tuple[str, str], games: int, workers: int) -> Callable[[bool], float]:
    """``time(free)``: the wall seconds of one run, with numpy's own threads if ``free``
    else the library's limit; it checks that the two give the same score."""
    shares: dict[bool, float] = {}

    def run(free: bool) -> float:
        seconds, shares[free] = time_run(env, pair, games, workers, limit=not free)
        if len(shares) == 2 and abs(shares[False] - shares[True]) > 1e-6:  # float32 sums reordered: ~1e-8
            raise AssertionError(f"{env}: the thread limit changed a score "
                                 f"({shares[True]} != {shares[False]})")
        return seconds

    return run


def main(argv: list[str] | None = None) -> list[dict[str, float | str | int]]:
    """Time every game and worker count and print the table (returned as rows)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=HelpFormatter)
    ap.add_argument("--envs", default=",".join(cardenvs.ENVS), help="comma-separated environment names")
    ap.add_argument("--pair", default="greedy:planner", help="the two levels, LEVEL:LEVEL")
    ap.add_argument("--games", type=int, default=60, help="games per timing")
    ap.add_argument("--workers", default="1,2", help="comma-separated worker counts")
    ap.add_argument("--repeats", type=int, default=3, help="timings per figure (the median is reported)")
    args = ap.parse_args(argv)
    a, b = level_pair(ap, args.pair)
    if args.games < 1 or args.repeats < 1:
        ap.error("--games and --repeats are at least 1")
    workers = [int(w) for w in args.workers.split(",")]
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"{args.games} games of {a} against {b} per timing (agents.evaluate, control variates), median of "
          f"{args.repeats}; {os.cpu_count()} cores, load {load:.1f} at the start\n")
    print("| game | workers | s, numpy's threads | s, one BLAS thread | speed-up |")
    print("|---|---:|---:|---:|---:|")
    rows: list[dict[str, float | str | int]] = []
    for env in args.envs.split(","):
        for w in workers:
            one_thread, free, speedup = side_by_side(_timer(env, (a, b), args.games, w), args.repeats)
            row: dict[str, float | str | int] = {"env": env, "workers": w, "free": free, "one": one_thread,
                                                 "ratio": speedup}
            rows.append(row)
            print(f"| {env} | {w} | {row['free']:.2f} | {row['one']:.2f} | {row['ratio']:.2f}x |", flush=True)
    return rows


if __name__ == "__main__":
    main()
