"""Line: the legality core (docs/rules/line.md).

What may be done now, and what it does, lives here once: the legal actions, applying an
action, the result, the per-seat View and the determinisation of a View
(:meth:`LineGame.sample_state`).  :class:`LineGame` is the public face: its remaining
methods hand over in one line to the modules that hold one job each:

* :mod:`~cardenvs.line.state`: constants, action ids, :class:`LineState`, :class:`LineView`;
* :mod:`~cardenvs.line.rows`: the row tables (finishability, what a row accepts);
* :mod:`~cardenvs.line.encoding`: the observation layout, ``encode``/``decode``/``observe``;
* :mod:`~cardenvs.line.serialization`: the JSON state and the move notation;
* :mod:`~cardenvs.line.render` and :mod:`~cardenvs.line.picture`: text and picture.

The names of those modules that other code uses (action ids, phases, tables) are
re-exported here.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import numpy as np

from cardenvs.core.game import Game, Option, shuffle_unseen
from cardenvs.core.picture import Picture

from . import encoding, serialization
from .picture import picture as _picture
from .render import render as _render_text
from .rows import (
    ADDABLE,
    CARD_BIT,
    FINISHABLE,
    ROW_FIT,
    ROW_MOVES,
    ROW_PLAY,
    ROW_SHIFT_IN,
    ROW_UPGRADE,
    SHIFT_TABLE,
    RowMoves,
    finishable_cards,
)
from .state import (
    ACTION_INFO,
    DISCARD,
    DISCARD_BASE,
    DRAW_ID,
    GRID_SIZE,
    HAND_LIMIT,
    JOKER,
    JOKER_BIT,
    K_DISCARD,
    K_DRAW,
    K_PLAY,
    K_SHIFT,
    K_TAKE,
    K_UPGRADE,
    NUM_ACTIONS,
    NUM_KINDS,
    NUM_ROWS,
    OTHER_ROWS,
    OVER,
    PAIR_INDEX,
    PHASE_INDEX,
    PHASES,
    PLACE_DRAWN,
    PLAY_BASE,
    REAL_MASK,
    ROW_LEN,
    SHIFT_BASE,
    SHIFT_PAIRS,
    TAKE_BASE,
    TURN,
    UPGRADE_BASE,
    LineState,
    LineView,
    card_values,
)

__all__ = [
    "ACTION_INFO", "ADDABLE", "DISCARD", "DISCARD_BASE", "DRAW_ID", "FINISHABLE", "GRID_SIZE",
    "HAND_LIMIT", "JOKER", "JOKER_BIT", "K_DISCARD", "K_DRAW", "K_PLAY", "K_SHIFT", "K_TAKE",
    "K_UPGRADE", "LineGame", "LineState", "LineView", "NUM_ACTIONS", "NUM_KINDS", "NUM_ROWS",
    "OTHER_ROWS", "OVER", "PAIR_INDEX", "PHASES", "PHASE_INDEX", "PLACE_DRAWN", "PLAY_BASE",
    "REAL_MASK", "ROW_FIT", "ROW_LEN", "ROW_PLAY", "ROW_SHIFT_IN", "ROW_UPGRADE", "SHIFT_BASE", "SHIFT_PAIRS",
    "SHIFT_TABLE", "TAKE_BASE", "TURN", "UPGRADE_BASE", "card_values", "compute_legal",
    "finishable_cards", "forced_moves", "grid_moves", "playable_rows", "turn_moves",
]

# -------------------------------------------------------------------- legal actions

#: the all-zero action mask that :meth:`LineGame.legal_mask` copies (cheaper than np.zeros)
_NO_ACTIONS = np.zeros(NUM_ACTIONS, dtype=np.int8)
_NO_ACTIONS.flags.writeable = False


def playable_rows(s: LineState, c: int) -> list[int]:
    """Rows into which card ``c`` (the joker too) may be played (the Play rule)."""
    b = CARD_BIT[c]
    k0, k1, k2, k3 = s.row_key  # unrolled (NUM_ROWS == 4): this runs several times a step
    rows = []
    if ROW_PLAY[k0] & b:
        rows.append(0)
    if ROW_PLAY[k1] & b:
        rows.append(1)
    if ROW_PLAY[k2] & b:
        rows.append(2)
    if ROW_PLAY[k3] & b:
        rows.append(3)
    return rows


#: the :data:`ROW_MOVES` entries of the four rows of a grid
Grid = tuple[RowMoves, RowMoves, RowMoves, RowMoves]


def grid_moves(s: LineState) -> Grid:
    """The :data:`ROW_MOVES` entries of the rows of ``s`` (what each row accepts)."""
    k0, k1, k2, k3 = s.row_key
    return ROW_MOVES[k0], ROW_MOVES[k1], ROW_MOVES[k2], ROW_MOVES[k3]


def turn_moves(s: LineState, grid: Grid | None = None) -> list[int]:
    """Play/upgrade/shift ids of the player to move, ascending; ``[]``: they are forced.

    ``grid`` is :func:`grid_moves` of ``s`` when the caller has it already.
    """
    hand_bits = 0
    for c in s.hands[s.current]:
        hand_bits |= CARD_BIT[c]
    if grid is None:
        grid = grid_moves(s)
    if not hand_bits & (grid[0][0] | grid[1][0] | grid[2][0] | grid[3][0]):
        return []
    acts: list[int] = []
    for r, (_fit, play, upgrade, shift_in, shifts) in enumerate(grid):
        hits = play & hand_bits
        while hits:
            low = hits & -hits
            acts.append(PLAY_BASE + (low.bit_length() - 1) * 4 + r)
            hits ^= low
        hits = upgrade & hand_bits
        if hits:
            _add_upgrades(acts, grid, r, hits)
        hits = shift_in & hand_bits
        while hits:
            low = hits & -hits
            for p in shifts[low.bit_length() - 1]:
                acts.append(SHIFT_BASE + p * 4 + r)
            hits ^= low
    acts.sort()
    return acts


def _add_upgrades(acts: list[int], grid: Grid, r: int, cards: int) -> None:
    """Append the upgrade ids of row ``r`` by each real card of the bitmask ``cards``.

    The freed joker goes to another open row without a joker (slot k), or the hand (3).
    """
    slots = [i for i, x in enumerate(OTHER_ROWS[r]) if grid[x][1] & JOKER_BIT] + [3]
    while cards:
        low = cards & -cards
        base = UPGRADE_BASE + ((low.bit_length() - 1) * 4 + r) * 4
        for i in slots:
            acts.append(base + i)
        cards ^= low


def forced_moves(s: LineState, grid: Grid | None = None) -> list[int]:
    """Take/draw ids of a forced player (take: the top discard fits a row)."""
    acts = []
    if s.discard:
        if grid is None:
            grid = grid_moves(s)
        b = CARD_BIT[s.discard[-1]]
        if b & (grid[0][1] | grid[1][1] | grid[2][1] | grid[3][1]):  # rarely: a take
            for r in range(NUM_ROWS):
                if grid[r][1] & b:
                    acts.append(TAKE_BASE + r)
    if s.draw:
        acts.append(DRAW_ID)
    return acts


def compute_legal(s: LineState) -> list[int]:
    """The legal ids of the player to move, ascending, computed afresh (not cached)."""
    ph = s.phase
    if ph == TURN:
        grid = grid_moves(s)
        return turn_moves(s, grid) or forced_moves(s, grid)
    if ph == PLACE_DRAWN:
        c = s.pending
        assert c is not None
        acts = []
        for r in playable_rows(s, c):
            acts.append(PLAY_BASE + c * 4 + r)
        return acts
    if ph == DISCARD:
        return [DISCARD_BASE + c for c in sorted(set(s.hands[s.current]))]
    return []


# ------------------------------------------------------------------------- the game


class LineGame(Game[LineState, LineView]):
    """Line (docs/rules/line.md) for 2-4 players; option ``joker_points``."""

    name = "line"
    env_name = "line_v0"
    min_players = 2
    max_players = 4
    default_players = 2
    OPTIONS = {
        "joker_points": Option(25, range(0, 101), "value of a joker left in hand at the end"),
    }
    num_actions = NUM_ACTIONS
    OBS_FIELDS = encoding.OBS_FIELDS

    def __init__(self, num_players: int | None = None, **options: Any) -> None:
        super().__init__(num_players, **options)
        self.joker_points: int = int(self.options["joker_points"])
        #: hand-total value of each card kind at this table (index 52: the joker)
        self.card_values: tuple[int, ...] = card_values(self.joker_points)
        self._seats = range(self.num_players)

    # ---------------------------------------------------------------- the rules
    def new_state(self, rng: np.random.Generator) -> LineState:
        """Shuffle the 56 cards, deal 7 each, turn one face up; player_0 starts."""
        deck = np.arange(56, dtype=np.int64)
        rng.shuffle(deck)
        cards = [c if c < 52 else JOKER for c in deck.tolist()]  # Python ints: cheap to compare
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

    def legal_actions(self, state: LineState) -> list[int]:
        """Legal ids of the player to move, ascending (cached on the state)."""
        acts = state.legal
        if acts is None:
            acts = state.legal = compute_legal(state)
        return acts

    def legal_mask(self, state: LineState) -> np.ndarray:
        """int8 mask of :meth:`legal_actions` (a short list is written id by id: cheaper
        than numpy's fancy indexing)."""
        mask = _NO_ACTIONS.copy()
        acts = state.legal
        if acts is None:
            acts = self.legal_actions(state)
        if len(acts) > 16:
            mask[acts] = 1
        else:
            for a in acts:
                mask[a] = 1
        return mask

    def playable_rows(self, state: LineState, card: int) -> list[int]:
        """Rows into which ``card`` may be played now (the Play rule; joker included)."""
        return playable_rows(state, card)

    def turn_moves(self, state: LineState) -> list[int]:
        """Play/upgrade/shift ids of the player to move, whatever the phase; ``[]``
        means that on a turn they are forced to take or draw."""
        return turn_moves(state)

    def apply(self, state: LineState, action: int, rng: np.random.Generator | None = None) -> None:
        """Advance ``state`` by ``action`` (``IllegalActionError`` first if illegal)."""
        acts = state.legal
        if acts is None:
            acts = state.legal = compute_legal(state)
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
                _from_hand(s, p, c)
            self._end_turn(s, _place(s, c, r))
        elif kind == K_UPGRADE:
            _from_hand(s, p, c)
            _swap(s, r, JOKER, c)
            if x < 0:
                s.hands[p].append(JOKER)
                s.known[p] += 1
                self._end_turn(s, False)
            else:
                self._end_turn(s, _place(s, JOKER, x))
        elif kind == K_SHIFT:
            _from_hand(s, p, c)
            _swap(s, r, x, c)
            s.discard.append(x)
            self._end_turn(s, False)
        elif kind == K_TAKE:
            self._end_turn(s, _place(s, s.discard.pop(), r))
        elif kind == K_DRAW:
            self._draw(s, p)
        else:  # K_DISCARD
            _from_hand(s, p, c)
            s.discard.append(c)
            s.phase = TURN
            self._end_turn(s, False)

    def _draw(self, s: LineState, p: int) -> None:
        """The drawn card goes down if it can, else into the hand (then a full one discards)."""
        card = s.draw.pop()
        k0, k1, k2, k3 = s.row_key
        if CARD_BIT[card] & (ROW_PLAY[k0] | ROW_PLAY[k1] | ROW_PLAY[k2] | ROW_PLAY[k3]):  # playable_rows
            s.pending = card
            s.phase = PLACE_DRAWN
            return
        hand = s.hands[p]
        hand.append(card)
        if len(hand) > HAND_LIMIT:
            s.phase = DISCARD
            return
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
        acts = compute_legal(s)
        if not acts:
            s.phase = OVER
        s.legal = acts

    def redeal(self, state: LineState, hands: Sequence[Sequence[int]], draw: Sequence[int]) -> None:
        """Give ``state`` new hands and a new draw pile (top last) made of the same cards.

        For a search that re-deals what its player cannot see: the grid, the discard pile,
        the turn and the known jokers stay; the legal-move cache is reset.  Raises
        ``ValueError`` if the cards differ from those of the old hands and pile.
        """
        new_hands = [list(h) for h in hands]
        old = sorted([c for h in state.hands for c in h] + state.draw)
        new = sorted([c for h in new_hands for c in h] + list(draw))
        if len(new_hands) != self.num_players or new != old:
            raise ValueError("redeal must give one hand per seat and keep the same cards")
        state.hands = new_hands
        state.draw = list(draw)
        state.legal = None

    def redraw_unseen(self, state: LineState, rng: np.random.Generator) -> None:
        """Shuffle the draw pile in place with ``rng``: the only cards nobody has seen
        (every hand is seen by its owner; the grid, the discard pile and a pending card
        are face up).  Views and the legal moves do not depend on the pile's order."""
        shuffle_unseen(state.draw, rng)

    def has_chance(self, state: LineState, action: int) -> bool:
        """Only a draw meets chance (Line's ``apply`` uses no ``rng``)."""
        return action == DRAW_ID

    # ------------------------------------------------------------------ results
    def hand_total(self, state: LineState, p: int) -> int:
        """Sum of card values in seat ``p``'s hand (joker = ``joker_points``)."""
        v = self.card_values
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

    def max_game_length(self) -> int:
        """``197 - 7n`` moves: the grid never loses a card (16 moves add one: play, take,
        place a drawn card, upgrade into a row); draws take the pile's ``55 - 7n`` cards;
        shifts and discards each take a card out of the hands, which hold ``7n`` cards and
        gain only drawn ones, so together at most 55; an upgrade that puts the joker back in
        the hand needs a joker in the grid, put there by one of the first two kinds.  Hence
        ``(55 - 7n) + 16 + 55 + (16 + 55)``.  (Random play: at most 85 for n = 2.)"""
        return 197 - 7 * self.num_players

    def infos(self, state: LineState) -> list[dict[str, Any]]:
        """At the end: ``hand_total``, ``hand_size`` and ``winners`` per seat."""
        if state.phase != OVER:
            fresh: list[dict[str, Any]] = [{}, {}, {}, {}]  # new dicts (cheaper than a comprehension)
            return fresh[: self.num_players]
        w = self.winners(state)
        return [
            {"hand_total": self.hand_total(state, p), "hand_size": len(state.hands[p]), "winners": list(w)}
            for p in range(self.num_players)
        ]

    # --------------------------------------------------------- information sets
    def public_view(self, state: LineState) -> LineView:
        """What everyone may know: a seat's View without its hand (the drawn card that must
        go down, ``pending``, is face up for all), ``seat`` -1."""
        return dataclasses.replace(self.view(state, 0), seat=-1, hand=())

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
            rows=tuple(map(tuple, map(sorted, s.rows))),
            hand=tuple(sorted(s.hands[player])),
            pending=s.pending,
            discard=tuple(s.discard),
            draw_size=len(s.draw),
            hand_sizes=tuple(map(len, s.hands)),
            known_jokers=tuple(s.known),
        )

    @classmethod
    def encode(cls, view: LineView) -> np.ndarray:
        """The float32 observation of a view (layout :attr:`OBS_FIELDS`)."""
        return encoding.encode(view)

    @classmethod
    def decode(cls, observation: Any) -> LineView:
        """The view an observation (vector, or ``env.last()``'s dict) encodes."""
        return encoding.decode(observation)

    def observe(self, state: LineState, player: int) -> np.ndarray:
        """``encode(view(state, player))``, written straight from the state."""
        s = state  # encoding.observe(state, player, ...), one call fewer on the env's hot path
        return encoding.write(s.phase, s.bonus, self.num_players, player, s.current, self.joker_points,
                              s.row_key, s.hands[player], s.pending, s.discard, len(s.draw),
                              list(map(len, s.hands)), s.known)

    def sample_state(self, view: LineView, rng: np.random.Generator) -> LineState:
        """A full state fitting ``view``: opponents' unknown cards and the pile re-dealt.

        What is public is kept: a player who drew or is stuck holds no card with a move;
        a player to move with an empty pile and no take holds one.
        """
        if view.num_players != self.num_players or view.joker_points != self.joker_points:
            raise ValueError("the view belongs to a game with other options or seat count")
        unseen = _unseen_cards(view)
        s = _public_state(view)
        cur = view.current
        stuck = s.phase == OVER and sum(len(r) for r in s.rows) < GRID_SIZE
        if cur != view.seat and (s.phase in (PLACE_DRAWN, DISCARD) or stuck):
            fixed_idx = _forced_hand(s, view, unseen, rng)
            fixed = [unseen[i] for i in fixed_idx]
            _deal(s, view, fixed, [c for i, c in enumerate(unseen) if i not in set(fixed_idx)], rng)
        else:
            _deal(s, view, [], unseen, rng)
        if s.phase == TURN and not compute_legal(s):
            # the game runs, so the player to move has a move (public knowledge); with an
            # empty pile and no take that is one card of their hand: deal them such a card
            probe = s.copy()
            good = [i for i, c in enumerate(unseen) if _moves_with(probe, c)]
            if good and view.hand_sizes[cur] > view.known_jokers[cur]:
                rest = list(unseen)
                first = rest.pop(good[int(rng.integers(len(good)))])
                _deal(s, view, [first], rest, rng)
        s.legal = [] if s.phase == OVER else compute_legal(s)
        return s

    # ------------------------------------------------------ notation, JSON, pictures
    def action_to_str(self, action: int) -> str:
        """Move text of an action id."""
        return serialization.action_to_str(action)

    def str_to_action(self, text: str) -> int:
        """Action id of move text in the game's notation (``NotationError`` if malformed)."""
        return serialization.str_to_action(text)

    def to_json(self, state: LineState) -> dict[str, Any]:
        """The state in the position format (docs/rules/)."""
        return serialization.to_json(self, state)

    def from_json(self, obj: Any) -> LineState:
        """Read and validate a position, a dict or JSON text (``InvalidStateError`` if bad)."""
        return serialization.from_json(self, obj)

    def render(self, state: LineState, viewer: int | None = None) -> str:
        """Text picture of the table; ``viewer=None`` shows every hand."""
        return _render_text(self, state, viewer)

    def picture(self, state: LineState, viewer: int | None = None) -> Picture:
        """The table as a :class:`~cardenvs.core.picture.Picture` (for ``rgb_array``)."""
        return _picture(self, state, viewer)


