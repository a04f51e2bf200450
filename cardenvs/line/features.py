"""Line's learner observations: card planes with the rows' states, and per-action facts.

Two designs besides the flat vector (:mod:`.encoding`), chosen with
``observation="planes"`` or ``observation="action_features"`` (see
:mod:`cardenvs.core.observers`; the tables are printed in ``cardenvs/line_v0.py``):

* :func:`planes`: ``(66, 4, 13)`` float32 over the 52 real cards laid out as suit x
  rank: where each card is (my hand, each row, the discard pile and its depth, the
  pending card, unseen), what each row accepts (by a play, by any move: the rows'
  states), the cards' values; the jokers, the rows' kinds and fill, and the scalars of
  the position as constant channels.
* :func:`action_features`: ``(len(legal), 42)`` float32 for the legal actions: what the
  move does (kind, the hand points it sheds, the row it fills and whether that earns a
  bonus turn or ends the game), what it leaves me (hand size and total, how many of my
  cards still have a move and what the stuck ones are worth) and what it leaves the
  next seat (rows one card short and the unseen cards that fill them, the unseen cards
  that fit anywhere), then the position's facts, repeated on every row.

Everything is computed from a :class:`LineView` (the player's information set), so
re-dealing the cards the player cannot see changes nothing here (tested).  Every entry
lies in its column's bounds (tested on random games).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from cardenvs.core.game import ObsLayout

from .rows import CARD_BIT, ROW_FIT, ROW_PLAY
from .state import (
    ACTION_INFO,
    GRID_SIZE,
    JOKER,
    JOKER_BIT,
    K_DISCARD,
    K_DRAW,
    K_PLAY,
    K_SHIFT,
    K_TAKE,
    K_UPGRADE,
    NUM_ROWS,
    PHASES,
    REAL_MASK,
    ROW_LEN,
    LineView,
    card_values,
)

#: a plane: the 52 real cards as suit (c, d, h, s) x rank (A .. K)
PLANE_SHAPE = (4, 13)
R = NUM_ROWS
#: jokers in the game
NUM_JOKERS = 4
#: most cards a hand holds (7, and 8 for the player who must discard)
MAX_HAND = 8

PLANES = ObsLayout([
    ("hand", 1, "1 if the card is in my hand"),
    ("row", R, "per row: 1 if the card is in that row"),
    ("discard", 1, "1 if the card is in the discard pile"),
    ("discard_depth", 1, "1 / depth in the discard pile (top 1, below it 1/2, ...); 0 if not there"),
    ("discard_top", 1, "1 if the card is the face-up top of the discard pile"),
    ("pending", 1, "1 if the card is the drawn card that must go down"),
    ("unseen", 1, "1 if the card is in no place I can see (the pile, other hands)"),
    ("row_play", R, "per row: 1 if a play may put the card into that row"),
    ("row_fit", R, "per row: 1 if the card has any move there (play, upgrade, shift)"),
    ("value", 1, "constant per card: its hand value / 10"),
    ("my_jokers", 1, "constant: jokers in my hand / 4"),
    ("row_joker", R, "constant: per row, 1 if it holds the joker"),
    ("row_count", R, "constant: per row, cards in it / 4"),
    ("row_kind", 2 * R, "constant: per row r, 1 in slot 2r if its real cards make it a run, in 2r+1 if a set "
                        "(both 0 while undecided)"),
    ("joker_play", R, "constant: per row, 1 if a play may put a joker into it"),
    ("discard_jokers", 1, "constant: jokers in the discard pile / 4"),
    ("unseen_jokers", 1, "constant: jokers I cannot place / 4"),
    ("pending_joker", 1, "constant: 1 if the drawn card that must go down is a joker"),
    ("top_joker", 1, "constant: 1 if the top of the discard pile is a joker"),
    ("phase", 4, "constant: one-hot turn, place_drawn, discard, over"),
    ("bonus_turn", 1, "constant: 1 if the current turn is a bonus turn"),
    ("num_players", 3, "constant: one-hot 2, 3, 4 players"),
    ("to_move", 4, "constant: one-hot seat-relative seat to move (in phase over: the last mover)"),
    ("joker_points", 1, "constant: option joker_points / 100"),
    ("draw_size", 1, "constant: cards in the draw pile / 56"),
    ("hand_sizes", 4, "constant: seat-relative hand sizes / 8"),
    ("known_jokers", 4, "constant: seat-relative jokers known to be in each hand / 4"),
], low=0.0, high=1.0)

ACTION_FEATURES = ObsLayout([
    ("kind", 6, "the move: play, upgrade, shift, take, draw, discard"),
    ("joker", 1, "1 if the card the move plays, shifts in or discards is a joker"),
    ("shed", 1, "hand points the move takes out of my hand, less the points it brings in (an upgrade's "
                "joker, a shifted-out card), / 25, clipped to [-1, 1]"),
    ("pending", 1, "1 if the move places the drawn card that must go down"),
    ("row_count", 1, "cards in the move's row after it / 4 (0 for draw and discard)"),
    ("fills", 1, "1 if the move fills its row"),
    ("earns_bonus", 1, "1 if it fills a row on a turn that is not a bonus turn (a bonus turn follows)"),
    ("row_had_joker", 1, "1 if the move's row held the joker"),
    ("joker_to_hand", 1, "upgrade: 1 if the freed joker goes to my hand"),
    ("joker_to_row", 1, "upgrade: 1 if the freed joker goes to another row"),
    ("grid_after", 1, "squares filled after the move / 16"),
    ("ends_game", 1, "1 if the move fills the last square"),
    ("hand_after", 1, "cards in my hand after the move / 8"),
    ("total_after", 1, "my hand total after the move / 100, clipped to 1"),
    ("mobile_after", 1, "cards of my hand after the move that have a move on the grid / 8"),
    ("stuck_after", 1, "hand points of those that have none / 100, clipped to 1"),
    ("short_rows_after", 1, "rows one card short after the move / 4"),
    ("threat_after", 1, "unseen cards that a play could put into those rows / 20, clipped to 1"),
    ("open_after", 1, "unseen cards (jokers included) that a play could put somewhere after the move / 40, "
                      "clipped to 1"),
    ("card_value", 1, "the card the move plays, takes or discards: its value / 10 (a joker: 1)"),
    ("discard_fits", 1, "discard: 1 if a play could put the card into a row (the next seat may take it)"),
    ("phase", 3, "position: one-hot turn, place_drawn, discard"),
    ("bonus_turn", 1, "position: 1 if this is a bonus turn"),
    ("players", 1, "position: (seats - 2) / 2"),
    ("draw_size", 1, "position: cards in the draw pile / 56"),
    ("hand_size", 1, "position: cards in my hand / 8"),
    ("hand_total", 1, "position: my hand total / 100, clipped to 1"),
    ("my_jokers", 1, "position: jokers in my hand / 4"),
    ("next_hand", 1, "position: cards in the next seat's hand / 8"),
    ("next_jokers", 1, "position: jokers known to be in the next seat's hand / 4"),
    ("fewest_other", 1, "position: the smallest other hand / 8"),
    ("grid", 1, "position: squares filled / 16"),
    ("unseen", 1, "position: cards I cannot place / 56"),
    ("mobile", 1, "position: cards of my hand with a move now / 8"),
    ("joker_points", 1, "position: option joker_points / 100"),
], bounds={"shed": (-1.0, 1.0)}, low=0.0, high=1.0)

_P = {f.name: f.start for f in PLANES.fields}
_A = {f.name: f.start for f in ACTION_FEATURES.fields}
NUM_PLANES = PLANES.size
NUM_FEATURES = ACTION_FEATURES.size
_VALUES = np.array(card_values(0)[:52], np.float32).reshape(13, 4).T / 10  # (suit, rank)
_POPCOUNT = int.bit_count


def _key(cards: Sequence[int]) -> int:
    """The row key of a row's cards (bitmask, the joker at bit 52)."""
    k = 0
    for c in cards:
        k |= CARD_BIT[c]
    return k


