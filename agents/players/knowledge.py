"""A game's knowledge face: what every agent level, the coach and training know of a game.

A game plugs into the agents with a :class:`Knowledge` subclass, named with its cast and
search budget in the :class:`GameAgents` ``SPEC`` of its agents module (the module its kit
names in :mod:`cardenvs.registry`):

* **scoring** (:meth:`Knowledge.scores`): a score per legal move at the greedy (1) or the
  planning (2) depth, and the coach's reason in words (:meth:`Knowledge.reason`).  Both
  are pure functions of the View: no call writes anything.
* **memory** (:meth:`Knowledge.new_memory`): what a seat remembers of its own successive
  Views is an explicit :class:`Memory` object held by the seat's owner (an agent, a
  table's worker) and fed with :meth:`Memory.update` at each of the seat's decisions.
  Scoring never writes it; search reads it to deal its worlds
  (:meth:`Knowledge.sample_state`).  After a restart it is rebuilt the same way, from the
  seat's own Views (:meth:`agents.players.base.Agent.observe`).
* **search** (:meth:`Knowledge.rollouts`): how the expert's sampled worlds are played out
  and valued, bound to the decision being searched.

Games are found by name through their kit: :func:`spec`, :func:`knowledge`, :func:`cast`.
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Generic, TypedDict

import numpy as np

import cardenvs
from cardenvs.core.game import Game

from ..types import S, V

if TYPE_CHECKING:
    from .search import SearchSettings

#: the difficulty ladder every game has, weakest first (see :mod:`agents.players.ladder`)
LEVELS: tuple[str, ...] = ("random", "greedy", "planner", "expert")


class Memory(Generic[V]):
    """What one seat remembers of its own successive Views; this one remembers nothing.

    A game whose agents remember subclasses it (see :meth:`Knowledge.new_memory`).  The
    owner calls :meth:`update` with the seat's View at each of the seat's decisions, in
    order; an update with the same View twice changes nothing.  The same Views in the same
    order always give the same memory, so a memory lost (a restart, another level) is
    rebuilt by feeding them again.
    """

    def update(self, view: V) -> None:
        """Take in the seat's View at one of its decisions."""


class Rollouts(Generic[S, V]):
    """How one search plays its sampled worlds on and values them.

    Made by :meth:`Knowledge.rollouts` for each searched decision (``root`` is the
    searching seat's View there); by default it asks the knowledge's
    :meth:`~Knowledge.rollout_action`, :meth:`~Knowledge.outcome` and
    :meth:`~Knowledge.evaluate`.  A game may bind more of the root to its rollouts (Rummy
    judges a rollout that gets past the searched round by that round alone).
    """

    def __init__(self, knowledge: Knowledge[S, V], game: Game[S, V], root: V) -> None:
        self.knowledge = knowledge
        self.game = game
        self.root = root

    def action(self, state: S, rng: np.random.Generator) -> int:
        """The move of the player to move in a rollout."""
        return self.knowledge.rollout_action(self.game, state, rng)

    def outcome(self, state: S, player: int) -> float:
        """Value in [-1, 1] of a finished world for ``player``."""
        return self.knowledge.outcome(self.game, state, player)

    def evaluate(self, state: S, player: int) -> float:
        """Value in [-1, 1] of a world whose rollout was cut short, for ``player``."""
        return self.knowledge.evaluate(self.game, state, player)

    def play_out(self, state: S, rng: np.random.Generator, depth: int, player: int) -> float:
        """Play ``state`` on for up to ``depth`` moves of :meth:`action` and value the end
        for ``player`` (:meth:`outcome` if the game ended, else :meth:`evaluate`).

        The search's inner loop: a game may override it with a tighter loop that plays
        the same moves.
        """
        game = self.game
        for _ in range(depth):
            if game.is_terminal(state) or game.is_truncated(state):
                break
            game.apply(state, self.action(state, rng), rng)
        if game.is_terminal(state):
            return self.outcome(state, player)
        return self.evaluate(state, player)


