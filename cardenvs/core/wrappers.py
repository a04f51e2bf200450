"""Wrappers around the card environments for training tools.

* :class:`TerminateIllegal` — PettingZoo's "terminate with a penalty" policy: an illegal
  action ends the game, the offender gets ``illegal_reward`` and everyone else 0.
* :class:`SingleAgentEnv` — a Gymnasium ``Env`` that seats one learner against given
  agents, for Stable-Baselines3 / sb3-contrib ``MaskablePPO`` (``action_masks()``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils.wrappers import BaseWrapper

from .game import Game, IllegalActionError, OptionError
from .loop import Player, PlayerLike, as_player, play
from .observers import Observer, check_observation
from .spaces import FastDiscrete


class TerminateIllegal(BaseWrapper):
    """End the game when the agent to move plays an illegal action.

    The offender's reward is ``illegal_reward`` and every other agent's 0; the agents
    then step ``None`` as after any ending.  Legal actions pass through unchanged.
    The same as ``cardenvs.make(name, illegal_action="terminate")``, for an env that
    was built without it.
    """

    def __init__(self, env: AECEnv, illegal_reward: float = -1.0) -> None:
        super().__init__(env)
        self.illegal_reward = float(illegal_reward)

    def step(self, action: Any) -> None:
        base = self.env.unwrapped
        agent = base.agent_selection
        if action is None or base.terminations[agent] or base.truncations[agent]:
            self.env.step(action)
            return
        try:
            self.env.step(action)
        except IllegalActionError:
            reward, base.illegal_reward = base.illegal_reward, self.illegal_reward
            try:
                base.end_for_illegal(agent)
            finally:
                base.illegal_reward = reward


def terminate_illegal(env: AECEnv, illegal_reward: float = -1.0) -> AECEnv:
    """Opt in to PettingZoo's illegal-move policy (see :class:`TerminateIllegal`)."""
    return TerminateIllegal(env, illegal_reward)


#: the one action :meth:`SingleAgentEnv.action_masks` allows once an episode has ended
#: (the step a Gymnasium vector env's next-step autoreset spends on ``reset()``, whose
#: action it ignores)
RESET_STEP_ACTION = 0

#: an opponent: a :class:`~cardenvs.core.loop.Player` (``choose(game, view, legal)``,
#: as every ``agents`` agent is), anything with PettingZoo's ``act(observation)``, or a
#: plain function of the observation dict
ActingAgent = PlayerLike


