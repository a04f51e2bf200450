"""Bad input the fuzzer found, refused at the door with clear errors (core side):
options as exact Python values, positions too deep or too big, JSON text accepted,
seeded action spaces, observation dicts accepted by ``decode``."""

from __future__ import annotations

import json
import time

import numpy as np
import pytest

import cardenvs
from cardenvs.core.game import InvalidStateError, OptionError, json_object, observation_vector

ENV_NAMES = list(cardenvs.ENVS)


@pytest.mark.parametrize("value", [np.float32(3.0), 3.0, True, "3"])
def test_float_or_other_type_where_an_int_option_is_meant_is_refused(value: object) -> None:
    with pytest.raises(OptionError, match="run_out_limit=.* is not allowed; allowed: 2, 3, 4, 5, None"):
        cardenvs.make("rummy432_v0", run_out_limit=value)
    with pytest.raises(OptionError, match="rounds_to_win"):
        cardenvs.make("rummy432_v0", rounds_to_win=value)


def test_numpy_int_options_are_stored_as_python_ints_and_serialise() -> None:
    env = cardenvs.make("rummy432_v0", run_out_limit=np.int64(3), rounds_to_win=np.int32(2))
    env.reset(seed=0)
    opts = env.unwrapped.game.options
    assert type(opts["run_out_limit"]) is int and type(opts["rounds_to_win"]) is int
    json.dumps(env.unwrapped.state_json())  # no numpy value inside


@pytest.mark.parametrize("viewer", [2.0, True, "0", 5])
def test_render_viewer_must_be_a_seat_int(viewer: object) -> None:
    with pytest.raises(OptionError, match="render_viewer must be None or a seat"):
        cardenvs.make("line_v0", render_mode="ansi", render_viewer=viewer)


def test_render_viewer_numpy_int_is_accepted() -> None:
    env = cardenvs.make("line_v0", render_mode="ansi", render_viewer=np.int64(1))
    env.reset(seed=0)
    assert isinstance(env.render(), str)


def test_deeply_nested_position_is_refused_with_a_short_message() -> None:
    deep: object = []
    for _ in range(5000):
        deep = [deep]
    for bad in ({"game": "line", "rows": deep}, "[" * 5000 + "]" * 5000):
        with pytest.raises(InvalidStateError) as err:
            json_object(bad)
        assert len(str(err.value)) < 200


def test_oversized_position_is_refused_at_once() -> None:
    env = cardenvs.make("line_v0")
    env.reset(seed=0)
    pos = env.unwrapped.state_json()
    pos["draw_pile"] = ["As"] * 1_000_000
    before = env.unwrapped.state_json()
    t0 = time.perf_counter()
    with pytest.raises(InvalidStateError, match="at most 512"):
        env.reset(options={"state": pos})
    assert time.perf_counter() - t0 < 1.0
    assert env.unwrapped.state_json() == before


@pytest.mark.parametrize("name", ENV_NAMES)
def test_decode_accepts_the_observation_dict(name: str) -> None:
    env = cardenvs.make(name)
    env.reset(seed=2)
    obs = env.last()[0]
    cls = cardenvs.game_class(name)
    assert cls.decode(obs) == cls.decode(obs["observation"])
    with pytest.raises(ValueError, match="'observation'"):
        observation_vector({"action_mask": obs["action_mask"]})


@pytest.mark.parametrize("name", ENV_NAMES)
def test_action_spaces_are_seeded_by_reset(name: str) -> None:
    def sample(seed: int) -> list[int]:
        env = cardenvs.make(name)
        env.reset(seed=seed)
        return [int(env.action_space(a).sample()) for a in env.possible_agents for _ in range(3)]

    assert sample(1) == sample(1)
    assert sample(1) != sample(2)
