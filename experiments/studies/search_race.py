#!/usr/bin/env python3
"""How few worlds does the expert's search need?  Regret of search budgets on recorded positions.

    python -m experiments.studies.search_race --env line_v0 --games 12 --worlds 1088 --search 64 \\
        --candidates 5
    python -m experiments.studies.search_race --env lineit_v0 --games 3 --worlds 192 --search 64
    python -m experiments.studies.search_race --env rummy432_v0 --games 8 --worlds 160 --search 40
    python -m experiments.studies.search_race --load runs/race_line.npz --grid   # more budgets, no recording

Positions: every decision the expert searches in ``--games`` planner games (2 players,
deals from ``--seed``; each seat's memory fed as the expert's would be).  At each, the
planner's best ``--candidates`` moves (default: the frozen expert's ``max_candidates``) are
played on ``--worlds`` sampled worlds with common random numbers, as the paired search
plays them: ``V[w, k]`` is the rollout value of candidate ``k`` in world ``w``.

The first ``--search`` worlds are what a search may use; the rest are a held-out
**reference**: the value of a move is its mean over them (plus the prior blend of Line's
expert).  A budget's **regret** at a position is the reference value of the best
candidate less that of the move it chooses (x1000, game-value units in [-1, 1]); a
budget is replayed on the recorded values (the race's rule is that of
:class:`agents.players.search.SearchAgent`), so every budget is judged on the same worlds.  Rows:

* ``frozen expert``: the move the expert before issue 30 actually chose there
  (:mod:`experiments.frozen`: that commit's code, its own worlds);
* ``planner``: the heuristic's best move, no search;
* ``paired, W worlds``: every candidate on each of the first W worlds;
* ``race ...``: the shipped budget (``agents.make_agent(env, "expert")``) and, with
  ``--grid``, others.

``split-half noise`` is the regret of the argmax over one half of the reference judged by
the other half: a regret below it cannot be told apart from the reference's own noise.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import datetime
import itertools
import json
import math
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

import agents
import cardenvs
from agents.cli import HelpFormatter
from agents.players.knowledge import knowledge, spec
from agents.players.search import SearchAgent, _Search
from cardenvs.core.loop import play
from experiments.frozen import old_budget, old_expert
from experiments.reporting import command_line, publish


@dataclass
class Position:
    """One searched position: the candidates' rollout values and what was chosen there."""

    values: np.ndarray  # [worlds, candidates]
    prior: np.ndarray  # the planner's scores of the candidates, best first
    frozen: int  # index of the frozen expert's move among the candidates (-1: not one of them)


def record(env: str, games: int, worlds: int, candidates: int, seed: int,
           max_moves: int = 400) -> list[Position]:
    """The searched positions of ``games`` planner games (at most ``max_moves`` moves each)
    with their rollout values."""
    know = knowledge(env)
    budget = old_budget(env)
    depth = int(budget["depth"])
    out: list[Position] = []
    try:
        from tqdm import tqdm
    except ImportError:  # pragma: no cover
        def tqdm(x: Any, **_: Any) -> Any:
            return x
    for g in tqdm(range(games), desc=env, unit="game"):
        game = cardenvs.game_class(env)(2)
        rng = np.random.default_rng(seed + g)
        planner = [agents.make_agent(env, "planner", seed=g * 10 + i) for i in range(2)]
        seats = [SearchAgent(know, seed=g * 10 + i, **budget) for i in range(2)]  # memory keepers
        frozen = [old_expert(env, seed=g * 10 + i) for i in range(2)]

        class Seat:
            """Records the searched positions of seat ``i`` and plays the planner's move."""

            def __init__(self, i: int, g: int, frozen: list[Any], seats: list[SearchAgent],
                         planner: list[Any]) -> None:
                self.i, self.g, self.frozen, self.seats, self.planner = i, g, frozen, seats, planner

            def choose(self, game: Any, view: Any, legal: list[int]) -> int:
                i, g, frozen, seats, planner = self.i, self.g, self.frozen, self.seats, self.planner
                chosen = frozen[i].choose(game, view, list(legal))
                memory = seats[i].memories.update(game, view)
                prior = np.asarray(know.scores(game, view, legal, 2), float)
                if len(legal) > 1 and know.search_here(game, view, legal, prior):
                    order = np.argsort(-prior, kind="stable")[:candidates]
                    search = _Search(seats[i], game, view, legal, memory)
                    wrng = np.random.default_rng([seed, g, len(out)])
                    v = np.zeros((worlds, len(order)))
                    for w in range(worlds):
                        base = search.world(wrng)
                        sim = np.random.default_rng(int(wrng.integers(2**63)))
                        start = sim.bit_generator.state
                        for k, idx in enumerate(order):
                            state = game.clone(base)
                            sim.bit_generator.state = start
                            game.apply(state, legal[int(idx)], sim)
                            v[w, k] = search.rollouts.play_out(state, sim, depth, search.me)
                    cands = [legal[int(i)] for i in order]
                    out.append(Position(v, prior[order], cands.index(chosen) if chosen in cands else -1))
                return planner[i].choose(game, view, legal)

        play(game, game.new_state(rng), [Seat(i, g, frozen, seats, planner) for i in range(2)], rng,
             max_moves=max_moves)
    return out


