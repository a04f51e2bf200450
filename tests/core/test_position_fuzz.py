"""Every position an environment accepts round-trips after any play.

Real positions (seeded random play, varied seat counts and options) are mutated at
random: keys dropped (optional ones too), counters moved, cards moved between piles,
values swapped for others of the same position.  Most mutants are refused; each one the
environment *accepts* is played on with random legal moves, and after every move the
env's own ``state_json()`` must load again (``from_json``) into the same position, in a
fresh environment too.  A refused mutant must leave the environment as it was.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cardenvs
from cardenvs.core.game import InvalidStateError

#: tables to start from: (env, num_players, options)
TABLES: dict[str, list[tuple[int, dict[str, Any]]]] = {
    "line_v0": [(2, {}), (3, {"joker_points": 0}), (4, {})],
    "lineit_v0": [(2, {}), (3, {}), (5, {})],
    "rummy432_v0": [
        (2, {"max_turns_per_round": 12}),
        (3, {"pack": "three", "hand_size": 9, "run_out_limit": None, "max_turns_per_round": 30}),
        (2, {"pack": "four", "hand_size": 8, "run_out_limit": 5, "rounds_to_win": 1,
             "max_turns_per_round": 7}),
        (4, {"run_out_limit": 2, "rounds_to_win": 2, "max_turns_per_round": 40}),
    ],
}
PREFIX = {"line_v0": 60, "lineit_v0": 150, "rummy432_v0": 400}


def _random_moves(env: Any, rng: np.random.Generator, moves: int) -> int:
    made = 0
    for _ in range(moves):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            break
        legal = np.flatnonzero(env.observe(agent)["action_mask"])
        env.step(int(rng.choice(legal)))
        made += 1
    return made


def _nodes(obj: Any, path: tuple = ()) -> list[tuple]:
    """Paths of every container and leaf of a JSON document."""
    out = [path]
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += _nodes(v, (*path, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out += _nodes(v, (*path, i))
    return out


def _get(obj: Any, path: tuple) -> Any:
    for k in path:
        obj = obj[k]
    return obj


def _strings(obj: Any) -> list[str]:
    return sorted({_get(obj, p) for p in _nodes(obj) if p and isinstance(_get(obj, p), str)})


def mutate(doc: dict[str, Any], rng: np.random.Generator) -> dict[str, Any]:
    """One random edit of a position: swap two leaves (cards between hands and piles,
    counters), nudge a number, drop a key, flip a flag or null, or edit a list."""
    doc = copy.deepcopy(doc)
    paths = [p for p in _nodes(doc) if p and p[0] != "game"]
    leaves = [p for p in paths if not isinstance(_get(doc, p), (dict, list))]
    kind = int(rng.integers(5))
    if kind == 0 and len(leaves) > 1:  # exchange two leaves: keeps every card once
        a, b = (leaves[i] for i in rng.choice(len(leaves), 2, replace=False))
        pa, pb = _get(doc, a[:-1]), _get(doc, b[:-1])
        pa[a[-1]], pb[b[-1]] = pb[b[-1]], pa[a[-1]]
        return doc
    path = paths[rng.integers(len(paths))]
    parent, key = _get(doc, path[:-1]), path[-1]
    value = parent[key]
    if kind == 1 and isinstance(parent, dict):
        del parent[key]
    elif isinstance(value, bool):
        parent[key] = not value
    elif isinstance(value, int):
        parent[key] = int(rng.choice([value + 1, value - 1, 0, value + int(rng.integers(2, 12)),
                                      int(rng.integers(0, 60))]))
    elif value is None:
        parent[key] = int(rng.integers(0, 6))
    elif isinstance(value, str):
        pool = _strings(doc)
        parent[key] = pool[rng.integers(len(pool))]
    elif isinstance(value, list) and value:
        i = int(rng.integers(len(value)))
        move = int(rng.integers(3))
        if move == 0:
            del value[i]
        elif move == 1:
            j = int(rng.integers(len(value)))
            value[i], value[j] = value[j], value[i]
        else:  # move an element to another list of the document
            lists = [p for p in _nodes(doc) if isinstance(_get(doc, p), list)]
            target = _get(doc, lists[rng.integers(len(lists))])
            if target is not value:
                target.insert(int(rng.integers(len(target) + 1)), value.pop(i))
    elif isinstance(value, dict) and value:
        del value[sorted(value)[rng.integers(len(value))]]
    return doc


def _round_trips(env: Any, fresh: Any) -> None:
    pos = env.unwrapped.state_json()
    game = env.unwrapped.game
    again = game.from_json(json.dumps(pos))  # refused here is the defect this test is for
    assert game.to_json(again) == pos
    fresh.reset(options={"state": pos})
    assert fresh.unwrapped.state_json() == pos


def _accepted_then_played(env_name: str, n: int, options: dict[str, Any], env: Any, doc: dict[str, Any],
                          rng: np.random.Generator, moves: int) -> bool:
    """Load ``doc``; if accepted, play ``moves`` random moves, round-tripping after each."""
    before = env.unwrapped.state_json()
    try:
        env.reset(options={"state": doc})
    except InvalidStateError:
        assert env.unwrapped.state_json() == before  # a refused position changes nothing
        return False
    fresh = cardenvs.make(env_name, num_players=n, **options)
    _round_trips(env, fresh)
    for _ in range(moves):
        if _random_moves(env, rng, 1) == 0:
            break
        _round_trips(env, fresh)
    return True


@pytest.mark.parametrize("env_name", list(TABLES))
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), edits=st.integers(0, 3))
def test_every_accepted_position_round_trips_after_play(env_name: str, seed: int, edits: int) -> None:
    rng = np.random.default_rng(seed)
    n, options = TABLES[env_name][rng.integers(len(TABLES[env_name]))]
    env = cardenvs.make(env_name, num_players=n, **options)
    env.reset(seed=int(rng.integers(2**31)))
    _random_moves(env, rng, int(rng.integers(0, PREFIX[env_name])))
    doc = env.unwrapped.state_json()
    for _ in range(edits):
        doc = mutate(doc, rng)
    _accepted_then_played(env_name, n, options, env, doc, rng, PREFIX[env_name])
    # the same position without each of its keys in turn: the optional ones load (with
    # their defaults), and must round-trip after play like any other
    for key in sorted(doc):
        if key != "game":
            lean = {k: v for k, v in doc.items() if k != key}
            _accepted_then_played(env_name, n, options, env, lean, rng, 30)


def test_rummy_position_without_turn_but_with_run_outs_round_trips() -> None:
    """The reported case: no ``turn`` key, run-outs already counted; after play the env's
    own position used to be refused ("'run_outs' is 2 but only 1 turns were completed")."""
    env = cardenvs.make("rummy432_v0", num_players=2, run_out_limit=5)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    while env.unwrapped.state_json()["run_outs"] < 2:
        assert _random_moves(env, rng, 1) == 1
    pos = env.unwrapped.state_json()
    del pos["turn"]
    env.reset(options={"state": pos})
    assert env.unwrapped.state_json()["turn"] == pos["run_outs"]  # the fewest turns the run-outs took
    fresh = cardenvs.make("rummy432_v0", num_players=2, run_out_limit=5)
    for _ in range(6):
        _random_moves(env, rng, 1)
        _round_trips(env, fresh)


def test_rummy_absent_turn_is_bounded_like_a_given_one() -> None:
    """Without ``turn``, run-outs that need more turns than the cap allows are refused."""
    env = cardenvs.make("rummy432_v0", num_players=2, run_out_limit=5, max_turns_per_round=3)
    env.reset(seed=0)
    pos = env.unwrapped.state_json()
    del pos["turn"]
    pos["run_outs"] = 3
    with pytest.raises(InvalidStateError, match="'run_outs' is 3, but each run-out ends a turn"):
        env.reset(options={"state": pos})
    pos["run_outs"] = 2
    env.reset(options={"state": pos})
    assert env.unwrapped.state_json()["turn"] == 2
