#!/usr/bin/env python3
"""Self-play PPO from scratch on the learner observations: hours-long runs, evaluated as they go.

    python -m experiments.selfplay --env lineit_v0 --hours 1
    python -m experiments.selfplay --env rummy432_v0 --hours 3 --round-reward 0.3
    python -m experiments.selfplay --resume runs/selfplay/lineit_v0_action_features_s0 --hours 2

No teacher, no cloned labels and no search: the policy starts from random weights and
learns from game results alone.  Every episode seats the learner (a random seat) against
opponents drawn from a pool: ladder levels (``--pool``, ``level:weight``) and, with
probability ``--self-play``, snapshots of its earlier selves (one every
``--snapshot-every`` updates; the latest ``--max-snapshots`` stay in the pool).  A
decision with one legal move is played for the learner and not counted as a step.

The learner reads one observation design (``--observation``, see
``cardenvs.core.observers``): ``action_features`` (default: a network shared by every
action scores each legal action's facts, :class:`agents.learning.feature_torch.ActionScorerNet`),
``flat`` or ``planes`` (an MLP with one output per action id, evaluated at the legal
ones only).  The PPO is the project's own, batched over ``--n-envs`` tables in this
process: the inputs of a decision are its legal actions' rows, stored as they are (a
few rows, not a 4,014-row matrix), and every loss is computed per decision over those
rows.  ``docs/training/selfplay.md`` measures it against sb3-contrib's MaskablePPO on the same
network and says why this trainer is the project's own.

As it runs it writes to ``--out`` (default ``runs/selfplay/<env>_<observation>_s<seed>``):
``train.csv`` (one row per update: steps, wall time, losses, the training games' results
by opponent), ``eval.csv`` and ``learning_curve.png`` (every ``--eval-every`` minutes the
current policy plays ``--eval-games`` games against each of ``--eval-levels``, seats
alternating on the same deals; the win share with its 95% Wilson interval against wall
time), ``current.npz``, ``best.npz`` (the best evaluation so far, by the mean over the
levels) and ``final.npz`` (numpy :class:`agents.players.feature_policy.FeaturePolicy` files, each
playable as ``policy:FILE``), and ``checkpoint.pt`` (network, optimiser, counters, random
states, the pool) with ``args.json``, from which ``--resume DIR`` continues (the wall-time
budget counts the time before the stop).  ``--final-games N`` ends the run with an
N-game match of ``best.npz`` against each evaluation level through the tournament code
on fresh deals (from 20,000), written to ``final.json``.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import shlex
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

import cardenvs
from agents.cli import HelpFormatter
from agents.learning.ppo import (  # noqa: F401  (Pool, Snapshot, Table...: this script's API too)
    Decisions,
    Encoder,
    Learner,
    Pool,
    PPOSettings,
    Rollout,
    Snapshot,
    Stats,
    Table,
    collect,
    forward,
    parse_pool,
)
from cardenvs.core.observers import OBSERVATIONS

#: the evaluation deals of the periodic evaluations (train.py's are 10,000 too)
EVAL_SEED = 10_000
#: the deals of the final match (baselines.py's are 20,000)
FINAL_SEED = 20_000
#: the update's statistics in ``train.csv``
LOSS_COLUMNS = ("pg", "vf", "entropy", "kl", "clip", "explained_variance")


# ------------------------------------------------------------------------ evaluation
def evaluate(env_name: str, players: int, policy_file: Path, levels: list[str], games: int,
             seed: int) -> dict[str, tuple[float, float, float]]:
    """Win share (draws split) of a policy file against each level, with its 95% Wilson
    interval: ``games`` games per level, seats alternating on the same deals."""
    from agents.evaluation.tournament import points, run_matches, schedule, wilson

    me = f"policy:{policy_file}"
    out = {}
    for level in levels:
        matches = schedule(env_name, [me, level], players, games, seed=seed)
        results = run_matches(matches, workers=1, progress=False)
        won = sum(points(r.rewards)[r.match.seats.index(me)] for r in results)
        share = won / len(results)
        lo, hi = wilson(share, len(results))
        out[level] = (share, lo, hi)
    return out


def plot_curve(csv_path: Path, png_path: Path, title: str, target: float = 0.55) -> None:
    """Win share against each evaluation level over wall time, with 95% Wilson bands."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with open(csv_path) as f:
        rows = list(csv.DictReader(f))
    if not rows:
        return
    hours = [float(r["seconds"]) / 3600 for r in rows]
    levels = [k[3:] for k in rows[0] if k.startswith("vs_") and not k.endswith(("_lo", "_hi"))]
    fig, ax = plt.subplots(figsize=(7.5, 4.2))
    for level in levels:
        y = [float(r[f"vs_{level}"]) for r in rows]
        lo = [float(r[f"vs_{level}_lo"]) for r in rows]
        hi = [float(r[f"vs_{level}_hi"]) for r in rows]
        (line,) = ax.plot(hours, y, marker="o", ms=3, label=f"vs {level}")
        ax.fill_between(hours, lo, hi, color=line.get_color(), alpha=0.15, lw=0)
    ax.axhline(0.5, color="grey", lw=0.8, ls="--")
    ax.axhline(target, color="grey", lw=0.8, ls=":", label=f"target {target:.0%}")
    ax.set_xlabel("wall time (hours, this machine)")
    ax.set_ylabel("win share (draws split), 95% Wilson")
    ax.set_ylim(0, 1)
    ax.set_title(title)
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(png_path, dpi=110)
    plt.close(fig)


