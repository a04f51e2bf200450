#!/usr/bin/env python3
"""RL baselines table for one game: five training methods, several seeds, one evaluation.

    python -m experiments.baselines --env lineit_v0 --seeds 3 --steps 100000 --eval-every 20000 \\
        --imitate-games 200 --dagger-rounds 2 --dagger-games 100 --eval-games 200 --expert-games 40

Methods (every one trained by ``experiments/train.py`` in a subprocess, 2 players):

* ``ppo``: MaskablePPO from scratch against the ladder pool (``--pool random greedy planner``);
* ``selfplay``: PPO with self-play (``--self-play 0.5 --pool random greedy``);
* ``bc``: behaviour cloning of the planner (``--imitate planner --steps 0``);
* ``bc+ppo``: cloning, then PPO against the ladder pool (``--imitate planner --steps N``);
* ``dagger``: cloning and DAgger rounds (``--imitate planner --dagger R --dagger-games G --steps 0``).

Each run writes to ``<out-dir>/<env>/<method>_s<seed>`` and exports its final policy there
(``policy.npz``).  Every final policy then plays ``--eval-games`` games against random,
greedy and planner and ``--expert-games`` against the expert (expert games are slow),
through the tournament code, seats alternating on the same deals (the same deals for
every policy).  The report gives, per method, the mean ± standard deviation over seeds of
the win share (draws split), the pooled 95% Wilson interval over all seeds' games, the
PPO steps, the teacher games and the wall time: ``<docs>/results/baselines/<env>.md`` and
``<env>.json``, and the learning curves ``<docs>/img/baselines_<env>.png`` (read from each
run's ``eval.csv``).  ``--resume`` skips the runs whose policy exists and the evaluations
already stored next to it.

One process at a time: train.py runs with one torch thread and ``--workers 1``, and the
evaluation games are played in this process.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # one core: no BLAS thread pools, here or in train.py

import argparse  # noqa: E402
import csv  # noqa: E402
import datetime as dt  # noqa: E402
import json  # noqa: E402
import math  # noqa: E402
import shlex  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from dataclasses import asdict, dataclass, field  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]

from agents.cli import HelpFormatter  # noqa: E402
from agents.evaluation.tournament import wilson  # noqa: E402
from experiments.reporting import command_line, machine  # noqa: E402

#: the methods, in table order
METHODS = ("ppo", "selfplay", "bc", "bc+ppo", "dagger")
#: what each method is, for the report
DESCRIPTIONS = {
    "ppo": "MaskablePPO from scratch, opponents drawn from random, greedy and planner",
    "selfplay": "MaskablePPO, half the opponents earlier snapshots of itself, the rest random or greedy",
    "bc": "behaviour cloning of the planner (no PPO)",
    "bc+ppo": "cloning of the planner, then MaskablePPO against random, greedy and planner",
    "dagger": "cloning of the planner, then DAgger rounds (the planner labels the clone's own positions)",
}
#: the levels the final policies are evaluated against
LEVELS = ("random", "greedy", "planner", "expert")
#: the options the report lists as the budgets
BUDGET_OPTIONS = ("seeds", "steps", "imitate_games", "imitate_epochs", "dagger_rounds", "dagger_games",
                  "finetune_lr", "round_reward", "n_envs", "n_steps", "curve_games", "eval_games",
                  "expert_games")
#: the evaluation deals start here (the in-training evaluations of train.py use 10,000)
EVAL_SEED = 20_000


@dataclass
class Budget:
    """What one method's run is given (the numbers the report prints)."""

    ppo_steps: int
    teacher_games: int


@dataclass
class LevelResult:
    """A policy's games against one level: summed score (draws split), games, truncated games."""

    score: float
    games: int
    truncated: int = 0

    @property
    def share(self) -> float:
        """Win share, draws split."""
        return self.score / self.games if self.games else float("nan")