class Knowledge(ABC, Generic[S, V]):
    """A game's strategic knowledge, shared by its heuristic levels, search and the coach.

    Subclasses say how to score and explain moves and how to value a sampled state; the
    rest has defaults.  An instance holds its settings (weights, an inference strategy)
    and nothing that changes as games are played.
    """

    env_name: str
    #: whether seats of this game keep a :class:`Memory` worth rebuilding (see :meth:`new_memory`)
    remembers: bool = False

    @abstractmethod
    def scores(self, game: Game[S, V], view: V, legal: list[int], level: int) -> np.ndarray:
        """A score per legal action (higher is better) at heuristic depth ``level``.

        ``level`` 1 is the greedy heuristic, 2 the planning one (card counting, dead
        ranks, blocking...).  Only ``view`` may be used, never a full state; nothing is
        written.
        """

    @abstractmethod
    def reason(self, game: Game[S, V], view: V, action: int) -> str:
        """A short reason a player understands for playing ``action`` in ``view``.

        It names a card only where that card is in the position as the reason says (in
        the player's hand, on the table), speaks of a rank as a rank in words ("a pair of
        fives": a table prints ``5s`` as the five of spades), and names another seat as
        :func:`seat_words` does (see :meth:`named_reason`).
        """

    def named_reason(self, game: Game[S, V], view: V, action: int,
                     names: Sequence[str] | None = None) -> str:
        """:meth:`reason`, naming the seats by ``names`` (the players' names, by seat) when
        given, else by the seat number people see (:func:`seat_words`).  By default the
        plain :meth:`reason`: a game whose reasons name seats overrides this one."""
        return self.reason(game, view, action)

    @abstractmethod
    def evaluate(self, game: Game[S, V], state: S, player: int) -> float:
        """Value in [-1, 1] of a (sampled) full state for ``player``, to end rollouts early."""

    def new_memory(self, game: Game[S, V], seat: int) -> Memory[V]:
        """A fresh memory for ``seat`` at the table ``game``; by default one that remembers nothing."""
        return Memory()

    def outcome(self, game: Game[S, V], state: S, player: int) -> float:
        """Value of a finished (sampled) game for ``player``; by default its reward.

        A game may return a finer margin (still in [-1, 1]) so that search can tell
        a narrow loss from a heavy one.
        """
        return float(game.returns(state)[player])

    def action_facts(self, game: Game[S, V], view: V, legal: list[int]) -> np.ndarray:
        """``[len(legal), k]`` facts about each legal action for learned scorers
        (:mod:`agents.players.scorer`).

        Computed from ``view`` alone; by default none (``k == 0``).  A game adds what its
        flat observation hides (does the card fit my line, how much room it leaves...).
        """
        return np.zeros((len(legal), 0), np.float32)

    def sample_state(self, game: Game[S, V], view: V, rng: np.random.Generator,
                     memory: Memory[V] | None = None) -> S:
        """A full state consistent with ``view`` for search; by default ``game.sample_state``.

        A game may re-weight the hidden cards towards what players really hold, reading
        what the seat remembers (``memory``, never written here); the state stays
        consistent with the view and is a function of ``view``, ``memory`` and ``rng`` only.
        """
        return game.sample_state(view, rng)

    def search_here(self, game: Game[S, V], view: V, legal: list[int], prior: np.ndarray) -> bool:
        """Whether the search agent searches this decision; by default always.

        A game may answer ``False`` for decisions the planning heuristic settles well
        (the agent then plays by the heuristic scores there).
        """
        return True

    def rollouts(self, game: Game[S, V], root: V) -> Rollouts[S, V]:
        """How a search from the View ``root`` plays out and values its worlds."""
        return Rollouts(self, game, root)

    def rollout_action(self, game: Game[S, V], state: S, rng: np.random.Generator) -> int:
        """The move of the player to move inside a search rollout (greedy on their view)."""
        p = game.current_player(state)
        legal = game.legal_actions(state)
        if len(legal) == 1:
            return legal[0]
        sc = self.scores(game, game.view(state, p), legal, 1)
        return legal[argmax_random(sc, rng)]


class SeatMemories(Generic[S, V]):
    """The memories an agent keeps: one per seat and table it has played.

    :meth:`update` gives the memory of the View's seat (a fresh one for a new seat or a
    new table), updated with that View.
    """

    def __init__(self, knowledge: Knowledge[S, V]) -> None:
        self.knowledge = knowledge
        self._by_seat: dict[int, tuple[Game[S, V], Memory[V]]] = {}

    def update(self, game: Game[S, V], view: V) -> Memory[V]:
        """The memory of ``view``'s seat at ``game``, after taking in ``view``."""
        seat = int(view.seat)
        held = self._by_seat.get(seat)
        if held is None or held[0] is not game:
            held = self._by_seat[seat] = (game, self.knowledge.new_memory(game, seat))
        memory = held[1]
        memory.update(view)
        return memory

    def of(self, seat: int) -> Memory[V] | None:
        """The memory of ``seat`` (``None`` before its first View)."""
        held = self._by_seat.get(seat)
        return None if held is None else held[1]


