#!/usr/bin/env python3
"""The ladder levels against OpenSpiel's IS-MCTS: a markdown table for the README.

    python -m experiments.ismcts_ladder --games 20 --workers 2
    python -m experiments.ismcts_ladder --envs line_v0 --simulations 200 --games 50

For each game, two players: every level of ``--levels`` (default random, greedy,
planner, expert) plays ``--games`` games against the ``ismcts`` agent
(:mod:`agents.players.ismcts`, ``--simulations`` per decision), on seeded deals, each deal
played twice with the seats swapped.  Scheduling and analysis are the tournament's
(:mod:`agents.evaluation.tournament`: a sole win scores 1, a shared win 1/2, with 95% Wilson
intervals).  When the ladder knows the level name (``ismcts`` or
``ismcts:<simulations>``), the tournament plays the matches itself; until then this
script builds the IS-MCTS agent with :func:`agents.players.ismcts.make_ismcts`, seeded exactly
as the tournament would.  Needs ``open-spiel`` (the ``openspiel`` extra).
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

import cardenvs
from agents.cli import HelpFormatter
from agents.evaluation.tournament import Match, MatchResult, analyse, play_match
from agents.players.base import Agent
from agents.players.ismcts import DEFAULT_BUDGET, make_ismcts, parse_level
from agents.players.ladder import make_agent
from cardenvs.core.loop import play

LEVELS = ("random", "greedy", "planner", "expert")


def ismcts_level(simulations: int | None) -> str:
    """The level name of IS-MCTS with a budget (``ismcts`` for the default one)."""
    if simulations is None or simulations == DEFAULT_BUDGET["simulations"]:
        return "ismcts"
    return f"ismcts:{simulations}"


def ladder_knows(env_name: str, level: str) -> bool:
    """Whether ``agents.players.ladder.make_agent`` builds ``level`` (the lead wired it)."""
    try:
        make_agent(env_name, level, seed=0)
    except ValueError:
        return False
    return True


def schedule(env_name: str, levels: Sequence[str], ismcts: str, games: int, seed: int) -> list[Match]:
    """``games`` matches of each level against ``ismcts``, seats swapped on each deal
    (the tournament's two-player scheme, for these pairs only)."""
    out = []
    for level in levels:
        for g in range(games):
            seats = (level, ismcts) if g % 2 == 0 else (ismcts, level)
            out.append(Match(env_name, seats, seed + g // 2))
    return out


def _agent(env_name: str, level: str, seed: int) -> Agent:
    if level.startswith("ismcts"):
        return make_ismcts(env_name, parse_level(level), seed=seed)
    return make_agent(env_name, level, seed=seed)


def play_own(match: Match) -> MatchResult:
    """:func:`agents.evaluation.tournament.play_match`, building IS-MCTS through its factory."""
    game = cardenvs.game_class(match.env_name)(len(match.seats), **dict(match.options))
    rng = np.random.default_rng(match.seed)
    players = [_agent(match.env_name, lvl, match.seed * 31 + i) for i, lvl in enumerate(match.seats)]
    state = game.new_state(rng)
    steps = play(game, state, players, rng)
    terminal = game.is_terminal(state)
    rewards = [float(r) for r in game.returns(state)] if terminal else [0.0] * len(match.seats)
    return MatchResult(match, rewards, steps, not terminal)


def run(matches: Sequence[Match], workers: int, wired: bool, desc: str) -> list[MatchResult]:
    """Play the matches in ``workers`` processes with a progress bar."""
    from tqdm import tqdm

    fn = play_match if wired else play_own
    if workers <= 1:
        return [fn(m) for m in tqdm(matches, desc=desc, unit="game")]
    with ProcessPoolExecutor(workers) as pool:
        return list(tqdm(pool.map(fn, matches), total=len(matches), desc=desc, unit="game"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=HelpFormatter)
    ap.add_argument("--envs", nargs="*", default=list(cardenvs.ENVS), choices=list(cardenvs.ENVS))
    ap.add_argument("--levels", nargs="*", default=list(LEVELS), help="ladder levels to play against ISMCTS")
    ap.add_argument("--games", type=int, default=20, help="games per pairing (seats alternate)")
    ap.add_argument("--simulations", type=int, default=None,
                    help=f"ISMCTS simulations per decision (default {DEFAULT_BUDGET['simulations']})")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--out", default=None, help="also write the table to this markdown file")
    args = ap.parse_args()

    ismcts = ismcts_level(args.simulations)
    sims = DEFAULT_BUDGET["simulations"] if args.simulations is None else args.simulations
    rows = []
    timings = []
    for env in args.envs:
        wired = ladder_knows(env, ismcts)
        matches = schedule(env, args.levels, ismcts, args.games, args.seed)
        start = time.perf_counter()
        results = run(matches, args.workers, wired, desc=f"{env} vs {ismcts}")
        took = time.perf_counter() - start
        timings.append(f"{env}: {len(matches)} games in {took:.0f} s "
                       f"({'tournament' if wired else 'own loop'}, {args.workers} workers)")
        report = analyse(results, [*args.levels, ismcts])
        for level in args.levels:
            p, n, lo, hi = report.pairwise[(level, ismcts)]
            truncated = sum(1 for r in results if r.truncated and level in r.match.seats)
            rows.append(f"| {env} | {level} | {n} | {100 * p:.0f}% [{100 * lo:.0f}, {100 * hi:.0f}] | "
                        f"{100 * (1 - p):.0f}% | {truncated} |")
    lines = [
        f"Ladder levels against OpenSpiel's ISMCTSBot ({ismcts}: {sims} simulations per decision, "
        f"rollouts of at most {DEFAULT_BUDGET['depth']} random moves valued by the game's evaluation), "
        f"2 players, {args.games} games per pairing, seats alternating on the same deals "
        "(score: 1 a sole win, 1/2 a shared win; 95% Wilson interval).",
        "",
        "| game | level | games | level's score vs ISMCTS | ISMCTS's score | truncated |",
        "|---|---|---:|---:|---:|---:|",
        *rows,
    ]
    text = "\n".join(lines)
    print(text)
    print()
    print("\n".join(timings))
    if args.out:
        Path(args.out).write_text(text + "\n")


if __name__ == "__main__":
    main()
