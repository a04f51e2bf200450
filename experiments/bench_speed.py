#!/usr/bin/env python3
"""Speed of the cardenvs games: agent-steps/s through the AEC loop and raw core moves/s.

    python experiments/bench_speed.py                       # every game, 2 and 4 players
    python experiments/bench_speed.py --envs line_v0 --players 2 3 4 --seconds 2

AEC loop: ``env.last()`` (observation and mask every step), an action drawn with a numpy
generator over ``np.flatnonzero(mask)``, ``env.step``; games restart as they end.
Raw core: ``game.legal_actions`` + ``game.apply`` with no observation.
Each figure is the median of ``--repeats`` timed runs; the table is printed as markdown
and written to ``results/bench_speed.md``.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import cardenvs  # noqa: E402


def aec_loop(env_name: str, players: int, seconds: float, seed: int) -> tuple[float, float, float]:
    """(agent-steps/s, games/s, steps per game) of random masked play through the AEC loop."""
    env = cardenvs.make(env_name, num_players=players)
    rng = np.random.default_rng(seed)
    steps = games = 0
    start = time.perf_counter()
    deadline = start + seconds
    game_seed = seed
    while True:
        env.reset(seed=game_seed)
        game_seed += 1
        for _agent in env.agent_iter():
            obs, _r, term, trunc, _i = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(legal.size)]))
            steps += 1
        games += 1
        if time.perf_counter() >= deadline:
            break
    elapsed = time.perf_counter() - start
    return steps / elapsed, games / elapsed, steps / games


def raw_core(env_name: str, players: int, seconds: float, seed: int) -> float:
    """Moves/s of legal_actions + apply on the rules core alone."""
    game = cardenvs.game_class(env_name)(players)
    rng = np.random.default_rng(seed)
    moves = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = game.new_state(rng)
        while not game.is_terminal(state) and not game.is_truncated(state):
            legal = game.legal_actions(state)
            game.apply(state, legal[int(rng.integers(len(legal)))], rng)
            moves += 1
    return moves / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--envs", nargs="*", default=list(cardenvs.ENVS))
    ap.add_argument("--players", nargs="*", type=int, default=[2, 4])
    ap.add_argument("--seconds", type=float, default=1.0, help="length of one timed run")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--out", default="results/bench_speed.md")
    args = ap.parse_args()
    try:
        from tqdm import tqdm
    except ImportError:  # pragma: no cover - tqdm comes with the dev extra
        def tqdm(x, **_k):  # type: ignore[no-redef]
            return x

    jobs = [(e, p) for e in args.envs for p in args.players]
    rows = []
    for env_name, players in tqdm(jobs, desc="benchmark", unit="config"):
        game_cls = cardenvs.game_class(env_name)
        if not game_cls.min_players <= players <= game_cls.max_players:
            continue
        aec = [aec_loop(env_name, players, args.seconds, 1000 * r) for r in range(args.repeats)]
        raw = [raw_core(env_name, players, args.seconds, 1000 * r) for r in range(args.repeats)]
        rows.append(
            (
                env_name,
                players,
                statistics.median(a[0] for a in aec),
                statistics.median(a[1] for a in aec),
                statistics.median(a[2] for a in aec),
                statistics.median(raw),
            )
        )
    lines = [
        f"Python {platform.python_version()}, numpy {np.__version__}, {platform.machine()}; "
        f"median of {args.repeats} runs of {args.seconds:g} s each.",
        "",
        "| env | players | AEC agent-steps/s | games/s | steps/game | raw core moves/s |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for env_name, p, sps, gps, spg, raw in rows:
        lines.append(f"| {env_name} | {p} | {sps:,.0f} | {gps:,.1f} | {spg:,.1f} | {raw:,.0f} |")
    table = "\n".join(lines)
    print(table)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(table + "\n")
    print(f"\nwritten to {out}")


if __name__ == "__main__":
    main()
