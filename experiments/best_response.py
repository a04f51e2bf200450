#!/usr/bin/env python3
"""How exploitable is each shipped level?  A local or an approximate best response against every one.

    nice -n 15 python -m experiments.best_response --games 40 --workers 2
    python -m experiments.best_response --envs line_v0 --targets random greedy --games 20 --worlds 4
    nice -n 15 python -m experiments.best_response --method abr --minutes 30 --games 400 \\
        --out docs/results/abr.md

``--method abr`` trains ``agents.best_response``'s learner against each target for
``--minutes`` of wall time (or ``--steps`` decisions) and scores it on ``--games`` fresh
games; the rest of this text is about ``--method lbr`` (the default), and holds for both.

For each game (at 2 players) and each target, ``agents.local_best_response`` plays its
exploiter against the target over ``--games`` games on duplicate deals (each deal twice,
the seats swapped) and scores it.  The targets are the game's playable levels
(``agents.playable_levels``: random, greedy, planner, expert and the shipped trained
policy) and ``scratch``, the from-scratch self-play policy shipped in
``agents/policies/scratch/<env>.npz`` (played as ``policy:FILE``); ``policy:FILE.npz``
names any other file.  ``--model-for LEVEL=MODEL`` has MODEL stand in for a target in
the exploiter's rollouts (the games are still against the target: a valid, weaker bound,
for a target too slow to roll out).  ``--games-for LEVEL=N`` changes the games against one target
(the expensive ones); ``--skip ENV:LEVEL`` leaves a pairing out (it is listed as
skipped, with ``--note`` saying why).

The exploiter's score is a lower bound on the target's exploitability in points per game
(fair share 50%): a score whose interval lies above 50% shows the target exploitable; one
at or below 50% shows nothing.  ``--control-variates`` takes the luck of the cards out of
the score (``agents.measure``, unbiased), the plain points beside it.  ``--out`` writes
the page with the command, the exploiter's settings and the machine's load (``uptime``)
before and after.  ``--backend ray`` / ``--ray-address ADDR`` play the games on Ray.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one BLAS thread a process (players.scorer.dense)

import argparse
import dataclasses
import datetime
import subprocess
from dataclasses import dataclass
from pathlib import Path

import agents
import cardenvs
from agents.cli import HelpFormatter
from agents.evaluation.exploitability import (
    ROLLOUT_POLICIES,
    ApproximateBestResponseResult,
    BestResponseResult,
)
from agents.evaluation.ray_backend import add_backend_arguments, backend_of
from experiments.reporting import command_line, machine, publish

#: the folder of the from-scratch policies (``scratch`` as a target)
SCRATCH = Path(agents.__file__).resolve().parent / "policies" / "scratch"


@dataclass
class Row:
    """One target's line of the table: its result, or why it was not run."""

    env: str
    target: str
    result: BestResponseResult | None = None
    skipped: str = ""
    #: CPU time of the games (this process and its workers)
    cpu_seconds: float = 0.0
    #: the level standing in for the target in the LBR rollouts ("": the target itself)
    model: str = ""


def uptime() -> str:
    """The machine's ``uptime`` line (its load averages), or a note that it is not there."""
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        load = os.getloadavg() if hasattr(os, "getloadavg") else None
        return "load average: " + ", ".join(f"{x:.2f}" for x in load) if load else "(no uptime here)"


def targets_of(env: str, names: list[str] | None) -> list[tuple[str, str]]:
    """``(shown name, level)`` of each target in ``env``: the names given, or every playable
    level and ``scratch``; ``scratch`` is the shipped from-scratch policy file."""
    if names is None:
        names = [*agents.playable_levels(env), "scratch"]
    out = []
    for name in names:
        if name == "scratch":
            path = SCRATCH / f"{env}.npz"
            if not path.exists():
                raise SystemExit(f"no from-scratch policy for {env} at {path}")
            shown = path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path
            out.append((name, f"policy:{shown}"))
        else:
            out.append((name, name))
    return out


