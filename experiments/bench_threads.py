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
import statistics
import time

import agents
import cardenvs
from agents.cli import HelpFormatter
from agents.evaluation.threads import VARIABLE


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


def main(argv: list[str] | None = None) -> list[dict[str, float | str | int]]:
    """Time every game and worker count and print the table (returned as rows)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=HelpFormatter)
    ap.add_argument("--envs", default=",".join(cardenvs.ENVS), help="comma-separated environment names")
    ap.add_argument("--pair", default="greedy:planner", help="the two levels, LEVEL:LEVEL")
    ap.add_argument("--games", type=int, default=60, help="games per timing")
    ap.add_argument("--workers", default="1,2", help="comma-separated worker counts")
    ap.add_argument("--repeats", type=int, default=3, help="timings per figure (the median is reported)")
    args = ap.parse_args(argv)
    a, sep, b = args.pair.partition(":")
    if not sep or not a or not b:
        ap.error(f"--pair is LEVEL:LEVEL, got {args.pair!r}")
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
            free, one, ratios = [], [], []
            for r in range(args.repeats):
                order = (False, True) if r % 2 == 0 else (True, False)
                t = {lim: time_run(env, (a, b), args.games, w, lim) for lim in order}
                if abs(t[False][1] - t[True][1]) > 1e-6:  # float32 sums in another order: ~1e-8
                    raise AssertionError(f"{env}: the thread limit changed a score "
                                         f"({t[False][1]} != {t[True][1]})")
                free.append(t[False][0])
                one.append(t[True][0])
                ratios.append(t[False][0] / t[True][0])
            row: dict[str, float | str | int] = {"env": env, "workers": w, "free": statistics.median(free),
                                                 "one": statistics.median(one),
                                                 "ratio": statistics.median(ratios)}
            rows.append(row)
            print(f"| {env} | {w} | {row['free']:.2f} | {row['one']:.2f} | {row['ratio']:.2f}x |", flush=True)
    return rows


if __name__ == "__main__":
    main()
