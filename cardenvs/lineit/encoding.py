"""Line-it's observation: the layout, written once, its one writer and its reader.

The layout is a :class:`~cardenvs.core.game.ObsLayout`: named fields of one flat float32
vector.  One writer puts every field in place through named views of one buffer;
:func:`observe` (the environment's path, every step) hands it the state itself and
:func:`encode` the position a View shows, so the two cannot disagree.  :func:`decode`
reads the fields back through the layout's named numpy views.

Seats are seat-relative in the observation (slot 0 = the viewer, slot 1 = the next
seat, ...); the writer rotates them with small tables per ``(seat count, viewer)``.

Speed (the environment observes every step): the writer works on memoryviews of a byte
buffer (an item write costs half a numpy scalar write) and copies the state's card
indexes in (``State.loc``, ``line_pos``, ``bet_loc``): one numpy ``take`` lays out the
1900 one-hot card locations, one the Bet counts, a slice copy the line positions, and
one ``astype`` gives the float32 result; only the per-seat fields are written one by
one.  Every entry of a position fits a signed byte (the largest is a score of at most
100 cards + 24 in tokens; negative scores are written as ``value & 0xFF``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cardenvs.core.game import ObsLayout, observation_vector

from .state import (
    BET_KINDS,
    BL_DISCARD,
    BL_HAND,
    BL_LINE,
    BL_MARKET,
    L_DISCARD,
    L_HAND,
    L_JACKPOT,
    L_LINE,
    L_MARKET,
    L_SCORED,
    MAX_PLAYERS,
    NUM_BLOC,
    NUM_LOC,
    NUM_NUMBERS,
    OVER,
    PHASES,
    TOKEN_VALUES,
    LineItView,
    State,
    colour_of,
    score,
)

LAYOUT = ObsLayout([
    ("num_players", 4, "one-hot seat count 2..5"),
    ("my_seat", 5, "one-hot absolute seat of the viewer"),
    ("phase", 5, "one-hot: pick, play, score, final, over"),
    ("current", 5, "one-hot seat-relative player to move (all 0 when over)"),
    ("first", 5, "one-hot seat-relative first player of the round"),
    ("picks_left", 1, "players still to act this round / final phase, current included"),
    ("played_hand", 1, "1 if the player to move played a hand card this turn"),
    ("deck_size", 1, "cards in the deck"),
    ("jackpot_size", 4, "cards under the red, blue, green, yellow jackpots"),
    ("card_location", NUM_NUMBERS * NUM_LOC,
     "per number card n=1..100 (block (n-1)*19) one-hot: deck, market, line s0..s4, "
     "hand s0..s4, jackpot (of its colour), scored s0..s4, discarded (s = seat-relative)"),
    ("card_line_pos", NUM_NUMBERS,
     "per number card: 1-based position in its line (Bet counted), 0 if not in a line"),
    ("bet_location", len(BET_KINDS) * NUM_BLOC,
     "per Bet kind B3,B4,B5 (block of 13) copies in: deck, market, line s0..s4, hand s0..s4, discarded"),
    ("line_bet_pos", MAX_PLAYERS, "per seat: 1-based position of the Bet in the line, 0 if none"),
    ("line_length", MAX_PLAYERS, "per seat: cards in the line (Bet included)"),
    ("line_numbers", MAX_PLAYERS, "per seat: number cards in the line"),
    ("line_direction", 3 * MAX_PLAYERS, "per seat one-hot: unset, ascending, descending"),
    ("line_last", MAX_PLAYERS, "per seat: last number card of the line, 0 if none"),
    ("line_colours", 4 * MAX_PLAYERS, "per seat: number cards of red, blue, green, yellow in the line"),
    ("bet_after", MAX_PLAYERS, "per seat: number cards placed after the line's Bet (0 if no Bet)"),
    ("hand_size", MAX_PLAYERS, "per seat: cards in hand"),
    ("scored_count", MAX_PLAYERS, "per seat: cards in the scoring pile"),
    ("tokens", len(TOKEN_VALUES) * MAX_PLAYERS, "per seat: count of bet tokens -5, -4, -3, +3, +4, +5"),
    ("score", MAX_PLAYERS, "per seat: scoring pile + token sum"),
])
OBS_FIELDS = LAYOUT.fields
OBS_SIZE = LAYOUT.size

#: the per-seat fields, in the order :func:`_write_seats` unpacks them
_SEAT_FIELDS = ("line_length", "line_numbers", "line_last", "line_colours", "line_bet_pos", "bet_after",
                "line_direction", "hand_size", "scored_count", "tokens", "score")
#: the slot of each line direction (unset, ascending, descending) in ``line_direction``
_DIRECTION_SLOT = {0: 0, 1: 1, -1: 2}
_TOKEN_SLOT = {t: i for i, t in enumerate(TOKEN_VALUES)}
_TABLES = [(n, v) for n in range(2, MAX_PLAYERS + 1) for v in range(n)]


def _relative(code: int, bases: tuple[int, ...], n: int, viewer: int) -> int:
    """A location code with its absolute seat (if it names one of the ``n``) made relative
    to ``viewer``; the slots of absent seats stay as they are."""
    for base in bases:
        if base <= code < base + n:
            return base + (code - base - viewer) % n
    return code


#: per ``(n, viewer)``: the seat-relative slot of each seat
_SLOTS = {(n, v): tuple((s - v) % n for s in range(n)) for n, v in _TABLES}
#: per ``(n, viewer)``: the absolute location code of each seat-relative one
_ABSOLUTE = {(n, v): [_relative(code, (L_LINE, L_HAND, L_SCORED), n, n - v) for code in range(NUM_LOC)]
             for n, v in _TABLES}


# ------------------------------------------------------------------------------ write
class _Table:
    """What the writer needs per ``(seat count, viewer)``: the bytes of the first two
    fields (the ``num_players`` and ``my_seat`` one-hots), the one-hot ``card_location``
    row of each absolute location code, the entry of ``State.bet_loc`` behind each
    ``bet_location`` entry, and per seat (in seat order) its slot's offsets
    ``(r, 3r, 4r, 6r)`` in the per-seat fields of width 1, 3, 4 and 6."""

    __slots__ = ("head", "location_rows", "bet_locations", "slots")

    def __init__(self, n: int, v: int) -> None:
        head = np.zeros(LAYOUT.index["my_seat"].stop, np.int8)
        head[LAYOUT.start("num_players") + n - 2] = head[LAYOUT.start("my_seat") + v] = 1
        self.head = head.tobytes()
        codes = [_relative(code, (L_LINE, L_HAND, L_SCORED), n, v) for code in range(NUM_LOC)]
        self.location_rows = np.eye(NUM_LOC, dtype=np.int8)[codes]
        absolute = {_relative(code, (BL_LINE, BL_HAND), n, v): code for code in range(NUM_BLOC)}
        self.bet_locations = np.array([k * NUM_BLOC + absolute[code] for k in range(len(BET_KINDS))
                                       for code in range(NUM_BLOC)], np.intp)
        self.slots = tuple((r, 3 * r, 4 * r, 6 * r) for r in _SLOTS[(n, v)])


_WRITE_TABLES = {(n, v): _Table(n, v) for n, v in _TABLES}


class _Writer:
    """The buffer every observation is written in, and its named views (memoryviews of
    its bytes); ``locations`` and ``bet_locations`` are numpy views of two fields, to
    ``take`` into."""

    def __init__(self) -> None:
        self.raw = bytearray(OBS_SIZE)
        self.zeros = bytes(OBS_SIZE)
        self.ints = np.frombuffer(self.raw, np.int8)
        mem = self.all = memoryview(self.raw)
        self.fields = {f.name: mem[f.start:f.stop] for f in OBS_FIELDS}
        self.head = mem[:LAYOUT.index["my_seat"].stop]
        self.seat_fields = tuple(self.fields[name] for name in _SEAT_FIELDS)
        loc = LAYOUT.index["card_location"]
        self.locations = self.ints[loc.start:loc.stop].reshape(NUM_NUMBERS, NUM_LOC)
        bets = LAYOUT.index["bet_location"]
        self.bet_locations = self.ints[bets.start:bets.stop].view(np.uint8)
        self.codes = np.zeros(NUM_NUMBERS + 1, np.uint8)  # a copy of ``State.loc`` to index with
        self.codes_in = self.codes.data
        self.numbers = self.codes[1:]


_W = _Writer()


def _write(st: State, viewer: int, deck_size: int) -> np.ndarray:
    """The observation of position ``st`` for seat ``viewer``: every field written by name.

    Reads everything of ``st`` but the deck, whose size is given.
    """
    w = _W
    f = w.fields
    table = _WRITE_TABLES[(st.n, viewer)]
    w.all[:] = w.zeros
    w.head[:] = table.head
    n = st.n
    f["phase"][st.phase] = 1
    if st.phase != OVER:
        f["current"][(st.current - viewer) % n] = 1
    f["first"][(st.first - viewer) % n] = 1
    f["picks_left"][0] = st.picks_left
    f["played_hand"][0] = st.played_hand
    f["deck_size"][0] = deck_size
    jackpots, (red, blue, green, yellow) = f["jackpot_size"], st.jackpots
    jackpots[0], jackpots[1], jackpots[2], jackpots[3] = len(red), len(blue), len(green), len(yellow)
    w.codes_in[:] = st.loc
    table.location_rows.take(w.numbers, 0, w.locations, "clip")
    f["card_line_pos"][:] = memoryview(st.line_pos)[1:]
    np.frombuffer(st.bet_loc, np.uint8).take(table.bet_locations, 0, w.bet_locations, "clip")
    _write_seats(w, st, table.slots)
    return w.ints.astype(np.float32)


def _write_seats(w: _Writer, st: State, slots: tuple[tuple[int, int, int, int], ...]) -> None:
    """Every seat's fields in its seat-relative slot (zeros stay unwritten)."""
    (length_f, numbers, last, colours, bet_pos, after, direction, hand, scored_f, tokens,
     score_f) = w.seat_fields
    for (r, r3, r4, r6), ls, line, h, sc, toks in zip(slots, st.stats, st.lines, st.hands, st.scored,
                                                      st.tokens):
        if line:
            length_f[r] = len(line)
            numbers[r] = ls.num
            last[r] = ls.last
            colours[r4:r4 + 4] = ls.col
            if ls.bet:
                bet_pos[r] = ls.betpos
                after[r] = ls.after
        direction[r3 + _DIRECTION_SLOT[ls.dir]] = 1
        if h:
            hand[r] = len(h)
        if sc:
            scored_f[r] = len(sc)
        for t in toks:
            tokens[r6 + _TOKEN_SLOT[t]] += 1
        if sc or toks:
            score_f[r] = score(sc, toks) & 0xFF