def cpu_seconds() -> float:
    """CPU time of this process and its finished worker processes."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def pct(x: float) -> str:
    """A share as a percentage."""
    return f"{100 * x:.1f}%"


def markdown(rows: list[Row], settings: dict[str, object], command: str, load_before: str,
             load_after: str, note: str) -> str:
    """The page: what LBR measures, a table per game, the settings, command and load."""
    lines = [
        # not in a toctree glob of docs/results/index.md: orphan keeps the strict build quiet
        "---", "orphan: true", "---", "",
        "# Local best response against the shipped levels", "",
        "How exploitable is each level? An exploiter (`agents.local_best_response`, Lisý & Bowling's "
        "local best response adapted to these games) plays each target at 2 players on duplicate deals "
        "(each deal twice, the seats swapped). At each decision it samples worlds from its own View "
        "(`game.sample_state`), plays every candidate move out in each of them against the target, its "
        "own later moves by the rollout policy, with the same worlds and rollout seeds for every "
        "candidate, and keeps the best move when it beats the rollout policy's own move clearly "
        "(`agents/evaluation/exploitability.py` says how).", "",
        "**Reading it.** The exploiter is one legal strategy, so its score is a lower bound on the "
        "target's exploitability in points per game (a win 1, a shared win split; fair share 50%). "
        "A score whose interval lies above 50% shows the target exploitable (*yes*); a score at or "
        "below 50% says nothing: the target may still be exploited by a better response.", "",
        "LBR score: points per game with the luck of the cards taken out (AIVAT control variates, "
        "unbiased) where the settings say so, else the plain points; plain: the points as they fell "
        "on the same games. 95% Student intervals over deals.", "",
    ]
    for env in dict.fromkeys(r.env for r in rows):
        lines += [f"## {env}", "",
                  "| target | rollouts' target | games | LBR score [95%] | plain [95%] | exploitable "
                  "| minutes | CPU minutes |",
                  "|---|---|---:|---:|---:|---|---:|---:|"]
        for r in rows:
            if r.env != env:
                continue
            res = r.result
            if res is None:
                lines.append(f"| {r.target} | – | – | skipped: {r.skipped} | | | | |")
                continue
            lo, hi = res.interval
            plo, phi = res.plain_interval
            lines.append(f"| {r.target} | {r.model or 'itself'} | {res.games} | "
                         f"{pct(res.share)} [{pct(lo)}, {pct(hi)}] | "
                         f"{pct(res.plain_share)} [{pct(plo)}, {pct(phi)}] | "
                         f"{'yes' if res.exploitable else '–'} | {res.seconds / 60:.1f} | "
                         f"{r.cpu_seconds / 60:.1f} |")
        lines.append("")
    return _end(lines, note, "Exploiter", settings, command, load_before, load_after,
                "minutes are wall time, CPU minutes those of the script and its worker processes")


def _end(lines: list[str], note: str, who: str, settings: dict[str, object], command: str, load_before: str,
         load_after: str, minutes: str) -> str:
    """A page's last part (the note, the settings, the command, when, where and the load),
    joined to ``lines``."""
    shown = ", ".join(f"{k}={v}" for k, v in settings.items())
    tail = [note, ""] if note else []
    tail += [f"{who} settings: {shown}.", "", "Command:", "", "```bash", command, "```", "",
             f"Measured {datetime.date.today().isoformat()} on {machine()}; {minutes}.",
             f"Load (`uptime`) before: `{load_before}`; after: `{load_after}`."]
    return "\n".join(lines + tail) + "\n"


def abr_markdown(rows: list[Row], settings: dict[str, object], command: str, load_before: str,
                 load_after: str, note: str) -> str:
    """The ABR page: what it measures, a table per game, the settings, command and load."""
    lines = [
        "---", "orphan: true", "---", "",
        "# Approximate best response against the shipped levels", "",
        "How exploitable is each level? A learner (`agents.best_response`: the self-play trainer's PPO "
        "on the `action_features` design, from random weights) trains against the frozen target alone, "
        "every opponent the target, then plays it on fresh duplicate deals (each deal twice, the seats "
        "swapped) that the training never saw.", "",
        "**Reading it.** The learner is one legal strategy, so its score is a lower bound on the target's "
        "exploitability in points per game (fair share 50%). A score whose interval lies above 50% shows "
        "the target exploitable (*yes*); one at or below 50% says only that this budget found no exploit.",
        "",
        "ABR score: points per game with the luck of the cards taken out (AIVAT control variates, "
        "unbiased) where the settings say so; plain: the points as they fell on the same games. 95% "
        "Student intervals over deals. Training share: the learner's points over its last training "
        "games (up to 500), against the same target.", "",
    ]
    for env in dict.fromkeys(r.env for r in rows):
        lines += [f"## {env}", "",
                  "| target | train minutes | steps | training share | games | ABR score [95%] | plain [95%] "
                  "| exploitable | scoring minutes |",
                  "|---|---:|---:|---:|---:|---:|---:|---|---:|"]
        for r in rows:
            if r.env != env:
                continue
            res = r.result
            if not isinstance(res, ApproximateBestResponseResult):
                lines.append(f"| {r.target} | – | skipped: {r.skipped} | | | | | | |")
                continue
            lo, hi = res.interval
            plo, phi = res.plain_interval
            lines.append(f"| {r.target} | {res.train_minutes:.1f} | {res.steps:,} | "
                         f"{pct(res.training_share)} | "
                         f"{res.games} | {pct(res.share)} [{pct(lo)}, {pct(hi)}] | "
                         f"{pct(res.plain_share)} [{pct(plo)}, {pct(phi)}] | "
                         f"{'yes' if res.exploitable else '–'} | {res.seconds / 60:.1f} |")
        lines.append("")
    return _end(lines, note, "Learner", settings, command, load_before, load_after, "minutes are wall time")


def main(argv: list[str] | None = None) -> list[Row]:
    """Run LBR against the targets the command line names; print (and write) the page."""
    ap = argparse.ArgumentParser(prog="python -m experiments.best_response", description=__doc__,
                                 formatter_class=HelpFormatter)
    ap.add_argument("--method", choices=["lbr", "abr"], default="lbr",
                    help="local best response (rollouts at each decision) or approximate best response "
                         "(a learner trained against the target)")
    ap.add_argument("--minutes", type=float, default=30.0, help="abr: wall minutes of training per target")
    ap.add_argument("--minutes-for", nargs="*", default=[], metavar="LEVEL=M",
                    help="abr: training minutes against one target, in every game")
    ap.add_argument("--steps", type=int, default=0, help="abr: also stop training after this many decisions")
    ap.add_argument("--envs", nargs="*", default=list(cardenvs.ENVS), choices=list(cardenvs.ENVS))
    ap.add_argument("--targets", nargs="*", default=None,
                    help="levels, scratch or policy:FILE.npz (default: every playable level and scratch)")
    ap.add_argument("--games", type=int, default=40, help="games per target (rounded up to whole deals)")
    ap.add_argument("--games-for", nargs="*", default=[], metavar="LEVEL=N",
                    help="games against one target, in every game (e.g. trained=20 expert=10)")
    ap.add_argument("--model-for", nargs="*", default=[], metavar="LEVEL=MODEL",
                    help="lbr: the level that stands in for a target in the exploiter's rollouts (e.g. "
                         "expert=planner; the games are still against the target)")
    ap.add_argument("--skip", nargs="*", default=[], metavar="ENV:LEVEL",
                    help="pairings not to run (listed as skipped)")
    ap.add_argument("--note", default="", help="a paragraph for the page (why a pairing was skipped...)")
    ap.add_argument("--worlds", type=int, default=8, help="sampled worlds per decision")
    ap.add_argument("--max-candidates", type=int, default=8, help="moves searched per decision")
    ap.add_argument("--depth", type=int, default=40, help="most moves a rollout plays (0: no limit)")
    ap.add_argument("--horizon", choices=["round", "game"], default="round",
                    help="stop a rollout at the round's end in a game of rounds, or play the game out")
    ap.add_argument("--rollout-policy", choices=list(ROLLOUT_POLICIES), default="greedy",
                    help="the exploiter's own later moves in the rollouts")
    ap.add_argument("--confidence", type=float, default=2.0,
                    help="standard errors a move must beat the rollout policy's by (0: plain LBR)")
    ap.add_argument("--sampler", choices=["rules", "knowledge"], default="rules", help="how worlds are dealt")
    ap.add_argument("--seed", type=int, default=0, help="the first deal")
    ap.add_argument("--workers", type=int, default=1)
    add_backend_arguments(ap)
    ap.add_argument("--control-variates", action="store_true",
                    help="also take the luck of the cards out (agents.measure; it needs the game's value net "
                         "in agents/policies/values/, else every correction is 0)")
    ap.add_argument("--coupled-draws", action="store_true",
                    help="deal the face-down cards out to the seats across each deal's rotations "
                         "(agents.measure.coupling)")
    ap.add_argument("--out", default=None, help="write the page here (e.g. docs/results/best_response.md)")
    args = ap.parse_args(argv)
    backend, address = backend_of(ap, args)
    games_for: dict[str, int] = {}
    for item in args.games_for:
        level, sep, n = item.partition("=")
        if not sep or not n.isdigit() or int(n) < 1:
            ap.error(f"--games-for takes LEVEL=N with N >= 1, got {item!r}")
        games_for[level] = int(n)
    minutes_for: dict[str, float] = {}
    for item in args.minutes_for:
        level, sep, m = item.partition("=")
        try:
            minutes_for[level] = float(m) if sep and float(m) > 0 else float("nan")
        except ValueError:
            minutes_for[level] = float("nan")
        if not minutes_for[level] > 0:
            ap.error(f"--minutes-for takes LEVEL=M with M > 0, got {item!r}")
    model_for: dict[str, str] = {}
    for item in args.model_for:
        level, sep, model = item.partition("=")
        if not sep or not level or not model:
            ap.error(f"--model-for takes LEVEL=MODEL, got {item!r}")
        model_for[level] = model
    if model_for and args.method == "abr":
        ap.error("--model-for is for --method lbr (ABR trains against the target itself)")
    skip = set(args.skip)
    depth = args.depth or None
    settings = {"worlds": args.worlds, "max_candidates": args.max_candidates, "depth": depth,
                "horizon": args.horizon, "rollout_policy": args.rollout_policy, "confidence": args.confidence,
                "sampler": args.sampler, "control_variates": args.control_variates, "seed": args.seed,
                "coupled_draws": args.coupled_draws}
    load_before = uptime()
    rows: list[Row] = []
    for env in args.envs:
        for shown, level in targets_of(env, args.targets):
            if f"{env}:{shown}" in skip:
                rows.append(Row(env, shown, skipped="see the note"))
                continue
            start = cpu_seconds()
            if args.method == "abr":
                abr = agents.best_response(
                    level, env, minutes=minutes_for.get(shown, args.minutes), seed=args.seed, players=2,
                    games=games_for.get(shown, args.games), steps=args.steps, workers=args.workers,
                    control_variates=args.control_variates, progress=True, backend=backend,
                    ray_address=address, coupled_draws=args.coupled_draws)
                abr = dataclasses.replace(abr, target=shown)
                rows.append(Row(env, shown, abr, cpu_seconds=cpu_seconds() - start))
                lo, hi = abr.interval
                print(f"{env} {shown}: ABR {pct(abr.share)} [{pct(lo)}, {pct(hi)}], "
                      f"plain {pct(abr.plain_share)} "
                      f"over {abr.games} games after {abr.train_minutes:.1f} min of training "
                      f"({abr.steps:,} steps)", flush=True)
                continue
            res = agents.local_best_response(
                level, env, games=games_for.get(shown, args.games), players=2, seed=args.seed,
                workers=args.workers, worlds=args.worlds, max_candidates=args.max_candidates, depth=depth,
                horizon=args.horizon, rollout_policy=args.rollout_policy, confidence=args.confidence,
                sampler=args.sampler, progress=True, control_variates=args.control_variates,
                backend=backend, ray_address=address, coupled_draws=args.coupled_draws,
                model=model_for.get(shown))
            res = dataclasses.replace(res, target=shown)
            cpu = cpu_seconds() - start
            rows.append(Row(env, shown, res, cpu_seconds=cpu, model=model_for.get(shown, "")))
            lo, hi = res.interval
            print(f"{env} {shown}: LBR {pct(res.share)} [{pct(lo)}, {pct(hi)}], plain {pct(res.plain_share)} "
                  f"over {res.games} games; {res.seconds / 60:.1f} min wall, "
                  f"{cpu / 60:.1f} min CPU", flush=True)
    if args.method == "abr":
        settings = {"minutes": args.minutes, **({"minutes_for": minutes_for} if minutes_for else {}),
                    "steps": args.steps, "observation": "action_features",
                    "control_variates": args.control_variates, "seed": args.seed}
    page = abr_markdown if args.method == "abr" else markdown
    text = page(rows, settings, command_line("experiments.best_response", argv), load_before, uptime(),
                    args.note)
    publish(text, args.out)
    return rows


if __name__ == "__main__":
    main()
