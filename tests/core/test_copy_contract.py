"""The copy contract (issue 34) beyond the AEC environments' own: every environment pickles
and deep-copies at any point, and the copy then plays on exactly as the original.

The AEC environment of every registered game and the toy, at every seat count, is held
to it by the contract kit (``cardenvs.testing.check_copy``, run by
``tests/core/test_contract.py``): copies (``pickle`` round trips and ``copy.deepcopy``)
taken before the first reset, right after ``reset(seed)``, after several numbers of
random legal steps and after the game's end are stepped in lockstep with the original.
Here, with the kit's comparison helpers (:mod:`cardenvs.testing.compare`): the learner
observation designs, the Gymnasium ids (the learner against ladder opponents) and the
vectorised environments of :mod:`cardenvs.vector`.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import gymnasium
import numpy as np
import pytest

import cardenvs
from cardenvs.registry import GAMES
from cardenvs.testing.compare import aec_step, assert_envs_agree, assert_same, copies
from tests.core import toy
from tests.core.toy_kit import KIT as TOY_KIT
from tests.core.toy_kit import registered

#: the registered games, and the toy (made from its module, whether registered or not)
NAMES = [name for name in cardenvs.ENVS if name != TOY_KIT.env_name] + [TOY_KIT.env_name]
#: options that shorten a game where it is long (Rummy plays three rounds by default)
SHORT = {"rummy432_v0": {"rounds_to_win": 1}}


def make_env(name: str, **kwargs: Any) -> Any:
    """The AEC environment of ``name`` (the toy's from its module)."""
    if name == TOY_KIT.env_name:
        return toy.env(**kwargs)
    return cardenvs.make(name, **kwargs)


@pytest.mark.parametrize("name", [n for n in NAMES if n != TOY_KIT.env_name])  # the toy: flat only
@pytest.mark.parametrize("observation", ["planes", "action_features"])
def test_copies_of_every_observation_design(name: str, observation: str) -> None:
    env = make_env(name, observation=observation, **SHORT.get(name, {}))
    env.reset(seed=7)
    rng = np.random.default_rng(7)
    for step in range(5):
        aec_step([env], assert_envs_agree([env]), rng, step)
    envs = [env, *copies(env)]
    for step in range(5, 25):
        if not env.agents:
            break
        aec_step(envs, assert_envs_agree(envs, every_seat=True), rng, step)
    assert_envs_agree(envs)


def test_a_copy_is_independent_of_the_original() -> None:
    env = make_env("line_v0")
    env.reset(seed=3)
    twin = copy.deepcopy(env)
    before = twin.unwrapped.state_json()
    env.step(int(np.flatnonzero(env.last()[0]["action_mask"])[0]))
    assert twin.unwrapped.state_json() == before != env.unwrapped.state_json()


# ------------------------------------------------------------------ Gymnasium ids
def gym_snapshot(env: Any, result: tuple[Any, ...]) -> dict[str, Any]:
    """What a Gymnasium env showed after a step or reset (``result``), and its masks and position."""
    base = env.unwrapped
    return {"result": result, "mask": base.action_masks(), "state": base.game.to_json(base.state),
            "seat": base.learner_seat}


def gym_ids() -> Iterator[tuple[str, str]]:
    """(game, Gymnasium id) of every game that has one, and the toy's."""
    for name in NAMES:
        kit = TOY_KIT if name == TOY_KIT.env_name else GAMES[name]
        if kit.gym_id is not None:
            yield name, kit.gym_id


@pytest.mark.parametrize(("name", "gym_id"), list(gym_ids()))
def test_gym_ids_copies_play_on_identically(name: str, gym_id: str) -> None:
    options: dict[str, Any] = SHORT.get(name, {})
    with registered():
        env: Any = gymnasium.make(gym_id, seed=5, learner_seat=None, **options)
        env.reset(seed=5)
        env.action_space.seed(5)  # Gymnasium leaves the action space unseeded
        envs = [env]
        rng = np.random.default_rng(5)
        episodes = step = 0
        while episodes < 2 or step <= 11:  # two episodes, and every checkpoint
            if step in (0, 3, 11):  # right after the reset, and mid-episode
                envs += copies(env)
            masks = [e.unwrapped.action_masks().astype(np.int8) for e in envs]
            if step % 2:
                actions = [e.action_space.sample(m) for e, m in zip(envs, masks)]
                assert all(a == actions[0] for a in actions), f"the copies' action spaces drew {actions}"
            else:
                actions = [int(rng.choice(np.flatnonzero(masks[0])))] * len(envs)
            results: list[Any] = [e.step(a) for e, a in zip(envs, actions)]
            for e, r in zip(envs[1:], results[1:]):
                assert_same(gym_snapshot(env, results[0]), gym_snapshot(e, r))
            if results[0][2] or results[0][3]:  # the episode ended: copy it, then all reset alike
                envs += copies(env)
                results = [e.reset(seed=6 + episodes) for e in envs]
                for e, r in zip(envs[1:], results[1:]):
                    assert_same(gym_snapshot(env, results[0]), gym_snapshot(e, r))
                episodes += 1
            step += 1
    assert len(envs) == 1 + 2 * 3 + 2 * episodes


def test_vector_envs_copy() -> None:
    pytest.importorskip("stable_baselines3")
    from agents import RandomAgent
    from cardenvs.vector import make_vec_env

    venv: Any = make_vec_env("rummy432_v0", 2, lambda i: [RandomAgent(i)], seed=4, rounds_to_win=1)
    venv.reset()
    rng = np.random.default_rng(4)
    envs = [venv]
    for step in range(40):
        if step in (0, 9):
            envs += copies(venv)
        masks = [e.action_masks() for e in envs]
        for m in masks[1:]:
            assert_same(masks[0], m)
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in masks[0]])
        out = [e.step(actions) for e in envs]
        for o in out[1:]:
            assert_same(out[0], o)
