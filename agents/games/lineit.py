"""Line-it strategic knowledge: greedy and planning heuristics, the coach's reasons and
the evaluation that cuts the expert's rollouts short (RULES.md section 2).

Everything but the deck order is public in Line-it, so the set of cards still in the
deck is known (:meth:`LineItView.deck_cards`); the heuristics count it.

* **Greedy** (level 1) looks at this turn alone: extend the line with the card closest
  to its end in its direction (a small step keeps room), claim a jackpot when a card is
  the third of its colour, start lines near an edge (low cards ascend, high descend),
  keep a card that fits in hand, and score when the line is long and nearly blocked.
* **Planner** (level 2) values the position after each move: the points the line will
  bank (its first three number cards are discarded) plus the expected number of cards
  it will still get.  That expectation comes from a small dynamic programme over the
  fraction ``f`` of deck cards still beyond the line's end and the number of turns left
  (``_V``): each turn a fitting card shows with probability ``1 - (1 - f)^m`` and taking
  the smallest one keeps ``k/(k+1)`` of the room.  On top: Bets by the chance that
  enough cards follow them (Poisson tail), the chance of a third card of a colour whose
  jackpot is big, hand cards as a buffer (and the risk of a forced ``new`` with a full
  hand), and the jackpot the next player could claim from what the move leaves in the
  market (blocking).
* **evaluate** compares the seats' expected final scores (score + the line's expected
  banked cards and bet) and squashes the lead with ``tanh``.
"""

from __future__ import annotations

import math
from itertools import accumulate
from typing import Any

import numpy as np

from cardenvs.lineit.rules import (
    A_PASS,
    A_PLAY,
    A_SCORE,
    COLOUR_KEYS,
    DECK,
    NUM_NUMBERS,
    PHASES,
    LineItView,
    State,
)

from ..policy import Knowledge, _argmax_random

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
    m = n + 1 - (n - 1) / 2  # cards the player chooses from, on average over seats
    tmax = len(DECK) // (n + 2) + 2
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
    return [row[t] for row in table]


_TABLES = {n: _tables(n) for n in range(2, 6)}


def _lookup(table: list[list[float]], f: float, t: int) -> float:
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
class _Line:
    """Summary of a line: number cards, first/last number, direction, Bet, colours."""

    __slots__ = ("num", "first", "last", "dir", "bet", "after", "col")

    def __init__(self, line: Any) -> None:
        num = first = last = d = bet = after = 0
        col = [0, 0, 0, 0]
        for c in line:
            if c > NUM_NUMBERS:
                bet = c
                after = 0
                continue
            num += 1
            if num == 1:
                first = c
            elif num == 2:
                d = 1 if c > last else -1
            last = c
            col[(c - 1) & 3] += 1
            if bet:
                after += 1
        self.num, self.first, self.last, self.dir = num, first, last, d
        self.bet, self.after, self.col = bet, after, col

    def copy(self) -> _Line:
        o = _Line.__new__(_Line)
        o.num, o.first, o.last, o.dir = self.num, self.first, self.last, self.dir
        o.bet, o.after, o.col = self.bet, self.after, self.col[:]
        return o

    def fits(self, c: int) -> bool:
        if c > NUM_NUMBERS:
            return not self.bet
        if self.num < 2:
            return True
        return c > self.last if self.dir > 0 else c < self.last

    def add(self, c: int) -> int:
        """Append ``c``; the colour index whose jackpot it claims, else -1."""
        if c > NUM_NUMBERS:
            self.bet, self.after = c, 0
            return -1
        self.num += 1
        if self.num == 1:
            self.first = c
        elif self.num == 2:
            self.dir = 1 if c > self.last else -1
        self.last = c
        k = (c - 1) & 3
        self.col[k] += 1
        if self.bet:
            self.after += 1
        return k if self.col[k] == 3 else -1


