"""Line-it (RULES.md section 2): the legality core.

Cards are small ints: number cards are ``1..100`` (their own value), the Bet kinds are
``101`` (``B3``), ``102`` (``B4``) and ``103`` (``B5``); the two copies of a Bet kind are
identical and share one int.  A card's *index* ``card - 1`` (``0..102``) numbers the
action ids, which name cards, never market slots, so an id means the same in every state.

Action ids (``NUM_ACTIONS = 414``):

* ``0..102``    ``pick <card> line``
* ``103..205``  ``pick <card> hand``
* ``206..308``  ``pick <card> new``
* ``309..411``  ``play <card>``
* ``412``       ``score``
* ``413``       ``pass``

Rule choices where the text leaves room (also in the env docstring):

* A step whose only legal action would be ``pass`` is skipped (RULES.md Decision): the
  play step when no hand card fits the line, the score step when the line is empty, and
  in the final phase a player whose hand holds no card that fits.  The pick step is never
  skipped (it is compulsory and always has a legal pick).
* ``pick <c> new`` is legal only when ``c`` fits neither the line nor the hand; an empty
  line takes any card, so ``new`` never applies to it.
* A Bet fits a line holding no Bet (whatever its numbers); a second Bet never fits.  Any
  card, Bet included, may go to a hand holding fewer than 2 cards.
* ``score`` ends the turn (it is the last step).
* A card that starts a line through ``new`` counts 1 for its colour (no claim).
* The final phase starts at the start of a round that cannot fill its market, so its
  first player is that round's (already moved one seat on).
* Final phase: ``picks_left`` counts the seats still to act in the final phase (current
  included, skipped seats counted until passed over), so ``current`` is
  ``(first + n - picks_left) % n`` in every phase but ``over``.  A final ``play`` ends that
  player's final turn.  If nobody can play, every line is scored at once.  Lines are scored
  at the end in seat order 0..n-1 (order does not matter).
* At ``over``: ``current`` is ``null`` in JSON (-1 in the API), ``picks_left`` 0, every line
  empty, market and deck empty; hand cards stay in the hands (worth nothing).
* ``played_hand`` is true only in the ``score`` step of a turn in which a hand card was
  played (the play step happens at most once, so it is informational).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from cardenvs.core.game import (
    Game,
    InvalidStateError,
    NotationError,
    layout,
)

# ----------------------------------------------------------------------------- cards
NUM_NUMBERS = 100
B3, B4, B5 = 101, 102, 103
BET_KINDS = (B3, B4, B5)
NUM_KINDS = 103  # distinct card kinds (ids 1..103)
DECK: tuple[int, ...] = tuple(range(1, 101)) + (B3, B3, B4, B4, B5, B5)
COLOUR_KEYS = ("red", "blue", "green", "yellow")
COLOUR_SYMBOLS = ("heart", "diamond", "leaf", "star")
MAX_PLAYERS = 5

# ----------------------------------------------------------------------------- actions
A_LINE, A_HAND, A_NEW, A_PLAY = 0, 103, 206, 309
A_SCORE, A_PASS = 412, 413
NUM_ACTIONS = 414

PHASES = ("pick", "play", "score", "final", "over")
PICK, PLAY, SCORE, FINAL, OVER = range(5)

# absolute location codes of a number card (kept in ``State.loc``)
L_DECK, L_MARKET, L_LINE, L_HAND, L_JACKPOT, L_SCORED, L_DISCARD = 0, 1, 2, 7, 12, 13, 18
NUM_LOC = 19
# location categories of Bet cards (counts kept in ``State.absv``, 13 per kind)
BL_DECK, BL_MARKET, BL_LINE, BL_HAND, BL_DISCARD = 0, 1, 2, 7, 12
NUM_BLOC = 13

TOKEN_VALUES = (-5, -4, -3, 3, 4, 5)


def colour_of(card: int) -> int:
    """Colour index of a number card: 0 red, 1 blue, 2 green, 3 yellow (n mod 4 = 1,2,3,0)."""
    return (card - 1) & 3


def card_text(card: int) -> str:
    """Notation of a card: ``57`` or ``B4``."""
    return f"B{card - 98}" if card > NUM_NUMBERS else str(card)


def parse_card(text: str) -> int:
    """Card of notation text (``57``, ``B4``); :class:`NotationError` when malformed."""
    t = text.strip().upper()
    if t in ("B3", "B4", "B5"):
        return int(t[1]) + 98
    if t.isdigit() and not (len(t) > 1 and t[0] == "0"):
        v = int(t)
        if 1 <= v <= NUM_NUMBERS:
            return v
    raise NotationError(f"{text!r} is not a Line-it card: write a number 1..100 or B3, B4, B5")


def _json_card(x: Any, where: str) -> int:
    """Card of a JSON item (int 1..100 or "B3"/"B4"/"B5")."""
    if isinstance(x, bool):
        raise InvalidStateError(f"{where}: {x!r} is not a card (ints 1..100 or 'B3', 'B4', 'B5')")
    if isinstance(x, (int, np.integer)):
        if 1 <= int(x) <= NUM_NUMBERS:
            return int(x)
    elif isinstance(x, str) and x in ("B3", "B4", "B5"):
        return int(x[1]) + 98
    raise InvalidStateError(f"{where}: {x!r} is not a card (ints 1..100 or 'B3', 'B4', 'B5')")


def _jcard(c: int) -> int | str:
    return f"B{c - 98}" if c > NUM_NUMBERS else c


# ----------------------------------------------------------------------------- state
class State:
    """Full truth of a Line-it game (mutable; the game advances it in place).

    The lists are the rules' data.  Caches kept in step by every move, for fast legality
    and observations: ``loc`` (absolute location code of each number card), the per-seat
    line statistics (``lnum``, ``llast``, ``ldir``, ``lbet``, ``lbetpos``, ``lbetbefore``,
    ``lcol``), and ``absv``: the observation as seat 0 would see it (card blocks kept
    exact on every move; per-seat blocks rewritten lazily for the seats in ``dirty``).
    """

    __slots__ = (
        "n", "deck", "market", "lines", "hands", "jackpots", "scored", "tokens",
        "discarded", "first", "current", "phase", "picks_left", "played_hand",
        "loc", "absv", "dirty", "lnum", "llast", "ldir", "lbet", "lbetpos",
        "lbetbefore", "lcol", "_legal",
    )

    def __init__(self, n: int) -> None:
        self.n = n
        self.deck: list[int] = []
        self.market: list[int] = []
        self.lines: list[list[int]] = [[] for _ in range(n)]
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.jackpots: list[list[int]] = [[] for _ in range(4)]
        self.scored: list[list[int]] = [[] for _ in range(n)]
        self.tokens: list[list[int]] = [[] for _ in range(n)]
        self.discarded: list[int] = []
        self.first = 0
        self.current = 0
        self.phase = PICK
        self.picks_left = n
        self.played_hand = False
        self.loc = bytearray(NUM_NUMBERS + 1)  # index = card; [0] unused
        self.absv = np.zeros(OBS_SIZE + 1, dtype=np.float32)  # last = padding 0
        self.dirty = (1 << n) - 1
        self.lnum = [0] * n
        self.llast = [0] * n
        self.ldir = [0] * n
        self.lbet = [0] * n
        self.lbetpos = [0] * n
        self.lbetbefore = [0] * n
        self.lcol = [[0, 0, 0, 0] for _ in range(n)]
        self._legal: list[int] | None = None

    def clone(self) -> State:
        """An independent copy."""
        s = State.__new__(State)
        s.n = self.n
        s.deck = self.deck[:]
        s.market = self.market[:]
        s.lines = [x[:] for x in self.lines]
        s.hands = [x[:] for x in self.hands]
        s.jackpots = [x[:] for x in self.jackpots]
        s.scored = [x[:] for x in self.scored]
        s.tokens = [x[:] for x in self.tokens]
        s.discarded = self.discarded[:]
        s.first = self.first
        s.current = self.current
        s.phase = self.phase
        s.picks_left = self.picks_left
        s.played_hand = self.played_hand
        s.loc = bytearray(self.loc)
        s.absv = self.absv.copy()
        s.dirty = self.dirty
        s.lnum = self.lnum[:]
        s.llast = self.llast[:]
        s.ldir = self.ldir[:]
        s.lbet = self.lbet[:]
        s.lbetpos = self.lbetpos[:]
        s.lbetbefore = self.lbetbefore[:]
        s.lcol = [x[:] for x in self.lcol]
        s._legal = self._legal
        return s


@dataclass(frozen=True)
class LineItView:
    """What one player knows: everything but the deck order (seats are absolute).

    Unordered piles are sorted tuples; lines keep their order.  ``current`` is -1 at the end.
    """

    num_players: int
    seat: int
    deck_size: int
    market: tuple[int, ...]
    lines: tuple[tuple[int, ...], ...]
    hands: tuple[tuple[int, ...], ...]
    jackpots: tuple[tuple[int, ...], ...]
    scored: tuple[tuple[int, ...], ...]
    tokens: tuple[tuple[int, ...], ...]
    discarded: tuple[int, ...]
    first: int
    current: int
    phase: str
    picks_left: int
    played_hand: bool

    def deck_cards(self) -> list[int]:
        """The cards of the deck (known as a set: every other card is face up)."""
        rest = list(DECK)
        for pile in (self.market, self.discarded, *self.lines, *self.hands, *self.jackpots,
                     *self.scored):
            for c in pile:
                rest.remove(c)
        return rest


# ----------------------------------------------------------------------- observation
S5 = MAX_PLAYERS
OBS_FIELDS = layout([
    ("num_players", 4, "one-hot seat count 2..5"),
    ("my_seat", 5, "one-hot absolute seat of the viewer"),
    ("phase", 5, "one-hot: pick, play, score, final, over"),
    ("current", 5, "one-hot seat-relative player to move (all 0 when over)"),
    ("first", 5, "one-hot seat-relative first player of the round"),
    ("picks_left", 1, "players still to act this round / final phase, current included"),
    ("played_hand", 1, "1 if the player to move played a hand card this turn"),
    ("deck_size", 1, "cards in the deck"),
    ("jackpot_size", 4, "cards under the red, blue, green, yellow jackpots"),
    ("card_location", 100 * NUM_LOC,
     "per number card n=1..100 (block (n-1)*19) one-hot: deck, market, line s0..s4, "
     "hand s0..s4, jackpot (of its colour), scored s0..s4, discarded (s = seat-relative)"),
    ("card_line_pos", 100, "per number card: 1-based position in its line (Bet counted), 0 if not in a line"),
    ("bet_location", 3 * NUM_BLOC,
     "per Bet kind B3,B4,B5 (block of 13) copies in: deck, market, line s0..s4, hand s0..s4, discarded"),
    ("line_bet_pos", 5, "per seat: 1-based position of the Bet in the line, 0 if none"),
    ("line_length", 5, "per seat: cards in the line (Bet included)"),
    ("line_numbers", 5, "per seat: number cards in the line"),
    ("line_direction", 15, "per seat one-hot: unset, ascending, descending"),
    ("line_last", 5, "per seat: last number card of the line, 0 if none"),
    ("line_colours", 20, "per seat: number cards of red, blue, green, yellow in the line"),
    ("bet_after", 5, "per seat: number cards placed after the line's Bet (0 if no Bet)"),
    ("hand_size", 5, "per seat: cards in hand"),
    ("scored_count", 5, "per seat: cards in the scoring pile"),
    ("tokens", 30, "per seat: count of bet tokens -5, -4, -3, +3, +4, +5"),
    ("score", 5, "per seat: scoring pile + token sum"),
])
_F = {f.name: f for f in OBS_FIELDS}
OBS_SIZE = OBS_FIELDS[-1].stop

_O_NP = _F["num_players"].start
_O_SEAT = _F["my_seat"].start
_O_PHASE = _F["phase"].start
_O_CUR = _F["current"].start
_O_FIRST = _F["first"].start
_O_PICKS = _F["picks_left"].start
_O_PLAYED = _F["played_hand"].start
_O_DECK = _F["deck_size"].start
_O_LOC = _F["card_location"].start
_O_POS = _F["card_line_pos"].start
_O_BET = _F["bet_location"].start
_O_LBP = _F["line_bet_pos"].start
_O_LLEN = _F["line_length"].start
_O_LNUM = _F["line_numbers"].start
_O_LDIR = _F["line_direction"].start
_O_LLAST = _F["line_last"].start
_O_LCOL = _F["line_colours"].start
_O_BAFT = _F["bet_after"].start
_O_JACK = _F["jackpot_size"].start
_O_HAND = _F["hand_size"].start
_O_SCO = _F["scored_count"].start
_O_TOK = _F["tokens"].start
_O_SCORE = _F["score"].start



_PER_SEAT = (("line_bet_pos", 1), ("line_length", 1), ("line_numbers", 1),
             ("line_direction", 3), ("line_last", 1), ("line_colours", 4), ("bet_after", 1),
             ("hand_size", 1), ("scored_count", 1), ("tokens", 6), ("score", 1))


def _perm_tables() -> dict[tuple[int, int], np.ndarray]:
    """Per (n, viewer): obs index -> index in the seat-0 vector ``State.absv``.

    Fields before ``card_location`` map to the padding 0 (written directly by observe).
    """
    out = {}
    pad = OBS_SIZE
    for n in range(2, MAX_PLAYERS + 1):
        for v in range(n):
            perm = np.full(OBS_SIZE, pad, dtype=np.intp)

            def seat_code(rc: int, bases: tuple[int, ...], v: int = v, n: int = n) -> int:
                for base in bases:
                    if base <= rc < base + MAX_PLAYERS:
                        r = rc - base
                        return base + (r + v) % n if r < n else -1
                return rc

            for i in range(NUM_NUMBERS):
                for rc in range(NUM_LOC):
                    ac = seat_code(rc, (L_LINE, L_HAND, L_SCORED))
                    if ac >= 0:
                        perm[_O_LOC + i * NUM_LOC + rc] = _O_LOC + i * NUM_LOC + ac
            perm[_O_POS:_O_POS + NUM_NUMBERS] = np.arange(_O_POS, _O_POS + NUM_NUMBERS)
            for k in range(3):
                for rc in range(NUM_BLOC):
                    ac = seat_code(rc, (BL_LINE, BL_HAND))
                    if ac >= 0:
                        perm[_O_BET + k * NUM_BLOC + rc] = _O_BET + k * NUM_BLOC + ac
            for name, w in _PER_SEAT:
                f = _F[name]
                assert f.size == w * MAX_PLAYERS
                for r in range(n):
                    for j in range(w):
                        perm[f.start + w * r + j] = f.start + w * ((r + v) % n) + j
            out[(n, v)] = perm
    return out


_PERM = _perm_tables()
_LOCIDX = [0] + [_O_LOC + i * NUM_LOC for i in range(NUM_NUMBERS)]


def _line_stats(line: list[int] | tuple[int, ...]) -> tuple[int, int, int, int, int, int, list[int]]:
    """(numbers, last, direction, bet kind card or 0, bet pos, numbers before bet, colours)."""
    num = last = d = bet = betpos = before = 0
    col = [0, 0, 0, 0]
    for i, c in enumerate(line):
        if c > NUM_NUMBERS:
            bet, betpos, before = c, i + 1, num
            continue
        num += 1
        if num == 2:
            d = 1 if c > last else -1
        last = c
        col[(c - 1) & 3] += 1
    return num, last, d, bet, betpos, before, col


def _sync(st: State) -> None:
    """Recompute every cache of ``st`` (``loc``, line statistics, ``absv``) from its lists."""
    n = st.n
    av = st.absv
    av[:] = 0
    loc = st.loc

    def put(c: int, code: int, bcode: int) -> None:
        if c > NUM_NUMBERS:
            av[_O_BET + (c - 101) * NUM_BLOC + bcode] += 1
        else:
            loc[c] = code
            av[_LOCIDX[c] + code] = 1

    for c in st.deck:
        put(c, L_DECK, BL_DECK)
    for c in st.market:
        put(c, L_MARKET, BL_MARKET)
    for c in st.discarded:
        put(c, L_DISCARD, BL_DISCARD)
    for pile in st.jackpots:
        for c in pile:
            put(c, L_JACKPOT, -1)
    for s in range(n):
        for i, c in enumerate(st.lines[s]):
            put(c, L_LINE + s, BL_LINE + s)
            if c <= NUM_NUMBERS:
                av[_O_POS + c - 1] = i + 1
        for c in st.hands[s]:
            put(c, L_HAND + s, BL_HAND + s)
        for c in st.scored[s]:
            put(c, L_SCORED + s, -1)
        (st.lnum[s], st.llast[s], st.ldir[s], st.lbet[s], st.lbetpos[s],
         st.lbetbefore[s], st.lcol[s]) = _line_stats(st.lines[s])
    st.dirty = (1 << n) - 1
    st._legal = None


def _write_seats(st: State) -> None:
    """Rewrite the per-seat blocks of ``absv`` (absolute seats) for the seats in ``dirty``."""
    av = st.absv
    d = st.dirty
    for s in range(st.n):
        if not d >> s & 1:
            continue
        num = st.lnum[s]
        toks = st.tokens[s]
        sc = len(st.scored[s])
        av[_SEAT_ROW[s]] = [
            st.lbetpos[s], len(st.lines[s]), num, *_DIRS[st.ldir[s]], st.llast[s], *st.lcol[s],
            num - st.lbetbefore[s] if st.lbet[s] else 0, len(st.hands[s]), sc,
            *([toks.count(t) for t in TOKEN_VALUES] if toks else _NO_TOKENS), sc + sum(toks),
        ]
    st.dirty = 0


_DIRS = {0: (1, 0, 0), 1: (0, 1, 0), -1: (0, 0, 1)}
_NO_TOKENS = (0,) * 6
#: absv indices of one seat's row, in the order _write_seats lists the values
_SEAT_ROW = [
    np.array([_O_LBP + s, _O_LLEN + s, _O_LNUM + s, *range(_O_LDIR + 3 * s, _O_LDIR + 3 * s + 3),
              _O_LLAST + s, *range(_O_LCOL + 4 * s, _O_LCOL + 4 * s + 4), _O_BAFT + s,
              _O_HAND + s, _O_SCO + s, *range(_O_TOK + 6 * s, _O_TOK + 6 * s + 6), _O_SCORE + s],
             dtype=np.intp)
    for s in range(MAX_PLAYERS)
]


# ------------------------------------------------------------------------------ game
class LineItGame(Game[State, LineItView]):
    """Line-it for 2..5 players (RULES.md section 2)."""

    name = "lineit"
    env_name = "lineit_v0"
    min_players = 2
    max_players = 5
    default_players = 2
    OPTIONS = {}
    num_actions = NUM_ACTIONS
    OBS_FIELDS = OBS_FIELDS

    # ----------------------------------------------------------------- setup
    def new_state(self, rng: np.random.Generator) -> State:
        """Shuffle the 106 cards with ``rng`` and reveal round 1's market."""
        st = State(self.num_players)
        order = rng.permutation(len(DECK))
        st.deck = [DECK[i] for i in order]
        st.first = 0
        _sync(st)
        self._start_round(st)
        return st

    def clone(self, state: State) -> State:
        """An independent copy of ``state``."""
        return state.clone()

    def current_player(self, state: State) -> int:
        """Seat to move, -1 when over."""
        return -1 if state.phase == OVER else state.current

    def is_terminal(self, state: State) -> bool:
        """Whether the game is over."""
        return state.phase == OVER

    # --------------------------------------------------------------- legality
    @staticmethod
    def _fits(st: State, seat: int, c: int) -> bool:
        if c > NUM_NUMBERS:
            return not st.lbet[seat]
        if st.lnum[seat] < 2:
            return True
        return c > st.llast[seat] if st.ldir[seat] > 0 else c < st.llast[seat]

    def _hand_fits(self, st: State, seat: int) -> bool:
        fits = self._fits
        return any(fits(st, seat, c) for c in st.hands[seat])

    def legal_actions(self, state: State) -> list[int]:
        """Legal ids of the player to move, ascending (cached on the state)."""
        acts = state._legal
        if acts is not None:
            return acts
        st, ph = state, state.phase
        seat = st.current
        fits = self._fits
        if ph == PICK:
            room = len(st.hands[seat]) < 2
            line_ids, hand_ids, new_ids = [], [], []
            for c in set(st.market):
                f = fits(st, seat, c)
                if f:
                    line_ids.append(c - 1)
                if room:
                    hand_ids.append(A_HAND + c - 1)
                elif not f:
                    new_ids.append(A_NEW + c - 1)
            acts = sorted(line_ids) + sorted(hand_ids) + sorted(new_ids)
        elif ph in (PLAY, FINAL):
            acts = sorted({A_PLAY + c - 1 for c in st.hands[seat] if fits(st, seat, c)})
            acts.append(A_PASS)
        elif ph == SCORE:
            acts = [A_SCORE, A_PASS]
        else:
            acts = []
        state._legal = acts
        return acts

    def legal_mask(self, state: State) -> np.ndarray:
        """int8 mask of the legal ids."""
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        mask[self.legal_actions(state)] = 1
        return mask

    # ------------------------------------------------------------ card moves
    def _to_line(self, st: State, seat: int, c: int) -> None:
        """Append ``c`` to ``seat``'s line, claiming a jackpot on a colour's third card.

        The card's old place in ``absv`` must already be cleared (numbers: ``loc`` still
        names it and is moved here; Bets: the caller took the count off).
        """
        line = st.lines[seat]
        line.append(c)
        av = st.absv
        if c > NUM_NUMBERS:
            st.lbet[seat] = c
            st.lbetpos[seat] = len(line)
            st.lbetbefore[seat] = st.lnum[seat]
            av[_O_BET + (c - 101) * NUM_BLOC + BL_LINE + seat] += 1
            return
        b = _LOCIDX[c]
        av[b + st.loc[c]] = 0
        av[b + L_LINE + seat] = 1
        st.loc[c] = L_LINE + seat
        av[_O_POS + c - 1] = len(line)
        num = st.lnum[seat] + 1
        st.lnum[seat] = num
        if num == 2:
            st.ldir[seat] = 1 if c > st.llast[seat] else -1
        st.llast[seat] = c
        col = (c - 1) & 3
        cc = st.lcol[seat]
        cc[col] += 1
        if cc[col] == 3:
            pile = st.jackpots[col]
            if pile:
                code = L_SCORED + seat
                loc = st.loc
                for x in pile:
                    b = _LOCIDX[x]
                    av[b + L_JACKPOT] = 0
                    av[b + code] = 1
                    loc[x] = code
                st.scored[seat].extend(pile)
                st.jackpots[col] = []

    def _score_line(self, st: State, seat: int) -> None:
        """Settle the Bet, discard the first three number cards, bank the rest."""
        line = st.lines[seat]
        bet = st.lbet[seat]
        av = st.absv
        if bet:
            v = bet - 98
            after = st.lnum[seat] - st.lbetbefore[seat]
            st.tokens[seat].append(v if after >= v else -v)
            k = _O_BET + (bet - 101) * NUM_BLOC
            av[k + BL_LINE + seat] -= 1
            av[k + BL_DISCARD] += 1
            st.discarded.append(bet)
        loc = st.loc
        i = 0
        sc = st.scored[seat]
        code = L_SCORED + seat
        old = L_LINE + seat
        for c in line:
            if c > NUM_NUMBERS:
                continue
            av[_O_POS + c - 1] = 0
            b = _LOCIDX[c]
            av[b + old] = 0
            if i < 3:
                loc[c] = L_DISCARD
                av[b + L_DISCARD] = 1
                st.discarded.append(c)
            else:
                loc[c] = code
                av[b + code] = 1
                sc.append(c)
            i += 1
        st.lines[seat] = []
        st.lnum[seat] = st.llast[seat] = st.ldir[seat] = 0
        st.lbet[seat] = st.lbetpos[seat] = st.lbetbefore[seat] = 0
        st.lcol[seat] = [0, 0, 0, 0]

    def _leftovers(self, st: State, cards: list[int], from_code: int) -> None:
        """Cards leaving market or deck: numbers under their jackpot, Bets discarded."""
        loc = st.loc
        av = st.absv
        for c in cards:
            if c > NUM_NUMBERS:
                k = _O_BET + (c - 101) * NUM_BLOC
                av[k + from_code] -= 1
                av[k + BL_DISCARD] += 1
                st.discarded.append(c)
            else:
                b = _LOCIDX[c]
                av[b + loc[c]] = 0
                av[b + L_JACKPOT] = 1
                loc[c] = L_JACKPOT
                st.jackpots[(c - 1) & 3].append(c)

    def _start_round(self, st: State) -> None:
        n = st.n
        st.played_hand = False
        st.current = st.first
        st.picks_left = n
        if len(st.deck) < n + 2:
            self._leftovers(st, st.deck, BL_DECK)
            st.deck = []
            st.phase = FINAL
            self._final_skip(st)
            return
        m = st.deck[: n + 2]
        st.deck = st.deck[n + 2:]
        st.market = m
        loc = st.loc
        av = st.absv
        for c in m:
            if c > NUM_NUMBERS:
                k = _O_BET + (c - 101) * NUM_BLOC
                av[k + BL_DECK] -= 1
                av[k + BL_MARKET] += 1
            else:
                b = _LOCIDX[c]
                av[b + L_DECK] = 0
                av[b + L_MARKET] = 1
                loc[c] = L_MARKET
        st.phase = PICK

    def _end_turn(self, st: State) -> None:
        st.played_hand = False
        st.picks_left -= 1
        if st.picks_left == 0:
            self._leftovers(st, st.market, BL_MARKET)
            st.market = []
            st.first = (st.first + 1) % st.n
            self._start_round(st)
        else:
            st.current = (st.current + 1) % st.n
            st.phase = PICK

    def _after_play_step(self, st: State) -> None:
        """Enter the score step, or end the turn when the line is empty (pass only)."""
        if st.lines[st.current]:
            st.phase = SCORE
        else:
            self._end_turn(st)

    def _final_skip(self, st: State) -> None:
        """Skip final-phase seats that could only pass; score every line at the end."""
        n = st.n
        while st.picks_left > 0 and not self._hand_fits(st, st.current):
            st.picks_left -= 1
            st.current = (st.current + 1) % n
        if st.picks_left == 0:
            for s in range(n):
                if st.lines[s]:
                    self._score_line(st, s)
            st.dirty = (1 << n) - 1
            st.phase = OVER
            st.current = -1

    # ------------------------------------------------------------------ apply
    def apply(self, state: State, action: int, rng: np.random.Generator | None = None) -> None:
        """Advance ``state`` by ``action`` (checked first; illegal raises, state unchanged)."""
        a = self.check_action(state, action)
        st = state
        st._legal = None
        seat = st.current
        ph = st.phase
        st.dirty |= 1 << seat
        if a < A_PLAY:  # pick
            mode, c = divmod(a, 103)
            c += 1
            st.market.remove(c)
            if c > NUM_NUMBERS:
                st.absv[_O_BET + (c - 101) * NUM_BLOC + BL_MARKET] -= 1
            if mode == 0:
                self._to_line(st, seat, c)
            elif mode == 1:
                st.hands[seat].append(c)
                if c > NUM_NUMBERS:
                    st.absv[_O_BET + (c - 101) * NUM_BLOC + BL_HAND + seat] += 1
                else:
                    b = _LOCIDX[c]
                    st.absv[b + L_MARKET] = 0
                    st.absv[b + L_HAND + seat] = 1
                    st.loc[c] = L_HAND + seat
            else:
                self._score_line(st, seat)
                self._to_line(st, seat, c)
            if self._hand_fits(st, seat):
                st.phase = PLAY
            else:
                self._after_play_step(st)
        elif a < A_SCORE:  # play
            c = a - A_PLAY + 1
            st.hands[seat].remove(c)
            if c > NUM_NUMBERS:
                st.absv[_O_BET + (c - 101) * NUM_BLOC + BL_HAND + seat] -= 1
            self._to_line(st, seat, c)
            if ph == FINAL:
                st.picks_left -= 1
                st.current = (seat + 1) % st.n
                self._final_skip(st)
            else:
                st.played_hand = True
                st.phase = SCORE
        elif a == A_SCORE:
            self._score_line(st, seat)
            self._end_turn(st)
        else:  # pass
            if ph == PLAY:
                self._after_play_step(st)
            elif ph == SCORE:
                self._end_turn(st)
            else:  # final
                st.picks_left -= 1
                st.current = (seat + 1) % st.n
                self._final_skip(st)

    # ---------------------------------------------------------------- results
    def scores(self, state: State) -> list[int]:
        """Current score of each seat: scoring pile count + bet tokens."""
        return [len(state.scored[s]) + sum(state.tokens[s]) for s in range(state.n)]

    def returns(self, state: State) -> list[float]:
        """+1 sole winner, 0 each sharer of the best score, -1 others; zeros before the end."""
        if state.phase != OVER:
            return [0.0] * state.n
        sc = self.scores(state)
        best = max(sc)
        winners = sc.count(best)
        return [(1.0 if winners == 1 else 0.0) if x == best else -1.0 for x in sc]

    def infos(self, state: State) -> list[dict[str, Any]]:
        """At the end: ``score``, ``scored_cards``, ``token_total`` per seat; ``{}`` before."""
        if state.phase != OVER:
            return [{} for _ in range(state.n)]
        return [
            {"score": len(state.scored[s]) + sum(state.tokens[s]),
             "scored_cards": len(state.scored[s]), "token_total": sum(state.tokens[s])}
            for s in range(state.n)
        ]

    # ------------------------------------------------------------------- views
    def view(self, state: State, player: int) -> LineItView:
        """Everything but the deck order (Line-it hides nothing else)."""
        st = state
        return LineItView(
            num_players=st.n, seat=player, deck_size=len(st.deck),
            market=tuple(sorted(st.market)),
            lines=tuple(tuple(x) for x in st.lines),
            hands=tuple(tuple(sorted(x)) for x in st.hands),
            jackpots=tuple(tuple(sorted(x)) for x in st.jackpots),
            scored=tuple(tuple(sorted(x)) for x in st.scored),
            tokens=tuple(tuple(sorted(x)) for x in st.tokens),
            discarded=tuple(sorted(st.discarded)),
            first=st.first, current=-1 if st.phase == OVER else st.current,
            phase=PHASES[st.phase], picks_left=st.picks_left, played_hand=st.played_hand,
        )

    @classmethod
    def encode(cls, view: LineItView) -> np.ndarray:
        """Observation of a view (reference path; :meth:`observe` is the fast equal one)."""
        n, v = view.num_players, view.seat
        o = np.zeros(OBS_SIZE, dtype=np.float32)
        o[_O_NP + n - 2] = 1
        o[_O_SEAT + v] = 1
        o[_O_PHASE + PHASES.index(view.phase)] = 1
        if view.current >= 0:
            o[_O_CUR + (view.current - v) % n] = 1
        o[_O_FIRST + (view.first - v) % n] = 1
        o[_O_PICKS] = view.picks_left
        o[_O_PLAYED] = float(view.played_hand)
        o[_O_DECK] = view.deck_size
        loc = {c: L_DECK for c in range(1, NUM_NUMBERS + 1)}
        bet = np.zeros((3, NUM_BLOC), dtype=np.float32)
        bet[:, BL_DECK] = 2

        def put(c: int, code: int, bcode: int) -> None:
            if c > NUM_NUMBERS:
                bet[c - 101, BL_DECK] -= 1
                bet[c - 101, bcode] += 1
            else:
                loc[c] = code

        for c in view.market:
            put(c, L_MARKET, BL_MARKET)
        for c in view.discarded:
            put(c, L_DISCARD, BL_DISCARD)
        for pile in view.jackpots:
            for c in pile:
                put(c, L_JACKPOT, -1)
        for s in range(n):
            r = (s - v) % n
            for i, c in enumerate(view.lines[s]):
                put(c, L_LINE + r, BL_LINE + r)
                if c <= NUM_NUMBERS:
                    o[_O_POS + c - 1] = i + 1
            for c in view.hands[s]:
                put(c, L_HAND + r, BL_HAND + r)
            for c in view.scored[s]:
                put(c, L_SCORED + r, -1)
            num, last, d, b, bpos, before, col = _line_stats(view.lines[s])
            o[_O_LBP + r] = bpos
            o[_O_LLEN + r] = len(view.lines[s])
            o[_O_LNUM + r] = num
            o[_O_LDIR + 3 * r + (0 if d == 0 else (1 if d > 0 else 2))] = 1
            o[_O_LLAST + r] = last
            o[_O_LCOL + 4 * r: _O_LCOL + 4 * r + 4] = col
            o[_O_BAFT + r] = num - before if b else 0
            o[_O_HAND + r] = len(view.hands[s])
            o[_O_SCO + r] = len(view.scored[s])
            for t in view.tokens[s]:
                o[_O_TOK + 6 * r + TOKEN_VALUES.index(t)] += 1
            o[_O_SCORE + r] = len(view.scored[s]) + sum(view.tokens[s])
        for c, code in loc.items():
            o[_O_LOC + (c - 1) * NUM_LOC + code] = 1
        o[_O_BET:_O_BET + 3 * NUM_BLOC] = bet.ravel()
        for k in range(4):
            o[_O_JACK + k] = len(view.jackpots[k])
        return o

    def observe(self, state: State, player: int) -> np.ndarray:
        """Fast path equal to ``encode(view(state, player))``: one gather from ``absv``."""
        st = state
        n = st.n
        if st.dirty:
            _write_seats(st)
        o = st.absv.take(_PERM[(n, player)])
        o[_O_NP + n - 2] = 1
        o[_O_SEAT + player] = 1
        ph = st.phase
        o[_O_PHASE + ph] = 1
        if ph != OVER:
            o[_O_CUR + (st.current - player) % n] = 1
        o[_O_FIRST + (st.first - player) % n] = 1
        o[_O_PICKS] = st.picks_left
        o[_O_PLAYED] = st.played_hand
        o[_O_DECK] = len(st.deck)
        j = st.jackpots
        o[_O_JACK] = len(j[0])
        o[_O_JACK + 1] = len(j[1])
        o[_O_JACK + 2] = len(j[2])
        o[_O_JACK + 3] = len(j[3])
        return o

    @classmethod
    def decode(cls, observation: np.ndarray) -> LineItView:
        """The view an observation encodes (inverse of :meth:`encode`)."""
        o = np.rint(np.asarray(observation, dtype=np.float64)).astype(np.int64)
        if o.shape != (OBS_SIZE,):
            raise ValueError(f"a Line-it observation has shape ({OBS_SIZE},), got {o.shape}")
        n = int(np.argmax(o[_O_NP:_O_NP + 4])) + 2
        v = int(np.argmax(o[_O_SEAT:_O_SEAT + 5]))
        phase = PHASES[int(np.argmax(o[_O_PHASE:_O_PHASE + 5]))]
        cur = -1 if phase == "over" else (int(np.argmax(o[_O_CUR:_O_CUR + 5])) + v) % n
        first = (int(np.argmax(o[_O_FIRST:_O_FIRST + 5])) + v) % n
        market: list[int] = []
        discarded: list[int] = []
        jackpots: list[list[int]] = [[] for _ in range(4)]
        lines: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        hands: list[list[int]] = [[] for _ in range(n)]
        scored: list[list[int]] = [[] for _ in range(n)]
        codes = o[_O_LOC:_O_LOC + 100 * NUM_LOC].reshape(100, NUM_LOC).argmax(axis=1)
        for i in range(NUM_NUMBERS):
            c, code = i + 1, int(codes[i])
            if code == L_MARKET:
                market.append(c)
            elif code == L_DISCARD:
                discarded.append(c)
            elif code == L_JACKPOT:
                jackpots[(c - 1) & 3].append(c)
            elif L_LINE <= code < L_LINE + 5:
                lines[(code - L_LINE + v) % n].append((int(o[_O_POS + i]), c))
            elif L_HAND <= code < L_HAND + 5:
                hands[(code - L_HAND + v) % n].append(c)
            elif L_SCORED <= code < L_SCORED + 5:
                scored[(code - L_SCORED + v) % n].append(c)
        bet = o[_O_BET:_O_BET + 3 * NUM_BLOC].reshape(3, NUM_BLOC)
        for k in range(3):
            c = 101 + k
            market += [c] * int(bet[k, BL_MARKET])
            discarded += [c] * int(bet[k, BL_DISCARD])
            for r in range(n):
                s = (r + v) % n
                hands[s] += [c] * int(bet[k, BL_HAND + r])
                if bet[k, BL_LINE + r]:
                    lines[s].append((int(o[_O_LBP + r]), c))
        tokens: list[tuple[int, ...]] = []
        for s in range(n):
            r = (s - v) % n
            t: list[int] = []
            for j, tv in enumerate(TOKEN_VALUES):
                t += [tv] * int(o[_O_TOK + 6 * r + j])
            tokens.append(tuple(sorted(t)))
        return LineItView(
            num_players=n, seat=v, deck_size=int(o[_O_DECK]),
            market=tuple(sorted(market)),
            lines=tuple(tuple(c for _, c in sorted(x)) for x in lines),
            hands=tuple(tuple(sorted(x)) for x in hands),
            jackpots=tuple(tuple(sorted(x)) for x in jackpots),
            scored=tuple(tuple(sorted(x)) for x in scored),
            tokens=tuple(tokens),
            discarded=tuple(sorted(discarded)),
            first=first, current=cur, phase=phase, picks_left=int(o[_O_PICKS]),
            played_hand=bool(o[_O_PLAYED]),
        )

    def sample_state(self, view: LineItView, rng: np.random.Generator) -> State:
        """A full state fitting ``view``: the deck's cards in an order drawn with ``rng``."""
        deck = view.deck_cards()
        deck = [deck[i] for i in rng.permutation(len(deck))]
        return self._build(
            deck, list(view.market), [list(x) for x in view.lines],
            [list(x) for x in view.hands], [list(x) for x in view.jackpots],
            [list(x) for x in view.scored], [list(x) for x in view.tokens],
            list(view.discarded), view.first, view.current, PHASES.index(view.phase),
            view.picks_left, view.played_hand,
        )

    def _build(self, deck: list[int], market: list[int], lines: list[list[int]],
               hands: list[list[int]], jackpots: list[list[int]], scored: list[list[int]],
               tokens: list[list[int]], discarded: list[int], first: int, current: int,
               phase: int, picks_left: int, played_hand: bool) -> State:
        """A state from its lists, with every cache computed."""
        n = self.num_players
        st = State(n)
        st.deck, st.market, st.lines, st.hands = deck, market, lines, hands
        st.jackpots, st.scored, st.tokens, st.discarded = jackpots, scored, tokens, discarded
        st.first, st.phase, st.picks_left, st.played_hand = first, phase, picks_left, played_hand
        st.current = -1 if phase == OVER else current
        _sync(st)
        return st

    # ---------------------------------------------------------------- notation
    def action_to_str(self, action: int) -> str:
        """RULES.md text of an id: ``pick 57 line``, ``play B4``, ``score``, ``pass``."""
        a = int(action)
        if not 0 <= a < NUM_ACTIONS:
            raise NotationError(f"action {a} is out of range 0..{NUM_ACTIONS - 1}")
        if a < A_PLAY:
            mode, i = divmod(a, 103)
            return f"pick {card_text(i + 1)} {('line', 'hand', 'new')[mode]}"
        if a < A_SCORE:
            return f"play {card_text(a - A_PLAY + 1)}"
        return "score" if a == A_SCORE else "pass"

    def str_to_action(self, text: str) -> int:
        """Id of RULES.md move text; :class:`NotationError` when malformed."""
        forms = ("the moves are 'pick <card> line|hand|new', 'play <card>', 'score', 'pass' "
                 "with <card> a number 1..100 or B3, B4, B5")
        if not isinstance(text, str):
            raise NotationError(f"a move must be text; {forms}")
        w = text.strip().lower().split()
        if w == ["score"]:
            return A_SCORE
        if w == ["pass"]:
            return A_PASS
        try:
            if len(w) == 3 and w[0] == "pick" and w[2] in ("line", "hand", "new"):
                return ("line", "hand", "new").index(w[2]) * 103 + parse_card(w[1]) - 1
            if len(w) == 2 and w[0] == "play":
                return A_PLAY + parse_card(w[1]) - 1
        except NotationError as e:
            raise NotationError(f"{text!r}: {e}; {forms}") from None
        raise NotationError(f"{text!r} is not a Line-it move; {forms}")

    # -------------------------------------------------------------------- JSON
    def to_json(self, state: State) -> dict[str, Any]:
        """The state in RULES.md's schema."""
        st = state
        return {
            "game": "lineit", "num_players": st.n,
            "deck": [_jcard(c) for c in st.deck],
            "market": [_jcard(c) for c in st.market],
            "lines": [[_jcard(c) for c in x] for x in st.lines],
            "hands": [[_jcard(c) for c in x] for x in st.hands],
            "jackpots": {k: list(st.jackpots[i]) for i, k in enumerate(COLOUR_KEYS)},
            "scored": [list(x) for x in st.scored],
            "tokens": [list(x) for x in st.tokens],
            "discarded": [_jcard(c) for c in st.discarded],
            "first": st.first,
            "current": None if st.phase == OVER else st.current,
            "phase": PHASES[st.phase], "picks_left": st.picks_left,
            "played_hand": st.played_hand,
        }

    def from_json(self, obj: dict[str, Any]) -> State:
        """Read and validate a RULES.md state; :class:`InvalidStateError` says what is wrong."""
        E = InvalidStateError
        n = self.num_players
        if not isinstance(obj, dict):
            raise E(f"a Line-it state is a JSON object, got {type(obj).__name__}")
        keys = ("game", "num_players", "deck", "market", "lines", "hands", "jackpots",
                "scored", "tokens", "discarded", "first", "current", "phase", "picks_left",
                "played_hand")
        missing = [k for k in keys if k not in obj]
        if missing:
            raise E(f"missing key(s): {', '.join(missing)}")
        extra = sorted(set(obj) - set(keys))
        if extra:
            raise E(f"unknown key(s): {', '.join(map(str, extra))}; the keys are {', '.join(keys)}")
        if obj["game"] != "lineit":
            raise E(f"game must be 'lineit', got {obj['game']!r}")
        np_ = obj["num_players"]
        if isinstance(np_, bool) or not isinstance(np_, int) or np_ != n:
            raise E(f"num_players must be {n} (this game's seat count), got {np_!r}")

        def cards(x: Any, where: str) -> list[int]:
            if not isinstance(x, list):
                raise E(f"{where} must be a list of cards, got {x!r}")
            return [_json_card(c, where) for c in x]

        def per_seat(x: Any, where: str) -> list[Any]:
            if not isinstance(x, list) or len(x) != n:
                raise E(f"{where} must be a list of {n} lists (one per seat), got {x!r}")
            return x

        deck = cards(obj["deck"], "deck")
        market = cards(obj["market"], "market")
        lines = [cards(x, f"lines[{s}]") for s, x in enumerate(per_seat(obj["lines"], "lines"))]
        hands = [cards(x, f"hands[{s}]") for s, x in enumerate(per_seat(obj["hands"], "hands"))]
        scored = [cards(x, f"scored[{s}]") for s, x in enumerate(per_seat(obj["scored"], "scored"))]
        discarded = cards(obj["discarded"], "discarded")
        jp = obj["jackpots"]
        if not isinstance(jp, dict) or sorted(jp) != sorted(COLOUR_KEYS):
            raise E(f"jackpots must be an object with exactly the keys {', '.join(COLOUR_KEYS)}, got {jp!r}")
        jackpots = [cards(jp[k], f"jackpots.{k}") for k in COLOUR_KEYS]
        tokens: list[list[int]] = []
        for s, t in enumerate(per_seat(obj["tokens"], "tokens")):
            if not isinstance(t, list) or any(
                isinstance(x, bool) or not isinstance(x, int) or x not in TOKEN_VALUES for x in t
            ):
                raise E(f"tokens[{s}] must be a list of bet tokens (-5, -4, -3, 3, 4, 5), got {t!r}")
            tokens.append(list(t))

        # every card exactly once
        count: dict[int, int] = {}
        for pile in (deck, market, discarded, *lines, *hands, *jackpots, *scored):
            for c in pile:
                count[c] = count.get(c, 0) + 1
        problems = []
        for c in range(1, NUM_NUMBERS + 1):
            k = count.get(c, 0)
            if k != 1:
                problems.append(f"card {c} appears {k} times")
        for b in BET_KINDS:
            k = count.get(b, 0)
            if k != 2:
                problems.append(f"{card_text(b)} appears {k} times (there are 2 copies)")
        if problems:
            shown = "; ".join(problems[:6]) + (" ..." if len(problems) > 6 else "")
            raise E(f"each of the 106 cards must be in exactly one place: {shown}")
        for k, pile in enumerate(jackpots):
            for c in pile:
                if c > NUM_NUMBERS or (c - 1) & 3 != k:
                    raise E(f"jackpots.{COLOUR_KEYS[k]} holds {card_text(c)}, which is not "
                            f"a {COLOUR_KEYS[k]} number card")
        for s in range(n):
            if any(c > NUM_NUMBERS for c in scored[s]):
                raise E(f"scored[{s}] holds a Bet card; Bets are discarded when settled")
            if len(hands[s]) > 2:
                raise E(f"hands[{s}] holds {len(hands[s])} cards; the hand limit is 2")
            line = lines[s]
            if sum(c > NUM_NUMBERS for c in line) > 1:
                raise E(f"lines[{s}] holds more than one Bet card")
            nums = [c for c in line if c <= NUM_NUMBERS]
            if len(nums) >= 2:
                up = nums[1] > nums[0]
                for a, b in zip(nums[1:], nums[2:]):
                    if (b > a) != up:
                        raise E(f"lines[{s}]: {b} after {a} breaks the line's "
                                f"{'ascending' if up else 'descending'} direction")
        for b in BET_KINDS:
            v = b - 98
            used = sum(abs(t) == v for ts in tokens for t in ts)
            inbin = discarded.count(b)
            if used > inbin:
                raise E(f"{used} token(s) of value {v} but only {inbin} {card_text(b)} in the "
                        f"discard: each settled Bet is discarded")

        # turn bookkeeping
        first, cur, phase_s, picks, played = (obj["first"], obj["current"], obj["phase"],
                                              obj["picks_left"], obj["played_hand"])
        if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < n:
            raise E(f"first must be a seat 0..{n - 1}, got {first!r}")
        if phase_s not in PHASES:
            raise E(f"phase must be one of {', '.join(PHASES)}, got {phase_s!r}")
        phase = PHASES.index(phase_s)
        if not isinstance(played, bool):
            raise E(f"played_hand must be true or false, got {played!r}")
        if isinstance(picks, bool) or not isinstance(picks, int):
            raise E(f"picks_left must be an int, got {picks!r}")
        if phase == OVER:
            if cur is not None:
                raise E(f"current must be null when the phase is over, got {cur!r}")
            if picks != 0 or played:
                raise E("phase over needs picks_left 0 and played_hand false")
            if deck or market or any(lines):
                raise E("phase over needs an empty deck, an empty market and every line "
                        "empty (every line is scored at the end)")
            return self._build(deck, market, lines, hands, jackpots, scored, tokens,
                               discarded, first, -1, phase, picks, played)
        if isinstance(cur, bool) or not isinstance(cur, int) or not 0 <= cur < n:
            raise E(f"current must be a seat 0..{n - 1} (null only when over), got {cur!r}")
        if not 1 <= picks <= n:
            raise E(f"picks_left must be 1..{n} in phase {phase_s}, got {picks}")
        want = (first + n - picks) % n
        if cur != want:
            raise E(f"current is {cur} but first {first} with picks_left {picks} makes "
                    f"seat {want} the player to move")
        if played and phase != SCORE:
            raise E("played_hand can be true only in phase score (a hand card was played "
                    "this turn)")
        st = self._build(deck, market, lines, hands, jackpots, scored, tokens, discarded,
                         first, cur, phase, picks, played)
        if phase == PICK:
            if len(market) != picks + 2:
                raise E(f"phase pick with picks_left {picks} needs {picks + 2} market cards "
                        f"(num_players + 2 revealed, one taken per pick), got {len(market)}")
        elif phase in (PLAY, SCORE):
            if len(market) != picks + 1:
                raise E(f"phase {phase_s} with picks_left {picks} needs {picks + 1} market "
                        f"cards (the current player has picked), got {len(market)}")
            if phase == PLAY and not self._hand_fits(st, cur):
                raise E(f"phase play but no card of hands[{cur}] fits lines[{cur}]: that "
                        f"step offers only pass and is skipped")
            if phase == SCORE and not lines[cur]:
                raise E(f"phase score but lines[{cur}] is empty: that step offers only pass "
                        f"and is skipped")
        else:  # final
            if deck or market:
                raise E("phase final needs an empty deck and market (they go away when the "
                        "final phase starts)")
            if not self._hand_fits(st, cur):
                raise E(f"phase final but no card of hands[{cur}] fits lines[{cur}]: that "
                        f"player could only pass and is skipped")
        return st

    # ------------------------------------------------------------------ render
    def render(self, state: State, viewer: int | None = None) -> str:
        """Text of the table.  Everything but the deck order is public, so every hand is
        shown whatever ``viewer`` is; the viewer's seat is marked ``(you)``."""
        st = state

        def cd(c: int) -> str:
            return card_text(c) if c > NUM_NUMBERS else f"{c}-{COLOUR_SYMBOLS[(c - 1) & 3]}"

        def cards(x: list[int]) -> str:
            return " ".join(cd(c) for c in x) if x else "-"

        out = [f"Line-it, {st.n} players. Phase {PHASES[st.phase]}"
               + ("" if st.phase == OVER else
                  f", player_{st.current} to move ({st.picks_left} to act this "
                  f"{'round' if st.phase != FINAL else 'final phase'})")
               + f". First player: player_{st.first}.",
               f"Deck: {len(st.deck)} cards.  Market: {cards(st.market)}",
               "Jackpots: " + ", ".join(f"{COLOUR_SYMBOLS[k]} ({COLOUR_KEYS[k]}) "
                                        f"{len(st.jackpots[k])} [{cards(sorted(st.jackpots[k]))}]"
                                        for k in range(4))]
        sc = self.scores(st)
        for s in range(st.n):
            tag = f"player_{s}" + (" (you)" if viewer == s else "") + (
                " *" if s == st.current and st.phase != OVER else "")
            d = st.ldir[s]
            dtxt = "no direction yet" if d == 0 else ("ascending" if d > 0 else "descending")
            bet = (f"bet {card_text(st.lbet[s])} with {st.lnum[s] - st.lbetbefore[s]} after"
                   if st.lbet[s] else "no bet")
            colours = ", ".join(f"{COLOUR_SYMBOLS[k]} {st.lcol[s][k]}" for k in range(4)
                                if st.lcol[s][k])
            toks = " ".join(f"{t:+d}" for t in st.tokens[s]) or "-"
            out.append(f"{tag}: line [{cards(st.lines[s])}] ({dtxt}; {bet}"
                       + (f"; {colours}" if colours else "") + ")")
            out.append(f"    hand: {cards(st.hands[s])}  scored {len(st.scored[s])} cards, "
                       f"tokens {toks}, score {sc[s]}")
        if st.phase == OVER:
            r = self.returns(st)
            best = [f"player_{s}" for s in range(st.n) if r[s] >= 0]
            out.append(("Winner: " if len(best) == 1 else "Shared win: ") + ", ".join(best))
        return "\n".join(out)
