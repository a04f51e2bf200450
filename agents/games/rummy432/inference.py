"""How the Rummy 4x3x2's expert deals the cards its seat cannot see: inference strategies.

A strategy is given to :class:`~agents.games.rummy432.Rummy432Knowledge` as a constructor
argument (``Rummy432Knowledge(inference=HandSetInference(passed=0.05))``).  It makes the
seat's memory (:meth:`Inference.new_memory`) and deals each search world from the View and
that memory (:meth:`Inference.sample_state`), never writing the memory.

:class:`HandSetInference`, the shipped one (two players): the opponent's hidden cards are
re-dealt from the unseen cards (its hidden cards and the face-down pile, so the world stays
consistent with the View) by what the seat saw it do this round: ranks it drew rather than
take, or threw, are unlikely; a rank it took one card of comes with a hidden partner; and
among a few such deals the one that best explains its latest throw (by the planner's own
scores) is kept, with a light pairing swap.  Measured on planner positions, this matches
the opponent's real count of loose cards (about 3 of 8), where the plain conditioning made
it nearly complete (a third of the sampled hands could already finish, which no real hand
could).  Other strategies measured no better live in ``experiments/studies/``
(``rummy_hand_model``: a learned hand model; ``rummy_tracker``: a whole-round tracker).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from cardenvs.rummy432.rules import Rummy432Game
from cardenvs.rummy432.state import (
    FINISH0,
    GROUP,
    THROW,
    THROW0,
    Rummy432View,
    State,
    is_complete,
    rank_counts,
)

from ...players.knowledge import Memory
from .context import Context
from .memory import OpponentMemory
from .scoring import planner_scores

#: draws the indices of the pool a hidden hand takes, given the generator
Picker = Callable[[np.random.Generator], set[int]]


class Inference:
    """A way to deal the cards a seat cannot see in the expert's search worlds.

    This base deals them as the rules do (uniformly, :meth:`Rummy432Game.sample_state`)
    and remembers what two-player seats see of their opponent (:class:`OpponentMemory`),
    for strategies that read it.
    """

    def new_memory(self, game: Rummy432Game, seat: int) -> Memory[Rummy432View]:
        """A fresh memory of ``seat`` at the table ``game``."""
        return OpponentMemory(seat) if game.num_players == 2 else Memory()

    def sample_state(self, game: Rummy432Game, view: Rummy432View, rng: np.random.Generator,
                     memory: Memory[Rummy432View] | None) -> State:
        """A full state consistent with ``view``."""
        return game.sample_state(view, rng)


class HandSetInference(Inference):
    """The shipped deal of the opponent's hidden cards (see the module docstring).

    ``passed`` and ``threw``: the weight of a rank the opponent drew rather than take, or
    threw, this round (1: no evidence); ``swaps``: conditioning swaps on top of the deal
    (a fraction is a chance of one more; more makes its hand too good); ``samples``:
    opponent hands drawn per world, one kept by how well it explains the latest throw;
    ``beta``: the sharpness of that likelihood (planner score units).
    """

    def __init__(self, passed: float = 0.15, threw: float = 0.3, swaps: float = 0.5, samples: int = 6,
                 beta: float = 6.0) -> None:
        self.passed = passed
        self.threw = threw
        self.swaps = swaps
        self.samples = samples
        self.beta = beta

    def __repr__(self) -> str:
        return (f"{type(self).__name__}(passed={self.passed}, threw={self.threw}, swaps={self.swaps}, "
                f"samples={self.samples}, beta={self.beta})")

    def sample_state(self, game: Rummy432Game, view: Rummy432View, rng: np.random.Generator,
                     memory: Memory[Rummy432View] | None) -> State:
        """A state consistent with ``view`` whose opponent hand follows what was seen of it."""
        state = game.sample_state(view, rng)
        if view.num_players != 2 or view.phase == "over":
            return state
        opp = 1 - view.seat
        known = state.known[opp]
        hidden = [c for c in state.hands[opp] if c not in known]
        if not hidden:
            return state
        m = memory.of_round(view) if isinstance(memory, OpponentMemory) else None
        pool = hidden + state.pile
        return self.deal_opponent(game, state, view, m, pool, len(hidden), rng)

    def deal_opponent(self, game: Rummy432Game, state: State, view: Rummy432View, m: OpponentMemory | None,
                      pool: list[int], k: int, rng: np.random.Generator) -> State:
        """Give the opponent ``k`` of ``pool`` (its hidden cards and the face-down pile) as
        the inference says, the rest to the pile, then the conditioning swaps."""
        opp = 1 - view.seat
        new_hand, new_pile = self.redeal(game, state, view.seat, pool, k, m, rng,
                                         self.picker(game, view, m, pool, k, state.known[opp]))
        state.hands[opp] = new_hand
        state.counts[opp] = rank_counts(new_hand)
        state.pile = new_pile
        swaps = int(self.swaps) + int(rng.random() < self.swaps - int(self.swaps))
        if swaps:
            condition_opponents(game, state, view.seat, swaps)
        if state.finished_by != opp and is_complete(state.counts[opp], game.pack):
            _break_hand(state, opp)  # it would have finished: its hand is incomplete
        return state

    def picker(self, game: Rummy432Game, view: Rummy432View, m: OpponentMemory | None, pool: list[int],
               k: int, known: list[int]) -> Picker:
        """How one try draws the ``k`` hidden cards out of ``pool``: weighted by the evidence
        (Gumbel keys), a single taken card's rank first given a partner."""
        logw = np.log(self.pool_weights(pool, known, m))
        forced_ranks = [r for r, c in enumerate(rank_counts(known)) if c == 1]

        def pick(rng: np.random.Generator) -> set[int]:
            keys = logw + rng.gumbel(size=len(pool))
            forced = 0
            for r in forced_ranks:
                if forced < k:
                    cands = [i for i, c in enumerate(pool) if c >> 2 == r]
                    if cands:
                        keys[max(cands, key=lambda i: keys[i])] = np.inf
                        forced += 1
            return set(np.argsort(-keys, kind="stable")[:k].tolist())

        return pick

    def redeal(self, game: Rummy432Game, state: State, me: int, pool: list[int], k: int,
               m: OpponentMemory | None, rng: np.random.Generator,
               pick: Picker) -> tuple[list[int], list[int]]:
        """``(hand, pile)``: the opponent's known cards plus ``k`` of ``pool`` drawn by
        ``pick``, the best of a few draws at explaining its last throw."""
        known = state.known[1 - me]
        y = m.opp_throw if m is not None else -1
        tries = self.samples if y >= 0 and self.samples > 1 else 1
        deals: list[tuple[list[int], list[int]]] = []
        liks = np.zeros(tries)
        for t in range(tries):
            take = pick(rng)
            new_hand = list(known) + [pool[i] for i in sorted(take)]
            deals.append((new_hand, [pool[i] for i in range(len(pool)) if i not in take]))
            if tries > 1:
                liks[t] = self.throw_likelihood(game, state, me, new_hand, y, m.opp_took if m else -1)
        choice = 0
        if tries > 1:
            tot = liks.sum()
            choice = int(rng.choice(tries, p=liks / tot)) if tot > 0 else int(rng.integers(tries))
        return deals[choice]

    def pool_weights(self, pool: list[int], known: list[int], m: OpponentMemory | None) -> np.ndarray:
        """Weight of each card of ``pool`` for the opponent's hidden hand: ranks it passed or
        threw this round are unlikely, unless it took a card of that rank since."""
        w = np.ones(len(pool))
        if m is not None:
            collects = {c >> 2 for c in known}  # a rank it took since: the evidence is stale
            for i, c in enumerate(pool):
                r = c >> 2
                if r in collects:
                    continue
                if r in m.passed:
                    w[i] *= self.passed
                if r in m.threw:
                    w[i] *= self.threw
        return w

    def throw_likelihood(self, game: Rummy432Game, state: State, me: int, hand: list[int], y: int,
                         took: int) -> float:
        """How likely the planner would have thrown ``y`` holding ``hand`` + ``y`` (its last throw)."""
        opp = 1 - me
        s2 = state.clone()
        s2.hands[opp] = hand + [y]
        if y in s2.discard:
            s2.discard.remove(y)
        elif y in s2.hands[me]:
            s2.hands[me].remove(y)
            if y in s2.known[me]:
                s2.known[me].remove(y)
        s2.phase = THROW
        s2.current = opp
        s2.taken = took if took in hand else -1
        s2.refresh()
        legal = game.legal_actions(s2)
        if len(legal) <= 1:
            return 1.0
        sc = planner_scores(Context(game.view(s2, opp)), legal)
        sc = np.exp(self.beta * (sc - sc.max()))
        ry = y >> 2
        hit = sum(sc[i] for i, a in enumerate(legal) if a < FINISH0 and (a - THROW0) >> 2 == ry)
        return float(hit / sc.sum())


