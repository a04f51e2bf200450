"""Line's table face: its moves, prompts, board facts and result in words (see
:mod:`cardenvs.core.words`)."""

from __future__ import annotations

from typing import Any

from cardenvs.core.cards import JOKER, card_str
from cardenvs.core.game import Game
from cardenvs.core.words import (
    MoveWords,
    OptionWords,
    TableFace,
    names_and,
    plural,
    pretty_card,
    pretty_text,
    spoken_card,
)

from .render import order_row
from .rules import LineGame
from .state import ACTION_INFO, K_DISCARD, K_DRAW, K_PLAY, K_SHIFT, K_TAKE, K_UPGRADE, LineView


def _rules(game: Game[Any, Any]) -> LineGame:
    if not isinstance(game, LineGame):
        raise TypeError(f"Line's table face needs a LineGame, got {type(game).__name__}")
    return game


def row_kind(row: tuple[int, ...] | list[int]) -> str:
    """``"empty"``, ``"open"`` (one real card: run or set still open), ``"set"`` or ``"run"``."""
    reals = [c for c in row if c != JOKER]
    if len(reals) < 2:
        return "open" if row else "empty"
    return "set" if len({c >> 2 for c in reals}) == 1 else "run"


class LineFace(TableFace):
    """Line at a table: a shared grid of four rows, a hand, a draw pile and a discard."""

    blurb = ("Spatial rummy: everybody builds one shared grid of four rows of runs and sets, jokers "
             "wild. When the grid is full, the player holding the least wins.")
    tile = (16, 20, JOKER)
    score_name = "hand total"
    result_note = ("The lowest hand total wins; a tie goes to the player with fewer cards; still level, "
                   "the win is shared.")
    option_words = {
        "joker_points": OptionWords("Joker points", "what a joker left in your hand counts at the end"),
    }
    spot_names = {"row:0": "row 1", "row:1": "row 2", "row:2": "row 3", "row:3": "row 4",
                  "hand": "your hand", "deck": "the draw pile", "discard": "the discard pile"}

    def card_texts(self, game: Game[Any, Any]) -> list[str | None]:
        """Every card and the joker (id 52)."""
        return [card_str(c) for c in range(JOKER + 1)]

    def card_names(self, game: Game[Any, Any]) -> list[str | None]:
        """Every card and the joker as spoken ("7 of hearts", "joker")."""
        return [spoken_card(c) for c in range(JOKER + 1)]

    def seat_facts(self, game: Game[Any, Any], view: LineView) -> list[str]:
        """Cards in hand, and the jokers everyone knows a seat holds."""
        out = []
        for s in range(view.num_players):
            facts = plural(view.hand_sizes[s], "card") + " in hand"
            if view.known_jokers[s]:
                facts += f", {plural(view.known_jokers[s], 'joker')} known"
            out.append(facts)
        return out

    def game_why(self, game: Game[Any, Any], state: Any, names: list[str]) -> list[str]:
        """How the game ended, then each deciding comparison: the lowest hand total wins,
        fewer cards break a tie, still level shares the win."""
        rules = _rules(game)
        winners = rules.winners(state)
        if not winners:
            return []
        n = rules.num_players
        totals = [rules.hand_total(state, p) for p in range(n)]
        sizes = [len(state.hands[p]) for p in range(n)]
        full = all(len(row) == 4 for row in state.rows)
        out = ["The grid is full, so the game ended." if full
               else "The player to move could neither take nor draw, so the game ended."]
        w = names_and([names[i] for i in winners])
        best = winners[0]
        if len(winners) > 1:
            out.append(f"{w} share the win: the same hand total, {totals[best]}, and the same number of "
                       f"cards, {sizes[best]}.")
        for p in range(n):
            if p in winners:
                continue
            if totals[p] != totals[best]:
                out.append(f"{w} beat {names[p]} on hand total, {totals[best]} to {totals[p]} (the lowest "
                           "wins).")
            else:
                out.append(f"{w} beat {names[p]} on cards held, {sizes[best]} to {sizes[p]}, with the same "
                           f"hand total, {totals[best]} (fewer cards win a tie).")
        return out

    def describe(self, game: Game[Any, Any], action: int, view: LineView | None) -> MoveWords:
        """A play, upgrade, shift, take, draw or discard, with its cards and spots."""
        kind, card, row, extra = ACTION_INFO[action]
        if kind == K_PLAY:
            drawn = " (the drawn card)" if view is not None and view.pending == card else ""
            what = f"{pretty_card(card)}{drawn} into row {row + 1}"
            return MoveWords(f"Play {what}", f"played {what}", [card], [f"row:{row}"])
        if kind == K_UPGRADE:
            what = f"{pretty_card(card)} in place of the joker in row {row + 1}; the joker goes to"
            if extra < 0:
                return MoveWords(f"Put {what} your hand", f"put {what} their hand", [card, JOKER],
                                 [f"row:{row}", "hand"])
            return MoveWords(f"Put {what} row {extra + 1}", f"put {what} row {extra + 1}", [card, JOKER],
                             [f"row:{row}", f"row:{extra}"])
        if kind == K_SHIFT:
            what = f"{pretty_card(card)} into row {row + 1}, pushing {pretty_card(extra)} out to the discard"
            return MoveWords(f"Shift {what}", f"shifted {what}", [card, extra], [f"row:{row}", "discard"])
        if kind == K_TAKE:
            top = view.discard[-1] if view is not None and view.discard else None
            name = pretty_card(top) if top is not None else "the top discard"
            what = f"{name} from the discard into row {row + 1}"
            return MoveWords(f"Take {what}", f"took {what}", [] if top is None else [top],
                             ["discard", f"row:{row}"])
        if kind == K_DRAW:
            return MoveWords("Draw from the pile", "drew from the pile", [], ["deck"])
        assert kind == K_DISCARD
        name = pretty_card(card)
        return MoveWords(f"Discard {name}", f"discarded {name}", [card], ["discard"])

    def prompt(self, game: Game[Any, Any], view: LineView, legal: list[int]) -> str:
        """The turn's choice: place the drawn card, discard down to seven, or play."""
        if view.phase == "place_drawn" and view.pending is not None:
            return f"place the drawn {pretty_card(view.pending)} into a row"
        if view.phase == "discard":
            return "you hold 8 cards: discard one"
        if legal and all(ACTION_INFO[a][0] in (K_TAKE, K_DRAW) for a in legal):
            return "no play, upgrade or shift: take the top discard into a row, or draw"
        bonus = " (bonus turn)" if view.bonus_turn else ""
        return f"play a card into a row, upgrade a joker or shift a run{bonus}"

    def scores(self, game: Game[Any, Any], view: LineView, result: dict[str, Any] | None) -> list[Any] | None:
        """Each seat's hand total, once the game is over."""
        if result is None:
            return None
        return [info.get("hand_total") for info in result["infos"]]

    def board(self, game: Game[Any, Any], view: LineView) -> dict[str, Any]:
        """The rows in tidy order with their kind, and the seat's hand sorted with its total."""
        values = _rules(game).card_values
        hand = sorted(view.hand, key=lambda c: (c == JOKER, c & 3, c))
        return {
            "rows": [{"cards": order_row(list(row)), "kind": row_kind(row), "full": len(row) == 4}
                     for row in view.rows],
            "hand": hand,
            "hand_total": sum(values[c] for c in hand),
        }

    def words(self, text: str) -> str:
        """Card notation as suit symbols (``7h`` -> ``7♥``)."""
        return pretty_text(text)


#: Line's table face, named by its kit
TABLE = LineFace()
