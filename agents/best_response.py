"""Local best response (LBR): a lower bound on how exploitable a policy is.

Lisý & Bowling's local best response (2017), adapted to these games.  An exploiter seat
(:class:`LocalBestResponse`) plays against a fixed *target* policy.  At each of its
decisions with more than one legal move it

1. samples ``worlds`` full states from its own View: by default with the rules' belief
   sampler ``game.sample_state(view, rng)``, a deal of the cards it cannot see consistent
   with what it knows (``docs/beliefs.md`` states the distribution, with Line's known
   non-uniformity in some discard-phase positions and Rummy's finisher hands dealt as if
   nothing were known of them); the deal ignores what the target's play says of its
   cards (poker's LBR weighs the deals by the target's policy; ``sampler="knowledge"``
   deals by the game's knowledge instead, which for Rummy reads what the seat saw);
2. takes the candidate moves: every legal move, or the ``max_candidates`` (default 8)
   best by the rollout policy's heuristic scores when there are more (Line's decisions
   at 2 players have up to ~30 legal moves, most under 8);
3. in each world, for each candidate: applies the move and plays on with the **target**
   in every other seat (target agents built as the evaluated one is, deciding from the
   rollout world's own Views) and the ``rollout_policy`` (the ``greedy`` level, or the
   ``planner``) for its own later moves, to the end of the game, or with ``horizon``
   ``"round"`` (the default) to the end of the round in a game of rounds (Rummy), or
   after ``depth`` moves;
4. plays the candidate of the best mean value, if it beats the rollout policy's own
   favourite by ``confidence`` standard errors of their paired difference over the worlds
   (default 2); else the favourite.  ``confidence=0`` is plain LBR (the argmax).

**Values.**  A finished game is worth the exploiter's points (a win 1, a win shared by
``k`` seats ``1/k``, else 0; :func:`agents.tournament.points`) plus ``0.01`` times the
game's margin (:meth:`~agents.knowledge.Knowledge.outcome`, in [-1, 1]), which tells big
wins from narrow ones when the points tie.  A rollout cut at a round's end or at
``depth`` is worth ``(1 + v) / 2``, ``v`` in [-1, 1] being the value the expert's search
gives that state (:meth:`~agents.knowledge.Knowledge.rollouts`; in Rummy the round's
result with the later rounds even, a chance to win the game).

**Common random numbers.**  Every candidate meets the same worlds with the same rollout
seed (the same chance draws, the same seeds for every rollout agent), so differences
between candidates are not the luck of the worlds.  All is drawn from the exploiter's
seeded generator: the same seed gives the same moves.

**Why the confidence rule.**  With a few worlds the rollout values are noisy: at 8
worlds, plain LBR in Rummy strayed from greedy's move in about 4 throws of 10 and scored
30% [18%, 42%] against ``greedy`` itself over 40 games (35% [22%, 48%] with rollouts to
the end of the game), below the 50% that greedy's own moves score.  A move the rollouts
do not clearly prefer is no evidence of an exploit, so the exploiter keeps the rollout
policy's move there.

**Memory.**  A target that remembers (the Rummy expert keeps what it saw its opponent do
this round, :class:`~agents.knowledge.SeatMemories`) builds its memory from its seat's
own Views.  A sampled world has no history, so each rollout gets fresh target agents,
with empty memories, which they fill from the Views they get in the rollout world (as an
agent restarted there would); an agent that keeps no memory is built once per seat and
reseeded for each rollout, which plays exactly as a fresh one.  The exploiter keeps a
memory only for ``sampler="knowledge"`` in a game whose seats remember, from its own
Views.

**What it measures.**  :func:`local_best_response` plays the exploiter against the
target on duplicate deals and scores it with :func:`agents.estimate.estimate`; see
:class:`BestResponseResult`.
"""

from __future__ import annotations

import copy
import math
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import cardenvs
from cardenvs.core.game import Game
from cardenvs.core.loop import Player, play

from .base import Agent
from .estimate import estimate
from .knowledge import Knowledge, Rollouts, SeatMemories, knowledge
from .ladder import make_agent
from .tournament import Match, points, run_matches

__all__ = ["BestResponseResult", "LocalBestResponse", "local_best_response"]

#: the weight of the game's margin (in [-1, 1]) beside the points in a finished rollout's value
MARGIN = 0.01
#: the seat label of the exploiter in the matches
LABEL = "lbr"
#: the levels that may play the exploiter's own later moves, with their heuristic depth
ROLLOUT_POLICIES = {"greedy": 1, "planner": 2}


def _seat_seed(seed: int, seat: int) -> int:
    """The seed of ``seat``'s agent in a rollout seeded ``seed`` (the same for every candidate)."""
    return (seed + 7919 * (seat + 1)) % 2**63


