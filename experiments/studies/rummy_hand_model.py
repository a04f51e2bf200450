#!/usr/bin/env python3
"""Fit and score the Rummy 4x3x2's opponent-hand model (``experiments/studies/rummy_hand.py``).

    python -m experiments.studies.rummy_hand_model fit --games 3000 --seed 100000
    python -m experiments.studies.rummy_hand_model score --games 200 --seed 5000 --samples 64
    python -m experiments.studies.rummy_hand_model feed --games 4000 --weights 0 0.25 0.5 1

``fit`` plays planner-against-planner games (2 players) and, at every throw the expert
would search, records what the thrower saw (the model's facts per rank) and the
opponent's true hidden rank counts; it fits the weights by maximum likelihood and writes
them to ``experiments/studies/rummy432_hand.npz`` (``--out`` elsewhere), with the command.

``score`` plays other games and asks, at the same kind of positions, how well each way of
dealing the opponent's hidden cards predicts them: the uniform deal, the hand-set
pass/throw weights the expert used before (``heuristic``), the learned model alone
(exact), and the expert's full ``sample_state`` with each (``--samples`` worlds per
position).  Scores: the squared error of the expected rank counts (summed over ranks)
and the log loss of the true count of each rank (summed over ranks; sampled ones
smoothed by a quarter card), both lower-better, means with paired bootstrap intervals
of the difference from ``heuristic``.

``feed`` asks whether the model's chances are worth anything in play without search: the
planner, with each throw marked down by ``weight`` times the model's chance that the
opponent holds a hidden card of its rank (it would take it and grow a group), against
the plain planner, seats alternating on the same deals.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import copy
import datetime
import json
import time
from pathlib import Path
from typing import Any

import numpy as np
from tqdm import tqdm

import cardenvs
from agents.cli import HelpFormatter
from agents.evaluation.tournament import wilson
from agents.games.rummy432 import OpponentMemory, Rummy432Knowledge
from agents.players.heuristic import HeuristicAgent
from agents.players.knowledge import Memory, SeatMemories
from cardenvs.core.loop import play
from cardenvs.rummy432.state import FINISH0, THROW0, rank_counts
from experiments import reporting
from experiments.studies import rummy_hand as hm
from experiments.studies.rummy_settings import knowledge

#: ways of dealing the hidden cards that ``score`` compares through ``sample_state``
#: (settings of experiments.studies.rummy_settings)
DEALS: dict[str, dict[str, float]] = {
    "uniform": {"HAND_MODEL": 0.0, "W_PASSED": 1.0, "W_THREW": 1.0, "LIK_SAMPLES": 1, "INFER_SWAPS": 0.0},
    "heuristic": {"HAND_MODEL": 0.0},
    "model": {"HAND_MODEL": 1.0, "INFER_SWAPS": 0.0, "LIK_SAMPLES": 1},
    "model+lik": {"HAND_MODEL": 1.0, "INFER_SWAPS": 0.0},
    "model+lik+swap": {"HAND_MODEL": 1.0},
}


class Recorder:
    """A planner seat that records, at each throw the expert would search, the model's
    facts, the true hidden counts and (with ``keep``) the view and memory to deal from."""

    def __init__(self, state: Any, seed: int, rows: list[dict[str, Any]], keep: bool) -> None:
        self.state, self.rows, self.keep = state, rows, keep
        self.know = Rummy432Knowledge()
        self.agent = HeuristicAgent(self.know, 2, seed, "planner")
        self.memories = SeatMemories(self.know)

    def choose(self, game: Any, view: Any, legal: list[int]) -> int:
        m = round_memory(self.memories.update(game, view), view)  # remembers the opponent's play
        action = self.agent.choose(game, view, legal)
        if len(legal) > 1 and self.know.search_here(game, view, legal, np.zeros(len(legal))):
            st = self.state
            opp = 1 - view.seat
            hidden = [c for c in st.hands[opp] if c not in st.known[opp]]
            phi, unseen = hm.features(view, m)
            row: dict[str, Any] = {
                "phi": phi,
                "unseen": np.array(unseen),
                "k": len(hidden),
                "true": np.array(rank_counts(hidden)),
            }
            if self.keep:
                row["view"] = view
                row["memory"] = copy.deepcopy(m)
            self.rows.append(row)
        return action


def collect(games: int, seed: int, keep: bool = False, pack: str = "mixed", hand_size: int = 8
            ) -> list[dict[str, Any]]:
    """Positions of ``games`` planner-against-planner games (deals ``seed``, ``seed + 1``...)."""
    game = cardenvs.game_class("rummy432_v0")(2, pack=pack, hand_size=hand_size)
    rows: list[dict[str, Any]] = []
    for g in tqdm(range(games), desc="games", unit="game"):
        rng = np.random.default_rng(seed + g)
        state = game.new_state(rng)
        seats = [Recorder(state, (seed + g) * 7 + s, rows, keep) for s in range(2)]
        play(game, state, seats, rng)
    return rows


def stack(rows: list[dict[str, Any]]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``phi, unseen, k, true`` arrays of the positions."""
    return (np.stack([r["phi"] for r in rows]), np.stack([r["unseen"] for r in rows]),
            np.array([r["k"] for r in rows]), np.stack([r["true"] for r in rows]))


