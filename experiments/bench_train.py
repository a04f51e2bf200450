#!/usr/bin/env python3
"""Training throughput: MaskablePPO env-steps/s with 1 environment against 8.

    python experiments/bench_train.py                    # line_v0, 2 players
    python experiments/bench_train.py --env rummy432_v0 --steps 16384 --repeats 3

For each configuration — 1 env, N envs in-process (SB3 ``DummyVecEnv``), N envs in
subprocesses (``SubprocVecEnv``) — MaskablePPO learns ``--steps`` steps against random
opponents; the table reports the median env-steps/s of ``--repeats`` runs and the ratio
to one env.  The rollout length per env is ``--n-steps`` in every configuration and the
update settings are the same, so the ratio shows what batching the envs buys.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import cardenvs  # noqa: E402
from agents import (
    RandomAgent,  # noqa: E402
    sb3_speedups,  # noqa: E402
)
from cardenvs.core.wrappers import SingleAgentEnv  # noqa: E402


def make_thunk(env_name: str, players: int, seed: int):
    def thunk() -> SingleAgentEnv:
        game = cardenvs.game_class(env_name)(players)
        env = SingleAgentEnv(game, [RandomAgent(seed + i) for i in range(players - 1)], learner_seat=None)
        env.reset(seed=seed)
        return env

    return thunk


def measure(env_name: str, players: int, n_envs: int, vec: str, steps: int, n_steps: int, seed: int) -> float:
    """Env-steps/s of one MaskablePPO.learn run."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    torch.set_num_threads(1)
    sb3_speedups.enable()  # no argument validation, fast masked sampling (same distribution)
    fns = [make_thunk(env_name, players, seed * 100 + i) for i in range(n_envs)]
    venv = SubprocVecEnv(fns) if vec == "subproc" else DummyVecEnv(fns)
    model = MaskablePPO("MlpPolicy", venv, n_steps=n_steps, batch_size=n_steps * n_envs // 4 or 64,
                        n_epochs=2, seed=seed, verbose=0, policy_kwargs={"net_arch": [64, 64]})
    start = time.perf_counter()
    model.learn(total_timesteps=steps)
    elapsed = time.perf_counter() - start
    venv.close()
    return model.num_timesteps / elapsed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--env", default="line_v0", choices=list(cardenvs.ENVS))
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--n-envs", type=int, default=8)
    ap.add_argument("--steps", type=int, default=8192)
    ap.add_argument("--n-steps", type=int, default=128, help="rollout length per env")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--out", default="results/bench_train.md")
    args = ap.parse_args()
    from tqdm import tqdm

    configs = [("1 env", 1, "dummy"), (f"{args.n_envs} envs, DummyVecEnv", args.n_envs, "dummy"),
               (f"{args.n_envs} envs, SubprocVecEnv", args.n_envs, "subproc")]
    rows = []
    for label, n, vec in tqdm(configs, desc="configs"):
        runs = [measure(args.env, args.players, n, vec, args.steps, args.n_steps, r) for r in range(args.repeats)]
        rows.append((label, statistics.median(runs)))
    base = rows[0][1]
    lines = [f"MaskablePPO on {args.env} ({args.players} players), {args.steps} steps per run, "
             f"n_steps={args.n_steps} per env, median of {args.repeats}.", "",
             "| configuration | env-steps/s | x one env |", "|---|---:|---:|"]
    lines += [f"| {label} | {sps:,.0f} | {sps / base:.1f} |" for label, sps in rows]
    text = "\n".join(lines)
    print(text)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(text + "\n")


if __name__ == "__main__":
    main()