class _Table:
    """The public table of one decision, from a view or a (sampled) state."""

    __slots__ = ("n", "me", "market", "lines", "hands", "jack", "deck", "D", "phase",
                 "picks_left", "current", "scores", "cum", "cumc", "T")

    @classmethod
    def of_view(cls, view: LineItView) -> _Table:
        t = cls()
        t.n, t.me = view.num_players, view.seat
        t.market = list(view.market)
        t.lines = [_Line(x) for x in view.lines]
        t.hands = [list(x) for x in view.hands]
        t.jack = [len(x) for x in view.jackpots]
        t.deck = view.deck_cards()
        t.phase, t.picks_left, t.current = view.phase, view.picks_left, view.current
        t.scores = [len(view.scored[s]) + sum(view.tokens[s]) for s in range(t.n)]
        t._finish()
        return t

    @classmethod
    def of_state(cls, state: State, player: int) -> _Table:
        t = cls()
        t.n, t.me = state.n, player
        t.market = list(state.market)
        t.lines = [_Line(x) for x in state.lines]
        t.hands = [list(x) for x in state.hands]
        t.jack = [len(x) for x in state.jackpots]
        t.deck = state.deck
        t.phase, t.picks_left, t.current = PHASES[state.phase], state.picks_left, state.current
        t.scores = [len(state.scored[s]) + sum(state.tokens[s]) for s in range(t.n)]
        t._finish()
        return t

    def _finish(self) -> None:
        self.D = len(self.deck)
        ind = [0] * (NUM_NUMBERS + 1)
        colind = [[0] * (NUM_NUMBERS + 1) for _ in range(4)]
        for c in self.deck:
            if c <= NUM_NUMBERS:
                ind[c] = 1
                colind[(c - 1) & 3][c] = 1
        self.cum = list(accumulate(ind))
        self.cumc = [list(accumulate(x)) for x in colind]
        # the player's turns after this round (a round starts while the deck holds n + 2)
        self.T = self.D // (self.n + 2) if self.phase != "final" else 0

    # supply: deck number cards strictly beyond x in direction d
    def beyond(self, x: int, d: int) -> int:
        cum = self.cum
        return cum[NUM_NUMBERS] - cum[x] if d > 0 else cum[x - 1]

    def beyond_col(self, k: int, x: int, d: int) -> int:
        cum = self.cumc[k]
        return cum[NUM_NUMBERS] - cum[x] if d > 0 else cum[x - 1]


def _room_fraction(tab: _Table, ln: _Line) -> float:
    """Fraction of the deck that still fits the line after its end (1 when unset)."""
    if ln.num == 0 or tab.D == 0:
        return 1.0 if tab.D else 0.0
    if ln.num == 1:
        return max(tab.beyond(ln.last, 1), tab.beyond(ln.last, -1)) / tab.D
    return tab.beyond(ln.last, ln.dir) / tab.D


def _supply(tab: _Table, ln: _Line) -> tuple[int, int]:
    """(deck cards beyond the line's end, its direction: the roomier one if unset)."""
    if ln.num == 0:
        return tab.cum[NUM_NUMBERS], 0
    if ln.num == 1:
        up, down = tab.beyond(ln.last, 1), tab.beyond(ln.last, -1)
        return (up, 1) if up >= down else (down, -1)
    return tab.beyond(ln.last, ln.dir), ln.dir


# ----------------------------------------------------------------------------- planner
_W_BLOCK = {2: 0.9, 3: 0.5, 4: 0.4, 5: 0.35}


