"""Line's observation: the layout, written once, and its encoder and decoder.

:data:`LAYOUT` names the fields of the flat float32 vector (an
:class:`~cardenvs.core.game.ObsLayout`, in the manner of OpenSpiel's observer).  One
writer, :func:`write`, builds the vector from the public facts of one seat;
:func:`encode` feeds it a :class:`LineView` and :func:`observe` feeds it the same facts
read straight off a state (no View built), so the two agree byte for byte by
construction.  :func:`decode` reads the named views of :data:`LAYOUT` back into a View.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from cardenvs.core.game import ObsField, ObsLayout, observation_vector

from .rows import ROW_MOVES
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


# The writer joins the vector from byte segments, one per field group, in layout order:
# the head (phase .. joker_points, 17 entries), the four rows, hand, pending, discard_top,
# the discard depths and jokers (56), and the tail (draw_size, hand_sizes, known_jokers).
_HEAD_SIZE = LAYOUT.start("rows")
_DEPTH_SIZE = LAYOUT.start("draw_size") - LAYOUT.start("discard_depth")
assert [LAYOUT.start(f) for f in ("draw_size", "hand_sizes", "known_jokers")] == [
    OBS_SIZE - 9, OBS_SIZE - 8, OBS_SIZE - 4]
assert LAYOUT.start("hand") == _HEAD_SIZE + NUM_ROWS * NUM_KINDS
assert LAYOUT.start("discard_depth") == LAYOUT.start("hand") + 3 * NUM_KINDS
assert LAYOUT.start("discard_jokers") == LAYOUT.start("discard_depth") + JOKER  # jokers follow the 52


def _row_bytes(key: int) -> bytes:
    """The ``rows`` entries of one row (53 bytes) from its row key (the bits of its cards)."""
    return bytes((key >> c) & 1 for c in range(NUM_KINDS))


#: row key -> its 53 bytes, for every key a game can reach (931 of them); a View built by
#: hand may hold others, made on demand (plain dicts: a subclass's look-ups cost more)
_ROW_BYTES: dict[int, bytes] = {k: _row_bytes(k) for k in ROW_MOVES}
_NO_CARD = bytes(NUM_KINDS)
#: the one-hot 53 bytes of each card kind (pending, discard_top)
_ONE_HOT = tuple(bytes(c) + b"\x01" + bytes(NUM_KINDS - 1 - c) for c in range(NUM_KINDS))
#: the zero slots after the seats of a table of n, in hand_sizes and known_jokers
_PAD = {2: (0, 0), 3: (0,), 4: ()}


def _head(phase: int, bonus: bool, n: int, seat: int, current: int, joker_points: int) -> bytes:
    """The 17 head bytes: phase, bonus_turn, num_players, seat, to_move, joker_points."""
    head = bytearray(_HEAD_SIZE)
    head[phase] = 1
    head[4] = 1 if bonus else 0
    head[5 + n - 2] = 1
    head[8 + seat] = 1
    head[12 + (current - seat) % n] = 1
    head[16] = joker_points
    return bytes(head)


#: ``(phase, bonus, num_players, seat, current, joker_points)`` -> :func:`_head`, made once each
_HEADS: dict[tuple[int, bool, int, int, int, int], bytes] = {}
assert [LAYOUT.start(f) for f in ("bonus_turn", "num_players", "seat", "to_move", "joker_points")] == [
    4, 5, 8, 12, 16]


def write(
    phase: int,
    bonus: bool,
    num_players: int,
    seat: int,
    current: int,
    joker_points: int,
    row_keys: Sequence[int],
    hand: Sequence[int],
    pending: int | None,
    discard: Sequence[int],
    draw_size: int,
    hand_sizes: Sequence[int],
    known: Sequence[int],
) -> np.ndarray:
    """One seat's observation, a new float32 vector, written from the public facts.

    ``phase`` is the phase index; ``row_keys`` are the rows' keys (the bits of their
    cards, the joker at bit 52); ``hand_sizes`` and ``known`` are per absolute seat; hand
    order does not matter, ``discard`` runs bottom to top.  Every entry of an observation
    is a count of at most 255, so the vector is joined from byte segments (the head and
    the rows come from tables) and made float32 by one ``astype``; :func:`encode` checks
    that a View's counts fit.
    """
    k0, k1, k2, k3 = row_keys
    mine = bytearray(NUM_KINDS)  # the hand
    for c in hand:
        mine[c] = 1  # real cards are unique; the jokers are counted below
    if mine[JOKER]:
        mine[JOKER] = hand.count(JOKER)
    depths = bytearray(_DEPTH_SIZE)  # discard_depth, then discard_jokers
    if discard:
        top = _ONE_HOT[discard[-1]]
        depth = len(discard)
        for c in discard:  # bottom to top; a joker lands on discard_jokers[0], fixed below
            depths[c] = depth
            depth -= 1
        if depths[JOKER]:  # a joker is there: the jokers' depths from the top, ascending
            depths[JOKER] = 0
            k = JOKER
            for depth, c in enumerate(reversed(discard), 1):
                if c == JOKER:
                    depths[k] = depth
                    k += 1
    else:
        top = _NO_CARD
    pad = _PAD[num_players]
    tail = bytes((draw_size, *hand_sizes[seat:], *hand_sizes[:seat], *pad,
                  *known[seat:], *known[:seat], *pad))
    key = (phase, bonus, num_players, seat, current, joker_points)
    head = _HEADS.get(key)
    if head is None:
        head = _HEADS[key] = _head(*key)
    rows = _ROW_BYTES
    try:
        r0, r1, r2, r3 = rows[k0], rows[k1], rows[k2], rows[k3]
    except KeyError:  # a View built by hand, with a row no game reaches
        r0, r1, r2, r3 = map(_row_bytes, row_keys)
    return np.frombuffer(b"".join((
        head, r0, r1, r2, r3, mine,
        _NO_CARD if pending is None else _ONE_HOT[pending], top, depths, tail,
    )), np.uint8).astype(np.float32)


def _row_key(row: Iterable[int]) -> int:
    """The row key of a row's cards."""
    key = 0
    for c in row:
        key |= 1 << c
    return key


