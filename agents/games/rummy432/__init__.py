"""Strategic knowledge of Rummy 4x3x2's (docs/rules/rummy432.md): the ladder's heuristics,
the coach's reasons, the expert's inference, rollouts and evaluation.

Suits never matter in this game, only ranks (and each rank's card value), so the
heuristics work on a hand's 13 rank counts.  One module per job:

* :mod:`.scoring`, **greedy** (level 1): take the face-up card when it makes or grows a
  group, otherwise draw; throw the card whose rank has the least group potential (a loose
  card of a rank far from a group, the higher value first); finish as soon as it is allowed.
* :mod:`.scoring`, **planner** (level 2, on the :class:`~.context.Context` of a View): card
  counting.  For every rank it counts the *live* cards (neither in its hand, nor buried in
  the discard pile, nor seen taken by an opponent; buried cards partly come back when a
  reshuffle is near) and turns them into the chance of completing that rank's group in the
  turns left.  A hand's potential is a sum over ranks of grouped cards, shape bonuses
  (bigger groups win, rule 2), card values (rule 3, and loose high cards hurt when nobody
  completes, rule 5) and the loose cards weighted by the chance they never group; so dead
  ranks go first.  It takes the face-up card when it makes or grows a group; it never
  throws a rank the next player visibly collects when another throw is nearly as good,
  prefers throwing a card it took earlier (hides its plans), finishes with the best shape
  and value, and on a last turn (after a finish, or when the last run-out ends the round)
  maximises the final hand exactly.
* :mod:`.reasons`: the coach's reasons in words.
* :mod:`.memory` and :mod:`.inference` (two players): each seat remembers what it saw its
  opponent do this round, from its own successive Views; the search's worlds deal the
  opponent's hidden cards by that memory (the inference strategy is a constructor
  argument; see :mod:`.inference` for the shipped one and what it was measured against).
* :mod:`.rollouts`: every seat of a search world plays the planner on its own view.
* :mod:`.evaluation`: the chance-based value of a sampled state that cuts rollouts short.

The expert searches its throws only: the planner's best two, paired over at most 40
worlds, the race ending once one is clearly no better (``docs/results/expert/cost.md``).
It is not measured stronger than the planner, so the ladder lists it as unranked beside
the planner (``SPEC.expert_peer``; ``docs/results/ladder/README.md``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from cardenvs.core.game import Game
from cardenvs.rummy432.rules import Rummy432Game
from cardenvs.rummy432.state import FINISH0, Rummy432View, State

from ...players.knowledge import GameAgents, Knowledge, Memory, Reference
from .context import Context
from .evaluation import evaluate
from .inference import HandSetInference, Inference
from .memory import OpponentMemory
from .reasons import reason
from .rollouts import RummyRollouts
from .scoring import greedy_scores, planner_scores


class Rummy432Knowledge(Knowledge[State, Rummy432View]):
    """Heuristics, reasons, inference, rollouts and evaluation of Rummy 4x3x2's.

    ``inference`` deals the cards a seat cannot see in the expert's worlds (default: the
    shipped :class:`~.inference.HandSetInference`).
    """

    env_name = "rummy432_v0"
    remembers = True

    def __init__(self, inference: Inference | None = None) -> None:
        self.inference = HandSetInference() if inference is None else inference

    def scores(self, game: Game[State, Rummy432View],
               view: Rummy432View, legal: list[int], level: int) -> np.ndarray:
        """Greedy scores at level 1, the planner's at level 2 (pure: nothing is remembered)."""
        if level <= 1:
            return greedy_scores(view, legal)
        return planner_scores(Context(view), legal)

    def reason(self, game: Game[State, Rummy432View], view: Rummy432View, action: int) -> str:
        """Why ``action`` is played in ``view``, in words a player understands (the coach)."""
        return reason(view, action)

    def named_reason(self, game: Game[State, Rummy432View], view: Rummy432View, action: int,
                     names: Sequence[str] | None = None) -> str:
        """:meth:`reason`, naming the next seat by ``names`` when given."""
        return reason(view, action, names)

    def new_memory(self, game: Game[State, Rummy432View], seat: int) -> Memory[Rummy432View]:
        """What ``seat`` remembers of its opponent's play (two players; see :mod:`.memory`)."""
        return self.inference.new_memory(_rules(game), seat)

    def sample_state(self, game: Game[State, Rummy432View], view: Rummy432View, rng: np.random.Generator,
                     memory: Memory[Rummy432View] | None = None) -> State:
        """A state consistent with ``view``, dealt by the inference strategy from ``memory``."""
        return self.inference.sample_state(_rules(game), view, rng, memory)

    def search_here(
        self, game: Game[State, Rummy432View], view: Rummy432View, legal: list[int], prior: np.ndarray
    ) -> bool:
        """The expert searches which card to throw; the pick (take or draw), a turn where
        it can finish (it finishes, as the planner does) and the exact last turn of a
        round are left to the planner (measured: searching the pick did not beat the
        planner's rule, and searching whether to finish lost races, most of all against
        greedy)."""
        if any(a >= FINISH0 for a in legal):
            return False
        return view.phase == "throw" and view.finished_by < 0 and not (
            view.taken < 0
            and view.pile_size == 0
            and view.run_out_limit is not None
            and view.run_outs + 1 >= view.run_out_limit
        )

    def rollouts(self, game: Game[State, Rummy432View], root: Rummy432View) -> RummyRollouts:
        """Planner rollouts bound to the searched decision (see :class:`~.rollouts.RummyRollouts`)."""
        return RummyRollouts(self, _rules(game), root)

    def rollout_action(self, game: Game[State, Rummy432View], state: State, rng: np.random.Generator) -> int:
        """The planner's move on the mover's own view of ``state`` (outside any search)."""
        legal = game.legal_actions(state)
        if len(legal) == 1:
            return legal[0]
        return legal[int(np.argmax(planner_scores(Context(game.view(state, state.current)), legal)))]

    def evaluate(self, game: Game[State, Rummy432View], state: State, player: int) -> float:
        """Chance-based value in [-1, 1] of a sampled state for ``player`` (see :mod:`.evaluation`)."""
        return evaluate(_rules(game), state, player)


