"""Line's observation: the layout, written once, and its encoder and decoder.

:data:`LAYOUT` names the fields of the flat float32 vector (an
:class:`~cardenvs.core.game.ObsLayout`, in the manner of OpenSpiel's observer).  One
writer, :func:`write`, fills the named views of a buffer from the public facts of one
seat; :func:`encode` feeds it a :class:`LineView` and :func:`observe` feeds it the same
facts read straight off a state (no View built), so the two agree byte for byte by
construction.  :func:`decode` reads the named views back into a View.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from cardenvs.core.game import ObsField, ObsLayout, observation_vector

from .state import JOKER, NUM_KINDS, NUM_ROWS, PHASE_INDEX, PHASES, LineState, LineView

__all__ = ["LAYOUT", "OBS_FIELDS", "OBS_SIZE", "decode", "encode", "observe", "write"]

#: the observation layout (the same for every seat count and option)
LAYOUT = ObsLayout([
    ("phase", 4, "one-hot: turn, place_drawn, discard, over"),
    ("bonus_turn", 1, "1 if the current turn is a bonus turn"),
    ("num_players", 3, "one-hot: 2, 3, 4 players"),
    ("seat", 4, "one-hot: the viewer's seat"),
    ("to_move", 4, "one-hot: seat to move, relative to the viewer (0 = me); in phase over the last mover"),
    ("joker_points", 1, "option joker_points (value of a joker in hand)"),
    ("rows", 212, "row r card c at r*53+c: 1 if the card is in that row (c=52 joker)"),
    ("hand", 53, "count of each card kind in my hand (joker 0..4)"),
    ("pending", 53, "one-hot: the drawn card that must go down (phase place_drawn)"),
    ("discard_top", 53, "one-hot: the face-up top of the discard pile"),
    ("discard_depth", 52, "per real card: 1 if top of the discard pile, 2 below it, ...; 0 if not there"),
    ("discard_jokers", 4, "depths of the jokers in the discard pile, ascending, 0 padding"),
    ("draw_size", 1, "number of cards in the draw pile"),
    ("hand_sizes", 4, "hand size per seat, relative (slot 0 = me), 0 for absent seats"),
    ("known_jokers", 4, "jokers known to be in each seat's hand, relative (slot 0 = me)"),
])
OBS_FIELDS: tuple[ObsField, ...] = LAYOUT.fields
OBS_SIZE = LAYOUT.size


def write(
    v: Mapping[str, Any],
    phase: int,
    bonus: bool,
    num_players: int,
    seat: int,
    current: int,
    joker_points: int,
    rows: Sequence[Sequence[int]],
    hand: Sequence[int],
    pending: int | None,
    discard: Sequence[int],
    draw_size: int,
    hand_sizes: Iterable[int],
    known: Sequence[int],
) -> None:
    """Write one seat's observation into the zeroed named views ``v`` of a buffer
    (:meth:`LAYOUT.views <cardenvs.core.game.ObsLayout.views>`, or memoryviews of them).

    ``phase`` is the phase index, ``hand_sizes`` and ``known`` are per absolute seat;
    row and hand order does not matter, ``discard`` runs bottom to top.
    """
    n = num_players
    v["phase"][phase] = 1
    if bonus:
        v["bonus_turn"][0] = 1
    v["num_players"][n - 2] = 1
    v["seat"][seat] = 1
    v["to_move"][(current - seat) % n] = 1
    v["joker_points"][0] = joker_points
    f = v["rows"]
    for r in range(NUM_ROWS):
        base = r * NUM_KINDS
        for c in rows[r]:
            f[base + c] = 1
    f = v["hand"]
    for c in hand:
        f[c] = 1  # real cards are unique; the jokers are counted below
    if JOKER in hand:
        f[JOKER] = hand.count(JOKER)
    if pending is not None:
        v["pending"][pending] = 1
    if discard:
        v["discard_top"][discard[-1]] = 1
        f, jokers = v["discard_depth"], v["discard_jokers"]
        k = 0
        for depth, c in enumerate(reversed(discard), 1):  # from the top: jokers' depths ascend
            if c == JOKER:
                jokers[k] = depth
                k += 1
            else:
                f[c] = depth
    v["draw_size"][0] = draw_size
    f, g = v["hand_sizes"], v["known_jokers"]
    for q, size in enumerate(hand_sizes):
        rel = (q - seat) % n
        f[rel] = size
        g[rel] = known[q]


class _Scratch(threading.local):
    """A zeroed buffer and its named views, one per thread, reused by every call: the
    writer fills it, the caller takes a copy and zeroes it again (cheaper than a new
    buffer and fifteen new views each time).  The views are the layout's numpy views
    seen through ``memoryview``, whose item writes cost half of numpy's."""

    def __init__(self) -> None:
        buf = LAYOUT.new()
        views = {name: a.data for name, a in LAYOUT.views(buf).items()}
        self.pair: tuple[np.ndarray, dict[str, Any]] = (buf, views)