def _kind(cards: Sequence[int]) -> int:
    """0 undecided, 1 a run (one suit, ranks differ), 2 a set (one rank)."""
    reals = [c for c in cards if c != JOKER]
    if len(reals) < 2:
        return 0
    return 2 if len({c >> 2 for c in reals}) == 1 else 1


class _Table:
    """What the encoders share of one View: row keys, my hand, the unseen cards."""

    __slots__ = ("view", "n", "me", "keys", "counts", "hand", "values", "unseen_mask", "unseen_jokers")

    def __init__(self, view: LineView) -> None:
        self.view = view
        self.n = view.num_players
        self.me = view.seat
        self.keys = [_key(r) for r in view.rows]
        self.counts = [len(r) for r in view.rows]
        self.hand = list(view.hand)
        self.values = card_values(view.joker_points)
        seen = 0
        jokers = sum(view.known_jokers[q] for q in range(self.n) if q != self.me)
        for pile in (*view.rows, view.hand, view.discard):
            for c in pile:
                if c == JOKER:
                    jokers += 1
                else:
                    seen |= CARD_BIT[c]
        if view.pending is not None:
            if view.pending == JOKER:
                jokers += 1
            else:
                seen |= CARD_BIT[view.pending]
        self.unseen_mask = REAL_MASK & ~seen
        self.unseen_jokers = max(NUM_JOKERS - jokers, 0)


