#!/usr/bin/env python3
"""CPU time per decision of the expert, old and new side by side on the same positions.

    python -m experiments.bench_expert                        # every game, 2 players
    python -m experiments.bench_expert --envs rummy432_v0 --games 4 --repeats 3
    python -m experiments.bench_expert --profile              # where the time goes

The positions are the decisions of ``--games`` seeded games played by the planner in
every seat (the same for both experts).  At each decision both experts are asked what
they would play (their move is not played: the planner's is), so each sees the same
Views in the same order and keeps the same seat memory.  Each ``choose`` is timed in
process CPU time (robust on a shared machine; the old expert's in its worker process, its
search alone); the old and new expert alternate who goes first.  A repeat times every
position once for each; the table gives, per expert, the median over ``--repeats`` of the
mean over positions, and the ratio old / new.

The *old* expert is the expert before issue 30, played from that commit's own code in a
worker process (:mod:`experiments.frozen`; the positions reach it as observations), the
*new* one ``agents.make_agent(env, "expert")``.
``--profile`` runs each expert once more under ``cProfile`` and splits its time into
the jobs of a search (sampling worlds, the rollout policy, the rules' moves and legality,
copies, valuing the ends, the prior).
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import cProfile
import datetime
import pstats
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

import agents
import cardenvs
from agents.cli import HelpFormatter
from cardenvs.core.game import Game
from cardenvs.core.loop import Turn, play
from experiments import frozen
from experiments.reporting import command_line


@dataclass
class Game_:
    """One recorded game: its rules object and every decision (seat, View, legal moves)."""

    game: Game[Any, Any]
    seed: int
    decisions: list[tuple[int, Any, list[int]]] = field(default_factory=list)


def record(env: str, players: int, games: int, seed: int, max_moves: int) -> list[Game_]:
    """The decisions of ``games`` planner games (deals ``seed``, ``seed + 1``...)."""
    out = []
    for g in range(games):
        game = cardenvs.game_class(env)(players)
        rec = Game_(game, seed + g)
        rng = np.random.default_rng(seed + g)
        seats = [agents.make_agent(env, "planner", seed=(seed + g) * 31 + i) for i in range(players)]

        def hook(turn: Turn, rec: Game_ = rec) -> None:
            rec.decisions.append((turn.seat, turn.view, list(turn.legal)))

        play(game, game.new_state(rng), seats, rng, on_move=hook, max_moves=max_moves)
        out.append(rec)
    return out


def make(kind: str, env: str, seed: int) -> agents.Agent:
    """The old (frozen) or the new expert."""
    return frozen.old_expert(env, seed=seed) if kind == "old" else agents.make_agent(env, "expert", seed=seed)


def timed_choose(agent: agents.Agent, game: Game[Any, Any], view: Any, legal: list[int]) -> float:
    """Milliseconds of CPU that ``agent`` takes to choose (the old expert's: in its worker)."""
    t0 = time.process_time()
    agent.choose(game, view, legal)
    spent = time.process_time() - t0
    return (agent.cpu if isinstance(agent, frozen.FrozenExpert) else spent) * 1e3


def time_once(env: str, recs: list[Game_], repeat: int) -> dict[str, list[float]]:
    """Milliseconds of CPU per decision of each expert, over every recorded decision."""
    times: dict[str, list[float]] = {"old": [], "new": []}
    for rec in recs:
        players = rec.game.num_players
        made = {k: [make(k, env, rec.seed * 31 + i) for i in range(players)] for k in times}
        for j, (seat, view, legal) in enumerate(rec.decisions):
            order = ("old", "new") if (j + repeat) % 2 == 0 else ("new", "old")
            for k in order:
                times[k].append(timed_choose(made[k][seat], rec.game, view, list(legal)))
    return times


#: the jobs of a search, by the functions whose cumulative time they are (name, file part)
JOBS: list[tuple[str, list[tuple[str, str]]]] = [
    ("sampling worlds", [("sample_state", "games"), ("sample_state", "knowledge.py")]),
    ("rollout policy (heuristic moves)", [("rollout_action", ""), ("action", "rollouts.py"),
                                          ("action", "knowledge.py"), ("fast_action", "")]),
    ("rules: applying moves (with legality)", [("apply", "rules.py")]),
    ("state copies", [("clone", "rules.py")]),
    ("valuing rollout ends", [("evaluate", "games"), ("outcome", "games"), ("evaluate", "knowledge.py"),
                              ("outcome", "knowledge.py"), ("evaluate", "rollouts.py")]),
    ("prior (planner scores of the root)", [("scores", "games")]),
]


def profile(env: str, recs: list[Game_], kind: str) -> list[tuple[str, float]]:
    """Shares of an expert's decision time by job (cProfile's cumulative times; the old
    expert's profiled in its worker)."""
    pr = cProfile.Profile()
    worker = frozen.worker() if kind == "old" else None
    if worker is not None:
        worker.call("profile", None)
    for rec in recs:
        players = rec.game.num_players
        made = [make(kind, env, rec.seed * 31 + i) for i in range(players)]
        for seat, view, legal in rec.decisions:
            if worker is None:
                pr.enable()
            made[seat].choose(rec.game, view, list(legal))
            if worker is None:
                pr.disable()
    if worker is None:
        st = pstats.Stats(pr)
    else:
        with tempfile.TemporaryDirectory() as tmp:
            worker.call("profile", os.path.join(tmp, "old.prof"))
            st = pstats.Stats(os.path.join(tmp, "old.prof"))
    raw: dict[tuple[str, int, str], tuple[Any, ...]] = st.stats  # type: ignore[attr-defined]
    total = sum(v[2] for v in raw.values())  # every function's own time
    rows = []
    legality = 0.0
    for (file, _line, name), v in raw.items():
        if name in ("legal_actions", "compute_legal") and "cardenvs" in file:
            legality = max(legality, v[3])
    for job, keys in JOBS:
        matched = {k for k in raw if any(k[2] == fn and part in k[0] for fn, part in keys)}
        # each function at its outermost appearance only (not when another of the job calls it)
        cum = sum(raw[k][3] for k in matched if not any(c in matched for c in raw[k][4]))
        rows.append((job, cum / total))
    # what no job's functions hold: the search's own bookkeeping, and rollout loops that
    # play the policy and the moves inline (the new Line and Line-it ``play_out``)
    rows.append(("rest", max(0.0, 1.0 - sum(share for _, share in rows))))
    rows.append(("  of which legality (legal_actions)", legality / total))
    return rows


def main(argv: list[str] | None = None) -> None:
    """Print (and write) the table of the old and new expert's cost per decision."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=HelpFormatter)
    ap.add_argument("--envs", nargs="*", default=list(cardenvs.ENVS))
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=3, help="planner games whose decisions are the positions")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--max-moves", type=int, default=400, help="decisions per game at most")
    ap.add_argument("--profile", action="store_true", help="also split each expert's time by job")
    ap.add_argument("--out", default=None, help="write the markdown to this file")
    args = ap.parse_args(argv)
    try:
        from tqdm import tqdm
    except ImportError:  # pragma: no cover
        def tqdm(x: Any, **_: Any) -> Any:
            return x
    lines = ["| game | positions | old expert ms/decision | new expert ms/decision | old / new | "
             "repeats (old/new) |", "|---|---:|---:|---:|---:|---|"]
    prof_lines: list[str] = []
    for env in args.envs:
        recs = record(env, args.players, args.games, args.seed, args.max_moves)
        n = sum(len(r.decisions) for r in recs)
        means: dict[str, list[float]] = {"old": [], "new": []}
        for rep in tqdm(range(args.repeats), desc=env, unit="repeat"):
            t = time_once(env, recs, rep)
            for k in means:
                means[k].append(float(np.mean(t[k])))
        old, new = statistics.median(means["old"]), statistics.median(means["new"])
        reps = ", ".join(f"{a:.1f}/{b:.1f}" for a, b in zip(means["old"], means["new"]))
        lines.append(f"| {env} | {n} | {old:.2f} | {new:.2f} | **{old / new:.1f}x** | {reps} |")
        print(lines[-1], flush=True)
        if args.profile:
            for kind in ("old", "new"):
                rows = profile(env, recs, kind)
                cells = " | ".join(f"{100 * s:.0f}%" for _, s in rows)
                prof_lines.append(f"| {env} | {kind} | {cells} |")
                print(prof_lines[-1], flush=True)
    text = [f"# The expert's CPU time per decision, old and new ({args.players} players)", "",
            f"Positions: every decision of {args.games} planner games per game (deals from {args.seed}); "
            f"each expert asked at each, CPU time, median of {args.repeats} repeats of the mean.", "",
            *lines]
    if prof_lines:
        text += ["", "Where the time goes (share of the expert's decision time, cProfile):", "",
                 "| game | expert | " + " | ".join(j for j, _ in JOBS) + " | rest | of which legality |",
                 "|---|---|" + "---:|" * (len(JOBS) + 2), *prof_lines]
    text += ["", f"Command: `{command_line('experiments.bench_expert', argv)}`", "",
             f"Measured {datetime.date.today().isoformat()} on a shared 2-core machine."]
    out = "\n".join(text) + "\n"
    print(out)
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(out)


if __name__ == "__main__":
    main()