def observe(state: State, player: int) -> np.ndarray:
    """``encode(view(state, player))``, written straight from the state (the env's path)."""
    return _write(state, player, len(state.deck))


def encode(view: LineItView) -> np.ndarray:
    """The observation of a view: the same writer, on the position the view shows (the
    writer needs the deck's size only, so the position is built without the deck)."""
    return _write(State.of_view(view, []), view.seat, view.deck_size)


# ------------------------------------------------------------------------------ read
def _one_hot(field: np.ndarray) -> int:
    """The index of a one-hot field's 1."""
    return int(field.argmax())


def decode(observation: Any) -> LineItView:
    """The view an observation encodes (inverse of :func:`encode`).

    Accepts the vector or the dict ``{"observation", "action_mask"}`` of ``env.last()``.
    """
    o = np.rint(np.asarray(observation_vector(observation), dtype=np.float64)).astype(np.int64)
    if o.shape != (OBS_SIZE,):
        raise ValueError(f"a Line-it observation has shape ({OBS_SIZE},), got {o.shape}")
    v = LAYOUT.views(o)
    n = _one_hot(v["num_players"]) + 2
    me = _one_hot(v["my_seat"])
    phase = _one_hot(v["phase"])
    piles = _piles(v, n, me)
    lines = [[c for _, c in sorted(piles[L_LINE + s])] for s in range(n)]
    jackpots: list[list[int]] = [[] for _ in range(4)]
    for c in piles[L_JACKPOT]:
        jackpots[colour_of(c)].append(c)
    tokens = v["tokens"].reshape(MAX_PLAYERS, len(TOKEN_VALUES)).tolist()
    slots = _SLOTS[(n, me)]
    return LineItView(
        num_players=n, seat=me, deck_size=int(v["deck_size"][0]),
        market=tuple(sorted(piles[L_MARKET])),
        lines=tuple(tuple(x) for x in lines),
        hands=tuple(tuple(sorted(piles[L_HAND + s])) for s in range(n)),
        jackpots=tuple(tuple(sorted(x)) for x in jackpots),
        scored=tuple(tuple(sorted(piles[L_SCORED + s])) for s in range(n)),
        tokens=tuple(tuple(t for t, k in zip(TOKEN_VALUES, tokens[slots[s]]) for _ in range(k))
                     for s in range(n)),
        discarded=tuple(sorted(piles[L_DISCARD])),
        first=(_one_hot(v["first"]) + me) % n,
        current=-1 if phase == OVER else (_one_hot(v["current"]) + me) % n,
        phase=PHASES[phase], picks_left=int(v["picks_left"][0]), played_hand=bool(v["played_hand"][0]),
    )


