"""What Line-it's heuristics read of a position: the room tables (a small dynamic programme
over the room fraction and turns left), a table's lines, market and deck counts
(:class:`_Table`), and the line helpers the scores, reasons and features share."""

from __future__ import annotations

import math
from itertools import accumulate

from cardenvs.lineit.state import (
    DECK,
    FINAL,
    JACKPOT_CLAIM,
    MAX_PLAYERS,
    NUM_NUMBERS,
    PHASES,
    LineItView,
    LineStats,
    State,
    market_size,
    score,
)

_FI = 100  # grid steps of the room fraction f
_KMAX = 3  # line length classes 0, 1, 2, >=3 number cards
_F2 = 0.75  # room fraction after a line's second card (direction chosen well)


# ----------------------------------------------------------------------------- tables
def _tables(n: int) -> tuple[list[list[list[float]]], list[list[list[float]]], list[list[float]], int]:
    """(V, KEEP, ADDS, T_max) for ``n`` seats.

    ``V[k][fi][T]`` expected points still to come from the open line (and lines after it)
    with ``k`` number cards (3 = three or more), room fraction ``fi / _FI`` and ``T`` of
    the player's turns left; ``KEEP`` the same without scoring before the next turn;
    ``ADDS[fi][T]`` the expected cards the line still gets if it is never scored.
    """
    m = market_size(n) - 1 - (n - 1) / 2  # cards the player chooses from, on average over seats
    tmax = len(DECK) // market_size(n) + 2
    fs = [i / _FI for i in range(_FI + 1)]
    p = [1 - (1 - f) ** m for f in fs]
    # room kept after taking the smallest fitting card: K/(K+1), K the fitting cards
    nxt = []
    for i, f in enumerate(fs):
        if p[i] <= 0:
            nxt.append(0.0)
            continue
        kbar = m * f / p[i]
        nxt.append(f * kbar / (kbar + 1))

    def interp(row: list[float], f: float) -> float:
        x = f * _FI
        i = int(x)
        if i >= _FI:
            return row[_FI]
        w = x - i
        return row[i] * (1 - w) + row[i + 1] * w

    V = [[[0.0] * (tmax + 1) for _ in fs] for _ in range(_KMAX + 1)]
    KEEP = [[[0.0] * (tmax + 1) for _ in fs] for _ in range(_KMAX + 1)]
    ADDS = [[0.0] * (tmax + 1) for _ in fs]
    for t in range(1, tmax + 1):
        # k = 0: any card starts the line; k = 1: the second card sets the direction
        v1 = V[1][_FI][t - 1]
        v2 = _col(V[2], t - 1)
        v0 = v1
        v1now = interp(v2, _F2)
        for i in range(_FI + 1):
            KEEP[0][i][t] = V[0][i][t] = v0
            KEEP[1][i][t] = V[1][i][t] = max(v1now, v0)
        for k in (2, 3):
            up = _col(V[min(k + 1, _KMAX)], t - 1)
            same = _col(V[k], t - 1)
            gain = 1.0 if k >= 3 else 0.0
            for i in range(_FI + 1):
                keep = p[i] * (gain + interp(up, nxt[i])) + (1 - p[i]) * same[i]
                KEEP[k][i][t] = keep
                V[k][i][t] = max(keep, v0)
        prev = [ADDS[i][t - 1] for i in range(_FI + 1)]
        for i in range(_FI + 1):
            ADDS[i][t] = p[i] * (1 + interp(prev, nxt[i])) + (1 - p[i]) * prev[i]
    return V, KEEP, ADDS, tmax


def _col(table: list[list[float]], t: int) -> list[float]:
    """Column ``t`` of a table."""
    return [row[t] for row in table]


_TABLES = {n: _tables(n) for n in range(2, MAX_PLAYERS + 1)}


def _lookup(table: list[list[float]], f: float, t: int) -> float:
    """``table[f][t]``, linearly interpolated between the grid steps of ``f`` (clipped to 0..1)."""
    x = min(max(f, 0.0), 1.0) * _FI
    i = int(x)
    if i >= _FI:
        return table[_FI][t]
    w = x - i
    return table[i][t] * (1 - w) + table[i + 1][t] * w


def _poisson_tail(mu: float, k: int) -> float:
    """P(N >= k) for N ~ Poisson(mu)."""
    if k <= 0:
        return 1.0
    if mu <= 0:
        return 0.0
    term = math.exp(-mu)
    cdf = term
    for i in range(1, k):
        term *= mu / i
        cdf += term
    return max(0.0, 1.0 - cdf)


