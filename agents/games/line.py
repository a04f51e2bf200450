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

import math
from collections.abc import Sequence
from typing import Any, cast

import numpy as np

from cardenvs.core.cards import CARD_VALUES, JOKER, SUIT_NAMES, card_str
from cardenvs.core.game import Game
from cardenvs.core.table import plural
from cardenvs.line.rules import (
    ACTION_INFO,
    ADDABLE,
    GRID_SIZE,
    HAND_LIMIT,
    JOKER_BIT,
    K_DISCARD,
    K_DRAW,
    K_PLAY,
    K_SHIFT,
    K_TAKE,
    K_UPGRADE,
    OVER,
    PHASES,
    PLACE_DRAWN,
    REAL_MASK,
    ROW_FIT,
    ROW_LEN,
    ROW_PLAY,
    TURN,
    LineGame,
    LineState,
    card_values,
)

from ..knowledge import GameAgents, Knowledge, Memory, Reference, Rollouts, Ties

RANK_NAMES = ("aces", "twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines",
              "tens", "jacks", "queens", "kings")
#: the View's names of the phases the heuristics tell apart
TURN_PHASE, PLACING_PHASE = PHASES[TURN], PHASES[PLACE_DRAWN]
#: cards in a row one square short of full (the next card fills it)
SHORT = ROW_LEN - 1

_POP = int.bit_count


def _line(game: Game[Any, Any]) -> LineGame:
    """The Line rules object behind ``game`` (this knowledge only serves Line)."""
    return cast(LineGame, game)


def _grid_bits(rows: list[tuple[int, bool, int]], table: dict[int, int]) -> tuple[int, bool]:
    """(real cards, whether a joker) in the union of ``table`` over the rows of a grid."""
    bits = 0
    for m, j, _n in rows:
        bits |= table[m | JOKER_BIT if j else m]
    return bits & REAL_MASK, bool(bits & JOKER_BIT)


def _fit_mask(rows: list[tuple[int, bool, int]]) -> tuple[int, bool]:
    """(real cards that have a move somewhere, whether a joker has one) on a grid.

    A move: a play into an open row, an upgrade of a full row's joker, a shift into a
    full run (the rules' :data:`~cardenvs.line.tables.ROW_FIT`).
    """
    return _grid_bits(rows, ROW_FIT)


def _place_mask(rows: list[tuple[int, bool, int]]) -> tuple[int, bool]:
    """(real cards that can be placed by Play, whether a joker can) on a grid."""
    return _grid_bits(rows, ROW_PLAY)


#: relative chance that an unseen card of a value (index) is in an opponent's hand rather
#: than the draw pile, [fits no row now, fits a row now]; measured in planner games
KEEP_WEIGHT: tuple[tuple[float, ...], tuple[float, ...]] = (
    (0.0, 0.60, 0.53, 0.53, 0.52, 0.38, 0.32, 0.26, 0.175, 0.145, 0.082),
    (0.0, 0.16, 0.14, 0.14, 0.15, 0.12, 0.12, 0.10, 0.08, 0.08, 0.039),
)
KEEP_JOKER = 0.01


class _Ctx:
    """What the heuristics need of a view, computed once per decision."""

    __slots__ = ("view", "me", "n", "jp", "vals", "rows", "hand", "unseen", "unseen_j", "pool",
                 "my_total", "opp_est", "next_hand", "next_known_j", "fill_count")

    def __init__(self, view: Any) -> None:
        self.view = view
        self.me = me = int(view.seat)
        self.n = n = int(view.num_players)
        self.jp = jp = int(view.joker_points)
        self.vals = vals = card_values(jp)
        rows = []
        seen = 0
        seen_j = 0
        for row in view.rows:
            m = 0
            j = False
            for c in row:
                if c == JOKER:
                    j = True
                    seen_j += 1
                else:
                    m |= 1 << c
            seen |= m
            rows.append((m, j, len(row)))
        self.rows = rows
        self.hand = list(view.hand)
        for c in self.hand:
            if c == JOKER:
                seen_j += 1
            else:
                seen |= 1 << c
        for c in view.discard:
            if c == JOKER:
                seen_j += 1
            else:
                seen |= 1 << c
        if view.pending is not None:
            if view.pending == JOKER:
                seen_j += 1
            else:
                seen |= 1 << view.pending
        known = list(view.known_jokers)
        opp_known = sum(known[q] for q in range(n) if q != me)
        self.unseen = REAL_MASK & ~seen
        self.unseen_j = max(0, 4 - seen_j - opp_known)
        self.pool = _POP(self.unseen) + self.unseen_j  # cards whose place I do not know
        self.fill_count = sum(r[2] for r in rows)
        self.my_total = sum(vals[c] for c in self.hand)
        # an opponent's hand: known jokers, the rest at the value per card that
        # players keep (they shed high cards first and swap high ones away when full)
        per_card = opp_card_value(len(view.discard))
        self.opp_est = [
            known[q] * jp + (view.hand_sizes[q] - known[q]) * per_card if q != me else 0.0 for q in range(n)
        ]
        nxt = (me + 1) % n
        self.next_hand = view.hand_sizes[nxt] - known[nxt]
        self.next_known_j = known[nxt]


