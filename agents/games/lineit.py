"""Line-it strategic knowledge: greedy and planning heuristics, the coach's reasons and
the evaluation that cuts the expert's rollouts short (docs/rules/lineit.md).

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

The expert's search plays the planner's best six moves on the same sampled deck orders
(paired), greedy rollouts of 16 moves (:class:`LineItRollouts`: one loop on the state)
cut short by ``evaluate``, and drops a move as soon as it is clearly no better than the
leader (the race, at most 32 worlds; see ``docs/results/expert/cost.md``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import accumulate
from typing import Any

import numpy as np

from cardenvs.core.game import Game
from cardenvs.core.table import plural
from cardenvs.lineit.rules import apply_action, legal_actions
from cardenvs.lineit.state import (
    ACTIONS,
    COLOUR_KEYS,
    DECK,
    DISCARDED_PER_LINE,
    FINAL,
    HAND_LIMIT,
    JACKPOT_CLAIM,
    K_HAND,
    K_LINE,
    K_PASS,
    K_PLAY,
    K_SCORE,
    MAX_PLAYERS,
    NUM_NUMBERS,
    OVER,
    PHASES,
    PICK,
    PLAY,
    SCORE,
    LineItView,
    LineStats,
    State,
    bet_value,
    card_text,
    colour_of,
    is_bet,
    market_size,
    score,
)

from ..knowledge import GameAgents, Knowledge, Reference, Rollouts, Ties, argmax_random, seat_words

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


class _Planner:
    """Position values of one seat (level 2) on a :class:`_Table`."""

    def __init__(self, tab: _Table, seat: int) -> None:
        self.tab = tab
        self.seat = seat
        self.V, self.KEEP, self.ADDS, tmax = _TABLES[tab.n]
        self.T = min(tab.T, tmax)
        self._rival = [any(tab.lines[s].col[c] == _ONE_SHORT for s in range(tab.n) if s != seat)
                       for c in range(4)]

    def adds(self, ln: LineStats) -> float:
        """Expected further cards of the line if it is kept to the end."""
        if self.T <= 0:
            return 0.0
        f = _room_fraction(self.tab, ln)
        a = _lookup(self.ADDS, f, self.T)
        if ln.num <= 1:
            a = max(a, 1.0 + _lookup(self.ADDS, _F2, self.T - 1) if self.T > 1 else 1.0)
        return a

    def line_value(self, ln: LineStats, hand: list[int], keep: bool = False) -> float:
        """Expected points still to come from the line, its Bet, colours and the hand."""
        tab, T = self.tab, self.T
        f = _room_fraction(tab, ln)
        table = self.KEEP if keep else self.V
        val = ln.banked() + (_lookup(table[min(ln.num, _KMAX)], f, T) if T > 0 else 0.0)
        fitting_hand = [h for h in hand if not is_bet(h) and ln.fits(h)]
        mu = self.adds(ln) + 0.8 * len(fitting_hand)
        if ln.bet:
            v = bet_value(ln.bet)
            val += v * (2 * _poisson_tail(mu, v - ln.after) - 1)
        if T > 0 and ln.num >= 1:
            val = self._colours(ln, mu, val)
        # hand: a buffer of cards to play later, at the risk of a forced new when full
        for h in hand:
            val += self._hand_card(ln, h, mu)
        if len(hand) >= HAND_LIMIT and T > 0 and not fitting_hand and ln.num >= 1:
            p = 1 - (1 - f) ** _cards_seen(tab.n)
            val -= 0.3 * (1 - p)
        return val

    def _colours(self, ln: LineStats, mu: float, val: float) -> float:
        """``val`` plus the chance of the card that claims each colour's jackpot."""
        tab, T = self.tab, self.T
        s, d = _supply(tab, ln)
        if s <= 0:
            return val
        for c in range(4):
            cnt = ln.col[c]
            if cnt >= JACKPOT_CLAIM:
                continue
            j = tab.jack[c] + 0.2 * min(T, 3)
            if self._rival[c]:
                j *= 0.5  # an opponent is one card away from it too
            sc = tab.beyond_col(c, ln.last, d) if d else tab.cumc[c][NUM_NUMBERS]
            share = sc / s
            pc = 1 - (1 - share) ** (1.4 * mu) if share > 0 else 0.0
            if cnt == _ONE_SHORT:
                val += 0.35 * pc * j
            elif cnt == _ONE_SHORT - 1:
                val += 0.25 * pc * pc * j
        return val

    def _hand_card(self, ln: LineStats, h: int, mu: float) -> float:
        """What a card kept in hand is worth to the line."""
        tab, T = self.tab, self.T
        if is_bet(h):
            v = bet_value(h)
            if ln.bet:
                return 0.15 * v if T > 6 else -0.1
            return v * (2 * _poisson_tail(mu, v) - 1) * 0.3 if T > 0 else 0.0
        if T <= 0:
            return 0.0
        if not ln.fits(h):
            return 0.2  # a start for a later line
        if ln.num < 2:
            return 0.6
        # playing it later: one more card, but it uses up the room before it
        lost = tab.beyond(ln.last, ln.dir) - tab.beyond(h, ln.dir)
        return 0.85 - 0.6 * min(lost / max(tab.D * 0.25, 1.0), 1.0)

    def threat(self, market: list[int]) -> float:
        """Points the next player to pick this round can claim from ``market``."""
        tab = self.tab
        if tab.phase != PICK or tab.picks_left <= 1:
            return 0.0
        ln = tab.lines[(self.seat + 1) % tab.n]
        best = 0.0
        for c in market:
            if is_bet(c) or not ln.fits(c):
                continue
            k = colour_of(c)
            if ln.col[k] == _ONE_SHORT and tab.jack[k] > 0:
                best = max(best, float(tab.jack[k]))
        return best

    # ------------------------------------------------------------------ actions
    def values(self, legal: list[int]) -> list[float]:
        """The value of each legal action of the seat."""
        out = []
        for a in legal:
            kind, c = ACTIONS[a]
            if kind == K_SCORE:
                out.append(self._new_line(LineStats()) - 1e-3)
            elif kind == K_PASS:
                tab, me = self.tab, self.seat
                out.append(self.line_value(tab.lines[me], tab.hands[me], keep=tab.phase == SCORE))
            elif kind == K_PLAY:
                out.append(self._play(c))
            else:
                out.append(self._pick(kind, c))
        return out

    def _new_line(self, ln: LineStats) -> float:
        """The line scored (its banked cards and Bet), then ``ln`` the new line."""
        old = self.tab.lines[self.seat]
        return old.banked() + old.bet_token() + self.line_value(ln, self.tab.hands[self.seat])

    def _play(self, c: int) -> float:
        """``play c``: the hand card onto the line (the last chance to bank in the final phase)."""
        tab = self.tab
        ln = tab.lines[self.seat].copy()
        k = ln.add(c)
        gain = tab.jack[k] if k >= 0 else 0
        hand = tab.hands[self.seat][:]
        hand.remove(c)
        if self.T == 0 and not is_bet(c):
            gain += 1 if ln.num > DISCARDED_PER_LINE else 0
        return gain + self.line_value(ln, hand)

    def _pick(self, kind: int, c: int) -> float:
        """``pick c line|hand|new``, less what it leaves the next player to claim."""
        tab = self.tab
        market = tab.market[:]
        market.remove(c)
        block = _W_BLOCK.get(tab.n, 0.35) * self.threat(market)
        ln0, hand0 = tab.lines[self.seat], tab.hands[self.seat]
        if kind == K_LINE:
            ln = ln0.copy()
            k = ln.add(c)
            gain = tab.jack[k] if k >= 0 else 0
            return gain + self.line_value(ln, hand0) - block
        if kind == K_HAND:
            return self.line_value(ln0, hand0 + [c]) - block
        ln = LineStats()
        ln.add(c)
        return self._new_line(ln) - block

    def equity(self) -> float:
        """Expected final score of the seat (score + what its line and hand still bring)."""
        tab, s = self.tab, self.seat
        return tab.scores[s] + self.line_value(tab.lines[s], tab.hands[s])


