"""Oracle knowledge for diagnostics: a game's knowledge whose search worlds are the live
state with only the face-down pile re-drawn.

    python -m experiments.oracle --env line_v0 --against planner --games 400 --workers 2

Used by ``rummy_inference.py`` (the "cheat" whose regret the expert's throws are measured
against) and ``distill.py --teacher oracle`` (labels from a search that sees the hands).
Never a ladder level: it reads ``true_state``, which a player cannot see.

Run as a script, it measures the *ceiling* an honest agent is judged against: the expert's
search with the expert's budget, over worlds that hold every true hand (only the order
of the face-down pile is re-drawn), against a ladder level, 2 players, seats alternating
on the same deals (deal ``seed + g // 2``, the oracle at seat ``g % 2``, as
``experiments/ladder_pairs.py`` seats its pairs), with the 95% Wilson interval.
"""

from __future__ import annotations

import argparse
import functools
import os
import time
from multiprocessing import Pool
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np
from tqdm import tqdm

import agents
import cardenvs
from agents.cli import HelpFormatter
from agents.evaluation.tournament import points, wilson
from agents.players.knowledge import spec
from agents.players.ladder import make_agent
from agents.players.search import SearchAgent
from cardenvs.core.loop import play
from experiments.reporting import command_line

#: the face-down pile of each game's state: its order is the only thing the oracle does not see
HIDDEN_PILE = {"line_v0": "draw", "lineit_v0": "deck", "rummy432_v0": "pile"}


@functools.cache
def oracle_knowledge(env: str) -> type:
    """The class of ``env``'s knowledge whose ``sample_state`` clones ``true_state`` (set it
    before each question) and reshuffles its face-down pile: every hand and every other
    hidden card is the true one, the order of the draws is not."""
    base = type(agents.knowledge(env))
    pile = HIDDEN_PILE[env]

    class OracleKnowledge(base):  # type: ignore[valid-type, misc]
        true_state: Any = None

        def sample_state(self, game: Any, view: Any, rng: np.random.Generator, memory: Any = None) -> Any:
            state = game.clone(self.true_state)
            rng.shuffle(getattr(state, pile))
            return state

    OracleKnowledge.__name__ = OracleKnowledge.__qualname__ = f"Oracle{base.__name__}"
    return OracleKnowledge


class OracleSeat:
    """The expert's search over oracle worlds of the game being played (``state`` is the
    object the play loop moves on, so its worlds are always the live state)."""

    def __init__(self, env: str, state: Any, seed: int) -> None:
        know = oracle_knowledge(env)()
        know.true_state = state
        self.agent = SearchAgent(know, seed=seed, name="oracle", **spec(env).expert_budget)

    def choose(self, game: Any, view: Any, legal: list[int]) -> int:
        return self.agent.choose(game, view, legal)


def oracle_game(env: str, against: str, deal: int, seat: int) -> float:
    """The oracle's points (1 a win, 1/k a win shared by k, else 0) in one 2-player game."""
    game = cardenvs.game_class(env)(2)
    rng = np.random.default_rng(deal)
    state = game.new_state(rng)
    seats: list[Any] = [None, None]
    seats[seat] = OracleSeat(env, state, deal * 31 + seat)
    seats[1 - seat] = make_agent(env, against, seed=deal * 31 + 1 - seat)
    play(game, state, seats, rng)
    return points([float(x) for x in game.returns(state)])[seat]


def _oracle_game(args: tuple[str, str, int, int]) -> float:
    return oracle_game(*args)


def main(argv: list[str] | None = None) -> tuple[float, float, float]:
    """Share (and 95% Wilson interval) of the oracle against ``--against``."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=HelpFormatter)
    ap.add_argument("--env", required=True, choices=sorted(HIDDEN_PILE))
    ap.add_argument("--against", default="planner", help="a ladder level (or policy:FILE.npz)")
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--seed", type=int, default=0, help="first deal")
    ap.add_argument("--workers", type=int, default=1)
    args = ap.parse_args(argv)
    if args.games < 1 or args.workers < 1:
        ap.error("--games and --workers must be at least 1")
    try:
        make_agent(args.env, args.against)
    except ValueError as e:
        ap.error(str(e))
    start = time.time()
    jobs = [(args.env, args.against, args.seed + g // 2, g % 2) for g in range(args.games)]
    bar = tqdm(total=len(jobs), desc="games", unit="game")
    points: list[float] = []
    if args.workers == 1:
        for job in jobs:
            points.append(_oracle_game(job))
            bar.update()
    else:
        with Pool(args.workers) as pool:
            for p in pool.imap(_oracle_game, jobs):
                points.append(p)
                bar.update()
    bar.close()
    share = float(np.mean(points))
    lo, hi = wilson(share, len(points))
    print(f"| {args.env} | oracle vs {args.against} | {len(points)} | {share:.1%} [{lo:.1%}, {hi:.1%}] "
          f"| {(time.time() - start) / 60:.1f} min |")
    print(f"Command: `{command_line('experiments.oracle', argv)}`")
    return share, lo, hi


if __name__ == "__main__":
    main()