class LocalBestResponse(Agent):
    """The LBR exploiter of ``target``: an :class:`~agents.base.Agent` (see the module docstring).

    ``target`` is a level name of ``env_name`` (``"planner"``, ``"policy:FILE.npz"``...)
    that :func:`agents.make_agent` builds for the rollouts, or an
    :class:`~agents.base.Agent` of which the rollouts play deep copies, reseeded.
    ``worlds``: sampled worlds per decision; ``max_candidates``: moves searched per
    decision; ``depth``: the most moves a rollout plays (``None``: no limit);
    ``horizon``: ``"round"`` stops a rollout at the end of the round in a game of rounds,
    ``"game"`` plays on to the end of the game; ``rollout_policy``: ``"greedy"`` or
    ``"planner"``, the exploiter's own later moves in the rollouts (and the favourite the
    confidence rule falls back on); ``confidence``: how many standard errors a candidate
    must beat the favourite by (0: plain LBR); ``sampler``: ``"rules"``
    (``game.sample_state``) or ``"knowledge"`` (the game's knowledge, as the expert deals).
    """

    name = "lbr"

    def __init__(self, env_name: str, target: str | Agent, worlds: int = 8, max_candidates: int = 8,
                 depth: int | None = None, horizon: str = "round", rollout_policy: str = "greedy",
                 confidence: float = 2.0, sampler: str = "rules", seed: int | None = None,
                 name: str | None = None) -> None:
        super().__init__(seed, name)
        check_target(env_name, target)
        _check_count("worlds", worlds)
        _check_count("max_candidates", max_candidates)
        if depth is not None:
            _check_count("depth", depth)
        _check_choice("horizon", horizon, ("round", "game"))
        _check_choice("rollout_policy", rollout_policy, tuple(ROLLOUT_POLICIES))
        _check_choice("sampler", sampler, ("rules", "knowledge"))
        if isinstance(confidence, bool) or not isinstance(confidence, (int, float)) or not (
                0 <= confidence < math.inf):
            raise ValueError(f"confidence must be a number >= 0, got {confidence!r}")
        self.env_name = env_name
        self.target = target
        self.worlds = worlds
        self.max_candidates = max_candidates
        self.depth = depth
        self.horizon = horizon
        self.rollout_policy = rollout_policy
        self.confidence = float(confidence)
        self.sampler = sampler
        self.knowledge: Knowledge = knowledge(env_name)
        #: what each seat the exploiter plays remembers of its own Views (``sampler="knowledge"``)
        self.memories = SeatMemories(self.knowledge)
        #: the rollouts' agents by (seat, own seat?), reseeded for each rollout (see :meth:`_agent`)
        self._rollout_agents: dict[tuple[int, bool], Agent] = {}

    @property
    def remembers(self) -> bool:
        """Whether the exploiter's worlds depend on its seat's memory (the knowledge
        sampler, in a game whose seats remember)."""
        return self.sampler == "knowledge" and self.knowledge.remembers

    def observe(self, game: Game[Any, Any], view: Any) -> None:
        """Update the seat's memory with ``view`` without deciding (rebuilds it after a restart)."""
        self.memories.update(game, view)

    def settings(self) -> dict[str, Any]:
        """The search settings, for a report."""
        return {"worlds": self.worlds, "max_candidates": self.max_candidates, "depth": self.depth,
                "horizon": self.horizon, "rollout_policy": self.rollout_policy,
                "confidence": self.confidence, "sampler": self.sampler}

    def search(self, game: Game[Any, Any], view: Any, legal: list[int]) -> tuple[list[int], np.ndarray]:
        """The candidates (indices into ``legal``, the rollout policy's favourite first) and
        their rollout values, ``[worlds, candidates]``: one row per sampled world.

        Draws two seeds per world from the agent's generator: one deals the world, one
        seeds every candidate's rollout in it.
        """
        me = int(view.seat)
        memory = self.memories.update(game, view)
        level = ROLLOUT_POLICIES[self.rollout_policy]
        prior = np.asarray(self.knowledge.scores(game, view, legal, level), float)
        order = [int(i) for i in np.argsort(-prior, kind="stable")[: self.max_candidates]]
        rollouts = self.knowledge.rollouts(game, view)  # values the states a rollout is cut at
        table = np.zeros((self.worlds, len(order)))
        for w in range(self.worlds):
            world_seed, roll_seed = (int(x) for x in self.rng.integers(2**63, size=2))
            world_rng = np.random.default_rng(world_seed)
            if self.sampler == "rules":
                world = game.sample_state(view, world_rng)
            else:
                world = self.knowledge.sample_state(game, view, world_rng, memory)
            for k, i in enumerate(order):
                table[w, k] = self.rollout(game, world, legal[i], me, roll_seed, rollouts)
        return order, table

    def values(self, game: Game[Any, Any], view: Any, legal: list[int]) -> np.ndarray:
        """The mean rollout value of each legal move against the target (``-inf``: not
        searched; a lone legal move is not searched and gets 0)."""
        if len(legal) == 1:
            return np.zeros(1)
        order, table = self.search(game, view, legal)
        values = np.full(len(legal), -np.inf)
        values[order] = table.mean(axis=0)
        return values

    def choose(self, game: Game[Any, Any], view: Any, legal: list[int]) -> int:
        """The candidate of the best mean rollout value if it beats the rollout policy's
        favourite by ``confidence`` standard errors of their paired difference over the
        worlds, else the favourite (equal means go to the favourite too)."""
        if len(legal) == 1:
            return legal[0]
        order, table = self.search(game, view, legal)
        means = table.mean(axis=0)
        best = int(np.flatnonzero(means >= means.max() - 1e-12)[0])
        if best and self.confidence > 0 and self.worlds > 1:
            diff = table[:, best] - table[:, 0]
            if diff.mean() <= self.confidence * diff.std(ddof=1) / math.sqrt(self.worlds):
                best = 0
        return legal[order[best]]

    def rollout(self, game: Game[Any, Any], world: Any, move: int, me: int, seed: int,
                rollouts: Rollouts | None = None) -> float:
        """The value for ``me`` of playing ``move`` in ``world`` (left unchanged), the
        target then playing every other seat and the rollout policy ``me``'s.

        ``seed`` fixes the rollout's chance draws and every rollout agent's generator.
        ``rollouts`` values a cut rollout (default: the game's knowledge's, bound to
        ``me``'s View of ``world``).
        """
        state = game.clone(world)
        rng = np.random.default_rng(seed)
        first_round = getattr(state, "round", None)
        game.apply(state, move, rng)
        players: list[Player] = [self._agent(p, p == me, _seat_seed(seed, p))
                                 for p in range(game.num_players)]
        if self.horizon == "round" and first_round is not None:
            moves = 0
            while getattr(state, "round", None) == first_round and (self.depth is None or moves < self.depth):
                if not play(game, state, players, rng, max_moves=1):
                    break  # the game is over
                moves += 1
        else:
            play(game, state, players, rng, max_moves=self.depth)
        if game.is_terminal(state):
            pts = points(game.returns(state))[me]
            return pts + MARGIN * self.knowledge.outcome(game, state, me)
        if rollouts is None:
            rollouts = self.knowledge.rollouts(game, game.view(world, me))
        return (1.0 + rollouts.evaluate(state, me)) / 2.0

    def _agent(self, seat: int, own: bool, seed: int) -> Agent:
        """The rollout agent of ``seat`` (the rollout policy if ``own``, else the target),
        playing as a fresh one seeded ``seed`` plays.

        An agent that keeps no memory (:attr:`~agents.base.Agent.remembers` false)
        chooses as a fresh one once reseeded, so it is built once per seat; one that
        remembers is built afresh, with an empty memory, for every rollout.
        """
        key = (seat, own)
        agent = self._rollout_agents.get(key)
        if agent is None or agent.remembers:
            if own:
                agent = make_agent(self.knowledge.env_name, self.rollout_policy, seed=seed)
            elif isinstance(self.target, str):
                agent = make_agent(self.knowledge.env_name, self.target, seed=seed)
            else:
                agent = copy.deepcopy(self.target)
                agent.seed(seed)
            self._rollout_agents[key] = agent
        else:
            agent.seed(seed)
        return agent

    def __getstate__(self) -> dict[str, Any]:
        """What pickles: everything but the rollout agents (rebuilt where it is unpickled)."""
        state = dict(self.__dict__)
        state["_rollout_agents"] = {}
        return state