@dataclass
class RunRecord:
    """One training run: where it is, how it was made, how it played."""

    method: str
    seed: int
    out: str
    policy: str
    command: list[str]
    train_seconds: float | None = None
    eval_seconds: float = 0.0
    ppo_steps: int = 0
    teacher_games: int = 0
    results: dict[str, LevelResult] = field(default_factory=dict)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=HelpFormatter)
    ap.add_argument("--env", default="lineit_v0", choices=["lineit_v0", "line_v0", "rummy432_v0"])
    ap.add_argument("--players", type=int, default=2, choices=[2], help="two players (the table's setting)")
    ap.add_argument("--methods", nargs="+", default=list(METHODS), choices=list(METHODS))
    ap.add_argument("--seeds", type=int, default=3, help="training seeds per method (0, 1, ...)")
    ap.add_argument("--steps", type=int, default=100_000, help="PPO steps of ppo, selfplay and bc+ppo")
    ap.add_argument("--imitate-games", type=int, default=200,
                    help="planner games cloned by bc, bc+ppo, dagger")
    ap.add_argument("--imitate-epochs", type=int, default=8)
    ap.add_argument("--dagger-rounds", type=int, default=2)
    ap.add_argument("--dagger-games", type=int, default=100, help="games the clone plays per DAgger round")
    ap.add_argument("--finetune-lr", type=float, default=1e-4,
                    help="bc+ppo's PPO learning rate (the shipped Line-it recipe's; "
                         "from-scratch PPO uses the game's default)")
    ap.add_argument("--round-reward", type=float, default=0.0,
                    help="rummy432_v0: train.py's per-round reward shaping for the PPO methods (0: none)")
    ap.add_argument("--n-envs", type=int, default=8, help="in-process vector envs of each PPO run")
    ap.add_argument("--n-steps", type=int, default=None, help="rollout length per env (default: the game's)")
    ap.add_argument("--eval-every", type=int, default=None,
                    help="steps between train.py's evaluations, the curves' points (default: --steps / 5)")
    ap.add_argument("--curve-games", type=int, default=40,
                    help="games per level of train.py's evaluations (the learning curves)")
    ap.add_argument("--eval-games", type=int, default=200, help="final games against random, greedy, planner")
    ap.add_argument("--expert-games", type=int, default=40, help="final games against the expert (slow)")
    ap.add_argument("--levels", nargs="+", default=list(LEVELS), choices=list(LEVELS),
                    help="levels of the final evaluation")
    ap.add_argument("--out-dir", default=str(Path(__file__).resolve().parents[1] / "runs" / "baselines"),
                    help="run folders go to OUT_DIR/<env>/")
    ap.add_argument("--docs", default="docs",
                    help="the report goes to DOCS/results/baselines/ and DOCS/img/baselines_<env>.png")
    ap.add_argument("--resume", action="store_true",
                    help="skip runs whose policy exists and evaluations already stored")
    return ap.parse_args(argv)


def budget(args: argparse.Namespace, method: str) -> Budget:
    """The PPO steps and teacher games a method is given."""
    steps = args.steps if method in ("ppo", "selfplay", "bc+ppo") else 0
    games = 0
    if method in ("bc", "bc+ppo", "dagger"):
        games = args.imitate_games
    if method == "dagger":
        games += args.dagger_rounds * args.dagger_games
    return Budget(steps, games)


