"""A tiny game for testing the generic env and wrappers apart from the real rules (the
rules face of the toy's kit, ``tests/core/toy_kit.py``).

Race to 10: players in turn add 1, 2 or 3 to a shared total; whoever reaches 10 or more
wins (+1), the others lose (-1).  Each player also holds a secret number (0..9), dealt
at random and never shown to others, so views differ between players.

Its spec, in the tables every game's module gives (``cardenvs.testing.check_spec``):

| option | default | allowed | meaning |
|---|---|---|---|
| num_players | 2 | 2..3 | seats |
| target | 10 | 10, 12 | total that wins |

| field | start | size | description |
|---|---|---|---|
| num_players | 0 | 1 | n |
| player | 1 | 1 | my seat |
| total | 2 | 1 | running total |
| current | 3 | 1 | seat to move |
| secret | 4 | 1 | my secret |

| actions | ids | meaning |
|---|---|---|
| add | 0..2 | `add k`: id = k - 1 |

Positions: ``{"game": "toy", "total": t, "current": seat, "secrets": [one 0..9 a seat]}``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from cardenvs.core.env import CardGameEnv, wrapped_env_fn
from cardenvs.core.game import (
    Game,
    InvalidStateError,
    NotationError,
    Option,
    json_object,
    layout,
    observation_vector,
)


class ToyState:
    __slots__ = ("total", "current", "secrets", "winner")

    def __init__(self, total: int, current: int, secrets: list[int], winner: int = -1) -> None:
        self.total, self.current, self.secrets, self.winner = total, current, secrets, winner


@dataclass
class ToyView:
    num_players: int
    seat: int
    total: int
    current: int
    secret: int

    @property
    def options(self) -> dict[str, int]:
        return {}


class ToyGame(Game[ToyState, ToyView]):
    name = "toy"
    env_name = "toy_v0"
    min_players = 2
    max_players = 3
    OPTIONS = {"target": Option(10, (10, 12), "total that wins")}
    num_actions = 3
    OBS_FIELDS = layout(
        [("num_players", 1, "n"), ("player", 1, "my seat"), ("total", 1, "running total"),
         ("current", 1, "seat to move"), ("secret", 1, "my secret")]
    )

    def new_state(self, rng: np.random.Generator) -> ToyState:
        return ToyState(0, 0, [int(x) for x in rng.integers(0, 10, self.num_players)])

    def clone(self, state: ToyState) -> ToyState:
        return ToyState(state.total, state.current, list(state.secrets), state.winner)

    def current_player(self, state: ToyState) -> int:
        return -1 if state.winner >= 0 else state.current

    def is_terminal(self, state: ToyState) -> bool:
        return state.winner >= 0

    def legal_actions(self, state: ToyState) -> list[int]:
        return [] if state.winner >= 0 else [0, 1, 2]

    def apply(self, state: ToyState, action: int, rng: np.random.Generator | None = None) -> None:
        a = self.check_action(state, action)
        state.total += a + 1
        if state.total >= self.options["target"]:
            state.winner = state.current
        else:
            state.current = (state.current + 1) % self.num_players

    def redraw_unseen(self, state: ToyState, rng: np.random.Generator) -> None:
        """Nothing is unseen: each secret is seen by its owner, and no card is to come."""

    def has_chance(self, state: ToyState, action: int) -> bool:
        """A move only adds to the total: no chance after the deal."""
        return False

    def returns(self, state: ToyState) -> list[float]:
        if state.winner < 0:
            return [0.0] * self.num_players
        return [1.0 if p == state.winner else -1.0 for p in range(self.num_players)]

    def view(self, state: ToyState, player: int) -> ToyView:
        return ToyView(self.num_players, player, state.total, self.current_player(state),
                       state.secrets[player])

    def public_view(self, state: ToyState) -> ToyView:
        """Everything but a secret (``secret`` -1, ``seat`` -1)."""
        return ToyView(self.num_players, -1, state.total, self.current_player(state), -1)

    def max_game_length(self) -> int:
        """Every move adds at least 1 to the total, and the target ends the game."""
        return int(self.options["target"])

    @classmethod
    def encode(cls, view: ToyView) -> np.ndarray:
        return np.array([view.num_players, view.seat, view.total, view.current, view.secret], np.float32)

    @classmethod
    def decode(cls, observation: np.ndarray) -> ToyView:
        n, p, t, c, s = (int(x) for x in observation_vector(observation))
        return ToyView(n, p, t, c, s)

    def sample_state(self, view: ToyView, rng: np.random.Generator) -> ToyState:
        secrets = [int(x) for x in rng.integers(0, 10, self.num_players)]
        secrets[view.seat] = view.secret
        # over (current -1): the View does not say who won; any seat is consistent with it
        return self._judged(ToyState(view.total, max(view.current, 0), secrets))

    def action_to_str(self, action: int) -> str:
        return f"add {action + 1}"

    def str_to_action(self, text: str) -> int:
        parts = text.split()
        if len(parts) == 2 and parts[0] == "add" and parts[1] in ("1", "2", "3"):
            return int(parts[1]) - 1
        raise NotationError(f"{text!r}: expected 'add 1', 'add 2' or 'add 3'")

    def to_json(self, state: ToyState) -> dict[str, Any]:
        return {"game": "toy", "total": state.total, "current": state.current, "secrets": list(state.secrets)}

    def from_json(self, obj: dict[str, Any]) -> ToyState:
        obj = json_object(obj)
        if obj.get("game") != "toy":
            raise InvalidStateError("not a toy state")
        if set(obj) != {"game", "total", "current", "secrets"}:
            raise InvalidStateError("a toy state has exactly the keys game, total, current, secrets")
        total, current, secrets = obj["total"], obj["current"], obj["secrets"]
        n = self.num_players
        if type(total) is not int or not 0 <= total < self.options["target"] + 3:
            raise InvalidStateError(f"total must be an int 0..{self.options['target'] + 2}, got {total!r}")
        if type(current) is not int or not 0 <= current < n:
            raise InvalidStateError(f"current must be a seat 0..{n - 1}, got {current!r}")
        if not isinstance(secrets, list) or len(secrets) != n or \
                any(type(x) is not int or not 0 <= x <= 9 for x in secrets):
            raise InvalidStateError(f"secrets must be a list of {n} ints 0..9, got {secrets!r}")
        return self._judged(ToyState(total, current, list(secrets)))

    def _judged(self, s: ToyState) -> ToyState:
        """``s`` with its winner set when the total has reached the target: the last mover,
        whom ``current`` still names (a winning move does not pass the turn)."""
        if s.total >= self.options["target"]:
            s.winner = s.current
        return s

    def render(self, state: ToyState, viewer: int | None = None) -> str:
        return f"total {state.total}, player_{state.current} to move"


class raw_env(CardGameEnv):
    game_class = ToyGame
    metadata = {"render_modes": ["human", "ansi"], "name": "toy_v0", "is_parallelizable": False}


env = wrapped_env_fn(raw_env)
