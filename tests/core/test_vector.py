"""The batched training path: MaskedVecEnv against SB3's DummyVecEnv, and LazyObservation."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import cardenvs
from agents import RandomAgent
from cardenvs.core.game import OptionError
from cardenvs.core.loop import LazyObservation
from cardenvs.core.wrappers import SingleAgentEnv

pytest.importorskip("stable_baselines3")

from stable_baselines3.common.vec_env import DummyVecEnv

from cardenvs.vector import MaskedVecEnv, make_vec_env


def _thunks(env_name: str, n: int) -> list:
    def thunk(i: int):  # noqa: ANN202
        return lambda: SingleAgentEnv(env_name, [RandomAgent(100 + i)], learner_seat=None, num_players=2)

    return [thunk(i) for i in range(n)]


@pytest.mark.parametrize("env_name", list(cardenvs.ENVS))
def test_masked_vec_env_steps_exactly_as_dummy_vec_env(env_name: str) -> None:
    fast, ref = MaskedVecEnv(_thunks(env_name, 3)), DummyVecEnv(_thunks(env_name, 3))
    fast.seed(7)
    ref.seed(7)
    np.testing.assert_array_equal(fast.reset(), ref.reset())
    rng = np.random.default_rng(0)
    episodes = 0
    for _ in range(400):
        masks: Any = fast.env_method("action_masks")  # an array here (SB3 annotates a list)
        ref_masks = np.stack(ref.env_method("action_masks"))
        np.testing.assert_array_equal(np.stack(masks), ref_masks)
        assert masks.dtype == bool and masks.shape == (3, int(fast.action_space.n))  # type: ignore[attr-defined]
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in ref_masks])
        o1, r1, d1, i1 = fast.step(actions)
        o2, r2, d2, i2 = ref.step(actions)
        np.testing.assert_array_equal(o1, o2)
        np.testing.assert_array_equal(r1, r2)
        np.testing.assert_array_equal(d1, d2)
        for a, b in zip(i1, i2):
            assert a.keys() == b.keys()
            if "terminal_observation" in a:
                np.testing.assert_array_equal(a["terminal_observation"], b["terminal_observation"])
                assert a["TimeLimit.truncated"] == b["TimeLimit.truncated"]
        episodes += int(d1.sum())
    assert episodes > 0 or env_name == "rummy432_v0"  # Rummy games are long under random play


def test_masked_vec_env_masks_are_copies_and_indices_work() -> None:
    venv = MaskedVecEnv(_thunks("rummy432_v0", 2))
    venv.reset()
    m = venv.action_masks()
    m[:] = False
    assert venv.action_masks().any(axis=1).all()
    one = venv.env_method("action_masks", indices=[1])
    np.testing.assert_array_equal(one[0], venv.action_masks()[1])


def test_make_vec_env_refuses_bad_arguments() -> None:
    with pytest.raises(OptionError, match="inprocess, subproc"):
        make_vec_env("line_v0", 2, lambda i: [RandomAgent(i)], kind="threads")
    with pytest.raises(OptionError, match="positive integer"):
        make_vec_env("line_v0", 0, lambda i: [RandomAgent(i)])
    with pytest.raises(OptionError, match="SingleAgentEnv"):
        MaskedVecEnv([lambda: __import__("gymnasium").make("CartPole-v1")])


def test_make_vec_env_seeds_each_copy() -> None:
    a = make_vec_env("lineit_v0", 3, lambda i: [RandomAgent(i)], seed=5)
    b = make_vec_env("lineit_v0", 3, lambda i: [RandomAgent(i)], seed=5)
    oa, ob = np.asarray(a.reset()), np.asarray(b.reset())
    np.testing.assert_array_equal(oa, ob)
    assert not np.array_equal(oa[0], oa[1])  # different deals per copy


def test_lazy_observation_is_what_last_gives_and_encodes_only_on_demand() -> None:
    game = cardenvs.game_class("line_v0")(2)
    state = game.new_state(np.random.default_rng(3))
    calls = []
    real = game.encode

    def counting(v):  # noqa: ANN001, ANN202
        calls.append(v.seat)
        return real(v)

    game.encode = counting  # type: ignore[method-assign]
    obs = LazyObservation(game, game.view(state, 0), game.legal_actions(state))
    np.testing.assert_array_equal(obs["action_mask"], game.legal_mask(state))
    assert calls == []
    np.testing.assert_array_equal(obs["observation"], game.observe(state, 0))
    assert calls == [0]
    assert obs["observation"] is obs["observation"] and calls == [0]
    assert list(obs) == ["observation", "action_mask"] and len(obs) == 2 and "observation" in obs
    assert set(obs.copy()) == {"observation", "action_mask"}
    with pytest.raises(KeyError):
        obs["state"]


def test_subprocess_kind_gives_the_same_first_observations_and_masks() -> None:
    sub = make_vec_env("rummy432_v0", 2, lambda i: [RandomAgent(i)], seed=4, kind="subproc")
    local: Any = make_vec_env("rummy432_v0", 2, lambda i: [RandomAgent(i)], seed=4)  # a MaskedVecEnv
    try:
        np.testing.assert_array_equal(sub.reset(), local.reset())
        np.testing.assert_array_equal(np.stack(sub.env_method("action_masks")), local.action_masks())
        actions = np.array([np.flatnonzero(m)[0] for m in local.action_masks()])
        o1, r1, d1, _ = sub.step(actions)
        o2, r2, d2, _ = local.step(actions)
        np.testing.assert_array_equal(o1, o2)
        np.testing.assert_array_equal(r1, r2)
    finally:
        sub.close()
