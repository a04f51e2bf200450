"""The types the agents' signatures share.

An agent is asked ``choose(game, view, legal)`` with the rules object of its table, a
``Game[S, V]``, and that game's View ``V`` of its seat; search and rollouts also handle
the game's full states ``S``.  The game-generic code (the ladder, search, the coach, the
table's workers) is written over the type variables :data:`S` and :data:`V` and uses of a
View only what every game's has (:class:`View`: ``seat``, ``num_players``, ``options``);
a game's own knowledge names its concrete state and View
(``Knowledge[LineState, LineView]``).
"""

from __future__ import annotations

from typing import Any, TypeVar

from cardenvs.core.game import Game, View

#: a game's full state (what search samples and rollouts play on)
S = TypeVar("S")
#: a game's View: one seat's information set (every game's has :class:`View`'s attributes)
V = TypeVar("V", bound=View)

#: the rules object of a table whose game is known only at run time (found by its env name)
SomeGame = Game[Any, Any]

#: a JSON object read or written as plain data (a policy file's metadata, settings, a result)
JsonDict = dict[str, object]

__all__ = ["JsonDict", "S", "SomeGame", "V"]