def save(path: str | Path, positions: list[Position], meta: dict[str, Any]) -> None:
    """The recorded positions as one ``.npz`` (ragged arrays flattened with their shapes)."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(
        path,
        values=np.concatenate([p.values.ravel() for p in positions]),
        shapes=np.array([p.values.shape for p in positions]),
        prior=np.concatenate([p.prior for p in positions]),
        frozen=np.array([p.frozen for p in positions]),
        meta=np.array(json.dumps(meta)),
    )


def load(path: str | Path) -> tuple[list[Position], dict[str, Any]]:
    """Positions written by :func:`save`, and their meta."""
    with np.load(path, allow_pickle=False) as d:
        out, at, pat = [], 0, 0
        for (w, k), fr in zip(d["shapes"], d["frozen"]):
            out.append(Position(d["values"][at: at + w * k].reshape(w, k), d["prior"][pat: pat + k], int(fr)))
            at += w * k
            pat += k
        meta = json.loads(str(d["meta"]))
    return out, meta


def race(v: np.ndarray, offset: np.ndarray, worlds: int, min_worlds: int, z: float, tol: float,
         cands: int) -> tuple[int, int]:
    """The candidate a paired race chooses on ``v`` (the first ``cands`` columns) and the
    rollouts it plays: the rule of :class:`agents.players.search.SearchAgent`."""
    alive = list(range(min(cands, v.shape[1])))
    used = n = 0
    racing = min_worlds < worlds
    for w in range(min(worlds, v.shape[0])):
        used += len(alive)
        n = w + 1
        if racing and n >= max(min_worlds, 2) and len(alive) > 1:
            x = v[:n]
            mean = x.mean(0) + offset
            lead = max(alive, key=lambda k: mean[k])
            keep = [lead]
            for k in alive:
                if k == lead:
                    continue
                d = x[:, lead] - x[:, k]
                gap = mean[lead] - mean[k]
                if gap - z * math.sqrt(d.var(ddof=1) / n) <= -tol:
                    keep.append(k)
            alive = sorted(keep)
            if len(alive) == 1:
                break
    mean = v[:n].mean(0) + offset
    return max(alive, key=lambda k: mean[k]), used


@dataclass
class Row:
    """One budget's mean regret (x1000), rollouts per searched position, and how often it
    chose the reference's best move."""

    name: str
    regret: float
    rollouts: float
    agree: float


