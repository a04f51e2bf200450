"""Line-it's table face: its moves, prompts, board facts and scores in words (see
:mod:`cardenvs.core.words`)."""

from __future__ import annotations

from typing import Any

from cardenvs.core.game import Game
from cardenvs.core.words import MoveWords, TableFace, names_and, plural

from .rules import LineItGame
from .state import (
    ACTIONS,
    COLOUR_KEYS,
    COLOUR_SYMBOLS,
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


class LineItFace(TableFace):
    """Line-it at a table: the market, the jackpots, and each player's line, hand and bank."""

    blurb = ("Draft cards from the market into a line that climbs or falls, bank it for points, and "
             "chase colour jackpots and Bets.")
    tile = (13, 30, 102)
    result_note = ("Your score is the cards in your scoring pile plus your Bet tokens; the highest score "
                   "wins, and a tie shares the win.")
    spot_names = {"market": "the market", "line": "your line", "hand": "your hand",
                  "new": "a new line", "deck": "the deck"}

    def card_texts(self, game: Game[Any, Any]) -> list[str | None]:
        """Number cards and Bets (ids 1..103; id 0 is no card)."""
        return [None] + [card_text(c) for c in range(1, NUM_KINDS + 1)]

    def card_names(self, game: Game[Any, Any]) -> list[str | None]:
        """Number cards with their colour ("37, blue diamond") and Bets ("Bet of 4")."""
        out: list[str | None] = [None]
        for c in range(1, NUM_KINDS + 1):
            if c > 100:
                out.append(f"Bet of {c - 98}")
            else:
                k = (c - 1) & 3
                out.append(f"{c}, {COLOUR_KEYS[k]} {COLOUR_SYMBOLS[k]}")
        return out

    def seat_facts(self, game: Game[Any, Any], view: LineItView) -> list[str]:
        """Score, cards in hand and in the line."""
        return [f"score {score(view.scored[s], view.tokens[s])}, "
                f"{plural(len(view.hands[s]), 'card')} in hand, "
                f"{plural(len(view.lines[s]), 'card')} in the line" for s in range(view.num_players)]

    def hands(self, game: Game[Any, Any], state: Any) -> list[list[int]] | None:
        """Every seat's hand (Line-it's hands are public all game)."""
        view = game.view(state, 0)
        return [[int(c) for c in h] for h in view.hands]

    def game_why(self, game: Game[Any, Any], state: Any, names: list[str]) -> list[str]:
        """Each seat's final score (scoring pile + Bet tokens) against the winners'."""
        if not isinstance(game, LineItGame):
            raise TypeError(f"Line-it's table face needs a LineItGame, got {type(game).__name__}")
        infos = game.infos(state)
        if not infos or "score" not in infos[0]:
            return []
        scores = [int(i["score"]) for i in infos]

        def parts(p: int) -> str:
            banked, tokens = int(infos[p]["scored_cards"]), int(infos[p]["token_total"])
            return f"{names[p]} {banked} {'+' if tokens >= 0 else '-'} {abs(tokens)} = {scores[p]}"

        top = max(scores)
        winners = [p for p, x in enumerate(scores) if x == top]
        w = names_and([names[p] for p in winners])
        out = ["Every line was scored at the end. Scores, cards banked plus Bet tokens: "
               + ", ".join(parts(p) for p in range(len(scores))) + "."]
        if len(winners) > 1:
            out.append(f"{w} share the win with {plural(top, 'point')} each.")
        for p in range(len(scores)):
            if p not in winners:
                out.append(f"{w} beat {names[p]} on score, {top} to {scores[p]} (the highest wins).")
        return out

    def describe(self, game: Game[Any, Any], action: int, view: LineItView | None) -> MoveWords:
        """A pick (to the line, the hand or a new line), a play, a score or a pass."""
        kind, card = ACTIONS[action]
        name = card_text(card)
        if kind == K_LINE:
            return MoveWords(f"Pick {name} onto your line", f"picked {name} onto their line", [card],
                             ["market", "line"])
        if kind == K_HAND:
            return MoveWords(f"Pick {name} into your hand", f"picked {name} into their hand", [card],
                             ["market", "hand"])
        if kind == K_NEW:
            return MoveWords(f"Pick {name}: score your line and start a new one",
                             f"picked {name}: scored their line and started a new one", [card],
                             ["market", "new"])
        if kind == K_PLAY:
            return MoveWords(f"Play {name} from your hand onto your line",
                             f"played {name} from their hand onto their line", [card], ["hand", "line"])
        if kind == K_SCORE:
            return MoveWords("Score your line", "scored their line", [], ["line"])
        return MoveWords("Pass", "passed")

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
TABLE = LineItFace()
