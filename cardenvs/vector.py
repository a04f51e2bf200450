"""Vectorised single-agent environments for Stable-Baselines3 / sb3-contrib ``MaskablePPO``.

* :class:`MaskedVecEnv` — an in-process SB3 ``VecEnv`` over :class:`SingleAgentEnv`
  copies.  It is ``DummyVecEnv`` with the per-step copies removed (observations go
  straight into one preallocated array, infos are not deep-copied: every info dict is
  fresh) and with ``action_masks()`` answered from one preallocated boolean array,
  which is what ``MaskablePPO`` asks for before every step.
* :func:`make_vec_env` — N seeded copies of a game against given opponents, in process
  (``"inprocess"``, the fast choice on few cores) or one subprocess per copy (SB3's
  ``SubprocVecEnv``, for many cores and heavy opponents).

Needs the ``train`` extra (stable-baselines3); the environments themselves do not.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numpy as np

try:
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecEnv
    from stable_baselines3.common.vec_env.base_vec_env import VecEnvIndices, VecEnvStepReturn
except ImportError as err:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "cardenvs.vector needs stable-baselines3: pip install 'cardenvs[train]'"
    ) from err

from .core.game import OptionError
from .core.wrappers import SingleAgentEnv

__all__ = ["MaskedVecEnv", "make_vec_env", "VEC_KINDS"]

VEC_KINDS = ("inprocess", "subproc")


class MaskedVecEnv(DummyVecEnv):
    """N :class:`SingleAgentEnv` copies stepped in this process, with batched action masks.

    Behaves as SB3's ``DummyVecEnv`` (auto-reset, ``terminal_observation`` and
    ``TimeLimit.truncated`` in the infos) and adds :meth:`action_masks`, the
    ``(num_envs, num_actions)`` boolean mask of every copy's current decision.
    """

    def __init__(self, env_fns: Sequence[Callable[[], SingleAgentEnv]]) -> None:
        super().__init__(list(env_fns))
        self._singles: list[SingleAgentEnv] = []
        for env in self.envs:
            if not isinstance(env, SingleAgentEnv):
                raise OptionError(f"MaskedVecEnv steps SingleAgentEnv copies, got {type(env).__name__}")
            self._singles.append(env)
        space = self.action_space
        assert isinstance(space, gymnasium.spaces.Discrete)  # as every SingleAgentEnv's
        self._masks = np.zeros((self.num_envs, int(space.n)), dtype=bool)
        # SB3 annotates the buffers' keys as str, but a non-dict space's one key is None
        self._obs = self.buf_obs[None]  # type: ignore[index]

    def step_wait(self) -> VecEnvStepReturn:
        """Step every copy; a finished copy is reset and its last observation kept in its info."""
        obs_buf, rews, dones, infos = self._obs, self.buf_rews, self.buf_dones, self.buf_infos
        for i, env in enumerate(self._singles):
            obs, rews[i], terminated, truncated, info = env.step(self.actions[i])
            info["TimeLimit.truncated"] = truncated and not terminated
            if terminated or truncated:
                info["terminal_observation"] = obs
                obs, self.reset_infos[i] = env.reset()
            dones[i] = terminated or truncated
            infos[i] = info
            obs_buf[i] = obs
        return obs_buf.copy(), rews.copy(), dones.copy(), list(infos)

    def action_masks(self) -> np.ndarray:
        """Boolean masks of every copy's legal actions, shape ``(num_envs, num_actions)``."""
        out = self._masks
        for i, env in enumerate(self._singles):
            env.write_action_mask(out[i])
        return out.copy()

    def env_method(
        self, method_name: str, *method_args: Any, indices: VecEnvIndices = None, **method_kwargs: Any
    ) -> list[Any]:
        """As ``DummyVecEnv``, with all copies' ``action_masks`` answered in one array."""
        if method_name == "action_masks" and indices is None and not method_args and not method_kwargs:
            return self.action_masks()  # type: ignore[return-value]  # rows, as np.stack expects
        return super().env_method(method_name, *method_args, indices=indices, **method_kwargs)


def make_vec_env(
    env_name: str,
    n_envs: int,
    opponents: Callable[[int], Sequence[Any] | Callable[[np.random.Generator], Sequence[Any]]],
    num_players: int = 2,
    seed: int = 0,
    kind: str = "inprocess",
    **env_kwargs: Any,
) -> VecEnv:
    """``n_envs`` seeded :class:`SingleAgentEnv` copies of ``env_name`` as one SB3 ``VecEnv``.

    ``opponents(i)`` gives copy ``i`` its opponents (a list of agents, or a pool callable
    as :class:`SingleAgentEnv` accepts).  ``kind`` is ``"inprocess"`` (:class:`MaskedVecEnv`)
    or ``"subproc"`` (SB3 ``SubprocVecEnv``, one process per copy).  Copy ``i`` is reset
    with seed ``seed + i``; ``env_kwargs`` go to :class:`SingleAgentEnv` (``learner_seat``,
    ``obs_scale``, ``step_reward``, game options).
    """
    if kind not in VEC_KINDS:
        raise OptionError(f"kind must be one of {', '.join(VEC_KINDS)}, got {kind!r}")
    if not isinstance(n_envs, int) or n_envs < 1:
        raise OptionError(f"n_envs must be a positive integer, got {n_envs!r}")
    env_kwargs.setdefault("learner_seat", None)

    def factory(i: int) -> Callable[[], SingleAgentEnv]:
        def thunk() -> SingleAgentEnv:
            return SingleAgentEnv(env_name, opponents(i), num_players=num_players, **env_kwargs)

        return thunk

    fns = [factory(i) for i in range(n_envs)]
    venv: VecEnv = MaskedVecEnv(fns) if kind == "inprocess" else SubprocVecEnv(list(fns))
    venv.seed(seed)  # the first reset deals copy i with seed + i
    return venv
