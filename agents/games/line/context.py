"""What Line's heuristics read of a View, computed once per decision (:class:`_Ctx`),
the grid's masks and a move's effect (:func:`_effect`), and the measured weights
of where the unseen cards are."""

from __future__ import annotations

from typing import cast

from cardenvs.core.cards import JOKER
from cardenvs.core.game import Game
from cardenvs.line.rules import (
    ACTION_INFO,
    GRID_SIZE,
    JOKER_BIT,
    K_DISCARD,
    K_PLAY,
    K_SHIFT,
    K_TAKE,
    K_UPGRADE,
    PHASES,
    PLACE_DRAWN,
    REAL_MASK,
    ROW_FIT,
    ROW_LEN,
    ROW_PLAY,
    TURN,
    LineGame,
    LineState,
    LineView,
    card_values,
)

RANK_NAMES = ("aces", "twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines",
              "tens", "jacks", "queens", "kings")
#: the View's names of the phases the heuristics tell apart
TURN_PHASE, PLACING_PHASE = PHASES[TURN], PHASES[PLACE_DRAWN]
#: cards in a row one square short of full (the next card fills it)
SHORT = ROW_LEN - 1

_POP = int.bit_count


def _line(game: Game[LineState, LineView]) -> LineGame:
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
    full run (the rules' :data:`~cardenvs.line.rows.ROW_FIT`).
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

    def __init__(self, view: LineView) -> None:
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