# ------------------------------------------------------------------ state editing


def _place(s: LineState, c: int, r: int) -> bool:
    """Put ``c`` into row ``r``; whether the row became full."""
    row = s.rows[r]
    row.append(c)
    s.row_key[r] |= 1 << c
    return len(row) == ROW_LEN


def _swap(s: LineState, r: int, out: int, into: int) -> None:
    """Replace card ``out`` of row ``r`` by card ``into``."""
    row = s.rows[r]
    row.remove(out)
    row.append(into)
    s.row_key[r] = (s.row_key[r] & ~(1 << out)) | (1 << into)


def _from_hand(s: LineState, p: int, c: int) -> None:
    """Take card ``c`` out of seat ``p``'s hand; a joker played makes one known joker forgotten."""
    s.hands[p].remove(c)
    if c == JOKER and s.known[p]:
        s.known[p] -= 1


# -------------------------------------------------------------- determinisation


def _unseen_cards(view: LineView) -> list[int]:
    """The cards ``view``'s seat cannot place (ascending, jokers last); checks the count."""
    n, me = view.num_players, view.seat
    seen = [0] * 53
    for c in [*(c for row in view.rows for c in row), *view.hand, *view.discard]:
        seen[c] += 1
    if view.pending is not None:
        seen[view.pending] += 1
    seen[JOKER] += sum(view.known_jokers[q] for q in range(n) if q != me)
    unseen = [c for c in range(52) if not seen[c]] + [JOKER] * (4 - seen[JOKER])
    hidden = sum(view.hand_sizes[q] - view.known_jokers[q] for q in range(n) if q != me)
    if len(unseen) != view.draw_size + hidden:
        raise ValueError("the view's card counts do not add up to 56 cards")
    return unseen


