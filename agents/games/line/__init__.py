"""Strategic knowledge of Line (docs/rules/line.md): heuristics, reasons, evaluation.

Everything here reads a :class:`~cardenvs.line.rules.LineView` (never a full state),
except :meth:`LineKnowledge.evaluate` and :meth:`LineKnowledge.rollout_action`, which
the expert's search calls on states it sampled from its own view.

Level 1 (greedy) scores a move by the hand points it sheds now, plus a bonus for
filling a row (an extra turn), preferring take over draw and discarding the highest card.

Level 2 (planner) looks one turn ahead on the grid the move leaves:

* card counting: a card is *unseen* when it is not on the grid, not in the discard pile
  and not in my hand; only unseen cards (and unseen jokers) can reach an opponent;
* threats: a row left one square short that an opponent can fill (probability from the
  unseen cards that complete it and their hand size) hands them a bonus turn;
* squeeze: the fewer unseen cards fit the grid, the likelier the next player is forced
  to draw;
* my own mobility: points stuck in my hand with no row to go to cost more than points
  that still fit somewhere; the joker always fits, so it is kept while the grid is open
  and shed when the end is near;
* the end: filling the last square ends the game, good only when my total is lowest;
* the draw is judged by its expected cost (a playable card goes down, a full hand
  swaps its worst card), the discard by value and future fit.

The search (expert, ``SearchAgent`` with ``paired=True``) plays the planner's best two
moves on the same sampled worlds with the same rollout randomness, so moves are compared
on equal luck, and drops a move as soon as it is clearly worse than the leader (the race:
from 8 to at most 32 worlds; ``docs/results/expert/cost.md``).  Its worlds come from
:meth:`LineKnowledge.sample_state`: ``Game.sample_state`` deals the opponents uniformly
from the unseen cards (about 7.9 points a card with the jokers) while the hands players
keep hold 3-5 points a card, so the unseen cards are re-dealt with weights measured in
planner games (low cards that fit no row stay in hands, high ones and jokers sit in the
pile).  Rollouts run to the end with a greedy policy that also avoids leaving a row one
card short (:func:`rollout_move`, played in one loop by :class:`LineRollouts`), and
:meth:`LineKnowledge.outcome` scores the result with its margin.  The search estimate
is blended with the planner's score (``prior_weight``) so that it overrules the
heuristic only by a clear margin.  :meth:`LineKnowledge.evaluate` (for rollouts cut
short) judges opponents by the calibrated value per card (:func:`opp_card_value`).

Strength (2 players, both seatings of each deal): greedy beats random about 86%, but
the planner beats greedy only 51.0% [50.3, 51.7] over 20,000 games, the expert greedy
51.2% [49.0, 53.4] over 2,000, and the expert the planner 51.3% [50.03, 52.56] over 6,000
(the expert before issue 30, at six times the cost: 53.8%).  Most
games end in a long phase of forced draws where both hands fill to 7 and keep their
lowest cards, so the draw order decides most games: a search that knows the opponent's
hand (not the draw order) still beats greedy only about 58%, one that knows the draw
order about 94%.  Re-weighting the planner's turn features (own mobility, opponent
mobility, threats, bonus turns, keeping the joker, weights fitted to game outcomes or
to the expert's choices) moved its score against greedy by no more than +-2 points.
"""

from __future__ import annotations

from ...players.knowledge import GameAgents, Reference
from .context import KEEP_JOKER, KEEP_WEIGHT, RANK_NAMES, SHORT, opp_card_value
from .reasons import LineReasons
from .rollouts import LineRollouts, rollout_move
from .scoring import LineScoring
from .search import LineSearch


class LineKnowledge(LineReasons, LineSearch):
    """Heuristics, reasons and evaluation for Line."""

    env_name = "line_v0"


__all__ = ["KEEP_JOKER", "KEEP_WEIGHT", "RANK_NAMES", "SHORT", "LineKnowledge", "LineReasons", "LineRollouts",
           "LineScoring", "LineSearch", "opp_card_value", "rollout_move"]

#: the game's entry in the agents package (named by its registry entry in cardenvs.registry)
SPEC = GameAgents(
    knowledge=LineKnowledge,
    cast=("Ada", "Bo", "Cyd"),
    # the race from 8 worlds with a tolerance of 0.005: with 0.05 (from 4 worlds) the
    # expert scored 44.9% [41.5, 48.4] against the old one over 800 games, as Line's
    # candidates are rarely 0.05 apart (docs/results/expert/cost.md)
    expert_budget={"simulations": 32, "depth": 100, "max_candidates": 2, "paired": True,
                   "prior_weight": 0.02, "min_worlds": 8, "confidence": 2.5, "tolerance": 0.005},
    ladder_scale={
        2: Reference("docs/results/line_v0_2p.md", 600, {
            "random": (16.7, 2.1), "greedy": (28.5, 1.65), "planner": (31.9, 1.65), "expert": (32.0, 1.65)}),
        3: Reference("docs/results/line_v0_3p.md", 96, {
            "random": (22.5, 3.1), "greedy": (24.4, 3.05), "planner": (24.7, 2.9), "expert": (25.4, 2.85)}),
        4: Reference("docs/results/line_v0_4p.md", 24, {
            "random": (22.7, 5.9), "greedy": (24.8, 5.9), "planner": (26.0, 5.9), "expert": (26.2, 6.0)}),
    },
)