# ----------------------------------------------------------------------------- greedy
def _fit_room(ln: LineStats) -> int:
    """Values still beyond the line's end in its direction (99 while it has none)."""
    if ln.num < 2:
        return NUM_NUMBERS - 1
    return (NUM_NUMBERS - ln.last) if ln.dir > 0 else (ln.last - 1)


def _step_cost(ln: LineStats, c: int) -> float:
    """Penalty of putting number ``c`` on the line (0 good .. ~1.5 bad)."""
    if ln.num == 0:
        return 0.3 * (1 - abs(c - 50.5) / 49.5)
    if ln.num == 1:
        room = (NUM_NUMBERS - ln.last) if c > ln.last else (ln.last - 1)
        gap = abs(c - ln.last) - 1
        return 1.2 * gap / max(room, 1) + 0.3 * (1 - room / 99)
    room = _fit_room(ln)
    gap = abs(c - ln.last) - 1
    return 1.2 * gap / max(room, 1)


def _greedy_number(ln0: LineStats, jack: Sequence[int], hand_size: int, kind: int, c: int) -> float:
    """Level 1 value of putting number card ``c`` on the line ``ln0``, in hand, or on a new line."""
    if kind in (K_LINE, K_PLAY):
        k = (c - 1) & 3  # colour_of(c): the third card of a colour claims its jackpot
        gain = jack[k] if ln0.col[k] == _ONE_SHORT else 0
        return 1.0 + gain - _step_cost(ln0, c)
    if kind == K_HAND:
        fit = ln0.fits(c) and ln0.num >= 2
        return (0.4 - 0.3 * _step_cost(ln0, c) if fit else 0.05) - 0.1 * hand_size
    return -1.0 - _step_cost(_EMPTY_LINE, c)