def argmax_random(scores: np.ndarray | Sequence[float], rng: np.random.Generator) -> int:
    """Index of the best score (within 1e-9), ties broken by ``rng``.

    Plain Python over a short list: search rollouts call this at every move, where
    numpy's per-call overhead was most of the cost.  ``rng`` is drawn from only on a tie.
    """
    vals = scores.tolist() if isinstance(scores, np.ndarray) else scores
    top = max(vals) - 1e-9
    best = [i for i, v in enumerate(vals) if v >= top]
    return best[0] if len(best) == 1 else best[int(rng.integers(len(best)))]


class Ties:
    """Uniform choices among tied moves inside search rollouts, cheaply.

    A 64-bit linear congruential generator seeded once from ``rng``: a draw costs a few
    integer operations where a numpy generator call costs microseconds, which a rollout
    breaking a tie at most of its moves felt.  Seeded from the same ``rng`` state, two
    rollouts break their ties alike (the search's common random numbers).
    """

    __slots__ = ("x",)

    def __init__(self, rng: np.random.Generator) -> None:
        self.x = int(rng.integers(2**63))

    def index(self, k: int) -> int:
        """A uniform index in ``0 .. k-1``."""
        self.x = x = (self.x * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
        return ((x >> 32) * k) >> 32

    def argmax(self, scores: Sequence[float]) -> int:
        """Index of the best score (within 1e-9), ties broken uniformly."""
        top = max(scores) - 1e-9
        best = [i for i, v in enumerate(scores) if v >= top]
        return best[0] if len(best) == 1 else best[self.index(len(best))]


@dataclass(frozen=True)
class Reference:
    """The published openskill ratings of a game's levels at one seat count: the ladder's
    scale, on which :func:`agents.evaluate` rates a policy."""

    #: the table they come from (in the repository)
    source: str
    #: games of the tournament that measured them
    games: int
    #: level -> (mu, sigma)
    ratings: dict[str, tuple[float, float]]


class TrainDefaults(TypedDict):
    """A game's starting hyperparameters of ``experiments/train.py``."""

    net_arch: list[int]
    lr: float
    n_steps: int
    ent_coef: float


@dataclass(frozen=True)
class GameAgents:
    """What the agents package holds for one game: the ``SPEC`` of its agents module.

    The game's kit (:mod:`cardenvs.registry`) names the module; the ladder, the coach, the
    named opponents and training read everything per game from here.
    """

    #: the game's strategic knowledge (heuristic scores, reasons, evaluation)
    knowledge: type[Knowledge]
    #: the game's cast of named computer players
    cast: tuple[str, ...]
    #: keyword arguments of the expert's :class:`~agents.players.search.SearchAgent` (its search budget)
    expert_budget: SearchSettings
    #: the level the expert plays like where its search is not measured stronger than that
    #: level (the 95% interval of its share against it includes 50%): the ordered ladder
    #: (:func:`agents.levels`) then leaves ``expert`` out, as it does an unranked trained
    #: policy, and :func:`agents.playable_levels` lists it beside that level; ``None``: the
    #: expert is measured above the planner
    expert_peer: str | None = None
    #: starting hyperparameters of ``experiments/train.py`` for the game
    train_defaults: TrainDefaults = field(default_factory=lambda: TrainDefaults(
        net_arch=[256, 256], lr=3e-4, n_steps=1024, ent_coef=0.01))
    #: seats -> the ladder's published ratings there, from the tournament tables in
    #: ``docs/results/<env>_<players>p.md`` (a test holds them equal; rerun the tournament
    #: with ``python -m experiments.tournament`` and copy its table's ratings here to move
    #: the scale); a seat count without one gives :func:`agents.evaluate` no rating
    ladder_scale: dict[int, Reference] = field(default_factory=dict)


def spec(env_name: str) -> GameAgents:
    """The agents' side of a game (knowledge, cast, expert budget, training defaults).

    Found through the game's kit (``ValueError`` naming the environments if the name is
    unknown).
    """
    module = importlib.import_module(cardenvs.entry(env_name).agents)
    found: GameAgents = module.SPEC
    return found


def seat_words(seat: int, names: Sequence[str] | None = None) -> str:
    """A seat as a reason names it: its player's name from ``names`` (by seat) when given,
    else ``player <seat + 1>``, the seat number people see (a table counts seats from 1)."""
    if names is not None and 0 <= seat < len(names):
        return str(names[seat])
    return f"player {seat + 1}"


def knowledge(env_name: str) -> Knowledge:
    """The game's strategic knowledge (heuristic scores, reasons, evaluation)."""
    return spec(env_name).knowledge()


def cast(env_name: str) -> tuple[str, ...]:
    """The game's named computer players."""
    return spec(env_name).cast