def encode(view: LineView) -> np.ndarray:
    """The float32 observation of a view (layout :data:`LAYOUT`).

    Raises ``ValueError`` for a View no game has (a seat, card or count out of range).
    """
    n = view.num_players
    cards = [*view.hand, *view.discard, *(c for row in view.rows for c in row)]
    if view.pending is not None:
        cards.append(view.pending)
    counts = (view.joker_points, view.draw_size, len(view.discard), view.hand.count(JOKER),
              *view.hand_sizes, *view.known_jokers)
    if (
        n not in (2, 3, 4) or not 0 <= view.seat < n or not 0 <= view.current < n
        or view.phase not in PHASE_INDEX or len(view.rows) != NUM_ROWS
        or len(view.hand_sizes) != n or len(view.known_jokers) != n
        or not all(0 <= c <= JOKER for c in cards) or not 0 <= min(counts) <= max(counts) <= 255
    ):
        raise ValueError(
            f"not a Line view: 2..4 seats, seat and current among them, a phase of {PHASES}, "
            f"{NUM_ROWS} rows, cards 0..{JOKER}, counts 0..255 (got {view!r})"
        )
    return write(PHASE_INDEX[view.phase], view.bonus_turn, n, view.seat, view.current,
                 view.joker_points, [_row_key(row) for row in view.rows], view.hand, view.pending,
                 view.discard, view.draw_size, view.hand_sizes, view.known_jokers)


def observe(state: LineState, player: int, num_players: int, joker_points: int) -> np.ndarray:
    """``encode(view(state, player))`` without building the View: the same writer, fed
    the same facts straight from the state."""
    s = state
    return write(s.phase, s.bonus, num_players, player, s.current, joker_points, s.row_key,
                 s.hands[player], s.pending, s.discard, len(s.draw), list(map(len, s.hands)), s.known)


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
