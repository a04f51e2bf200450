#!/usr/bin/env python3
"""Multi-agent PPO self-play on a cardenvs game with Ray RLlib 2.60 (needs the ``rllib`` extra).

    python -m experiments.train_rllib --env line_v0 --players 2 --iterations 50
    python -m experiments.train_rllib --env rummy432_v0 --players 3 --opponents greedy \\
        --num-env-runners 2 --iterations 200 --eval-every 10 --export runs/rummy432_rllib.npz
    ray start --head --num-cpus 8        # then, on this or another machine of the cluster:
    python -m experiments.train_rllib --address auto --num-env-runners 6 --iterations 500

Every learner seat plays one shared policy (RLlib's action-masking PPO module, an MLP);
the seats listed in ``--opponents`` (ladder levels: random, greedy, planner, expert, or
``policy:FILE.npz``) are played by the environment itself, at seats drawn anew each
episode, so only the learner seats are RLlib agents.  Every ``--eval-every``
iterations the policy is exported to a temporary ``.npz`` and plays ``--eval-games``
games against each ``--eval-levels`` level through ``agents.evaluation.tournament`` (its seat
rotated, the level in every other seat); the score share (1 a win, 1/k a k-way shared
win) goes into the CSV log ``<out>/progress.csv`` with the iteration's throughput and
losses.  The final policy is exported (``--export``, default ``<out>/policy.npz``); it
then plays without torch: ``agents.make_agent(env, "policy:FILE.npz")``.

``--address`` joins a running Ray cluster (default: a local Ray of ``--num-cpus``
CPUs).  The code of ``cardenvs`` and ``agents`` is shipped to the workers as
``py_modules`` (see ``cardenvs.integrations.rllib.runtime_env``), so a folder named
``cardenvs/`` in the launch directory does not shadow it, and cluster nodes need only
the dependencies.  Torch runs one thread per process (driver and env runners).
"""

from __future__ import annotations

import argparse
import csv
import json
import logging
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import agents
import cardenvs
from agents.cli import HelpFormatter
from agents.players.trained import export_rllib
from experiments.reporting import game_options

CSV_FIELDS = ["iteration", "wall_s", "iter_s", "env_steps", "env_steps_per_s", "sample_s_ema", "learn_s_ema",
              "env_steps_lifetime",
              "episodes", "episode_len_mean", "shared_return_mean", "total_loss", "policy_loss",
              "vf_loss", "entropy", "mean_kl"]


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=HelpFormatter)
    ap.add_argument("--env", default="line_v0", choices=list(cardenvs.ENVS))
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                    help="a game option (value parsed as JSON), e.g. --option hand_size=6")
    ap.add_argument("--opponents", default="",
                    help="comma-separated levels the env plays itself, e.g. greedy,planner")
    ap.add_argument("--iterations", type=int, default=20)
    ap.add_argument("--num-env-runners", type=int, default=0,
                    help="remote env runners (0: sample in the driver)")
    ap.add_argument("--envs-per-runner", type=int, default=8,
                    help="envs stepped together per env runner (batches the policy's forward pass)")
    ap.add_argument("--address", default=None, help="an existing Ray cluster (e.g. auto); default: local Ray")
    ap.add_argument("--num-cpus", type=int, default=2, help="CPUs of the local Ray (ignored with --address)")
    ap.add_argument("--train-batch-size", type=int, default=4000)
    ap.add_argument("--minibatch-size", type=int, default=256)
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--lr", type=float, default=3e-4)
    ap.add_argument("--gamma", type=float, default=0.995)
    ap.add_argument("--entropy", type=float, default=0.01)
    ap.add_argument("--hidden", default="256,256", help="hidden layer sizes")
    ap.add_argument("--activation", choices=["tanh", "relu"], default="tanh")
    ap.add_argument("--no-scale", action="store_true", help="feed raw observations (no observation_scale)")
    ap.add_argument("--eval-every", type=int, default=5, help="iterations between evaluations (0: none)")
    ap.add_argument("--eval-games", type=int, default=40)
    ap.add_argument("--eval-levels", default="random,greedy,planner")
    ap.add_argument("--eval-workers", type=int, default=1, help="processes for evaluation games")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default=None,
                    help="run folder (default: <repo>/runs/rllib_<env>_<players>p_s<seed>)")
    ap.add_argument("--export", default=None, help="final numpy policy (default <out>/policy.npz)")
    ap.add_argument("--checkpoint", action="store_true", help="also save an RLlib checkpoint in <out>")
    ap.add_argument("--no-progress", action="store_true")
    args = ap.parse_args(argv)
    args.opponents = [s for s in args.opponents.split(",") if s]
    args.eval_levels = [s for s in args.eval_levels.split(",") if s]
    args.hidden = tuple(int(h) for h in args.hidden.split(",") if h)
    if len(args.opponents) >= args.players:
        ap.error(f"{len(args.opponents)} opponents leave no learner seat at {args.players} players")
    return args


