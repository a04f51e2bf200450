"""Which of the clone's decisions cost it games: the clone with the teacher taking over a class of them.

    python -m experiments.studies.audit.hybrid lineit_v0 CLONE.npz greedy planner 100 [none,all,pick,...]
"""
from __future__ import annotations

import sys
from typing import Any

import numpy as np

import agents
import cardenvs
from agents.players.base import Agent
from agents.players.trained import TrainedAgent
from cardenvs.core.loop import play


class Hybrid(Agent):
    """The clone, except where ``takeover(game, view, legal)`` says the teacher decides."""

    def __init__(self, clone: TrainedAgent, teacher: Agent, takeover: Any) -> None:
        super().__init__(0, "hybrid")
        self.clone, self.teacher, self.takeover = clone, teacher, takeover
        self.counts = [0, 0, 0]  # decisions, taken over, taken over and different

    def choose(self, game: Any, view: Any, legal: list[int]) -> int:
        mine = self.clone.choose(game, view, legal)
        self.counts[0] += 1
        if self.takeover(game, view, legal):
            theirs = self.teacher.choose(game, view, legal)
            self.counts[1] += 1
            self.counts[2] += theirs != mine
            return theirs
        return mine


def kinds(game: Any, legal: list[int]) -> set[str]:
    return {game.action_to_str(a).split()[0] for a in legal}


RULES = {
    "none": lambda g, v, legal: False,
    "all": lambda g, v, legal: True,
    "pick": lambda g, v, legal: "pick" in kinds(g, legal),
    "play/pass/score": lambda g, v, legal: "pick" not in kinds(g, legal),
    "score-available": lambda g, v, legal: "score" in kinds(g, legal),
    "play-available": lambda g, v, legal: "play" in kinds(g, legal),
}


def main() -> None:
    env, clone_path, teacher, opp = sys.argv[1:5]
    games = int(sys.argv[5])
    rules = sys.argv[6].split(",") if len(sys.argv) > 6 else list(RULES)
    game = cardenvs.game_class(env)(2)
    for name in rules:
        score = 0.0
        counts = np.zeros(3, int)
        for g in range(games):
            seed = 10_000 + g // 2
            rng = np.random.default_rng(seed)
            me = g % 2
            hy = Hybrid(TrainedAgent(env, clone_path, seed=seed), agents.make_agent(env, teacher, seed=seed),
                        RULES[name])
            players: list[Agent] = [agents.make_agent(env, opp, seed=seed * 31 + 1)] * 2
            players[me] = hy
            st = game.new_state(rng)
            play(game, st, players, rng)
            r = game.returns(st)
            best = max(r)
            w = [i for i, x in enumerate(r) if x == best]
            score += 1 / len(w) if me in w else 0
            counts += hy.counts
        print(f"{name:18s} vs {opp}: {score / games:.3f}  decisions {counts[0]}, teacher took {counts[1]}, "
              f"changed {counts[2]}", flush=True)


if __name__ == "__main__":
    main()
