"""Every cardenvs game as an RLlib multi-agent environment (Ray RLlib 2.60, new API stack).

>>> import cardenvs
>>> from cardenvs.integrations import rllib
>>> env = rllib.CardEnv({"env_name": next(iter(cardenvs.GAMES)), "num_players": 3})
>>> obs, infos = env.reset(seed=1)
>>> sorted(next(iter(obs.values())))
['action_mask', 'observations']

Needs the optional ``ray`` package only for :class:`CardEnv`'s base class, the helpers
that start Ray and :func:`ppo_config`.  What it gives:

* :class:`CardEnv`: a turn-based ``MultiAgentEnv`` from a config dict (``env_name``,
  ``num_players``, the game's options, ``illegal_action``, ``opponents``).  Each
  observation is ``{"observations": <float32 vector>, "action_mask": <float32 0/1>}``,
  the keys :class:`~cardenvs.integrations.rllib_module.ActionMaskingPPOModule` (and
  RLlib's example ``ActionMaskingTorchRLModule``) read.  Only the seat to move gets an
  observation; the other seats' rewards are handed to RLlib every step, which holds them until that
  seat acts again; at the end every learner seat gets its last observation.
* Illegal moves: RLlib's env pre-check (``check_multiagent_environments``, run by every
  ``MultiAgentEnvRunner`` unless ``disable_env_checking``) steps an unmasked random
  action.  The default ``illegal_action="terminate"`` ends the game with
  ``illegal_reward`` to the offender (the cardenvs PettingZoo option), so the check
  passes; ``"raise"`` gives ``IllegalActionError``, which RLlib reports as "does not
  abide to the new gymnasium-style API".  A masked policy never plays one.
* Frozen opponents, given as an argument: ``opponents`` lists agents (objects with
  ``act(observation)`` and ``seed(int)``) or names that ``make_opponent(env_name, name)``
  turns into one, e.g. ``{"opponents": ["greedy"], "make_opponent": agents.make_agent}``
  for the ladder's; the environment plays them itself, at seats drawn anew each episode,
  and only the other seats are RLlib agents.  This module never imports the agents.
* :func:`register` (``register_env`` under ``"cardenvs"``), :func:`runtime_env` /
  :func:`init_ray` (the remote-import fix below), :func:`ppo_config` (multi-agent PPO,
  one shared action-masking policy).  ``agents.players.trained.export_rllib`` turns the trained
  policy into the ``.npz`` the ``policy:FILE.npz`` level plays without torch.

Remote workers and a folder named ``cardenvs/``: Ray puts the driver's current
directory first on every worker's ``sys.path``.  Launched from a folder that holds a
directory ``cardenvs/`` without ``__init__.py`` (a clone of this repository, say), a
worker imports that directory as an empty namespace package whenever ``cardenvs`` is
installed in editable mode (setuptools' editable finder comes after the path search),
and fails with ``module 'cardenvs' has no attribute 'make'`` or ``No module named
'cardenvs.integrations'``.  :func:`runtime_env` ships the imported ``cardenvs`` package (and
any other you name, such as the one your opponents come from) as ``py_modules``: a
regular package found anywhere on the path wins over a namespace directory, and remote
nodes get the same code as the driver.
:func:`init_ray` passes it to ``ray.init``; when you call ``ray.init`` yourself, pass
``runtime_env=rllib.runtime_env()``.
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

import cardenvs
from cardenvs.core.env import ILLEGAL_ACTION_MODES, CardGameEnv
from cardenvs.core.game import OptionError

from .ray_runtime import init_ray, runtime_env

try:
    from ray.rllib.env.multi_agent_env import MultiAgentEnv
    from ray.rllib.utils.typing import MultiAgentDict
except ImportError as exc:  # pragma: no cover - exercised only without ray
    raise ImportError(
        "cardenvs.integrations.rllib needs Ray RLlib: pip install 'cardenvs[rllib]' "
        "(ray[tune]==2.60.0, dm-tree, lz4, ormsgpack, torch)"
    ) from exc

__all__ = [
    "DEFAULT_NAME",
    "POLICY_ID",
    "CardEnv",
    "init_ray",
    "make_env",
    "ppo_config",
    "register",
    "runtime_env",
]

#: the name :func:`register` gives the environment creator
DEFAULT_NAME = "cardenvs"
#: the module id of the shared policy in :func:`ppo_config`
POLICY_ID = "shared"

#: CardEnv's own config keys (everything else must be a game option)
_ENV_KEYS = ("env_name", "num_players", "options", "illegal_action", "illegal_reward", "opponents",
             "make_opponent", "obs_scale", "torch_threads")


class CardEnv(MultiAgentEnv):
    """A cardenvs game as a turn-based RLlib ``MultiAgentEnv``.

    ``config`` keys: ``env_name`` (required: a registered game), ``num_players`` (the
    game's default), ``options`` (a dict of game options; game options may also be given
    as top-level keys), ``illegal_action`` (``"terminate"``, default, or ``"raise"``),
    ``illegal_reward`` (-1.0), ``opponents`` (the seats the env plays itself, fewer than
    ``num_players``: agents, or names that ``make_opponent`` makes agents of),
    ``make_opponent`` (a picklable ``(env_name, name) -> agent``, such as
    ``agents.make_agent``, whose names include ``"policy:FILE.npz"`` with FILE readable
    on every worker node), ``obs_scale`` (``True``,
    default: observations times ``cardenvs.core.wrappers.observation_scale(game)``,
    about [-1, 1]; ``False``: raw; or an array of factors).  ``torch_threads`` is read by
    :func:`make_env` only.

    Agent ids are the PettingZoo ones (``player_0`` ...).  ``agents`` lists this
    episode's learner seats; with opponents, which seats those are is drawn at each
    ``reset`` from the env's generator (seeded by ``reset(seed=...)``).
    """

    metadata: dict[str, Any] = {"render_modes": []}

    def __init__(self, config: Mapping[str, Any] | None = None) -> None:
        super().__init__()
        cfg = dict(config or {})
        if "env_name" not in cfg:
            raise OptionError(f"CardEnv needs an env_name: one of {', '.join(cardenvs.GAMES)}")
        self.env_name: str = cfg["env_name"]
        game_cls = cardenvs.game_class(self.env_name)
        unknown = [k for k in cfg if k not in _ENV_KEYS and k not in game_cls.OPTIONS]
        if unknown:
            raise OptionError(f"unknown CardEnv config keys {unknown}; use {list(_ENV_KEYS)} "
                              f"or the options of {self.env_name}: {list(game_cls.OPTIONS)}")
        options = {**dict(cfg.get("options") or {}),
                   **{k: v for k, v in cfg.items() if k in game_cls.OPTIONS}}
        illegal = cfg.get("illegal_action", "terminate")
        if illegal not in ILLEGAL_ACTION_MODES:
            raise OptionError(f"illegal_action must be one of {ILLEGAL_ACTION_MODES}, got {illegal!r}")
        self.pz: CardGameEnv = cardenvs.env_module(self.env_name).raw_env(
            num_players=cfg.get("num_players"), illegal_action=illegal,
            illegal_reward=cfg.get("illegal_reward", -1.0), **options)
        self.game = self.pz.game
        self.options = options
        n = self.game.num_players
        self.opponent_levels: list[Any] = list(cfg.get("opponents") or [])
        if len(self.opponent_levels) >= n:
            raise OptionError(f"{len(self.opponent_levels)} opponents leave no learner seat "
                              f"at a {n}-player table")
        self.make_opponent: Callable[[str, str], Any] | None = cfg.get("make_opponent")
        named = [o for o in self.opponent_levels if isinstance(o, str)]
        if named and self.make_opponent is None:
            raise OptionError(f"opponents named {named} need make_opponent, a (env_name, name) -> agent "
                              "such as agents.make_agent; or give the agents themselves")
        self.obs_scale = _resolve_scale(cfg.get("obs_scale", True), self.game, self.env_name, options)
        seats: list[str] = list(self.pz.possible_agents)
        self._seats = seats
        #: this episode's learner seats (``agents``, as plain strings)
        self._learners: list[str] = seats[: n - len(self.opponent_levels)]
        self.possible_agents = list(seats)
        self.agents = list(self._learners)
        self._agent_ids = set(seats)
        box = self.pz.observation_space(seats[0])["observation"]
        low, high = box.low, box.high
        if self.obs_scale is not None:
            low, high = low * self.obs_scale, high * self.obs_scale
        space = gymnasium.spaces.Dict({
            "observations": gymnasium.spaces.Box(low.astype(np.float32), high.astype(np.float32),
                                                 box.shape, np.float32),
            "action_mask": gymnasium.spaces.Box(0.0, 1.0, (self.game.num_actions,), np.float32),
        })
        obs_spaces: dict[str, gymnasium.Space[Any]] = {a: space for a in seats}
        act_spaces: dict[str, gymnasium.Space[Any]] = {
            a: gymnasium.spaces.Discrete(self.game.num_actions) for a in seats}
        self.observation_spaces = {a: sp for a, sp in obs_spaces.items()}
        self.action_spaces = {a: sp for a, sp in act_spaces.items()}
        self.observation_space = gymnasium.spaces.Dict(obs_spaces)
        self.action_space = gymnasium.spaces.Dict(act_spaces)
        self._rng = np.random.default_rng()
        self._opponents: dict[str, Any] = {}  # seat -> agent, this episode
        self._opponent_agents: list[Any] = []  # one agent per level, reseeded each episode
        self._pending: dict[str, float] = {}

    # ------------------------------------------------------------------ API
    # like RLlib's own MultiAgentEnv.reset: multi-agent dicts where gymnasium.Env.reset
    # returns one agent's observation and info (the ignore is unused without ray installed,
    # where MultiAgentEnv is Any)
    def reset(  # type: ignore[override, unused-ignore]
              self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[MultiAgentDict, MultiAgentDict]:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        for _ in range(100):  # re-deal the (rare) game that opponents finish alone
            self.pz.reset(seed=int(self._rng.integers(2**31)), options=options)
            self._seat_opponents()
            self._pending = dict.fromkeys(self._learners, 0.0)
            self._play_opponents()
            if not self._over():
                break
            if options and options.get("state") is not None:
                raise ValueError("the given state leaves no move to a learner seat")
        else:  # pragma: no cover
            raise RuntimeError("100 deals in a row ended before a learner seat moved")
        self._pending = dict.fromkeys(self._learners, 0.0)
        mover = self.pz.agent_selection
        return {mover: self._observe(mover)}, {mover: {}}

    # gymnasium.Env.step returns one agent's tuple; RLlib's MultiAgentEnv.step (overridden
    # here with its own signature) returns multi-agent dicts (same ignore as reset)
    def step(  # type: ignore[override, unused-ignore]
        self, action_dict: MultiAgentDict
    ) -> tuple[MultiAgentDict, MultiAgentDict, MultiAgentDict, MultiAgentDict, MultiAgentDict]:
        mover = self.pz.agent_selection
        if self._over() or mover not in action_dict:
            raise ValueError(f"step() needs an action of the agent to move, {mover!r}; "
                             f"got {list(action_dict)}")
        self.pz.step(int(action_dict[mover]))
        self._collect()
        self._play_opponents()
        rewards: MultiAgentDict = {a: r for a, r in self._pending.items()}
        self._pending = dict.fromkeys(self._learners, 0.0)
        if self._over():
            term = any(self.pz.terminations.values())
            obs: MultiAgentDict = {a: self._observe(a) for a in self._learners}
            terminateds: MultiAgentDict = {a: term for a in self._learners}
            truncateds: MultiAgentDict = {a: not term for a in self._learners}
            terminateds["__all__"], truncateds["__all__"] = term, not term
            infos: MultiAgentDict = {a: dict(self.pz.infos.get(a) or {}) for a in self._learners}
            return obs, rewards, terminateds, truncateds, infos
        nxt = self.pz.agent_selection
        return ({nxt: self._observe(nxt)}, rewards, {"__all__": False}, {"__all__": False}, {nxt: {}})

    # -------------------------------------------------------------- helpers
    def _observe(self, agent: str) -> dict[str, np.ndarray]:
        raw = self.pz.observe(agent)
        x = raw["observation"]
        if self.obs_scale is not None:
            x = x * self.obs_scale
        return {"observations": x.astype(np.float32, copy=False),
                "action_mask": raw["action_mask"].astype(np.float32)}

    def _over(self) -> bool:
        return any(self.pz.terminations.values()) or any(self.pz.truncations.values())

    def _collect(self) -> None:
        for a in self._learners:
            self._pending[a] += float(self.pz.rewards.get(a, 0.0))

    def _seat_opponents(self) -> None:
        k = len(self.opponent_levels)
        if not k:
            return
        if not self._opponent_agents:
            make = self.make_opponent
            self._opponent_agents = [make(self.env_name, o) if isinstance(o, str) and make is not None else o
                                     for o in self.opponent_levels]
        order = self._rng.permutation(len(self._seats))
        opp = [self._seats[i] for i in sorted(order[:k])]
        self._learners = [a for a in self._seats if a not in opp]
        self.agents = list(self._learners)
        for agent in self._opponent_agents:
            agent.seed(int(self._rng.integers(2**31)))
        self._opponents = dict(zip(opp, self._opponent_agents))

    def _play_opponents(self) -> None:
        while not self._over() and self.pz.agent_selection in self._opponents:
            seat = self.pz.agent_selection
            self.pz.step(int(self._opponents[seat].act(self.pz.observe(seat))))
            self._collect()


_SCALES: dict[str, np.ndarray] = {}


def _resolve_scale(value: Any, game: Any, env_name: str, options: Mapping[str, Any]) -> np.ndarray | None:
    if value is True:  # deterministic (seed 0), so computed once per table and process
        from cardenvs.core.wrappers import observation_scale

        key = repr((env_name, game.num_players, sorted(options.items())))
        if key not in _SCALES:
            _SCALES[key] = observation_scale(game)
        return _SCALES[key].copy()
    if value is False or value is None:
        return None
    scale = np.asarray(value, np.float32)
    if scale.shape != (game.observation_size(),):
        raise OptionError(f"obs_scale must have shape ({game.observation_size()},), got {scale.shape}")
    return scale


def make_env(config: Mapping[str, Any] | None = None) -> CardEnv:
    """The environment creator :func:`register` gives RLlib (``config``: an ``EnvContext``).

    Besides :class:`CardEnv`'s keys it reads ``torch_threads`` (default 1): the torch
    thread count of the process building the env (an env runner), since several
    2-thread torch processes on a few cores run many times slower than 1-thread ones;
    ``None`` leaves it alone.
    """
    cfg = dict(config or {})
    threads = cfg.pop("torch_threads", 1)
    if threads is not None and "torch" in sys.modules:
        sys.modules["torch"].set_num_threads(int(threads))
    return CardEnv(cfg)


def register(name: str = DEFAULT_NAME, packages: Sequence[str] = ()) -> str:
    """Register :func:`make_env` with ``ray.tune.registry.register_env`` under ``name``.

    Workers then build the env by name (``config.environment(name, env_config={...})``).
    Returns ``name``.  Warns when Ray already runs without :func:`runtime_env` while the
    current directory holds a ``cardenvs/`` folder (or one named like ``packages``, the
    other packages the workers import) that would shadow the installed package on the
    workers.
    """
    import ray
    from ray.tune.registry import register_env

    if ray.is_initialized():
        shadows = _shadowing_dirs(Path.cwd(), ("cardenvs", *packages))
        if shadows and not _ships_modules():
            warnings.warn(
                f"the current directory holds {', '.join(shadows)}: Ray workers (which run with this "
                "directory first on sys.path) may import that folder instead of the installed "
                "package; start Ray with cardenvs.integrations.rllib.init_ray() or "
                "ray.init(runtime_env=cardenvs.integrations.rllib.runtime_env())", stacklevel=2)
    register_env(name, make_env)
    return name


def _shadowing_dirs(where: Path, names: Sequence[str]) -> list[str]:
    return [f"{p}/" for p in names if (where / p).is_dir() and not (where / p / "__init__.py").exists()]


def _ships_modules() -> bool:
    import ray

    try:
        env = ray.get_runtime_context().runtime_env
    except Exception:  # pragma: no cover - defensive: old/odd Ray
        return False
    mods = [str(m) for m in (env.get("py_modules") or [])]
    return bool(mods)


def ppo_config(env_config: Mapping[str, Any], *, env: str = DEFAULT_NAME,
               hiddens: tuple[int, ...] = (256, 256), activation: str = "tanh",
               num_env_runners: int = 0, num_envs_per_env_runner: int = 1,
               train_batch_size: int = 4000, minibatch_size: int = 256, num_epochs: int = 4,
               lr: float = 3e-4, gamma: float = 0.995, entropy_coeff: float = 0.01,
               seed: int | None = None) -> Any:
    """A ``PPOConfig``: every learner seat maps to one shared action-masking policy (:data:`POLICY_ID`).

    The policy is :class:`~cardenvs.integrations.rllib_module.ActionMaskingPPOModule`
    (RLlib's default PPO module, an MLP of ``hiddens`` with ``activation``, separate
    critic, linear policy head, with the mask applied to its logits), as
    ``agents.players.trained.export_rllib`` exports it.  ``env`` is a name given to :func:`register`
    (or the class).
    """
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    from .rllib_module import ActionMaskingPPOModule

    model = {"fcnet_hiddens": list(hiddens), "fcnet_activation": activation,
             "head_fcnet_hiddens": [], "vf_share_layers": False}
    config = (
        PPOConfig()
        .api_stack(enable_rl_module_and_learner=True, enable_env_runner_and_connector_v2=True)
        .environment(env, env_config=dict(env_config))
        .env_runners(num_env_runners=num_env_runners, num_envs_per_env_runner=num_envs_per_env_runner,
                     num_cpus_per_env_runner=1)
        .multi_agent(policies={POLICY_ID}, policy_mapping_fn=_to_shared, policies_to_train=[POLICY_ID])
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={
            POLICY_ID: RLModuleSpec(module_class=ActionMaskingPPOModule, model_config=model)}))
        .training(train_batch_size_per_learner=train_batch_size, minibatch_size=minibatch_size,
                  num_epochs=num_epochs, lr=lr, gamma=gamma, entropy_coeff=entropy_coeff)
    )
    if seed is not None:
        config = config.debugging(seed=seed)
    return config


def _to_shared(agent_id: Any, episode: Any = None, **kwargs: Any) -> str:
    """Policy mapping: every seat plays the shared policy."""
    return POLICY_ID