def opp_card_value(discards: int) -> float:
    """Mean value of an opponent's unknown card, by how far the game has gone.

    Unseen cards average about 6.5 (7.9 with jokers), but the cards an opponent keeps
    are the ones they could not shed, and a full hand swaps its highest card away on
    every draw: measured in greedy games, about 5 per card at the start falling to 3
    once the discard pile holds two dozen cards.
    """
    return max(2.8, 5.0 - 0.09 * discards)


def _p_any(good: int, pool: int, draws: int) -> float:
    """Probability that ``draws`` cards dealt from ``pool`` include one of ``good``."""
    if good <= 0 or draws <= 0 or pool <= 0:
        return 0.0
    if good >= pool:
        return 1.0
    p_none = 1.0
    for i in range(min(draws, pool - good)):
        p_none *= (pool - good - i) / (pool - i)
    return 1.0 - p_none if draws <= pool - good else 1.0


class _Move:
    """The effect of one action on my hand and on the grid."""

    __slots__ = ("kind", "card", "row", "extra", "shed", "gain", "rows", "fills", "ends", "removed")

    def __init__(self, kind: int, card: int, row: int, extra: int) -> None:
        self.kind, self.card, self.row, self.extra = kind, card, row, extra  # as ACTION_INFO
        self.shed = 0  # points leaving my hand
        self.gain = 0  # points entering my hand
        self.fills = False  # a placement filled a row (a bonus turn if not already on one)
        self.ends = False  # the grid is full: the game ends
        self.removed: list[int] = []  # cards leaving my hand
        self.rows: list[tuple[int, bool, int]] = []


def _effect(ctx: _Ctx, action: int) -> _Move:
    """What ``action`` would do to my hand and to the grid of ``ctx``."""
    kind, c, r, x = ACTION_INFO[action]
    mv = _Move(kind, c, r, x)
    rows = list(ctx.rows)
    vals = ctx.vals
    view = ctx.view
    if kind == K_PLAY:
        m, j, n = rows[r]
        if c == JOKER:
            rows[r] = (m, True, n + 1)
        else:
            rows[r] = (m | (1 << c), j, n + 1)
        mv.fills = n + 1 == ROW_LEN
        if view.phase != PLACING_PHASE:
            mv.shed = vals[c]
            mv.removed = [c]
    elif kind == K_UPGRADE:
        m, j, n = rows[r]
        rows[r] = (m | (1 << c), False, n)
        mv.shed = vals[c]
        mv.removed = [c]
        if x < 0:
            mv.gain = ctx.jp
        else:
            m2, j2, n2 = rows[x]
            rows[x] = (m2, True, n2 + 1)
            mv.fills = n2 + 1 == ROW_LEN
    elif kind == K_SHIFT:
        m, j, n = rows[r]
        if x == JOKER:
            j = False
        else:
            m &= ~(1 << x)
        if c == JOKER:
            j = True
        else:
            m |= 1 << c
        rows[r] = (m, j, n)
        mv.shed = vals[c]
        mv.removed = [c]
    elif kind == K_TAKE:
        top = view.discard[-1]
        m, j, n = rows[r]
        if top == JOKER:
            rows[r] = (m, True, n + 1)
        else:
            rows[r] = (m | (1 << top), j, n + 1)
        mv.fills = n + 1 == ROW_LEN
        mv.card = top
    elif kind == K_DISCARD:
        mv.shed = vals[c]
        mv.removed = [c]
    mv.rows = rows
    mv.ends = sum(q[2] for q in rows) == GRID_SIZE
    return mv


