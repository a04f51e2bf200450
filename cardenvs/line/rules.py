"""Line: the legality core (RULES.md section 1).

Everything that answers "what may be done now" in Line lives here once: the state,
the legal actions, applying an action, the result, the per-player view and its
observation encoding, the move notation, the JSON schema and the text rendering.

Cards are ints (``cardenvs.core.cards``): a real card is ``(rank-1)*4 + suit``, the
joker is ``JOKER = 52``.  A row is a multiset of at most 4 cards; the state keeps, per
row, the bitmask of its real cards and whether it holds the joker, so finishability and
the per-row move tables are single dictionary look-ups into tables built at import.

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
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from cardenvs.core.cards import CARD_VALUES, JOKER, card_str, parse_card
from cardenvs.core.game import (
    Game,
    InvalidStateError,
    NotationError,
    ObsField,
    Option,
    layout,
)

__all__ = ["LineGame", "LineState", "LineView", "SHIFT_PAIRS"]

# ---------------------------------------------------------------------------- phases
TURN, PLACE_DRAWN, DISCARD, OVER = 0, 1, 2, 3
PHASES = ("turn", "place_drawn", "discard", "over")
HAND_LIMIT = 7
NUM_ROWS = 4
ROW_LEN = 4
GRID_SIZE = NUM_ROWS * ROW_LEN
NUM_KINDS = 53  # 52 real cards and the joker

# ------------------------------------------------------------------------ action ids
PLAY_BASE = 0
UPGRADE_BASE = PLAY_BASE + NUM_KINDS * NUM_ROWS  # 212
SHIFT_BASE = UPGRADE_BASE + 52 * NUM_ROWS * 4  # 1044


def _shift_pairs() -> tuple[tuple[int, int], ...]:
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

K_PLAY, K_UPGRADE, K_SHIFT, K_TAKE, K_DRAW, K_DISCARD = range(6)

#: the other rows of each row, ascending (upgrade destination slots 0..2)
OTHER_ROWS: tuple[tuple[int, ...], ...] = tuple(
    tuple(x for x in range(NUM_ROWS) if x != r) for r in range(NUM_ROWS)
)


def _action_table() -> tuple[list[tuple[int, int, int, int]], list[str]]:
    """(kind, card, row, extra) and the canonical text of every action id."""
    info: list[tuple[int, int, int, int]] = []
    text: list[str] = []
    for c in range(NUM_KINDS):
        for r in range(NUM_ROWS):
            info.append((K_PLAY, c, r, -1))
            text.append(f"play {card_str(c)} r{r + 1}")
    for c in range(52):
        for r in range(NUM_ROWS):
            for slot in range(4):
                dest = OTHER_ROWS[r][slot] if slot < 3 else -1
                info.append((K_UPGRADE, c, r, dest))
                where = f"r{dest + 1}" if dest >= 0 else "hand"
                text.append(f"upgrade {card_str(c)} r{r + 1} joker {where}")
    for c, o in SHIFT_PAIRS:
        for r in range(NUM_ROWS):
            info.append((K_SHIFT, c, r, o))
            text.append(f"shift {card_str(c)} r{r + 1} out {card_str(o)}")
    for r in range(NUM_ROWS):
        info.append((K_TAKE, -1, r, -1))
        text.append(f"take r{r + 1}")
    info.append((K_DRAW, -1, -1, -1))
    text.append("draw")
    for c in range(NUM_KINDS):
        info.append((K_DISCARD, c, -1, -1))
        text.append(f"discard {card_str(c)}")
    assert len(info) == NUM_ACTIONS
    return info, text


ACTION_INFO, ACTION_TEXT = _action_table()

# --------------------------------------------------------------- row structure tables


def finishable_cards(reals: list[int] | tuple[int, ...]) -> bool:
    """RULES.md finishability of a row's real cards (at most one joker never matters)."""
    if len(reals) <= 1:
        return True
    ranks = {c >> 2 for c in reals}
    if len(ranks) == 1:
        return True
    suits = {c & 3 for c in reals}
    return len(suits) == 1 and max(ranks) - min(ranks) <= 3


def _finishable_masks() -> set[int]:
    masks = {0}
    for c in range(52):
        masks.add(1 << c)
    for rank in range(13):
        cards = [rank * 4 + s for s in range(4)]
        for sub in range(1, 16):
            masks.add(sum(1 << cards[i] for i in range(4) if sub >> i & 1))
    for suit in range(4):
        for lo in range(13):
            window = [(lo + k) * 4 + suit for k in range(4) if lo + k < 13]
            for sub in range(1, 1 << len(window)):
                masks.add(sum(1 << window[i] for i in range(len(window)) if sub >> i & 1))
    return masks


FINISHABLE: frozenset[int] = frozenset(_finishable_masks())


def _addable() -> dict[int, int]:
    """For each finishable real-card mask of at most 3 cards: the real cards addable."""
    out = {}
    for m in FINISHABLE:
        if m.bit_count() > 3:
            continue
        add = 0
        for c in range(52):
            b = 1 << c
            if not m & b and (m | b) in FINISHABLE:
                add |= b
        out[m] = add
    return out


#: real cards that keep a row finishable, per real-card mask (size permitting)
ADDABLE: dict[int, int] = _addable()


def _mask_cards(m: int) -> list[int]:
    return [c for c in range(52) if m >> c & 1]


