"""AIVAT-style control variates: a game's points with the luck of the cards taken out.

For a seat ``p`` the reduced score of a game is::

    points_p - sum over chance events t of b_t [ V_p(after_t) - E_c V_p(after_t with outcome c) ]

where ``b_t`` is a constant per kind of event (below), ``V`` a value estimate of the
full state (:mod:`.value`; the estimator runs after the game with every hand known, as
AIVAT does) and the expectation is over the chance outcomes with their true
probabilities given everything that happened.  Each bracket has
expectation 0 given the history before its event, whatever ``V`` is, so the reduced score
is **unbiased by construction**: the same expectation as the points, and with a good
``V`` a smaller variance (a draw that won the game is counted as what such a draw was
worth on average, not as what it brought).

The chance events and how their expectations are estimated:

* **Every step that** :meth:`Game.has_chance` **says may meet chance** (a draw from the
  pile, a market revealed from the deck, a reshuffle, a later round's deal): the
  expectation is the mean of ``V`` over ``samples`` independent outcomes, each a clone
  of the state before the step with its unseen cards re-ordered
  (:meth:`Game.redraw_unseen`: uniform given everything that happened) and the action
  applied with the corrector's own ``rng`` (for what ``apply`` draws: reshuffles and
  deals).  A mean of independent samples is itself an unbiased estimate of the
  expectation, so the estimator stays unbiased (the samples add a little variance of
  their own: more samples, less of it; *stratified*, the samples are rotations of one
  shuffle, each distributed as an independent redraw but with different cards on top,
  and the noise is smaller still).  ``has_chance`` is decided from the state and
  the action before the outcome, so skipping the other steps (whose bracket would be
  exactly 0) biases nothing.
* **The deal**: ``V_p(first state) - mean of V_p over deal_samples fresh deals``
  (``new_state`` with the corrector's ``rng``), again an unbiased estimate.  With
  ``deal_samples=0`` the deal's bracket is left out: still unbiased (any subset of the
  brackets is), and exactly as good as the exact expectation when each deal is played
  under every rotation of the seats and the scores are averaged over the rotations
  (``V`` sums to 1 over the seats, so the brackets of the rotations cancel).  So a
  schedule that plays each deal under every rotation asks for ``deal_term=False``: the
  fresh deals are still drawn (the samples that follow stay the same, so every deal's
  mean over its rotations is what it was with the bracket, to rounding) but not valued,
  which saves the bracket's ``V`` calls (a third of the corrector's time in Line).

* **Optionally, the moves of players whose policy is known** (``policy_terms``; the
  ladder's random and heuristic agents draw uniformly among the legal or the best moves,
  :func:`known_policy`): ``V`` after the move less its expectation over the policy (and
  over each move's chance).  Unbiased as well, but measured to take out nothing with the
  shipped value nets, so off by default.

Each kind of bracket (deal, chance, policy) enters the correction times a coefficient
fixed in advance (the value net's ``meta["coefficients"]``, fitted on tuning seeds apart
from every evaluation's; 1 without): a constant times a zero-mean term is zero-mean.

Outcomes alike in every seat's View (two redraws that put the same card on top differ
only in the face-down order) are valued once when the value says it reads nothing else
(:func:`reads_views`: the shipped nets and their lookahead): the same corrections, up to
float32 rounding, for about 30% fewer values in Line.

The corrector has its own ``rng``, separate from the game's: the game plays move for move
as it would without it (the players see nothing of it), and the corrections are
reproducible for a seed.  A value net's small matrix products run fastest on one BLAS
thread: the library's evaluation loops set that themselves
(:mod:`agents.evaluation.threads`); a loop of one's own around :func:`play_corrected` can
run inside :func:`agents.evaluation.threads.one_blas_thread`.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Generic, cast

import numpy as np

from cardenvs.core.game import Game
from cardenvs.core.loop import Hook, Player, Turn, play

from ..players.base import RandomAgent
from ..players.heuristic import HeuristicAgent
from ..types import S, V
from .value import ValueFunction, game_points, reads_views, value_for

#: ``outcomes(game, state, action, rng) -> [(weight, state after), ...]``: chance outcomes
#: of a step (weights summing to 1) whose weighted mean of ``V`` estimates the expectation
Outcomes = Callable[[Game[S, V], S, int, np.random.Generator], Sequence[tuple[float, S]]]
#: ``deals(game, rng) -> [(weight, first state), ...]``: the same for the deal
Deals = Callable[[Game[S, V], np.random.Generator], Sequence[tuple[float, S]]]
#: ``policy(game, view, legal) -> probabilities``: how a player whose choices are known
#: draws its move (one probability per legal action, in the order of ``legal``)
Policy = Callable[[Game[S, V], V, list[int]], np.ndarray]


def _uniform(game: Game[S, V], view: V, legal: list[int]) -> np.ndarray:
    """Every legal action alike (:class:`~agents.players.base.RandomAgent`)."""
    return np.full(len(legal), 1.0 / len(legal))


def _ties(agent: HeuristicAgent) -> Policy:
    """The moves a heuristic agent draws among: its best scores within 1e-9, alike (the
    rule of :func:`agents.players.knowledge.argmax_random`)."""

    def policy(game: Game[S, V], view: V, legal: list[int]) -> np.ndarray:
        vals = agent.values(game, view, legal).tolist()
        top = max(vals) - 1e-9
        best = np.array([v >= top for v in vals], np.float64)
        return best / best.sum()

    return policy


def known_policy(player: object) -> Policy | None:
    """How ``player`` draws its moves, when that is known: its own
    ``action_probabilities(game, view, legal)`` if it has one, the ladder's random and
    heuristic agents (exactly those classes, whose ``choose`` draws uniformly among the
    legal moves or among the best-scoring ones); else ``None``."""
    fn = getattr(player, "action_probabilities", None)
    if callable(fn):
        return fn
    if type(player) is RandomAgent:
        return _uniform
    if type(player) is HeuristicAgent:
        return _ties(player)
    return None


class _Rotation:
    """The generator one stratified sample redraws its unseen cards with: its
    ``permutation(n)`` is the event's shared shuffle of ``n`` (drawn once, with a random
    start) rotated by this sample's offset, ``start + floor(k * n / samples)``; any other
    draw is the corrector's generator's own.

    A rotation of a uniform shuffle is a uniform shuffle, so each sample alone is
    distributed as an independent redraw (the mean of ``V`` over them stays unbiased);
    together the samples put ``samples`` different cards on top of the pile (every card
    equally often once there are as many samples as cards), so a draw's expectation is
    estimated with less noise than by independent redraws."""

    def __init__(self, rng: np.random.Generator, shuffles: list[tuple[np.ndarray, int]], k: int,
                 samples: int) -> None:
        self._rng, self._shuffles, self._k, self._samples = rng, shuffles, k, samples
        self._calls = 0

    def permutation(self, x: int | np.ndarray) -> np.ndarray:
        """This sample's rotation of the event's ``i``-th shuffle (``i``: the calls so far);
        an array ``x`` is returned re-ordered by the rotation of ``len(x)``."""
        if not isinstance(x, (int, np.integer)):
            arr = np.asarray(x)
            return arr[self.permutation(len(arr))]
        n, i = int(x), self._calls
        self._calls += 1
        if i == len(self._shuffles):
            self._shuffles.append((self._rng.permutation(n), int(self._rng.integers(n)) if n > 1 else 0))
        base, start = self._shuffles[i]
        if len(base) != n:  # a redraw unlike the first sample's: an independent shuffle
            return self._rng.permutation(n)
        if n <= 1:
            return base
        return np.roll(base, -((start + self._k * n // self._samples) % n))

    def __getattr__(self, name: str) -> object:
        return getattr(self._rng, name)


def sampled_outcomes(samples: int, stratified: bool = False) -> Outcomes:
    """Outcomes of a step: ``samples`` redraws of the unseen cards, each followed by the
    action (applied with the corrector's ``rng``), equally weighted.  The redraws are
    independent, or with ``stratified`` rotations of one shuffle (:class:`_Rotation`: the
    same distribution for each, different cards on top across them; it stratifies what a
    game re-orders through :func:`~cardenvs.core.game.shuffle_unseen`, as every shipped
    game does, and leaves any other draw independent)."""

    def outcomes(game: Game[S, V], state: S, action: int,
                 rng: np.random.Generator) -> list[tuple[float, S]]:
        out = []
        shuffles: list[tuple[np.ndarray, int]] = []
        for k in range(samples):
            t = game.clone(state)
            redraw = cast(np.random.Generator, _Rotation(rng, shuffles, k, samples)) if stratified else rng
            game.redraw_unseen(t, redraw)
            game.apply(t, action, rng)
            out.append((1.0 / samples, t))
        return out

    return outcomes


def sampled_deals(samples: int) -> Deals:
    """Outcomes of the deal: ``samples`` fresh deals, equally weighted."""

    def deals(game: Game[S, V], rng: np.random.Generator) -> list[tuple[float, S]]:
        return [(1.0 / samples, game.new_state(rng)) for _ in range(samples)]

    return deals


#: outcomes sampled per chance event when neither the caller nor the value says
SAMPLES = 8


def default_samples(value: object) -> int:
    """The outcomes per chance event to sample with ``value``: its own ``samples`` (a
    value net's ``meta["samples"]``, chosen with it on the tuning deals) if it has one,
    else :data:`SAMPLES`."""
    own = getattr(value, "samples", None)
    return own if isinstance(own, int) and own >= 1 else SAMPLES


def default_stratified(value: object) -> bool:
    """Whether to stratify the redraws with ``value`` (:func:`sampled_outcomes`): its own
    ``stratified`` (a value net's ``meta["stratified"]``, chosen with it on the tuning
    deals) if it has one, else independent redraws."""
    return getattr(value, "stratified", None) is True


def derived_rng(rng: np.random.Generator | None) -> np.random.Generator:
    """A generator for the corrector seeded from ``rng``'s state, which it leaves untouched
    (so the game's own draws stay as they were); unseeded when ``rng`` is ``None``."""
    if rng is None:
        return np.random.default_rng()
    digest = hashlib.sha256(repr(rng.bit_generator.state).encode()).digest()
    return np.random.default_rng([int.from_bytes(digest[:8], "little"), 0xA17A7])


def match_chance_rng(seed: int) -> np.random.Generator:
    """The corrector's generator for a match dealt with ``seed`` (apart from the game's own
    ``default_rng(seed)`` and its agents' ``seed * 31 + seat``)."""
    return np.random.default_rng([seed, 0xA17A7])


#: the kinds of bracket: the deal, a chance event after it, a known policy's move
KINDS = ("deal", "chance", "policy")


class ChanceCorrector(Generic[S, V]):
    """Sums each seat's AIVAT chance corrections over one game, through the play loop's hooks.

    Call :meth:`start` with the dealt state, then pass :meth:`on_move` and
    :meth:`after_move` to :func:`cardenvs.core.loop.play`; :attr:`corrections` is then what
    to subtract from each seat's points.  ``samples``: outcomes per chance event (default
    :func:`default_samples` of ``value``).  ``outcomes``/``deals`` replace the sampled
    expectations (an exact enumeration, in the tests).  ``policies``: per seat, how it
    draws its moves where known (:func:`known_policy`), for the policy terms.
    ``deal_term=False``: draw the fresh deals but add no deal's bracket (for a deal played
    under every rotation of the seats, where the brackets cancel; see the module docstring).
    ``stratified``: the chance events' redraws are rotations of one shuffle rather than
    independent (:func:`sampled_outcomes`; default :func:`default_stratified` of ``value``).

    The three kinds of bracket (``"deal"``, ``"chance"``, ``"policy"``) are summed raw in
    :attr:`parts` and into :attr:`total` each times its coefficient (``coefficients``,
    default the value net's own, fitted on seeds no evaluation uses, else 1): a constant
    times a zero-mean term is zero-mean, so any coefficients fixed in advance keep the
    estimator unbiased (the usual control-variate coefficient, against a ``V`` that
    over- or under-reacts).
    """

    def __init__(self, game: Game[S, V], value: ValueFunction, rng: np.random.Generator,
                 samples: int | None = None, deal_samples: int | None = None,
                 outcomes: Outcomes[S, V] | None = None, deals: Deals[S, V] | None = None,
                 policies: Sequence[Policy[S, V] | None] | None = None,
                 coefficients: Mapping[str, float] | None = None, deal_term: bool = True,
                 stratified: bool | None = None) -> None:
        samples = default_samples(value) if samples is None else samples
        if samples < 1:
            raise ValueError(f"samples must be at least 1, got {samples}")
        deal_samples = samples if deal_samples is None else deal_samples
        self.game, self.value, self.rng = game, value, rng
        #: whether :meth:`start` adds the deal's bracket (else it only draws the fresh deals)
        self.deal_term = deal_term
        if stratified is None:
            stratified = default_stratified(value)
        #: whether the chance events' redraws are stratified (rotations of one shuffle)
        self.stratified = stratified
        self.outcomes = outcomes or sampled_outcomes(samples, stratified)
        self.deals = deals if deals is not None else sampled_deals(deal_samples) if deal_samples else None
        if coefficients is None:
            coefficients = getattr(value, "coefficients", None) or {}
        #: the weight of each kind of bracket in :attr:`total`
        self.coefficients = {k: float(coefficients.get(k, 1.0)) for k in KINDS}
        n = game.num_players
        #: per seat, the weighted sum of the brackets so far (what to subtract)
        self.total = np.zeros(n)
        #: per kind (``"deal"``, ``"chance"``, ``"policy"``), the raw sum of its brackets
        self.parts = {k: np.zeros(n) for k in KINDS}
        #: brackets added (the deal included)
        self.events = 0
        #: distinct states valued by a value that reads only Views (:func:`reads_views`)
        self.valued = 0
        self.policies = list(policies) if policies is not None else [None] * n
        self._before: S | None = None
        self._support: list[tuple[int, float]] = []

    @property
    def corrections(self) -> list[float]:
        """Per seat, the sum of the corrections so far (to subtract from its points)."""
        return [float(x) for x in self.total]

    @property
    def deal_total(self) -> np.ndarray:
        """The deal's part of :attr:`total` (weighted)."""
        return self.coefficients["deal"] * self.parts["deal"]

    def _values(self, states: list[S]) -> np.ndarray:
        """``V`` of ``states`` in one batch; with a value that reads the states only through
        the seats' Views (:func:`reads_views`), each distinct set of Views is valued once
        (outcomes that drew the same card differ only in the face-down order)."""
        if not reads_views(self.value):
            return self.value(self.game, states)
        game, n = self.game, self.game.num_players
        index: dict[bytes, int] = {}
        unique: list[S] = []
        rows = []
        for s in states:
            key = b"".join(np.ascontiguousarray(game.observe(s, p)).tobytes() for p in range(n))
            i = index.setdefault(key, len(unique))
            if i == len(unique):
                unique.append(s)
            rows.append(i)
        self.valued += len(unique)
        if len(unique) == len(states):
            return self.value(game, states)
        return self.value(game, unique)[rows]

    def _add(self, kind: str, actual: S, outcomes: Sequence[tuple[float, S]]) -> None:
        """Add the bracket ``V(actual) - sum of weight * V(outcome)`` (one batch of ``V``)."""
        vals = self._values([actual, *(s for _, s in outcomes)])
        weights = np.array([w for w, _ in outcomes])
        term = vals[0] - weights @ vals[1:]
        self.parts[kind] += term
        self.total += self.coefficients[kind] * term
        self.events += 1

    def start(self, state: S) -> None:
        """The deal's correction (none with ``deal_samples=0``; with ``deal_term=False`` the
        fresh deals are drawn and left unvalued)."""
        if self.deals is not None:
            deals = self.deals(self.game, self.rng)
            if self.deal_term:
                self._add("deal", state, deals)

    def on_move(self, turn: Turn) -> None:
        """Before a move: keep a copy of the state if the move is drawn by a known policy
        among several moves, or may meet chance."""
        game, state = self.game, turn.state
        policy = self.policies[turn.seat]
        self._before, self._support = None, []
        if policy is not None:
            probs = policy(game, turn.view, turn.legal)
            support = [(a, float(w)) for a, w in zip(turn.legal, probs) if w > 0]
            if len(support) > 1:
                self._before, self._support = game.clone(state), support
                return
        if game.has_chance(state, turn.action):
            self._before, self._support = game.clone(state), [(turn.action, 1.0)]

    def after_move(self, turn: Turn) -> None:
        """After a move kept by :meth:`on_move`: its correction, ``V`` after it less the
        expectation over the policy's moves (if known) and their chance outcomes."""
        if self._before is None:
            return
        game, before, support = self.game, self._before, self._support
        self._before = None
        outcomes: list[tuple[float, S]] = []
        for a, w in support:
            if game.has_chance(before, a):
                outcomes += [(w * x, t) for x, t in self.outcomes(game, before, a, self.rng)]
            else:
                t = game.clone(before)
                game.apply(t, a, self.rng)
                outcomes.append((w, t))
        self._add("policy" if len(support) > 1 else "chance", turn.state, outcomes)


@dataclass(frozen=True)
class CorrectedGame:
    """A game played with the corrector: what :func:`play_corrected` returns (two games are
    equal when they played and scored alike, however long they took)."""

    #: each seat's reward (zeros when the game did not finish)
    rewards: list[float]
    #: each seat's points (a win 1, shared by k 1/k, else 0; zeros when unfinished)
    points: list[float]
    #: each seat's correction: its reduced score is ``points - corrections``
    corrections: list[float]
    #: moves played
    steps: int
    #: CPU seconds of the whole game, and of the corrector's part of them (its brackets'
    #: outcomes and values), so that its overhead can be stated
    seconds: float = field(default=0.0, compare=False)
    correction_seconds: float = field(default=0.0, compare=False)


def play_corrected(game: Game[S, V], state: S, players: Sequence[Player | None] | Mapping[int, Player],
                   rng: np.random.Generator | None = None, value: ValueFunction | None = None,
                   samples: int | None = None, *, deal_samples: int | None = None,
                   chance_rng: np.random.Generator | int | None = None, policy_terms: bool = False,
                   on_move: Hook | None = None, after_move: Hook | None = None,
                   max_moves: int | None = None, deal_term: bool = True,
                   stratified: bool | None = None) -> CorrectedGame:
    """Play ``state`` (just dealt) to the end as :func:`~cardenvs.core.loop.play` would, and
    each seat's chance corrections with it.

    ``rng`` is the game's own (reshuffles, later deals), used exactly as without the
    corrector.  ``value``: default :func:`~agents.measure.value.value_for` the game.
    ``samples``: outcomes per chance event (default :func:`default_samples` of ``value``);
    ``deal_samples``: fresh deals for the deal's correction (default ``samples``; 0 leaves it
    out, see the module docstring).
    ``chance_rng`` (a generator or a seed) draws the corrector's samples; by default one
    seeded from ``rng``'s state (:func:`derived_rng`).  ``policy_terms``: also correct
    the moves of the players whose choices are known (:func:`known_policy`); off by
    default: measured, they took out no variance (ties among the best moves of the
    ladder's agents look alike to the value nets) and cost time.
    ``deal_term=False``: leave the deal's bracket out but draw its fresh deals (for a deal
    played under every rotation of the seats: see the module docstring).
    ``stratified``: rotations of one shuffle as the redraws (default the value's own,
    :func:`default_stratified`).
    ``on_move``/``after_move``: the caller's own hooks, called after the corrector's.
    The result's ``seconds`` and ``correction_seconds`` are the game's CPU time and the
    corrector's part of it (this process's; the value's BLAS threads included).
    """
    if value is None:
        value = value_for(game)
    if isinstance(chance_rng, np.random.Generator):
        crng = chance_rng
    elif chance_rng is None:
        crng = derived_rng(rng)
    else:
        crng = np.random.default_rng(chance_rng)
    n = game.num_players
    seats = [players[p] for p in range(n)] if policy_terms else [None] * n
    corr = ChanceCorrector(game, value, crng, samples, deal_samples,
                           policies=[None if pl is None else known_policy(pl) for pl in seats],
                           deal_term=deal_term, stratified=stratified)
    clock = time.process_time
    began = clock()
    corr.start(state)
    spent = clock() - began

    def before(turn: Turn) -> None:
        nonlocal spent
        t = clock()
        corr.on_move(turn)
        spent += clock() - t
        if on_move is not None:
            on_move(turn)

    def after(turn: Turn) -> None:
        nonlocal spent
        t = clock()
        corr.after_move(turn)
        spent += clock() - t
        if after_move is not None:
            after_move(turn)

    steps = play(game, state, players, rng, on_move=before, after_move=after, max_moves=max_moves)
    if game.is_terminal(state):
        rewards = [float(r) for r in game.returns(state)]
        pts = [float(x) for x in game_points(game, state)]
    else:
        rewards, pts = [0.0] * n, [0.0] * n
    return CorrectedGame(rewards, pts, corr.corrections, steps, clock() - began, spent)
