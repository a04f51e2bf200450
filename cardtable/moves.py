"""Legal moves as the client shows them: text, a label in words, the cards and the spots.

A move's ``cards`` are the card ids it names and its ``spots`` the places on the table it
names (``PROTOCOL.md``, "Moves").  Both come from the action id's fixed meaning (the
rules' own action tables) and, for a move whose card is the face-up top of a pile (Line's
``take``, Rummy's ``take``), from the mover's own View.  Nothing here reads a full state.
"""

from __future__ import annotations

from typing import Any

from cardenvs.core.cards import JOKER, SUIT_SYMBOLS, card_str
from cardenvs.core.game import Game


def pretty(card: int) -> str:
    """A standard card for people: ``7♥``, ``10♠``, ``joker``."""
    if card == JOKER:
        return "joker"
    text = card_str(card)
    rank = "10" if text[0] == "T" else text[0]
    return rank + SUIT_SYMBOLS[card % 4]


def _line(action: int, view: Any) -> tuple[str, list[int], list[str]]:
    from cardenvs.line.state import ACTION_INFO, K_DISCARD, K_DRAW, K_PLAY, K_SHIFT, K_TAKE, K_UPGRADE

    kind, card, row, extra = ACTION_INFO[action]
    if kind == K_PLAY:
        drawn = " (the drawn card)" if view is not None and view.pending == card else ""
        return f"Play {pretty(card)}{drawn} into row {row + 1}", [card], [f"row:{row}"]
    if kind == K_UPGRADE:
        dest = "your hand" if extra < 0 else f"row {extra + 1}"
        spot = "hand" if extra < 0 else f"row:{extra}"
        return (f"Put {pretty(card)} in place of the joker in row {row + 1}; the joker goes to {dest}",
                [card, JOKER], [f"row:{row}", spot])
    if kind == K_SHIFT:
        return (f"Shift {pretty(card)} into row {row + 1}, pushing {pretty(extra)} out to the discard",
                [card, extra], [f"row:{row}", "discard"])
    if kind == K_TAKE:
        top = view.discard[-1] if view is not None and view.discard else None
        name = pretty(top) if top is not None else "the top discard"
        return f"Take {name} from the discard into row {row + 1}", [] if top is None else [top], \
            ["discard", f"row:{row}"]
    if kind == K_DRAW:
        return "Draw from the pile", [], ["deck"]
    assert kind == K_DISCARD
    return f"Discard {pretty(card)}", [card], ["discard"]


def _lineit(action: int, view: Any) -> tuple[str, list[int], list[str]]:
    from cardenvs.lineit.state import ACTIONS, K_HAND, K_LINE, K_NEW, K_PLAY, K_SCORE, card_text

    kind, card = ACTIONS[action]
    if kind == K_LINE:
        return f"Pick {card_text(card)} onto your line", [card], ["market", "line"]
    if kind == K_HAND:
        return f"Pick {card_text(card)} into your hand", [card], ["market", "hand"]
    if kind == K_NEW:
        return f"Pick {card_text(card)}: score your line and start a new one", [card], ["market", "new"]
    if kind == K_PLAY:
        return f"Play {card_text(card)} from your hand onto your line", [card], ["hand", "line"]
    if kind == K_SCORE:
        return "Score your line", [], ["line"]
    return "Pass", [], []


def _rummy(action: int, view: Any) -> tuple[str, list[int], list[str]]:
    from cardenvs.rummy432.state import DRAW, FINISH0, TAKE, THROW0

    if action == DRAW:
        return "Draw from the face-down pile", [], ["deck"]
    if action == TAKE:
        top = view.discard_top if view is not None else -1
        name = pretty(top) if top >= 0 else "the top discard"
        return f"Take {name} from the discard pile", [] if top < 0 else [top], ["discard"]
    if action >= FINISH0:
        card = action - FINISH0
        return f"Throw {pretty(card)} and finish", [card], ["discard"]
    card = action - THROW0
    return f"Throw {pretty(card)}", [card], ["discard"]


_DESCRIBE = {"line_v0": _line, "lineit_v0": _lineit, "rummy432_v0": _rummy}


def label(env: str, action: int, view: Any = None) -> str:
    """A move in words (for the log: ``view`` may be ``None``)."""
    return _DESCRIBE[env](action, view)[0]


def move_entry(env: str, game: Game[Any, Any], action: int, view: Any) -> dict[str, Any]:
    """One legal move for the mover's client (``{"id", "text", "label", "cards", "spots"}``)."""
    words, cards, spots = _DESCRIBE[env](action, view)
    return {"id": action, "text": game.action_to_str(action), "label": words, "cards": cards, "spots": spots}


def legal_moves(env: str, game: Game[Any, Any], legal: list[int], view: Any) -> list[dict[str, Any]]:
    """Every legal move of the mover, in id order."""
    return [move_entry(env, game, a, view) for a in legal]
