"""Line-it's table face: its moves, prompts, board facts and scores in words (see
:mod:`cardenvs.core.table`)."""

from __future__ import annotations

from typing import Any

from cardenvs.core.game import Game
from cardenvs.core.table import MoveWords, TableFace

from .state import (
    ACTIONS,
    K_HAND,
    K_LINE,
    K_NEW,
    K_PLAY,
    K_SCORE,
    NUM_KINDS,
    LineItView,
    LineStats,
    bet_value,
    card_text,
    score,
)

#: what each phase asks of the seat to move
PHASE_WORDS = {
    "pick": "pick a market card: to your line, your hand, or a new line",
    "play": "play a hand card onto your line, or pass",
    "score": "score your line, or pass",
    "final": "final phase: play one hand card that fits, or pass",
}


class LineItTable(TableFace):
    """Line-it at a table: the market, the jackpots, and each player's line, hand and bank."""

    blurb = ("Draft cards from the market into a line that climbs or falls, bank it for points, and "
             "chase colour jackpots and Bets.")
    tile = (13, 30, 102)

    def card_texts(self, game: Game[Any, Any]) -> list[str | None]:
        """Number cards and Bets (ids 1..103; id 0 is no card)."""
        return [None] + [card_text(c) for c in range(1, NUM_KINDS + 1)]

    def describe(self, game: Game[Any, Any], action: int, view: LineItView | None) -> MoveWords:
        """A pick (to the line, the hand or a new line), a play, a score or a pass."""
        kind, card = ACTIONS[action]
        name = card_text(card)
        if kind == K_LINE:
            return MoveWords(f"Pick {name} onto your line", f"picks {name} onto their line", [card],
                             ["market", "line"])
        if kind == K_HAND:
            return MoveWords(f"Pick {name} into your hand", f"picks {name} into their hand", [card],
                             ["market", "hand"])
        if kind == K_NEW:
            return MoveWords(f"Pick {name}: score your line and start a new one",
                             f"picks {name}: scores their line and starts a new one", [card],
                             ["market", "new"])
        if kind == K_PLAY:
            return MoveWords(f"Play {name} from your hand onto your line",
                             f"plays {name} from their hand onto their line", [card], ["hand", "line"])
        if kind == K_SCORE:
            return MoveWords("Score your line", "scores their line", [], ["line"])
        return MoveWords("Pass", "passes")

    def prompt(self, game: Game[Any, Any], view: LineItView, legal: list[int]) -> str:
        """What the phase asks."""
        return PHASE_WORDS.get(view.phase, view.phase)

    def scores(self, game: Game[Any, Any], view: LineItView,
               result: dict[str, Any] | None) -> list[Any] | None:
        """Each seat's score: banked cards plus Bet tokens."""
        return [score(s, t) for s, t in zip(view.scored, view.tokens)]

    def board(self, game: Game[Any, Any], view: LineItView) -> dict[str, Any]:
        """Each line's direction, last number, Bet (its value and the numbers after it) and
        number cards of each colour, as the rules count them."""
        lines = []
        for line in view.lines:
            st = LineStats.of(line)
            lines.append({"dir": st.dir, "last": st.last if st.num else None, "numbers": st.num,
                          "bet": bet_value(st.bet) if st.bet else 0, "after": st.after,
                          "colours": list(st.col)})
        return {"lines": lines}


#: Line-it's table face, named by its kit
TABLE = LineItTable()
