#!/usr/bin/env python3
"""What coupled draws cost: the same seeded games with and without them, side by side.

    python -m experiments.bench_coupling
    python -m experiments.bench_coupling --envs line_v0 --games 300 --repeats 5

For each game, ``--games`` games of ``--pair`` (default greedy against the planner, the
cheapest agents that play sensibly, where the cost shows most) at 2 players, dealt from
seed 0, played through the one play loop plainly and with the coupled draws' hook
(``agents.measure.coupling``); each repeat times both back to back, in alternating order.
A figure is the median over the repeats of the CPU ms per game; the ratio is the median of
the ratios within a repeat (a drifting load disturbs it far less).
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

import cardenvs
from agents import make_agent
from agents.cli import HelpFormatter
from agents.measure.coupling import coupled_draws
from cardenvs.core.loop import play
from experiments.reporting import level_pair, side_by_side


def time_games(env: str, pair: tuple[str, str], games: int, coupled: bool) -> float:
    """CPU ms per game of ``games`` seeded games of ``pair`` (plain or coupled)."""
    game = cardenvs.game_class(env)(2)
    start = time.process_time()
    for seed in range(games):
        rng = np.random.default_rng(seed)
        state = game.new_state(rng)
        players = [make_agent(env, level, seed=seed * 31 + i) for i, level in enumerate(pair)]
        play(game, state, players, rng, on_move=coupled_draws(game, seed) if coupled else None)
    return 1000 * (time.process_time() - start) / games


def main(argv: list[str] | None = None) -> list[dict[str, float | str]]:
    """Time every game and print the table (returned as rows)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=HelpFormatter)
    ap.add_argument("--envs", default=",".join(cardenvs.ENVS), help="comma-separated environment names")
    ap.add_argument("--pair", default="greedy:planner", help="the two levels, LEVEL:LEVEL")
    ap.add_argument("--games", type=int, default=150, help="games per timing")
    ap.add_argument("--repeats", type=int, default=3, help="timings per figure (the median is reported)")
    args = ap.parse_args(argv)
    a, b = level_pair(ap, args.pair)
    if args.games < 1 or args.repeats < 1:
        ap.error("--games and --repeats are at least 1")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"{args.games} games of {a} against {b} per timing, median of {args.repeats}; "
          f"load {load:.1f} at the start\n")
    print("| game | ms plain | ms coupled | coupled / plain |")
    print("|---|---:|---:|---:|")
    rows: list[dict[str, float | str]] = []
    for env in args.envs.split(","):
        plain, coupled, ratio = side_by_side(lambda c: time_games(env, (a, b), args.games, c),  # noqa: B023
                                             args.repeats)
        row: dict[str, float | str] = {"env": env, "plain": plain, "coupled": coupled, "ratio": ratio}
        rows.append(row)
        print(f"| {env} | {row['plain']:.2f} | {row['coupled']:.2f} | {row['ratio']:.2f}x |", flush=True)
    return rows


if __name__ == "__main__":
    main()
