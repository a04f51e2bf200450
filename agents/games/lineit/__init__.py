"""Line-it strategic knowledge: greedy and planning heuristics, the coach's reasons and
the evaluation that cuts the expert's rollouts short (docs/rules/lineit.md).

Everything but the deck order is public in Line-it, so the set of cards still in the
deck is known (:meth:`LineItView.deck_cards`); the heuristics count it.

* **Greedy** (level 1) looks at this turn alone: extend the line with the card closest
  to its end in its direction (a small step keeps room), claim a jackpot when a card is
  the third of its colour, start lines near an edge (low cards ascend, high descend),
  keep a card that fits in hand, and score when the line is long and nearly blocked.
* **Planner** (level 2) values the position after each move: the points the line will
  bank (its first three number cards are discarded) plus the expected number of cards
  it will still get.  That expectation comes from a small dynamic programme over the
  fraction ``f`` of deck cards still beyond the line's end and the number of turns left
  (``_V``): each turn a fitting card shows with probability ``1 - (1 - f)^m`` and taking
  the smallest one keeps ``k/(k+1)`` of the room.  On top: Bets by the chance that
  enough cards follow them (Poisson tail), the chance of a third card of a colour whose
  jackpot is big, hand cards as a buffer (and the risk of a forced ``new`` with a full
  hand), and the jackpot the next player could claim from what the move leaves in the
  market (blocking).
* **evaluate** compares the seats' expected final scores (score + the line's expected
  banked cards and bet) and squashes the lead with ``tanh``.

The expert's search plays the planner's best six moves on the same sampled deck orders
(paired), greedy rollouts of 16 moves (:class:`LineItRollouts`: one loop on the state)
cut short by ``evaluate``, and drops a move as soon as it is clearly no better than the
leader (the race, at most 32 worlds; see ``docs/results/expert/cost.md``).
"""

from __future__ import annotations

from ...players.knowledge import GameAgents, Reference
from .reasons import LineItReasons
from .rollouts import LineItRollouts
from .scoring import LineItScoring, _greedy_values
from .search import LineItSearch


class LineItKnowledge(LineItScoring, LineItReasons, LineItSearch):
    """Line-it heuristics (greedy, planner), reasons and rollout evaluation."""

    env_name = "lineit_v0"


__all__ = ["LineItKnowledge", "LineItReasons", "LineItRollouts", "LineItScoring", "LineItSearch",
           "_greedy_values"]

#: the game's entry in the agents package (named by its registry entry in cardenvs.registry)
SPEC = GameAgents(
    knowledge=LineItKnowledge,
    cast=("Juno", "Kit", "Lou", "Max"),
    expert_budget={"simulations": 32, "depth": 16, "max_candidates": 6, "paired": True, "min_worlds": 4,
                   "confidence": 2.0, "tolerance": 0.05},
    ladder_scale={
        2: Reference("docs/results/lineit_v0_2p.md", 600, {
            "random": (-2.5, 3.75), "greedy": (34.4, 2.1), "planner": (40.4, 1.9), "expert": (51.0, 2.1)}),
        3: Reference("docs/results/lineit_v0_3p.md", 96, {
            "random": (22.3, 3.55), "greedy": (22.9, 3.35), "planner": (26.5, 3.25), "expert": (36.0, 3.5)}),
        4: Reference("docs/results/lineit_v0_4p.md", 24, {
            "random": (17.3, 6.05), "greedy": (19.0, 6.05), "planner": (23.2, 5.9), "expert": (40.7, 6.15)}),
    },
)