def _remaining(hand: list[int], removed: list[int]) -> list[int]:
    """``hand`` without the ``removed`` cards."""
    if not removed:
        return hand
    out = list(hand)
    for c in removed:
        out.remove(c)
    return out


class LineKnowledge(Knowledge):
    """Heuristics, reasons and evaluation for Line."""

    env_name = "line_v0"

    # planner weights (tuned by tournaments against the greedy level)
    W_BONUS = 9.0  # value of a bonus turn, on top of the best card it lets me shed
    W_THREAT = 0.5  # share of an opponent's bonus turn charged for a row left one short
    W_SQUEEZE = 5.0  # value of the next player being forced to draw
    W_STUCK = 1.0  # extra cost of a hand point with no move anywhere
    W_JOKER_KEEP = 12.0  # discount on shedding a joker while the grid is open
    W_END = 40.0  # ending the game while ahead (or behind: negative)
    EVAL_CONVEX = 0.5  # extra weight of each point above 4 of a card in my hand
    EVAL_SCALE = 12.0  # hand points per unit of tanh in the rollout evaluation
    W_TEMPO = 4.0  # filling a square while ahead (the end comes closer)
    ROLLOUT_THREAT = 3.0  # rollout cost of leaving a row one card short
    OUTCOME_SCALE = 8.0  # hand points per unit of tanh in a finished rollout's margin

    # ------------------------------------------------------------------ scores
    def scores(self, game: Game[Any, Any], view: Any, legal: list[int], level: int) -> np.ndarray:
        ctx = _Ctx(view)
        if level <= 1:
            return np.array([self._greedy(ctx, a) for a in legal], float)
        if view.phase == TURN_PHASE and len(legal) and ACTION_INFO[legal[0]][0] in (K_TAKE, K_DRAW):
            draw_cost = self._draw_cost(ctx)
        else:
            draw_cost = 0.0
        return np.array([self._plan(ctx, a, draw_cost) for a in legal], float)

    def _greedy(self, ctx: _Ctx, action: int) -> float:
        kind, c, r, x = ACTION_INFO[action]
        vals = ctx.vals
        bonus = 0.0 if ctx.view.bonus_turn else 8.0
        if kind == K_PLAY:
            n = ctx.rows[r][2]
            shed = 0 if ctx.view.phase == PLACING_PHASE else vals[c]
            return shed + (bonus if n == SHORT else 0.0)
        if kind == K_UPGRADE:
            if x < 0:
                return vals[c] - ctx.jp
            return vals[c] + (bonus if ctx.rows[x][2] == SHORT else 0.0)
        if kind == K_SHIFT:
            return float(vals[c])
        if kind == K_TAKE:
            return 0.5 + (bonus if ctx.rows[r][2] == SHORT else 0.0)
        if kind == K_DRAW:
            return -3.0
        return float(vals[c])  # discard the highest card

    def _draw_cost(self, ctx: _Ctx) -> float:
        """Expected hand points a draw adds (negative when a full hand swaps a card)."""
        if ctx.view.draw_size <= 0 or ctx.pool <= 0:
            return 0.0
        place, jplace = _place_mask(ctx.rows)
        vals = ctx.vals
        hand_vals = [vals[c] for c in ctx.hand]
        full = len(ctx.hand) >= HAND_LIMIT
        worst = max(hand_vals) if hand_vals else 0
        tot = 0.0
        um = ctx.unseen & ~place
        while um:
            low = um & -um
            v = vals[low.bit_length() - 1]
            tot += (v - max(v, worst)) if full else v
            um ^= low
        if not jplace and ctx.unseen_j:
            v = ctx.jp
            tot += ctx.unseen_j * ((v - max(v, worst)) if full else v)
        return tot / ctx.pool

    def _plan(self, ctx: _Ctx, action: int, draw_cost: float) -> float:
        mv = _effect(ctx, action)
        view = ctx.view
        vals = ctx.vals
        if mv.kind == K_DRAW:
            return -draw_cost - 0.5 - self.W_TEMPO * 0.3 * self._lead(ctx)
        if mv.kind == K_DISCARD:
            # keep cards that can still find a row; shed the high, stuck ones
            fit, jfit = _fit_mask(ctx.rows)
            c = mv.card
            stuck = not (jfit if c == JOKER else fit >> c & 1)
            return vals[c] * (1.0 + (self.W_STUCK if stuck else 0.0)) + (2.0 if stuck else 0.0)
        hand = _remaining(ctx.hand, mv.removed)
        if mv.gain:
            hand = hand + [JOKER]
        my_after = sum(vals[c] for c in hand)
        # the end of the game
        if mv.ends:
            best_opp = min(ctx.opp_est[q] for q in range(ctx.n) if q != ctx.me)
            margin = best_opp - my_after
            return mv.shed + self.W_END * math.tanh(margin / 6.0)
        score = float(mv.shed - mv.gain)
        bonus = mv.fills and not view.bonus_turn
        fit, jfit = _fit_mask(mv.rows)
        # what my next move could shed (the bonus turn, or my next turn)
        best_next = 0
        stuck_pts = 0
        for c in hand:
            ok = jfit if c == JOKER else fit >> c & 1
            if ok:
                if vals[c] > best_next:
                    best_next = vals[c]
            else:
                stuck_pts += vals[c]
        if bonus:
            score += self.W_BONUS + 0.5 * best_next
        # joker: a sure move for later; shed it only when the grid closes in
        if JOKER in mv.removed and mv.kind != K_UPGRADE:
            open_sq = GRID_SIZE - sum(q[2] for q in mv.rows)
            keep = self.W_JOKER_KEEP * min(1.0, max(0.0, (open_sq - 4) / 8.0))
            score -= keep
        score -= self.W_STUCK * stuck_pts
        best_opp = min(ctx.opp_est[q] for q in range(ctx.n) if q != ctx.me)
        lead = math.tanh((best_opp - my_after) / 8.0)  # > 0: I look lowest
        empty_after = GRID_SIZE - sum(q[2] for q in mv.rows)
        if empty_after < GRID_SIZE - ctx.fill_count:
            score += self.W_TEMPO * lead  # filling squares brings the end closer
        if not bonus:
            score = self._next_player(ctx, mv.rows, score, lead, empty_after)
        return score

    def _next_player(self, ctx: _Ctx, rows: list[tuple[int, bool, int]], score: float, lead: float,
                     empty_after: int) -> float:
        """``score`` after what the grid ``rows`` offers the next player (no bonus turn of mine).

        Threats: rows one square short the next player may fill for a bonus turn (or to end
        the game); squeeze: the chance they have no move at all and must draw.
        """
        h = ctx.next_hand
        pool = ctx.pool
        threat = 0.0
        for m, j, n in rows:
            if n == SHORT:
                good = _POP(ADDABLE[m] & ctx.unseen) + (0 if j else ctx.unseen_j)
                p = 1.0 if not j and ctx.next_known_j else _p_any(good, pool, h)
                threat = max(threat, p)
        if empty_after == 1:  # they would end the game
            score += self.W_END * 0.5 * threat * lead
        else:
            score -= self.W_THREAT * threat * (self.W_BONUS + 6.0)
        fit, jfit = _fit_mask(rows)
        good = _POP(fit & ctx.unseen) + (ctx.unseen_j if jfit else 0)
        stuck_free = ctx.next_known_j and jfit  # their known joker always has a move
        p_stuck = 0.0 if stuck_free else 1.0 - _p_any(good, ctx.pool, ctx.next_hand)
        score += self.W_SQUEEZE * p_stuck
        return score

    def _lead(self, ctx: _Ctx) -> float:
        best_opp = min(ctx.opp_est[q] for q in range(ctx.n) if q != ctx.me)
        return math.tanh((best_opp - ctx.my_total) / 8.0)

    # ------------------------------------------------------------------ reasons
    def reason(self, game: Game[Any, Any], view: Any, action: int) -> str:
        ctx = _Ctx(view)
        mv = _effect(ctx, action)
        kind, c, r, x = ACTION_INFO[action]
        move = game.action_to_str(action)
        bonus = mv.fills and not view.bonus_turn
        if mv.ends:
            hand = _remaining(ctx.hand, mv.removed)
            my_after = sum(ctx.vals[q] for q in hand)
            best_opp = min(ctx.opp_est[q] for q in range(ctx.n) if q != ctx.me)
            verdict = "you should be lowest" if my_after < best_opp else "risky, others may hold less"
            kept = plural(my_after, "point")
            return f"{move}: fills the grid and ends the game with {kept} in hand ({verdict})"
        if kind == K_DRAW:
            cost = self._draw_cost(ctx)
            if _can_take(ctx):
                pre = "the top discard fits, but drawing"
            else:
                pre = "no card of yours fits and the discard cannot go down; drawing"
            if cost <= 0:
                return f"draw: {pre} may swap your worst card (expected {cost:+.1f} points)"
            return f"draw: {pre} adds about {cost:.1f} points on average"
        if kind == K_DISCARD:
            fit, jfit = _fit_mask(ctx.rows)
            stuck = not (jfit if c == JOKER else fit >> c & 1)
            where = "and fits no row now" if stuck else "though it still fits a row"
            return f"discard {card_str(c)}: drops {plural(ctx.vals[c], 'point')} {where}"
        bits = [_shed_words(ctx, mv)]
        if bonus:
            bits.append(f"fills row {(x if kind == K_UPGRADE else r) + 1} and earns a bonus turn")
        elif mv.fills:
            bits.append("fills a row (no bonus: bonus turns never chain)")
        else:
            for m, j, n in mv.rows:
                if n == SHORT:
                    good = _POP(ADDABLE[m] & ctx.unseen) + (0 if j else ctx.unseen_j)
                    if good:
                        bits.append("but leaves a row one card short that others may fill")
                        break
        if kind in (K_PLAY, K_TAKE) and view.phase != PLACING_PHASE:
            desc = _row_desc(mv.rows[r])
            if desc:
                bits.append(desc)
        if JOKER in mv.removed and kind == K_PLAY and GRID_SIZE - ctx.fill_count > 6:
            bits.append("though a joker fits anywhere later")
        return f"{move}: " + ", ".join(bits)

    # ------------------------------------------------------------ evaluation
    def evaluate(self, game: Game[Any, Any], state: Any, player: int) -> float:
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

    def outcome(self, game: Game[Any, Any], state: Any, player: int) -> float:
        """The result with its margin: ``0.6 * reward + 0.4 * tanh(margin / OUTCOME_SCALE)``.

        ``margin`` is the lowest opponent total minus mine, so a win is worth at least
        0.6, a loss at most -0.6, and a narrow result less than a clear one.
        """
        rules = _line(game)
        ret = float(rules.returns(state)[player])
        mine = rules.hand_total(state, player)
        best = min(rules.hand_total(state, q) for q in range(rules.num_players) if q != player)
        return 0.6 * ret + 0.4 * math.tanh((best - mine) / self.OUTCOME_SCALE)

    def sample_state(self, game: Game[Any, Any], view: Any, rng: np.random.Generator,
                     memory: Memory | None = None) -> Any:
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

    def rollout_action(self, game: Game[Any, Any], state: Any, rng: np.random.Generator) -> int:
        """The rollout policy's move (:func:`rollout_move`: greedy, avoiding rows left one short)."""
        return rollout_move(state, game.legal_actions(state), _line(game).card_values, Ties(rng),
                            self.ROLLOUT_THREAT)

    def rollouts(self, game: Game[Any, Any], root: Any) -> Rollouts:
        """The expert's rollouts: :func:`rollout_move` in one loop (:class:`LineRollouts`)."""
        if type(self).rollout_action is not LineKnowledge.rollout_action:
            return Rollouts(self, game, root)  # a subclass's own rollout policy: the generic loop
        return LineRollouts(self, game, root)


