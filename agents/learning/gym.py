"""Gymnasium ids for the games: ``gymnasium.make("cardenvs/Line-v0")`` and friends.

``import cardenvs`` registers one id per game (``cardenvs/Line-v0``,
``cardenvs/LineIt-v0``, ``cardenvs/Rummy432-v0``) whose entry point is
:func:`single_agent_env` here: a :class:`~cardenvs.core.wrappers.SingleAgentEnv`
that seats one learner against computer players of the ladder::

    import gymnasium, cardenvs
    env = gymnasium.make("cardenvs/Rummy432-v0", opponents="planner", num_players=3,
                         pack="three", hand_size=9, render_mode="rgb_array")
    obs, info = env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(env.unwrapped.action_masks().argmax())
"""

from __future__ import annotations

from collections.abc import Sequence

from cardenvs.core.wrappers import SingleAgentEnv

from ..players.base import Agent
from ..players.ladder import make_agent

#: the opponents' level when none is given: fast, beatable, and it punishes random play
DEFAULT_OPPONENTS = "greedy"


def single_agent_env(
    env_name: str,
    opponents: str | Sequence[str | Agent] = DEFAULT_OPPONENTS,
    num_players: int | None = None,
    learner_seat: int | None = 0,
    render_mode: str | None = None,
    seed: int | None = None,
    observation: str = "flat",
    **options: object,
) -> SingleAgentEnv:
    """A Gymnasium env of ``env_name``: the learner against ladder opponents.

    ``opponents``: one level name for every other seat (``"random"``, ``"greedy"``,
    ``"planner"``, ``"expert"``, ``"trained"``, ``"policy:FILE.npz"``), or a list with
    one level name or agent per other seat (its length then sets the seat count unless
    ``num_players`` is given).  ``seed`` seeds the opponents' own generators;
    ``observation`` (``"flat"``, ``"planes"`` or ``"action_features"``), ``num_players``
    and the game's options as for ``cardenvs.make``.
    """
    import cardenvs

    cls = cardenvs.game_class(env_name)
    if isinstance(opponents, str):
        n = cls.default_players if num_players is None else num_players
        picks: list[str | Agent] = [opponents] * (int(n) - 1)
    else:
        picks = list(opponents)
        n = len(picks) + 1 if num_players is None else num_players
    game = cls(n, **options)
    if len(picks) != game.num_players - 1:
        raise ValueError(f"{env_name} with {game.num_players} players needs {game.num_players - 1} "
                         f"opponents, got {len(picks)}")
    base = 0 if seed is None else seed
    seats = [make_agent(env_name, p, seed=None if seed is None else base + i) if isinstance(p, str) else p
             for i, p in enumerate(picks)]
    return SingleAgentEnv(game, seats, learner_seat=learner_seat, render_mode=render_mode,
                          observation=observation)
