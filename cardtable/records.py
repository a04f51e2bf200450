"""Finished games' records: replaying one with the rules core (PROTOCOL.md, "Records"),
and the replay viewer's positions (PROTOCOL.md, "Replays").

A :class:`Replay` replays a record once, checking every move with the rules core, and keeps
what the viewer asks for: each move in words, the rounds judged on the way, and a copy of
the position every :data:`CHECKPOINT` moves, from which any position is rebuilt with at most
that many moves.  The record is of a finished game, so a replay shows every hand at every
step; the browser only draws the positions the server builds here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import cast

import numpy as np

from . import catalog
from .catalog import make_game, options_key
from .types import GameResult, JsonDict, LogEntry, Record, TableGame

#: a copy of the position is kept every this many moves of a replay
CHECKPOINT = 32


def replay(record: Record, upto: int | None = None) -> tuple[TableGame, object, np.random.Generator]:
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


def replayed_returns(record: Record) -> list[float]:
    """The returns the rules core gives at the end of the replayed record."""
    game, state, _ = replay(record)
    return [float(x) for x in game.returns(state)]


@dataclass
class _Checkpoint:
    state: object
    rng: Mapping[str, object]


class Replay:
    """A finished game's record, replayed by the rules core for the replay viewer.

    ``ValueError`` (saying which move) when the record does not replay: a deal that is not
    its ``start``, a move these rules refuse, a mover other than the recorded one.
    """

    def __init__(self, record: Record) -> None:
        from .room import LOG_LENGTH

        self.record = record
        self.env = str(record["game"])
        self.game = make_game(self.env, int(record["num_players"]), options_key(dict(record["options"])))
        self.names = [str(s["name"]) for s in record["seats"]]
        self.log_length = LOG_LENGTH
        face = catalog.face(self.env)
        game = self.game
        rng = np.random.default_rng(int(record["seed"]))
        state = game.new_state(rng)
        if game.to_json(state) != record["start"]:
            raise ValueError("the record's seed does not deal its start position")
        self._checkpoints = [_Checkpoint(game.clone(state), dict(rng.bit_generator.state))]
        #: every move, as the table logged it: ``{"step", "seat", "text", "label", "others"}``
        self.log: list[LogEntry] = []
        #: the rounds judged on the way (their ``step``: the move that ended them)
        self.rounds: list[JsonDict] = []
        movers = record.get("movers") or []
        for k, text in enumerate(record["moves"]):
            seat = int(game.current_player(state))
            if k < len(movers) and movers[k] != seat:
                raise ValueError(f"move {k + 1} ({text!r}) is recorded for seat {movers[k]}, but seat {seat} "
                                 "is to move there")
            try:
                action = game.check_action(state, game.str_to_action(text))
            except ValueError as err:
                raise ValueError(f"move {k + 1} ({text!r}) does not replay: {err}") from None
            said = face.describe(game, action, game.view(state, seat))
            game.apply(state, action, rng)
            self.log.append({"step": k + 1, "seat": seat, "text": text, "label": said.label,
                             "others": said.others})
            judged = catalog.round_result(self.env, game, state, k + 1, self.names)
            if judged is not None:
                self.rounds.append(judged)
            if (k + 1) % CHECKPOINT == 0:
                self._checkpoints.append(_Checkpoint(game.clone(state), dict(rng.bit_generator.state)))
        self.steps = len(self.log)
        result: GameResult = {}
        result.update(record.get("result") or {})
        if "why" not in result or "hands" not in result:  # a record kept before they existed
            fresh = catalog.game_result(self.env, game, state, self.names) or {}
            result.setdefault("why", fresh.get("why", []))
            result.setdefault("hands", catalog.face(self.env).hands(game, state))
        self.result = result

    def position(self, step: int) -> object:
        """The state after ``step`` moves (a fresh copy)."""
        if not 0 <= step <= self.steps:
            raise ValueError(f"step must be in 0..{self.steps}, got {step}")
        cp = self._checkpoints[step // CHECKPOINT]
        game = self.game
        state = game.clone(cp.state)
        rng = np.random.default_rng()
        rng.bit_generator.state = cp.rng
        for entry in self.log[(step // CHECKPOINT) * CHECKPOINT: step]:
            game.apply(state, game.str_to_action(entry["text"]), rng)
        return state

    def summary(self) -> JsonDict:
        """What the viewer needs before any position: the game, the seats, every move in a
        third person's words, the steps where rounds were judged, the result."""
        r = self.record
        return {
            "game": self.env, "title": catalog.game_info(self.env)["title"], "room": r.get("room"),
            "index": r.get("index"), "num_players": self.game.num_players, "options": r["options"],
            "option_words": [catalog.option_text(self.env, k, v) for k, v in r["options"].items()
                             if k not in catalog.HIDDEN_OPTIONS],
            "seats": [{"seat": i, "name": s["name"], "kind": s.get("kind"), "level": s.get("level")}
                      for i, s in enumerate(r["seats"])],
            "steps": self.steps,
            "moves": [{"step": e["step"], "seat": e["seat"], "text": e["text"], "label": e["others"]}
                      for e in self.log],
            "rounds": [rr["step"] for rr in self.rounds],
            "result": self.result, "started": r.get("started"), "finished": r.get("finished"),
        }

    def frame(self, step: int, seat: int | None) -> JsonDict:
        """The position after ``step`` moves as a ``table`` message shows it, seen by ``seat``
        (its View; ``None``: the public view), with every seat's hand (``hands``: the game
        is over, nothing is hidden any more), the move that led here and the latest round
        judged.  ``ValueError`` for a step or seat out of range."""
        from .room import table_fields

        n = self.game.num_players
        if seat is not None and not 0 <= seat < n:
            raise ValueError(f"seat must be in 0..{n - 1}, or left out for everyone's view; got {seat}")
        state = self.position(step)
        game = self.game
        view = game.public_view(state) if seat is None else game.view(state, seat)
        last_round = None
        for rr in self.rounds:
            if cast(int, rr["step"]) <= step:  # catalog.round_result's step
                last_round = rr
        over = step == self.steps
        result = self.result if over else None
        current = -1 if over or game.is_terminal(state) else int(game.current_player(state))
        msg = table_fields(self.env, game, state, view, seat, current, self.log[:step], last_round, result)
        led = None if step == 0 else self.log[step - 1]  # the move that led here
        msg.update(type="replay", step=step, game_index=self.record.get("index", 0), seat=seat,
                   hands=catalog.face(self.env).hands(game, state),
                   move=None if led is None else {"step": led["step"], "seat": led["seat"],
                                                  "text": led["text"], "label": led["others"]})
        return msg
