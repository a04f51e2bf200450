#!/usr/bin/env python3
"""Baselines rows for PPO from scratch: one row per observation design, and the long self-play run.

    python -m experiments.selfplay_baselines --env lineit_v0 --seeds 3 --minutes 10 --long-minutes 60

Every run is ``experiments/selfplay.py`` (the project's batched PPO, opponents drawn from
random, greedy and planner, half of them earlier selves), 2 players, with one thing
varied between the rows:

* ``flat``, ``planes``, ``action_features``: the observation design (see
  ``cardenvs.core.observers``), each for ``--minutes`` of wall time;
* ``action_features, long``: the action-feature design for ``--long-minutes``.

Each run's curve is its periodic evaluation (``--curve-games`` games against greedy and
the planner every ``--eval-every`` minutes); its ``best.npz`` (the best of those
evaluations) then plays ``--eval-games`` games against each on fresh deals (from
20,000, seats alternating), which is the table's number.  The report
(``<docs>/results/baselines/selfplay_<env>.md`` and ``.json``) gives per row the mean ±
standard deviation over seeds, the pooled 95% Wilson interval, the steps, the wall
time, and every command; ``<docs>/img/selfplay_<env>.png`` draws the curves (mean over
seeds, min-max band) against wall time.  ``--resume`` skips the runs that have their
``final.json``.  One run at a time, one torch thread.

``--plot-runs LABEL=DIR ... --plot-out FILE.png`` only draws the curves of finished runs
(any ``experiments/selfplay.py`` folders, e.g. a long run and its resumes) on one figure
and trains nothing:

    python -m experiments.selfplay_baselines --plot-runs "20 min=runs/dev/lineit_lr1e3" \
        --plot-out docs/img/selfplay_lineit_v0.png --title "Line-it, 2 players"
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import platform
import shlex
import statistics
import sys
from pathlib import Path
from typing import Any

from agents.cli import HelpFormatter

#: the rows, in table order: (label, observation design, long budget?)
ROWS = (("flat", "flat", False), ("planes", "planes", False), ("action_features", "action_features", False),
        ("action_features, long", "action_features", True))
LEVELS = ("greedy", "planner")


def run_dir(out: Path, env: str, label: str, seed: int) -> Path:
    return out / env / f"{label.replace(', ', '_')}_s{seed}"


def run_argv(args: argparse.Namespace, label: str, design: str, long: bool, seed: int) -> list[str]:
    minutes = args.long_minutes if long else args.minutes
    argv = ["--env", args.env, "--observation", design, "--seed", str(seed), "--hours", f"{minutes / 60:g}",
            "--eval-every", f"{args.eval_every:g}", "--eval-games", str(args.curve_games),
            "--final-games", str(args.eval_games),
            "--out", str(run_dir(Path(args.out_dir), args.env, label, seed)), "--no-progress"]
    if args.round_reward:
        argv += ["--round-reward", f"{args.round_reward:g}"]
    return argv + shlex.split(args.trainer_args)


def wilson(share: float, n: int) -> tuple[float, float]:
    from agents.evaluation.tournament import wilson as w

    return w(share, n)


def summarise(args: argparse.Namespace) -> dict[str, Any]:
    """The rows from every run's ``final.json`` and ``eval.csv``."""
    rows: dict[str, Any] = {}
    for label, design, long in ROWS:
        if label not in args.rows:
            continue
        runs = []
        for seed in range(args.seeds):
            d = run_dir(Path(args.out_dir), args.env, label, seed)
            if not (d / "final.json").exists():
                continue
            final = json.loads((d / "final.json").read_text())
            curve = read_curve(d)
            runs.append({"seed": seed, "dir": str(d), "final": final, "curve": curve,
                         "command": shlex.join(["python", "-m", "experiments.selfplay",
                                                *run_argv(args, label, design, long, seed)])})
        if not runs:
            continue
        row: dict[str, Any] = {"design": design, "minutes": args.long_minutes if long else args.minutes,
                               "runs": runs, "levels": {}}
        for level in LEVELS:
            shares = [r["final"]["results"][level]["share"] for r in runs]
            n = sum(r["final"]["games_per_level"] for r in runs)
            pooled = sum(s * r["final"]["games_per_level"] for s, r in zip(shares, runs)) / n
            lo, hi = wilson(pooled, n)
            row["levels"][level] = {"mean": statistics.mean(shares),
                                    "std": statistics.stdev(shares) if len(shares) > 1 else 0.0,
                                    "pooled": pooled, "wilson95": [lo, hi], "games": n}
        row["steps"] = statistics.mean(r["final"]["train_steps"] for r in runs)
        row["hours"] = statistics.mean(r["final"]["train_hours"] for r in runs)
        rows[label] = row
    return rows


