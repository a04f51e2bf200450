"""The generic AEC env and wrappers, on a toy game (no real rules involved)."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest

from cardenvs.core.game import IllegalActionError, OptionError
from cardenvs.core.wrappers import SingleAgentEnv, terminate_illegal

from .toy import ToyGame, env, raw_env


def test_illegal_action_raises_and_changes_nothing() -> None:
    e = raw_env()
    e.reset(seed=3)
    before = e.state_json()
    with pytest.raises(IllegalActionError, match="out of range"):
        e.step(7)
    with pytest.raises(IllegalActionError, match="must be an int"):
        e.step("add 1")
    assert e.state_json() == before
    e.step(np.int64(2))  # numpy ints are accepted
    assert e.state_json()["total"] == 3


def test_bad_options_name_what_exists() -> None:
    with pytest.raises(OptionError, match="the options are num_players, target"):
        raw_env(colour="red")
    with pytest.raises(OptionError, match="allowed: 10, 12"):
        raw_env(target=11)
    with pytest.raises(OptionError, match="num_players must be 2..3"):
        raw_env(num_players=5)
    with pytest.raises(OptionError, match="render_mode"):
        raw_env(render_mode="rgb")


def test_rewards_and_dead_steps() -> None:
    e = env(num_players=2)
    e.reset(seed=0)
    for _ in range(3):  # 3+3+3 = 9, then 3 more: player_1... order p0 p1 p0 p1
        e.step(2)
    e.step(0)  # total 10 reached by player_1
    assert all(e.terminations.values())
    assert e.rewards == {"player_0": -1.0, "player_1": 1.0}
    assert e.agent_selection == "player_1"
    assert e.last()[1] == 1.0
    assert not e.last()[0]["action_mask"].any()
    e.step(None)
    assert e.agents == ["player_0"]
    assert e.last()[1] == -1.0
    e.step(None)
    assert e.agents == []


def test_terminate_illegal_wrapper() -> None:
    e = terminate_illegal(raw_env(), illegal_reward=-5)
    e.reset(seed=0)
    e.step(1)
    e.step(9)  # player_1 plays an out-of-range action
    assert all(e.terminations.values())
    assert e.rewards["player_1"] == -5 and e.rewards["player_0"] == 0
    assert e.infos["player_0"]["illegal_action_by"] == "player_1"
    while e.agents:
        e.step(None)


def test_illegal_action_terminate_option() -> None:
    e = raw_env(illegal_action="terminate", illegal_reward=-3)
    e.reset(seed=0)
    e.step(1)
    before = e.state.total
    e.step(9)  # player_1 plays an out-of-range action: the game ends, the state stays
    assert e.state.total == before
    assert all(e.terminations.values()) and not any(e.truncations.values())
    assert e.rewards == {"player_0": 0.0, "player_1": -3.0}
    assert e.infos["player_1"]["illegal_action_by"] == "player_1"
    assert not e.observe("player_0")["action_mask"].any()
    assert e.last()[1] == -3.0
    while e.agents:
        e.step(None)


@pytest.mark.parametrize(("kw", "match"), [({"illegal_action": "ignore"}, "illegal_action='ignore'"),
                                           ({"illegal_reward": "x"}, "illegal_reward must be a number")])
def test_illegal_action_options_are_checked(kw: dict[str, Any], match: str) -> None:
    with pytest.raises(OptionError, match=match):
        raw_env(**kw)


class _First:
    def act(self, obs):  # noqa: D401 - minimal agent
        return int(np.flatnonzero(obs["action_mask"])[0])


def test_single_agent_env_checkers() -> None:
    from gymnasium.utils.env_checker import check_env

    sa = SingleAgentEnv(ToyGame(2), [_First()], learner_seat=None)
    check_env(sa, skip_render_check=True)
    obs, info = sa.reset(seed=4)
    assert obs.shape == (5,) and sa.action_masks().tolist() == [True, True, True]
    obs, r, term, trunc, info = sa.step(99)
    assert term and r == -1.0 and "illegal_action" in info
    assert sa.action_masks().tolist() == [True, False, False]  # the reset-step mask
    with pytest.raises(RuntimeError):
        sa.step(0)


def test_single_agent_env_reward_is_learners() -> None:
    sa = SingleAgentEnv(ToyGame(2), [_First()], learner_seat=0)
    sa.reset(seed=1)
    done, reward = False, 0.0
    while not done:
        _obs, reward, term, trunc, _ = sa.step(2)
        done = term or trunc
    # learner adds 3, opponent 1 each round: 3,4,7,8,11 -> the learner reaches 11
    assert reward == 1.0
    assert isinstance(sa.observation_space, gymnasium.spaces.Box)


def test_order_enforced_before_reset() -> None:
    e = env()
    with pytest.raises(AttributeError, match="before reset"):
        e.last()
    with pytest.raises(AttributeError, match="before reset"):
        _ = e.agent_selection
    e.reset(seed=0)
    assert e.last()[0]["action_mask"].tolist() == [1, 1, 1]


def test_single_agent_step_reward_counts_every_move() -> None:
    calls = []

    def shaping(info, seat):
        calls.append(seat)
        return 0.25

    sa = SingleAgentEnv(ToyGame(2), [_First()], learner_seat=0, step_reward=shaping)
    sa.reset(seed=1)
    _obs, reward, term, _trunc, _ = sa.step(2)  # learner adds 3, the opponent 1: two moves
    assert not term and reward == 0.5 and calls == [0, 0]


def test_refused_position_changes_nothing() -> None:
    e = raw_env()
    e.reset(seed=2)
    e.step(0)
    before = e.state_json()
    with pytest.raises(ValueError, match="not a toy state"):
        e.reset(seed=9, options={"state": {"game": "chess"}})
    assert e.state_json() == before
    e.step(1)  # the game goes on as if nothing happened
