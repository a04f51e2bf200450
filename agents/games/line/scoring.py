"""Line's greedy (level 1) and planner (level 2) scores, with the planner's weights
(:class:`LineScoring`, the base of :class:`~agents.games.line.LineKnowledge`)."""

from __future__ import annotations

import math

import numpy as np

from cardenvs.core.cards import JOKER
from cardenvs.core.game import Game
from cardenvs.line.rules import (
    ACTION_INFO,
    ADDABLE,
    GRID_SIZE,
    HAND_LIMIT,
    K_DISCARD,
    K_DRAW,
    K_PLAY,
    K_SHIFT,
    K_TAKE,
    K_UPGRADE,
    LineState,
    LineView,
)

from ...players.knowledge import Knowledge
from .context import (
    _POP,
    PLACING_PHASE,
    SHORT,
    TURN_PHASE,
    _Ctx,
    _effect,
    _fit_mask,
    _p_any,
    _place_mask,
    _remaining,
)


class LineScoring(Knowledge[LineState, LineView]):
    """Line's level 1 and 2 scores and the planner's weights."""


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
    def scores(self, game: Game[LineState, LineView],
               view: LineView, legal: list[int], level: int) -> np.ndarray:
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