def _shift_table() -> dict[int, dict[int, tuple[int, ...]]]:
    """Per full run row (key = mask | joker<<52): card in -> shift pair indices."""
    table: dict[int, dict[int, tuple[int, ...]]] = {}
    for m in FINISHABLE:
        n = m.bit_count()
        for jok in (False, True):
            if n + jok != ROW_LEN:
                continue
            reals = _mask_cards(m)
            if len({c >> 2 for c in reals}) == 1:
                continue  # a set: never shifts
            row = reals + ([JOKER] if jok else [])
            entry: dict[int, list[int]] = {}
            for c in range(NUM_KINDS):
                if c in row or (c != JOKER and c & 3 != reals[0] & 3):
                    continue
                for o in row:
                    rest = [x for x in row if x != o] + [c]
                    if rest.count(JOKER) > 1:
                        continue
                    if finishable_cards([x for x in rest if x != JOKER]):
                        entry.setdefault(c, []).append(PAIR_INDEX[(c, o)])
            table[m | (int(jok) << 52)] = {c: tuple(v) for c, v in entry.items()}
    return table


SHIFT_TABLE: dict[int, dict[int, tuple[int, ...]]] = _shift_table()
JOKER_BIT = 1 << 52

# ------------------------------------------------------------------------ the state


class LineState:
    """The full truth of a Line game (mutable; copy with :meth:`LineGame.clone`).

    ``rows[r]`` lists the cards of row ``r``; ``row_mask[r]`` is the bitmask of its real
    cards and ``row_joker[r]`` whether it holds the joker.  ``draw`` keeps the top of
    the draw pile at the END (JSON lists it first); ``discard`` has the face-up top last.
    ``known[p]`` counts jokers in p's hand that every player knows of (jokers freed by an
    upgrade into the hand, one forgotten per joker p later plays or discards).
    """

    __slots__ = (
        "rows", "row_mask", "row_joker", "hands", "draw", "discard", "current",
        "bonus", "phase", "pending", "known", "legal",
    )

    def __init__(self) -> None:
        self.rows: list[list[int]] = [[] for _ in range(NUM_ROWS)]
        self.row_mask: list[int] = [0] * NUM_ROWS
        self.row_joker: list[bool] = [False] * NUM_ROWS
        self.hands: list[list[int]] = []
        self.draw: list[int] = []
        self.discard: list[int] = []
        self.current = 0
        self.bonus = False
        self.phase = TURN
        self.pending: int | None = None
        self.known: list[int] = []
        self.legal: list[int] | None = None

    def copy(self) -> LineState:
        """An independent copy."""
        s = LineState.__new__(LineState)
        s.rows = [r[:] for r in self.rows]
        s.row_mask = self.row_mask[:]
        s.row_joker = self.row_joker[:]
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


