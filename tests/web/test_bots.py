"""Computer players off the event loop: an agent's memory across moves survives a fresh
worker (restart, level change, a person leaving), and an expert thinking in one room does
not hold up a person's move in another."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import numpy as np
import pytest

from cardtable import workers
from cardtable.catalog import make_game, options_key

from .harness import Client, create_room, live_server


def _jobs(env: str, level: str, seed: int, moves: int) -> tuple[list[workers.Job], list[int]]:
    """Seat 0's decisions in a 2-player game where seat 1 plays randomly, and what one
    worker that saw them all chose."""
    game = make_game(env, 2, options_key({}))
    rng = np.random.default_rng(seed)
    state = game.new_state(rng)
    other = np.random.default_rng(seed + 1)
    ids: list[int] = []
    jobs = []
    chosen = []
    last = -1
    while not game.is_terminal(state) and len(ids) < moves:
        legal = list(game.legal_actions(state))
        seat = game.current_player(state)
        if seat == 0:
            job = workers.Job("move", "r", 0, env, 2, options_key({}), 0, level, seed, len(ids), last,
                              game.view(state, 0), legal, list(ids))
            jobs.append(job)
            a = cast(int, workers.run_job(job))  # a move job's answer
            chosen.append(a)
            last = len(ids)
        else:
            a = legal[int(other.integers(len(legal)))]
        ids.append(a)
        game.apply(state, a, rng)
    return jobs, chosen


def test_agent_memory_is_rebuilt_from_the_seats_own_views(monkeypatch: pytest.MonkeyPatch) -> None:
    # Rummy's expert deals its search worlds by what its seat saw the opponent do (2
    # players); a worker that never saw the earlier decisions (a restart, a level change)
    # rebuilds that memory from the seat's own Views and chooses exactly as the one that did
    workers._cache.clear()
    jobs, continuous = _jobs("rummy432_v0", "expert", 7, 70)
    assert len(jobs) > 20
    fresh = []
    for j in jobs:
        workers._cache.clear()  # a new worker every time: memory only from the replay
        fresh.append(workers.run_job(j))
    assert fresh == continuous
    # the memory itself (what the seat saw its opponent pass and throw) is the same
    def memory() -> dict[str, object]:
        (entry,) = workers._cache.values()
        return dict(cast(Any, entry.engine).memories.of(0).facts())

    seen = memory()  # after the replay for the last job
    workers._cache.clear()
    for j in jobs:
        workers.run_job(j)
    assert memory() == seen and (seen["passed"] or seen["threw"])
    # and the memory matters: without it, the same worker would have chosen otherwise
    monkeypatch.setattr(workers, "_warm", lambda job, engine: None)
    forgetful = []
    for j in jobs:
        workers._cache.clear()
        forgetful.append(workers.run_job(j))
    assert forgetful != continuous


def _table_after(step: int) -> Callable[[dict[str, Any]], bool]:
    """Whether a message is the table after move ``step``."""
    return lambda m: m["type"] == "table" and m["step"] == step + 1


def test_an_expert_thinking_does_not_block_another_rooms_person(tmp_path: Path) -> None:
    with live_server(tmp_path, workers=1) as srv:
        srv.core.pool.warm_up()
        # a room of experts, thinking all the time (each decision takes tens of ms)
        busy = create_room(srv, "line_v0", 4, level="expert")
        host = Client(srv, busy["room"], host_token=busy["host_token"])
        host.send({"type": "start"})
        host.until(lambda m: m["type"] == "table" and m["step"] >= 2, timeout=30)
        # a person in another room plays against random computers
        info = create_room(srv, "rummy432_v0", 2, level="random", rounds_to_win=5)
        ann = Client(srv, info["room"], host_token=info["host_token"])
        ann.sit(0, "Ann")
        ann.send({"type": "start"})
        times: list[float] = []
        experts_before = srv.core.rooms[busy["room"]].play.step
        t = ann.until(lambda m: m["type"] == "table" and bool(m["moves"]))
        began = time.perf_counter()
        while (len(times) < 10 or time.perf_counter() - began < 1.5) and t["result"] is None:
            sent = time.perf_counter()
            ann.send({"type": "move", "id": t["moves"][0]["id"], "step": t["step"]})
            t = ann.until(_table_after(int(t["step"])))
            times.append(time.perf_counter() - sent)
            if not t["moves"] and t["result"] is None:
                t = ann.until(lambda m: m["type"] == "table" and (m["moves"] or m["result"]) is not None)
        assert srv.core.rooms[busy["room"]].play.step > experts_before, "the experts kept playing meanwhile"
        assert len(times) >= 5
        # one expert decision takes ~100 ms here; answers came much faster. One slow answer
        # is allowed: on 2 cores shared with another test worker a single 0.51 s stall was
        # seen once in CI (median 0.9 ms); being blocked behind the experts shows in every answer
        assert statistics.median(times) < 0.05 and sorted(times)[-2] < 0.5, times
