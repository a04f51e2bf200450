#!/usr/bin/env python3
"""How much luck the AIVAT control variates take out: plain against reduced scores.

    nice -n 15 python -m experiments.variance --games 400
    python -m experiments.variance --envs line_v0 --pairs greedy:random --games 200 --samples 4
    python -m experiments.variance --players 3 --pairs greedy:planner --games 600

For each game at ``--players`` players (default 2) and each pairing ``a:b``, ``--games``
games on ``--games/n`` deals, each deal played ``n`` times, ``a`` in each seat in turn and
``b`` in the others (deal ``d`` dealt as ``agents.evaluation.tournament`` deals seed
``--seed + d``; entrant ``k`` of a rotation, counted from ``a``'s seat, gets agent seed
``seed * 31 + k`` in every rotation).  Each game is played plainly
and again with the corrector (``agents.measure``; the game's moves and rewards must be the
same, checked) and both are timed (CPU).  The entrant is ``a``; its score in a game is
its points, its reduced score its points minus its correction.  The table:

* plain and reduced means with 95% Student-t intervals over games;
* **ratio/game**: plain variance / reduced variance of one game's score (the deal's
  correction from ``--samples`` fresh deals included);
* **ratio/deal**: the same for a deal's mean over its rotations (today's estimator:
  plain shares with seats rotating on the same deals), the reduced score without the
  deal's correction (exact there: the net's values of the seats sum to 1, so the
  rotations' deal corrections cancel);
* **ratio/deal+fresh**: the same with the deal's correction from fresh deals kept (what
  a match that does not know it is one of a rotation computes);
* **eff. games**: games x ratio/deal, the plain duplicate games worth as much;
* CPU ms per game plain and corrected, and their ratio (*overhead*); *overhead,
  duplicate* leaves out the deal's bracket, as the library's duplicate schedules do
  (``Match.deal_term``: its fresh deals are drawn but not valued).

``--coupled-draws`` plays every game with coupled draws (``agents.measure.coupling``) and
each once more without them, plainly (today's estimator: the shared pile); two more
columns: today's plain score per deal with its interval, and the variance per deal of
today's plain score over the coupled plain one and over the coupled reduced one.

Seeds: the reported tables deal from 0; tuning runs use ``--seed 5000000``; the value
nets were trained on seeds from 10**7 up (``experiments/train_values.py``).
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # small products: one BLAS thread is 4x faster

import argparse
import copy
import math
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import cardenvs
from agents import make_agent
from agents.cli import HelpFormatter
from agents.measure import (
    ChanceCorrector,
    UniformValue,
    ValueFunction,
    ValueNet,
    default_samples,
    default_stratified,
    game_points,
    known_policy,
    match_chance_rng,
    value_for,
)
from agents.measure.aivat import Policy
from agents.measure.coupling import coupled_draws
from cardenvs.core.loop import play

Z95 = 1.96


def clone_policy(agent: Any, clones: int, rng: np.random.Generator) -> Policy:
    """An estimate of how ``agent`` (one whose probabilities are not exposed: the search
    agents) draws its moves: the shares of the moves ``clones`` copies of it choose, each
    copy made as the agent stands and given a fresh seed from ``rng``, which nothing else
    uses. The copies' draws are independent of the agent's own, so the policy bracket
    ``V(after the move) - sum of share * V(after each move)`` keeps its mean of 0."""

    def policy(game: Any, view: Any, legal: list[int]) -> np.ndarray:
        shares = np.zeros(len(legal))
        for _ in range(clones):
            twin = copy.deepcopy(agent)
            twin.rng = np.random.default_rng(int(rng.integers(2**63)))
            shares[legal.index(twin.choose(game, view, legal))] += 1.0 / clones
        return shares

    return policy


def policies_of(players: list[Any], policy_terms: bool, clones: int, mseed: int) -> list[Policy | None]:
    """Per seat, the policy its moves are corrected with: the known ones with ``policy_terms``
    (``agents.measure.known_policy``), and with ``clones`` the others' estimated by that many
    reseeded copies (:func:`clone_policy`, seeded from the deal's seed)."""
    rng = np.random.default_rng([mseed, 48])
    out: list[Policy | None] = []
    for p in players:
        known = known_policy(p) if policy_terms or clones else None
        if known is None and clones and hasattr(p, "rng"):
            known = clone_policy(p, clones, rng)
        out.append(known)
    return out


@dataclass
class Runs:
    """Per game of one pairing: deal index, entrant's points, correction, deal part, times."""

    deal: list[int] = field(default_factory=list)
    points: list[float] = field(default_factory=list)
    corr: list[float] = field(default_factory=list)
    deal_corr: list[float] = field(default_factory=list)
    t_plain: list[float] = field(default_factory=list)
    t_corr: list[float] = field(default_factory=list)
    #: the CPU of the deal's bracket within ``t_corr`` (a duplicate schedule leaves it out)
    t_deal: list[float] = field(default_factory=list)
    #: with coupled draws, the entrant's points in the same game played without them
    today: list[float] = field(default_factory=list)


def play_one(env: str, seats: tuple[str, ...], mseed: int, spec: tuple[ValueFunction, int, int, bool] | None,
             rot: int = 0, agent_offset: int = 0, chance: np.random.Generator | None = None,
             stratified: bool | None = None, coupled: bool = False, clones: int = 0,
             ) -> tuple[tuple[float, float], list[int], list[float], Any, ChanceCorrector | None]:
    """One game dealt as ``agents.evaluation.tournament.play_match`` deals it (rotation ``rot`` of
    the entrants), with a corrector if ``spec`` (value, samples, deal samples, policy
    terms) is given: (CPU seconds of the game and of the deal's bracket in them, the moves,
    the rewards, the final state, the corrector).  An entrant's agent seed goes with it,
    not with its seat, so that an agent against itself plays different games on a deal.
    For replays of the deal (``experiments.variance_ceiling``): ``agent_offset`` is added
    to every agent seed, and ``chance`` re-orders the unseen cards after the deal and draws
    the game's later randomness.  ``stratified``: the corrector's redraws (default the
    value's own, ``agents.measure.default_stratified``).  ``coupled``: coupled draws
    (``agents.measure.coupling``, keyed by the deal's seed).  ``clones``: the policy terms
    of every seat, the search agents' policies estimated by that many reseeded copies
    (:func:`policies_of`)."""
    t0 = time.process_time()
    n = len(seats)
    game = cardenvs.game_class(env)(n)
    rng = np.random.default_rng(mseed)
    players = [make_agent(env, lvl, seed=mseed * 31 + (i - rot) % n + agent_offset)
               for i, lvl in enumerate(seats)]
    state = game.new_state(rng)
    if chance is not None:
        game.redraw_unseen(state, chance)
        rng = chance
    moves: list[int] = []
    corr = None
    t_deal = 0.0
    if spec is not None:
        value, samples, deal_samples, policy_terms = spec
        policies = policies_of(players, policy_terms, clones, mseed)
        corr = ChanceCorrector(game, value, match_chance_rng(mseed), samples, deal_samples, policies=policies,
                               stratified=stratified)
        t1 = time.process_time()
        corr.start(state)
        t_deal = time.process_time() - t1

    def after(t: Any) -> None:
        if corr is not None:
            corr.after_move(t)
        moves.append(t.action)

    couple = coupled_draws(game, mseed) if coupled else None

    def before(t: Any) -> None:
        if corr is not None:
            corr.on_move(t)
        if couple is not None:
            couple(t)

    play(game, state, players, rng, on_move=before, after_move=after)
    return (time.process_time() - t0, t_deal), moves, game.returns(state), state, corr


def play_pair(env: str, a: str, b: str, deals: int, seed: int, value: ValueFunction, samples: int,
              deal_samples: int, policy_terms: bool = False, players: int = 2,
              stratified: bool | None = None, coupled: bool = False, clones: int = 0) -> Runs:
    """Play every deal under its ``players`` rotations (``a`` in seat ``rot``, ``b`` in the
    others), plainly and corrected (``coupled``: with coupled draws both, and once more
    plainly without them)."""
    game = cardenvs.game_class(env)(players)
    out = Runs()
    for d in range(deals):
        mseed = seed + d
        for rot in range(players):
            seats = tuple(a if i == rot else b for i in range(players))
            (tp, _), mp, rp, _, _ = play_one(env, seats, mseed, None, rot, coupled=coupled)
            spec = (value, samples, deal_samples, policy_terms)
            (tc, td), mc, rc, state, corr = play_one(env, seats, mseed, spec, rot, stratified=stratified,
                                                     coupled=coupled, clones=clones)
            if coupled:
                *_, today = play_one(env, seats, mseed, None, rot)[:4]
                out.today.append(float(game_points(game, today)[rot]))
            if (mp, rp) != (mc, rc):
                raise AssertionError(f"{env} {seats} seed {mseed}: the corrector changed the game")
            assert corr is not None
            out.deal.append(d)
            out.points.append(float(game_points(game, state)[rot]))
            out.corr.append(float(corr.total[rot]))
            out.deal_corr.append(float(corr.deal_total[rot]))
            out.t_plain.append(tp)
            out.t_corr.append(tc)
            out.t_deal.append(td)
    return out


def mean_ci(x: np.ndarray) -> tuple[float, float, float]:
    """Mean, 95% half-width and variance of one value."""
    var = float(np.var(x, ddof=1))
    return float(np.mean(x)), Z95 * math.sqrt(var / len(x)), var


def summary(r: Runs) -> dict[str, float]:
    """The table's numbers for one pairing."""
    pts, corr, dc = np.array(r.points), np.array(r.corr), np.array(r.deal_corr)
    red = pts - corr
    red_nodeal = pts - (corr - dc)
    pm, ph, pv = mean_ci(pts)
    rm, rh, rv = mean_ci(red)
    deals = np.array(r.deal)
    per_deal = [np.bincount(deals, weights=v) / np.bincount(deals) for v in (pts, red_nodeal, red)]
    dm, dh, dv = mean_ci(per_deal[0])
    em, eh, ev = mean_ci(per_deal[1])
    fv = mean_ci(per_deal[2])[2]
    return {"games": len(pts), "plain": pm, "plain_h": ph, "red": rm, "red_h": rh, "ratio_game": pv / rv,
            "dup_plain": dm, "dup_plain_h": dh, "dup_red": em, "dup_red_h": eh, "ratio_deal": dv / ev,
            "ratio_deal_fresh": dv / fv,
            "eff": len(pts) * dv / ev, "ms_plain": 1000 * float(np.mean(r.t_plain)),
            "ms_corr": 1000 * float(np.mean(r.t_corr)),
            "ms_dup": 1000 * float(np.mean(r.t_corr) - np.mean(r.t_deal)),
            **_today(r, deals, per_deal[0], per_deal[1])}


def _today(r: Runs, deals: np.ndarray, plain: np.ndarray, reduced: np.ndarray) -> dict[str, float]:
    """With coupled draws: today's plain score per deal, and its variance over the coupled
    plain and reduced ones' (empty without)."""
    if not r.today:
        return {}
    today = np.bincount(deals, weights=np.array(r.today)) / np.bincount(deals)
    tm, th, tv = mean_ci(today)

    def over(v: float) -> float:  # a score that never varied: nothing left to take out
        return tv / v if v > 0 else math.inf if tv > 0 else math.nan

    return {"today": tm, "today_h": th, "today_plain": over(mean_ci(plain)[2]),
            "today_red": over(mean_ci(reduced)[2])}


def load_value(spec: str, env: str, players: int = 2) -> ValueFunction:
    """``default`` (the shipped net), ``uniform`` or a path to a net."""
    if spec == "default":
        return value_for(cardenvs.game_class(env)(players))
    if spec == "uniform":
        return UniformValue()
    return ValueNet.load(spec.format(env=env))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=HelpFormatter)
    ap.add_argument("--envs", default="line_v0,lineit_v0,rummy432_v0")
    ap.add_argument("--pairs", default="greedy:planner,greedy:random,planner:planner")
    ap.add_argument("--players", type=int, default=2, help="seats (a deal is played once per seat)")
    ap.add_argument("--games", type=int, default=400, help="games per pairing (--players per deal)")
    ap.add_argument("--seed", type=int, default=0, help="first deal's seed (tuning: 5000000)")
    ap.add_argument("--samples", type=int, default=None,
                    help="outcomes sampled per chance event (default: the value's own, "
                         "agents.measure.default_samples: 16 for Line's nets, else 8)")
    ap.add_argument("--deal-samples", type=int, default=None, help="fresh deals for the deal's correction")
    ap.add_argument("--policy-terms", action="store_true",
                    help="also correct the known agents' random choices (off, as in play_corrected)")
    ap.add_argument("--clones", type=int, default=0, metavar="K",
                    help="policy terms for every seat, the search agents' policies (not exposed as "
                         "probabilities) estimated by K reseeded copies of the agent at each move")
    ap.add_argument("--redraws", choices=("own", "independent", "stratified"), default="own",
                    help="the chance events' redraws: the value's own (agents.measure.default_stratified; "
                         "no shipped net stratifies), independent, or rotations of one shuffle")
    ap.add_argument("--coupled-draws", action="store_true",
                    help="play with coupled draws (agents.measure.coupling), and each game once more "
                         "without them for today's estimator")
    ap.add_argument("--value", default="default",
                    help="default (shipped nets), uniform, or a path ({env} is replaced)")
    args = ap.parse_args(argv)
    if args.seed >= 10**7:
        ap.error("seeds from 10**7 up are the value nets' training seeds")
    if args.clones < 0:
        ap.error(f"--clones is 0 (off) or more copies per move, got {args.clones}")
    if not 2 <= args.players <= 5:
        ap.error(f"--players is 2 to 5, got {args.players}")
    samples = "the value's own" if args.samples is None else args.samples
    deals = samples if args.deal_samples is None else args.deal_samples
    coupled = " coupled draws," if args.coupled_draws else ""
    print(f"{args.players} players, {args.games} games per pairing from seed {args.seed},{coupled} "
          f"{samples} samples per chance event, {deals} fresh deals, value {args.value}\n")
    extra = " today's plain/deal [95%] | vs today: coupled plain, reduced |" if args.coupled_draws else ""
    print("| game | pairing | games | plain [95%] | reduced [95%] | ratio/game | duplicate plain [95%] "
          "| duplicate reduced [95%] | ratio/deal | ratio/deal+fresh | eff. games | ms plain | ms corrected "
          f"| overhead | overhead, duplicate | samples |{extra}")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
          + ("---:|---:|" if args.coupled_draws else ""))
    for env in args.envs.split(","):
        value = load_value(args.value, env, args.players)
        k = default_samples(value) if args.samples is None else args.samples
        strat = default_stratified(value) if args.redraws == "own" else args.redraws == "stratified"
        deal_samples = k if args.deal_samples is None else args.deal_samples
        kind = " stratified" if strat else ""
        for pair in args.pairs.split(","):
            a, b = pair.split(":")
            s = summary(play_pair(env, a, b, args.games // args.players, args.seed, value, k,
                                  deal_samples, args.policy_terms, args.players, strat, args.coupled_draws,
                                  args.clones))
            tail = (f" {s['today']:.3f} ± {s['today_h']:.3f} | {s['today_plain']:.2f}, {s['today_red']:.2f} |"
                    if args.coupled_draws else "")
            print(f"| {env} | {a} vs {b} | {s['games']} | {s['plain']:.3f} ± {s['plain_h']:.3f} | "
                  f"{s['red']:.3f} ± {s['red_h']:.3f} | {s['ratio_game']:.2f} | "
                  f"{s['dup_plain']:.3f} ± {s['dup_plain_h']:.3f} | "
                  f"{s['dup_red']:.3f} ± {s['dup_red_h']:.3f} | "
                  f"{s['ratio_deal']:.2f} | {s['ratio_deal_fresh']:.2f} | {s['eff']:.0f} | "
                  f"{s['ms_plain']:.1f} | {s['ms_corr']:.1f} | "
                  f"{s['ms_corr'] / s['ms_plain']:.1f}x | {s['ms_dup'] / s['ms_plain']:.1f}x | "
                  f"{k}{kind} |{tail}",
                  flush=True)


if __name__ == "__main__":
    main()
