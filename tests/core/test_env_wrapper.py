"""The order-enforcing wrapper's checks, the lazily seeded spaces and the fresh
observation arrays (the env's hot path skips PettingZoo's ``__getattr__`` fall-through,
so these guard that its behaviour stayed PettingZoo's)."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

import cardenvs

NAMES = sorted(cardenvs.ENVS)


@pytest.mark.parametrize("name", NAMES)
def test_nothing_before_reset(name: str) -> None:
    env = cardenvs.make(name)
    assert isinstance(env, OrderEnforcingWrapper)
    for attr in ("agents", "agent_selection", "rewards", "terminations", "truncations", "infos"):
        with pytest.raises(AttributeError, match="before reset"):
            getattr(env, attr)
    with pytest.raises(AttributeError, match="before reset"):
        env.last()
    for call in (lambda: env.step(0), lambda: env.observe("player_0"), lambda: env.agent_iter()):
        with pytest.raises(AssertionError):
            call()


@pytest.mark.parametrize("name", NAMES)
def test_agent_iter_requires_a_step_between_agents(name: str) -> None:
    env = cardenvs.make(name)
    env.reset(seed=1)
    it = iter(env.agent_iter())
    assert next(it) == env.agent_selection
    with pytest.raises(AssertionError, match="need to call step"):
        next(it)


@pytest.mark.parametrize("name", NAMES)
def test_step_after_the_end_warns_and_changes_nothing(name: str) -> None:
    env = cardenvs.make(name)
    env.reset(seed=2)
    rng = np.random.default_rng(0)
    for _agent in env.agent_iter():
        obs, _r, term, trunc, _i = env.last()
        if term or trunc:
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert env.agents == []
    before = env.state_json()
    env.step(None)  # PettingZoo warns, nothing happens
    assert env.state_json() == before


@pytest.mark.parametrize("name", NAMES)
def test_spaces_are_seeded_by_reset_even_when_used_later(name: str) -> None:
    def samples(env_seed: int, steps: int) -> list[float]:
        env = cardenvs.make(name)
        env.reset(seed=env_seed)
        for _ in range(steps):  # play a little before the spaces are first used
            env.step(int(np.flatnonzero(env.last()[0]["action_mask"])[0]))
        out: list[float] = [int(env.action_space(a).sample()) for a in env.possible_agents]
        box = env.observation_space("player_1")["observation"]
        return out + [float(box.sample()[0])]

    assert samples(5, 0) == samples(5, 3)
    assert samples(5, 0) != samples(6, 0)
    env = cardenvs.make(name)
    env.reset(seed=5)
    spaces = env.unwrapped.action_spaces  # the dict is seeded too
    assert [int(spaces[a].sample()) for a in env.possible_agents] == samples(5, 0)[:-1]


@pytest.mark.parametrize("name", NAMES)
def test_observations_are_fresh_arrays(name: str) -> None:
    env = cardenvs.make(name)
    env.reset(seed=3)
    agent = env.agent_selection
    first = env.observe(agent)
    keep = {k: v.copy() for k, v in first.items()}
    first["observation"][:] = 7
    first["action_mask"][:] = 0
    again = env.observe(agent)
    for key in keep:
        np.testing.assert_array_equal(again[key], keep[key])
    other = next(a for a in env.agents if a != agent)
    assert not env.observe(other)["action_mask"].any()