class _Planner:
    """Position values of one seat (level 2) on a :class:`_Table`."""

    def __init__(self, tab: _Table, seat: int) -> None:
        self.tab = tab
        self.seat = seat
        self.V, self.KEEP, self.ADDS, tmax = _TABLES[tab.n]
        self.T = min(tab.T, tmax)
        self._rival = [any(tab.lines[s].col[c] == 2 for s in range(tab.n) if s != seat) for c in range(4)]

    def adds(self, ln: _Line) -> float:
        """Expected further cards of the line if it is kept to the end."""
        if self.T <= 0:
            return 0.0
        f = _room_fraction(self.tab, ln)
        a = _lookup(self.ADDS, f, self.T)
        if ln.num <= 1:
            a = max(a, 1.0 + _lookup(self.ADDS, _F2, self.T - 1) if self.T > 1 else 1.0)
        return a

    def line_value(self, ln: _Line, hand: list[int], keep: bool = False) -> float:
        """Expected points still to come from the line, its Bet, colours and the hand."""
        tab, T = self.tab, self.T
        k = min(ln.num, _KMAX)
        f = _room_fraction(tab, ln)
        banked = max(ln.num - 3, 0)
        table = self.KEEP if keep else self.V
        val = banked + (_lookup(table[k], f, T) if T > 0 else 0.0)
        fitting_hand = [h for h in hand if h <= NUM_NUMBERS and ln.fits(h)]
        mu = self.adds(ln) + 0.8 * len(fitting_hand)
        if ln.bet:
            v = ln.bet - 98
            pw = _poisson_tail(mu, v - ln.after)
            val += v * (2 * pw - 1)
        # colours: a third card of a colour claims its jackpot
        if T > 0 and ln.num >= 1:
            s, d = _supply(tab, ln)
            if s > 0:
                for c in range(4):
                    cnt = ln.col[c]
                    if cnt >= 3:
                        continue
                    j = tab.jack[c] + 0.2 * min(T, 3)
                    if self._rival[c]:
                        j *= 0.5  # an opponent is one card away from it too
                    sc = tab.beyond_col(c, ln.last, d) if d else tab.cumc[c][NUM_NUMBERS]
                    share = sc / s
                    pc = 1 - (1 - share) ** (1.4 * mu) if share > 0 else 0.0
                    if cnt == 2:
                        val += 0.35 * pc * j
                    elif cnt == 1:
                        val += 0.25 * pc * pc * j
        # hand: a buffer of cards to play later, at the risk of a forced new when full
        for h in hand:
            if h > NUM_NUMBERS:
                v = h - 98
                if ln.bet:
                    val += 0.15 * v if T > 6 else -0.1
                else:
                    val += v * (2 * _poisson_tail(mu, v) - 1) * 0.3 if T > 0 else 0.0
            elif T > 0:
                if ln.fits(h):
                    # playing it later: one more card, but it uses up the room before it
                    if ln.num >= 2:
                        lost = tab.beyond(ln.last, ln.dir) - tab.beyond(h, ln.dir)
                        val += 0.85 - 0.6 * min(lost / max(tab.D * 0.25, 1.0), 1.0)
                    else:
                        val += 0.6
                else:
                    val += 0.2  # a start for a later line
        if len(hand) >= 2 and T > 0 and not fitting_hand and ln.num >= 1:
            m = tab.n + 2 - (tab.n - 1) / 2
            p = 1 - (1 - f) ** m
            val -= 0.3 * (1 - p)
        return val

    def threat(self, market: list[int]) -> float:
        """Points the next player to pick this round can claim from ``market``."""
        tab = self.tab
        if tab.phase != "pick" or tab.picks_left <= 1:
            return 0.0
        nxt = (self.seat + 1) % tab.n
        ln = tab.lines[nxt]
        best = 0.0
        for c in market:
            if c > NUM_NUMBERS or not ln.fits(c):
                continue
            k = (c - 1) & 3
            if ln.col[k] == 2 and tab.jack[k] > 0:
                best = max(best, float(tab.jack[k]))
        return best

    # ------------------------------------------------------------------ actions
    def values(self, legal: list[int]) -> list[float]:
        tab, me = self.tab, self.seat
        ln0 = tab.lines[me]
        hand0 = tab.hands[me]
        base_banked = max(ln0.num - 3, 0)
        out = []
        wb = _W_BLOCK.get(tab.n, 0.35)
        T = self.T
        for a in legal:
            if a == A_SCORE:
                bet = 0.0
                if ln0.bet:
                    v = ln0.bet - 98
                    bet = v if ln0.after >= v else -v
                fresh = _Line(())
                out.append(base_banked + bet + self.line_value(fresh, hand0) - 1e-3)
                continue
            if a == A_PASS:
                out.append(self.line_value(ln0, hand0, keep=tab.phase == "score"))
                continue
            if a >= A_PLAY:
                c = a - A_PLAY + 1
                ln = ln0.copy()
                k = ln.add(c)
                gain = tab.jack[k] if k >= 0 else 0
                hand = hand0[:]
                hand.remove(c)
                if T == 0 and c <= NUM_NUMBERS:
                    gain += 1 if ln.num > 3 else 0
                out.append(gain + self.line_value(ln, hand))
                continue
            mode, c = divmod(a, 103)
            c += 1
            market = tab.market[:]
            market.remove(c)
            block = wb * self.threat(market)
            if mode == 0:
                ln = ln0.copy()
                k = ln.add(c)
                gain = tab.jack[k] if k >= 0 else 0
                out.append(gain + self.line_value(ln, hand0) - block)
            elif mode == 1:
                out.append(self.line_value(ln0, hand0 + [c]) - block)
            else:
                bet = 0.0
                if ln0.bet:
                    v = ln0.bet - 98
                    bet = v if ln0.after >= v else -v
                ln = _Line(())
                ln.add(c)
                out.append(base_banked + bet + self.line_value(ln, hand0) - block)
        return out

    def equity(self) -> float:
        """Expected final score of the seat (score + what its line and hand still bring)."""
        tab, s = self.tab, self.seat
        return tab.scores[s] + self.line_value(tab.lines[s], tab.hands[s])


