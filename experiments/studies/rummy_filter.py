"""Sampling a Rummy 4x3x2's opponent's hand from everything it did this round (two players): a study.

Measured no better than the shipped hand-set inference at many times the cost
(``docs/results/expert/rummy432_v0_tracker.md``), so it is not shipped; it plugs into the
expert as an inference strategy, :class:`TrackerInference`.

The expert's worlds need a guess of the cards its opponent keeps hidden.  The hand-set
inference of ``Rummy432Knowledge.sample_state`` reads a few facts of this round's play
(ranks passed or thrown, the partner of a taken card, the latest throw).  This tracker
reads all of it: a guess is a whole *trajectory* of the opponent's round, the hand it
was dealt and the card it drew on each turn it drew, and it is weighed by how likely an
opponent model makes every pick and every throw the opponent was seen to make.

* **The model** of the opponent is the planner (level 2 of ``agents.games.rummy432``):
  its scores of a turn's legal moves, through a softmax of sharpness ``beta``, mixed with
  a uniform choice (share ``eps``) so that a player unlike the planner still fits.
* **The prior** is the deal: a uniform hand out of the cards the player could not see,
  and each drawn card uniform among the cards unseen then.  A trajectory must agree with
  everything the player saw: the opponent never holds a card the player holds or sees
  in the discard pile, it throws a card it holds, a card it took is held, a finish
  leaves a complete hand.
* **The sampler** keeps Markov chains over trajectories (Metropolis-Hastings; a move
  replaces one dealt or drawn card by another, or swaps a dealt card with a drawn one,
  and is kept with the likelihood ratio).  Each opponent turn extends every chain by that
  turn (a drawn card is the thrown one when the chain does not hold it, else a random
  unseen card), resamples the chains by how well they explain it, and moves each a few
  steps; the expert's worlds deal the chains' current hands.

Measured (``python -m experiments.studies.rummy_tracker``,
``docs/results/expert/rummy432_v0_tracker.md``): with enough moves it predicts the hidden
cards as well as the hand-set inference and no better, at many times the cost.

Everything comes from the player's own successive views; the true state is never read.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from agents.games.rummy432.context import Context
from agents.games.rummy432.memory import OpponentMemory
from agents.games.rummy432.scoring import planner_scores
from agents.players.knowledge import Memory
from cardenvs.rummy432.rules import Rummy432Game
from cardenvs.rummy432.state import DRAW, FINISH0, TAKE, THROW, THROW0, Rummy432View, State, rank_counts

from .rummy_hand import HandModelInference

#: scores of a view's legal moves by the opponent model (the planner)
Scorer = Callable[[Rummy432View, list[int]], np.ndarray]


@dataclass(frozen=True)
class Turn:
    """One opponent turn as the player saw it."""

    #: the opponent's view at its pick, hand left empty (the public fields as they were)
    view: Rummy432View
    #: cards the player could see then (its hand and the discard pile): never the opponent's
    visible: frozenset[int]
    took: bool
    throw: int
    finished: bool
    #: whether the public fields are exactly known (not across a reshuffle): else unweighed
    exact: bool


class Chain:
    """One trajectory: the dealt hand, the card drawn on each turn it drew, its log-likelihood."""

    __slots__ = ("dealt", "draws", "loglik", "hand")

    def __init__(self, dealt: list[int], draws: list[int], loglik: float, hand: list[int]) -> None:
        self.dealt = dealt
        #: card drawn on each turn (-1 on turns it took)
        self.draws = draws
        self.loglik = loglik
        #: the hand it holds after its latest turn
        self.hand = hand


class OpponentTracker:
    """Chains over the opponent's round for one player in one round (two players)."""

    def __init__(self, game: Rummy432Game, seat: int, unseen: Sequence[int], chains: int, steps: int,
                 beta: float, eps: float, score: Scorer, rng: np.random.Generator) -> None:
        self.game = game
        self.seat = seat
        self.unseen0 = list(unseen)
        self.steps = steps
        self.beta = beta
        self.eps = eps
        self.score = score
        self.rng = rng
        self.turns: list[Turn] = []
        #: per turn: the opponent's legal picks and its throw view, hand aside (see _model_views)
        self._models: list[tuple[list[int], Rummy432View | None]] = []
        #: chains still to be dealt before one repeats (see draw)
        self._order: list[int] = []
        #: moves tried and kept by the latest ``move`` (diagnostics)
        self.tried = self.accepted = 0
        #: cards the player sees now (the opponent holds none of them)
        self.visible_now: frozenset[int] = frozenset()
        #: the model's log-probabilities, memoised by (turn index, throw phase, hand)
        self._memo: dict[tuple[int, bool, tuple[int, ...]], float] = {}
        size = game.hand_size
        self.chains: list[Chain] = []
        for _ in range(chains):
            dealt = [self.unseen0[i] for i in rng.permutation(len(self.unseen0))[:size]]
            self.chains.append(Chain(dealt, [], 0.0, dealt[:]))

    # ------------------------------------------------------------ the model
    def _choice_logp(self, t: int, throw_phase: bool, view: Rummy432View, legal: list[int],
                     action: int) -> float:
        """Log-probability of ``action`` under the model (memoised per turn, phase and hand)."""
        key = (t, throw_phase, view.hand)
        lp = self._memo.get(key)
        if lp is None:
            sc = np.asarray(self.score(view, legal), float)
            z = np.exp(self.beta * (sc - sc.max()))
            p = float(z[legal.index(action)] / z.sum())
            lp = math.log((1.0 - self.eps) * p + self.eps / len(legal))
            self._memo[key] = lp
        return lp

    def _turn(self, t: int, hand: list[int], drawn: int, scratch: State) -> tuple[float, list[int]] | None:
        """Play turn ``t`` from ``hand`` (``drawn``: the card drawn, if it drew): the log-likelihood
        and the hand after, or ``None`` when the trajectory cannot be."""
        tr = self.turns[t]
        vis = tr.visible
        if not vis.isdisjoint(hand):
            return None
        pv = tr.view
        pick_legal, throw_view = self._models[t]
        ll = 0.0
        if throw_view is not None and len(pick_legal) > 1:
            ll += self._choice_logp(t, False, dataclasses.replace(pv, hand=tuple(sorted(hand))),
                                    pick_legal, TAKE if tr.took else DRAW)
        top = pv.discard_top
        if tr.took:
            if tr.throw not in hand:
                return None
            h2 = hand + [top]
            taken = top
        else:
            if drawn < 0 or drawn in vis or drawn in hand:
                return None
            h2 = hand + [drawn]
            taken = -1
            if tr.throw not in h2:
                return None
        opp = 1 - self.seat
        scratch.hands[opp] = h2
        scratch.counts[opp] = rank_counts(h2)
        scratch.taken = taken
        scratch.legal = None
        legal = self.game.legal_actions(scratch)
        action = (FINISH0 if tr.finished else THROW0) + tr.throw
        if action not in legal:
            return None
        if throw_view is not None and len(legal) > 1:
            ll += self._choice_logp(t, True, dataclasses.replace(throw_view, hand=tuple(sorted(h2))),
                                    legal, action)
        return ll, [c for c in h2 if c != tr.throw]

    def _model_views(self, turn: Turn) -> tuple[list[int], Rummy432View | None]:
        """The opponent's legal picks in ``turn`` and its view at the throw after its pick,
        hand aside (``None`` when the turn is not weighed), both from the rules: a stand-in
        hand at the pick, the observed pick played.  Every trajectory shares them."""
        if not turn.exact:
            return [], None
        pv = turn.view
        known = list(pv.known[1 - self.seat])
        others = [c for c in range(52) if c not in turn.visible and c not in known]
        stand_in = known + others[: self.game.hand_size - len(known)]
        rng = np.random.default_rng(0)
        try:
            base = self.game.sample_state(dataclasses.replace(pv, hand=tuple(sorted(stand_in))), rng)
        except ValueError:  # the public fields do not add up (a reshuffle between): not weighed
            return [], None
        legal = list(self.game.legal_actions(base))
        pick = TAKE if turn.took else DRAW
        if pick not in legal:
            return legal, None
        self.game.apply(base, pick, rng)
        return legal, self.game.view(base, 1 - self.seat)

    def _scratch(self) -> State:
        s = State()
        s.hands = [[], []]
        s.counts = [[0] * 13, [0] * 13]
        s.phase = THROW
        s.current = 1 - self.seat
        return s

    def _replay(self, dealt: list[int], draws: list[int]) -> tuple[float, list[int]]:
        """Log-likelihood of a whole trajectory (``-inf`` if impossible) and its final hand."""
        if len(set(dealt)) != len(dealt):
            return -math.inf, dealt
        hand = dealt[:]
        ll = 0.0
        scratch = self._scratch()
        for t in range(len(self.turns)):
            out = self._turn(t, hand, draws[t], scratch)
            if out is None:
                return -math.inf, hand
            ll += out[0]
            hand = out[1]
        if not self.visible_now.isdisjoint(hand):
            return -math.inf, hand
        return ll, hand

    # ------------------------------------------------------------ updates
    def add_turn(self, turn: Turn, visible: frozenset[int]) -> None:
        """Extend every chain by the opponent's new turn, resample the chains by how well
        they explain it, then move them (resample-move).  ``visible``: what the player sees
        after that turn."""
        self.turns.append(turn)
        self._models.append(self._model_views(turn))
        self.visible_now = visible
        t = len(self.turns) - 1
        scratch = self._scratch()
        rng = self.rng
        gain = np.full(len(self.chains), -np.inf)
        for k, ch in enumerate(self.chains):
            before = ch.loglik
            d = -1
            if not turn.took:
                if turn.throw not in ch.hand:
                    d = turn.throw
                else:
                    pool = [c for c in range(52) if c not in turn.visible and c not in ch.hand]
                    d = pool[int(rng.integers(len(pool)))] if pool else -1
            ch.draws.append(d)
            out = self._turn(t, ch.hand, d, scratch) if math.isfinite(ch.loglik) else None
            if out is not None:
                ch.loglik += out[0]
                ch.hand = out[1]
            elif turn.took and turn.throw not in ch.hand:
                # it threw a card it held: deal this chain that card in place of another
                self._repair(ch, "dealt", None, turn.throw, len(ch.dealt))
            else:
                ch.loglik = -math.inf
            if math.isfinite(ch.loglik) and math.isfinite(before):
                gain[k] = ch.loglik - before
        self._resample(gain)
        self._refill()
        self.move(self.steps)

    def _resample(self, gain: np.ndarray) -> None:
        """Systematic resampling of the chains by ``exp(gain)`` (their new turn's likelihood)."""
        ok = np.isfinite(gain)
        if not ok.any():
            return
        w = np.where(ok, np.exp(gain - gain[ok].max()), 0.0)
        w /= w.sum()
        n = len(w)
        pos = (self.rng.random() + np.arange(n)) / n
        idx = np.minimum(np.searchsorted(np.cumsum(w), pos), n - 1)
        src = [(c.dealt, c.draws, c.loglik, c.hand) for c in self.chains]
        for ch, j in zip(self.chains, idx, strict=True):
            dealt, draws, ll, hand = src[j]
            ch.dealt, ch.draws, ch.loglik, ch.hand = dealt[:], draws[:], ll, hand[:]

    def see(self, visible: frozenset[int]) -> None:
        """The player now sees ``visible`` (its hand, the discard pile): a chain holding any of
        it gets that card dealt or drawn otherwise, or copies a possible chain."""
        self.visible_now = visible
        bad = False
        for ch in self.chains:
            seen = visible.intersection(ch.hand)
            if not seen:
                continue
            bad = True
            x = next(iter(seen))
            if x in ch.dealt:
                self._repair(ch, "dealt", ch.dealt.index(x), None, 12)
            elif x in ch.draws:
                self._repair(ch, "draws", ch.draws.index(x), None, 12)
            else:
                ch.loglik = -math.inf
        if bad:
            self._refill()

    def _repair(self, ch: Chain, part: str, at: int | None, card: int | None, tries: int) -> None:
        """Replace ``ch`` by the first possible of ``tries`` changed trajectories, else mark it
        impossible.  A change puts ``card`` (``None``: a random one) among the ``part``
        (``"dealt"`` or ``"draws"``) at index ``at`` (``None``: at index 0, 1, ... in turn)."""
        rng = self.rng
        for i in range(tries):
            idx = i if at is None else at
            if card is not None:
                c = card
            elif part == "dealt":
                c = self.unseen0[int(rng.integers(len(self.unseen0)))]
            else:
                c = int(rng.integers(52))
            dealt, draws = ch.dealt, ch.draws
            if part == "dealt":
                dealt = _put(dealt, idx, c)
            else:
                draws = _put(draws, idx, c)
            ll, hand = self._replay(dealt, draws)
            if ll > -math.inf:
                ch.dealt, ch.draws, ch.loglik, ch.hand = dealt, draws, ll, hand
                return
        ch.loglik = -math.inf

    def _refill(self) -> None:
        """Impossible chains copy a random possible one (the moves then spread them)."""
        ok = [ch for ch in self.chains if math.isfinite(ch.loglik)]
        if not ok:
            return
        for ch in self.chains:
            if not math.isfinite(ch.loglik):
                src = ok[int(self.rng.integers(len(ok)))]
                ch.dealt, ch.draws, ch.loglik, ch.hand = src.dealt[:], src.draws[:], src.loglik, src.hand[:]

    def move(self, steps: int) -> None:
        """``steps`` Metropolis-Hastings moves of every chain.

        A move puts a card of ``C`` (the cards it may have held: those the player does not
        see now and those it threw this round) in place of one dealt or drawn card, or
        swaps a dealt card with a drawn one; both are symmetric, so a move is kept with
        the likelihood ratio.
        """
        rng = self.rng
        draw_turns = [t for t, tr in enumerate(self.turns) if not tr.took]
        cand = sorted((set(range(52)) - self.visible_now) | {tr.throw for tr in self.turns})
        self.accepted = self.tried = 0
        for ch in self.chains:
            for _ in range(steps):
                dealt, draws = ch.dealt, ch.draws
                u = rng.random()
                if draw_turns and u < 0.3:
                    t = draw_turns[int(rng.integers(len(draw_turns)))]
                    draws = _put(draws, t, cand[int(rng.integers(len(cand)))])
                elif draw_turns and u < 0.45:
                    t = draw_turns[int(rng.integers(len(draw_turns)))]
                    i = int(rng.integers(len(dealt)))
                    dealt, draws = _put(dealt, i, draws[t]), _put(draws, t, dealt[i])
                else:
                    dealt = _put(dealt, int(rng.integers(len(dealt))), cand[int(rng.integers(len(cand)))])
                self.tried += 1
                ll, hand = self._replay(dealt, draws)
                if ll == -math.inf:
                    continue
                if not math.isfinite(ch.loglik) or math.log(rng.random() + 1e-300) < ll - ch.loglik:
                    self.accepted += 1
                    ch.dealt, ch.draws, ch.loglik, ch.hand = dealt, draws, ll, hand

    # ------------------------------------------------------------ sampling
    def alive(self) -> bool:
        """Whether any chain holds a possible trajectory."""
        return any(math.isfinite(ch.loglik) for ch in self.chains)

    def draw(self, rng: np.random.Generator) -> list[int]:
        """The current hand of a possible chain: the chains in a random order, each once
        before any repeats (draws with replacement would add their own noise)."""
        while True:
            if not self._order:
                self._order = [int(i) for i in rng.permutation(len(self.chains))]
            ch = self.chains[self._order.pop()]
            if math.isfinite(ch.loglik):
                return ch.hand


