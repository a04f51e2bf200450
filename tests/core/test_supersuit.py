"""SuperSuit's action-replaying wrappers need the terminate-on-illegal policy.

``sticky_actions_v0`` repeats an agent's previous action and ``delay_observations_v0``
hands agents stale masks, so both can step an action that is no longer legal.  The
default environment refuses such a step with ``IllegalActionError`` (nothing changes);
wrapped first in :func:`cardenvs.core.wrappers.terminate_illegal`, the game ends with
the penalty instead, as in PettingZoo's classic environments, and whole runs complete.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import cardenvs
from cardenvs.core.game import IllegalActionError
from cardenvs.core.wrappers import terminate_illegal

ss = pytest.importorskip("supersuit", reason="SuperSuit is not installed (pip install supersuit)")

WRAPPERS: dict[str, Callable[[Any], Any]] = {
    "sticky_actions_v0": lambda env: ss.sticky_actions_v0(env, 0.5),
    "delay_observations_v0": lambda env: ss.delay_observations_v0(env, 2),
}


def _play(env: Any, games: int) -> tuple[int, int]:
    """Random masked play: (games played to their end, games ended by an illegal action)."""
    rng = np.random.default_rng(0)
    illegal = finished = 0
    for g in range(games):
        env.reset(seed=g)
        ended = False
        for _agent in env.agent_iter():
            obs, _r, term, trunc, info = env.last()
            if term or trunc:
                if not ended:
                    illegal += "illegal_action_by" in info
                    finished += 1
                    ended = True
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(rng.choice(legal)) if legal.size else 0)
    return finished, illegal


@pytest.mark.parametrize("wrapper", list(WRAPPERS))
def test_replaying_wrappers_break_the_default_env(wrapper: str) -> None:
    with pytest.raises(IllegalActionError):
        _play(WRAPPERS[wrapper](cardenvs.make("line_v0")), games=20)


@pytest.mark.parametrize("wrapper", list(WRAPPERS))
@pytest.mark.parametrize("name", list(cardenvs.ENVS))
def test_replaying_wrappers_work_over_terminate_illegal(wrapper: str, name: str) -> None:
    env = WRAPPERS[wrapper](terminate_illegal(cardenvs.make(name)))
    games = 6 if name != "rummy432_v0" else 3
    finished, illegal = _play(env, games)
    assert finished == games  # every game ran to its end ...
    assert illegal >= 1  # ... and the replayed actions did end some by the penalty