# ----------------------------------------------------------------------------- greedy
def _greedy_values(tab: _Table, legal: list[int]) -> list[float]:
    """Level 1: this turn alone, distances in card values (no counting)."""
    me = tab.me
    ln0 = tab.lines[me]
    hand0 = tab.hands[me]
    out = []

    def step_cost(ln: _Line, c: int) -> float:
        """Penalty of putting number ``c`` on the line (0 good .. ~1.5 bad)."""
        if ln.num == 0:
            return 0.3 * (1 - abs(c - 50.5) / 49.5)
        if ln.num == 1:
            room = (NUM_NUMBERS - ln.last) if c > ln.last else (ln.last - 1)
            gap = abs(c - ln.last) - 1
            return 1.2 * gap / max(room, 1) + 0.3 * (1 - room / 99)
        room = (NUM_NUMBERS - ln.last) if ln.dir > 0 else (ln.last - 1)
        gap = abs(c - ln.last) - 1
        return 1.2 * gap / max(room, 1)

    def fit_room(ln: _Line) -> int:
        if ln.num < 2:
            return 99
        return (NUM_NUMBERS - ln.last) if ln.dir > 0 else (ln.last - 1)

    for a in legal:
        if a == A_SCORE:
            room = fit_room(ln0)
            out.append(1.0 if ln0.num >= 6 and room < 12 or (ln0.bet and ln0.after >= ln0.bet - 98 and room < 8)
                       else 0.0)
        elif a == A_PASS:
            out.append(0.5)
        elif a >= A_PLAY:
            c = a - A_PLAY + 1
            if c > NUM_NUMBERS:
                out.append(1.0 + (c - 98) * 0.3 if ln0.num <= 2 else 0.2)
                continue
            ln = ln0.copy()
            k = ln.add(c)
            out.append(1.0 + (tab.jack[k] if k >= 0 else 0) - step_cost(ln0, c))
        else:
            mode, c = divmod(a, 103)
            c += 1
            if c > NUM_NUMBERS:
                v = c - 98
                if mode == 0:
                    out.append(0.6 * v if fit_room(ln0) > 50 else -0.5)
                elif mode == 1:
                    out.append(0.1)
                else:
                    out.append(-1.0)
                continue
            if mode == 0:
                ln = ln0.copy()
                k = ln.add(c)
                out.append(1.0 + (tab.jack[k] if k >= 0 else 0) - step_cost(ln0, c))
            elif mode == 1:
                fit = ln0.fits(c) and ln0.num >= 2
                out.append((0.4 - 0.3 * step_cost(ln0, c) if fit else 0.05) - 0.1 * len(hand0))
            else:
                out.append(-1.0 - step_cost(_Line(()), c))
    return out


