"""The one play loop: players choose from their own View, the rules core applies.

Every caller that plays moves on a :class:`~cardenvs.core.game.Game` state (the
tournament, the arena, the demo, the terminal table, training opponents, imitation
data, the benchmarks) goes through :func:`play`.  At each decision the loop asks the
rules core for the legal actions and the player's View (their information set,
computed honestly from the state), asks the player to choose, and applies the move.

A player is anything with ``choose(game, view, legal) -> action id``
(:class:`Player`).  An object that only has PettingZoo's ``act(observation_dict)``,
or a plain function of that dict, is adapted by :func:`as_player`: it receives
``{"observation", "action_mask"}`` encoded from the same View.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import numpy as np

from .game import Game


@runtime_checkable
class Player(Protocol):
    """Chooses a move from its own information: ``choose(game, view, legal) -> id``."""

    def choose(self, game: Game[Any, Any], view: Any, legal: list[int]) -> int:
        """One of ``legal`` for the player whose ``view`` it is."""
        ...


@runtime_checkable
class ObservationActor(Protocol):
    """PettingZoo's side of an agent: ``act({"observation", "action_mask"}) -> id``."""

    def act(self, observation: Mapping[str, np.ndarray]) -> int:
        """An action id from the observation dict of ``env.last()``."""
        ...


class LazyObservation(Mapping[str, np.ndarray]):
    """The dict ``env.last()`` gives a seat (``observation`` and ``action_mask``), built
    from the seat's View and legal actions, each entry computed on first access: an
    agent that reads only the mask never pays for encoding the observation."""

    __slots__ = ("_game", "_view", "_legal", "_obs", "_mask")
    _KEYS = ("observation", "action_mask")

    def __init__(self, game: Game[Any, Any], view: Any, legal: list[int]) -> None:
        self._game, self._view, self._legal = game, view, legal
        self._obs: np.ndarray | None = None
        self._mask: np.ndarray | None = None

    def __getitem__(self, key: str) -> np.ndarray:
        if key == "observation":
            if self._obs is None:
                self._obs = self._game.encode(self._view)
            return self._obs
        if key == "action_mask":
            if self._mask is None:
                self._mask = np.zeros(self._game.num_actions, np.int8)
                self._mask[self._legal] = 1
            return self._mask
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return iter(self._KEYS)

    def __len__(self) -> int:
        return 2

    def copy(self) -> dict[str, np.ndarray]:
        """A plain dict with both entries (as ``dict.copy`` would give)."""
        return {k: self[k] for k in self._KEYS}


class ObservationPlayer:
    """A :class:`Player` around an object that only acts on observation dicts."""

    def __init__(self, actor: ObservationActor) -> None:
        self.actor = actor
        self.name = str(getattr(actor, "name", type(actor).__name__))

    def choose(self, game: Game[Any, Any], view: Any, legal: list[int]) -> int:
        """Ask the actor with the dict ``env.last()`` would give (encoded lazily from ``view``)."""
        return int(self.actor.act(LazyObservation(game, view, legal)))


class CallablePlayer:
    """A :class:`Player` around a plain function of the observation dict:
    ``fn({"observation", "action_mask"}) -> action id`` (what ``env.last()`` gives)."""

    def __init__(self, fn: Callable[[Mapping[str, np.ndarray]], Any]) -> None:
        self.fn = fn
        self.name = str(getattr(fn, "name", getattr(fn, "__name__", type(fn).__name__)))

    def choose(self, game: Game[Any, Any], view: Any, legal: list[int]) -> int:
        """Call the function with the dict ``env.last()`` would give (encoded lazily)."""
        return int(self.fn(LazyObservation(game, view, legal)))


#: what the play loop (and everything on it: ``agents.play_game``, the tournament,
#: ``agents.evaluate``) accepts as a player
PlayerLike = Player | ObservationActor | Callable[[Mapping[str, np.ndarray]], Any]


def as_player(obj: PlayerLike) -> Player:
    """A :class:`Player` for ``obj``: itself if it can ``choose``, an
    :class:`ObservationPlayer` if it has ``act(observation)``, a :class:`CallablePlayer`
    if it is a plain function of the observation dict."""
    if isinstance(obj, Player):
        return obj
    if isinstance(obj, ObservationActor):
        return ObservationPlayer(obj)
    if callable(obj):
        return CallablePlayer(obj)
    raise TypeError("a player needs choose(game, view, legal), act(observation) or to be a "
                    f"function of the observation dict; got {obj!r}")


@dataclass(frozen=True)
class Turn:
    """One decision, as the loop's hooks see it.

    ``view`` and ``legal`` are what the player was given; ``state`` is the live game
    state (before the move in ``on_move``, after it in ``after_move``), for hooks that
    render the table or keep records; players never see it.
    """

    step: int
    seat: int
    action: int
    view: Any
    legal: list[int]
    state: Any


Hook = Callable[[Turn], None]


def play(
    game: Game[Any, Any],
    state: Any,
    players: Sequence[Player | None] | Mapping[int, Player],
    rng: np.random.Generator | None = None,
    *,
    stop_seat: int | None = None,
    on_move: Hook | None = None,
    after_move: Hook | None = None,
    max_moves: int | None = None,
) -> int:
    """Advance ``state`` by the players' choices; return the number of moves made.

    ``players[seat]`` chooses for that seat.  The loop stops when the game ends (or is
    truncated), when ``stop_seat`` is to move (a learner's turn in a training env), or
    after ``max_moves``.  ``on_move(turn)`` runs after the choice and before the move is
    applied; ``after_move(turn)`` after it.  ``rng`` draws the game's own randomness
    (reshuffles, later deals).
    """
    moves = 0
    while max_moves is None or moves < max_moves:
        if game.is_terminal(state) or game.is_truncated(state):
            break
        seat = game.current_player(state)
        if seat == stop_seat:
            break
        player = players[seat]
        if player is None:
            raise ValueError(f"no player in seat {seat}, which is to move")
        legal = list(game.legal_actions(state))  # the player's own copy
        view = game.view(state, seat)
        action = player.choose(game, view, legal)
        if on_move is not None:
            on_move(Turn(moves, seat, action, view, legal, state))
        game.apply(state, action, rng)
        if after_move is not None:
            after_move(Turn(moves, seat, action, view, legal, state))
        moves += 1
    return moves
