"""The coach's reasons for Line's moves, in words (:class:`LineReasons`)."""

from __future__ import annotations

from cardenvs.core.cards import JOKER, SUIT_NAMES, card_str
from cardenvs.core.game import Game
from cardenvs.core.words import plural
from cardenvs.line.rules import (
    ACTION_INFO,
    ADDABLE,
    GRID_SIZE,
    K_DISCARD,
    K_DRAW,
    K_PLAY,
    K_SHIFT,
    K_TAKE,
    K_UPGRADE,
    LineState,
    LineView,
)

from .context import (
    _POP,
    PLACING_PHASE,
    RANK_NAMES,
    SHORT,
    _Ctx,
    _effect,
    _fit_mask,
    _Move,
    _place_mask,
    _remaining,
)
from .scoring import LineScoring


class LineReasons(LineScoring):
    """Why a move is played, in words a player understands (the coach)."""

    # ------------------------------------------------------------------ reasons
    def reason(self, game: Game[LineState, LineView], view: LineView, action: int) -> str:
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