# ------------------------------------------------------------------------------ run
def parse_args(argv: list[str] | None = None) -> tuple[argparse.Namespace, set[str]]:
    """The command line, and the names of the options it gave explicitly."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=HelpFormatter)
    ap.add_argument("--env", default="lineit_v0", choices=list(cardenvs.ENVS))
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--observation", default="action_features", choices=OBSERVATIONS)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--hours", type=float, default=3.0,
                    help="wall-time budget (resumed runs count their earlier time)")
    ap.add_argument("--steps", type=int, default=0,
                    help="also stop after this many learner decisions (0: no cap)")
    ap.add_argument("--n-envs", type=int, default=32, help="tables played side by side")
    ap.add_argument("--n-steps", type=int, default=128, help="decisions per table per update")
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--minibatch", type=int, default=1024, help="decisions per minibatch")
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--lr-final", type=float, default=None,
                    help="learning rate at the end of the budget, linear in the time (or steps) spent "
                         "(default: constant --lr)")
    ap.add_argument("--gamma", type=float, default=0.995)
    ap.add_argument("--gae-lambda", type=float, default=0.95)
    ap.add_argument("--clip", type=float, default=0.2)
    ap.add_argument("--ent-coef", type=float, default=0.01)
    ap.add_argument("--vf-coef", type=float, default=0.5)
    ap.add_argument("--max-grad-norm", type=float, default=0.5)
    ap.add_argument("--target-kl", type=float, default=0.0,
                    help="stop an update's epochs past 1.5x this KL (0: never)")
    ap.add_argument("--hidden", type=lambda s: [int(x) for x in s.split(",")], default=None,
                    help="hidden sizes, e.g. 128,128 (default: 128,128 for action_features, "
                         "256,256 otherwise)")
    ap.add_argument("--activation", choices=["tanh", "relu"], default="tanh", help="flat and planes networks")
    ap.add_argument("--pool", nargs="*", default=["random", "greedy", "planner"],
                    help="ladder levels the opponents come from, each LEVEL or LEVEL:WEIGHT")
    ap.add_argument("--self-play", type=float, default=0.5, help="chance an opponent is an earlier self")
    ap.add_argument("--snapshot-every", type=int, default=20, help="updates between snapshots")
    ap.add_argument("--max-snapshots", type=int, default=20, help="latest snapshots kept in the pool")
    ap.add_argument("--round-reward", type=float, default=0.0,
                    help="multi-round games (rummy432_v0): +W per round won, -W per round lost")
    ap.add_argument("--eval-every", type=float, default=10.0, help="minutes between evaluations")
    ap.add_argument("--eval-games", type=int, default=200, help="games per level at each evaluation")
    ap.add_argument("--eval-levels", nargs="*", default=["greedy", "planner"])
    ap.add_argument("--final-games", type=int, default=0,
                    help="games per level of the final match of best.npz")
    ap.add_argument("--out", default=None)
    ap.add_argument("--export", default=None, help="copy best.npz here at the end")
    ap.add_argument("--resume", default=None, metavar="DIR", help="continue the run saved in DIR")
    ap.add_argument("--no-progress", action="store_true")
    args = ap.parse_args(argv)
    explicit = {k for k, v in vars(args).items() if v != ap.get_default(k)}
    return args, explicit


#: options a resumed run may change; the rest come from the saved run
RESUMABLE = {"hours", "steps", "eval_every", "eval_games", "final_games", "export", "no_progress", "resume"}


class Run:
    """One training run: tables, learner, pool, counters, files."""

    def __init__(self, args: argparse.Namespace, command: str) -> None:
        import torch as th

        from cardenvs.core.wrappers import observation_scale

        self.args = args
        self.command = command
        self.out = Path(args.out or f"runs/selfplay/{args.env}_{args.observation}_s{args.seed}")
        (self.out / "snapshots").mkdir(parents=True, exist_ok=True)
        th.manual_seed(args.seed)
        self.game = cardenvs.game_class(args.env)(args.players)
        scale = observation_scale(self.game, seed=args.seed) if args.observation == "flat" else None
        self.scale = scale
        self.encoder = Encoder(self.game, args.observation, scale)
        self.learner = Learner(PPOSettings.of(args), self.game, self.encoder)
        self.pool = Pool(args.env, parse_pool(args.pool), args.self_play, args.max_snapshots)
        self.rng = np.random.default_rng(args.seed)
        self.steps = 0
        self.updates = 0
        self.elapsed = 0.0  # seconds of earlier sessions (resume)
        self.best = -1.0
        self.evals = 0
        self.stats = Stats()
        self.started = time.time()

    # ------------------------------------------------------------ files
    def meta(self) -> dict[str, Any]:
        return {"env": self.args.env, "players": self.args.players, "observation": self.args.observation,
                "command": self.command, "steps": self.steps, "hours": round(self.seconds() / 3600, 3),
                "method": "PPO from scratch (experiments/selfplay.py): no teacher, no search"}

    def export(self, path: Path) -> None:
        from agents.learning.feature_torch import export

        export(self.learner.net, self.args.env, self.scale, self.meta()).save(path)

    def save(self) -> None:
        import torch as th

        state = {"net": self.learner.net.state_dict(), "opt": self.learner.opt.state_dict(),
                 "steps": self.steps, "updates": self.updates, "elapsed": self.seconds(), "best": self.best,
                 "evals": self.evals, "snapshots": self.pool.snapshots, "rng": self.rng.bit_generator.state,
                 "torch_rng": th.get_rng_state()}
        tmp = self.out / "checkpoint.pt.tmp"
        th.save(state, tmp)
        tmp.replace(self.out / "checkpoint.pt")

    def load(self) -> None:
        import torch as th

        state = th.load(self.out / "checkpoint.pt", weights_only=False)
        self.learner.net.load_state_dict(state["net"])
        self.learner.opt.load_state_dict(state["opt"])
        self.steps, self.updates, self.elapsed = state["steps"], state["updates"], state["elapsed"]
        self.best, self.evals = state["best"], state["evals"]
        for path in state["snapshots"]:
            self.pool.add(path)
        self.rng.bit_generator.state = state["rng"]
        th.set_rng_state(state["torch_rng"])

    def seconds(self) -> float:
        return self.elapsed + (time.time() - self.started)

    def progress(self, budget: float) -> float:
        """How much of the budget is spent, 0..1 (the larger of time and steps)."""
        done = self.seconds() / budget if budget > 0 else 0.0
        if self.args.steps:
            done = max(done, self.steps / self.args.steps)
        return min(done, 1.0)

    # ------------------------------------------------------------ loop
    def evaluate(self) -> dict[str, tuple[float, float, float]]:
        a = self.args
        current = self.out / "current.npz"
        self.export(current)
        rates = evaluate(a.env, a.players, current, a.eval_levels, a.eval_games, EVAL_SEED)
        self.evals += 1
        path = self.out / "eval.csv"
        header = ["steps", "updates", "seconds"] + [f"vs_{lv}{s}" for lv in a.eval_levels
                                                    for s in ("", "_lo", "_hi")]
        new = not path.exists()
        with open(path, "a", newline="") as f:
            w = csv.writer(f)
            if new:
                w.writerow(header)
            w.writerow([self.steps, self.updates, round(self.seconds(), 1)]
                       + [f"{x:.4f}" for lv in a.eval_levels for x in rates[lv]])
        score = float(np.mean([rates[lv][0] for lv in a.eval_levels]))
        if score > self.best:
            self.best = score
            self.export(self.out / "best.npz")
        plot_curve(path, self.out / "learning_curve.png",
                   f"{a.env}, {a.observation}, seed {a.seed}: PPO from scratch")
        self.save()
        return rates

    def _log(self, writer: Any, info: dict[str, float], sps: float) -> None:
        """One row of ``train.csv``."""
        st = self.stats
        mean_return = float(np.mean(st.returns)) if st.returns else 0.0
        writer.writerow([self.updates, self.steps, round(self.seconds(), 1), round(sps), st.episodes,
                         round(mean_return, 4), *[round(info[k], 5) for k in LOSS_COLUMNS],
                         json.dumps({k: round(v, 3) for k, v in st.shares().items()})])

    def train(self) -> None:
        """PPO until the wall-time budget (or ``--steps``) is spent, then a last evaluation."""
        a = self.args
        self.started = time.time()
        budget = a.hours * 3600
        tables = [Table(self.game, self.pool, np.random.default_rng([a.seed, self.updates, i]),
                        a.round_reward) for i in range(a.n_envs)]
        for t in tables:
            t.reset()
        returns = [0.0] * a.n_envs
        log_path = self.out / "train.csv"
        new_log = not log_path.exists()
        bar = _progress(budget, self.seconds(), a.no_progress)
        last_eval = self.seconds() if self.evals else -math.inf
        last_line = ""
        with open(log_path, "a", newline="") as log:
            writer = csv.writer(log)
            if new_log:
                writer.writerow(["updates", "steps", "seconds", "steps_per_s", "episodes", "mean_return",
                                 *LOSS_COLUMNS, "train_shares"])
            while self.seconds() < budget and not (a.steps and self.steps >= a.steps):
                t0 = time.time()
                self.learner.set_lr(self.progress(budget))
                ro, last = collect(self.learner, tables, self.encoder, a.n_steps, self.stats, returns)
                info = self.learner.update(ro, last, a.n_envs)
                self.steps += len(ro.rewards)
                self.updates += 1
                sps = len(ro.rewards) / max(time.time() - t0, 1e-9)
                self._log(writer, info, sps)
                log.flush()
                if self.updates % a.snapshot_every == 0 and a.self_play > 0:
                    snap = self.out / "snapshots" / f"u{self.updates:06d}.npz"
                    self.export(snap)
                    self.pool.add(str(snap))
                if self.seconds() - last_eval >= a.eval_every * 60:
                    rates = self.evaluate()
                    last_eval = self.seconds()
                    last_line = " ".join(f"{lv} {s:.0%}" for lv, (s, _, _) in rates.items())
                    bar.write(self._eval_line(rates))
                bar.update(round(self.seconds()) - bar.n)
                bar.set_postfix_str(f"{self.steps:,} steps, {sps:,.0f}/s, eval: {last_line or '-'}")
        rates = self.evaluate()
        bar.write(self._eval_line(rates, "final evaluation: "))
        bar.close()
        self.export(self.out / "final.npz")

    def _eval_line(self, rates: dict[str, tuple[float, float, float]], what: str = "vs ") -> str:
        shares = ", ".join(f"{lv}: {s:.1%} [{lo:.1%}, {hi:.1%}]" for lv, (s, lo, hi) in rates.items())
        return f"[{self.seconds() / 3600:.2f} h, {self.steps:,} steps] {what}{shares}"


def _progress(total_seconds: float, done: float, disabled: bool) -> Any:
    from tqdm import tqdm

    return tqdm(total=round(total_seconds), initial=round(done), unit="s", disable=disabled,
                desc="training", dynamic_ncols=True,
                bar_format="{desc}: {percentage:3.0f}% of the time|{bar}| {elapsed}<{remaining}{postfix}")


def final_match(run: Run) -> dict[str, Any]:
    """``best.npz`` against each evaluation level, ``--final-games`` games on fresh deals."""
    a = run.args
    rates = evaluate(a.env, a.players, run.out / "best.npz", a.eval_levels, a.final_games, FINAL_SEED)
    report = {"policy": str(run.out / "best.npz"), "games_per_level": a.final_games, "deals_from": FINAL_SEED,
              "results": {lv: {"share": s, "wilson95": [lo, hi]} for lv, (s, lo, hi) in rates.items()},
              "train_hours": round(run.seconds() / 3600, 3), "train_steps": run.steps, "command": run.command}
    (run.out / "final.json").write_text(json.dumps(report, indent=1))
    for lv, (s, lo, hi) in rates.items():
        print(f"best.npz vs {lv}: {s:.1%} [{lo:.1%}, {hi:.1%}] over {a.final_games} games")
    return report


def main(argv: list[str] | None = None) -> None:
    """Train as the command line says (or resume), evaluate, export."""
    args, explicit = parse_args(argv)
    import torch

    torch.set_num_threads(1)
    command = shlex.join(["python", "-m", "experiments.selfplay", *(sys.argv[1:] if argv is None else argv)])
    if args.resume:
        saved = json.loads((Path(args.resume) / "args.json").read_text())
        for k, v in saved.items():
            if k not in RESUMABLE or k not in explicit:
                setattr(args, k, v)
        args.out = args.resume
    run = Run(args, command)
    if args.resume:
        run.load()
        print(f"resumed {run.out} at {run.steps:,} steps, {run.elapsed / 3600:.2f} h", flush=True)
    else:
        saved = {k: v for k, v in vars(args).items() if k != "resume"}
        (run.out / "args.json").write_text(json.dumps(saved, indent=1))
    run.train()
    if args.final_games:
        final_match(run)
    if args.export:
        import shutil

        Path(args.export).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(run.out / "best.npz", args.export)
        print(f"exported best.npz to {args.export}")
    print(f"done: {run.steps:,} steps in {run.seconds() / 3600:.2f} h; files in {run.out}")


if __name__ == "__main__":
    main()
