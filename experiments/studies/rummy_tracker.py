"""Does a full opponent model predict a Rummy 4x3x2's opponent's hidden cards better?

    python -m experiments.studies.rummy_tracker --games 6 --seed 5000
    python -m experiments.studies.rummy_tracker --games 4 \\
        --variant 'long={"FILTER": 32, "FILTER_STEPS": 100}'

The expert's worlds deal the opponent's hidden cards by a hand-set inference
(``Rummy432Knowledge.sample_state``: ranks passed or thrown are unlikely, a taken card
has a partner, the best of six deals at explaining the latest throw).  The *tracker*
(``experiments/studies/rummy_filter.py``, switched on by the setting ``FILTER``) weighs
whole trajectories of the opponent's round, its deal and every card it drew, by how
likely the planner would have made *every* pick and throw it was seen to make.

This script plays planner against planner (2 players).  At every throw the expert would
search, each seat asks each way of dealing for ``--samples`` worlds and scores the mean
rank counts of the opponent's hidden cards against the truth (squared error, summed over
the 13 ranks; lower is better).  The deals are ``uniform`` (the unseen cards at random,
with a taken single's partner), ``heuristic`` (the shipped expert) and each ``--variant``
(settings of :mod:`experiments.studies.rummy_settings`: ``FILTER`` chains, ``FILTER_STEPS`` moves per
chain and opponent turn, ``FILTER_BETA``, ``FILTER_EPS``).  Every variant keeps its own
tracker, fed the same views.  Δ is the difference from ``heuristic`` on the same positions,
with a paired bootstrap 95% interval.
"""

from __future__ import annotations

import argparse
import datetime
import os
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np
from tqdm import tqdm

import cardenvs
from agents.cli import HelpFormatter
from agents.games.rummy432 import Rummy432Knowledge
from agents.players.heuristic import HeuristicAgent
from agents.players.knowledge import SeatMemories
from agents.players.search import settings_from_json
from cardenvs.core.loop import play
from cardenvs.rummy432.state import rank_counts
from experiments.reporting import command_line, publish
from experiments.studies.rummy_settings import knowledge

#: the settings a variant may set (experiments.studies.rummy_settings), with their kind
TRACKER_KEYS: dict[str, type] = {
    "FILTER": int, "FILTER_STEPS": int, "FILTER_BETA": float, "FILTER_EPS": float}
#: the built-in deals
BUILT_IN: dict[str, dict[str, Any]] = {
    "uniform": {"FILTER": 0, "W_PASSED": 1.0, "W_THREW": 1.0, "LIK_SAMPLES": 1, "INFER_SWAPS": 0.0},
    "heuristic": {"FILTER": 0},
    "tracker": {"FILTER": 64, "FILTER_STEPS": 16},
}
#: turn buckets of the table
BUCKETS = ((0, 4), (4, 8), (8, 10_000))


def parse_variant(text: str) -> tuple[str, dict[str, Any]]:
    """``NAME=JSON`` as a name and tracker settings; ``ValueError`` saying what is allowed."""
    name, sep, body = text.partition("=")
    if not sep or not name.isidentifier():
        raise ValueError(f"a variant is NAME=JSON, e.g. 'long={{\"FILTER_STEPS\": 100}}', got {text!r}")
    if name in BUILT_IN:
        raise ValueError(f"variant name {name!r} is taken (built in: {', '.join(BUILT_IN)})")
    settings = settings_from_json(body, f"variant {name}")
    for key, value in settings.items():
        kind = TRACKER_KEYS.get(key)
        if kind is None:
            raise ValueError(f"variant {name}: unknown setting {key!r}; allowed: {', '.join(TRACKER_KEYS)}")
        number = value if isinstance(value, (int, float)) and not isinstance(value, bool) else -1.0
        ok = number >= 0 and (kind is not int or float(number).is_integer())
        if not ok or (key == "FILTER_EPS" and number > 1):
            what = "a whole number" if kind is int else "a number"
            top = " and <= 1" if key == "FILTER_EPS" else ""
            raise ValueError(f"variant {name}: {key} must be {what} >= 0{top}, got {value!r}")
    settings.setdefault("FILTER", BUILT_IN["tracker"]["FILTER"])
    if not settings["FILTER"]:
        raise ValueError(f"variant {name}: FILTER must be at least 1 (it is the number of chains)")
    return name, settings