def rollout_move(state: LineState, legal: list[int], vals: Sequence[int], ties: Ties, threat: float) -> int:
    """The search's rollout policy: the greedy move of ``legal`` for the player to move in ``state``.

    By the cards a row holds before a card goes in: filling it earns a bonus turn (8
    points when not already on one), leaving it one card short hands the next player
    one (``-threat``); otherwise the points shed, a take at 0.5, a draw at -3, a discard
    by the card's value.  Ties (scores are whole or half points) are broken uniformly
    by ``ties``.
    """
    if len(legal) == 1:
        return legal[0]
    rows = state.rows
    placing = state.phase == PLACE_DRAWN
    fill = [0.0] * ROW_LEN
    fill[SHORT] = 0.0 if state.bonus else 8.0
    fill[SHORT - 1] = -threat
    info = ACTION_INFO
    best = -1e9
    picks: list[int] = []
    for a in legal:
        kind, c, r, x = info[a]
        if kind == K_PLAY:
            s = (0 if placing else vals[c]) + fill[len(rows[r])]
        elif kind == K_UPGRADE:
            s = vals[c] - vals[JOKER] if x < 0 else vals[c] + fill[len(rows[x])]
        elif kind == K_SHIFT:
            s = vals[c]
        elif kind == K_TAKE:
            s = 0.5 + fill[len(rows[r])]
        elif kind == K_DRAW:
            s = -3.0
        else:
            s = vals[c]
        if s > best:
            best, picks = s, [a]
        elif s == best:
            picks.append(a)
    return picks[0] if len(picks) == 1 else picks[ties.index(len(picks))]


