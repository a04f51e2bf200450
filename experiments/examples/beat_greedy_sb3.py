#!/usr/bin/env python3
"""From nothing to a policy that beats greedy: MaskablePPO on the ``action_features`` observation.

    pip install -e ".[train]"
    python -m experiments.examples.beat_greedy_sb3                      # Line-it, 17 min on a shared core
    python -m experiments.examples.beat_greedy_sb3 --env rummy432_v0 --steps 1000000

The recipe of ``docs/training/recipe.md``, with the SB3 fast path and no teacher:

1. Environments: ``cardenvs.vector.make_vec_env`` builds 8 copies of the game in this
   process, each with ``observation="action_features"`` (a row of facts per action) and
   an opponent drawn at every deal from the ladder's random, greedy and planner levels.
2. Policy: ``agents.learning.feature_sb3.ActionScorerPolicy``, one small network shared by every
   action that scores each legal action's row, for sb3-contrib's ``MaskablePPO``.
3. Training: ``model.learn(--steps)``, with a progress bar, one torch thread.
4. Export: the policy is saved as numpy arrays (``--out``); it plays without torch as
   ``policy:FILE`` everywhere the ladder levels do.
5. Evaluation: ``--eval-games`` games against greedy and against the planner through the
   tournament code (seats alternating on the same deals), with 95% Wilson intervals.
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from agents.cli import HelpFormatter


def opponents(env_name: str, levels: Sequence[str]) -> Any:
    """Copy ``i``'s opponent source: a level drawn anew at every deal (``make_vec_env``
    accepts such a callable)."""

    def for_copy(i: int) -> Any:
        import agents

        def draw(rng: np.random.Generator) -> list[agents.Agent]:
            level = levels[int(rng.integers(len(levels)))]
            return [agents.make_agent(env_name, level, seed=int(rng.integers(2**31)))]

        return draw

    return for_copy


def evaluate(env_name: str, policy_file: str, level: str, games: int) -> tuple[float, float, float]:
    """The policy's win share (draws split) against ``level`` and its 95% Wilson interval."""
    from agents.evaluation.tournament import points, run_matches, schedule, wilson

    me = f"policy:{policy_file}"
    results = run_matches(schedule(env_name, [me, level], 2, games, seed=20_000), progress=True)
    share = sum(points(r.rewards)[r.match.seats.index(me)] for r in results) / len(results)
    return (share, *wilson(share, len(results)))


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=HelpFormatter)
    ap.add_argument("--env", default="lineit_v0", choices=["lineit_v0", "rummy432_v0"])
    ap.add_argument("--steps", type=int, default=500_000)
    ap.add_argument("--opponents", nargs="*", default=["random", "greedy", "planner"])
    ap.add_argument("--n-envs", type=int, default=8)
    ap.add_argument("--n-steps", type=int, default=256)
    ap.add_argument("--batch-size", type=int, default=1024)
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default="my_policy.npz")
    ap.add_argument("--eval-games", type=int, default=400)
    args = ap.parse_args(argv)

    import torch
    from sb3_contrib import MaskablePPO

    from agents.learning import sb3_speedups
    from agents.learning.feature_sb3 import ActionScorerPolicy, export_policy
    from cardenvs.vector import make_vec_env

    torch.set_num_threads(1)  # small networks: one thread is fastest, and fair to the other processes
    sb3_speedups.enable()
    venv = make_vec_env(args.env, args.n_envs, opponents(args.env, args.opponents), seed=args.seed,
                        observation="action_features")
    model = MaskablePPO(ActionScorerPolicy, venv, learning_rate=1e-3, n_steps=args.n_steps,
                        batch_size=args.batch_size, n_epochs=4, gamma=0.995, ent_coef=0.01, seed=args.seed,
                        policy_kwargs={"net_arch": [args.hidden, args.hidden]}, verbose=0)
    start = time.time()
    model.learn(total_timesteps=args.steps, progress_bar=True)
    minutes = (time.time() - start) / 60
    given = sys.argv[1:] if argv is None else list(argv)
    meta = {"command": shlex.join(["python", "-m", "experiments.examples.beat_greedy_sb3", *given]),
            "steps": model.num_timesteps,
            "minutes": round(minutes, 1)}
    export_policy(model, args.env, meta).save(args.out)
    print(f"trained {model.num_timesteps:,} steps in {minutes:.1f} min; policy saved to {args.out}")
    result: dict[str, Any] = {"steps": model.num_timesteps, "minutes": minutes}
    for level in ("greedy", "planner"):
        if args.eval_games:
            share, lo, hi = evaluate(args.env, args.out, level, args.eval_games)
            print(f"against {level}: {share:.1%} [{lo:.1%}, {hi:.1%}] over {args.eval_games} games")
            result[level] = (share, lo, hi)
    return result


if __name__ == "__main__":
    main()
