#!/usr/bin/env python3
"""Which PPO for the action-feature policies: sb3-contrib's MaskablePPO or the project's own?

    python -m experiments.bench_selfplay                      # Line-it and Rummy 4x3x2's
    python -m experiments.bench_selfplay --envs lineit_v0 --steps 16384 --repeats 5

Trains the same network (:class:`agents.learning.feature_torch.ActionScorerNet`, 128x128 policy
and value) with the same PPO settings (8 tables, 256 decisions per table per rollout,
minibatches of 512, 4 epochs, one torch thread) against the greedy level, in three
configurations, each in a fresh interpreter:

* ``SB3 MaskablePPO``: ``MaskablePPO(agents.learning.feature_sb3.ActionScorerPolicy)`` over
  ``cardenvs.vector.make_vec_env(..., observation="action_features")`` (the SB3 fast
  path's vector env), with ``agents.learning.sb3_speedups``: the observation is the whole
  ``(num_actions, F)`` matrix, stored as it is in the rollout buffer;
* ``own PPO, 8 tables``: ``experiments/selfplay.py``'s rollout and update, which store
  only the legal actions' rows;
* ``own PPO, 32 tables``: its default batch (32 tables of 128 decisions).

And, for reference, the SB3 fast path on the flat observation with the baselines'
256x256 MLP (``agents.learning.sparse_policy.fast_ppo_kwargs``).  Decisions per second in process
CPU time (steady on a shared machine), the median of ``--repeats`` runs, and the bytes
each stored decision takes.  The own trainer plays a learner's forced moves (one legal
action) without asking the network; Line-it and Rummy have almost none.  Line's matrix
(4,014 x 42 floats, 0.7 MB a decision) does not fit SB3's buffer at these settings, so it
is not run there.
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

from agents.cli import HelpFormatter

CONFIGS = ("SB3 MaskablePPO", "own PPO, 8 tables", "own PPO, 32 tables",
           "SB3 fast path, flat MLP (reference)")


def measure(env_name: str, config: str, steps: int, seed: int) -> dict[str, float]:
    """Decisions/s of one training run, and bytes per stored decision."""
    import numpy as np
    import torch

    import agents
    from cardenvs.vector import make_vec_env

    torch.set_num_threads(1)
    torch.manual_seed(seed)

    def opponents(i: int) -> list[agents.Agent]:
        return [agents.make_agent(env_name, "greedy", seed=seed * 100 + i)]

    if config.startswith("SB3"):
        import gymnasium
        from sb3_contrib import MaskablePPO

        from agents.learning import sb3_speedups

        sb3_speedups.enable()
        common: dict[str, Any] = {"n_steps": 256, "batch_size": 512, "n_epochs": 4, "seed": seed,
                                  "verbose": 0, "learning_rate": 1e-3}
        if config == "SB3 MaskablePPO":
            from agents.learning.feature_sb3 import ActionScorerPolicy

            venv = make_vec_env(env_name, 8, opponents, seed=seed * 100, observation="action_features")
            model = MaskablePPO(ActionScorerPolicy, venv, policy_kwargs={"net_arch": [128, 128]}, **common)
        else:
            from agents.learning.sparse_policy import fast_ppo_kwargs
            from cardenvs.core.wrappers import observation_scale

            game = __import__("cardenvs").game_class(env_name)(2)
            venv = make_vec_env(env_name, 8, opponents, seed=seed * 100, obs_scale=observation_scale(game))
            model = MaskablePPO(env=venv, **fast_ppo_kwargs({"net_arch": [256, 256]}), **common)
        obs_shape = venv.observation_space.shape or ()
        action_space = venv.action_space
        assert isinstance(action_space, gymnasium.spaces.Discrete)
        n_actions = int(action_space.n)
        per = int(np.prod(obs_shape)) * 4 + n_actions  # obs float32 + mask
        cpu = time.process_time()
        model.learn(total_timesteps=steps)
        return {"rate": model.num_timesteps / (time.process_time() - cpu), "bytes": per}

    from agents.learning.ppo import Learner, Pool, PPOSettings, Stats, Table, collect
    from experiments.selfplay import parse_args

    tables_n, n_steps = (8, 256) if config == "own PPO, 8 tables" else (32, 128)
    args, _ = parse_args(["--env", env_name, "--seed", str(seed), "--n-envs", str(tables_n), "--n-steps",
                          str(n_steps), "--minibatch", "512", "--epochs", "4", "--lr", "1e-3"])
    import cardenvs
    from agents.learning.ppo import Encoder

    game = cardenvs.game_class(env_name)(2)
    encoder = Encoder(game, "action_features", None)
    learner = Learner(PPOSettings.of(args), game, encoder)
    pool = Pool(env_name, [("greedy", 1.0)], 0.0, 1)
    tables = [Table(game, pool, np.random.default_rng([seed, i]), 0.0) for i in range(tables_n)]
    for t in tables:
        t.reset()
    stats, returns = Stats(), [0.0] * tables_n
    done, stored, rows = 0, 0, 0
    cpu = time.process_time()
    while done < steps:
        ro, last = collect(learner, tables, encoder, n_steps, stats, returns)
        learner.update(ro, last, tables_n)
        done += len(ro.rewards)
        stored += sum(x.nbytes + 8 * len(legal) for x, legal in zip(ro.inputs, ro.legals))
        rows += len(ro.rewards)
    return {"rate": done / (time.process_time() - cpu), "bytes": float(stored / rows)}


def run_isolated(env_name: str, config: str, steps: int, seed: int) -> dict[str, float]:
    """:func:`measure` in a fresh interpreter (the SB3 speed-ups patch sb3-contrib globally)."""
    job = json.dumps({"env": env_name, "config": config, "steps": steps, "seed": seed})
    out = subprocess.run([sys.executable, "-m", "experiments.bench_selfplay", "--job", job],
                         capture_output=True, text=True, check=False, cwd=Path(__file__).resolve().parents[1])
    if out.returncode != 0:
        raise RuntimeError(f"benchmark run failed: {job}\n{out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=HelpFormatter)
    ap.add_argument("--envs", nargs="*", default=["lineit_v0", "rummy432_v0"])
    ap.add_argument("--steps", type=int, default=16384, help="decisions per run")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--configs", nargs="*", default=list(CONFIGS), help="a subset of the labels")
    ap.add_argument("--out", default="results/bench_selfplay.md")
    ap.add_argument("--job", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.job:
        j = json.loads(args.job)
        print(json.dumps(measure(j["env"], j["config"], j["steps"], j["seed"])))
        return
    from tqdm import tqdm

    jobs = [(e, c, r) for r in range(args.repeats) for e in args.envs for c in args.configs]
    results: dict[tuple[str, str], list[dict[str, float]]] = {}
    # repeats interleaved with the configurations, so slow spells of a shared machine spread out
    for env_name, config, r in tqdm(jobs, desc="training runs"):
        results.setdefault((env_name, config), []).append(run_isolated(env_name, config, args.steps, r))
    lines = [f"Action-scorer PPO against greedy, 2 players, {args.steps:,} decisions per run, median of "
             f"{args.repeats} runs, decisions/s in process CPU time, 1 torch thread.", "",
             "| env | configuration | decisions/s | x SB3 MaskablePPO | bytes stored per decision |",
             "|---|---|---:|---:|---:|"]
    for env_name in args.envs:
        med = {c: statistics.median(x["rate"] for x in results[(env_name, c)]) for c in args.configs}
        base = med.get("SB3 MaskablePPO")
        for c in args.configs:
            ratio = f"{med[c] / base:.1f}" if base else "-"
            size = statistics.median(x["bytes"] for x in results[(env_name, c)])
            lines.append(f"| `{env_name}` | {c} | {med[c]:,.0f} | {ratio} | {size:,.0f} |")
    text = "\n".join(lines)
    print(text)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(text + "\n")


if __name__ == "__main__":
    main()