class Seat:
    """A planner seat; at each throw the expert would search, every deal predicts the
    opponent's hidden counts from its own knowledge (fed the same views)."""

    def __init__(self, state: Any, seed: int, deals: dict[str, dict[str, Any]], samples: int,
                 rows: list[dict[str, Any]], clock: dict[str, float]) -> None:
        self.state, self.deals, self.samples, self.rows, self.clock = state, deals, samples, rows, clock
        self.agent = HeuristicAgent(Rummy432Knowledge(), 2, seed, "planner")
        self.know = {name: knowledge(settings) for name, settings in deals.items()}
        self.memories = {name: SeatMemories(know) for name, know in self.know.items()}
        self.rng = np.random.default_rng(seed + 1)

    def choose(self, game: Any, view: Any, legal: list[int]) -> int:
        memory = {}
        for name in self.deals:
            t = time.perf_counter()
            memory[name] = self.memories[name].update(game, view)  # remembers (and tracks) the opponent
            self.clock[name] = self.clock.get(name, 0.0) + time.perf_counter() - t
        action = self.agent.choose(game, view, legal)
        if len(legal) > 1 and self.agent.knowledge.search_here(game, view, legal, np.zeros(len(legal))):
            st = self.state
            opp = 1 - view.seat
            true = np.array(rank_counts([c for c in st.hands[opp] if c not in st.known[opp]]))
            row: dict[str, Any] = {"turn": view.turn}
            for name in self.deals:
                acc = np.zeros(13)
                for _ in range(self.samples):
                    s = self.know[name].sample_state(game, view, self.rng, memory[name])
                    acc += rank_counts([c for c in s.hands[opp] if c not in s.known[opp]])
                row[name] = float(((acc / self.samples - true) ** 2).sum())
            self.rows.append(row)
        return action


def measure(games: int, seed: int, deals: dict[str, dict[str, Any]], samples: int
            ) -> tuple[list[dict[str, Any]], dict[str, float]]:
    """Rows (one per searched throw: its turn and each deal's squared error) and each deal's
    seconds spent following the play, over ``games`` planner-against-planner games."""
    game = cardenvs.game_class("rummy432_v0")(2)
    rows: list[dict[str, Any]] = []
    clock: dict[str, float] = {}
    for g in tqdm(range(games), desc="games", unit="game"):
        rng = np.random.default_rng(seed + g)
        state = game.new_state(rng)
        seats = [Seat(state, (seed + g) * 7 + s, deals, samples, rows, clock) for s in range(2)]
        play(game, state, seats, rng)
    return rows, clock


def table(rows: list[dict[str, Any]], clock: dict[str, float], deals: dict[str, dict[str, Any]]) -> list[str]:
    """The markdown table of the rows."""
    turns = np.array([r["turn"] for r in rows])
    base = np.array([r["heuristic"] for r in rows])
    boot = np.random.default_rng(0).integers(len(rows), size=(2000, len(rows)))
    head = ["deal", "settings", "squared error", "Δ vs heuristic [95%]"]
    head += [f"turns {lo}–{hi - 1}" if hi < 10_000 else f"turns {lo}+" for lo, hi in BUCKETS]
    head += ["s following the play"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * 2 + "---:|" * (len(head) - 2)]
    for name, settings in deals.items():
        x = np.array([r[name] for r in rows])
        d = x - base
        lo, hi = np.percentile(d[boot].mean(axis=1), [2.5, 97.5])
        cells = [name, f"`{settings}`", f"{x.mean():.2f}", f"{d.mean():+.2f} [{lo:+.2f}, {hi:+.2f}]"]
        for a, b in BUCKETS:
            k = (turns >= a) & (turns < b)
            cells.append(f"{x[k].mean():.2f} (n={int(k.sum())})" if k.any() else "–")
        cells.append(f"{clock.get(name, 0.0):.1f}")
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=HelpFormatter)
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--seed", type=int, default=5000, help="first deal")
    ap.add_argument("--samples", type=int, default=32, help="worlds per position and deal")
    ap.add_argument("--variant", action="append", default=[], metavar="NAME=JSON",
                    help=f"another tracker: settings among {', '.join(TRACKER_KEYS)}")
    ap.add_argument("--out", type=Path, default=None, help="write the table here (markdown)")
    args = ap.parse_args(argv)
    if args.games < 1 or args.samples < 1:
        ap.error("--games and --samples must be at least 1")
    deals = dict(BUILT_IN)
    try:
        for text in args.variant:
            name, settings = parse_variant(text)
            deals[name] = settings
    except ValueError as e:
        ap.error(str(e))
    start = time.time()
    rows, clock = measure(args.games, args.seed, deals, args.samples)
    if not rows:
        ap.error("no searched throws in these games; play more")
    command = command_line("experiments.studies.rummy_tracker", argv)
    lines = [
        "# Rummy 4x3x2's opponent tracker: how well each deal predicts the hidden cards",
        "",
        f"{len(rows)} positions (throws the expert searches) of {args.games} planner-against-planner games; "
        f"{args.samples} worlds per position and deal. Squared error of the mean hidden rank counts against "
        "the truth, summed over ranks (lower is better); Δ = the difference from `heuristic` on the same "
        "positions, paired bootstrap 95% interval. The last column is the time each deal's knowledge spent "
        "following the play (the memory's updates, the tracker's included), over both seats.",
        "",
        *table(rows, clock, deals),
        "",
        f"Command: `{command}` ({(time.time() - start) / 60:.1f} min).",
        "",
        f"Measured {datetime.date.today().isoformat()}.",
    ]
    publish("\n".join(lines) + "\n", args.out)


if __name__ == "__main__":
    main()
