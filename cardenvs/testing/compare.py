"""Comparing environments: what an AEC environment shows, as data, and lockstep play.

The helpers of the copy contract (:func:`cardenvs.testing.check_copy`), public so that
other tests (the Gymnasium ids, the vectorised environments) compare the same way.
"""

from __future__ import annotations

import copy
import pickle
from typing import Any

import numpy as np

#: what :func:`aec_snapshot` returns: plain data (compared with ``==``) and named arrays
Snapshot = tuple[dict[str, Any], dict[str, np.ndarray]]


def copies(env: Any) -> list[Any]:
    """A pickle round trip of ``env`` and a deep copy of it."""
    return [pickle.loads(pickle.dumps(env)), copy.deepcopy(env)]


def assert_same(a: Any, b: Any, path: str = "") -> None:
    """``a`` and ``b`` are equal, arrays by dtype, shape and value, containers entry by entry
    (``path`` names where, in the message)."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        assert isinstance(a, np.ndarray) and isinstance(b, np.ndarray), f"{path}: {type(a)} vs {type(b)}"
        assert a.dtype == b.dtype and a.shape == b.shape, f"{path}: {a.dtype}{a.shape} vs {b.dtype}{b.shape}"
        assert np.array_equal(a, b), f"{path}: the arrays differ"
    elif isinstance(a, dict):
        assert isinstance(b, dict) and a.keys() == b.keys(), f"{path}: keys {list(a)} vs {list(b)}"
        for key in a:
            assert_same(a[key], b[key], f"{path}[{key!r}]")
    elif isinstance(a, (list, tuple)):
        assert type(a) is type(b) and len(a) == len(b), f"{path}: {a!r} vs {b!r}"
        for i, (x, y) in enumerate(zip(a, b)):
            assert_same(x, y, f"{path}[{i}]")
    else:
        assert type(a) is type(b) and a == b, f"{path}: {a!r} != {b!r}"


def aec_snapshot(env: Any, every_seat: bool = False) -> Snapshot:
    """Everything an AEC environment shows, as plain data (the agents, the bookkeeping,
    the position, the agent to move and the rest of its ``last()``) and arrays (its
    observation and mask; with ``every_seat``, every agent's ``observe`` too)."""
    plain: dict[str, Any] = {
        "agents": list(env.agents),
        "rewards": dict(env.rewards),
        "terminations": dict(env.terminations),
        "truncations": dict(env.truncations),
        "infos": dict(env.infos),
        "cumulative": dict(env.unwrapped._cumulative_rewards),
        "state": env.unwrapped.state_json(),
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


def assert_envs_agree(envs: list[Any], every_seat: bool = False) -> list[Snapshot]:
    """Every environment shows what the first one shows; return what each shows."""
    shown = [aec_snapshot(env, every_seat) for env in envs]
    plain, arrays = shown[0]
    for k, (other_plain, other_arrays) in enumerate(shown[1:], 1):
        if other_plain != plain:  # plain data (no arrays): == compares it all
            keys = [
                key for key in plain.keys() | other_plain.keys() if plain.get(key) != other_plain.get(key)
            ]
            raise AssertionError(f"environment {k} differs from the first in {sorted(keys)}")
        assert_same(arrays, other_arrays, f"environment {k}")
    return shown


def aec_step(envs: list[Any], shown: list[Snapshot], rng: np.random.Generator, step: int) -> None:
    """One step of every environment (``shown``: what each shows now) with the same
    action: drawn from ``rng`` by the mask on even steps, by each environment's own
    action space on odd ones (so the spaces' generators must agree too)."""
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


def play_in_lockstep(
    envs: list[Any], rng: np.random.Generator, checkpoints: tuple[int, ...] = (), max_steps: int | None = None
) -> int:
    """Step the environments to the end of the game (or ``max_steps``), comparing them at
    every step (every seat's observation where copies are taken), and add copies of the
    first at each step of ``checkpoints``; return the steps."""
    step = 0
    while envs[0].agents and (max_steps is None or step < max_steps):
        copying = step in checkpoints
        if copying:
            envs += copies(envs[0])
        aec_step(envs, assert_envs_agree(envs, every_seat=copying or step == 0), rng, step)
        step += 1
    assert_envs_agree(envs)
    return step
