#!/usr/bin/env python3
"""How much of a duplicate score's variance the agents' own random choices make: a
diagnostic for the ceiling of the control variates, which correct chance only.

    nice -n 15 python -m experiments.variance_ceiling --deals 60 --reseeds 6

Each deal (seed ``--seed + d``, dealt as ``agents.evaluation.tournament`` deals) is played
under every rotation of the seats (``a`` in one seat, ``b`` in the others), and a
deal-and-reseed's score is ``a``'s points averaged over the rotations (today's duplicate
estimator).  Each deal is played ``--reseeds`` times in two ways:

* **agents vary**: the same cards, the same face-down pile and the same stream of the
  game's own randomness; only the agents' seeds change (entrant ``k`` of reseed ``r``
  gets agent seed ``(seed + d) * 31 + k + 1_000_003 * r``);
* **chance varies**: the same hands and the same agent seeds; the face-down cards are
  re-ordered (``Game.redraw_unseen``) and the game's later randomness reseeded.

The table gives the variance of the score over every deal and reseed (**total**), the
variance over the reseeds of one deal averaged over the deals in each way (**within,
agents** and **within, chance**), and **total / within, agents**: what a perfect
correction of chance could reach at most if the two sources added up, since the variance
the agents make is untouched by it (the policy terms, where a policy is known, are what
could take it out).  A diagnostic, not a bound: once the agents play differently the
same pile hands them different cards, so "agents vary" keeps some chance in it too.
Reseed 0 of both ways is the seeding of ``experiments.variance``.
"""

from __future__ import annotations

import argparse

import numpy as np

import cardenvs
from agents.cli import HelpFormatter
from agents.measure import game_points
from experiments.variance import play_one

#: the agent-seed stride between reseeds of a deal
RESEED = 1_000_003
#: what a reseed changes: the agents' seeds, or the chance after the deal
VARY = ("agents", "chance")


def duplicate_score(env: str, a: str, b: str, players: int, mseed: int, reseed: int,
                    vary: str = "agents") -> float:
    """``a``'s points averaged over the rotations of one deal, played for ``reseed`` with
    the agents' seeds (``vary="agents"``) or the chance after the deal (``"chance"``) changed."""
    total = 0.0
    agent_reseed = reseed if vary == "agents" else 0
    for rot in range(players):
        seats = tuple(a if i == rot else b for i in range(players))
        chance = np.random.default_rng([mseed, reseed]) if vary == "chance" and reseed else None
        _, _, _, state, _ = play_one(env, seats, mseed, None, rot, RESEED * agent_reseed, chance)
        total += float(game_points(cardenvs.game_class(env)(players), state)[rot])
    return total / players


def ceiling(env: str, a: str, b: str, players: int, deals: int, reseeds: int, seed: int) -> dict[str, float]:
    """Total and within-deal variances of the duplicate score (see the module's docstring)."""
    scores = {vary: np.array([[duplicate_score(env, a, b, players, seed + d, r, vary) for r in range(reseeds)]
                              for d in range(deals)]) for vary in VARY}
    pooled = np.concatenate([v.ravel() for v in scores.values()])
    total = float(np.var(pooled, ddof=1))
    within = {vary: float(np.mean(np.var(v, axis=1, ddof=1))) for vary, v in scores.items()}
    return {"mean": float(pooled.mean()), "total": total, "agents": within["agents"],
            "chance": within["chance"],
            "ratio": total / within["agents"] if within["agents"] > 0 else float("inf")}


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
    print("| game | pairing | mean | total | within, agents | within, chance | total / within, agents |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for env in args.envs.split(","):
        for pair in args.pairs.split(","):
            a, b = pair.split(":")
            c = ceiling(env, a, b, args.players, args.deals, args.reseeds, args.seed)
            print(f"| {env} | {a} vs {b} | {c['mean']:.3f} | {c['total']:.4f} | {c['agents']:.4f} | "
                  f"{c['chance']:.4f} | {c['ratio']:.2f} |", flush=True)


if __name__ == "__main__":
    main()