def _public_state(view: LineView) -> LineState:
    """A state holding what ``view`` shows (no hands, no draw pile yet)."""
    s = LineState()
    for r, row in enumerate(view.rows):
        for c in row:
            _place(s, c, r)
    s.discard = list(view.discard)
    s.current = view.current
    s.bonus = view.bonus_turn
    s.phase = PHASE_INDEX[view.phase]
    s.pending = view.pending
    s.known = list(view.known_jokers)
    return s


def _moves_with(probe: LineState, c: int) -> bool:
    """Whether the player to move of ``probe`` would have a turn move holding only ``c``."""
    probe.hands[probe.current] = [c]
    return bool(turn_moves(probe))


def _forced_hand(s: LineState, view: LineView, unseen: list[int], rng: np.random.Generator) -> list[int]:
    """Indices into ``unseen`` of hidden cards for a player to move who was forced.

    The player drew or could not move at all, so their hidden cards give no play,
    upgrade or shift (in phase discard one of them, the drawn card, only needs to be
    unplayable).
    """
    cur = s.current
    probe = s.copy()
    probe.hands = [[] for _ in range(view.num_players)]
    probe.phase = TURN
    m = view.hand_sizes[cur] - view.known_jokers[cur]
    idx = [int(i) for i in rng.permutation(len(unseen))]
    fixed_idx: list[int] = []
    if s.phase == DISCARD and m:
        drawn = [i for i in idx if not playable_rows(s, unseen[i])]
        if drawn:
            fixed_idx.append(drawn[0])
    blank = [i for i in idx if i not in fixed_idx and not _moves_with(probe, unseen[i])]
    fixed_idx += blank[: m - len(fixed_idx)]
    return fixed_idx


def _deal(s: LineState, view: LineView, fixed: list[int], cards: list[int], rng: np.random.Generator) -> None:
    """Deal ``cards`` shuffled to the hidden hands (``fixed`` first to the player to move)
    and the rest to the draw pile; the viewer keeps their hand, known jokers stay."""
    order = rng.permutation(len(cards))
    pool = [cards[i] for i in order]
    hands = []
    for q in range(view.num_players):
        if q == view.seat:
            hands.append(list(view.hand))
            continue
        k = view.known_jokers[q]
        m = view.hand_sizes[q] - k
        if q == view.current and fixed:
            m -= len(fixed)
            hands.append([JOKER] * k + fixed + pool[:m])
        else:
            hands.append([JOKER] * k + pool[:m])
        del pool[:m]
    s.hands = hands
    s.draw = pool