def _put(cards: list[int], i: int, card: int) -> list[int]:
    """A copy of ``cards`` with ``card`` at ``i`` (index taken modulo the length)."""
    out = cards[:]
    out[i % len(out)] = card
    return out


def opponent_pick_view(view: Rummy432View, took_card: int, took: bool, throw: int,
                       known_before: Sequence[int], pile_before: int, run_outs: int, turn: int
                       ) -> Rummy432View:
    """The opponent's view at the pick of its latest turn, its hand left empty, built from
    the player's pick view after that turn (the discard pile then had ``took_card`` on
    top, the pile ``pile_before`` cards)."""
    opp = 1 - view.seat
    discard = [c for c in view.discard if c != throw]
    if took:
        discard.append(took_card)
    known = list(view.known)
    known[opp] = tuple(sorted(known_before))
    return dataclasses.replace(
        view,
        seat=opp,
        phase="pick",
        current=opp,
        turn=turn,
        pile_size=pile_before,
        run_outs=run_outs,
        finished_by=-1,
        last_turns_left=(),
        hand=(),
        discard_top=took_card,
        discard=tuple(sorted(discard)),
        taken=-1,
        known=tuple(known),
    )


class TrackerMemory(OpponentMemory):
    """The opponent memory plus an :class:`OpponentTracker` of its round (``filt``; ``None``
    when off or when the seat's Views stopped connecting this round)."""

    def __init__(self, seat: int, game: Rummy432Game, inference: TrackerInference) -> None:
        self.game = game
        self.inference = inference
        super().__init__(seat)

    def reset(self, rnd: int) -> None:
        """Forget the round, the tracker with it."""
        super().reset(rnd)
        self.filt: OpponentTracker | None = None
        #: at the player's latest throw: the opponent's known cards, the pile size, the run-outs
        self.throw_known: tuple[int, ...] = ()
        self.throw_pile = 0
        self.throw_run_outs = 0

    def on_throw(self, view: Rummy432View) -> None:
        """Note the public facts at the seat's throw; the tracker forgets chains it now sees refuted."""
        opp = 1 - self.seat
        self.throw_known = view.known[opp]
        self.throw_pile, self.throw_run_outs = view.pile_size, view.run_outs
        if self.filt is not None:
            self.filt.see(frozenset(view.hand) | frozenset(view.discard))
            if not self.filt.alive():
                self.filt = None

    def on_pick(self, view: Rummy432View, thrown: int) -> None:
        """Move the opponent tracker on by the opponent's turn this pick view shows (start
        it at the round's first view; drop it when the views do not connect)."""
        inf = self.inference
        opp = 1 - view.seat
        y = view.discard_top
        f = self.filt
        hand = set(view.hand)
        seen = frozenset(hand | set(view.discard))  # what the player sees now

        def score(v: Rummy432View, legal: list[int]) -> np.ndarray:
            return planner_scores(Context(v), legal)

        def fresh(unseen: list[int]) -> OpponentTracker:
            rng = np.random.default_rng([view.round, view.seat, view.turn, *view.hand])
            return OpponentTracker(self.game, view.seat, unseen, inf.chains, inf.steps, inf.tracker_beta,
                                   inf.tracker_eps, score, rng)

        def turn(pv: Rummy432View, took: bool, exact: bool) -> Turn:
            vis = frozenset(hand | set(pv.discard))
            return Turn(pv, vis, took, y, view.finished_by == opp, exact)

        if view.turn == 0:
            f = fresh([c for c in range(52) if c not in hand and c not in view.discard])
        elif view.turn == 1 and y >= 0:
            # the opponent opened the round: it took or passed the first face-up card
            took = len(view.known[opp]) == 1
            buried = [c for c in view.discard if c != y]
            first = view.known[opp][0] if took else (buried[0] if len(buried) == 1 else -1)
            f = None
            if first >= 0:
                f = fresh([c for c in range(52) if c not in hand and c != first])
                pv = opponent_pick_view(view, first, took, y, (), view.pile_size + (0 if took else 1),
                                        view.run_outs, 0)
                f.add_turn(turn(pv, took, True), seen)
        elif f is not None and thrown >= 0 and y >= 0:
            took = thrown in view.known[opp]
            exact = view.run_outs == self.throw_run_outs and self.throw_pile > 0
            pile = self.throw_pile if exact else view.pile_size + (0 if took else 1)
            pv = opponent_pick_view(view, thrown, took, y, self.throw_known, pile, self.throw_run_outs,
                                    view.turn - 1)
            f.add_turn(turn(pv, took, exact), seen)
        else:
            f = None  # the views do not connect: the hand-set inference deals
        if f is not None:
            f.see(seen)  # chains extended but not moved may still hold a card seen now
            if not f.alive():
                f = None
        self.filt = f


