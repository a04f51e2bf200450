"""Rummy 4x3x2's move scores: the greedy level (1) and the planner (2), pure functions of a View."""

from __future__ import annotations

import numpy as np

from cardenvs.rummy432.state import (
    FINISH0,
    GROUP,
    GROUP_SIZES,
    NEXT_GROUP,
    RANK_VALUES,
    TAKE,
    THROW0,
    Rummy432View,
    hand_values,
    rank_counts,
    shape_of,
)

from .context import Context, final_score, shape_key

#: greedy potential of a rank by count: grouped cards + loose cards times the share of
#: the next group they already reach
GREEDY_POT = {
    p: tuple(
        GROUP[p][c] + (c - GROUP[p][c]) * (c / NEXT_GROUP[p][c] if NEXT_GROUP[p][c] else 0.0)
        for c in range(6)
    )
    for p in GROUP_SIZES
}
G_VALUE_TIE = 0.001  # greedy: among equally loose cards, throw the higher value (it counts against)
# the planner's weights of a move (units: one grouped card = 1)
W_FEED = 0.25  # throwing a rank the next player visibly collects
W_KNOWN = 0.01  # throwing a card you took earlier hides your plans
W_FINISH = 3.0  # finishing now
W_OUTS = 1.0  # share of unseen cards that let the hand finish next turn


def greedy_scores(view: Rummy432View, legal: list[int]) -> np.ndarray:
    """Level 1: take the face-up card when it makes or grows a group, else draw; throw the
    card whose rank has the least group potential (the higher value first among equals);
    finish as soon as it is allowed."""
    pack = view.pack
    cnt = rank_counts(view.hand)
    out = np.zeros(len(legal))
    if view.phase == "pick":
        top = view.discard_top
        g = GROUP[pack]
        joins = top >= 0 and cnt[top >> 2] > 0 and g[cnt[top >> 2] + 1] > g[cnt[top >> 2]]
        for i, a in enumerate(legal):
            out[i] = (1.0 if joins else -1.0) if a == TAKE else 0.0
        return out
    pot = GREEDY_POT[pack]
    for i, a in enumerate(legal):
        fin = a >= FINISH0
        card = a - (FINISH0 if fin else THROW0)
        r = card >> 2
        c = cnt[r]
        harm = pot[c] - pot[c - 1] - G_VALUE_TIE * RANK_VALUES[r]
        out[i] = -harm + (10.0 if fin else 0.0)
    return out


def planner_scores(ctx: Context, legal: list[int]) -> np.ndarray:
    """Level 2: card counting (see the package docstring), from the :class:`Context` of a View."""
    view = ctx.view
    out = np.zeros(len(legal))
    if view.phase == "pick":
        if ctx.final:
            return _final_pick(ctx, legal)
        # take what makes or grows a group, else draw (measured: weighing the take
        # against the expected draw did worse); a dead rank is not worth showing
        top = view.discard_top
        g = GROUP[ctx.pack]
        c = ctx.cnt[top >> 2] if top >= 0 else 0
        joins = c > 0 and g[c + 1] > g[c]
        gain = ctx.terms[top >> 2][c + 1] - ctx.terms[top >> 2][c] if top >= 0 else 0.0
        for i, a in enumerate(legal):
            out[i] = (1.0 + gain if joins else -1.0) if a == TAKE else 0.0
        return out
    if ctx.final:
        cnt = ctx.cnt
        for i, a in enumerate(legal):
            fin = a >= FINISH0
            card = a - (FINISH0 if fin else THROW0)
            cnt[card >> 2] -= 1
            out[i] = final_score(cnt, ctx.pack) + (0.001 if fin else 0.0)
            cnt[card >> 2] += 1
        return out
    seen: dict[tuple[int, bool, bool], int] = {}
    known_me = set(view.known[view.seat])
    valued: dict[tuple[int, bool], float] = {}  # suits never matter: a rank's throw is valued once
    for i, a in enumerate(legal):
        fin = a >= FINISH0
        card = a - (FINISH0 if fin else THROW0)
        r = card >> 2
        value = valued.get((r, fin))
        if value is None:
            value = _throw_value(ctx, card, fin)
            if not fin and W_OUTS:
                ctx.cnt[r] -= 1
                value += W_OUTS * ctx.outs(ctx.cnt)
                ctx.cnt[r] += 1
            valued[(r, fin)] = value
        out[i] = value
        if card in known_me:
            out[i] += W_KNOWN
        key = (card >> 2, fin, card in known_me)
        dup = seen.get(key, 0)  # suits never matter: same rank, same move
        seen[key] = dup + 1
        out[i] -= 1e-4 * dup
    return out


def _throw_value(ctx: Context, card: int, fin: bool) -> float:
    """The planner's value of throwing (or finishing with) ``card``."""
    r = card >> 2
    cnt = ctx.cnt
    c = cnt[r]
    terms = ctx.terms
    val = terms[r][c - 1] - terms[r][c]
    if fin:
        cnt[r] -= 1
        gv, _ = hand_values(cnt, ctx.pack)
        val += W_FINISH + shape_key(shape_of(cnt, ctx.pack)) * 0.5 + gv * 0.002
        cnt[r] += 1
    if ctx.next_collects[r]:
        val -= W_FEED * (0.6 + 0.4 * ctx.next_collects[r])
    return val


def _final_pick(ctx: Context, legal: list[int]) -> np.ndarray:
    """Last turn: the exact final judgement after the best throw, expected over draws."""
    cnt = ctx.cnt
    pack = ctx.pack
    out = np.zeros(len(legal))

    def best_after(keep: int) -> float:
        best = -1e9
        for r in range(13):
            c = cnt[r]
            if c == 0 or (r == keep and c == 1):
                continue
            cnt[r] -= 1
            s = final_score(cnt, pack)
            cnt[r] += 1
            best = max(best, s)
        return best

    for i, a in enumerate(legal):
        if a == TAKE:
            r = ctx.view.discard_top >> 2
            cnt[r] += 1
            out[i] = best_after(r) - 0.01
            cnt[r] -= 1
        else:
            acc = tot = 0.0
            for r in range(13):
                u = ctx.live[r]
                if u <= 0:
                    continue
                cnt[r] += 1
                acc += u * best_after(-1)
                cnt[r] -= 1
                tot += u
            out[i] = acc / tot if tot else best_after(-1)
    return out

__all__ = ["greedy_scores", "planner_scores"]
