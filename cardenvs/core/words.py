"""A game's table face: its words and numbers for people sitting at a table.

The rules core answers what is legal and who won; a table (the browser table's server,
``cardtable``, or the terminal table, ``agents.programs.play``) also needs the game's own words for
people: what a move does (said to the mover and to everyone else), the prompt of a turn,
the scores column, a judged round and the end of a game, the text of each card, and the
facts a board draws that the View holds only implicitly (a Rummy hand's groups, a Line
row's kind).  Each game writes them once, in a :class:`TableFace` subclass (its kit names
the module, see :mod:`cardenvs.registry`); a generic table asks the face and never the
game's name.

Everything here is computed on the server from what the rules give (the View of the seat
being answered, or :meth:`~cardenvs.core.game.Game.public_view` for a spectator): the
browser draws it and judges nothing.  A face also says, in plain words, why a round or a
game ended as it did (every deciding comparison, with the players' names), what each
option and option value means to a player, how a screen reader names each card, seat and
place, and which hands to show once a game is over.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .cards import JOKER, RANKS, SUIT_SYMBOLS, SUITS, card_str
from .game import Game

#: the spoken name of each rank and suit (for screen readers: "7 of hearts", "queen of spades")
RANK_NAMES = ("ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king")
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")


@dataclass(frozen=True)
class MoveWords:
    """One move as people read it.

    ``label`` speaks to the mover ("Play 7♥ into row 2", a move to choose), ``others`` is
    the move once played, told to everyone after the mover's name in the past tense of a
    move log ("played 7♥ into row 2": "Ann played 7♥ into row 2"); ``cards`` are the card
    ids the move names and ``spots`` the places on the table it names (a board highlights
    them, and a tap on them selects the move).
    """

    label: str
    others: str
    cards: list[int] = field(default_factory=list)
    spots: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class OptionWords:
    """A game option as a player reads it in the lobby and at the table.

    ``title`` names it ("Run-outs"), ``help`` says what it does in plain words, and
    ``values`` words particular values (``((None, "no limit"),)``): a value not listed is
    shown as it is (a number, a word), ``None`` as "none".
    """

    title: str
    help: str = ""
    values: tuple[tuple[Any, str], ...] = ()

    def value(self, value: Any) -> str:
        """One value in words."""
        for v, words in self.values:
            if v == value and type(v) is type(value):
                return words
        return value_words(value)


def value_words(value: Any) -> str:
    """An option value in plain words when the game says nothing about it: ``None`` is
    "none", a bool "yes"/"no", anything else its text."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def spoken_card(card: int) -> str:
    """A standard card (or the joker) as a screen reader says it: ``7 of hearts``, ``joker``."""
    if card == JOKER:
        return "joker"
    return f"{RANK_NAMES[card >> 2]} of {SUIT_NAMES[card & 3]}"


def names_and(names: list[str]) -> str:
    """``"Ann"``, ``"Ann and Bob"``, ``"Ann, Bob and Cy"``."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def plural(n: int, word: str, many: str | None = None) -> str:
    """``"1 card"``, ``"3 cards"``."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


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
    #: each option's title, help and value words for players (an option not listed shows
    #: its name and the rules' own help)
    option_words: dict[str, OptionWords] = {}
    #: the places of the table a move may name (its ``spots``), as a screen reader says them
    spot_names: dict[str, str] = {}

    def card_texts(self, game: Game[Any, Any]) -> list[str | None]:
        """The text of every card id the game's Views use (``None`` where an id is no card)."""
        return []

    def card_names(self, game: Game[Any, Any]) -> list[str | None]:
        """Every card id as a screen reader says it ("7 of hearts"); by default its text."""
        return self.card_texts(game)

    def spot_name(self, spot: str) -> str:
        """A place of the table (a move's spot) in words, for a screen reader."""
        return self.spot_names.get(spot, spot.replace(":", " "))

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

    def seat_facts(self, game: Game[Any, Any], view: Any) -> list[str]:
        """Per seat, what everyone may know of it in a few words ("8 cards in hand, 1 round
        won"), for screen readers and the seat list; by default the View's hand sizes."""
        sizes = getattr(view, "hand_sizes", None)
        if sizes is None:
            return ["" for _ in range(getattr(view, "num_players", 0))]
        return [plural(int(n), "card") + " in hand" for n in sizes]

    def hands(self, game: Game[Any, Any], state: Any) -> list[list[int]] | None:
        """Every seat's hand (card ids), shown once a game is over and in its replay;
        ``None`` when the game has no hands of cards.  By default each seat's View's
        ``hand``."""
        views = [game.view(state, p) for p in range(game.num_players)]
        if not all(hasattr(v, "hand") for v in views):
            return None
        return [[int(c) for c in v.hand] for v in views]

    def round_result(self, game: Game[Any, Any], state: Any,
                     names: list[str] | None = None) -> dict[str, Any] | None:
        """The round the latest move ended, as the table shows it (every hand, who won and
        why, in words, naming the players by ``names``: ``player_<i>`` when not given), or
        ``None`` when no round just ended; JSON-ready."""
        return None

    def game_why(self, game: Game[Any, Any], state: Any, names: list[str]) -> list[str]:
        """Why a finished game's winners won, in sentences naming every deciding comparison
        ("Ann beat Bob on hand total, 12 to 30"); empty when the game says nothing more than
        who won."""
        return []

    def round_text(self, result: dict[str, Any], names: list[str]) -> str:
        """A judged round (from :meth:`round_result`) as lines of text for a terminal."""
        return ""

    def words(self, text: str) -> str:
        """Text in the game's notation (a coach's reason) as people read it."""
        return text


def seat_names(names: list[str] | None, n: int) -> list[str]:
    """``names`` when given, else ``player_0`` .. ``player_<n-1>``."""
    return list(names) if names is not None else [f"player_{i}" for i in range(n)]


__all__ = ["MoveWords", "OptionWords", "TableFace", "names_and", "plural", "pretty_card", "pretty_text",
           "seat_names", "spoken_card", "value_words"]
