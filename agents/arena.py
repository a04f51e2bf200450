"""Play whole games between agents through the PettingZoo AEC loop."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .base import Agent, describe


@dataclass
class GameResult:
    """What one played game produced."""

    rewards: list[float]
    infos: list[dict[str, Any]]
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
    agents: Sequence[Agent],
    seed: int | None = None,
    render_mode: str | None = None,
    on_move: Callable[[int, str, Any], None] | None = None,
    record_moves: bool = True,
    **options: Any,
) -> GameResult:
    """Play one game of ``env_name`` with ``agents[i]`` in seat ``i``.

    ``on_move(seat, move_text, env)`` is called before each move (the demo and the coach
    use it to comment); ``render_mode="human"`` prints the table after every move.
    """
    import cardenvs

    env = cardenvs.make(env_name, num_players=len(agents), render_mode=render_mode, **options)
    env.reset(seed=seed)
    base = env.unwrapped
    rewards = {a: 0.0 for a in base.possible_agents}
    moves: list[tuple[int, str]] = []
    steps = 0
    truncated = False
    for agent_id in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        rewards[agent_id] = reward
        if term or trunc:
            truncated = truncated or trunc
            env.step(None)
            continue
        seat = base._seat[agent_id]
        action = agents[seat].act(obs)
        if record_moves or on_move is not None:
            text = base.action_to_str(action)
            if on_move is not None:
                on_move(seat, text, base)
            moves.append((seat, text))
        env.step(action)
        steps += 1
    infos = base.game.infos(base.state)
    return GameResult(
        rewards=[rewards[a] for a in base.possible_agents],
        infos=infos,
        steps=steps,
        moves=moves,
        truncated=truncated,
    )


def names(agents: Sequence[Agent]) -> list[str]:
    """Display names of several agents."""
    return [describe(a) for a in agents]