def _card_plane(out: np.ndarray, channel: int, c: int, value: float = 1.0) -> None:
    out[channel, c & 3, c >> 2] = value


def _mask_plane(out: np.ndarray, channel: int, mask: int) -> None:
    plane = out[channel]
    m = mask & REAL_MASK
    while m:
        low = m & -m
        c = low.bit_length() - 1
        plane[c & 3, c >> 2] = 1.0
        m ^= low


def planes(view: LineView) -> np.ndarray:
    """The ``(66, 4, 13)`` planes of a view (layout :data:`PLANES`)."""
    t = _Table(view)
    p = _P
    n, me = t.n, t.me
    out = np.zeros((NUM_PLANES, *PLANE_SHAPE), np.float32)
    jokers = 0
    for c in view.hand:
        if c == JOKER:
            jokers += 1
        else:
            _card_plane(out, p["hand"], c)
    out[p["my_jokers"]] = jokers / NUM_JOKERS
    for r, row in enumerate(view.rows):
        key = t.keys[r]
        for c in row:
            if c != JOKER:
                _card_plane(out, p["row"] + r, c)
        _mask_plane(out, p["row_play"] + r, ROW_PLAY[key])
        _mask_plane(out, p["row_fit"] + r, ROW_FIT[key])
        out[p["row_joker"] + r] = float(bool(key & JOKER_BIT))
        out[p["row_count"] + r] = len(row) / ROW_LEN
        kind = _kind(row)
        if kind:
            out[p["row_kind"] + 2 * r + kind - 1] = 1.0
        out[p["joker_play"] + r] = float(bool(ROW_PLAY[key] & JOKER_BIT))
    depth = len(view.discard)
    djokers = 0
    for i, c in enumerate(view.discard):
        if c == JOKER:
            djokers += 1
            continue
        _card_plane(out, p["discard"], c)
        _card_plane(out, p["discard_depth"], c, 1.0 / (depth - i))
    out[p["discard_jokers"]] = djokers / NUM_JOKERS
    if view.discard:
        top = view.discard[-1]
        if top == JOKER:
            out[p["top_joker"]] = 1.0
        else:
            _card_plane(out, p["discard_top"], top)
    if view.pending is not None:
        if view.pending == JOKER:
            out[p["pending_joker"]] = 1.0
        else:
            _card_plane(out, p["pending"], view.pending)
    _mask_plane(out, p["unseen"], t.unseen_mask)
    out[p["unseen_jokers"]] = t.unseen_jokers / NUM_JOKERS
    out[p["value"]] = _VALUES
    out[p["phase"] + PHASES.index(view.phase)] = 1.0
    out[p["bonus_turn"]] = float(view.bonus_turn)
    out[p["num_players"] + n - 2] = 1.0
    out[p["to_move"] + (view.current - me) % n] = 1.0
    out[p["joker_points"]] = view.joker_points / 100
    out[p["draw_size"]] = view.draw_size / 56
    for s in range(n):
        r = (s - me) % n
        out[p["hand_sizes"] + r] = view.hand_sizes[s] / MAX_HAND
        out[p["known_jokers"] + r] = view.known_jokers[s] / NUM_JOKERS
    return out


