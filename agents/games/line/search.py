"""The expert's search hooks in Line (:class:`LineSearch`): the evaluation of a sampled
state, a finished rollout's outcome, the worlds dealt as players keep their cards, and
the rollouts."""

from __future__ import annotations

import math

import numpy as np

from cardenvs.core.cards import CARD_VALUES, JOKER
from cardenvs.core.game import Game
from cardenvs.line.rules import (
    OVER,
    LineState,
    LineView,
)

from ...players.knowledge import Memory, Rollouts, Ties
from .context import KEEP_JOKER, KEEP_WEIGHT, _Ctx, _fit_mask, _line, opp_card_value
from .rollouts import LineRollouts, rollout_move
from .scoring import LineScoring


class LineSearch(LineScoring):
    """What the expert's search asks of Line's knowledge."""

    # ------------------------------------------------------------ evaluation
    def evaluate(self, game: Game[LineState, LineView], state: LineState, player: int) -> float:
        # Opponents' hands are judged as ``player`` sees them (known jokers at full value,
        # the rest at the value per card players keep), not by the sampled cards: a
        # sampled hand is dealt uniformly from the unseen cards, much higher than what
        # players really keep, and its luck would only add noise to the search.
        rules = _line(game)
        jp, vals = rules.joker_points, rules.card_values
        hands = state.hands
        # my own cards: high ones weigh more, they are the ones still to get rid of
        cx = self.EVAL_CONVEX
        mine = sum(vals[c] + cx * max(0, vals[c] - 4) for c in hands[player])
        known = state.known
        per_card = opp_card_value(len(state.discard))
        best = min(known[q] * jp + (len(h) - known[q]) * per_card for q, h in enumerate(hands) if q != player)
        return float(math.tanh((best - mine) / self.EVAL_SCALE))

    def outcome(self, game: Game[LineState, LineView], state: LineState, player: int) -> float:
        """The result with its margin: ``0.6 * reward + 0.4 * tanh(margin / OUTCOME_SCALE)``.

        ``margin`` is the lowest opponent total minus mine, so a win is worth at least
        0.6, a loss at most -0.6, and a narrow result less than a clear one.
        """
        rules = _line(game)
        ret = float(rules.returns(state)[player])
        mine = rules.hand_total(state, player)
        best = min(rules.hand_total(state, q) for q in range(rules.num_players) if q != player)
        return 0.6 * ret + 0.4 * math.tanh((best - mine) / self.OUTCOME_SCALE)

    def sample_state(self, game: Game[LineState, LineView], view: LineView, rng: np.random.Generator,
                     memory: Memory[LineView] | None = None) -> LineState:
        """A state consistent with ``view`` whose opponents hold the cards players keep.

        ``LineGame.sample_state`` deals the opponents' unknown cards uniformly from the
        unseen ones.  Players shed what fits and swap their high cards away, so their
        hands hold low cards that fit no row: on my turn the unseen cards are re-dealt,
        each drawn into an opponent's hand with weight :data:`KEEP_WEIGHT` (by value
        and whether it fits the grid now; weighted sampling without replacement), the
        rest shuffled into the draw pile.  Known jokers stay where they are.
        """
        s = game.sample_state(view, rng)
        me = int(view.seat)
        if int(view.current) != me or s.phase == OVER:
            return s  # not my decision: keep the rules core's constrained deal
        n = int(view.num_players)
        known = list(view.known_jokers)
        pool: list[int] = list(s.draw)
        sizes = [0] * n
        for q in range(n):
            if q != me:
                sizes[q] = int(view.hand_sizes[q]) - known[q]
                h = list(s.hands[q])
                for _ in range(known[q]):
                    h.remove(JOKER)
                pool += h
        need = sum(sizes)
        if not pool or need == 0:
            return s
        fit, jfit = _fit_mask(_Ctx(view).rows)
        pool.sort()  # the order the rules core dealt in must not matter
        w = np.array([KEEP_JOKER if c == JOKER else KEEP_WEIGHT[fit >> c & 1][CARD_VALUES[c]] for c in pool])
        keys = np.log(rng.random(len(pool)) + 1e-300) / w  # Efraimidis-Spirakis
        order = np.argsort(-keys, kind="stable")
        dealt = [pool[i] for i in order[:need]]
        rest = [pool[i] for i in order[need:]]
        hands = [list(h) for h in s.hands]
        pos = 0
        for q in range(n):
            if q != me:
                hands[q] = [JOKER] * known[q] + dealt[pos: pos + sizes[q]]
                pos += sizes[q]
        _line(game).redeal(s, hands, [rest[i] for i in rng.permutation(len(rest))])
        return s

    def rollout_action(self, game: Game[LineState, LineView],
                       state: LineState, rng: np.random.Generator) -> int:
        """The rollout policy's move (:func:`rollout_move`: greedy, avoiding rows left one short)."""
        return rollout_move(state, game.legal_actions(state), _line(game).card_values, Ties(rng),
                            self.ROLLOUT_THREAT)

    def rollouts(self, game: Game[LineState, LineView], root: LineView) -> Rollouts[LineState, LineView]:
        """The expert's rollouts: :func:`rollout_move` in one loop (:class:`LineRollouts`)."""
        if type(self).rollout_action is not LineSearch.rollout_action:
            return Rollouts(self, game, root)  # a subclass's own rollout policy: the generic loop
        return LineRollouts(self, game, root)
