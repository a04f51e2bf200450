#!/usr/bin/env python3
"""Decision time per move of every ladder level and of the coach, per game.

    python -m experiments.bench_agents                 # 2 players, every game
    python -m experiments.bench_agents --players 4 --games 3

Each level plays ``--games`` seeded games against itself through the play loop; every
decision (``choose(game, view, legal)``) is timed (process CPU time, robust on a shared
machine). The coach's advice is timed on the positions of those games, and the row
``view`` times computing a player's View, which the loop does once per decision for
every agent. Prints a markdown table (mean, median, 95th percentile and
maximum ms per decision) and writes it to ``results/bench_agents.md``.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

import numpy as np

import agents
import cardenvs
from agents.cli import HelpFormatter
from cardenvs.core.game import Game
from cardenvs.core.loop import Turn, play

LIMITS_MS = {"view": 0.1, "random": 1.0, "greedy": 1.0, "planner": 1.0, "trained": 10.0, "expert": 200.0,
             "coach": 100.0}


class Timed:
    """A player that times each decision of the agent it wraps (process CPU time, ms)."""

    def __init__(self, agent: agents.Agent, times: list[float]) -> None:
        self.agent, self.times = agent, times

    def choose(self, game: Game[Any, Any], view: Any, legal: list[int]) -> int:
        t0 = time.process_time()
        a = self.agent.choose(game, view, legal)
        self.times.append((time.process_time() - t0) * 1e3)
        return a


def time_level(env_name: str, level: str, players: int, games: int, coach: agents.Coach | None,
               max_moves: int) -> tuple[list[float], list[float], list[float]]:
    """Milliseconds per decision of ``level``, of the coach on the same positions, and of
    computing the player's View (what the play loop hands every agent)."""
    game = cardenvs.game_class(env_name)(players)
    times: list[float] = []
    coach_times: list[float] = []
    view_times: list[float] = []

    def hook(turn: Turn) -> None:
        t0 = time.process_time()
        game.view(turn.state, turn.seat)
        view_times.append((time.process_time() - t0) * 1e3)
        if coach is not None:
            t0 = time.process_time()
            coach.advise_view(game, turn.view, turn.legal)
            coach_times.append((time.process_time() - t0) * 1e3)

    for g in range(games):
        rng = np.random.default_rng(g)
        seats = [Timed(agents.make_agent(env_name, level, seed=g * 10 + i), times) for i in range(players)]
        play(game, game.new_state(rng), seats, rng, on_move=hook, max_moves=max_moves)
    return times, coach_times, view_times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=HelpFormatter)
    ap.add_argument("--envs", nargs="*", default=list(cardenvs.ENVS))
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--max-moves", type=int, default=300, help="decisions timed per game at most")
    ap.add_argument("--out", default=str(Path(__file__).resolve().parents[1] / "results" / "bench_agents.md"))
    args = ap.parse_args()
    from tqdm import tqdm

    rows: list[tuple[str, str, np.ndarray]] = []
    jobs = [(e, lvl) for e in args.envs for lvl in agents.playable_levels(e)]
    for env_name, level in tqdm(jobs, desc="levels"):
        coach = agents.Coach(env_name) if level == "planner" else None
        times, coach_times, view_times = time_level(env_name, level, args.players, args.games, coach,
                                                    args.max_moves)
        if level == "random":
            rows.append((env_name, "view", np.array(view_times)))
        rows.append((env_name, level, np.array(times)))
        if coach_times:
            rows.append((env_name, "coach", np.array(coach_times)))
    lines = [f"{args.players} players, {args.games} self-play games per level "
             "(process CPU time, ms per decision).", "",
             "| env | level | decisions | mean | median | p95 | max | target |",
             "|---|---|---:|---:|---:|---:|---:|---|"]
    for env_name, level, t in rows:
        lim = LIMITS_MS[level]
        ok = "ok" if t.mean() < lim else "over"
        lines.append(f"| {env_name} | {level} | {t.size} | {t.mean():.2f} | {np.median(t):.2f} | "
                     f"{np.percentile(t, 95):.2f} | {t.max():.2f} | mean < {lim:g} ms: {ok} |")
    text = "\n".join(lines)
    print(text)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(text + "\n")


if __name__ == "__main__":
    main()