_SCRATCH = _Scratch()


def encode(view: LineView) -> np.ndarray:
    """The float32 observation of a view (layout :data:`LAYOUT`)."""
    buf, v = _SCRATCH.pair
    try:
        write(v, PHASE_INDEX[view.phase], view.bonus_turn, view.num_players, view.seat, view.current,
              view.joker_points, view.rows, view.hand, view.pending, view.discard, view.draw_size,
              view.hand_sizes, view.known_jokers)
        return buf.copy()
    finally:
        buf.fill(0)


def observe(state: LineState, player: int, num_players: int, joker_points: int) -> np.ndarray:
    """``encode(view(state, player))`` without building the View: the same writer, fed
    the same facts straight from the state."""
    s = state
    buf, v = _SCRATCH.pair
    try:
        write(v, s.phase, s.bonus, num_players, player, s.current, joker_points, s.rows,
              s.hands[player], s.pending, s.discard, len(s.draw), map(len, s.hands), s.known)
        return buf.copy()
    finally:
        buf.fill(0)


def _count(x: Any) -> int:
    """A count written as a float, back as an int."""
    return int(round(float(x)))


def _discard(v: dict[str, np.ndarray]) -> tuple[int, ...]:
    """The discard pile (bottom to top) from its depth fields."""
    depth: dict[int, int] = {}
    f = v["discard_depth"]
    for c in np.flatnonzero(f):
        depth[_count(f[c])] = int(c)
    for d in v["discard_jokers"]:
        if _count(d):
            depth[_count(d)] = JOKER
    return tuple(depth[k] for k in sorted(depth, reverse=True))


def decode(observation: Any) -> LineView:
    """The view an observation encodes (inverse of :func:`encode`).

    ``observation`` is the vector or the dict ``{"observation", "action_mask"}`` of
    ``env.last()``.
    """
    v = LAYOUT.views(observation_vector(observation))
    n = int(np.argmax(v["num_players"])) + 2
    me = int(np.argmax(v["seat"]))
    rows = v["rows"]
    hand: list[int] = []
    f = v["hand"]
    for c in np.flatnonzero(f):
        hand.extend([int(c)] * _count(f[c]))
    pend = np.flatnonzero(v["pending"])
    rel = [(q - me) % n for q in range(n)]
    return LineView(
        num_players=n,
        seat=me,
        joker_points=_count(v["joker_points"][0]),
        phase=PHASES[int(np.argmax(v["phase"]))],
        current=(me + int(np.argmax(v["to_move"]))) % n,
        bonus_turn=bool(v["bonus_turn"][0] > 0.5),
        rows=tuple(
            tuple(int(c) for c in np.flatnonzero(rows[r * NUM_KINDS: (r + 1) * NUM_KINDS]))
            for r in range(NUM_ROWS)
        ),
        hand=tuple(hand),
        pending=int(pend[0]) if len(pend) else None,
        discard=_discard(v),
        draw_size=_count(v["draw_size"][0]),
        hand_sizes=tuple(_count(v["hand_sizes"][rel[q]]) for q in range(n)),
        known_jokers=tuple(_count(v["known_jokers"][rel[q]]) for q in range(n)),
    )