def evaluate(env_name: str, players: int, policy_file: str, levels: list[str], games: int, seed: int,
             workers: int, options: dict[str, Any]) -> dict[str, tuple[float, float]]:
    """Score share and mean reward of the policy against each level (its seat rotated)."""
    from agents.evaluation.tournament import Match, analyse, run_matches

    me = f"policy:{policy_file}"
    opts = tuple(sorted(options.items()))
    out: dict[str, tuple[float, float]] = {}
    for level in levels:
        matches = []
        for g in range(games):
            seats = [level] * players
            seats[g % players] = me
            matches.append(Match(env_name, tuple(seats), seed + g // players, opts))
        report = analyse(run_matches(matches, workers=workers, progress=False), [me, level])
        share, _, _, _, reward = report.overall[me]
        out[level] = (share, reward)
    return out


def _count(value: Any) -> int:
    """A count from RLlib's metrics (NaN or missing when nothing was counted: 0)."""
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


def row_of(it: int, result: dict[str, Any], wall: float) -> dict[str, Any]:
    """The CSV row of one training result."""
    from cardenvs.integrations.rllib import POLICY_ID

    runners = result.get("env_runners", {})
    learner = result.get("learners", {}).get(POLICY_ID, {})
    timers = result.get("timers", {})
    steps = float(runners.get("num_env_steps_sampled", 0))
    iter_s = float(result.get("time_this_iter_s", float("nan")))
    return {
        "iteration": it, "wall_s": round(wall, 2), "iter_s": round(iter_s, 3), "env_steps": int(steps),
        "env_steps_per_s": round(steps / iter_s, 1) if iter_s > 0 else float("nan"),
        # RLlib's phase timers (sampling, learner update): a slow moving average, not this iteration's
        "sample_s_ema": round(float(timers.get("env_runner_sampling_timer", float("nan"))), 3),
        "learn_s_ema": round(float(timers.get("learner_update_timer", float("nan"))), 3),
        "env_steps_lifetime": _count(result.get("num_env_steps_sampled_lifetime")),
        "episodes": _count(runners.get("num_episodes")),  # episodes finished in this iteration
        "episode_len_mean": runners.get("episode_len_mean", float("nan")),
        "shared_return_mean": runners.get("module_episode_returns_mean", {}).get(POLICY_ID, float("nan")),
        **{k: learner.get(k, float("nan")) for k in ("total_loss", "policy_loss", "vf_loss", "entropy")},
        "mean_kl": learner.get("mean_kl_loss", float("nan")),
    }


#: run folders go here by default, whatever the working directory (git ignores it)
RUNS = Path(__file__).resolve().parents[1] / "runs"


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    import ray
    import torch
    from tqdm import tqdm

    from cardenvs.integrations import rllib

    torch.set_num_threads(1)  # the learner runs in this process; 2 threads on 2 shared cores crawl
    options = game_options(args.option)
    out = Path(args.out or RUNS / f"rllib_{args.env}_{args.players}p_s{args.seed}")
    out.mkdir(parents=True, exist_ok=True)
    export = Path(args.export or out / "policy.npz")
    env_config: dict[str, Any] = {"env_name": args.env, "num_players": args.players, "options": options,
                                  "opponents": args.opponents, "obs_scale": not args.no_scale,
                                  "torch_threads": 1}
    if args.opponents:  # ladder levels, made on the env runners by the agents package
        env_config["make_opponent"] = agents.make_agent
    fields = CSV_FIELDS + [f"eval_{lvl}" for lvl in args.eval_levels] \
        + [f"eval_{lvl}_reward" for lvl in args.eval_levels]
    (out / "config.json").write_text(json.dumps({**vars(args), "hidden": list(args.hidden),
                                                 "env_config": {k: v for k, v in env_config.items()
                                                                if k != "make_opponent"}}, indent=2))
    rllib.init_ray(address=args.address, num_cpus=None if args.address else args.num_cpus,
                   packages=["agents"], log_to_driver=False)
    rates: list[float] = []
    try:
        rllib.register(packages=["agents"])
        config = rllib.ppo_config(env_config, hiddens=args.hidden, activation=args.activation,
                                  num_env_runners=args.num_env_runners,
                                  num_envs_per_env_runner=args.envs_per_runner,
                                  train_batch_size=args.train_batch_size, minibatch_size=args.minibatch_size,
                                  num_epochs=args.epochs, lr=args.lr, gamma=args.gamma,
                                  entropy_coeff=args.entropy, seed=args.seed)
        if args.address is None:
            # on one machine a failed env runner is a bug to see, not a fault to ride out; and
            # restartable runners make Ray's core print an error-level line about their
            # constructor arguments (ray-project/ray#53727) at every start
            config = config.fault_tolerance(restart_failed_env_runners=False)
        # Tune's system monitor asks for GPUtil at every start (a WARNING line); no GPU is used here
        logging.getLogger("ray.tune.utils.util").setLevel(logging.ERROR)
        algo = config.build_algo()
        meta = {"trainer": "rllib-ppo",
                "opponents": ",".join(args.opponents) or "self-play"}
        start = time.perf_counter()
        try:
            with open(out / "progress.csv", "w", newline="") as f, tempfile.TemporaryDirectory() as tmp:
                log = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
                log.writeheader()
                bar = tqdm(range(1, args.iterations + 1), desc=f"PPO {args.env}", unit="it",
                           disable=args.no_progress)
                for it in bar:
                    row = row_of(it, algo.train(), time.perf_counter() - start)
                    rates.append(float(row["env_steps_per_s"]))
                    if args.eval_every and (it % args.eval_every == 0 or it == args.iterations):
                        snap = Path(tmp) / f"iter{it}.npz"
                        export_rllib(algo, env_config=env_config, meta=meta).save(snap)
                        scores = evaluate(args.env, args.players, str(snap), args.eval_levels,
                                          args.eval_games, args.seed + 10_000, args.eval_workers, options)
                        for lvl, (share, reward) in scores.items():
                            row[f"eval_{lvl}"] = round(share, 3)
                            row[f"eval_{lvl}_reward"] = round(reward, 3)
                        bar.write(f"iteration {it}: score share " + ", ".join(
                            f"{lvl} {100 * s:.0f}%" for lvl, (s, _) in scores.items())
                            + f" (even: {100 / args.players:.0f}%)")
                    log.writerow(row)
                    f.flush()
                    bar.set_postfix(steps_s=f"{row['env_steps_per_s']:.0f}", loss=f"{row['total_loss']:.3f}")
            policy = export_rllib(algo, env_config=env_config, meta={**meta, "iterations": args.iterations})
            policy.save(export)
            print(f"exported the policy to {export} (play it: agents.make_agent({args.env!r}, "
                  f"'policy:{export}'))")
            if args.checkpoint:
                saved = algo.save(str((out / "checkpoint").resolve()))
                print("RLlib checkpoint:", saved.checkpoint.path)
        finally:
            algo.stop()
    finally:
        ray.shutdown()
    if rates:
        later = rates[1:] or rates  # the first iteration includes warm-up
        print(f"env steps sampled per second of training iteration: median {statistics.median(later):.0f} "
              f"over iterations {2 if len(rates) > 1 else 1}..{len(rates)}, "
              f"{args.num_env_runners} env runners x {args.envs_per_runner} envs; "
              f"log: {out / 'progress.csv'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