def plot(rows: dict[str, Any], path: Path, title: str) -> None:
    """Mean over seeds of the share against greedy (solid) and the planner (dashed) against wall time."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharey=True)
    for ax, level in zip(axes, LEVELS):
        for label, row in rows.items():
            curves = [r["curve"] for r in row["runs"]]
            end = min(c[-1]["seconds"] for c in curves) / 3600
            grid = np.linspace(0, end, 40)
            ys = np.array([np.interp(grid, [p["seconds"] / 3600 for p in c], [p[f"vs_{level}"] for p in c])
                           for c in curves])
            (line,) = ax.plot(grid, ys.mean(0), label=f"{label} ({len(curves)} seeds)")
            ax.fill_between(grid, ys.min(0), ys.max(0), color=line.get_color(), alpha=0.15, lw=0)
        ax.axhline(0.5, color="grey", lw=0.8, ls="--")
        if level == "greedy":
            ax.axhline(0.55, color="grey", lw=0.8, ls=":")
        ax.set_title(f"vs {level}")
        ax.set_xlabel("wall time (hours, this machine)")
        ax.set_ylim(0, 1)
    axes[0].set_ylabel("win share (periodic evaluation)")
    axes[1].legend(loc="lower right", fontsize=8)
    fig.suptitle(title)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def read_curve(run: Path) -> list[dict[str, float]]:
    """A selfplay.py run's periodic evaluations (``eval.csv``), one dict per point."""
    import csv

    with open(run / "eval.csv") as f:
        return [{k: float(v) for k, v in r.items()} for r in csv.DictReader(f)]


