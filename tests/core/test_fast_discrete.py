"""FastDiscrete: gymnasium's ``Discrete`` with a fast ``sample(mask)`` and gymnasium's results.

Every test draws from a :class:`FastDiscrete` and a plain ``gymnasium.spaces.Discrete``
seeded alike and holds the two to the same samples (value and type), the same errors and
the same generator state afterwards.
"""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardenvs
from cardenvs.core.spaces import FastDiscrete
from cardenvs.core.wrappers import SingleAgentEnv

Discrete = gymnasium.spaces.Discrete
SETTINGS = settings(max_examples=150, deadline=None)


def pair(n: int, seed: int, start: int = 0, dtype: Any = np.int64) -> tuple[FastDiscrete, Discrete]:
    """A FastDiscrete and a gymnasium Discrete of the same shape, seeded alike."""
    fast = FastDiscrete(n, seed=seed, start=start, dtype=dtype)
    return fast, Discrete(n, seed=seed, start=start, dtype=dtype)


def random_mask(rng: np.random.Generator, n: int, density: float) -> np.ndarray:
    """An int8 0/1 mask of ``n`` entries, each 1 with probability ``density``."""
    return (rng.random(n) < density).astype(np.int8)


def assert_same_draws(fast: Discrete, gym: Discrete, masks: Sequence[np.ndarray | None]) -> list[Any]:
    """Sample both spaces with each mask in turn: the same values of the same type;
    return the draws."""
    draws = []
    for mask in masks:
        a, b = fast.sample(mask), gym.sample(mask)
        assert a == b and type(a) is type(b), (a, b)
        draws.append(a)
    # and the generators end in the same state
    assert fast.np_random.bit_generator.state == gym.np_random.bit_generator.state
    return draws


def same_error(call: Callable[[Discrete], Any], fast: Discrete, gym: Discrete) -> None:
    """``call`` raises the same error type and message on both spaces."""
    with pytest.raises(Exception) as expected:  # noqa: PT011 - whatever gymnasium raises
        call(gym)
    with pytest.raises(type(expected.value)) as got:
        call(fast)
    assert str(got.value) == str(expected.value)


@SETTINGS
@given(seed=st.integers(0, 2**32), n=st.integers(1, 300), start=st.integers(-5, 5),
       mask_seed=st.integers(0, 2**16), density=st.sampled_from([0.0, 0.005, 0.05, 0.3, 0.9, 1.0]),
       draws=st.integers(1, 12))
def test_masked_samples_are_gymnasiums(seed: int, n: int, start: int, mask_seed: int, density: float,
                                       draws: int) -> None:
    fast, gym = pair(n, seed, start)
    rng = np.random.default_rng(mask_seed)
    masks = [random_mask(rng, n, density) for _ in range(draws)]
    assert_same_draws(fast, gym, masks)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), mask_seed=st.integers(0, 2**16))
def test_sequences_on_the_games_action_counts(seed: int, mask_seed: int) -> None:
    """The action spaces' real sizes (Line's 4,014 actions), with masks of a few legal
    actions, all-zero masks, no mask and a probability vector interleaved."""
    rng = np.random.default_rng(mask_seed)
    for name in cardenvs.ENVS:
        n = cardenvs.game_class(name).num_actions
        fast, gym = pair(n, seed)
        masks: list[np.ndarray | None] = []
        for i in range(30):
            masks.append(None if i % 7 == 3 else random_mask(rng, n, float(rng.choice([0.0, 0.002, 0.02]))))
        draws = assert_same_draws(fast, gym, masks)
        assert all(0 <= d < n for d in draws)
        p = rng.random(n)
        p /= p.sum()
        a, b = fast.sample(probability=p), gym.sample(probability=p)  # type: ignore[arg-type]
        assert a == b and type(a) is type(b)


@pytest.mark.parametrize(("dtype", "start"), [(np.int64, 0), (np.int64, 3), (np.int64, -2), (np.int32, 0),
                                               (np.int32, -2), (np.int16, 3), (np.uint8, 0), (np.uint8, 3)])
def test_every_dtype_and_start(dtype: Any, start: int) -> None:
    fast, gym = pair(40, 11, start, dtype)
    rng = np.random.default_rng(1)
    draws = assert_same_draws(fast, gym, [random_mask(rng, 40, 0.3) for _ in range(50)] + [None])
    assert all(start <= int(d) < start + 40 for d in draws)
    assert all(type(d) is np.dtype(dtype).type for d in draws)


def test_the_all_zero_mask_gives_start_and_draws_nothing() -> None:
    fast, gym = pair(10, 4, start=5)
    zero = np.zeros(10, np.int8)
    assert fast.sample(zero) is fast.start  # gymnasium returns its start itself
    assert gym.sample(zero) is gym.start
    one = np.zeros(10, np.int8)
    one[7] = 1
    draws = assert_same_draws(fast, gym, [zero, one, zero, None, None])
    assert draws[:3] == [5, 12, 5]
    # neither the zero masks nor the one-entry mask drew: what follows is a fresh space's first draws
    assert draws[3:] == assert_same_draws(*pair(10, 4, start=5), [None, None])