def _leaves(t: _Table, keys: list[int], counts: list[int], hand: list[int], f: np.ndarray) -> None:
    """The columns of what a position (rows ``keys``/``counts``, my ``hand``) leaves."""
    a = _A
    values = t.values
    fit = ROW_FIT[keys[0]] | ROW_FIT[keys[1]] | ROW_FIT[keys[2]] | ROW_FIT[keys[3]]
    play = ROW_PLAY[keys[0]] | ROW_PLAY[keys[1]] | ROW_PLAY[keys[2]] | ROW_PLAY[keys[3]]
    mobile = 0
    stuck = 0
    total = 0
    for c in hand:
        v = values[c]
        total += v
        if fit & CARD_BIT[c]:
            mobile += 1
        else:
            stuck += v
    f[a["hand_after"]] = len(hand) / MAX_HAND
    f[a["total_after"]] = min(total / 100, 1.0)
    f[a["mobile_after"]] = mobile / MAX_HAND
    f[a["stuck_after"]] = min(stuck / 100, 1.0)
    short = 0
    threat = 0
    for r in range(NUM_ROWS):
        if counts[r] == ROW_LEN - 1:
            short += 1
            accepts = ROW_PLAY[keys[r]]
            threat += _POPCOUNT(accepts & t.unseen_mask) + (t.unseen_jokers if accepts & JOKER_BIT else 0)
    f[a["short_rows_after"]] = short / NUM_ROWS
    f[a["threat_after"]] = min(threat / 20, 1.0)
    open_cards = _POPCOUNT(play & t.unseen_mask) + (t.unseen_jokers if play & JOKER_BIT else 0)
    f[a["open_after"]] = min(open_cards / 40, 1.0)
    grid = sum(counts)
    f[a["grid_after"]] = grid / GRID_SIZE


def _position_block(view: LineView, t: _Table, ctx: np.ndarray) -> None:
    """The position's columns, the same on every row (from ``phase`` on): the phase, the
    bonus turn, the players, the draw pile, my hand (size, points, jokers, how many of its
    cards fit a row), the next player's hand and jokers, the fewest cards of another, the
    grid, the unseen cards and the joker's points."""
    a = _A
    n, me = t.n, t.me
    values = t.values
    phase = PHASES.index(view.phase)
    if phase < 3:
        ctx[a["phase"] + phase] = 1.0
    ctx[a["bonus_turn"]] = float(view.bonus_turn)
    ctx[a["players"]] = (n - 2) / 2
    ctx[a["draw_size"]] = view.draw_size / 56
    hand = t.hand
    ctx[a["hand_size"]] = len(hand) / MAX_HAND
    ctx[a["hand_total"]] = min(sum(values[c] for c in hand) / 100, 1.0)
    ctx[a["my_jokers"]] = hand.count(JOKER) / NUM_JOKERS
    nxt = (me + 1) % n
    ctx[a["next_hand"]] = view.hand_sizes[nxt] / MAX_HAND
    ctx[a["next_jokers"]] = view.known_jokers[nxt] / NUM_JOKERS
    ctx[a["fewest_other"]] = min(view.hand_sizes[s] for s in range(n) if s != me) / MAX_HAND
    ctx[a["grid"]] = sum(t.counts) / GRID_SIZE
    ctx[a["unseen"]] = (_POPCOUNT(t.unseen_mask) + t.unseen_jokers) / 56
    fit_now = 0
    for k in t.keys:
        fit_now |= ROW_FIT[k]
    ctx[a["mobile"]] = sum(1 for c in hand if fit_now & CARD_BIT[c]) / MAX_HAND
    ctx[a["joker_points"]] = view.joker_points / 100