def condition_opponents(game: Rummy432Game, state: State, me: int, most: int = 4) -> None:
    """Swap each opponent's hidden loose cards with face-down cards that group, once per
    turn it has played (at most), as a player keeping pairs would have."""
    pack = game.pack
    g = GROUP[pack]
    n = game.num_players
    pile = state.pile
    if not pile:
        return
    turns = state.turn // n + 1
    for p in range(n):
        if p == me or p == state.finished_by:
            continue
        hand = state.hands[p]
        cnt = state.counts[p]
        known = state.known[p]
        for _ in range(min(turns, most)):
            done = False
            for i, x in enumerate(hand):
                rx = x >> 2
                if cnt[rx] != 1 or x in known:
                    continue
                for j, y in enumerate(pile):
                    ry = y >> 2
                    if ry != rx and cnt[ry] and g[cnt[ry] + 1] > g[cnt[ry]]:
                        hand[i], pile[j] = y, x
                        cnt[rx] -= 1
                        cnt[ry] += 1
                        done = True
                        break
                if done:
                    break
            if not done:
                break


def _break_hand(state: State, p: int) -> None:
    """Swap one of seat ``p``'s hidden cards with a face-down card of a rank it lacks."""
    hand, cnt, known = state.hands[p], state.counts[p], state.known[p]
    pile = state.pile
    for j in range(len(pile) - 1, -1, -1):
        y = pile[j]
        if cnt[y >> 2]:
            continue
        for i, x in enumerate(hand):
            if x not in known:
                hand[i], pile[j] = y, x
                cnt[x >> 2] -= 1
                cnt[y >> 2] += 1
                return
        return

__all__ = ["HandSetInference", "Inference", "Picker", "condition_opponents"]
