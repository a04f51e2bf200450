"""Line-it's greedy (level 1: :func:`_greedy_values`) and planner (level 2: :class:`_Planner`)
values, and the learned scorers' action facts (:class:`LineItScoring`)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from cardenvs.core.game import Game
from cardenvs.lineit.state import (
    ACTIONS,
    DISCARDED_PER_LINE,
    HAND_LIMIT,
    JACKPOT_CLAIM,
    K_HAND,
    K_LINE,
    K_PASS,
    K_PLAY,
    K_SCORE,
    NUM_NUMBERS,
    PICK,
    SCORE,
    LineItView,
    LineStats,
    State,
    bet_value,
    colour_of,
    is_bet,
)

from ...players.knowledge import Knowledge
from .context import (
    _F2,
    _KMAX,
    _ONE_SHORT,
    _TABLES,
    _W_BLOCK,
    _cards_seen,
    _lookup,
    _poisson_tail,
    _room_fraction,
    _room_left,
    _supply,
    _Table,
)


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


#: a line with no card (what ``pick c new`` starts from)
_EMPTY_LINE = LineStats()


class LineItScoring(Knowledge[State, LineItView]):
    """Line-it's level 1 and 2 scores and the action facts of learned scorers."""

    # ------------------------------------------------------------------ scores
    def scores(self, game: Game[State, LineItView],
               view: LineItView, legal: list[int], level: int) -> np.ndarray:
        """Level 1: greedy values of this turn; level 2: the planner's position values."""
        if level <= 1:
            me = view.seat
            ln0 = LineStats.of(view.lines[me])
            jack = [len(x) for x in view.jackpots]
            return np.asarray(_greedy_values(ln0, jack, len(view.hands[me]), legal), float)
        tab = _Table.of_view(view)
        return np.asarray(_Planner(tab, tab.me).values(legal), float)

    def action_facts(self, game: Game[State, LineItView], view: LineItView, legal: list[int]) -> np.ndarray:
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
