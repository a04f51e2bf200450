"""How good are the Rummy 4x3x2's expert's throws, and would better inference help?

    python -m experiments.studies.rummy_inference --games 18 --seed 1000
    python -m experiments.studies.rummy_inference --games 10 \\
        --variant 'wide={"W_PASSED": 0.05, "simulations": 80}'

The expert (``agents.make_agent("rummy432_v0", "expert")``) searches only its throws, over
worlds that deal the opponent's hidden cards by what it saw the opponent do this round
(``Rummy432Knowledge.sample_state``).  This script plays the expert against the planner
(2 players, the expert's seat alternating), and at each throw the expert searches it asks:

* every *variant* of the expert for its move, each variant an expert with other inference
  settings (:mod:`experiments.studies.rummy_settings`: ``HAND_MODEL``, ``W_PASSED``, ``W_THREW``,
  ``INFER_SWAPS``, ``LIK_SAMPLES``, ``LIK_BETA``, or the opponent tracker's ``FILTER``,
  ``FILTER_STEPS``, ``FILTER_BETA``, ``FILTER_EPS``) or another search budget (``simulations``,
  ``max_candidates``, ``depth``, or ``prior_weight``: that multiple of the planner's
  score blended into each searched value).  Built in: ``expert`` (as shipped), ``noinfer`` (hidden
  cards dealt uniformly) and ``cheat`` (its worlds hold the opponent's *true* hand; the
  face-down pile is still shuffled);
* an **oracle**: the same paired search, with more worlds (``--oracle-worlds``) over the
  planner's best ``--oracle-candidates`` throws, that knows the opponent's hand (not the
  pile order).

A move's *regret* is the oracle's best value less the oracle's value of that move (game
value, -1..1, shown x1000).  Variants are compared on the same positions (a paired
bootstrap interval of the difference from ``expert``).  The moves played are the shipped
expert's, so the positions are the ones it reaches.  The oracle shares the expert's
rollouts and evaluation, so this measures inference and search noise, not the evaluation.
"""

from __future__ import annotations

import argparse
import datetime
import json
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
from agents.players.knowledge import spec
from agents.players.search import SEARCH_SETTINGS, SearchAgent, check_search_settings, settings_from_json
from cardenvs.core.loop import play
from experiments.oracle import oracle_knowledge
from experiments.reporting import command_line, publish
from experiments.studies.rummy_settings import INFERENCE_KEYS, knowledge

#: SearchAgent arguments a variant may set
BUDGET_KEYS = tuple(k for k in SEARCH_SETTINGS if k != "paired")  # the expert's search is paired


#: the expert's knowledge, but its worlds are the true state with the pile shuffled
CheatKnowledge = oracle_knowledge("rummy432_v0")


def parse_variant(text: str) -> tuple[str, dict[str, Any]]:
    """``NAME=JSON`` as a name and its settings; ``ValueError`` saying what is allowed."""
    name, sep, body = text.partition("=")
    if not sep or not name.isidentifier():
        raise ValueError(f"a variant is NAME=JSON, e.g. 'wide={{\"W_PASSED\": 0.05}}', got {text!r}")
    settings = settings_from_json(body, f"variant {name}")
    allowed = INFERENCE_KEYS + BUDGET_KEYS
    for key, value in settings.items():
        if key not in allowed:
            raise ValueError(f"variant {name}: unknown setting {key!r}; allowed: {', '.join(allowed)}")
        if key in INFERENCE_KEYS and (not isinstance(value, (int, float)) or isinstance(value, bool)
                                      or value < 0):
            raise ValueError(f"variant {name}: {key} must be a number >= 0, got {value!r}")
    check_search_settings({k: v for k, v in settings.items() if k in BUDGET_KEYS}, f"variant {name}")
    return name, settings


def variants(extra: list[str]) -> dict[str, dict[str, Any]]:
    """The built-in variants plus the ``--variant`` ones (names must be new)."""
    out: dict[str, dict[str, Any]] = {
        "expert": {},
        "noinfer": {"HAND_MODEL": 0.0, "W_PASSED": 1.0, "W_THREW": 1.0, "LIK_SAMPLES": 1, "INFER_SWAPS": 0.0},
        "cheat": {},
    }
    for text in extra:
        name, settings = parse_variant(text)
        if name in out or name == "planner":
            raise ValueError(f"variant name {name!r} is taken (built in: expert, noinfer, cheat, planner)")
        out[name] = settings
    return out


