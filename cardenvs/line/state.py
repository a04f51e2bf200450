"""Line's vocabulary: constants, action ids, the state and the per-seat View.

Cards are ints (``cardenvs.core.cards``): a real card is ``(rank-1)*4 + suit``, the
joker is ``JOKER = 52``.  A row is a multiset of at most 4 cards; the state keeps, per
row, its *row key*: the bitmask of its cards with the joker at bit 52
(``mask | JOKER_BIT``), so the per-row move tables of :mod:`cardenvs.line.rows` are
single dictionary look-ups.

Action ids (one flat ``Discrete(4014)``, state-independent):

* ``0..211`` play: ``card*4 + row`` (card 0..52, joker included).  The same ids place
  a drawn card that must go down (phase ``place_drawn``).
* ``212..1043`` upgrade: ``212 + (card*4 + row)*4 + slot`` for a real card replacing the
  joker of ``row``; ``slot`` 0..2 is the k-th other row in ascending order, 3 is the hand.
* ``1044..3955`` shift: ``1044 + pair*4 + row`` where ``pair`` indexes the 728 pairs
  ``(card in, card out)`` of :data:`SHIFT_PAIRS` (distinct, same suit or exactly one
  joker, sorted ascending by (in, out)).
* ``3956..3959`` take the top discard into row 1..4; ``3960`` draw;
  ``3961..4013`` discard card 0..52.

This module imports nothing else of the game, so every other module can import it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cardenvs.core.cards import CARD_VALUES, JOKER

__all__ = [
    "ACTION_INFO", "DISCARD", "DISCARD_BASE", "DRAW_ID", "GRID_SIZE", "HAND_LIMIT", "JOKER",
    "JOKER_BIT", "K_DISCARD", "K_DRAW", "K_PLAY", "K_SHIFT", "K_TAKE", "K_UPGRADE", "LineState",
    "LineView", "NUM_ACTIONS", "NUM_KINDS", "NUM_ROWS", "OTHER_ROWS", "OVER", "PAIR_INDEX",
    "PHASES", "PHASE_INDEX", "PLACE_DRAWN", "PLAY_BASE", "REAL_MASK", "ROW_LEN", "SHIFT_BASE",
    "SHIFT_PAIRS", "TAKE_BASE", "TURN", "UPGRADE_BASE", "card_values",
]

# ---------------------------------------------------------------------------- phases
#: the phases: the state keeps the int, the View and the JSON the name ``PHASES[phase]``
TURN, PLACE_DRAWN, DISCARD, OVER = 0, 1, 2, 3
PHASES = ("turn", "place_drawn", "discard", "over")
PHASE_INDEX: dict[str, int] = {name: i for i, name in enumerate(PHASES)}
HAND_LIMIT = 7
NUM_ROWS = 4
ROW_LEN = 4
GRID_SIZE = NUM_ROWS * ROW_LEN
NUM_KINDS = 53  # 52 real cards and the joker
#: bit of the joker in a row key or a hand mask (``1 << JOKER``)
JOKER_BIT = 1 << JOKER
#: the bits of the 52 real cards
REAL_MASK = JOKER_BIT - 1


def card_values(joker_points: int) -> tuple[int, ...]:
    """Hand-total value of each card kind (index 52: the joker, worth ``joker_points``)."""
    return CARD_VALUES + (joker_points,)


# ------------------------------------------------------------------------ action ids
PLAY_BASE = 0
UPGRADE_BASE = PLAY_BASE + NUM_KINDS * NUM_ROWS  # 212
SHIFT_BASE = UPGRADE_BASE + 52 * NUM_ROWS * 4  # 1044


def _shift_pairs() -> tuple[tuple[int, int], ...]:
    """The (in, out) pairs a shift can name: distinct, one suit or exactly one joker."""
    pairs = []
    for c in range(NUM_KINDS):
        for o in range(NUM_KINDS):
            if c == o:
                continue
            if (c == JOKER) != (o == JOKER) or (c != JOKER and c % 4 == o % 4):
                pairs.append((c, o))
    return tuple(pairs)


#: the (card played, card pushed out) pairs a shift can name, in id order
SHIFT_PAIRS: tuple[tuple[int, int], ...] = _shift_pairs()
PAIR_INDEX: dict[tuple[int, int], int] = {p: i for i, p in enumerate(SHIFT_PAIRS)}
TAKE_BASE = SHIFT_BASE + len(SHIFT_PAIRS) * NUM_ROWS  # 3956
DRAW_ID = TAKE_BASE + NUM_ROWS  # 3960
DISCARD_BASE = DRAW_ID + 1  # 3961
NUM_ACTIONS = DISCARD_BASE + NUM_KINDS  # 4014

#: the kinds of action (first entry of :data:`ACTION_INFO`)
K_PLAY, K_UPGRADE, K_SHIFT, K_TAKE, K_DRAW, K_DISCARD = range(6)

#: the other rows of each row, ascending (upgrade destination slots 0..2)
OTHER_ROWS: tuple[tuple[int, ...], ...] = tuple(
    tuple(x for x in range(NUM_ROWS) if x != r) for r in range(NUM_ROWS)
)


def _action_info() -> tuple[tuple[int, int, int, int], ...]:
    """(kind, card, row, extra) of every action id, in id order.

    ``extra`` is the destination row of an upgrade's freed joker (-1: the hand) and the
    card a shift pushes out; -1 where it means nothing (as ``card`` and ``row`` do).
    """
    info: list[tuple[int, int, int, int]] = []
    for c in range(NUM_KINDS):
        info.extend((K_PLAY, c, r, -1) for r in range(NUM_ROWS))
    for c in range(52):
        for r in range(NUM_ROWS):
            info.extend((K_UPGRADE, c, r, OTHER_ROWS[r][slot] if slot < 3 else -1) for slot in range(4))
    for c, o in SHIFT_PAIRS:
        info.extend((K_SHIFT, c, r, o) for r in range(NUM_ROWS))
    info.extend((K_TAKE, -1, r, -1) for r in range(NUM_ROWS))
    info.append((K_DRAW, -1, -1, -1))
    info.extend((K_DISCARD, c, -1, -1) for c in range(NUM_KINDS))
    assert len(info) == NUM_ACTIONS
    return tuple(info)


#: (kind, card, row, extra) of every action id
ACTION_INFO: tuple[tuple[int, int, int, int], ...] = _action_info()


# ------------------------------------------------------------------------ the state
class LineState:
    """The full truth of a Line game (mutable; copy with :meth:`LineGame.clone`).

    ``rows[r]`` lists the cards of row ``r``; ``row_key[r]`` is the bitmask of its cards
    (the joker at bit 52).  ``draw`` keeps the top of the draw pile at the END (JSON
    lists it first); ``discard`` has the face-up top last.  ``known[p]`` counts jokers in
    p's hand that every player knows of (jokers freed by an upgrade into the hand, one
    forgotten per joker p later plays or discards).  ``legal`` caches the legal actions
    (``None``: not computed yet); code that edits a state by hand resets it with
    :meth:`LineGame.redeal` or by building the state through the rules.
    """

    __slots__ = (
        "rows", "row_key", "hands", "draw", "discard", "current",
        "bonus", "phase", "pending", "known", "legal",
    )

    def __init__(self) -> None:
        self.rows: list[list[int]] = [[] for _ in range(NUM_ROWS)]
        self.row_key: list[int] = [0] * NUM_ROWS
        self.hands: list[list[int]] = []
        self.draw: list[int] = []
        self.discard: list[int] = []
        self.current = 0
        self.bonus = False
        self.phase = TURN
        self.pending: int | None = None
        self.known: list[int] = []
        self.legal: list[int] | None = None

    @property
    def row_mask(self) -> list[int]:
        """Per row, the bitmask of its real cards."""
        return [k & REAL_MASK for k in self.row_key]

    @property
    def row_joker(self) -> list[bool]:
        """Per row, whether it holds the joker."""
        return [bool(k & JOKER_BIT) for k in self.row_key]

    def copy(self) -> LineState:
        """An independent copy."""
        s = LineState.__new__(LineState)
        s.rows = [r[:] for r in self.rows]
        s.row_key = self.row_key[:]
        s.hands = [h[:] for h in self.hands]
        s.draw = self.draw[:]
        s.discard = self.discard[:]
        s.current = self.current
        s.bonus = self.bonus
        s.phase = self.phase
        s.pending = self.pending
        s.known = self.known[:]
        s.legal = self.legal
        return s


@dataclass(frozen=True)
class LineView:
    """What one seat may know of a Line state (its information set).

    Rows and hand are sorted tuples; ``discard`` runs bottom to top; ``hand_sizes`` and
    ``known_jokers`` are indexed by absolute seat.  ``pending`` (a drawn card that must
    go down) is shown to everyone: it goes face up at once.  ``current`` is the seat to
    move (in phase ``over``: the seat that moved last or could not move).
    """

    num_players: int
    seat: int
    joker_points: int
    phase: str
    current: int
    bonus_turn: bool
    rows: tuple[tuple[int, ...], ...]
    hand: tuple[int, ...]
    pending: int | None
    discard: tuple[int, ...]
    draw_size: int
    hand_sizes: tuple[int, ...]
    known_jokers: tuple[int, ...]

    @property
    def options(self) -> dict[str, Any]:
        """The game's options (every key of ``LineGame.OPTIONS``) at this table."""
        return {"joker_points": self.joker_points}
