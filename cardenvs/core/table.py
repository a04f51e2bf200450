"""A game's table face: its words and numbers for people sitting at a table.

The rules core answers what is legal and who won; a table (the browser table's server,
``cardtable``, or the terminal table, ``agents.play``) also needs the game's own words for
people: what a move does (said to the mover and to everyone else), the prompt of a turn,
the scores column, a judged round and the end of a game, the text of each card, and the
facts a board draws that the View holds only implicitly (a Rummy hand's groups, a Line
row's kind).  Each game writes them once, in a :class:`TableFace` subclass (its kit names
the module, see :mod:`cardenvs.registry`); a generic table asks the face and never the
game's name.

Everything here is computed on the server from what the rules give (the View of the seat
being answered, or :meth:`~cardenvs.core.game.Game.public_view` for a spectator): the
browser draws it and judges nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .cards import JOKER, RANKS, SUIT_SYMBOLS, SUITS, card_str
from .game import Game


@dataclass(frozen=True)
class MoveWords:
    """One move as people read it.

    ``label`` speaks to the mover ("Play 7♥ into row 2"), ``others`` to everyone else
    ("plays 7♥ into row 2", after the mover's name); ``cards`` are the card ids the move
    names and ``spots`` the places on the table it names (a board highlights them, and a
    tap on them selects the move).
    """

    label: str
    others: str
    cards: list[int] = field(default_factory=list)
    spots: list[str] = field(default_factory=list)


def pretty_card(card: int) -> str:
    """A standard card (or the joker) for people: ``7♥``, ``10♠``, ``joker``."""
    if card == JOKER:
        return "joker"
    text = card_str(card)
    rank = "10" if text[0] == "T" else text[0]
    return rank + SUIT_SYMBOLS[card % 4]


_NOTATION = re.compile(rf"\b([{RANKS}])([{SUITS}])\b")


def pretty_text(text: str) -> str:
    """Standard-card notation inside a sentence as people read it: ``throw 7h`` -> ``throw 7♥``."""
    def symbol(m: re.Match[str]) -> str:
        return ("10" if m.group(1) == "T" else m.group(1)) + SUIT_SYMBOLS[SUITS.index(m.group(2))]

    return _NOTATION.sub(symbol, text)


class TableFace:
    """What a table shows of one game beyond its View (defaults: plain and generic).

    Subclasses override what their game has: at least :meth:`describe`.  Every method
    is given the rules object of the table (``game``) and reads only what it is passed.
    """

    #: a sentence for the lobby: what the game is like
    blurb: str = ""
    #: card ids the lobby's tile for the game shows
    tile: tuple[int, ...] = ()
    #: the heading of the scores column in the game's result
    score_name: str = "score"
    #: a note under the game's result (how the winner is decided)
    result_note: str = ""

    def card_texts(self, game: Game[Any, Any]) -> list[str | None]:
        """The text of every card id the game's Views use (``None`` where an id is no card)."""
        return []

    def describe(self, game: Game[Any, Any], action: int, view: Any) -> MoveWords:
        """The words, cards and spots of ``action``, from the mover's View before it (``view``
        is ``None`` when the move is described without one, e.g. in a record)."""
        text = game.action_to_str(action)
        return MoveWords(text, text)

    def prompt(self, game: Game[Any, Any], view: Any, legal: list[int]) -> str:
        """What the seat to move is asked to do (its own View and legal moves)."""
        return "make a move"

    def scores(self, game: Game[Any, Any], view: Any, result: dict[str, Any] | None) -> list[Any] | None:
        """Public numbers per seat for the scores column (``result``: the finished game's
        result, else ``None``); ``None`` when the game shows none."""
        return None

    def board(self, game: Game[Any, Any], view: Any) -> dict[str, Any]:
        """Facts the board draws that the View holds only implicitly, judged here by the
        rules (a hand's groups, a row's kind, a line's direction); JSON-ready."""
        return {}

    def round_result(self, game: Game[Any, Any], state: Any) -> dict[str, Any] | None:
        """The round the latest move ended, as the table shows it (every hand, who won and
        why, in words), or ``None`` when no round just ended; JSON-ready."""
        return None

    def round_text(self, result: dict[str, Any], names: list[str]) -> str:
        """A judged round (from :meth:`round_result`) as lines of text for a terminal."""
        return ""

    def words(self, text: str) -> str:
        """Text in the game's notation (a coach's reason) as people read it."""
        return text


__all__ = ["MoveWords", "TableFace", "pretty_card", "pretty_text"]