# ----------------------------------------------------------------------------- reasons
def _dir_word(d: int) -> str:
    return "ascending" if d > 0 else "descending"


def _card(c: int) -> str:
    return f"B{c - 98}" if c > NUM_NUMBERS else str(c)


class LineItKnowledge(Knowledge):
    """Line-it heuristics (greedy, planner), reasons and rollout evaluation."""

    env_name = "lineit_v0"

    # ------------------------------------------------------------------ scores
    def scores(self, game: Any, view: LineItView, legal: list[int], level: int) -> np.ndarray:
        tab = _Table.of_view(view)
        return np.asarray(self._values(tab, legal, level), float)

    @staticmethod
    def _values(tab: _Table, legal: list[int], level: int) -> list[float]:
        if level <= 1:
            return _greedy_values(tab, legal)
        return _Planner(tab, tab.me).values(legal)

    def rollout_action(self, game: Any, state: Any, rng: np.random.Generator) -> int:
        """Greedy move of the player to move, read straight off the (sampled) state.

        Line-it hides only the deck order, which the heuristics never use, so the state
        gives the same scores as that player's view, without building the view.
        """
        p = game.current_player(state)
        legal = game.legal_actions(state)
        if len(legal) == 1:
            return legal[0]
        sc = np.asarray(_greedy_values(_Table.of_state(state, p), legal), float)
        return legal[_argmax_random(sc, rng)]

    # ------------------------------------------------------------------ evaluate
    def evaluate(self, game: Any, state: State, player: int) -> float:
        n = state.n
        tabs = _Table.of_state(state, player)
        eq = [_Planner(tabs, s).equity() for s in range(n)]
        best_other = max(eq[s] for s in range(n) if s != player)
        return float(math.tanh((eq[player] - best_other) / 6.0))

    # ------------------------------------------------------------------ reasons
    def reason(self, game: Any, view: LineItView, action: int) -> str:
        tab = _Table.of_view(view)
        me = tab.me
        ln = tab.lines[me]
        hand = tab.hands[me]
        pl = _Planner(tab, me)
        a = int(action)
        if a == A_SCORE:
            return self._score_reason(tab, pl, ln)
        if a == A_PASS:
            return self._pass_reason(tab, pl, ln, hand)
        if a >= A_PLAY:
            c = a - A_PLAY + 1
            return f"play {_card(c)} from hand: " + self._line_words(tab, ln, c)
        mode, c = divmod(a, 103)
        c += 1
        rest = tab.market[:]
        rest.remove(c)
        block = self._block_words(tab, pl, c)
        if mode == 0:
            text = f"pick {_card(c)} line: " + self._line_words(tab, ln, c)
        elif mode == 1:
            text = f"pick {_card(c)} hand: " + self._hand_words(tab, ln, c)
        else:
            banked = max(ln.num - 3, 0)
            text = (f"pick {_card(c)} new: no market card fits the line or the full hand; scores "
                    f"the line ({ln.num} number cards, banks {banked}"
                    + (self._bet_words(ln) if ln.bet else "") + f") and starts a new line at {_card(c)}")
        return text + block

    @staticmethod
    def _bet_words(ln: _Line) -> str:
        v = ln.bet - 98
        return f", wins the B{v} bet" if ln.after >= v else f", loses the B{v} bet ({ln.after} of {v} after it)"

    def _line_words(self, tab: _Table, ln: _Line, c: int) -> str:
        if c > NUM_NUMBERS:
            v = c - 98
            pl = _Planner(tab, tab.me)
            mu = pl.adds(ln)
            pw = _poisson_tail(mu, v)
            return (f"bets that {v} or more number cards follow; about {mu:.1f} more are expected "
                    f"to fit ({100 * pw:.0f}% to win +{v}, else -{v})")
        after = ln.copy()
        k = after.add(c)
        parts = []
        if ln.num == 0:
            side = "ascend" if c <= 50 else "descend"
            parts.append(f"starts the line at {c}, room to {side} ({max(c - 1, 100 - c)} values)")
        elif ln.num == 1:
            parts.append(f"sets the line {_dir_word(after.dir)} from {ln.last} with a gap of "
                         f"{abs(c - ln.last) - 1}, {tab.beyond(c, after.dir)} deck cards still fit")
        else:
            parts.append(f"keeps the {_dir_word(ln.dir)} line with a gap of {abs(c - ln.last) - 1}, "
                         f"{tab.beyond(c, ln.dir)} deck cards still fit after it")
        if k >= 0:
            parts.append(f"third {COLOUR_KEYS[k]} card claims the {COLOUR_KEYS[k]} jackpot "
                         f"({tab.jack[k]} cards)")
        elif c <= NUM_NUMBERS:
            col = (c - 1) & 3
            if after.col[col] == 2 and tab.jack[col] > 0:
                parts.append(f"second {COLOUR_KEYS[col]} card: the next one claims the "
                             f"{COLOUR_KEYS[col]} jackpot ({tab.jack[col]} cards)")
        if ln.bet and c <= NUM_NUMBERS:
            v = ln.bet - 98
            if after.after == v:
                parts.append(f"completes the B{v} bet")
        return ", ".join(parts)

    def _hand_words(self, tab: _Table, ln: _Line, c: int) -> str:
        if c > NUM_NUMBERS:
            if ln.bet:
                return "the line already holds a Bet; keeps the Bet for the next line"
            return f"keeps the B{c - 98} bet for a fresh line with room for {c - 98} cards after it"
        if ln.num >= 2 and ln.fits(c):
            return (f"keeps {c} as a buffer: it fits the {_dir_word(ln.dir)} line later, when the "
                    "market offers nothing closer")
        if ln.num >= 2:
            return (f"{c} does not fit the {_dir_word(ln.dir)} line (end {ln.last}); kept in hand "
                    "to start the next line instead of breaking this one")
        if ln.num == 1:
            return (f"keeps {c} for later: on the line it would leave a gap of {abs(c - ln.last) - 1} "
                    f"after {ln.last}")
        return f"keeps {c} in hand to start or extend a line later"

    def _block_words(self, tab: _Table, pl: _Planner, c: int) -> str:
        if tab.phase != "pick" or tab.picks_left <= 1:
            return ""
        before = pl.threat(tab.market)
        rest = tab.market[:]
        rest.remove(c)
        if before > 0 and pl.threat(rest) < before:
            nxt = (tab.me + 1) % tab.n
            k = (c - 1) & 3
            return (f"; also denies player_{nxt} the {COLOUR_KEYS[k]} jackpot "
                    f"({tab.jack[k]} cards)")
        return ""

    def _score_reason(self, tab: _Table, pl: _Planner, ln: _Line) -> str:
        banked = max(ln.num - 3, 0)
        text = f"score: the line has {ln.num} number cards, banks {banked}"
        if ln.bet:
            text += self._bet_words(ln)
        if ln.num <= 3:
            text += " (the first three are always discarded, so this wastes them)"
        else:
            s, d = _supply(tab, ln)
            if d:
                text += f"; only {s} deck cards still fit beyond {ln.last}"
            if len(tab.hands[tab.me]) >= 2:
                text += ", and with a full hand a forced new is near"
        return text

    def _pass_reason(self, tab: _Table, pl: _Planner, ln: _Line, hand: list[int]) -> str:
        if tab.phase == "play":
            return "pass: keeps the hand card(s) " + ", ".join(_card(h) for h in hand) + \
                " for a better moment; playing now would use up room on the line"
        if tab.phase == "final":
            return "pass: no hand card adds anything at the end"
        s, d = _supply(tab, ln)
        mu = pl.adds(ln)
        text = f"pass: keeps the line of {ln.num} number cards open"
        if d:
            text += f"; {s} deck cards still fit beyond {ln.last} (about {mu:.1f} more expected)"
        if ln.bet and ln.after < ln.bet - 98:
            text += f"; the B{ln.bet - 98} bet still needs {ln.bet - 98 - ln.after} cards"
        elif ln.num < 4:
            text += "; scoring now would discard all of it"
        return text
