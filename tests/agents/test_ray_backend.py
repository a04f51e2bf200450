"""The Ray backend of the match runners (``backend="ray"``, :mod:`agents.evaluation.ray_backend`):
the same results as the local backend, game for game, on a local Ray of two CPUs.

The tests that need Ray share one module-scoped local Ray and are skipped where the
optional ``ray`` package (``pip install 'cardenvs[rllib]'``) is not installed; the
argument checks run everywhere.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import agents
import cardenvs
from agents.evaluation import ray_backend
from agents.evaluation.evaluator import main
from agents.evaluation.tournament import MatchResult, entrant_labels, run_matches, schedule, tournament
from agents.players.base import Agent


@pytest.fixture(scope="module")
def ray() -> Iterator[Any]:
    """One local Ray of two CPUs for the module (started as the backend starts it)."""
    ray = pytest.importorskip("ray", reason="the Ray backend needs Ray (pip install 'cardenvs[rllib]'), "
                                            "not installed")
    if ray.is_initialized():
        ray.shutdown()
    ray_backend.connect(num_cpus=2)
    yield ray
    ray.shutdown()


def make_entrants() -> list[Any]:
    """A seeded Agent subclass and a plain function, made here so that cloudpickle ships
    them by value (the workers need not import this test module)."""

    class Jittery(Agent):
        """A random legal move from its own generator: the same game only when reseeded
        alike wherever it plays."""

        def choose(self, game: Any, view: Any, legal: list[int]) -> int:
            return int(self.rng.choice(legal))

    def last_legal(obs: dict[str, np.ndarray]) -> int:
        return int(np.flatnonzero(obs["action_mask"])[-1])

    return [Jittery(seed=123, name="jittery"), last_legal]


def outcome(results: list[MatchResult]) -> list[tuple[Any, ...]]:
    return [(r.match, r.rewards, r.steps, r.truncated, r.corrections) for r in results]


@pytest.mark.parametrize("env_name", list(cardenvs.ENVS))
def test_ray_plays_the_local_backends_games(ray: Any, env_name: str) -> None:
    labels, objects = entrant_labels(["random", "greedy", *make_entrants()])
    matches = schedule(env_name, labels, players=2, games=2, seed=7)  # 6 pairs x 2 games
    # every other match also measures the luck of the cards (its corrections must agree too),
    # every third couples the draws
    matches = [dataclasses.replace(m, control_variates=i % 2 == 1, coupled_draws=i % 3 == 0)
               for i, m in enumerate(matches)]
    assert len(matches) == 12
    local = run_matches(matches, progress=False, entrants=objects)
    remote = run_matches(matches, progress=False, entrants=objects, backend="ray")
    assert outcome(remote) == outcome(local)
    assert [r.match for r in remote] == matches  # in the order of the matches
    assert any(r.corrections is not None and any(c != 0 for c in r.corrections) for r in remote)
    # another deal plays other games: the comparison can fail
    other = [dataclasses.replace(m, seed=m.seed + 100) for m in matches]
    assert outcome(run_matches(other, progress=False, entrants=objects, backend="ray")) != outcome(local)


def test_evaluate_on_ray_equals_local(ray: Any, capsys: pytest.CaptureFixture[str]) -> None:
    jittery, _ = make_entrants()
    kw: dict[str, Any] = dict(against=["random", "greedy"], games=8, progress=False, verbose=False)
    local = agents.evaluate(jittery, "lineit_v0", **kw)
    remote = agents.evaluate(jittery, "lineit_v0", backend="ray", **kw)
    assert list(remote.scores) == ["random", "greedy"]
    for level, s in local.scores.items():
        r = remote.scores[level]
        assert (r.share, r.interval, r.plain_share, r.plain_interval) == (s.share, s.interval, s.plain_share,
                                                                          s.plain_interval)
        assert (r.wins, r.shared, r.losses, r.games) == (s.wins, s.shared, s.losses, s.games)
    assert remote.rating == local.rating
    rep = tournament("line_v0", ["random", "greedy"], games=4, progress=False, backend="ray")
    assert rep.overall == tournament("line_v0", ["random", "greedy"], games=4, progress=False).overall


def test_the_command_line_runs_on_ray(ray: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["random", "--env", "line_v0", "--against", "greedy", "--games", "4", "--no-progress"]
    assert main([*args, "--backend", "ray", "--json", str(tmp_path / "ray.json")]) == 0
    assert "| greedy | 4 |" in capsys.readouterr().out
    assert main([*args, "--json", str(tmp_path / "local.json")]) == 0
    remote, local = (json.loads((tmp_path / f"{n}.json").read_text()) for n in ("ray", "local"))
    assert remote["scores"] == local["scores"]


def parse(*argv: str) -> tuple[str, str | None]:
    ap = argparse.ArgumentParser()
    ray_backend.add_backend_arguments(ap)
    return ray_backend.backend_of(ap, ap.parse_args(argv))


def test_backend_options() -> None:
    assert parse() == ("local", None)
    assert parse("--backend", "ray") == ("ray", None)
    assert parse("--ray-address", "auto") == ("ray", "auto")  # an address alone means Ray
    with pytest.raises(SystemExit):
        parse("--backend", "local", "--ray-address", "auto")
    with pytest.raises(SystemExit):
        parse("--backend", "dask")


def test_a_bad_backend_is_refused_before_any_game() -> None:
    matches = schedule("line_v0", ["random", "greedy"], players=2, games=2)
    with pytest.raises(ValueError, match="'local', 'ray'.*'dask'"):
        run_matches(matches, backend="dask")
    with pytest.raises(ValueError, match="ray_address='auto' is for backend='ray'"):
        run_matches(matches, ray_address="auto")
    with pytest.raises(ValueError, match="backend must be one of 'local', 'ray'"):
        agents.evaluate("random", "line_v0", against=["greedy"], games=2, backend="Ray", verbose=False)
    with pytest.raises(ValueError, match="backend must be one of"):
        tournament("line_v0", ["random", "greedy"], games=2, backend="processes")


def test_ray_missing_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` raises ImportError
    matches = schedule("line_v0", ["random", "greedy"], players=2, games=2)
    with pytest.raises(ImportError, match=r"pip install 'cardenvs\[rllib\]'"):
        run_matches(matches, progress=False, backend="ray")
    with pytest.raises(SystemExit):  # the command line says it as a usage error
        main(["random", "--env", "line_v0", "--against", "greedy", "--games", "2", "--backend", "ray"])


def test_chunks_are_small_next_to_the_cluster() -> None:
    assert ray_backend.chunk_size(12, 2) == 1
    assert ray_backend.chunk_size(400, 2) == 25  # eight tasks a CPU
    assert ray_backend.chunk_size(1600, 2) == 64
    assert ray_backend.chunk_size(100_000, 64) == 64
    assert ray_backend.chunk_size(5, 0) == 1


def test_the_leaderboard_and_the_best_responses_on_ray_equal_the_local_backend(ray: Any,
                                                                               tmp_path: Path) -> None:
    from experiments import leaderboard

    def pairs(backend: list[str]) -> list[dict[str, Any]]:
        out = tmp_path / f"{len(backend)}.json"
        store = leaderboard.main(["--envs", "rummy432_v0", "--players", "2", "--entrants", "random", "greedy",
                                  "planner", "--deals", "3", "--results", str(out), "--out",
                                  str(tmp_path / "lb.md"), *backend])
        table = store["tables"]["rummy432_v0/2"]
        return [{k: v for k, v in p.items() if k != "seconds"} for p in table["pairs"]]

    assert pairs(["--backend", "ray"]) == pairs([])
    kw: dict[str, Any] = {"games": 4, "worlds": 2, "max_candidates": 2, "depth": 10}
    local = agents.local_best_response("greedy", "lineit_v0", **kw)
    remote = agents.local_best_response("greedy", "lineit_v0", backend="ray", **kw)
    assert (remote.share, remote.plain_share, remote.games) == (local.share, local.plain_share, local.games)
