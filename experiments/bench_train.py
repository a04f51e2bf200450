#!/usr/bin/env python3
"""Training throughput: MaskablePPO env-steps/s with 1 environment against 8.

    python -m experiments.bench_train                          # all games, 2 players
    python -m experiments.bench_train --envs line_v0 --steps 16384 --repeats 5

Configurations, each run in a fresh subprocess (the speed-ups patch sb3-contrib
globally), all against random opponents with the same PPO settings (``--n-steps`` per
env, 4 minibatches per epoch, 2 epochs, a 64x64 network, one torch thread):

* ``stock, 1 env`` — what a user gets first: ``MaskablePPO("MlpPolicy", DummyVecEnv([env]))``;
* ``stock, 8 envs`` — the same with ``DummyVecEnv`` over 8 copies;
* ``fast, 1 env`` / ``fast, 8 envs`` — the batched path: ``cardenvs.vector.MaskedVecEnv``,
  ``agents.learning.sparse_policy.fast_ppo_kwargs()`` (sparse masked head, boolean mask
  buffer, fused Adam) and ``agents.learning.sb3_speedups``;
* ``fast, 8 envs, subprocess`` — the same policy over SB3's ``SubprocVecEnv``.

In-process runs are timed in process CPU time (steady on a shared machine); the
subprocess run can only be timed in wall time.  The table gives the median of
``--repeats`` runs and the ratios to both one-env runs.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from agents.cli import HelpFormatter  # noqa: E402

CONFIGS = [  # label, n_envs, fast, vec
    ("stock, 1 env", 1, False, "dummy"),
    ("stock, 8 envs", 8, False, "dummy"),
    ("fast, 1 env", 1, True, "inprocess"),
    ("fast, 8 envs", 8, True, "inprocess"),
    ("fast, 8 envs, subprocess", 8, True, "subproc"),
]


def measure(env_name: str, players: int, n_envs: int, fast: bool, vec: str, steps: int, n_steps: int,
            seed: int) -> dict[str, float]:
    """Env-steps/s of one ``MaskablePPO.learn`` run (CPU and wall time)."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    from agents import RandomAgent
    from cardenvs.core.wrappers import SingleAgentEnv
    from cardenvs.vector import make_vec_env

    torch.set_num_threads(1)

    def opponents(i: int) -> list[RandomAgent]:
        return [RandomAgent(seed * 100 + i * 10 + k) for k in range(players - 1)]

    common: dict[str, Any] = {"n_steps": n_steps, "batch_size": max(n_steps * n_envs // 4, 2), "n_epochs": 2,
                              "seed": seed, "verbose": 0}
    if fast:
        from agents.learning import sb3_speedups
        from agents.learning.sparse_policy import fast_ppo_kwargs

        sb3_speedups.enable()
        venv = make_vec_env(env_name, n_envs, opponents, num_players=players, seed=seed * 100, kind=vec)
        model = MaskablePPO(env=venv, **fast_ppo_kwargs({"net_arch": [64, 64]}), **common)
    else:
        def thunk(i: int):  # noqa: ANN202
            return lambda: SingleAgentEnv(env_name, opponents(i), learner_seat=None, num_players=players)

        venv = DummyVecEnv([thunk(i) for i in range(n_envs)])
        venv.seed(seed * 100)
        model = MaskablePPO("MlpPolicy", venv, policy_kwargs={"net_arch": [64, 64]}, **common)
    cpu, wall = time.process_time(), time.perf_counter()
    model.learn(total_timesteps=steps)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    venv.close()
    return {"cpu": model.num_timesteps / cpu, "wall": model.num_timesteps / wall}


def run_isolated(args: argparse.Namespace, env_name: str, n: int, fast: bool, vec: str,
                 seed: int) -> dict[str, float]:
    """:func:`measure` in a fresh interpreter."""
    job = {"env": env_name, "players": args.players, "n": n, "fast": fast, "vec": vec, "steps": args.steps,
           "n_steps": args.n_steps, "seed": seed}
    out = subprocess.run([sys.executable, "-m", "experiments.bench_train", "--job", json.dumps(job)],
                         cwd=Path(__file__).resolve().parents[1], capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise RuntimeError(f"benchmark run failed: {job}\n{out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    import cardenvs

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=HelpFormatter)
    ap.add_argument("--envs", nargs="*", default=list(cardenvs.ENVS), choices=list(cardenvs.ENVS))
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--steps", type=int, default=8192)
    ap.add_argument("--n-steps", type=int, default=128, help="rollout length per env")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--configs", nargs="*", default=[c[0] for c in CONFIGS], help="subset of the labels")
    ap.add_argument("--out", default=str(Path(__file__).resolve().parents[1] / "results" / "bench_train.md"))
    ap.add_argument("--job", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.job:
        j = json.loads(args.job)
        print(json.dumps(measure(j["env"], j["players"], j["n"], j["fast"], j["vec"], j["steps"],
                                 j["n_steps"], j["seed"])))
        return
    from tqdm import tqdm

    configs = [c for c in CONFIGS if c[0] in args.configs]
    jobs = [(e, c, r) for e in args.envs for c in configs for r in range(args.repeats)]
    results: dict[tuple[str, str], list[dict[str, float]]] = {}
    # repeats interleaved with the configurations, so slow spells of a shared machine spread out
    order = sorted(jobs, key=lambda j: (j[0], j[2]))
    for env_name, (label, n, fast, vec), r in tqdm(order, desc="training runs"):
        results.setdefault((env_name, label), []).append(run_isolated(args, env_name, n, fast, vec, r))

    lines = [f"MaskablePPO, {args.players} players, {args.steps} steps per run, "
             f"n_steps={args.n_steps} per env, "
             f"4 minibatches, 2 epochs, 64x64 network, 1 torch thread; median of {args.repeats} runs. "
             "Env-steps/s in process CPU time (subprocess runs: wall time).", "",
             "| env | configuration | env-steps/s | x stock 1 env | x fast 1 env |",
             "|---|---|---:|---:|---:|"]
    for env_name in args.envs:
        med = {}
        for label, _, _, vec in configs:
            runs = results[(env_name, label)]
            med[label] = statistics.median(r["wall" if vec == "subproc" else "cpu"] for r in runs)
        for label, *_ in configs:
            base_s, base_f = med.get("stock, 1 env"), med.get("fast, 1 env")
            rs = f"{med[label] / base_s:.1f}" if base_s else "-"
            rf = f"{med[label] / base_f:.1f}" if base_f else "-"
            lines.append(f"| `{env_name}` | {label} | {med[label]:,.0f} | {rs} | {rf} |")
    text = "\n".join(lines)
    print(text)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(text + "\n")


if __name__ == "__main__":
    main()