def test_masks_in_other_layouts() -> None:
    """Strided, read-only and unpickled masks (whose dtype is not numpy's own int8
    object) sample as gymnasium's."""
    rng = np.random.default_rng(3)
    wide = random_mask(rng, 200, 0.2)
    readonly = random_mask(rng, 100, 0.2)
    readonly.flags.writeable = False
    unpickled = pickle.loads(pickle.dumps(random_mask(rng, 100, 0.2)))
    fast, gym = pair(100, 8)
    assert_same_draws(fast, gym, [wide[::2], readonly, unpickled, wide[1::2]])


@pytest.mark.parametrize(
    "call",
    [
        lambda s: s.sample(np.ones(5, np.int8)),  # wrong shape
        lambda s: s.sample(np.ones((2, 6), np.int8)),  # wrong shape, 2-D
        lambda s: s.sample(np.ones(6, np.int32)),  # wrong dtype
        lambda s: s.sample(np.ones(6, bool)),  # wrong dtype
        lambda s: s.sample([1, 0, 1, 0, 1, 0]),  # not an array
        lambda s: s.sample(np.array([1, 0, 2, 0, 1, 0], np.int8)),  # a 2
        lambda s: s.sample(np.array([0, 0, -1, 0, 0, 0], np.int8)),  # a -1 alone
        lambda s: s.sample(np.ones(6, np.int8), probability=np.full(6, 1 / 6)),  # both
        lambda s: s.sample(probability=np.full(6, 0.5)),  # does not sum to 1
    ],
    ids=["short", "2-D", "int32", "bool", "list", "two", "minus-one", "both", "probability-sum"],
)
def test_invalid_masks_raise_gymnasiums_errors(call: Callable[[Discrete], Any]) -> None:
    fast, gym = pair(6, 2)
    same_error(call, fast, gym)
    # and the generators were left alike: the next draws agree
    assert_same_draws(fast, gym, [np.array([1, 1, 0, 1, 0, 1], np.int8), None])


def test_a_changed_size_is_seen() -> None:
    """Replacing ``n`` (or ``start``) after sampling: the fast path follows the new size."""
    fast, gym = pair(6, 9)
    mask = np.array([1, 0, 1, 1, 0, 0], np.int8)
    assert_same_draws(fast, gym, [mask])
    for space in (fast, gym):
        space.n = np.int64(4)
        space.start = np.int64(2)
    assert_same_draws(fast, gym, [np.array([0, 1, 1, 0], np.int8)])
    same_error(lambda s: s.sample(mask), fast, gym)


def test_it_is_a_discrete() -> None:
    fast, gym = pair(4014, 0)
    assert isinstance(fast, Discrete)
    assert fast == gym and gym == fast
    assert fast != Discrete(4014, start=1) and fast != Discrete(4013)
    assert repr(fast) == repr(gym) == "Discrete(4014)"
    assert fast.contains(np.int64(4013)) and not fast.contains(4014)
    assert gymnasium.spaces.utils.flatdim(fast) == 4014
    assert fast.seed(5) == gym.seed(5)


@pytest.mark.parametrize("clone", [lambda s: pickle.loads(pickle.dumps(s)), copy.deepcopy])
def test_copies_sample_on_alike(clone: Callable[[Any], Any]) -> None:
    fast, gym = pair(50, 6)
    rng = np.random.default_rng(0)
    masks = [random_mask(rng, 50, 0.4) for _ in range(10)]
    assert_same_draws(fast, gym, masks[:5])
    twin = clone(fast)
    assert type(twin) is FastDiscrete and twin == fast
    assert assert_same_draws(twin, copy.deepcopy(gym), masks[5:]) == assert_same_draws(fast, gym, masks[5:])


def test_the_environments_use_it() -> None:
    env = cardenvs.make("line_v0", num_players=3)
    env.reset(seed=1)
    assert all(type(env.action_space(a)) is FastDiscrete for a in env.possible_agents)
    assert env.action_space("player_0") == Discrete(cardenvs.game_class("line_v0").num_actions)
    def first_legal(obs: Mapping[str, np.ndarray]) -> int:
        return int(np.flatnonzero(obs["action_mask"])[0])

    single = SingleAgentEnv("rummy432_v0", [first_legal], num_players=2)
    assert type(single.action_space) is FastDiscrete


def test_the_readme_loop_draws_what_gymnasium_draws() -> None:
    """The README's loop over an env with FastDiscrete spaces and over one with plain
    Discrete spaces seeded alike: the same game, move by move."""

    def play(plain: bool) -> list[int]:
        env = cardenvs.make("line_v0", num_players=3)
        if plain:
            base = env.unwrapped
            base._action_spaces = {a: Discrete(s.n) for a, s in base._action_spaces.items()}
        env.reset(seed=1)
        moves = []
        for agent in env.agent_iter():
            obs, _reward, term, trunc, _info = env.last()
            action = None if term or trunc else env.action_space(agent).sample(obs["action_mask"])
            env.step(action)
            if action is not None:
                moves.append(int(action))
        return moves

    fast = play(False)
    assert len(fast) > 10 and fast == play(True)
