"""Audit reproduction: clone a teacher level, compare agreement with play strength.

    python -m experiments.studies.audit.repro --env lineit_v0 --teacher greedy --games 300 --epochs 6 \\
        [--dagger 2]

Clones through ``experiments/train.py``'s own functions, exports, then scores the file
with ``train.evaluate`` and the teacher itself against the planner on the same deals.
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

import torch

torch.set_num_threads(1)

from agents.cli import HelpFormatter  # noqa: E402
from agents.learning import sb3_speedups  # noqa: E402
from experiments import train  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(formatter_class=HelpFormatter)
    ap.add_argument("--env", default="lineit_v0")
    ap.add_argument("--teacher", default="greedy")
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--eval-games", type=int, default=100)
    ap.add_argument("--net", default="256,256")
    ap.add_argument("--no-scale", action="store_true")
    ap.add_argument("--dagger", type=int, default=0)
    ap.add_argument("--dagger-games", type=int, default=150)
    ap.add_argument("--holdout", type=float, default=0.1)
    ap.add_argument("--levels", nargs="*", default=None)
    ap.add_argument("--out", default="/tmp/audit")
    a = ap.parse_args()
    sb3_speedups.enable()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    argv = ["--env", a.env, "--imitate", a.teacher, "--imitate-games", str(a.games), "--imitate-epochs",
            str(a.epochs), "--steps", "0", "--n-envs", "1", "--net-arch", a.net, "--out", str(out),
            "--imitate-cache", str(out / f"{a.env}_{a.teacher}_{a.games}.npz"),
            "--dagger", str(a.dagger), "--dagger-games", str(a.dagger_games),
            "--imitate-holdout", str(a.holdout)]
    if a.no_scale:
        argv.append("--no-scale")
    args = train.parse_args(argv)
    options: dict = {}
    venv, scale = train.build_envs(args, options, out)
    model = train.build_model(args, venv, train.ppo_settings(args), out)
    run = train.Run(args, model, out, scale, {"env": a.env, "players": 2})
    t = time.time()
    train.imitation_phase(run, options)
    print(f"imitation {time.time() - t:.0f}s")
    path = out / "clone.npz"
    run.export(path)
    model.save(out / "clone_model")
    t = time.time()
    rates = train.evaluate(a.env, 2, str(path), a.levels or [a.teacher, "planner"], a.eval_games, 10_000, 1)
    print(f"clone via evaluate(): {rates}  ({time.time() - t:.0f}s)")
    from agents.evaluation.tournament import Match, run_matches
    for lvl in ["planner"]:
        ms = [Match(a.env, (a.teacher, lvl) if g % 2 == 0 else (lvl, a.teacher), 10_000 + g // 2)
              for g in range(a.eval_games)]
        res = run_matches(ms, progress=False)
        s = 0.0
        for r in res:
            me = r.match.seats.index(a.teacher)
            best = max(r.rewards)
            w = [i for i, x in enumerate(r.rewards) if x == best]
            s += 1 / len(w) if me in w else 0
        print(f"teacher {a.teacher} vs {lvl}: {s / len(res):.3f}")


if __name__ == "__main__":
    main()