def _greedy_bet(ln0: LineStats, kind: int, c: int) -> float:
    """Level 1 value of putting Bet ``c`` on the line ``ln0``, in hand, or on a new line."""
    if kind == K_PLAY:
        return 1.0 + bet_value(c) * 0.3 if ln0.num <= 2 else 0.2
    if kind == K_LINE:
        return 0.6 * bet_value(c) if _fit_room(ln0) > 50 else -0.5
    return 0.1 if kind == K_HAND else -1.0


def _greedy_values(ln0: LineStats, jack: Sequence[int], hand_size: int, legal: list[int]) -> list[float]:
    """Level 1: this turn alone, distances in card values (no counting).

    It reads only the mover's line ``ln0``, the jackpot sizes ``jack`` and the mover's hand
    size, so the rollouts pass them straight from a state (no table is built).
    """
    out = []
    for a in legal:
        kind, c = ACTIONS[a]
        if kind == K_SCORE:
            room = _fit_room(ln0)
            out.append(1.0 if ln0.num >= 6 and room < 12 or (ln0.bet_token() > 0 and room < 8) else 0.0)
        elif kind == K_PASS:
            out.append(0.5)
        elif c > NUM_NUMBERS:
            out.append(_greedy_bet(ln0, kind, c))
        else:
            out.append(_greedy_number(ln0, jack, hand_size, kind, c))
    return out


#: a line with no card (what ``pick c new`` starts from)
_EMPTY_LINE = LineStats()


# ----------------------------------------------------------------------------- reasons
def _dir_word(d: int) -> str:
    """The word of a line direction."""
    return "ascending" if d > 0 else "descending"


def _room_left(ln: LineStats) -> int:
    """Values still beyond a line's end in its direction (99 while it has no direction)."""
    if ln.num < 2:
        return NUM_NUMBERS - 1
    return (NUM_NUMBERS - ln.last) if ln.dir > 0 else (ln.last - 1)