def _rules(game: Game[State, Rummy432View]) -> Rummy432Game:
    """The Rummy rules object (the agents pass the game of the table they play)."""
    if not isinstance(game, Rummy432Game):
        raise TypeError(f"Rummy432Knowledge needs a Rummy432Game, got {type(game).__name__}")
    return game

__all__ = ["HandSetInference", "Inference", "OpponentMemory", "Rummy432Knowledge"]

#: the game's entry in the agents package (named by its kit in cardenvs.registry)
SPEC = GameAgents(
    knowledge=Rummy432Knowledge,
    cast=("Rosie", "Dev", "Mags", "Theo"),
    expert_budget={"simulations": 40, "depth": 30, "max_candidates": 2, "paired": True, "min_worlds": 6,
                   "confidence": 1.5, "tolerance": 0.05},
    ladder_scale={
        2: Reference("docs/results/rummy432_v0_2p.md", 600, {
            "random": (-7.7, 4.25), "greedy": (38.5, 1.85), "planner": (42.2, 1.75), "expert": (44.7, 1.75)}),
        3: Reference("docs/results/rummy432_v0_3p.md", 96, {
            "random": (20.5, 3.25), "greedy": (24.4, 3.1), "planner": (30.0, 3.05), "expert": (26.6, 2.95)}),
        4: Reference("docs/results/rummy432_v0_4p.md", 24, {
            "random": (17.8, 6.05), "greedy": (25.3, 5.9), "planner": (32.7, 6.0), "expert": (24.1, 6.05)}),
    },
    # measured: the expert is not separated from the planner (docs/results/ladder/README.md)
    expert_peer="planner",
)