def judge(positions: list[Position], search: int, prior_weight: float,
          budgets: list[tuple[str, dict[str, Any]]]) -> list[Row]:
    """The rows of the table: the frozen expert, the planner, the budgets; and the split-half noise."""
    refs, offsets = [], []
    for p in positions:
        off = prior_weight * (p.prior - p.prior[0])
        refs.append(p.values[search:].mean(0) + off)
        offsets.append(off)
    rows = []

    def row(name: str, choices: list[int], used: list[float]) -> Row:
        reg = [r.max() - r[c] for r, c in zip(refs, choices) if c >= 0]
        agree = [c == int(np.argmax(r)) for r, c in zip(refs, choices)]
        return Row(name, 1000 * float(np.mean(reg)), float(np.mean(used)) if used else float("nan"),
                   float(np.mean(agree)))

    rows.append(row("frozen expert (its own worlds)", [p.frozen for p in positions], []))
    rows.append(row("planner (no search)", [0] * len(positions), [0.0] * len(positions)))
    for name, b in budgets:
        picks = [race(p.values[:search], o, b["simulations"], b.get("min_worlds", b["simulations"]),
                      b.get("confidence", 1.5), b.get("tolerance", 0.0), b["max_candidates"])
                 for p, o in zip(positions, offsets)]
        rows.append(row(name, [c for c, _ in picks], [float(u) for _, u in picks]))
    half = [(p.values.shape[0] + search) // 2 for p in positions]
    a = [p.values[search:h].mean(0) + o for p, h, o in zip(positions, half, offsets)]
    b_ = [p.values[h:].mean(0) + o for p, h, o in zip(positions, half, offsets)]
    noise = 1000 * float(np.mean([y.max() - y[int(np.argmax(x))] for x, y in zip(a, b_)]))
    rows.append(Row("split-half noise of the reference", noise, float("nan"), float("nan")))
    return rows


def budget_name(b: dict[str, Any]) -> str:
    """A short name of a budget."""
    if b.get("min_worlds", b["simulations"]) >= b["simulations"]:
        return f"paired, {b['simulations']} worlds, {b['max_candidates']} candidates"
    return (f"race: <= {b['simulations']} worlds from {b['min_worlds']}, {b['max_candidates']} candidates, "
            f"confidence {b['confidence']}, tolerance {b['tolerance']}")


def main(argv: list[str] | None = None) -> list[Row]:
    """Record (or load) positions, judge the budgets, print and write the table."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=HelpFormatter)
    ap.add_argument("--env", choices=list(cardenvs.ENVS))
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--worlds", type=int, default=192, help="worlds per position (search + reference)")
    ap.add_argument("--search", type=int, default=None,
                    help="worlds a search may use (default: the frozen budget)")
    ap.add_argument("--candidates", type=int, default=None,
                    help="default: the frozen expert's max_candidates")
    ap.add_argument("--seed", type=int, default=7000)
    ap.add_argument("--max-moves", type=int, default=400, help="moves per game at most")
    ap.add_argument("--save", default=None, help="write the recorded positions to this .npz")
    ap.add_argument("--load", default=None, help="judge positions recorded earlier (no --env needed)")
    ap.add_argument("--grid", action="store_true", help="also judge a grid of race budgets")
    ap.add_argument("--out", default=None, help="write the markdown table to this file")
    args = ap.parse_args(argv)
    start = time.time()
    if args.load:
        positions, meta = load(args.load)
    else:
        if args.env is None:
            ap.error("give --env (or --load a recording)")
        old = old_budget(args.env)
        meta = {"env": args.env, "games": args.games, "worlds": args.worlds, "seed": args.seed,
                "search": args.search or int(old["simulations"]),
                "candidates": args.candidates or int(old["max_candidates"])}
        if meta["search"] >= args.worlds:
            ap.error("--worlds must exceed --search (the rest are the reference)")
        positions = record(args.env, args.games, args.worlds, meta["candidates"], args.seed, args.max_moves)
        if args.save:
            save(args.save, positions, meta)
    env, search = str(meta["env"]), int(meta["search"])
    shipped = dict(spec(env).expert_budget)
    pw = float(spec(env).expert_budget.get("prior_weight", 0.0))
    budgets: list[tuple[str, dict[str, Any]]] = []
    for w in sorted({8, 16, search // 2, search}):
        if w <= search:
            b: dict[str, Any] = {"simulations": w, "max_candidates": int(meta["candidates"])}
            budgets.append((budget_name(b), b))
    budgets.append(("**shipped** " + budget_name(shipped), shipped))
    if args.grid:
        for w, mw, z, tol, k in itertools.product([search // 2, search], [4, 6, 8], [1.5, 2.0, 2.5],
                                                  [0.0, 0.02, 0.05, 0.1], [2, 3, int(meta["candidates"])]):
            if w <= search and k <= int(meta["candidates"]):
                b = {"simulations": w, "min_worlds": mw, "confidence": z, "tolerance": tol,
                     "max_candidates": k}
                budgets.append((budget_name(b), b))
    rows = judge(positions, search, pw, budgets)
    lines = [f"# {env}: regret of search budgets on {len(positions)} searched positions", "",
             f"Recorded: {meta['games']} planner games (deals from {meta['seed']}), {meta['candidates']} "
             f"candidates, {meta['worlds']} worlds a position: the first {search} for the searches, "
             f"{int(meta['worlds']) - search} held out as the reference"
             + (f" (values include the prior blend, prior_weight {pw})" if pw else "") + ".", "",
             "| budget | regret x1000 | rollouts per position | chose the reference's best |",
             "|---|---:|---:|---:|"]
    for r in rows:
        ro = "" if math.isnan(r.rollouts) else f"{r.rollouts:.1f}"
        ag = "" if math.isnan(r.agree) else f"{r.agree:.0%}"
        lines.append(f"| {r.name} | {r.regret:.1f} | {ro} | {ag} |")
    lines += ["", f"Command: `{command_line('experiments.studies.search_race', argv)}` "
              f"({(time.time() - start) / 60:.1f} min)", "",
              f"Measured {datetime.date.today().isoformat()} on a shared 2-core machine."]
    publish("\n".join(lines) + "\n", args.out)
    return rows


if __name__ == "__main__":
    main()
