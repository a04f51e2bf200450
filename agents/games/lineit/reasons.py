"""The coach's reasons for Line-it's moves, in words (:class:`LineItReasons`)."""

from __future__ import annotations

from collections.abc import Sequence

from cardenvs.core.game import Game
from cardenvs.core.words import plural
from cardenvs.lineit.state import (
    ACTIONS,
    COLOUR_KEYS,
    DISCARDED_PER_LINE,
    FINAL,
    HAND_LIMIT,
    K_HAND,
    K_LINE,
    K_PASS,
    K_PLAY,
    K_SCORE,
    NUM_NUMBERS,
    PICK,
    PLAY,
    LineItView,
    LineStats,
    State,
    bet_value,
    card_text,
    colour_of,
    is_bet,
)

from ...players.knowledge import Knowledge, seat_words
from .context import _ONE_SHORT, _dir_word, _poisson_tail, _supply, _Table
from .scoring import _Planner


class LineItReasons(Knowledge[State, LineItView]):
    """Why a move is worth playing, in the words of the planner's terms (the coach)."""

    # ------------------------------------------------------------------ reasons
    def reason(self, game: Game[State, LineItView], view: LineItView, action: int) -> str:
        """Why ``action`` is worth playing, in the words of the planner's terms."""
        return self.named_reason(game, view, action)

    def named_reason(self, game: Game[State, LineItView], view: LineItView, action: int,
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