def check_target(env_name: str, target: Any) -> None:
    """``ValueError`` (``TypeError`` for a wrong type) saying what is wrong unless
    ``target`` is a level name :func:`agents.make_agent` builds for ``env_name`` or an
    :class:`~agents.base.Agent`."""
    if isinstance(target, Agent):
        return
    if not isinstance(target, str):
        raise TypeError(f"target must be a level name or an agents.Agent, got {type(target).__name__}")
    try:
        make_agent(env_name, target, seed=0)
    except ValueError as err:
        raise ValueError(f"target {target!r}: {err}") from None


def _check_count(what: str, value: Any) -> None:
    """``ValueError`` unless ``value`` is a whole number >= 1."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{what} must be a whole number >= 1, got {value!r}")


def _check_choice(what: str, value: Any, allowed: tuple[str, ...]) -> None:
    """``ValueError`` unless ``value`` is one of ``allowed``."""
    if value not in allowed:
        raise ValueError(f"{what} must be one of {', '.join(map(repr, allowed))}, got {value!r}")


@dataclass(frozen=True)
class BestResponseResult:
    """The local best response's score against a target: a lower bound on its exploitability.

    :attr:`share` is the exploiter's points per game against the target (a win 1, a win
    shared by ``k`` seats ``1/k``, else 0) on duplicate deals (each deal played under
    every rotation of the seats), :attr:`interval` its 95% Student interval over deals;
    with control variates it is the luck-reduced score (:mod:`agents.estimate`), else the
    plain one.  :attr:`plain_share` and :attr:`plain_interval` are the points as they fell.

    The fair share is ``1 / players`` (0.5 at 2 players).  The exploiter is one legal
    strategy, so its score is a **lower bound on the target's exploitability** in
    points-per-game terms (on what a best response would score against it): a high LBR
    score means the target is exploitable; a score at or below the fair share says
    nothing (a better response may still exploit the target).
    """

    #: the target's name (a level name, or the agent's name)
    target: str
    env: str
    players: int
    #: games played (whole deals: a multiple of ``players``)
    games: int
    share: float
    interval: tuple[float, float]
    plain_share: float
    plain_interval: tuple[float, float]
    #: wall time of the games
    seconds: float
    #: the exploiter's settings (worlds, candidates, horizon, rollout policy...) and the seed
    settings: dict[str, Any] = field(default_factory=dict)
    #: the deals the games were played on
    deals: int = 0
    #: how :attr:`share` was measured: ``"duplicate"`` or ``"duplicate+control variates"``
    method: str = "duplicate"

    @property
    def exploitable(self) -> bool:
        """Whether the interval lies above the fair share (the target is shown exploitable)."""
        return self.interval[0] > 1.0 / self.players


def local_best_response(
    target: str | Agent,
    env_name: str,
    games: int = 100,
    players: int = 2,
    seed: int = 0,
    workers: int = 1,
    worlds: int = 8,
    max_candidates: int = 8,
    depth: int | None = None,
    horizon: str = "round",
    rollout_policy: str = "greedy",
    confidence: float = 2.0,
    sampler: str = "rules",
    progress: bool = False,
    control_variates: bool = False,
) -> BestResponseResult:
    """Play the LBR exploiter of ``target`` against it and score it (see the module docstring).

    ``target``: a level name of ``env_name`` or an :class:`~agents.base.Agent` (sent to
    the worker processes with ``cloudpickle``).  ``games`` games at ``players`` seats,
    the exploiter in one and the target in every other: game ``g`` deals
    ``seed + g // players`` with the exploiter in seat ``g % players`` (``games`` is
    rounded up to whole deals).  ``worlds`` ... ``sampler``: the exploiter's search
    (:class:`LocalBestResponse`).  ``workers``: processes; ``progress``: a progress bar.
    ``control_variates``: also take each game's luck of the cards out
    (:func:`agents.measure.play_corrected`) and report that as
    :attr:`~BestResponseResult.share`, the plain score beside it.
    """
    game_cls = cardenvs.game_class(env_name)
    lo, hi = game_cls.min_players, game_cls.max_players
    if isinstance(players, bool) or not isinstance(players, int) or not lo <= players <= hi:
        raise ValueError(f"players must be a whole number in {lo}..{hi} for {env_name}, got {players!r}")
    _check_count("games", games)
    _check_count("workers", workers)
    exploiter = LocalBestResponse(env_name, target, worlds=worlds, max_candidates=max_candidates, depth=depth,
                                  horizon=horizon, rollout_policy=rollout_policy, confidence=confidence,
                                  sampler=sampler, seed=seed)
    entrants: dict[str, Any] = {LABEL: exploiter}
    if isinstance(target, str):
        shown = target_label = target
    else:
        shown = str(getattr(target, "name", type(target).__name__))
        target_label = f"target:{shown}"
        entrants[target_label] = target
    if games % players:
        games += players - games % players
    matches = []
    for g in range(games):
        seats = [target_label] * players
        seats[g % players] = LABEL
        matches.append(Match(env_name, tuple(seats), seed + g // players, control_variates=control_variates))
    start = time.time()
    results = run_matches(matches, workers=workers, progress=progress, entrants=entrants,
                          desc=f"lbr vs {shown}")
    seconds = time.time() - start
    records = []
    for res in results:
        me = res.match.seats.index(LABEL)
        corr = None if res.corrections is None else res.corrections[me]
        # a game cut off by the rules' move cap (none in the shipped games) scores nothing
        records.append((res.match.seed, 0.0 if res.truncated else points(res.rewards)[me], corr))
    est = estimate(records)
    return BestResponseResult(
        target=shown, env=env_name, players=players, games=len(results), share=est.share,
        interval=est.interval, plain_share=est.plain_share, plain_interval=est.plain_interval,
        seconds=seconds,
        settings={**exploiter.settings(), "seed": seed, "control_variates": control_variates},
        deals=est.deals, method=est.method)
