"""Legal moves as the client shows them: text, words, the cards and the spots.

A move's ``cards`` are the card ids it names and its ``spots`` the places on the table it
names (``PROTOCOL.md``, "Moves").  All of it comes from the game's table face
(:meth:`cardenvs.core.words.TableFace.describe`), from the action id's fixed meaning and,
for a move whose card is the face-up top of a pile, the mover's own View.  Nothing here
reads a full state or knows a game.
"""

from __future__ import annotations

from agents.types import S, V
from cardenvs.core.game import Game
from cardenvs.core.words import MoveWords

from .catalog import face
from .types import JsonDict


def words(env: str, game: Game[S, V], action: int, view: V | None = None) -> MoveWords:
    """A move in words: the mover's (``label``) and everyone else's (``others``)."""
    return face(env).describe(game, action, view)


def move_entry(env: str, game: Game[S, V], action: int, view: V) -> JsonDict:
    """One legal move for the mover's client (``{"id", "text", "label", "cards", "spots"}``)."""
    said = words(env, game, action, view)
    return {"id": action, "text": game.action_to_str(action), "label": said.label,
            "cards": list(said.cards), "spots": list(said.spots)}


def legal_moves(env: str, game: Game[S, V], legal: list[int], view: V) -> list[JsonDict]:
    """Every legal move of the mover, in id order."""
    return [move_entry(env, game, a, view) for a in legal]