class TrackerInference(HandModelInference):
    """The expert's worlds deal the opponent's hand from the tracker's chains while it
    follows the round (``chains`` Markov chains, ``steps`` moves each per opponent turn,
    an opponent model of sharpness ``tracker_beta`` mixed with a share ``tracker_eps`` of
    uniform choice); else as :class:`~.rummy_hand.HandModelInference` (``model``, the
    hand-set settings) deals."""

    def __init__(self, chains: int = 64, steps: int = 4, tracker_beta: float = 6.0, tracker_eps: float = 0.05,
                 model: bool = False, **hand_set: Any) -> None:
        super().__init__(model=model, **hand_set)
        self.chains, self.steps = int(chains), int(steps)
        self.tracker_beta, self.tracker_eps = float(tracker_beta), float(tracker_eps)

    def new_memory(self, game: Rummy432Game, seat: int) -> Memory:
        """A :class:`TrackerMemory` (two players)."""
        return TrackerMemory(seat, game, self) if game.num_players == 2 else Memory()

    def deal_opponent(self, game: Rummy432Game, state: State, view: Rummy432View, m: OpponentMemory | None,
                      pool: list[int], k: int, rng: np.random.Generator) -> State:
        """The hand of a tracker chain when one fits the world, else the fallback's deal."""
        opp = 1 - view.seat
        known = state.known[opp]
        filt = m.filt if isinstance(m, TrackerMemory) else None
        if filt is not None and filt.alive():
            hand = filt.draw(rng)
            hand_set = set(hand)
            if (len(hand) == len(state.hands[opp]) and hand_set.issuperset(known)
                    and hand_set.difference(known).issubset(pool)):
                rest = [c for c in pool if c not in hand_set]
                state.hands[opp] = list(hand)
                state.counts[opp] = rank_counts(hand)
                state.pile = [rest[i] for i in rng.permutation(len(rest))]
                state.legal = None
                return state
        return super().deal_opponent(game, state, view, m, pool, k, rng)


__all__ = ["Chain", "OpponentTracker", "TrackerInference", "TrackerMemory", "Turn", "opponent_pick_view"]
