"""The copy contract (issue 34): every environment pickles and deep-copies at any point,
and the copy then plays on exactly as the original.

For every registered game and the toy, at every seat count: copies (``pickle`` round
trips and ``copy.deepcopy``) taken before the first reset, right after ``reset(seed)``,
after several numbers of random legal steps and after the game's end are stepped in
lockstep with the original to the end (and through a new seeded game), and every step
they show the same agent to move, observation, rewards, terminations, truncations,
infos, agents and position (``state_json``).  Half the actions are drawn once from a
seeded generator by the mask, half by each environment from its own action space
(``action_space(agent).sample(mask)``), so the spaces' generators must be copied too.
The same for the Gymnasium ids (the learner against ladder opponents) and for the
vectorised environments of :mod:`cardenvs.vector`.
"""

from __future__ import annotations

import copy
import pickle
from collections.abc import Iterator
from typing import Any

import gymnasium
import numpy as np
import pytest

import cardenvs
from cardenvs.registry import GAMES
from tests.core import toy
from tests.core.toy_kit import KIT as TOY_KIT
from tests.core.toy_kit import registered

#: the registered games, and the toy (made from its module, whether registered or not)
NAMES = [name for name in cardenvs.ENVS if name != TOY_KIT.env_name] + [TOY_KIT.env_name]
#: steps after ``reset(seed)`` at which copies are taken (besides before it and at the end)
CHECKPOINTS = (0, 1, 3, 17)
#: options that shorten a game where it is long (Rummy plays three rounds by default)
SHORT = {"rummy432_v0": {"rounds_to_win": 1}}


def make_env(name: str, **kwargs: Any) -> Any:
    """The AEC environment of ``name`` (the toy's from its module)."""
    if name == TOY_KIT.env_name:
        return toy.env(**kwargs)
    return cardenvs.make(name, **kwargs)


def seat_counts(name: str) -> list[int]:
    """Every seat count the game allows."""
    cls = toy.ToyGame if name == TOY_KIT.env_name else cardenvs.game_class(name)
    return list(range(cls.min_players, cls.max_players + 1))


def copies(env: Any) -> list[Any]:
    """A pickle round trip of ``env`` and a deep copy of it."""
    return [pickle.loads(pickle.dumps(env)), copy.deepcopy(env)]


def assert_same(a: Any, b: Any, path: str = "") -> None:
    """``a`` and ``b`` are equal, arrays by dtype, shape and value, containers entry by entry."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        assert isinstance(a, np.ndarray) and isinstance(b, np.ndarray), path
        assert a.dtype == b.dtype and a.shape == b.shape, path
        assert np.array_equal(a, b), path
    elif isinstance(a, dict):
        assert isinstance(b, dict) and a.keys() == b.keys(), path
        for key in a:
            assert_same(a[key], b[key], f"{path}[{key!r}]")
    elif isinstance(a, (list, tuple)):
        assert type(a) is type(b) and len(a) == len(b), path
        for i, (x, y) in enumerate(zip(a, b)):
            assert_same(x, y, f"{path}[{i}]")
    else:
        assert type(a) is type(b) and a == b, f"{path}: {a!r} != {b!r}"


def aec_snapshot(env: Any, every_seat: bool = False) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """Everything an AEC environment shows, as plain data (the agents, the bookkeeping,
    the position, the agent to move and the rest of its ``last()``) and arrays (its
    observation and mask; with ``every_seat``, every agent's ``observe`` too)."""
    plain: dict[str, Any] = {
        "agents": list(env.agents), "rewards": dict(env.rewards), "terminations": dict(env.terminations),
        "truncations": dict(env.truncations), "infos": dict(env.infos),
        "cumulative": dict(env.unwrapped._cumulative_rewards), "state": env.unwrapped.state_json(),
    }
    arrays: dict[str, np.ndarray] = {}
    if env.agents:
        obs, *rest = env.last()
        plain["agent"], plain["last"] = env.agent_selection, rest
        arrays.update({f"last {key}": value for key, value in obs.items()})
        if every_seat:
            for agent in env.agents:
                arrays.update({f"{agent} {key}": value for key, value in env.observe(agent).items()})
    return plain, arrays


def assert_envs_agree(
    envs: list[Any], every_seat: bool = False
) -> list[tuple[dict[str, Any], dict[str, np.ndarray]]]:
    """Every environment shows what the first one shows; return what each shows."""
    shown = [aec_snapshot(env, every_seat) for env in envs]
    plain, arrays = shown[0]
    for other_plain, other_arrays in shown[1:]:
        assert other_plain == plain  # plain data (no arrays): == compares it all
        assert_same(arrays, other_arrays)
    return shown


def aec_step(
    envs: list[Any], shown: list[tuple[dict[str, Any], dict[str, np.ndarray]]], rng: np.random.Generator,
    step: int,
) -> None:
    """One step of every environment (``shown``: what each shows now) with the same
    action: drawn from ``rng`` by the mask on even steps, by each environment's own
    action space on odd ones."""
    plain, arrays = shown[0]
    _, term, trunc, _ = plain["last"]
    if term or trunc:
        actions: list[Any] = [None] * len(envs)
    elif step % 2:
        agent = plain["agent"]
        actions = [e.action_space(agent).sample(a["last action_mask"]) for e, (_, a) in zip(envs, shown)]
        assert all(a == actions[0] for a in actions), f"the copies' action spaces drew {actions}"
    else:
        actions = [int(rng.choice(np.flatnonzero(arrays["last action_mask"])))] * len(envs)
    for env, action in zip(envs, actions):
        env.step(action)


def play_in_lockstep(envs: list[Any], rng: np.random.Generator, checkpoints: tuple[int, ...]) -> int:
    """Step the environments to the end of the game, comparing them at every step (every
    seat's observation where copies are taken), and add copies of the first at each step
    of ``checkpoints``; return the steps."""
    step = 0
    while envs[0].agents:
        copying = step in checkpoints
        if copying:
            envs += copies(envs[0])
        aec_step(envs, assert_envs_agree(envs, every_seat=copying or step == 0), rng, step)
        step += 1
    assert_envs_agree(envs)
    assert all(not env.agents for env in envs)
    return step


def cases() -> Iterator[tuple[str, int]]:
    """Every game (and the toy) at every seat count."""
    for name in NAMES:
        for players in seat_counts(name):
            yield name, players


@pytest.mark.parametrize(("name", "players"), list(cases()))
def test_copies_play_on_identically(name: str, players: int) -> None:
    env = make_env(name, num_players=players, **SHORT.get(name, {}))
    envs = [env, *copies(env)]  # copies of an environment never reset
    for e in envs:
        e.reset(seed=players)
    rng = np.random.default_rng(players)
    steps = play_in_lockstep(envs, rng, CHECKPOINTS)
    reached = sum(k < steps for k in CHECKPOINTS)
    assert reached >= 3 and len(envs) == 3 + 2 * reached
    # copies of the finished game, then every one deals the same next game
    envs += copies(env)
    assert_envs_agree(envs)
    for e in envs:
        e.reset(seed=players + 100)
    play_in_lockstep(envs, rng, ())


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