class LineItKnowledge(Knowledge):
    """Line-it heuristics (greedy, planner), reasons and rollout evaluation."""

    env_name = "lineit_v0"

    # ------------------------------------------------------------------ scores
    def scores(self, game: Game[Any, Any], view: LineItView, legal: list[int], level: int) -> np.ndarray:
        """Level 1: greedy values of this turn; level 2: the planner's position values."""
        if level <= 1:
            me = view.seat
            ln0 = LineStats.of(view.lines[me])
            jack = [len(x) for x in view.jackpots]
            return np.asarray(_greedy_values(ln0, jack, len(view.hands[me]), legal), float)
        tab = _Table.of_view(view)
        return np.asarray(_Planner(tab, tab.me).values(legal), float)

    def action_facts(self, game: Game[Any, Any], view: LineItView, legal: list[int]) -> np.ndarray:
        """``[len(legal), 18]`` facts per legal action from the View (for learned scorers).

        Kind of action (line, hand, new, play, score, pass: one-hot), a Bet's value, does
        the card fit my line now, the gap it leaves to my line's last card over the room
        in that direction, the room left beyond it, does it set the line's direction, its
        colour's jackpot size, would it be the third card of its colour, my count of that
        colour; and of the position: my hand size, line length, room left, Bet cards owed.
        """
        me = view.seat
        ln = LineStats.of(view.lines[me])
        room_now = _room_left(ln)
        owed = max(bet_value(ln.bet) - ln.after, 0) / 5 if ln.bet else 0.0
        out = np.zeros((len(legal), 18), np.float32)
        out[:, 14:18] = len(view.hands[me]) / 2, ln.num / 10, room_now / 99, owed
        for i, a in enumerate(legal):
            kind, c = ACTIONS[a]
            f = out[i]
            f[kind] = 1.0  # 0..5: line, hand, new, play, score, pass
            if kind in (K_SCORE, K_PASS):
                continue
            fits = ln.fits(c)
            f[7] = float(fits)
            if is_bet(c):
                f[6] = bet_value(c) / 5
                continue
            if ln.num == 0:
                f[9] = max(NUM_NUMBERS - c, c - 1) / 99
            else:
                up = c > ln.last if ln.num == 1 else ln.dir > 0
                room = (NUM_NUMBERS - ln.last) if up else (ln.last - 1)
                if fits:
                    f[8] = (abs(c - ln.last) - 1) / max(room, 1)
                    f[9] = ((NUM_NUMBERS - c) if up else (c - 1)) / 99
                else:
                    f[8] = 1.0
                f[10] = float(ln.num == 1)
            k = colour_of(c)
            f[11] = len(view.jackpots[k]) / 10
            f[12] = float(ln.col[k] == 2 and fits)
            f[13] = ln.col[k] / 3
        return out

    def rollout_action(self, game: Game[Any, Any], state: State, rng: np.random.Generator) -> int:
        """Greedy move of the player to move, read straight off the (sampled) state.

        Line-it hides only the deck order, which the heuristics never use, so the state
        gives the same scores as that player's view, without building the view.
        """
        legal = game.legal_actions(state)
        if len(legal) == 1:
            return legal[0]
        p = state.current
        sc = _greedy_values(state.stats[p], [len(x) for x in state.jackpots], len(state.hands[p]), legal)
        return legal[argmax_random(sc, rng)]

    def rollouts(self, game: Game[Any, Any], root: Any) -> Rollouts:
        """The greedy rollouts of :meth:`rollout_action`, in one tight loop (:class:`LineItRollouts`)."""
        if type(self).rollout_action is not LineItKnowledge.rollout_action:
            return Rollouts(self, game, root)  # a subclass's own rollout policy: the generic loop
        return LineItRollouts(self, game, root)

    # ------------------------------------------------------------------ evaluate
    def evaluate(self, game: Game[Any, Any], state: State, player: int) -> float:
        """The lead of ``player``'s expected final score over the best rival's, squashed by tanh."""
        n = state.n
        tabs = _Table.of_state(state, player)
        eq = [_Planner(tabs, s).equity() for s in range(n)]
        best_other = max(eq[s] for s in range(n) if s != player)
        return float(math.tanh((eq[player] - best_other) / 6.0))

    # ------------------------------------------------------------------ reasons
    def reason(self, game: Game[Any, Any], view: LineItView, action: int) -> str:
        """Why ``action`` is worth playing, in the words of the planner's terms."""
        return self.named_reason(game, view, action)

    def named_reason(self, game: Game[Any, Any], view: LineItView, action: int,
                     names: Sequence[str] | None = None) -> str:
        """:meth:`reason`, naming the seat a pick blocks by ``names`` when given."""
        tab = _Table.of_view(view)
        ln = tab.lines[tab.me]
        pl = _Planner(tab, tab.me)
        kind, c = ACTIONS[int(action)]
        if kind == K_SCORE:
            return self._score_reason(tab, ln)
        if kind == K_PASS:
            return self._pass_reason(tab, pl, ln, tab.hands[tab.me])
        if kind == K_PLAY:
            return f"play {card_text(c)} from hand: " + self._line_words(tab, ln, c)
        if kind == K_LINE:
            text = f"pick {card_text(c)} line: " + self._line_words(tab, ln, c)
        elif kind == K_HAND:
            text = f"pick {card_text(c)} hand: " + self._hand_words(ln, c)
        else:
            text = (f"pick {card_text(c)} new: no market card fits the line or the full hand; scores "
                    f"the line ({plural(ln.num, 'number card')}, banks {ln.banked()}"
                    + (self._bet_words(ln) if ln.bet else "") + f") and starts a new line at {card_text(c)}")
        return text + self._block_words(tab, pl, c, names)

    @staticmethod
    def _bet_words(ln: LineStats) -> str:
        """Whether scoring the line wins or loses its Bet."""
        v = bet_value(ln.bet)
        if ln.bet_token() > 0:
            return f", wins the B{v} bet"
        return f", loses the B{v} bet ({ln.after} of {v} after it)"

    def _line_words(self, tab: _Table, ln: LineStats, c: int) -> str:
        """What putting ``c`` at the end of the line does."""
        if is_bet(c):
            v = bet_value(c)
            mu = _Planner(tab, tab.me).adds(ln)
            pw = _poisson_tail(mu, v)
            return (f"bets that {v} or more number cards follow; about {mu:.1f} more are expected "
                    f"to fit ({100 * pw:.0f}% to win +{v}, else -{v})")
        after = ln.copy()
        k = after.add(c)
        parts = [self._direction_words(tab, ln, after, c)]
        col = colour_of(c)
        if k >= 0:
            parts.append(f"third {COLOUR_KEYS[k]} card claims the {COLOUR_KEYS[k]} jackpot "
                         f"({plural(tab.jack[k], 'card')})")
        elif after.col[col] == _ONE_SHORT and tab.jack[col] > 0:
            parts.append(f"second {COLOUR_KEYS[col]} card: the next one claims the "
                         f"{COLOUR_KEYS[col]} jackpot ({plural(tab.jack[col], 'card')})")
        if ln.bet and after.after == bet_value(ln.bet):
            parts.append(f"completes the {card_text(ln.bet)} bet")
        return ", ".join(parts)

    @staticmethod
    def _direction_words(tab: _Table, ln: LineStats, after: LineStats, c: int) -> str:
        """How number ``c`` starts, sets or keeps the line's direction."""
        if ln.num == 0:
            side = "ascend" if c <= NUM_NUMBERS // 2 else "descend"
            return f"starts the line at {c}, room to {side} ({max(c - 1, NUM_NUMBERS - c)} values)"
        if ln.num == 1:
            return (f"sets the line {_dir_word(after.dir)} from {ln.last} with a gap of "
                    f"{abs(c - ln.last) - 1}, {_fit(tab.beyond(c, after.dir))}")
        return (f"keeps the {_dir_word(ln.dir)} line with a gap of {abs(c - ln.last) - 1}, "
                f"{_fit(tab.beyond(c, ln.dir))} after it")

    @staticmethod
    def _hand_words(ln: LineStats, c: int) -> str:
        """What keeping ``c`` in hand is for."""
        if is_bet(c):
            if ln.bet:
                return "the line already holds a Bet; keeps the Bet for the next line"
            v = bet_value(c)
            return f"keeps the B{v} bet for a fresh line with room for {v} cards after it"
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

    @staticmethod
    def _block_words(tab: _Table, pl: _Planner, c: int, names: Sequence[str] | None = None) -> str:
        """Whether taking ``c`` denies the next player a jackpot."""
        if tab.phase != PICK or tab.picks_left <= 1:
            return ""
        before = pl.threat(tab.market)
        rest = tab.market[:]
        rest.remove(c)
        if before > 0 and pl.threat(rest) < before:
            nxt = (tab.me + 1) % tab.n
            k = colour_of(c)
            return (f"; also denies {seat_words(nxt, names)} the {COLOUR_KEYS[k]} jackpot "
                    f"({plural(tab.jack[k], 'card')})")
        return ""

    def _score_reason(self, tab: _Table, ln: LineStats) -> str:
        """Why score the line now."""
        text = f"score: the line has {plural(ln.num, 'number card')}, banks {ln.banked()}"
        if ln.bet:
            text += self._bet_words(ln)
        if ln.num <= DISCARDED_PER_LINE:
            text += " (banks nothing: a line's first three number cards are always discarded)"
        else:
            s, d = _supply(tab, ln)
            if d:
                text += f"; only {_fit(s)} beyond {ln.last}"
            if len(tab.hands[tab.me]) >= HAND_LIMIT:
                text += ", and with a full hand a forced new is near"
        return text

    @staticmethod
    def _pass_reason(tab: _Table, pl: _Planner, ln: LineStats, hand: list[int]) -> str:
        """Why play nothing or keep the line open."""
        if tab.phase == PLAY:
            held = "the hand card " if len(hand) == 1 else "the hand cards "
            return ("pass: keeps " + held + ", ".join(card_text(h) for h in hand)
                    + " for a better moment; playing now would use up room on the line")
        if tab.phase == FINAL:
            return "pass: no hand card adds anything at the end"
        s, d = _supply(tab, ln)
        mu = pl.adds(ln)
        text = f"pass: keeps the line of {plural(ln.num, 'number card')} open"
        if d:
            text += f"; {_fit(s)} beyond {ln.last} (about {mu:.1f} more expected)"
        if ln.bet and ln.bet_token() < 0:
            need = plural(bet_value(ln.bet) - ln.after, "card")
            text += f"; the {card_text(ln.bet)} bet still needs {need}"
        elif ln.num <= DISCARDED_PER_LINE:
            text += "; scoring now would discard all of it"
        return text