# ----------------------------------------------------------------------------- table
class _Table:
    """The public table of one decision, from a view or a (sampled) state.

    ``lines`` are the lines' :class:`LineStats` (copies, to try moves on), ``jack`` the
    jackpot sizes, ``deck`` the deck's cards (known as a set), ``phase`` the phase index,
    ``cum``/``cumc`` running counts of the deck's number cards (all, and per colour) and
    ``T`` the player's turns after this round.
    """

    __slots__ = ("n", "me", "market", "lines", "hands", "jack", "deck", "D", "phase",
                 "picks_left", "current", "scores", "cum", "cumc", "T")
    n: int
    me: int
    market: list[int]
    lines: list[LineStats]
    hands: list[list[int]]
    jack: list[int]
    deck: list[int]
    D: int
    phase: int
    picks_left: int
    current: int
    scores: list[int]
    cum: list[int]
    cumc: list[list[int]]
    T: int

    @classmethod
    def of_view(cls, view: LineItView) -> _Table:
        """The table a player's view shows."""
        t = cls()
        t.n, t.me = view.num_players, view.seat
        t.market = list(view.market)
        t.lines = [LineStats.of(x) for x in view.lines]
        t.hands = [list(x) for x in view.hands]
        t.jack = [len(x) for x in view.jackpots]
        t.deck = view.deck_cards()
        t.phase, t.picks_left, t.current = PHASES.index(view.phase), view.picks_left, view.current
        t.scores = [score(view.scored[s], view.tokens[s]) for s in range(t.n)]
        t._finish()
        return t

    @classmethod
    def of_state(cls, state: State, player: int) -> _Table:
        """The table of a (sampled) state, as ``player`` sees it (only the deck order is hidden).

        It shares the state's lists and line statistics (the rules keep those in step with
        the lines): the heuristics copy what they try moves on and never write the table.
        """
        t = cls()
        t.n, t.me = state.n, player
        t.market = state.market
        t.lines = state.stats
        t.hands = state.hands
        t.jack = [len(x) for x in state.jackpots]
        t.deck = state.deck
        t.phase, t.picks_left, t.current = state.phase, state.picks_left, state.current
        t.scores = [score(state.scored[s], state.tokens[s]) for s in range(t.n)]
        t._finish()
        return t

    def _finish(self) -> None:
        """Count the deck's number cards (running totals) and the turns left."""
        self.D = len(self.deck)
        ind = [0] * (NUM_NUMBERS + 1)
        colind = [[0] * (NUM_NUMBERS + 1) for _ in range(4)]
        for c in self.deck:
            if c <= NUM_NUMBERS:
                ind[c] = 1
                colind[(c - 1) & 3][c] = 1  # colour_of(c), inlined: this runs per deck card
        self.cum = list(accumulate(ind))
        self.cumc = [list(accumulate(x)) for x in colind]
        # the player's turns after this round (a round starts while the deck fills a market)
        self.T = self.D // market_size(self.n) if self.phase != FINAL else 0

    def beyond(self, x: int, d: int) -> int:
        """Deck number cards strictly beyond ``x`` in direction ``d`` (+1 up, -1 down)."""
        cum = self.cum
        return cum[NUM_NUMBERS] - cum[x] if d > 0 else cum[x - 1]

    def beyond_col(self, k: int, x: int, d: int) -> int:
        """Deck number cards of colour ``k`` strictly beyond ``x`` in direction ``d``."""
        cum = self.cumc[k]
        return cum[NUM_NUMBERS] - cum[x] if d > 0 else cum[x - 1]


def _room_fraction(tab: _Table, ln: LineStats) -> float:
    """Fraction of the deck that still fits the line after its end (1 when unset)."""
    if ln.num == 0 or tab.D == 0:
        return 1.0 if tab.D else 0.0
    if ln.num == 1:
        return max(tab.beyond(ln.last, 1), tab.beyond(ln.last, -1)) / tab.D
    return tab.beyond(ln.last, ln.dir) / tab.D


def _supply(tab: _Table, ln: LineStats) -> tuple[int, int]:
    """(deck cards beyond the line's end, its direction: the roomier one if unset)."""
    if ln.num == 0:
        return tab.cum[NUM_NUMBERS], 0
    if ln.num == 1:
        up, down = tab.beyond(ln.last, 1), tab.beyond(ln.last, -1)
        return (up, 1) if up >= down else (down, -1)
    return tab.beyond(ln.last, ln.dir), ln.dir


# ----------------------------------------------------------------------------- planner
_W_BLOCK = {2: 0.9, 3: 0.5, 4: 0.4, 5: 0.35}
#: a colour count one card short of claiming that colour's jackpot
_ONE_SHORT = JACKPOT_CLAIM - 1


def _cards_seen(n: int) -> float:
    """Market cards a player chooses from, on average over the seats of a round."""
    return market_size(n) - (n - 1) / 2


def _dir_word(d: int) -> str:
    """The word of a line direction."""
    return "ascending" if d > 0 else "descending"


def _room_left(ln: LineStats) -> int:
    """Values still beyond a line's end in its direction (99 while it has no direction)."""
    if ln.num < 2:
        return NUM_NUMBERS - 1
    return (NUM_NUMBERS - ln.last) if ln.dir > 0 else (ln.last - 1)
