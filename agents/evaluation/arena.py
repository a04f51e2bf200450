"""Play whole games between agents on the rules core, through the one play loop."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

import cardenvs
from cardenvs.core.game import Game
from cardenvs.core.loop import Hook, PlayerLike, Turn, as_player, play

from ..players.base import describe
from ..types import S, V


@dataclass
class GameResult:
    """What one played game produced."""

    rewards: list[float]
    infos: list[dict[str, object]]
    steps: int
    moves: list[tuple[int, str]] = field(default_factory=list)
    truncated: bool = False

    @property
    def winners(self) -> list[int]:
        """Seats with the best reward (several when the win is shared)."""
        best = max(self.rewards)
        return [i for i, r in enumerate(self.rewards) if r == best]


def play_game(
    env_name: str,
    agents: Sequence[PlayerLike],
    seed: int | None = None,
    render_mode: str | None = None,
    on_move: Hook | None = None,
    record_moves: bool = True,
    **options: object,
) -> GameResult:
    """Play one game of ``env_name`` with ``agents[i]`` in seat ``i``.

    An agent is an :class:`~agents.players.base.Agent` (anything with ``choose(game, view,
    legal)``), an object with ``act(observation)``, or a plain function of the
    observation dict ``env.last()`` gives (``{"observation", "action_mask"}``) that
    returns an action id.

    The deal and the game's later randomness come from ``numpy.random.default_rng(seed)``,
    as in ``env.reset(seed=seed)``.  ``on_move(turn)`` is called with each
    :class:`~cardenvs.core.loop.Turn` before its move is applied (the demo and the coach
    use it to comment); ``render_mode="human"`` prints the table after every move.
    """
    game = cardenvs.game_class(env_name)(len(agents), **options)
    return play_between(game, agents, seed, render_mode, on_move, record_moves)


def play_between(
    game: Game[S, V],
    agents: Sequence[PlayerLike],
    seed: int | None = None,
    render_mode: str | None = None,
    on_move: Hook | None = None,
    record_moves: bool = True,
) -> GameResult:
    """:func:`play_game` on a given rules object (seat count and options set)."""
    if render_mode not in (None, "human"):
        raise ValueError(f"render_mode must be None or 'human', got {render_mode!r}")
    if len(agents) != game.num_players:
        raise ValueError(f"{game.env_name} with {game.num_players} players needs as many agents, "
                         f"got {len(agents)}")
    players = [as_player(a) for a in agents]
    rng = np.random.default_rng(seed)
    state = game.new_state(rng)
    moves: list[tuple[int, str]] = []

    def before(turn: Turn) -> None:
        if record_moves:
            moves.append((turn.seat, game.action_to_str(turn.action)))
        if on_move is not None:
            on_move(turn)

    def after(turn: Turn) -> None:
        print(game.render(turn.state, None))

    steps = play(game, state, players, rng, on_move=before,
                 after_move=after if render_mode == "human" else None)
    terminal = game.is_terminal(state)
    rewards = [float(r) for r in game.returns(state)] if terminal else [0.0] * game.num_players
    return GameResult(rewards=rewards, infos=game.infos(state), steps=steps, moves=moves,
                      truncated=not terminal)


def names(agents: Sequence[object]) -> list[str]:
    """Display names of several agents."""
    return [describe(a) for a in agents]