# ---------------------------------------------------------------- observation layout
MAXP = 4
OBS_FIELDS: tuple[ObsField, ...] = layout([
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
_F = {f.name: f for f in OBS_FIELDS}
O_PHASE = _F["phase"].start
O_BONUS = _F["bonus_turn"].start
O_NP = _F["num_players"].start
O_SEAT = _F["seat"].start
O_TOMOVE = _F["to_move"].start
O_JP = _F["joker_points"].start
O_ROWS = _F["rows"].start
O_HAND = _F["hand"].start
O_PEND = _F["pending"].start
O_DTOP = _F["discard_top"].start
O_DDEP = _F["discard_depth"].start
O_DJOK = _F["discard_jokers"].start
O_DRAW = _F["draw_size"].start
O_HSIZE = _F["hand_sizes"].start
O_KNOWN = _F["known_jokers"].start
OBS_SIZE = OBS_FIELDS[-1].stop

# ------------------------------------------------------------------------- notation
_ROW = r"r\s*([1-4])"
_CARD = r"(\S+)"
_PATTERNS = [
    ("play", re.compile(rf"^play\s+{_CARD}\s+{_ROW}$", re.I)),
    ("upgrade", re.compile(rf"^upgrade\s+{_CARD}\s+{_ROW}\s+joker\s+(?:{_ROW}|(hand))$", re.I)),
    ("shift", re.compile(rf"^shift\s+{_CARD}\s+{_ROW}\s+out\s+{_CARD}$", re.I)),
    ("take", re.compile(rf"^take\s+{_ROW}$", re.I)),
    ("draw", re.compile(r"^draw$", re.I)),
    ("discard", re.compile(rf"^discard\s+{_CARD}$", re.I)),
]
FORMS = (
    "'play 7s r2', 'upgrade 5s r1 joker r3', 'upgrade 5s r1 joker hand', "
    "'shift 9s r2 out 5s', 'take r4', 'draw', 'discard Kd' (rows r1..r4, cards like "
    "7s Th 10h Ac, X for the joker)"
)


def _order_row(cards: list[int]) -> list[int]:
    """Tidy order of a row for display: runs ascending with the joker at its gap,
    sets in suit order with the joker at the missing suit."""
    reals = sorted(c for c in cards if c != JOKER)
    jok = JOKER in cards
    if not jok:
        if len({c >> 2 for c in reals}) <= 1:
            return sorted(reals, key=lambda c: (c >> 2, c & 3))
        return reals
    if len(reals) >= 2 and len({c >> 2 for c in reals}) == 1:
        suits = [c & 3 for c in reals]
        missing = next(s for s in range(4) if s not in suits)
        out = list(reals)
        out.insert(sum(1 for s in suits if s < missing), JOKER)
        return out
    if len(reals) >= 2:  # a run: the joker at the first inner gap, else after the top
        ranks = [c >> 2 for c in reals]
        for i in range(len(ranks) - 1):
            if ranks[i + 1] - ranks[i] > 1:
                return reals[: i + 1] + [JOKER] + reals[i + 1:]
        if ranks[-1] == 12:
            return [JOKER] + reals
        return reals + [JOKER]
    return reals + [JOKER]


# ------------------------------------------------------------------------- the game


class LineGame(Game[LineState, LineView]):
    """Line (RULES.md section 1) for 2-4 players; option ``joker_points``."""

    name = "line"
    env_name = "line_v0"
    min_players = 2
    max_players = 4
    default_players = 2
    OPTIONS = {
        "joker_points": Option(25, range(0, 101), "value of a joker left in hand at the end"),
    }
    num_actions = NUM_ACTIONS
    OBS_FIELDS = OBS_FIELDS

    def __init__(self, num_players: int | None = None, **options: Any) -> None:
        super().__init__(num_players, **options)
        self.joker_points: int = int(self.options["joker_points"])
        self._values = CARD_VALUES + (self.joker_points,)

    # ---------------------------------------------------------------- the rules
    def new_state(self, rng: np.random.Generator) -> LineState:
        """Shuffle the 56 cards, deal 7 each, turn one face up; player_0 starts."""
        deck = np.arange(56, dtype=np.int64)
        rng.shuffle(deck)
        cards = [int(c) if c < 52 else JOKER for c in deck]
        s = LineState()
        n = self.num_players
        s.hands = [cards[7 * p: 7 * p + 7] for p in range(n)]
        s.discard = [cards[7 * n]]
        s.draw = cards[7 * n + 1:]
        s.known = [0] * n
        self._settle(s)
        return s

    def clone(self, state: LineState) -> LineState:
        """Independent copy of ``state``."""
        return state.copy()

    def current_player(self, state: LineState) -> int:
        """Seat to move, ``-1`` when over."""
        return -1 if state.phase == OVER else state.current

    def is_terminal(self, state: LineState) -> bool:
        """Whether the game has ended."""
        return state.phase == OVER

    # ----------------------------------------------------------- legal actions
    def legal_actions(self, state: LineState) -> list[int]:
        """Legal ids of the player to move, ascending (cached on the state)."""
        acts = state.legal
        if acts is None:
            acts = state.legal = self._compute_legal(state)
        return acts

    def _playable_rows(self, s: LineState, c: int) -> list[int]:
        """Rows into which card ``c`` may be played (Play rule)."""
        rows = s.rows
        if c == JOKER:
            return [r for r in range(NUM_ROWS) if len(rows[r]) < ROW_LEN and not s.row_joker[r]]
        b = 1 << c
        return [
            r for r in range(NUM_ROWS)
            if len(rows[r]) < ROW_LEN and ADDABLE[s.row_mask[r]] & b
        ]

    def _turn_moves(self, s: LineState) -> list[int]:
        """Play/upgrade/shift ids for the current player's hand (unsorted)."""
        acts: list[int] = []
        rows, masks, jokers = s.rows, s.row_mask, s.row_joker
        hand = s.hands[s.current]
        if not hand:
            return acts
        open_rows = []  # (r, addable, joker)
        full_joker = []  # (r, completing cards, destination slots)
        full_run = []  # (r, shift table entry)
        for r in range(NUM_ROWS):
            m = masks[r]
            if len(rows[r]) < ROW_LEN:
                open_rows.append((r, ADDABLE[m], jokers[r]))
            else:
                if jokers[r]:
                    others = OTHER_ROWS[r]
                    slots = [k for k in range(3) if len(rows[others[k]]) < ROW_LEN
                             and not jokers[others[k]]]
                    slots.append(3)
                    full_joker.append((r, ADDABLE[m], slots))
                    t = SHIFT_TABLE.get(m | JOKER_BIT)
                else:
                    t = SHIFT_TABLE.get(m)
                if t:
                    full_run.append((r, t))
        seen = 0
        for c in hand:
            if c == JOKER:
                if seen & JOKER_BIT:
                    continue
                seen |= JOKER_BIT
                for r, _add, jok in open_rows:
                    if not jok:
                        acts.append(c * 4 + r)
                for r, t in full_run:
                    ps = t.get(JOKER)
                    if ps:
                        acts.extend(SHIFT_BASE + p * 4 + r for p in ps)
                continue
            b = 1 << c
            if seen & b:
                continue
            seen |= b
            for r, add, _jok in open_rows:
                if add & b:
                    acts.append(c * 4 + r)
            for r, comp, slots in full_joker:
                if comp & b:
                    base = UPGRADE_BASE + (c * 4 + r) * 4
                    acts.extend(base + k for k in slots)
            for r, t in full_run:
                ps = t.get(c)
                if ps:
                    acts.extend(SHIFT_BASE + p * 4 + r for p in ps)
        return acts

    def _forced_moves(self, s: LineState) -> list[int]:
        """Take/draw ids of a forced player."""
        acts: list[int] = []
        if s.discard:
            acts.extend(TAKE_BASE + r for r in self._playable_rows(s, s.discard[-1]))
        if s.draw:
            acts.append(DRAW_ID)
        return acts

    def _compute_legal(self, s: LineState) -> list[int]:
        ph = s.phase
        if ph == TURN:
            acts = self._turn_moves(s)
            if not acts:
                return self._forced_moves(s)
            acts.sort()
            return acts
        if ph == PLACE_DRAWN:
            c = s.pending
            assert c is not None
            return [c * 4 + r for r in self._playable_rows(s, c)]
        if ph == DISCARD:
            return [DISCARD_BASE + c for c in sorted(set(s.hands[s.current]))]
        return []

    # ------------------------------------------------------------------- apply
    def _place(self, s: LineState, c: int, r: int) -> bool:
        """Put ``c`` into row ``r``; whether the row became full."""
        row = s.rows[r]
        row.append(c)
        if c == JOKER:
            s.row_joker[r] = True
        else:
            s.row_mask[r] |= 1 << c
        return len(row) == ROW_LEN

    def _forget_joker(self, s: LineState, p: int) -> None:
        if s.known[p]:
            s.known[p] -= 1

    def apply(self, state: LineState, action: int, rng: np.random.Generator | None = None) -> None:
        """Advance ``state`` by ``action`` (``IllegalActionError`` first if illegal)."""
        acts = state.legal
        if acts is None:
            acts = state.legal = self._compute_legal(state)
        if type(action) is not int or action not in acts:
            action = self.check_action(state, action)
        s = state
        kind, c, r, x = ACTION_INFO[action]
        p = s.current
        s.legal = None
        if kind == K_PLAY:
            if s.phase == PLACE_DRAWN:
                s.pending = None
                s.phase = TURN
            else:
                s.hands[p].remove(c)
                if c == JOKER:
                    self._forget_joker(s, p)
            self._end_turn(s, self._place(s, c, r))
        elif kind == K_UPGRADE:
            s.hands[p].remove(c)
            row = s.rows[r]
            row.remove(JOKER)
            row.append(c)
            s.row_joker[r] = False
            s.row_mask[r] |= 1 << c
            if x < 0:
                s.hands[p].append(JOKER)
                s.known[p] += 1
                self._end_turn(s, False)
            else:
                self._end_turn(s, self._place(s, JOKER, x))
        elif kind == K_SHIFT:
            s.hands[p].remove(c)
            if c == JOKER:
                self._forget_joker(s, p)
            row = s.rows[r]
            row.remove(x)
            row.append(c)
            if x == JOKER:
                s.row_joker[r] = False
            else:
                s.row_mask[r] &= ~(1 << x)
            if c == JOKER:
                s.row_joker[r] = True
            else:
                s.row_mask[r] |= 1 << c
            s.discard.append(x)
            self._end_turn(s, False)
        elif kind == K_TAKE:
            card = s.discard.pop()
            self._end_turn(s, self._place(s, card, r))
        elif kind == K_DRAW:
            card = s.draw.pop()
            if self._playable_rows(s, card):
                s.pending = card
                s.phase = PLACE_DRAWN
                return
            hand = s.hands[p]
            hand.append(card)
            if len(hand) > HAND_LIMIT:
                s.phase = DISCARD
                return
            self._end_turn(s, False)
        else:  # K_DISCARD
            s.hands[p].remove(c)
            if c == JOKER:
                self._forget_joker(s, p)
            s.discard.append(c)
            s.phase = TURN
            self._end_turn(s, False)

    def _end_turn(self, s: LineState, filled: bool) -> None:
        """After a completed move: grid-full end, bonus turn or the next seat."""
        if filled and sum(len(row) for row in s.rows) == GRID_SIZE:
            s.phase = OVER
            s.legal = []
            return
        if filled and not s.bonus:
            s.bonus = True
        else:
            s.bonus = False
            s.current = (s.current + 1) % self.num_players
        s.phase = TURN
        self._settle(s)

    def _settle(self, s: LineState) -> None:
        """Compute the legal moves; a player with none (forced, empty pile, no take) ends it."""
        acts = self._compute_legal(s)
        if not acts:
            s.phase = OVER
        s.legal = acts

    # ------------------------------------------------------------------ results
    def hand_total(self, state: LineState, p: int) -> int:
        """Sum of card values in seat ``p``'s hand (joker = ``joker_points``)."""
        v = self._values
        return sum(v[c] for c in state.hands[p])

    def winners(self, state: LineState) -> list[int]:
        """Seats sharing the win (lowest total, then fewest cards); ``[]`` before the end."""
        if state.phase != OVER:
            return []
        keys = [(self.hand_total(state, p), len(state.hands[p])) for p in range(self.num_players)]
        best = min(keys)
        return [p for p in range(self.num_players) if keys[p] == best]

    def returns(self, state: LineState) -> list[float]:
        """+1 sole winner, 0 each sharer, -1 the others; zeros while running."""
        if state.phase != OVER:
            return [0.0] * self.num_players
        w = self.winners(state)
        win = 1.0 if len(w) == 1 else 0.0
        return [win if p in w else -1.0 for p in range(self.num_players)]

    def infos(self, state: LineState) -> list[dict[str, Any]]:
        """At the end: ``hand_total``, ``hand_size`` and ``winners`` per seat."""
        n = self.num_players
        if state.phase != OVER:
            return [{} for _ in range(n)]
        w = self.winners(state)
        return [
            {"hand_total": self.hand_total(state, p), "hand_size": len(state.hands[p]),
             "winners": list(w)}
            for p in range(n)
        ]

    # --------------------------------------------------------- information sets
    def view(self, state: LineState, player: int) -> LineView:
        """What seat ``player`` may know."""
        s = state
        return LineView(
            num_players=self.num_players,
            seat=int(player),
            joker_points=self.joker_points,
            phase=PHASES[s.phase],
            current=s.current,
            bonus_turn=s.bonus,
            rows=tuple(tuple(sorted(r)) for r in s.rows),
            hand=tuple(sorted(s.hands[player])),
            pending=s.pending,
            discard=tuple(s.discard),
            draw_size=len(s.draw),
            hand_sizes=tuple(len(h) for h in s.hands),
            known_jokers=tuple(s.known),
        )

    @classmethod
    def encode(cls, view: LineView) -> np.ndarray:
        """The float32 observation of a view (layout :data:`OBS_FIELDS`)."""
        o = np.zeros(OBS_SIZE, dtype=np.float32)
        n, me = view.num_players, view.seat
        o[O_PHASE + PHASES.index(view.phase)] = 1
        o[O_BONUS] = float(view.bonus_turn)
        o[O_NP + n - 2] = 1
        o[O_SEAT + me] = 1
        o[O_TOMOVE + (view.current - me) % n] = 1
        o[O_JP] = view.joker_points
        for r, row in enumerate(view.rows):
            for c in row:
                o[O_ROWS + r * NUM_KINDS + c] = 1
        for c in view.hand:
            o[O_HAND + c] += 1
        if view.pending is not None:
            o[O_PEND + view.pending] = 1
        d = view.discard
        if d:
            o[O_DTOP + d[-1]] = 1
        nd = len(d)
        jd = []
        for i, c in enumerate(d):
            if c == JOKER:
                jd.append(nd - i)
            else:
                o[O_DDEP + c] = nd - i
        for k, depth in enumerate(sorted(jd)):
            o[O_DJOK + k] = depth
        o[O_DRAW] = view.draw_size
        for q in range(n):
            rel = (q - me) % n
            o[O_HSIZE + rel] = view.hand_sizes[q]
            o[O_KNOWN + rel] = view.known_jokers[q]
        return o

    @classmethod
    def decode(cls, observation: np.ndarray) -> LineView:
        """The view an observation encodes (inverse of :meth:`encode`)."""
        o = np.asarray(observation)
        n = int(np.argmax(o[O_NP:O_NP + 3])) + 2
        me = int(np.argmax(o[O_SEAT:O_SEAT + 4]))
        rows = tuple(
            tuple(int(c) for c in np.flatnonzero(o[O_ROWS + r * 53: O_ROWS + r * 53 + 53]))
            for r in range(NUM_ROWS)
        )
        hand: list[int] = []
        for c in np.flatnonzero(o[O_HAND:O_HAND + 53]):
            hand.extend([int(c)] * int(round(float(o[O_HAND + c]))))
        pend = np.flatnonzero(o[O_PEND:O_PEND + 53])
        depth: dict[int, int] = {}
        for c in np.flatnonzero(o[O_DDEP:O_DDEP + 52]):
            depth[int(round(float(o[O_DDEP + c])))] = int(c)
        for k in range(4):
            dj = int(round(float(o[O_DJOK + k])))
            if dj:
                depth[dj] = JOKER
        discard = tuple(depth[k] for k in sorted(depth, reverse=True))
        sizes = [0] * n
        known = [0] * n
        for q in range(n):
            rel = (q - me) % n
            sizes[q] = int(round(float(o[O_HSIZE + rel])))
            known[q] = int(round(float(o[O_KNOWN + rel])))
        rel_move = int(np.argmax(o[O_TOMOVE:O_TOMOVE + 4]))
        return LineView(
            num_players=n,
            seat=me,
            joker_points=int(round(float(o[O_JP]))),
            phase=PHASES[int(np.argmax(o[O_PHASE:O_PHASE + 4]))],
            current=(me + rel_move) % n,
            bonus_turn=bool(o[O_BONUS] > 0.5),
            rows=rows,
            hand=tuple(hand),
            pending=int(pend[0]) if len(pend) else None,
            discard=discard,
            draw_size=int(round(float(o[O_DRAW]))),
            hand_sizes=tuple(sizes),
            known_jokers=tuple(known),
        )

    def observe(self, state: LineState, player: int) -> np.ndarray:
        """Fast path equal to ``encode(view(state, player))``."""
        s = state
        o = np.zeros(OBS_SIZE, dtype=np.float32)
        n = self.num_players
        o[O_PHASE + s.phase] = 1
        if s.bonus:
            o[O_BONUS] = 1
        o[O_NP + n - 2] = 1
        o[O_SEAT + player] = 1
        o[O_TOMOVE + (s.current - player) % n] = 1
        o[O_JP] = self.joker_points
        for r in range(NUM_ROWS):
            base = O_ROWS + r * NUM_KINDS
            for c in s.rows[r]:
                o[base + c] = 1
        for c in s.hands[player]:
            o[O_HAND + c] += 1
        if s.pending is not None:
            o[O_PEND + s.pending] = 1
        d = s.discard
        nd = len(d)
        if nd:
            o[O_DTOP + d[-1]] = 1
            k = O_DJOK
            for i in range(nd - 1, -1, -1):
                c = d[i]
                if c == JOKER:
                    o[k] = nd - i
                    k += 1
                else:
                    o[O_DDEP + c] = nd - i
        o[O_DRAW] = len(s.draw)
        hands, known = s.hands, s.known
        for q in range(n):
            rel = (q - player) % n
            o[O_HSIZE + rel] = len(hands[q])
            o[O_KNOWN + rel] = known[q]
        return o

    def sample_state(self, view: LineView, rng: np.random.Generator) -> LineState:
        """A full state fitting ``view``: opponents' unknown cards and the pile re-dealt."""
        if view.num_players != self.num_players or view.joker_points != self.joker_points:
            raise ValueError("the view belongs to a game with other options or seat count")
        n, me = view.num_players, view.seat
        seen = [0] * 53
        for row in view.rows:
            for c in row:
                seen[c] += 1
        for c in view.hand:
            seen[c] += 1
        for c in view.discard:
            seen[c] += 1
        if view.pending is not None:
            seen[view.pending] += 1
        for q in range(n):
            if q != me:
                seen[JOKER] += view.known_jokers[q]
        unseen = [c for c in range(52) if not seen[c]] + [JOKER] * (4 - seen[JOKER])
        if len(unseen) != view.draw_size + sum(
            view.hand_sizes[q] - view.known_jokers[q] for q in range(n) if q != me
        ):
            raise ValueError("the view's card counts do not add up to 56 cards")
        s = LineState()
        for r, row in enumerate(view.rows):
            for c in row:
                self._place(s, c, r)
        s.discard = list(view.discard)
        s.current = view.current
        s.bonus = view.bonus_turn
        s.phase = PHASES.index(view.phase)
        s.pending = view.pending
        s.known = list(view.known_jokers)
        cur = view.current

        def deal(fixed: list[int], cards: list[int]) -> None:
            order = rng.permutation(len(cards))
            pool = [cards[i] for i in order]
            hands = []
            for q in range(n):
                if q == me:
                    hands.append(list(view.hand))
                    continue
                k = view.known_jokers[q]
                m = view.hand_sizes[q] - k
                if q == cur and fixed:
                    m -= len(fixed)
                    hands.append([JOKER] * k + fixed + pool[:m])
                else:
                    hands.append([JOKER] * k + pool[:m])
                del pool[:m]
            s.hands = hands
            s.draw = pool

        def moves_with(c: int) -> bool:
            probe.hands[cur] = [c]
            return bool(self._turn_moves(probe))

        stuck = s.phase == OVER and sum(len(r) for r in s.rows) < GRID_SIZE
        if cur != me and (s.phase in (PLACE_DRAWN, DISCARD) or stuck):
            # public knowledge: the player to move was forced before drawing (or could not
            # move at all), so their hidden cards give no play, upgrade or shift (in phase
            # discard one of them, the drawn card, only needs to be unplayable)
            probe = s.copy()
            probe.hands = [[] for _ in range(n)]
            probe.phase = TURN
            m = view.hand_sizes[cur] - view.known_jokers[cur]
            idx = [int(i) for i in rng.permutation(len(unseen))]
            fixed_idx: list[int] = []
            if s.phase == DISCARD and m:
                drawn = [i for i in idx if not self._playable_rows(s, unseen[i])]
                if drawn:
                    fixed_idx.append(drawn[0])
            fixed_idx += [i for i in idx if i not in fixed_idx and not moves_with(unseen[i])][
                : m - len(fixed_idx)]
            fixed = [unseen[i] for i in fixed_idx]
            deal(fixed, [c for i, c in enumerate(unseen) if i not in set(fixed_idx)])
        else:
            deal([], unseen)
        if s.phase == TURN and not self._compute_legal(s):
            # the game runs, so the player to move has a move (public knowledge); with an
            # empty pile and no take that is one card of their hand: deal them such a card
            probe = s.copy()
            good = [i for i, c in enumerate(unseen) if moves_with(c)]
            if good and view.hand_sizes[cur] > view.known_jokers[cur]:
                rest = list(unseen)
                first = rest.pop(good[int(rng.integers(len(good)))])
                deal([first], rest)
        s.legal = [] if s.phase == OVER else self._compute_legal(s)
        return s

    # ------------------------------------------------------------------ notation
    def action_to_str(self, action: int) -> str:
        """RULES.md text of an action id."""
        a = int(action)
        if not 0 <= a < NUM_ACTIONS:
            raise NotationError(f"action id {a} is out of range 0..{NUM_ACTIONS - 1}")
        return ACTION_TEXT[a]

    def str_to_action(self, text: str) -> int:
        """Action id of RULES.md move text (``NotationError`` if malformed)."""
        if not isinstance(text, str):
            raise NotationError(f"a move must be a string, got {text!r}; the forms are {FORMS}")
        t = " ".join(text.split())
        for kind, pat in _PATTERNS:
            m = pat.match(t)
            if m:
                return self._parse(kind, m, text)
        raise NotationError(f"cannot read move {text!r}; the forms are {FORMS}")

    def _card(self, tok: str, text: str) -> int:
        try:
            return parse_card(tok, allow_joker=True)
        except ValueError as e:
            raise NotationError(f"in move {text!r}: {e}") from None

    def _parse(self, kind: str, m: re.Match[str], text: str) -> int:
        if kind == "draw":
            return DRAW_ID
        if kind == "take":
            return TAKE_BASE + int(m.group(1)) - 1
        c = self._card(m.group(1), text)
        if kind == "discard":
            return DISCARD_BASE + c
        r = int(m.group(2)) - 1
        if kind == "play":
            return PLAY_BASE + c * 4 + r
        if kind == "upgrade":
            if c == JOKER:
                raise NotationError(
                    f"in move {text!r}: an upgrade puts a real card in place of the joker, not X"
                )
            if m.group(4):
                slot = 3
            else:
                dest = int(m.group(3)) - 1
                if dest == r:
                    raise NotationError(
                        f"in move {text!r}: the freed joker goes to ANOTHER row or 'hand'"
                    )
                slot = OTHER_ROWS[r].index(dest)
            return UPGRADE_BASE + (c * 4 + r) * 4 + slot
        o = self._card(m.group(3), text)
        pidx = PAIR_INDEX.get((c, o))
        if pidx is None:
            raise NotationError(
                f"in move {text!r}: a shift plays one card and pushes out another of the same "
                "suit, or one of the two is a joker (X)"
            )
        return SHIFT_BASE + pidx * 4 + r

    # ---------------------------------------------------------------------- JSON
    def to_json(self, state: LineState) -> dict[str, Any]:
        """The state in RULES.md's JSON schema."""
        s = state
        out: dict[str, Any] = {
            "game": self.name,
            "num_players": self.num_players,
            "rows": [[card_str(c) for c in row] for row in s.rows],
            "hands": [[card_str(c) for c in h] for h in s.hands],
            "draw_pile": [card_str(c) for c in reversed(s.draw)],
            "discard": [card_str(c) for c in s.discard],
            "current": s.current,
            "bonus_turn": s.bonus,
            "phase": PHASES[s.phase],
            "pending": None if s.pending is None else card_str(s.pending),
            "options": {"joker_points": self.joker_points},
        }
        if any(s.known):  # optional key beyond RULES.md: jokers seen going into hands
            out["known_jokers"] = list(s.known)
        return out

    def from_json(self, obj: dict[str, Any]) -> LineState:
        """Read and validate a RULES.md JSON state (``InvalidStateError`` if bad).

        The optional key ``known_jokers`` (beyond RULES.md's schema; written by
        :meth:`to_json` only when some are known) lists per seat the jokers every player
        saw go into that hand by an upgrade; absent, none are known.
        """

        def bad(msg: str) -> InvalidStateError:
            return InvalidStateError(f"invalid line state: {msg}")

        if not isinstance(obj, dict):
            raise bad(f"expected a JSON object, got {type(obj).__name__}")
        keys = ("game", "num_players", "rows", "hands", "draw_pile", "discard", "current",
                "bonus_turn", "phase", "pending", "options")
        missing = [k for k in keys if k not in obj]
        if missing:
            raise bad(f"missing key(s) {', '.join(missing)}; the keys are {', '.join(keys)}")
        extra = sorted(set(obj) - set(keys) - {"known_jokers"})
        if extra:
            raise bad(f"unknown key(s) {', '.join(map(str, extra))}; the keys are {', '.join(keys)}")
        if obj["game"] != self.name:
            raise bad(f"game is {obj['game']!r}, expected 'line'")
        n = obj["num_players"]
        if isinstance(n, bool) or not isinstance(n, int) or n != self.num_players:
            raise bad(f"num_players is {n!r} but this game is set up for {self.num_players} players")
        opts = obj["options"]
        if not isinstance(opts, dict):
            raise bad("options must be an object like {\"joker_points\": 25}")
        unknown = sorted(set(opts) - set(self.OPTIONS))
        if unknown:
            raise bad(f"unknown option(s) {', '.join(map(str, unknown))}; the options are joker_points")
        for k, v in opts.items():
            if not self.OPTIONS[k].accepts(v):
                raise bad(f"option {k}={v!r} is not allowed; allowed: {self.OPTIONS[k].allowed_text()}")
            if v != self.options[k]:
                raise bad(f"option {k}={v!r} differs from this game's {k}={self.options[k]!r}")

        def cards(lst: Any, where: str) -> list[int]:
            if not isinstance(lst, list):
                raise bad(f"{where} must be a list of cards")
            out = []
            for t in lst:
                try:
                    out.append(parse_card(t, allow_joker=True))
                except ValueError as e:
                    raise bad(f"{where}: {e}") from None
            return out

        rows_in = obj["rows"]
        if not isinstance(rows_in, list) or len(rows_in) != NUM_ROWS:
            raise bad("rows must be a list of 4 rows")
        s = LineState()
        for r, raw in enumerate(rows_in):
            row = cards(raw, f"row {r + 1}")
            if len(row) > ROW_LEN:
                raise bad(f"row {r + 1} holds {len(row)} cards; a row has 4 squares")
            if row.count(JOKER) > 1:
                raise bad(f"row {r + 1} holds {row.count(JOKER)} jokers; at most one joker per row")
            reals = [c for c in row if c != JOKER]
            if len(set(reals)) == len(reals) and not finishable_cards(reals):
                raise bad(f"row {r + 1} ({' '.join(map(card_str, row))}) can never be finished "
                          "as a run or a set")
            s.rows[r] = row
        hands_in = obj["hands"]
        if not isinstance(hands_in, list) or len(hands_in) != n:
            raise bad(f"hands must be a list of {n} hands (one per player)")
        s.hands = [cards(h, f"hand of player_{p}") for p, h in enumerate(hands_in)]
        s.draw = cards(obj["draw_pile"], "draw_pile")[::-1]
        s.discard = cards(obj["discard"], "discard")
        pend = obj["pending"]
        if pend is not None:
            s.pending = cards([pend], "pending")[0]
        counts = [0] * 53
        for lst in [*s.rows, *s.hands, s.draw, s.discard, [] if pend is None else [s.pending]]:
            for c in lst:
                counts[c] += 1
        twice = [card_str(c) for c in range(52) if counts[c] > 1]
        if twice:
            raise bad(f"card(s) {' '.join(twice)} appear more than once")
        if counts[JOKER] != 4:
            raise bad(f"there are {counts[JOKER]} jokers; the deck has exactly 4")
        absent = [card_str(c) for c in range(52) if counts[c] == 0]
        if absent:
            raise bad(f"card(s) {' '.join(absent)} are missing (all 56 cards must be somewhere)")
        for r, row in enumerate(s.rows):
            for c in row:
                self._place_silent(s, c, r)
        cur = obj["current"]
        if isinstance(cur, bool) or not isinstance(cur, int) or not 0 <= cur < n:
            raise bad(f"current must be a seat 0..{n - 1}, got {cur!r}")
        s.current = cur
        bonus = obj["bonus_turn"]
        if not isinstance(bonus, bool):
            raise bad(f"bonus_turn must be true or false, got {bonus!r}")
        s.bonus = bonus
        phase = obj["phase"]
        if phase not in PHASES:
            raise bad(f"phase {phase!r} is not one of {', '.join(PHASES)}")
        s.phase = PHASES.index(phase)
        s.known = [0] * n
        if "known_jokers" in obj:
            kj = obj["known_jokers"]
            if (not isinstance(kj, list) or len(kj) != n
                    or any(isinstance(k, bool) or not isinstance(k, int) or k < 0 for k in kj)):
                raise bad(f"known_jokers must be a list of {n} non-negative ints, got {kj!r}")
            for p, k in enumerate(kj):
                if k > s.hands[p].count(JOKER):
                    raise bad(f"known_jokers says player_{p} holds {k} known joker(s) but their "
                              f"hand has {s.hands[p].count(JOKER)}")
            s.known = list(kj)
        grid = sum(len(row) for row in s.rows)
        for p, h in enumerate(s.hands):
            limit = HAND_LIMIT + 1 if (p == cur and s.phase == DISCARD) else HAND_LIMIT
            if len(h) > limit:
                raise bad(f"player_{p} holds {len(h)} cards; hands hold at most 7 (8 only for "
                          "the player to discard)")
        if s.phase == PLACE_DRAWN:
            if s.pending is None:
                raise bad("phase place_drawn needs the drawn card in 'pending'")
            if not self._playable_rows(s, s.pending):
                raise bad(f"pending {card_str(s.pending)} cannot be played into any row, so it "
                          "could not be a drawn card that must go down")
        elif s.pending is not None:
            raise bad(f"pending is set but phase is {phase!r}; a pending card needs phase place_drawn")
        if s.phase == DISCARD and len(s.hands[cur]) != HAND_LIMIT + 1:
            raise bad(f"phase discard needs player_{cur} to hold 8 cards, not {len(s.hands[cur])}")
        if s.phase in (PLACE_DRAWN, DISCARD):
            self._check_drawn(s, bad)
        if s.phase == OVER:
            if grid < GRID_SIZE:
                probe = s.copy()
                probe.phase = TURN
                if self._compute_legal(probe):
                    raise bad("phase is over but the grid is not full and player_"
                              f"{cur} can still move")
            s.legal = []
            return s
        if grid == GRID_SIZE:
            raise bad(f"the grid is full, so the game is over, but phase is {phase!r}")
        s.legal = self._compute_legal(s)
        if not s.legal:
            raise bad(f"player_{cur} has no legal move (forced, empty draw pile, no take): "
                      "the game is over, phase should be 'over'")
        return s

    def _check_drawn(self, s: LineState, bad: Any) -> None:
        """A drawing player was forced: refuse place_drawn/discard positions where not."""
        cur = s.current
        probe = s.copy()
        probe.phase = TURN
        probe.pending = None
        hand = s.hands[cur]
        if s.phase == PLACE_DRAWN:
            if self._turn_moves(probe):
                raise bad(f"phase place_drawn but player_{cur} could play, upgrade or shift, "
                          "so they could not have drawn")
            return
        for d in set(hand):
            if self._playable_rows(s, d):
                continue
            rest = list(hand)
            rest.remove(d)
            probe.hands[cur] = rest
            if not self._turn_moves(probe):
                return
        raise bad(f"phase discard but no card of player_{cur}'s hand can be an unplayable "
                  "drawn card of a forced player")

    def _place_silent(self, s: LineState, c: int, r: int) -> None:
        if c == JOKER:
            s.row_joker[r] = True
        else:
            s.row_mask[r] |= 1 << c

    # ---------------------------------------------------------------- rendering
    def render(self, state: LineState, viewer: int | None = None) -> str:
        """Text picture of the table; ``viewer=None`` shows every hand."""
        s = state
        lines = []
        for r, row in enumerate(s.rows):
            cells = [card_str(c) for c in _order_row(row)]
            cells += [".."] * (ROW_LEN - len(cells))
            tag = ""
            if len(row) == ROW_LEN:
                reals = [c for c in row if c != JOKER]
                tag = "  set" if len({c >> 2 for c in reals}) == 1 else "  run"
            lines.append(f"r{r + 1}  " + " ".join(f"{x:>2}" for x in cells) + tag)
        top = card_str(s.discard[-1]) if s.discard else "--"
        lines.append(f"discard top {top} ({len(s.discard)} cards)   draw pile {len(s.draw)}")
        if s.phase == OVER:
            w = self.winners(s)
            totals = ", ".join(f"player_{p} {self.hand_total(s, p)}" for p in range(self.num_players))
            lines.append(f"game over; totals: {totals}; winner(s): "
                         + ", ".join(f"player_{p}" for p in w))
        else:
            what = PHASES[s.phase]
            if s.phase == PLACE_DRAWN and s.pending is not None:
                what += f" (drawn {card_str(s.pending)} must go down)"
            bonus = ", bonus turn" if s.bonus else ""
            lines.append(f"to move: player_{s.current}, phase {what}{bonus}")
        for p in range(self.num_players):
            h = s.hands[p]
            if viewer is None or viewer == p:
                shown = " ".join(card_str(c) for c in sorted(h, key=lambda c: (c & 3, c))) or "-"
                known = f" ({s.known[p]} joker(s) known)" if s.known[p] else ""
                lines.append(f"player_{p} hand ({len(h)}): {shown}{known}")
            else:
                known = f", {s.known[p]} known joker(s)" if s.known[p] else ""
                lines.append(f"player_{p}: {len(h)} cards{known}")
        return "\n".join(lines)
