"""How the Rummy 4x3x2's expert plays its sampled worlds on: planner rollouts, bound to the
searched decision."""

from __future__ import annotations

import numpy as np

from cardenvs.rummy432.rules import Rummy432Game
from cardenvs.rummy432.state import GROUP, GROUPED, OVER, PICK, Rummy432View, State

from ...players.knowledge import Knowledge, Rollouts
from .context import Context
from .evaluation import evaluate
from .inference import condition_opponents
from .scoring import planner_scores


class RummyRollouts(Rollouts[State, Rummy432View]):
    """The rollouts of one searched decision (the root View's round and seat).

    Every seat plays the planner on its own view of the world: greedy rollouts mis-judged
    throws (every seat in them played unlike the real players), and the planner only
    reads the mover's view, so the rollouts stay honest.  A world is conditioned at its
    first rollout move (opponents kept what groups and threw the rest, so their hidden
    cards are better than a random deal; a finisher's hand is complete), and a rollout
    that gets past the searched round is valued by that round's result alone.
    """

    def __init__(self, knowledge: Knowledge, game: Rummy432Game, root: Rummy432View) -> None:
        super().__init__(knowledge, game, root)
        self.rules = game
        self.root_round = int(root.round)
        self.root_seat = int(root.seat)
        self._conditioned: State | None = None

    def action(self, state: State, rng: np.random.Generator) -> int:
        """The planner's move on the mover's own view of the (sampled) state."""
        game = self.rules
        legal = game.legal_actions(state)
        if len(legal) == 1 or (self.root_round and state.round > self.root_round):
            return legal[0]  # past the searched round: the moves no longer matter
        if state is not self._conditioned:
            # a fresh world: with two players the inference conditioned it when dealing it
            self._conditioned = state
            if game.num_players != 2:
                condition_opponents(game, state, self.root_seat)
            if state.finished_by >= 0:
                _repair_finisher(game, state)
        p = state.current
        if state.phase == PICK and not 0 <= state.finished_by != p:
            # the planner takes the face-up card only when it makes or grows a group, and
            # draws otherwise: that much is read off the state without building a view
            top = state.discard[-1] if state.discard else -1
            c = state.counts[p][top >> 2] if top >= 0 else 0
            g = GROUP[game.pack]
            if not (c > 0 and g[c + 1] > g[c]):
                return legal[0]  # draw (take alone when the pile is empty)
        sc = planner_scores(Context(game.view(state, p)), legal)
        return legal[int(np.argmax(sc))]

    def evaluate(self, state: State, player: int) -> float:
        """The chance-based value of the world for ``player`` (the searched round's result
        once the rollout is past it)."""
        return evaluate(self.rules, state, player, self.root_round)


def _repair_finisher(game: Rummy432Game, state: State) -> None:
    """Make a sampled finisher's hand complete (everyone knows it is) by swaps with the pile.

    ``sample_state`` deals the finisher unseen cards at random; this hill-climbs the
    loose-card count by swapping its unknown cards with face-down cards.
    """
    p = state.finished_by
    cnt = state.counts[p]
    pack = game.pack
    ok = GROUPED[pack]
    if all(ok[c] for c in cnt) or state.phase == OVER:
        return
    g = GROUP[pack]
    hand = state.hands[p]
    known = set(state.known[p])
    pile = state.pile

    def loose() -> int:
        return sum(c - g[c] for c in cnt)

    for _ in range(12):
        cur = loose()
        if cur == 0:
            return
        best = None
        best_l = cur
        out_cards = [c for c in hand if c not in known and not ok[cnt[c >> 2]]]
        for i, x in enumerate(hand):
            if x not in out_cards:
                continue
            for j, y in enumerate(pile):
                if y >> 2 == x >> 2:
                    continue
                cnt[x >> 2] -= 1
                cnt[y >> 2] += 1
                lo = loose()
                cnt[y >> 2] -= 1
                cnt[x >> 2] += 1
                if lo < best_l:
                    best_l, best = lo, (i, j)
        if best is None:
            return
        i, j = best
        x, y = hand[i], pile[j]
        hand[i], pile[j] = y, x
        cnt[x >> 2] -= 1
        cnt[y >> 2] += 1

__all__ = ["RummyRollouts"]