def plot_runs(runs: dict[str, Path], path: Path, title: str) -> None:
    """One curve per run: its share against greedy and the planner (with the 95% Wilson band)
    at each periodic evaluation, against wall time."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharey=True)
    for ax, level in zip(axes, LEVELS):
        for label, run in runs.items():
            curve = read_curve(run)
            hours = [p["seconds"] / 3600 for p in curve]
            (line,) = ax.plot(hours, [p[f"vs_{level}"] for p in curve], marker=".", label=label)
            ax.fill_between(hours, [p[f"vs_{level}_lo"] for p in curve], [p[f"vs_{level}_hi"] for p in curve],
                            color=line.get_color(), alpha=0.12, lw=0)
        ax.axhline(0.5, color="grey", lw=0.8, ls="--")
        if level == "greedy":
            ax.axhline(0.55, color="grey", lw=0.8, ls=":")
        ax.set_title(f"vs {level}")
        ax.set_xlabel("wall time (hours, this machine)")
        ax.set_ylim(0, 1)
    axes[0].set_ylabel("win share (periodic evaluation, 95% band)")
    axes[1].legend(loc="lower right", fontsize=8)
    fig.suptitle(title)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _cell(x: dict[str, Any]) -> str:
    lo, hi = x["wilson95"]
    return f"{x['mean']:.0%} ± {x['std']:.0%} [{lo:.0%}, {hi:.0%}]"


def report(args: argparse.Namespace, rows: dict[str, Any], command: str) -> str:
    """The markdown page of the rows."""
    date = dt.date.today().isoformat()
    lines = [f"# PPO from scratch, by observation design: {args.env}, 2 players", "",
             f"Made by `{command}` on {date}, on {platform.machine()} with 2 CPU cores shared with other "
             "work, one run at a time, 1 torch thread.", "",
             "Every run is `experiments/selfplay.py`: the project's batched PPO, no teacher, no search; "
             "opponents drawn from random, greedy and planner, half of them earlier selves. Each run's "
             f"`best.npz` (best of its periodic evaluations) plays {args.eval_games} games against greedy "
             "and against the planner on fresh deals (from 20,000), seats alternating. Cells: mean ± std "
             "over seeds, then the 95% Wilson interval of all seeds' games pooled.", "",
             "| row | observation | budget per run | learner steps (mean) | vs greedy | vs planner | seeds |",
             "|---|---|---:|---:|---:|---:|---:|"]
    for label, row in rows.items():
        lines.append(f"| {label} | `{row['design']}` | {row['minutes']:g} min | {row['steps']:,.0f} | "
                     f"{_cell(row['levels']['greedy'])} | {_cell(row['levels']['planner'])} | "
                     f"{len(row['runs'])} |")
    lines += ["", "## Per seed", "", "| row | seed | steps | hours | vs greedy | vs planner | run folder |",
              "|---|---:|---:|---:|---:|---:|---|"]
    for label, row in rows.items():
        for r in row["runs"]:
            res = r["final"]["results"]
            cells = [f"{r['final']['train_steps']:,}", f"{r['final']['train_hours']:.2f}",
                     f"{res['greedy']['share']:.1%}", f"{res['planner']['share']:.1%}", f"`{r['dir']}`"]
            lines.append(f"| {label} | {r['seed']} | " + " | ".join(cells) + " |")
    lines += ["", f"Curves: `docs/img/selfplay_{args.env}.png`.", "", "## Commands", "", "```bash", command]
    for row in rows.values():
        for r in row["runs"]:
            lines.append(r["command"])
    lines += ["```", ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=HelpFormatter)
    ap.add_argument("--env", default="lineit_v0")
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--rows", nargs="*", default=[r[0] for r in ROWS], help="a subset of the row labels")
    ap.add_argument("--minutes", type=float, default=10.0, help="wall-time budget of a design row's run")
    ap.add_argument("--long-minutes", type=float, default=60.0, help="budget of the long self-play run")
    ap.add_argument("--eval-every", type=float, default=2.0, help="minutes between a run's curve points")
    ap.add_argument("--curve-games", type=int, default=100)
    ap.add_argument("--eval-games", type=int, default=200, help="games per level and seed of the final match")
    ap.add_argument("--round-reward", type=float, default=0.0)
    ap.add_argument("--trainer-args", default="",
                    help="more options for every selfplay.py run, e.g. '--lr 1e-3'")
    ap.add_argument("--out-dir", default="runs/selfplay_baselines")
    ap.add_argument("--docs", default="docs")
    ap.add_argument("--resume", action="store_true")
    ap.add_argument("--plot-runs", nargs="+", default=None, metavar="LABEL=DIR",
                    help="only draw these finished runs' curves (to --plot-out) and train nothing")
    ap.add_argument("--plot-out", default=None, help="the figure --plot-runs writes")
    ap.add_argument("--title", default="", help="the figure's title (--plot-runs)")
    args = ap.parse_args(argv)
    if args.plot_runs:
        if not args.plot_out:
            ap.error("--plot-runs needs --plot-out FILE.png")
        pairs = [item.partition("=") for item in args.plot_runs]
        bad = [item for item, (_, eq, d) in zip(args.plot_runs, pairs)
               if not eq or not (Path(d) / "eval.csv").exists()]
        if bad:
            ap.error(f"each --plot-runs item is LABEL=DIR with DIR/eval.csv; not: {', '.join(bad)}")
        plot_runs({label: Path(d) for label, _, d in pairs}, Path(args.plot_out), args.title or args.env)
        print(f"wrote {args.plot_out}")
        return {}
    given = sys.argv[1:] if argv is None else argv
    command = shlex.join(["python", "-m", "experiments.selfplay_baselines", *given])
    from experiments import selfplay

    for seed in range(args.seeds):  # seeds outermost: a stopped grid has every row at some seeds
        for label, design, long in ROWS:
            if label not in args.rows:
                continue
            d = run_dir(Path(args.out_dir), args.env, label, seed)
            if args.resume and (d / "final.json").exists():
                continue
            print(f"== {label}, seed {seed}", flush=True)
            selfplay.main(run_argv(args, label, design, long, seed))
    rows = summarise(args)
    docs = Path(args.docs)
    out = docs / "results" / "baselines" / f"selfplay_{args.env}.md"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(report(args, rows, command))
    (out.with_suffix(".json")).write_text(json.dumps({"command": command, "rows": rows}, indent=1))
    plot(rows, docs / "img" / f"selfplay_{args.env}.png", f"{args.env}, 2 players: PPO from scratch")
    print(out.read_text())
    return rows


if __name__ == "__main__":
    main()