def exact_scores(w: np.ndarray, rows: list[dict[str, Any]]) -> tuple[np.ndarray, np.ndarray]:
    """Squared error and log loss of the model's exact marginals, per position."""
    se, ll = [], []
    for r in rows:
        z = hm.log_weights(w, r["phi"], r["unseen"], r["k"])
        mg = hm.marginals(z, r["k"])
        t = np.minimum(r["true"], hm.MAX_C)
        se.append(float((((mg * np.arange(hm.MAX_C + 1)).sum(1) - r["true"]) ** 2).sum()))
        ll.append(float(-np.log(np.maximum(mg[np.arange(13), t], 1e-9)).sum()))
    return np.array(se), np.array(ll)


def round_memory(memory: Memory, view: Any) -> OpponentMemory | None:
    """What the seat remembers of this round's play (``None``: nothing yet)."""
    return memory.of_round(view) if isinstance(memory, OpponentMemory) else None


def sampled_scores(rows: list[dict[str, Any]], settings: dict[str, float], samples: int, seed: int,
                   game: Any, model: Path | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The same scores for ``samples`` worlds of the expert's ``sample_state`` per position
    (``model``: the hand model's file)."""
    se, ll = [], []
    rng = np.random.default_rng(seed)
    know = knowledge(settings, model)
    for r in rows:
        view = r["view"]
        opp = 1 - view.seat
        hist = np.zeros((13, hm.MAX_C + 1))
        for _ in range(samples):
            s = know.sample_state(game, view, rng, r["memory"])
            c = rank_counts([x for x in s.hands[opp] if x not in s.known[opp]])
            hist[np.arange(13), np.minimum(c, hm.MAX_C)] += 1
        p = (hist + 0.25) / (samples + 0.25 * (hm.MAX_C + 1))
        t = np.minimum(r["true"], hm.MAX_C)
        se.append(float(((hist @ np.arange(hm.MAX_C + 1) / samples - r["true"]) ** 2).sum()))
        ll.append(float(-np.log(p[np.arange(13), t]).sum()))
    return np.array(se), np.array(ll)


class FeedAware(HeuristicAgent):
    """The planner, each throw marked down by ``weight`` x the model's chance that the
    opponent holds a hidden card of its rank (ranks it visibly collects keep the planner's
    own mark-down).  It reads the model's facts from its seat's memory, which it keeps."""

    def __init__(self, weight: float, w: np.ndarray, seed: int | None = None,
                 name: str | None = None) -> None:
        super().__init__(Rummy432Knowledge(), 2, seed, name)
        self.weight, self.w = weight, w
        self.memories = SeatMemories(self.knowledge)

    def values(self, game: Any, view: Any, legal: list[int]) -> np.ndarray:
        """The planner's scores, throws marked down by the chance the opponent holds their rank."""
        memory = self.memories.update(game, view)
        out = super().values(game, view, legal)
        if view.phase != "throw" or view.finished_by >= 0 or len(legal) < 2 or not self.weight:
            return out
        opp = 1 - view.seat
        kn = rank_counts(view.known[opp])
        k = view.hand_sizes[opp] - len(view.known[opp])
        phi, unseen = hm.features(view, round_memory(memory, view))
        holds = 1.0 - hm.marginals(hm.log_weights(self.w, phi, unseen, k), k)[:, 0]
        for i, a in enumerate(legal):
            r = (a - THROW0) >> 2
            if a < FINISH0 and not kn[r]:
                out[i] -= self.weight * holds[r]
        return out


def feed_share(weight: float, w: np.ndarray, games: int, seed: int, pack: str, hand_size: int
               ) -> tuple[float, float, float]:
    """Share (and 95% Wilson interval) of the feed-aware planner against the planner."""
    game = cardenvs.game_class("rummy432_v0")(2, pack=pack, hand_size=hand_size)
    points = 0.0
    for g in tqdm(range(games), desc=f"weight {weight}", unit="game", leave=False):
        deal = seed + g // 2
        rng = np.random.default_rng(deal)
        state = game.new_state(rng)
        me = g % 2
        seats: list[Any] = [None, None]
        seats[me] = FeedAware(weight, w, deal * 3 + 1, "feed-aware")
        seats[1 - me] = HeuristicAgent(Rummy432Knowledge(), 2, deal * 3 + 2, "planner")
        play(game, state, seats, rng)
        r = game.returns(state)[me]
        points += 1.0 if r > 0 else 0.5 if r == 0 else 0.0
    lo, hi = wilson(points / games, games)
    return points / games, lo, hi


def command_line(argv: list[str] | None) -> str:
    """The shell line that reruns this script."""
    return reporting.command_line("experiments.studies.rummy_hand_model", argv)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=HelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    f = sub.add_parser("fit", help="fit the weights and write the model file")
    f.add_argument("--games", type=int, default=3000)
    f.add_argument("--seed", type=int, default=100000, help="first deal")
    f.add_argument("--l2", type=float, default=1e-3)
    f.add_argument("--out", type=Path, default=hm.MODEL_FILE)
    s = sub.add_parser("score", help="compare ways of dealing the opponent's hidden cards")
    s.add_argument("--games", type=int, default=200)
    s.add_argument("--seed", type=int, default=5000, help="first deal")
    s.add_argument("--samples", type=int, default=64, help="worlds per position for the sampled deals")
    s.add_argument("--model", type=Path, default=hm.MODEL_FILE)
    s.add_argument("--out", type=Path, default=None, help="write the table here (markdown)")
    d = sub.add_parser("feed", help="the planner avoiding the ranks the model says the opponent holds")
    d.add_argument("--games", type=int, default=4000)
    d.add_argument("--seed", type=int, default=20000, help="first deal")
    d.add_argument("--weights", type=float, nargs="+", default=[0.0, 0.25, 0.5, 1.0])
    d.add_argument("--model", type=Path, default=hm.MODEL_FILE)
    for p in (f, s, d):
        p.add_argument("--pack", default="mixed", choices=("mixed", "three", "four"))
        p.add_argument("--hand-size", type=int, default=8)
    args = ap.parse_args(argv)
    if args.games < 1:
        ap.error("--games must be at least 1")
    start = time.time()
    key = hm.model_key(args.pack, args.hand_size)
    if args.cmd == "fit":
        rows = collect(args.games, args.seed, pack=args.pack, hand_size=args.hand_size)
        w, info = hm.fit(*stack(rows), l2=args.l2)
        tables: dict[str, Any] = {}
        if args.out.exists():
            with np.load(args.out) as z:
                tables = {k: z[k] for k in z.files}
        meta = json.loads(str(tables.get("meta", "{}")))
        meta[key] = {"command": command_line(argv), "positions": len(rows), "games": args.games,
                     "minutes": round((time.time() - start) / 60, 1), "fit": info,
                     "date": datetime.date.today().isoformat(), "features": list(hm.FEATURES)}
        tables[key] = w.astype(np.float64)
        tables["meta"] = np.array(json.dumps(meta, indent=1))
        args.out.parent.mkdir(parents=True, exist_ok=True)
        np.savez(args.out, **tables)
        print(f"{key}: {len(rows)} positions, {info}; wrote {args.out}")
        print(np.array2string(w, precision=2, suppress_small=True))
        return
    table = hm.weights(args.pack, args.hand_size, args.model)
    if table is None:
        ap.error(f"{args.model} has no table {key}; run fit first")
    w = table
    if args.cmd == "feed":
        lines = ["| weight | share vs planner | 95% |", "|---:|---:|---:|"]
        for weight in args.weights:
            share, lo, hi = feed_share(weight, w, args.games, args.seed, args.pack, args.hand_size)
            lines.append(f"| {weight:g} | {share:.1%} | [{lo:.1%}, {hi:.1%}] |")
            print(lines[-1], flush=True)
        minutes = (time.time() - start) / 60
        print("\n".join(lines + ["", f"Command: `{command_line(argv)}` ({minutes:.1f} min)."]))
        return
    rows = collect(args.games, args.seed, keep=True, pack=args.pack, hand_size=args.hand_size)
    game = cardenvs.game_class("rummy432_v0")(2, pack=args.pack, hand_size=args.hand_size)
    results: dict[str, tuple[np.ndarray, np.ndarray]] = {"model (exact)": exact_scores(w, rows)}
    for name, settings in tqdm(DEALS.items(), desc="deals"):
        results[name] = sampled_scores(rows, settings, args.samples, args.seed, game, args.model)
    boot = np.random.default_rng(0).integers(len(rows), size=(2000, len(rows)))
    base_se, base_ll = results["heuristic"]
    lines = [
        f"# Rummy 4x3x2's opponent-hand model: how well each deal predicts the hidden cards ({key})",
        "",
        f"{len(rows)} positions (throws the expert searches) of {args.games} planner-against-planner "
        f"games; the sampled deals draw {args.samples} worlds per position. Lower is better; Δ = the "
        "difference from `heuristic` on the same positions, paired bootstrap 95% interval.",
        "",
        "`heuristic` is the shipped expert's `sample_state` (hand-set pass/throw weights, the best of six "
        "deals at explaining the opponent's last throw, a pairing swap); `uniform` deals the unseen cards "
        "at random; `model` draws the hidden counts from the learned model, `+lik` keeps the best of six "
        "such draws at explaining the last throw, `+swap` adds the pairing swap; `model (exact)` is "
        f"the model's exact marginals, free of sampling noise ({args.samples} worlds add to a sampled "
        "squared error).",
        "",
        "| deal | squared error of counts | Δ | log loss of counts | Δ |",
        "|---|---:|---:|---:|---:|",
    ]
    for name, (se, ll) in results.items():
        cells = []
        for x, b in ((se, base_se), (ll, base_ll)):
            d = x - b
            lo, hi = np.percentile(d[boot].mean(axis=1), [2.5, 97.5])
            cells += [f"{x.mean():.3f}", f"{d.mean():+.3f} [{lo:+.3f}, {hi:+.3f}]"]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    lines += ["", f"Command: `{command_line(argv)}` ({(time.time() - start) / 60:.1f} min).", "",
              f"Measured {datetime.date.today().isoformat()}."]
    reporting.publish("\n".join(lines) + "\n", args.out)


if __name__ == "__main__":
    main()