def train_command(args: argparse.Namespace, method: str, seed: int, out: Path) -> list[str]:
    """The train.py command line of one run (without the interpreter)."""
    steps = budget(args, method).ppo_steps
    eval_every = args.eval_every or max(1, args.steps // 5)
    cmd = ["-m", "experiments.train", "--env", args.env, "--players", str(args.players), "--seed", str(seed),
           "--steps", str(steps), "--n-envs", str(args.n_envs), "--eval-every", str(eval_every),
           "--eval-games", str(args.curve_games), "--eval-levels", "random", "greedy", "planner",
           "--workers", "1", "--out", str(out), "--export", str(out / "policy.npz")]
    if args.n_steps:
        cmd += ["--n-steps", str(args.n_steps)]
    if args.round_reward and steps > 0:
        cmd += ["--round-reward", str(args.round_reward)]
    if method == "ppo":
        cmd += ["--pool", "random", "greedy", "planner"]
    elif method == "selfplay":
        cmd += ["--pool", "random", "greedy", "--self-play", "0.5",
                "--snapshot-every", str(max(1, steps // 10))]
    else:
        cmd += ["--imitate", "planner", "--imitate-games", str(args.imitate_games),
                "--imitate-epochs", str(args.imitate_epochs)]
        if method == "bc+ppo":
            cmd += ["--pool", "random", "greedy", "planner", "--lr", str(args.finetune_lr)]
        if method == "dagger":
            cmd += ["--dagger", str(args.dagger_rounds), "--dagger-games", str(args.dagger_games)]
    return cmd


def run_dir(args: argparse.Namespace, method: str, seed: int) -> Path:
    """The run folder: ``<out-dir>/<env>/<method>_s<seed>``."""
    return Path(args.out_dir) / args.env / f"{method}_s{seed}"


def evaluate(env: str, players: int, policy: Path, level: str, games: int,
             seed: int = EVAL_SEED) -> LevelResult:
    """``games`` games of the policy against ``level``, seats alternating on the same deals.

    Scores as train.py's ``evaluate`` does: 1 for a sole win, ``1/k`` for a win shared by
    ``k`` (a game truncated by the turn cap is a draw, and counted apart).
    """
    from agents.evaluation.tournament import Match, points, run_matches

    me = f"policy:{policy}"
    matches = []
    for g in range(games):
        seats = [level] * players
        seats[g % players] = me
        matches.append(Match(env, tuple(seats), seed + g // players))
    score, truncated = 0.0, 0
    for res in run_matches(matches, workers=1, progress=False):
        seat = res.match.seats.index(me)
        score += points(res.rewards)[seat]
        truncated += res.truncated
    return LevelResult(score, games, truncated)


def read_curve(path: Path) -> list[dict[str, float]]:
    """The rows of a run's ``eval.csv`` (steps, seconds, vs_<level>), as numbers."""
    if not path.exists():
        return []
    with open(path) as f:
        return [{k: float(v) for k, v in row.items()} for row in csv.DictReader(f)]


def load_record(path: Path) -> RunRecord | None:
    """A run's stored record (``baseline.json`` in its folder), if any."""
    if not path.exists():
        return None
    d = json.loads(path.read_text())
    d["results"] = {k: LevelResult(**v) for k, v in d.get("results", {}).items()}
    return RunRecord(**d)


def save_record(rec: RunRecord, path: Path) -> None:
    """Store a run's record next to its policy (what ``--resume`` reads)."""
    path.write_text(json.dumps(asdict(rec), indent=1))


def shown(cmd: list[str]) -> str:
    """A command line as it would be typed in the project root."""
    return "python " + shlex.join(cmd)


def train_run(args: argparse.Namespace, method: str, seed: int) -> RunRecord:
    """Train one run (unless ``--resume`` finds its policy), log to ``train.log``; its record."""
    out = run_dir(args, method, seed)
    policy = out / "policy.npz"
    cmd = train_command(args, method, seed, out)
    old = load_record(out / "baseline.json")
    if args.resume and policy.exists() and old is not None and old.train_seconds is not None:
        old.method, old.seed = method, seed
        return old
    out.mkdir(parents=True, exist_ok=True)
    rec = RunRecord(method, seed, str(out), str(policy), cmd)
    start = time.time()
    with open(out / "train.log", "w") as log:
        proc = subprocess.run([sys.executable, *cmd], cwd=ROOT, stdout=log,
                              stderr=subprocess.STDOUT, env=os.environ.copy(), check=False)
    rec.train_seconds = round(time.time() - start, 1)
    if proc.returncode != 0 or not policy.exists():
        tail = (out / "train.log").read_text()[-3000:]
        raise RuntimeError(f"{shown(cmd)} failed (exit {proc.returncode}):\n{tail}")
    curve = read_curve(out / "eval.csv")
    rec.ppo_steps = int(curve[-1]["steps"]) if curve else 0
    rec.teacher_games = budget(args, method).teacher_games
    save_record(rec, out / "baseline.json")
    return rec


def games_for(args: argparse.Namespace, level: str) -> int:
    """Final evaluation games against a level."""
    return args.expert_games if level == "expert" else args.eval_games


def evaluate_run(args: argparse.Namespace, rec: RunRecord) -> None:
    """Play the final evaluation of one run (levels already stored with the same games are kept)."""
    for level in args.levels:
        games = games_for(args, level)
        if level in rec.results and rec.results[level].games == games:
            continue
        start = time.time()
        rec.results[level] = evaluate(args.env, args.players, Path(rec.policy), level, games)
        rec.eval_seconds = round(rec.eval_seconds + time.time() - start, 1)
        save_record(rec, Path(rec.out) / "baseline.json")


def summarise(args: argparse.Namespace, records: list[RunRecord]) -> dict[str, Any]:
    """Per method and level: mean and std over seeds, pooled share and Wilson interval."""
    out: dict[str, Any] = {}
    for method in args.methods:
        recs = [r for r in records if r.method == method]
        if not recs:
            continue
        levels: dict[str, Any] = {}
        for level in args.levels:
            res = [r.results[level] for r in recs if level in r.results]
            if not res:
                continue
            shares = [x.share for x in res]
            mean = sum(shares) / len(shares)
            var = sum((s - mean) ** 2 for s in shares) / (len(shares) - 1) if len(shares) > 1 else 0.0
            std = math.sqrt(var)
            score, games = sum(x.score for x in res), sum(x.games for x in res)
            lo, hi = wilson(score / games if games else 0.0, games)
            levels[level] = {"mean": mean, "std": std, "seeds": len(res), "pooled": score / games,
                             "games": games, "games_per_seed": [x.games for x in res],
                             "truncated": sum(x.truncated for x in res), "wilson95": [lo, hi]}
        train_s = [r.train_seconds or 0.0 for r in recs]
        out[method] = {
            "description": DESCRIPTIONS[method],
            "seeds": len(recs),
            "ppo_steps": [r.ppo_steps for r in recs],
            "teacher_games": [r.teacher_games for r in recs],
            "train_seconds_mean": sum(train_s) / len(train_s),
            "eval_seconds_mean": sum(r.eval_seconds for r in recs) / len(recs),
            "levels": levels,
        }
    return out


def _fmt_share(d: dict[str, Any]) -> str:
    lo, hi = d["wilson95"]
    return (f"{100 * d['mean']:.0f} ± {100 * d['std']:.0f}% "
            f"[{100 * lo:.0f}, {100 * hi:.0f}]")


def _minutes(seconds: float) -> str:
    return f"{seconds / 60:.1f} min" if seconds >= 60 else f"{seconds:.0f} s"


def markdown(args: argparse.Namespace, summary: dict[str, Any], records: list[RunRecord],
             meta: dict[str, Any]) -> str:
    """The report: the table, the per-seed shares, budgets, machine and every command."""
    levels = list(args.levels)
    lines = [f"# RL baselines: {args.env}, {args.players} players", "",
             f"Made by `{meta['driver']}` on {meta['date']}, on {meta['machine']}.", "",
             "Win share of each method's final policy (draws split): mean ± standard deviation over "
             "training seeds, then the 95% Wilson interval of all seeds' games pooled. "
             "Seats alternate on the same deals, and every policy plays the same deals "
             f"(seeds from {EVAL_SEED}).", "",
             "| method | " + " | ".join(f"vs {lvl} (n/seed)" for lvl in levels)
             + " | PPO steps | teacher games | wall time per run (train + eval) |",
             "|---|" + "---:|" * (len(levels) + 3)]
    for method, s in summary.items():
        cells = []
        for lvl in levels:
            d = s["levels"].get(lvl)
            cells.append(f"{_fmt_share(d)} ({d['games_per_seed'][0]})" if d else "")
        steps = sorted(set(s["ppo_steps"]))
        lines.append(f"| `{method}` | " + " | ".join(cells)
                     + f" | {', '.join(f'{x:,}' for x in steps)} | {s['teacher_games'][0]:,}"
                     + f" | {_minutes(s['train_seconds_mean'])} + {_minutes(s['eval_seconds_mean'])} |")
    lines += ["", "Seeds: " + ", ".join(f"`{m}` {s['seeds']}" for m, s in summary.items()) + ". "
              "Teacher games: planner games cloned plus, for DAgger, games the clone played with the "
              "planner labelling its moves.", "",
              "## Per seed", "", "| method | seed | " + " | ".join(f"vs {lvl}" for lvl in levels)
              + " | train | eval |", "|---|---:|" + "---:|" * (len(levels) + 2)]
    for rec in records:
        cells = [f"{100 * rec.results[lvl].share:.1f}%" if lvl in rec.results else "" for lvl in levels]
        lines.append(f"| `{rec.method}` | {rec.seed} | " + " | ".join(cells)
                     + f" | {_minutes(rec.train_seconds or 0)} | {_minutes(rec.eval_seconds)} |")
    b = meta["budgets"]
    lines += ["", "## Budgets", "", "| option | value |", "|---|---|"]
    lines += [f"| `--{k.replace('_', '-')}` | {v} |" for k, v in b.items()]
    lines += ["", "## Methods", ""]
    lines += [f"- `{m}`: {DESCRIPTIONS[m]}." for m in summary]
    lines += ["", "## Commands", "", "The driver:", "", "```bash", meta["driver"], "```", "",
              "Each run (train.py's own evaluations, the curves' points, use "
              f"{args.curve_games} games per level from deal 10,000):", "", "```bash"]
    lines += [shown(rec.command) for rec in records]
    lines += ["```", ""]
    return "\n".join(lines)


def plot(args: argparse.Namespace, records: list[RunRecord], path: Path) -> str:
    """Learning curves: win share against the planner (else greedy) over PPO steps, per method.

    Mean over seeds with a min-max band; runs without PPO (bc, dagger) have one point at
    step 0 and are drawn as a flat line with their band across the plot. Returns the level.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    curves: dict[str, list[list[dict[str, float]]]] = {rec.method: [] for rec in records}
    for rec in records:
        rows = read_curve(Path(rec.out) / "eval.csv")
        if rows:
            curves[rec.method].append(rows)
    first = next((c[0][0] for c in curves.values() if c), {})
    level = "planner" if "vs_planner" in first else "greedy"
    key = f"vs_{level}"
    fig, ax = plt.subplots(figsize=(8, 4.5))
    xmax = max([r["steps"] for c in curves.values() for run in c for r in run] + [1.0])
    for i, (method, runs) in enumerate(curves.items()):
        if not runs:
            continue
        colour = f"C{i}"
        n = min(len(run) for run in runs)
        steps = np.array([run[j]["steps"] for j in range(n) for run in runs[:1]])
        values = np.array([[run[j][key] for j in range(n)] for run in runs])
        mean, lo, hi = values.mean(0), values.min(0), values.max(0)
        label = f"{method} ({len(runs)} seed{'s' if len(runs) > 1 else ''})"
        if n == 1:  # no PPO: one evaluation, after imitation
            ax.axhline(mean[0], color=colour, ls="--", label=label)
            ax.axhspan(lo[0], hi[0], color=colour, alpha=0.12)
        else:
            ax.plot(steps, mean, marker="o", color=colour, label=label)
            ax.fill_between(steps, lo, hi, color=colour, alpha=0.18)
    ax.axhline(0.5, color="grey", lw=0.8, ls=":")
    ax.set_xlim(0, xmax)
    ax.set_ylim(0, 1)
    ax.set_xlabel("PPO steps")
    ax.set_ylabel(f"win share vs {level} (draws split)")
    ax.set_title(f"{args.env}, {args.players} players: mean over seeds, min-max band "
                 f"({args.curve_games} games per point)", fontsize=10)
    ax.legend(fontsize=8, loc="best")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return level


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Train every method and seed, evaluate the policies, write the report; the JSON written."""
    args = parse_args(argv)
    from tqdm import tqdm

    driver = command_line("experiments.baselines", argv)
    # seed after seed, so that a grid cut short has every method at the same number of seeds
    runs = [(m, s) for s in range(args.seeds) for m in args.methods]
    records: list[RunRecord] = []
    bar = tqdm(runs, desc=f"baselines {args.env}", unit="run")
    for method, seed in bar:
        bar.set_postfix_str(f"{method} s{seed}: training")
        rec = train_run(args, method, seed)
        bar.set_postfix_str(f"{method} s{seed}: evaluating")
        evaluate_run(args, rec)
        records.append(rec)
        shares = ", ".join(f"{lvl} {r.share:.0%}" for lvl, r in rec.results.items())
        tqdm.write(f"{method} s{seed}: train {rec.train_seconds:.0f} s, "
                   f"eval {rec.eval_seconds:.0f} s; {shares}")
    bar.close()
    meta: dict[str, Any] = {
        "driver": driver,
        "date": dt.date.today().isoformat(),
        "machine": f"{machine()}; one process at a time, 1 torch thread",
        "budgets": {k: getattr(args, k) for k in BUDGET_OPTIONS},
    }
    meta["budgets"]["eval_every"] = args.eval_every or max(1, args.steps // 5)
    records.sort(key=lambda r: (args.methods.index(r.method), r.seed))
    summary = summarise(args, records)
    docs = Path(args.docs)
    (docs / "results" / "baselines").mkdir(parents=True, exist_ok=True)
    png = docs / "img" / f"baselines_{args.env}.png"
    curve_level = plot(args, records, png)
    report = {"env": args.env, "players": args.players, **meta, "curve_level": curve_level,
              "levels": list(args.levels), "methods": summary,
              "runs": [asdict(r) for r in records]}
    md = markdown(args, summary, records, meta)
    md += (f"\nLearning curves (win share against the {curve_level} in train.py's evaluations): "
           f"`{png}`\n")
    (docs / "results" / "baselines" / f"{args.env}.md").write_text(md)
    (docs / "results" / "baselines" / f"{args.env}.json").write_text(json.dumps(report, indent=1))
    print(md)
    return report


if __name__ == "__main__":
    main()