class LineRollouts(Rollouts):
    """The expert's rollouts in Line: :func:`rollout_move` to the end (or ``depth``), in
    one loop on the rules' state, then :meth:`LineKnowledge.outcome` or ``evaluate``."""

    def play_out(self, state: LineState, rng: np.random.Generator, depth: int, player: int) -> float:
        """Play ``state`` on for up to ``depth`` moves and value the end for ``player``."""
        game = _line(self.game)
        vals = game.card_values
        threat = cast(LineKnowledge, self.knowledge).ROLLOUT_THREAT
        apply, legal_actions = game.apply, game.legal_actions
        ties = Ties(rng)
        for _ in range(depth):
            if state.phase == OVER:
                break
            apply(state, rollout_move(state, legal_actions(state), vals, ties, threat), rng)
        if state.phase == OVER:
            return self.outcome(state, player)
        return self.evaluate(state, player)


def _can_take(ctx: _Ctx) -> bool:
    """Whether the top discard of the view may be taken (it fits some row)."""
    if not ctx.view.discard:
        return False
    fit, jfit = _place_mask(ctx.rows)
    top = ctx.view.discard[-1]
    return jfit if top == JOKER else bool(fit >> top & 1)


def _shed_words(ctx: _Ctx, mv: _Move) -> str:
    """What a play, upgrade, shift or take does with my hand, in words."""
    kind, c, r, x = mv.kind, mv.card, mv.row, mv.extra
    if kind == K_PLAY:
        if ctx.view.phase == PLACING_PHASE:
            return f"the drawn {card_str(c)} must go down"
        costliest = " (a joker, the costliest card)" if c == JOKER else ""
        return f"sheds {plural(mv.shed, 'point')}{costliest}"
    if kind == K_UPGRADE:
        if x < 0:
            return f"sheds {plural(mv.shed, 'point')} but takes a joker worth {ctx.jp} into hand"
        return f"sheds {plural(mv.shed, 'point')}, completes row {r + 1} and moves its joker to row {x + 1}"
    if kind == K_SHIFT:
        return f"sheds {plural(mv.shed, 'point')} and keeps the run complete, without filling a square"
    return f"takes {card_str(mv.card)} straight onto the grid, so no card joins your hand"


def _row_desc(row: tuple[int, bool, int]) -> str:
    """Words for what a row becomes (a set, a run, a new row) once a card is placed."""
    m, _j, n = row
    cards = [c for c in range(52) if m >> c & 1]
    if len(cards) >= 2:
        if len({c >> 2 for c in cards}) == 1:
            return f"the row becomes a set of {RANK_NAMES[cards[0] >> 2]}"
        return f"the row becomes a {SUIT_NAMES[cards[0] & 3]} run"
    if n == 1:
        return "opens a new row"
    return ""


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
