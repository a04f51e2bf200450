"""One generic PettingZoo AEC environment for every :class:`~cardenvs.core.game.Game`.

The environment only seats players and keeps PettingZoo's bookkeeping (rewards,
terminations, infos, agent selection); every rule question, the observation and the
mask go to the game.  A game module defines::

    class raw_env(CardGameEnv):
        game_class = MyGame
        metadata = {"render_modes": ["human", "ansi"], "name": "<game>_v0",
                    "is_parallelizable": False, "render_fps": 1}

    env = wrapped_env_fn(raw_env)
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any, ClassVar

import gymnasium
import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers.order_enforcing import (
    AECOrderEnforcingIterable,
    AECOrderEnforcingIterator,
)

from .beliefs import BeliefsMixin
from .game import Game, IllegalActionError, OptionError
from .observers import Observer, check_observation
from .spaces import FastDiscrete

#: what stepping an illegal action does: raise (and change nothing), or end the game
ILLEGAL_ACTION_MODES = ("raise", "terminate")


class CardGameEnv(BeliefsMixin, AECEnv):
    """PettingZoo AEC environment driven by a :class:`Game` (set ``game_class``).

    Construction options: ``render_mode`` (``None``, ``"ansi"``, ``"human"``,
    ``"rgb_array"`` where the game draws), ``render_viewer`` (a seat whose view is
    rendered; ``None`` shows every hand), ``illegal_action`` (``"raise"`` or
    ``"terminate"``, below), ``illegal_reward`` (the offender's reward under
    ``"terminate"``, default -1), ``observation`` (the design of the ``"observation"``
    entry: ``"flat"``, the default, ``"planes"`` or ``"action_features"``; see
    :mod:`cardenvs.core.observers`), ``num_players`` and the game's own options (see
    ``game_class.OPTIONS``).

    ``reset(seed=..., options={"state": <position JSON object or text>})`` starts from a
    position.  Stepping an illegal action, by default (``illegal_action="raise"``),
    raises ``IllegalActionError`` (a ``ValueError``) and changes nothing.  With
    ``illegal_action="terminate"`` (PettingZoo classic's policy) the game ends instead:
    the offender gets ``illegal_reward``, every other agent 0, and every agent's info
    names the offender under ``"illegal_action_by"``.
    """

    game_class: ClassVar[type[Game[Any, Any]]]
    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["human", "ansi"], "name": "card_game"}

    def __init__(
        self,
        render_mode: str | None = None,
        num_players: int | None = None,
        render_viewer: int | None = None,
        illegal_action: str = "raise",
        illegal_reward: float = -1.0,
        observation: str = "flat",
        **options: Any,
    ) -> None:
        super().__init__()
        check_observation(observation)
        if illegal_action not in ILLEGAL_ACTION_MODES:
            raise OptionError(
                f"illegal_action={illegal_action!r} is not supported; use one of {ILLEGAL_ACTION_MODES}"
            )
        if isinstance(illegal_reward, bool) or not isinstance(illegal_reward, (int, float, np.number)):
            raise OptionError(f"illegal_reward must be a number, got {illegal_reward!r}")
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        modes = self.metadata["render_modes"]
        if render_mode is not None and render_mode not in modes:
            raise OptionError(
                f"render_mode={render_mode!r} is not supported; use None or one of {modes}"
            )
        self.game: Game[Any, Any] = self.game_class(num_players, **options)
        n = self.game.num_players
        if render_viewer is not None and (
            isinstance(render_viewer, (bool, np.bool_))
            or not isinstance(render_viewer, (int, np.integer))
            or render_viewer not in range(n)
        ):
            raise OptionError(
                f"render_viewer must be None or a seat (an int 0..{n - 1}), got {render_viewer!r}"
            )
        render_viewer = None if render_viewer is None else int(render_viewer)
        self.render_mode = render_mode
        self.render_viewer = render_viewer
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        #: the observation design; ``None`` for the flat vector (the game's own writer)
        self.observer: Observer | None = None if observation == "flat" else Observer(self.game, observation)
        if self.observer is None:
            size = self.game.observation_size()
            low, high = self.game.observation_bounds()
            box = gymnasium.spaces.Box(low, high, (size,), np.float32)
        else:
            box = self.observer.space
        obs_space = gymnasium.spaces.Dict(
            {
                "observation": box,
                "action_mask": gymnasium.spaces.Box(0, 1, (self.game.num_actions,), np.int8),
            }
        )
        # one space object per agent, so each can be seeded on its own
        self._observation_spaces: dict[str, gymnasium.spaces.Space] = {
            a: copy.deepcopy(obs_space) for a in self.possible_agents
        }
        # gymnasium's Discrete, with a fast sample(mask) that draws what gymnasium's draws
        self._action_spaces: dict[str, gymnasium.spaces.Space] = {
            a: FastDiscrete(self.game.num_actions) for a in self.possible_agents
        }
        # the seeds of the last reset(seed=...) (agent i: seed + i) of the spaces not used
        # since: each space is seeded when first reached
        self._action_seeds: dict[str, int] = {}
        self._observation_seeds: dict[str, int] = {}
        self._np_random: np.random.Generator | None = None
        self.state: Any = None
        self._zero_mask = np.zeros(self.game.num_actions, dtype=np.int8)
        #: whether the game can be cut off (it overrides ``is_truncated``): else the step
        #: needs not ask
        self._truncates = type(self.game).is_truncated is not Game.is_truncated
        #: whether ``last`` may build the flat observation inline: ``observe`` is this
        #: class's own and the design is the game's flat vector (else it calls ``observe``)
        self._own_observe = type(self).observe is CardGameEnv.observe and self.observer is None

    # ---------------------------------------------------------------- spaces
    # Each space is seeded from the last ``reset(seed=...)`` (agent ``i``'s with ``seed + i``)
    # when it is first reached, not in ``reset``: seeding a space costs more than a step
    # (a Dict observation space several), and most loops sample one agent's action space
    # only, or none.  A space is seeded before any use, so its draws follow from the seed.

    @staticmethod
    def _seed_pending(spaces: dict[str, gymnasium.spaces.Space], seeds: dict[str, int]) -> None:
        """Seed every space of ``spaces`` still waiting in ``seeds`` (emptied)."""
        for a, seed in seeds.items():
            spaces[a].seed(seed)
        seeds.clear()

    @property
    def observation_spaces(self) -> dict[str, gymnasium.spaces.Space]:
        """Each agent's observation space (seeded by ``reset(seed=...)``)."""
        if self._observation_seeds:
            self._seed_pending(self._observation_spaces, self._observation_seeds)
        return self._observation_spaces

    @property
    def action_spaces(self) -> dict[str, gymnasium.spaces.Space]:
        """Each agent's action space (seeded by ``reset(seed=...)``)."""
        if self._action_seeds:
            self._seed_pending(self._action_spaces, self._action_seeds)
        return self._action_spaces

    def observation_space(self, agent: str) -> gymnasium.spaces.Space:
        """``agent``'s observation space (seeded by ``reset(seed=...)``)."""
        space = self._observation_spaces[agent]
        if self._observation_seeds and agent in self._observation_seeds:
            space.seed(self._observation_seeds.pop(agent))
        return space

    def action_space(self, agent: str) -> gymnasium.spaces.Space:
        """``agent``'s action space (seeded by ``reset(seed=...)``); the README loop's
        ``env.action_space(agent).sample(mask)`` calls it every step."""
        space = self._action_spaces[agent]
        if self._action_seeds and agent in self._action_seeds:
            space.seed(self._action_seeds.pop(agent))
        return space

    # ----------------------------------------------------------------- reset
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game (seeded by ``seed``) or load ``options["state"]``.

        Other keys of ``options`` are ignored (PettingZoo's API test passes its own).
        """
        rng = self._np_random
        if seed is not None or rng is None:
            rng = np.random.default_rng(seed)
        if options and options.get("state") is not None:
            state = self.game.from_json(options["state"])  # a refused state changes nothing
        else:
            state = self.game.new_state(rng)
        self._np_random = rng
        self.state = state
        if seed is not None:  # sampling the spaces is reproducible from reset(seed=...)
            seeds = {a: seed + i for i, a in enumerate(self.possible_agents)}
            self._action_seeds = seeds
            self._observation_seeds = dict(seeds)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self.agent_selection = ""  # set by _after_change
        self._after_change()

    # ------------------------------------------------------------------ step
    def step(self, action: Any) -> None:
        """Apply the selected agent's ``action`` (``None`` for a finished agent)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalActionError(
                f"{agent} must act: None is only for agents whose game has ended"
            )
        if type(action) is np.int64:  # what sample() gives: the rules' fast path takes an int
            action = int(action)
        # apply checks legality once and raises before any change
        try:
            self.game.apply(self.state, action, self._np_random)
        except IllegalActionError:
            if self.illegal_action == "raise":
                raise
            self.end_for_illegal(agent)
            return
        self._cumulative_rewards[agent] = 0.0
        self._after_change()
        if self.render_mode == "human":
            self.render()

    def end_for_illegal(self, agent: str) -> None:
        """End the game because ``agent`` stepped an illegal action (PettingZoo's policy).

        The offender's reward is :attr:`illegal_reward`, every other agent's 0; the state
        itself is unchanged, and each agent then steps ``None`` as after any ending.
        """
        self.terminations = dict.fromkeys(self.agents, True)
        self.truncations = dict.fromkeys(self.agents, False)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.rewards[agent] = self.illegal_reward
        for a in self.agents:
            self.infos[a] = {**self.infos.get(a, {}), "illegal_action_by": agent}
        self._cumulative_rewards[agent] = 0.0
        self._accumulate_rewards()

    def _after_change(self) -> None:
        """Refresh the infos, the agent to move, and the end-of-game bookkeeping."""
        game, state = self.game, self.state
        agents, own = self.possible_agents, self.infos
        if len(own) == len(agents):  # every agent is still here (as while a game runs)
            own.update(zip(agents, game.infos(state)))
        else:
            for a, info in zip(agents, game.infos(state)):
                if a in own:
                    own[a] = info
        seat = game.current_player(state)  # -1 once the game is over
        if seat >= 0 and not (self._truncates and game.is_truncated(state)):  # it runs on
            self.agent_selection = agents[seat]
            rewards = self.rewards
            for a in rewards:
                rewards[a] = 0.0
            return
        terminal = game.is_terminal(state)
        truncated = not terminal and game.is_truncated(state)
        if terminal or truncated:
            ret = game.returns(state) if terminal else [0.0] * game.num_players
            for i, a in enumerate(agents):
                if a in self.agents:
                    self.rewards[a] = float(ret[i])
                    self.terminations[a] = terminal
                    self.truncations[a] = truncated
            self._accumulate_rewards()
            # the player who made the last move steps None first, then the others
            if self.agents and self.agent_selection not in self.agents:
                self.agent_selection = self.agents[0]
        else:
            self.agent_selection = agents[seat]
            for a in self.rewards:
                self.rewards[a] = 0.0

    # ----------------------------------------------------------- observation
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``{"observation", "action_mask"}`` of ``agent``, built from its own view only.

        Both arrays are new on every call (the caller may keep or change them): the
        game's writers are cheaper than caching and copying, as loops observe once a step.
        """
        if self.observer is not None:
            return self._observe_design(agent, self.observer)
        game, state = self.game, self.state
        obs = game.observe(state, self._seat[agent])
        if agent != self.agent_selection or self.terminations.get(agent) or self.truncations.get(agent):
            return {"observation": obs, "action_mask": self._zero_mask.copy()}
        return {"observation": obs, "action_mask": game.legal_mask(state)}

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """``(observation, cumulative reward, terminated, truncated, info)`` of the agent
        to act: PettingZoo's ``AECEnv.last``, written out (it runs every step)."""
        agent = self.agent_selection
        ended = self.terminations[agent] or self.truncations[agent]
        if not observe:
            obs = None
        elif self._own_observe:  # observe(agent) for the agent to act, flat, inlined
            game, state = self.game, self.state
            obs = {
                "observation": game.observe(state, self._seat[agent]),
                "action_mask": self._zero_mask.copy() if ended else game.legal_mask(state),
            }
        else:
            obs = self.observe(agent)
        return obs, self._cumulative_rewards[agent], self.terminations[agent], self.truncations[agent], \
            self.infos[agent]

    def _observe_design(self, agent: str, observer: Observer) -> dict[str, np.ndarray]:
        """:meth:`observe` for the ``"planes"`` and ``"action_features"`` designs."""
        to_move = not (agent != self.agent_selection or self.terminations.get(agent)
                       or self.truncations.get(agent))
        obs = observer.observe(self.state, self._seat[agent], to_move)
        mask = self.game.legal_mask(self.state) if to_move else self._zero_mask.copy()
        return {"observation": obs, "action_mask": mask}

    # --------------------------------------------------------------- helpers
    def legal_actions(self) -> list[int]:
        """Legal action ids of the agent to move."""
        return self.game.legal_actions(self.state)

    def action_to_str(self, action: int) -> str:
        """The move text (the game's notation) of an action id."""
        return self.game.action_to_str(int(action))

    def str_to_action(self, text: str) -> int:
        """Action id of move text in the game's notation (``ValueError`` if malformed)."""
        return self.game.str_to_action(text)

    def state_json(self) -> dict[str, Any]:
        """The current position in the position format (docs/rules/)."""
        return self.game.to_json(self.state)

    def render(self) -> str | np.ndarray | None:
        """The table: ``ansi`` returns text, ``human`` prints it, ``rgb_array`` draws it."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi'")
            return None
        if self.state is None:
            raise RuntimeError("call reset() before render()")
        if self.render_mode == "rgb_array":
            from .picture import draw_picture

            return draw_picture(self.game.picture(self.state, self.render_viewer))
        text = self.game.render(self.state, self.render_viewer)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


class OrderEnforcing(wrappers.OrderEnforcingWrapper):
    """PettingZoo's order enforcement, with the hot path delegated directly.

    The inherited wrapper reaches ``agents``, ``agent_selection`` and the other
    bookkeeping through ``__getattr__`` (a failed lookup, then a fall-through) several
    times a step; here they are properties, and ``step``, ``observe``, ``last`` and the
    ``agent_iter`` iterator talk to the wrapped environment once.  The checks (nothing
    before ``reset``, a warning for a step after the end, ``step`` between iterations)
    are PettingZoo's own.
    """

    def __init__(self, env: AECEnv) -> None:
        super().__init__(env)
        # the README loop asks for the action space every step: the env's own method,
        # bound here, answers in one call where the inherited one makes two
        self.action_space = env.action_space

    def _guarded(self, name: str) -> Any:
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self.env, name)

    agents = property(lambda self: self._guarded("agents"))
    agent_selection = property(lambda self: self._guarded("agent_selection"))
    rewards = property(lambda self: self._guarded("rewards"))
    terminations = property(lambda self: self._guarded("terminations"))
    truncations = property(lambda self: self._guarded("truncations"))
    infos = property(lambda self: self._guarded("infos"))

    def step(self, action: Any) -> None:
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        self._has_updated = True
        if not self.env.agents:
            EnvLogger.warn_step_after_terminated_truncated()
        else:
            self.env.step(action)

    def observe(self, agent: str) -> Any:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self.env.observe(agent)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            raise AttributeError("last() cannot be called before reset()")
        return self.env.last(observe)

    def agent_iter(self, max_iter: int = 2**63) -> _OrderedIterable:
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _OrderedIterable(self, max_iter)


class _OrderedIterable(AECOrderEnforcingIterable):
    def __iter__(self) -> _OrderedIterator:
        return _OrderedIterator(self.env, self.max_iter)


class _OrderedIterator(AECOrderEnforcingIterator):
    """PettingZoo's order-enforcing iteration, reading the wrapped environment directly."""

    def __next__(self) -> str:
        wrapper = self.env
        inner = wrapper.env
        if not inner.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        if not wrapper._has_updated:
            raise AssertionError("need to call step() or reset() in a loop over `agent_iter`")
        wrapper._has_updated = False
        return inner.agent_selection


def wrapped_env_fn(raw: type[CardGameEnv]) -> Callable[..., AECEnv]:
    """The PettingZoo ``env()`` of a game: ``raw_env`` with order enforcement."""

    def env(**kwargs: Any) -> AECEnv:
        return OrderEnforcing(raw(**kwargs))

    env.__doc__ = f"The {raw.metadata.get('name')} environment (PettingZoo AEC), order-enforced."
    return env