def _fit(n: int) -> str:
    """``"3 deck cards still fit"``, ``"1 deck card still fits"``."""
    return f"{plural(n, 'deck card')} still {'fits' if n == 1 else 'fit'}"


class LineItRollouts(Rollouts):
    """The expert's rollouts in Line-it: :meth:`LineItKnowledge.rollout_action`'s greedy
    moves, played by one loop straight on the rules' state (no call per move through the
    game's checked ``apply``: the moves are legal by construction), ties broken by a
    :class:`~agents.knowledge.Ties` stream."""

    def play_out(self, state: State, rng: np.random.Generator, depth: int, player: int) -> float:
        """Play ``state`` on greedily for up to ``depth`` moves and value the end for ``player``."""
        ties = Ties(rng)
        for _ in range(depth):
            if state.phase == OVER:
                break
            legal = state.legal if state.legal is not None else legal_actions(state)
            if len(legal) == 1:
                action = legal[0]
            else:
                p = state.current
                jack = [len(x) for x in state.jackpots]
                action = legal[ties.argmax(_greedy_values(state.stats[p], jack, len(state.hands[p]), legal))]
            apply_action(state, action)
        if state.phase == OVER:
            return self.outcome(state, player)
        return self.evaluate(state, player)


#: the game's entry in the agents package (named by its registry entry in cardenvs.registry)
SPEC = GameAgents(
    knowledge=LineItKnowledge,
    cast=("Juno", "Kit", "Lou", "Max"),
    expert_budget={"simulations": 32, "depth": 16, "max_candidates": 6, "paired": True, "min_worlds": 4,
                   "confidence": 2.0, "tolerance": 0.05},
    ladder_scale={
        2: Reference("docs/results/lineit_v0_2p.md", 600, {
            "random": (-2.5, 3.75), "greedy": (34.4, 2.1), "planner": (40.4, 1.9), "expert": (51.0, 2.1)}),
        3: Reference("docs/results/lineit_v0_3p.md", 96, {
            "random": (22.3, 3.55), "greedy": (22.9, 3.35), "planner": (26.5, 3.25), "expert": (36.0, 3.5)}),
        4: Reference("docs/results/lineit_v0_4p.md", 24, {
            "random": (17.3, 6.05), "greedy": (19.0, 6.05), "planner": (23.2, 5.9), "expert": (40.7, 6.15)}),
    },
)