def _row_move(view: LineView, t: _Table, info: tuple[int, int, int, int], top: int,
              keys: list[int], counts: list[int], f: np.ndarray) -> tuple[list[int], int]:
    """A move onto a row (play, upgrade, shift, take): its card's columns, the row's count
    after it and whether it fills the row, earns a bonus turn or ends the game.  Changes
    ``keys`` and ``counts`` to the grid after it; returns the hand after it and the points
    it sheds."""
    a = _A
    kind, c, r, extra = info
    values = t.values
    hand = new_hand = t.hand
    shed = 0
    f[a["row_had_joker"]] = float(bool(keys[r] & JOKER_BIT))
    if kind == K_PLAY:
        keys[r] |= CARD_BIT[c]
        counts[r] += 1
        if view.phase == "place_drawn" and c == view.pending:
            f[a["pending"]] = 1.0
        else:
            new_hand = list(hand)
            new_hand.remove(c)
            shed = values[c]
        f[a["joker"]] = float(c == JOKER)
        f[a["card_value"]] = 1.0 if c == JOKER else values[c] / 10
    elif kind == K_UPGRADE:
        keys[r] = (keys[r] & ~JOKER_BIT) | CARD_BIT[c]
        new_hand = list(hand)
        new_hand.remove(c)
        shed = values[c]
        if extra < 0:
            new_hand.append(JOKER)
            shed -= values[JOKER]
            f[a["joker_to_hand"]] = 1.0
        else:
            keys[extra] |= JOKER_BIT
            counts[extra] += 1
            f[a["joker_to_row"]] = 1.0
        f[a["card_value"]] = values[c] / 10
    elif kind == K_SHIFT:
        keys[r] = (keys[r] & ~CARD_BIT[extra]) | CARD_BIT[c]
        new_hand = list(hand)
        new_hand.remove(c)
        new_hand.append(extra)
        shed = values[c] - values[extra]
        f[a["joker"]] = float(c == JOKER)
        f[a["card_value"]] = 1.0 if c == JOKER else values[c] / 10
    elif kind == K_TAKE:
        keys[r] |= CARD_BIT[top]
        counts[r] += 1
        f[a["card_value"]] = 1.0 if top == JOKER else values[top] / 10
    f[a["row_count"]] = counts[r] / ROW_LEN
    filled = counts[r] == ROW_LEN and len(view.rows[r]) < ROW_LEN
    f[a["fills"]] = float(filled)
    f[a["earns_bonus"]] = float(filled and not view.bonus_turn)
    f[a["ends_game"]] = float(sum(counts) == GRID_SIZE)
    return new_hand, shed


def _move_block(view: LineView, t: _Table, info: tuple[int, int, int, int], top: int,
                f: np.ndarray) -> None:
    """One move's columns: its kind, what it does (a discard's card and whether it fitted a
    row; a row move's, by :func:`_row_move`), the points it sheds, and the position it
    leaves (:func:`_leaves`)."""
    a = _A
    kind, c, _, _ = info
    f[a["kind"] + kind] = 1.0
    keys = list(t.keys)
    counts = list(t.counts)
    hand = t.hand
    if kind == K_DRAW:
        _leaves(t, keys, counts, hand, f)
        return
    if kind == K_DISCARD:
        new_hand = list(hand)
        new_hand.remove(c)
        shed = t.values[c]
        f[a["joker"]] = float(c == JOKER)
        f[a["card_value"]] = 1.0 if c == JOKER else t.values[c] / 10
        f[a["discard_fits"]] = float(any(ROW_PLAY[k] & CARD_BIT[c] for k in keys))
    else:
        new_hand, shed = _row_move(view, t, info, top, keys, counts, f)
    f[a["shed"]] = max(-1.0, min(1.0, shed / 25))
    _leaves(t, keys, counts, new_hand, f)


def action_features(view: LineView, legal: Sequence[int]) -> np.ndarray:
    """``(len(legal), 42)``: the :data:`ACTION_FEATURES` rows of the legal actions of
    ``view``'s player (who must be the one to move): the position's columns
    (:func:`_position_block`) on every row, then each move's (:func:`_move_block`)."""
    t = _Table(view)
    out = np.zeros((len(legal), NUM_FEATURES), np.float32)
    ctx = out[0] if len(legal) else np.zeros(NUM_FEATURES, np.float32)
    _position_block(view, t, ctx)
    start = _A["phase"]
    out[1:, start:] = ctx[start:]
    top = view.discard[-1] if view.discard else -1
    for i, act in enumerate(legal):
        _move_block(view, t, ACTION_INFO[act], top, out[i])
    return out


__all__ = ["ACTION_FEATURES", "NUM_FEATURES", "NUM_PLANES", "PLANES", "PLANE_SHAPE", "action_features",
           "planes"]