def _piles(v: dict[str, np.ndarray], n: int, me: int) -> list[list[Any]]:
    """The face-up cards of the observation by absolute location code (``L_*``); a
    line's cards come as (position, card)."""
    piles: list[list[Any]] = [[] for _ in range(NUM_LOC)]
    absolute = _ABSOLUTE[(n, me)]
    pos = v["card_line_pos"].tolist()
    codes = v["card_location"].reshape(NUM_NUMBERS, NUM_LOC).argmax(axis=1)
    for i, code in zip(np.flatnonzero(codes).tolist(), codes[codes > 0].tolist()):  # all but the deck
        a = absolute[code]
        piles[a].append((pos[i], i + 1) if L_LINE <= a < L_LINE + MAX_PLAYERS else i + 1)
    bets = v["bet_location"].reshape(len(BET_KINDS), NUM_BLOC).tolist()
    bet_pos = v["line_bet_pos"].tolist()
    places = {BL_MARKET: L_MARKET, BL_DISCARD: L_DISCARD}  # Bet code -> number-card code of the place
    for r in range(n):
        s = (r + me) % n
        places[BL_HAND + r] = L_HAND + s
        for k, c in enumerate(BET_KINDS):
            if bets[k][BL_LINE + r]:
                piles[L_LINE + s].append((bet_pos[r], c))
    for k, c in enumerate(BET_KINDS):
        for code, place in places.items():
            piles[place] += [c] * bets[k][code]
    return piles