class SingleAgentEnv(gymnasium.Env):
    """One learner against fixed agents, as a Gymnasium environment.

    Args:
        game: a :class:`Game` instance, or an environment name (a key of ``cardenvs.GAMES``).
        opponents: one agent per other seat (in seat order after removing the learner),
            or a callable ``(rng) -> list of agents`` drawn anew at each reset (an
            opponent pool for self-play).
        learner_seat: the learner's seat, or ``None`` to draw it at each reset.
        illegal_reward: reward for an illegal action, which ends the episode (the
            policy Gymnasium's and SB3's checkers expect; masked policies never pay it).
        obs_scale: optional per-feature factors applied to the learner's observations
            (input normalisation for neural policies; see ``observation_scale``; flat
            observations only: the other designs are scaled already).
        observation: the observation design: ``"flat"`` (default), ``"planes"`` or
            ``"action_features"`` (see :mod:`cardenvs.core.observers`).
        step_reward: optional shaping ``(info, seat) -> float`` added to the learner's
            reward after every move (its own and the opponents'), given the learner's
            info dict of that moment; e.g. a reward per round won in multi-round games.
        **options: ``num_players`` and game options when ``game`` is a name.

    Observations are the learner's flat float32 vector (or the chosen design's array);
    ``action_masks()`` returns the boolean mask of the current decision for
    ``MaskablePPO`` (after the episode's end, the reset-step mask: see
    :meth:`action_masks`).  The reward is the learner's own final reward (+1 / 0 / -1).

    In ``gymnasium.make_vec`` (sync or async), read the masks with
    ``envs.call("action_masks")``.  With ``vector_kwargs={"autoreset_mode":
    gymnasium.vector.AutoresetMode.SAME_STEP}`` every mask is the live decision's (the
    episode's last observation moves to ``info["final_obs"]``); with the default next-step
    autoreset, a copy whose episode just ended shows the reset-step mask until its reset.
    """

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 2}

    def __init__(
        self,
        game: Game[Any, Any] | str,
        opponents: Sequence[ActingAgent] | Callable[[np.random.Generator], Sequence[ActingAgent]],
        learner_seat: int | None = 0,
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        step_reward: Callable[[dict[str, Any], int], float] | None = None,
        obs_scale: np.ndarray | None = None,
        observation: str = "flat",
        **options: Any,
    ) -> None:
        check_observation(observation)
        if obs_scale is not None and observation != "flat":
            raise OptionError(f"obs_scale applies to the flat observation only, not {observation!r}")
        if isinstance(game, str):
            from cardenvs import game_class

            game = game_class(game)(**options)
        elif options:
            raise OptionError("pass options only together with an environment name")
        self.game = game
        n = game.num_players
        if learner_seat is not None and learner_seat not in range(n):
            raise OptionError(f"learner_seat must be None or 0..{n - 1}, got {learner_seat!r}")
        if not callable(opponents) and len(opponents) != n - 1:
            raise OptionError(f"{game.name} with {n} players needs {n - 1} opponents, got {len(opponents)}")
        if render_mode not in (None, "ansi", "rgb_array"):
            raise OptionError(f"render_mode must be None, 'ansi' or 'rgb_array', got {render_mode!r}")
        self.render_mode = render_mode
        self._opponent_source = opponents
        self.opponents: list[ActingAgent] = [] if callable(opponents) else list(opponents)
        self.fixed_seat = learner_seat
        self.learner_seat = 0 if learner_seat is None else learner_seat
        self.illegal_reward = float(illegal_reward)
        self.step_reward = step_reward
        self._shaped = 0.0
        size = game.observation_size()
        self.obs_scale = None if obs_scale is None else np.asarray(obs_scale, np.float32)
        if self.obs_scale is not None and self.obs_scale.shape != (size,):
            raise OptionError(f"obs_scale must have shape ({size},), got {self.obs_scale.shape}")
        #: the observation design; ``None`` for the flat vector
        self.observer: Observer | None = None if observation == "flat" else Observer(game, observation)
        if self.observer is not None:
            self.observation_space: gymnasium.spaces.Box = self.observer.space
        else:
            low, high = game.observation_bounds()
            if self.obs_scale is not None:
                low, high = low * np.abs(self.obs_scale), high * np.abs(self.obs_scale)
            self.observation_space = gymnasium.spaces.Box(low, high, (size,), np.float32)
        self.action_space = FastDiscrete(game.num_actions)  # a Discrete, with a fast sample(mask)
        self.state: Any = None
        self._done = True

    # --------------------------------------------------------------- helpers
    def _seat_agents(self) -> dict[int, Player]:
        others = [s for s in range(self.game.num_players) if s != self.learner_seat]
        return {seat: as_player(agent) for seat, agent in zip(others, self.opponents)}

    def _play_opponents(self) -> None:
        """Let the other seats move until it is the learner's turn or the game ends."""
        after = (lambda _turn: self._shape()) if self.step_reward is not None else None
        play(self.game, self.state, self._seat_agents(), self.np_random,
             stop_seat=self.learner_seat, after_move=after)

    def _shape(self) -> None:
        if self.step_reward is not None:
            seat = self.learner_seat
            self._shaped += self.step_reward(self.game.infos(self.state)[seat], seat)

    def _obs(self) -> np.ndarray:
        if self.observer is not None:
            return self.observer.observe(self.state, self.learner_seat, not self._done)
        obs = self.game.observe(self.state, self.learner_seat)
        return obs if self.obs_scale is None else obs * self.obs_scale

    def action_masks(self) -> np.ndarray:
        """Boolean mask of the learner's legal actions.

        Once the episode has ended it is the *reset-step mask*: True at action
        :data:`RESET_STEP_ACTION` (0) only.  A Gymnasium vector env with its default
        next-step autoreset spends the step after an episode's end on ``reset()`` and
        ignores that step's action, so a masked sampler there always has one action to
        pick, and the pick costs a policy gradient nothing (its probability is 1).
        ``step()`` itself still refuses to move until ``reset()``.
        """
        if self._done:
            mask = np.zeros(self.game.num_actions, dtype=bool)
            mask[RESET_STEP_ACTION] = True
            return mask
        return self.game.legal_mask(self.state).astype(bool)

    def write_action_mask(self, out: np.ndarray) -> None:
        """Write :meth:`action_masks` into ``out`` (a boolean row), without allocating."""
        out[:] = False
        if self._done:
            out[RESET_STEP_ACTION] = True
        else:
            out[self.game.legal_actions(self.state)] = True

    # ------------------------------------------------------------ gym API
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        rng = self.np_random
        if callable(self._opponent_source):
            self.opponents = list(self._opponent_source(rng))
        if self.fixed_seat is None:
            self.learner_seat = int(rng.integers(self.game.num_players))
        if seed is not None:
            for i, agent in enumerate(self.opponents):
                reseed = getattr(agent, "seed", None)
                if callable(reseed):
                    reseed(seed * 7919 + i + 1)
        game = self.game
        for _ in range(1000):
            if options and options.get("state") is not None:
                self.state = game.from_json(options["state"])
            else:
                self.state = game.new_state(rng)
            self._play_opponents()
            # deal again in the rare case the opponents end the game before the learner moves
            if not (game.is_terminal(self.state) or game.is_truncated(self.state)):
                break
        else:
            raise RuntimeError("the opponents always end the game before the learner moves")
        self._done = False
        return self._obs(), {"learner_seat": self.learner_seat}

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self._done:
            raise RuntimeError("the episode has ended: call reset()")
        game, state = self.game, self.state
        if type(action) is np.int64:  # what sample() and SB3 give: the rules' fast path takes an int
            action = int(action)
        try:
            game.apply(state, action, self.np_random)  # checks legality once, before any change
        except IllegalActionError as err:
            self._done = True
            return self._obs(), self.illegal_reward, True, False, {"illegal_action": str(err)}
        self._shaped = 0.0
        self._shape()
        self._play_opponents()
        terminated = game.is_terminal(state)
        truncated = not terminated and game.is_truncated(state)
        reward = float(game.returns(state)[self.learner_seat]) if terminated else 0.0
        reward += self._shaped
        self._done = terminated or truncated
        info: dict[str, Any] = {}
        if self._done:
            info = dict(game.infos(state)[self.learner_seat])
        return self._obs(), reward, terminated, truncated, info

    def render(self) -> str | np.ndarray | None:
        """The table from the learner's seat: text (``"ansi"``) or an ``(H, W, 3)`` uint8
        picture (``"rgb_array"``, what Gymnasium's ``RecordVideo`` records)."""
        if self.render_mode is None or self.state is None:
            return None
        if self.render_mode == "rgb_array":
            from .picture import draw_picture

            return draw_picture(self.game.picture(self.state, self.learner_seat))
        return self.game.render(self.state, self.learner_seat)


def observation_scale(game: Game[Any, Any], decisions: int = 4000, seed: int = 0) -> np.ndarray:
    """Per-feature factors ``1 / max(1, max |x|)`` over observations of random play.

    Observations carry raw counts (pile sizes, positions, option values up to 1000);
    scaling them to about [-1, 1] keeps a tanh network out of saturation.  The result
    is deterministic for a seed and is saved with an exported policy.
    """
    rng = np.random.default_rng(seed)
    top = np.ones(game.observation_size(), np.float32)
    seen = 0
    while seen < decisions:
        state = game.new_state(rng)
        while seen < decisions and not game.is_terminal(state) and not game.is_truncated(state):
            top = np.maximum(top, np.abs(game.observe(state, game.current_player(state))))
            legal = game.legal_actions(state)
            game.apply(state, legal[int(rng.integers(len(legal)))], rng)
            seen += 1
    return (1.0 / top).astype(np.float32)
