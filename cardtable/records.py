"""Finished games' records: replaying one with the rules core (PROTOCOL.md, "Records")."""

from __future__ import annotations

from typing import Any

import numpy as np

from .catalog import make_game, options_key


def replay(record: dict[str, Any], upto: int | None = None) -> tuple[Any, Any, np.random.Generator]:
    """``(game, state, rng)`` after replaying ``record``'s moves (the first ``upto`` of them).

    The deal comes from ``default_rng(seed)``, as at the table, and every move is applied
    with the same generator (later deals and reshuffles draw from it); each move is checked
    by the rules core (an illegal one raises).  ``ValueError`` if the deal is not ``start``.
    """
    opts = dict(record["options"])
    game = make_game(record["game"], int(record["num_players"]), options_key(opts))
    rng = np.random.default_rng(int(record["seed"]))
    state = game.new_state(rng)
    if game.to_json(state) != record["start"]:
        raise ValueError("the record's seed does not deal its start position")
    moves = record["moves"] if upto is None else record["moves"][:upto]
    for text in moves:
        game.apply(state, game.check_action(state, game.str_to_action(text)), rng)
    return game, state, rng


def replayed_returns(record: dict[str, Any]) -> list[float]:
    """The returns the rules core gives at the end of the replayed record."""
    game, state, _ = replay(record)
    return [float(x) for x in game.returns(state)]