class Probe:
    """The expert's seat: at each of its decisions every variant chooses (so each keeps its
    own memory of the round), the shipped expert's move is played, and a searched throw is
    scored against the oracle.  Holds the played state to give the cheating searches the
    true hands (the play loop mutates that one object)."""

    def __init__(self, state: Any, deal: int, specs: dict[str, dict[str, Any]], budget: dict[str, Any],
                 oracle_worlds: int, oracle_candidates: int, rows: list[dict[str, Any]]) -> None:
        self.state, self.deal, self.rows = state, deal, rows
        self.players: dict[str, tuple[SearchAgent, Rummy432Knowledge]] = {}
        for i, (name, settings) in enumerate(specs.items()):
            inference = {k: v for k, v in settings.items() if k in INFERENCE_KEYS}
            know = CheatKnowledge() if name == "cheat" else knowledge(inference)
            mine = {**budget, **{k: v for k, v in settings.items() if k in BUDGET_KEYS}}
            self.players[name] = (SearchAgent(know, seed=deal * 31 + i, name=name, **mine), know)
        self.oracle_know = CheatKnowledge()
        self.oracle = SearchAgent(self.oracle_know, seed=deal * 31 + 50, simulations=oracle_worlds,
                                  depth=budget["depth"], max_candidates=oracle_candidates, paired=True)
        self.plain = Rummy432Knowledge()

    def choose(self, game: Any, view: Any, legal: list[int]) -> int:
        choice = {}
        for name, (agent, know) in self.players.items():
            if isinstance(know, CheatKnowledge):
                setattr(know, "true_state", self.state)  # noqa: B010 (a class made at run time)
            choice[name] = agent.choose(game, view, legal)
        prior = np.asarray(self.plain.scores(game, view, legal, 2), float)
        if len(legal) > 1 and self.plain.search_here(game, view, legal, prior):
            self.oracle_know.true_state = self.state
            value = self.oracle.values(game, view, legal)
            best = float(np.max(value))
            worst = float(np.min(value[np.isfinite(value)]))
            choice["planner"] = legal[int(np.argmax(prior))]
            regret = {}
            for name, a in choice.items():
                v = float(value[legal.index(a)])
                regret[name] = best - (v if np.isfinite(v) else worst)
            self.rows.append({"deal": self.deal, "turn": self.state.turn, "choice": choice, "regret": regret})
        return choice["expert"]


def run(games: int, seed: int, specs: dict[str, dict[str, Any]], oracle_worlds: int,
        oracle_candidates: int) -> list[dict[str, Any]]:
    """Play the games; one record per searched throw of the expert's seat."""
    game = cardenvs.game_class("rummy432_v0")(2)
    budget = dict(spec("rummy432_v0").expert_budget)
    rows: list[dict[str, Any]] = []
    for g in tqdm(range(games), desc="games", unit="game"):
        deal = seed + g
        rng = np.random.default_rng(deal)
        state = game.new_state(rng)
        me = g % 2
        seats: list[Any] = [None, None]
        seats[me] = Probe(state, deal, specs, budget, oracle_worlds, oracle_candidates, rows)
        seats[1 - me] = HeuristicAgent(Rummy432Knowledge(), 2, deal * 31 + 99, "planner")
        play(game, state, seats, rng)
    return rows


def report(rows: list[dict[str, Any]], specs: dict[str, dict[str, Any]], command: str,
           seconds: float) -> str:
    """Mean regret per variant and its paired difference from the shipped expert."""
    names = list(rows[0]["regret"])
    reg = {n: np.array([r["regret"][n] for r in rows]) for n in names}
    boot = np.random.default_rng(0).integers(len(rows), size=(2000, len(rows)))
    lines = [
        "# Rummy 4x3x2's expert: regret of its searched throws against an oracle",
        "",
        f"{len(rows)} searched throws of the expert's seat in {len({r['deal'] for r in rows})} games "
        "against the planner. Regret = the oracle's best value less its value of the move (game value "
        "x1000; the oracle knows the opponent's hand, not the pile order). Δ = the variant's mean less "
        "the shipped expert's on the same throws, paired bootstrap 95% interval.",
        "",
        "| variant | settings | mean regret | Δ vs expert [95%] | same move as expert |",
        "|---|---|---:|---:|---:|",
    ]
    for n in names:
        d = reg[n] - reg["expert"]
        lo, hi = np.percentile(d[boot].mean(axis=1), [2.5, 97.5])
        same = np.mean([r["choice"][n] == r["choice"]["expert"] for r in rows])
        settings = ("the planning heuristic's move" if n == "planner" else
                    "the opponent's true hand" if n == "cheat" else
                    json.dumps(specs.get(n, {})) if specs.get(n) else "as shipped")
        lines.append(f"| {n} | {settings} | {reg[n].mean() * 1000:.1f} | "
                     f"{d.mean() * 1000:+.1f} [{lo * 1000:+.1f}, {hi * 1000:+.1f}] | {same:.0%} |")
    lines += ["", f"Command: `{command}` ({seconds / 60:.1f} min).", "",
              f"Measured {datetime.date.today().isoformat()}."]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> str:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=HelpFormatter)
    ap.add_argument("--games", type=int, default=18)
    ap.add_argument("--seed", type=int, default=1000, help="first deal")
    ap.add_argument("--variant", action="append", default=[], metavar="NAME=JSON",
                    help=f"another expert: settings among {', '.join(INFERENCE_KEYS + BUDGET_KEYS)}")
    ap.add_argument("--oracle-worlds", type=int, default=64)
    ap.add_argument("--oracle-candidates", type=int, default=4)
    ap.add_argument("--out", default=None,
                    help="write the table here (markdown) and the records beside it (.json)")
    args = ap.parse_args(argv)
    if args.games < 1 or args.oracle_worlds < 1 or args.oracle_candidates < 2:
        ap.error("--games and --oracle-worlds must be at least 1, --oracle-candidates at least 2")
    try:
        specs = variants(args.variant)
    except ValueError as err:
        ap.error(str(err))
    start = time.time()
    rows = run(args.games, args.seed, specs, args.oracle_worlds, args.oracle_candidates)
    if not rows:
        ap.exit(1, "no searched throw in these games; play more\n")
    text = report(rows, specs, command_line("experiments.studies.rummy_inference", argv), time.time() - start)
    publish(text, args.out)
    if args.out:
        Path(args.out).with_suffix(".json").write_text(json.dumps(rows) + "\n")
    return text


if __name__ == "__main__":
    main()
