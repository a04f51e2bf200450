"""The toy game's table face (``tests/core/toy_kit.py``): what a table shows of Race to 10."""

from __future__ import annotations

from typing import Any

from cardenvs.core.game import Game
from cardenvs.core.words import MoveWords, TableFace


class ToyFace(TableFace):
    """Race to 10 at a table: the running total, the target, each seat's own secret."""

    blurb = "Take turns adding 1, 2 or 3 to a shared total; whoever reaches the target wins."
    score_name = "points"
    result_note = "The player who reaches the target wins; everyone else loses."

    def describe(self, game: Game[Any, Any], action: int, view: Any) -> MoveWords:
        """``add k``: a button per amount, no cards."""
        k = action + 1
        return MoveWords(f"Add {k} to the total", f"adds {k} to the total", [], ["total"])

    def prompt(self, game: Game[Any, Any], view: Any, legal: list[int]) -> str:
        """How far the total is from the target."""
        left = int(game.options["target"]) - view.total
        return f"add 1, 2 or 3: the total is {view.total}, {left} to go"

    def board(self, game: Game[Any, Any], view: Any) -> dict[str, Any]:
        """The target and how much is left (for the board's progress bar)."""
        target = int(game.options["target"])
        return {"target": target, "left": max(0, target - view.total)}


#: the toy's table face, named by its kit
TABLE = ToyFace()
