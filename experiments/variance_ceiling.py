#!/usr/bin/env python3
"""How much of a duplicate score's variance is the cards' at all: a diagnostic for the
control variates' ceiling.

    nice -n 15 python -m experiments.variance_ceiling --deals 60 --reseeds 6

Each deal (seed ``--seed + d``, dealt as ``agents.evaluation.tournament`` deals) is played
``--reseeds`` times under every rotation of the seats (``a`` in one seat, ``b`` in the
others), the same cards each time but fresh agent seeds (entrant ``k`` of reseed ``r``
gets agent seed ``(seed + d) * 31 + k + 1_000_003 * r``; reseed 0 is the seeding of
``experiments.variance``).  A game's score is ``a``'s points; a deal-and-reseed's score is
the mean over its rotations (today's duplicate estimator).  The table gives:

* **total**: the variance of that score over every deal and reseed;
* **within**: its variance over the reseeds of one deal, averaged over the deals: what
  stays when the cards are held fixed and only the agents' own random choices differ;
* **total/within**: above 1 by the part of the variance the deal explains.

A luck correction removes variance that the chance events explain; when ``total/within``
is small, most of the variance comes from the agents' own randomness, which no correction
of chance can take out (only policy terms, where an agent's policy is known).  It is a
diagnostic, not a bound: once two reseeds play differently, the shuffles after the deal
hand them different cards, so "within" keeps some chance of the game too.
"""

from __future__ import annotations

import argparse

import numpy as np

import cardenvs
from agents import make_agent
from agents.cli import HelpFormatter
from agents.measure import game_points
from cardenvs.core.loop import play

#: the agent-seed stride between reseeds of a deal
RESEED = 1_000_003


def duplicate_score(env: str, a: str, b: str, players: int, mseed: int, reseed: int) -> float:
    """``a``'s points averaged over the rotations of one deal, agents seeded for ``reseed``."""
    game = cardenvs.game_class(env)(players)
    total = 0.0
    for rot in range(players):
        rng = np.random.default_rng(mseed)
        seats = [a if i == rot else b for i in range(players)]
        agents = [make_agent(env, lvl, seed=mseed * 31 + (i - rot) % players + RESEED * reseed)
                  for i, lvl in enumerate(seats)]
        state = game.new_state(rng)
        play(game, state, agents, rng)
        total += float(game_points(game, state)[rot])
    return total / players


def ceiling(env: str, a: str, b: str, players: int, deals: int, reseeds: int, seed: int) -> dict[str, float]:
    """Total and within-deal variance of the duplicate score (see the module's docstring)."""
    scores = np.array([[duplicate_score(env, a, b, players, seed + d, r) for r in range(reseeds)]
                       for d in range(deals)])
    total = float(np.var(scores, ddof=1))
    within = float(np.mean(np.var(scores, axis=1, ddof=1)))
    return {"mean": float(scores.mean()), "total": total, "within": within,
            "ratio": total / within if within > 0 else float("inf")}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=HelpFormatter)
    ap.add_argument("--envs", default="line_v0,lineit_v0,rummy432_v0")
    ap.add_argument("--pairs", default="greedy:greedy,planner:planner")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--deals", type=int, default=60)
    ap.add_argument("--reseeds", type=int, default=6, help="plays of each deal with fresh agent seeds (>= 2)")
    ap.add_argument("--seed", type=int, default=5_000_000, help="first deal's seed (the tuning seeds)")
    args = ap.parse_args(argv)
    if args.reseeds < 2 or args.deals < 2:
        ap.error("--reseeds and --deals must be at least 2 (a variance needs two values)")
    if not 2 <= args.players <= 5:
        ap.error(f"--players is 2 to 5, got {args.players}")
    print(f"{args.players} players, {args.deals} deals x {args.reseeds} reseeds from seed {args.seed}\n")
    print("| game | pairing | mean | total variance | within-deal variance | total/within |")
    print("|---|---|---:|---:|---:|---:|")
    for env in args.envs.split(","):
        for pair in args.pairs.split(","):
            a, b = pair.split(":")
            c = ceiling(env, a, b, args.players, args.deals, args.reseeds, args.seed)
            print(f"| {env} | {a} vs {b} | {c['mean']:.3f} | {c['total']:.4f} | {c['within']:.4f} | "
                  f"{c['ratio']:.2f} |", flush=True)


if __name__ == "__main__":
    main()
