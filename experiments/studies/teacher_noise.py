#!/usr/bin/env python3
"""How noisy is a search teacher?  Its agreement with itself, and its cost, per budget.

    python -m experiments.studies.teacher_noise --env lineit_v0 --positions 60 \\
        --budget 'paired16={"simulations": 16, "paired": true}' \\
        --budget 'paired32={"simulations": 32, "paired": true}'

A search teacher's labels (``experiments/distill.py``) are partly noise: asked twice from the
same View with other random numbers, the expert does not always pick the same move.  This
plays a few planner-vs-planner games, takes every ``--stride``-th decision of seat 0 with two
or more legal moves (up to ``--positions``), and asks each teacher, built from the expert's
search settings with a budget laid over them (``NAME=JSON``, the keys of distill's
``--teacher-budget``), from two seeds.  It prints, per teacher, the share of positions where
the two seeds chose the same move (with its 95% Wilson interval) and the median CPU time of
a decision: a teacher that agrees with itself more often gives cleaner labels.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one BLAS thread a process (players.scorer.dense)

import argparse
import json
import time
from typing import Any

import numpy as np

import agents
import cardenvs
from agents.cli import HelpFormatter
from agents.evaluation.tournament import wilson
from cardenvs.core.loop import play
from experiments import distill


def positions(env: str, count: int, stride: int, seed: int) -> tuple[Any, list[tuple[Any, list[int]]]]:
    """The game and ``count`` ``(view, legal)`` decisions of seat 0 from planner games."""
    game = cardenvs.game_class(env)(2)
    found: list[tuple[Any, list[int]]] = []
    g = 0
    while len(found) < count * stride:
        rng = np.random.default_rng(seed * 1_000_003 + g)
        seats = [agents.make_agent(env, "planner", seed=seed + 10 * g + i) for i in range(2)]
        play(game, game.new_state(rng), seats, rng,
             on_move=lambda t: found.append((t.view, list(t.legal))) if t.seat == 0 and len(t.legal) > 1
             else None)
        g += 1
    return game, found[::stride][:count]


def measure(env: str, budget: dict[str, Any], game: Any, spots: list[tuple[Any, list[int]]],
            seeds: tuple[int, int] = (1, 2)) -> dict[str, float]:
    """Self-agreement of the teacher with ``budget`` between two seeds, and its median ms per decision."""
    picks: list[list[int]] = []
    times: list[float] = []
    for s in seeds:
        teacher, _ = distill.make_teacher(env, "expert", budget, seed=s)
        row = []
        for view, legal in spots:
            t = time.process_time()
            row.append(teacher.choose(game, view, legal))
            times.append(time.process_time() - t)
        picks.append(row)
    same = sum(a == b for a, b in zip(*picks))
    low, high = wilson(same / len(spots), len(spots))
    return {"agree": same / len(spots), "low": low, "high": high, "ms": 1000 * float(np.median(times))}


def parse_budget_arg(text: str) -> tuple[str, dict[str, Any]]:
    """``NAME=JSON`` as a name and a budget (``ValueError`` as distill's ``--teacher-budget``)."""
    name, sep, body = text.partition("=")
    if not sep or not name:
        raise ValueError(f"a budget is NAME=JSON, e.g. 'paired32={{\"simulations\": 32, \"paired\": true}}', "
                         f"got {text!r}")
    return name, distill.parse_budget(body, "expert")


def main(argv: list[str] | None = None) -> list[tuple[str, dict[str, float]]]:
    """Measure the expert and every ``--budget`` teacher; print the table (markdown)."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=HelpFormatter)
    ap.add_argument("--env", default="lineit_v0", choices=list(cardenvs.ENVS))
    ap.add_argument("--positions", type=int, default=60)
    ap.add_argument("--stride", type=int, default=3, help="take every k-th decision (spread over the game)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--budget", action="append", default=[], metavar="NAME=JSON")
    args = ap.parse_args(argv)
    # the budgets are refused before any work
    teachers: list[tuple[str, dict[str, Any]]] = [("expert", {}), *(parse_budget_arg(b) for b in args.budget)]
    game, spots = positions(args.env, args.positions, args.stride, args.seed)
    rows = []
    print(f"| teacher ({args.env}, {len(spots)} positions) | budget | self-agreement [95%] "
          "| ms per decision |")
    print("|---|---|---:|---:|")
    for name, budget in teachers:
        r = measure(args.env, budget, game, spots)
        rows.append((name, r))
        said = json.dumps(budget) if budget else "the expert's"
        print(f"| {name} | {said} | {r['agree']:.1%} [{r['low']:.1%}, {r['high']:.1%}] | {r['ms']:.1f} |",
              flush=True)
    return rows


if __name__ == "__main__":
    main()
