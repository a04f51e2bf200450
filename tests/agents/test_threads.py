"""agents.evaluation.threads: the evaluation games run with one BLAS thread a process (in
this process, restoring the caller's limit after, and in the worker processes), and
``CARDENVS_BLAS_THREADS`` overrides or lifts the limit, refusing a bad value up front."""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np
import pytest
from threadpoolctl import threadpool_info, threadpool_limits

from agents.evaluation import threads
from agents.evaluation.tournament import Match, _install_entrants, run_matches


def blas_threads() -> list[int]:
    """The thread count of every BLAS library loaded in this process."""
    return [int(p["num_threads"]) for p in threadpool_info() if p["user_api"] == "blas"]


def _first_legal_recording(seen: list[list[int]]) -> Any:
    def player(obs: dict[str, Any]) -> int:
        seen.append(blas_threads())
        return int(np.flatnonzero(obs["action_mask"])[0])
    player.name = "recorder"  # type: ignore[attr-defined]
    return player


def test_games_in_this_process_run_on_one_blas_thread_and_the_limit_is_restored(monkeypatch: Any) -> None:
    monkeypatch.delenv(threads.VARIABLE, raising=False)
    if not blas_threads():
        pytest.skip("no BLAS library loaded")
    seen: list[list[int]] = []
    with threadpool_limits(limits=2, user_api="blas"):  # the caller's own setting
        run_matches([Match("lineit_v0", ("recorder", "random"), 0)], progress=False,
                    entrants={"recorder": _first_legal_recording(seen)})
        after = blas_threads()
    assert seen and all(t == [1] * len(t) for t in seen)
    assert after == [2] * len(after)  # restored
    # a BLAS loaded after a first evaluation (scipy brings its own) is limited in the next one
    pytest.importorskip("scipy.linalg")
    seen.clear()
    with threadpool_limits(limits=2, user_api="blas"):
        run_matches([Match("lineit_v0", ("recorder", "random"), 0)], progress=False,
                    entrants={"recorder": _first_legal_recording(seen)})
    assert seen and all(t == [1] * len(t) for t in seen)


def test_a_worker_process_runs_on_one_blas_thread(monkeypatch: Any) -> None:
    monkeypatch.delenv(threads.VARIABLE, raising=False)
    with (threadpool_limits(limits=2, user_api="blas"),  # inherited by the forked worker
          ProcessPoolExecutor(1, initializer=_install_entrants, initargs=(None,)) as pool):
        inside = pool.submit(blas_threads).result()
    if not inside:
        pytest.skip("no BLAS library loaded")
    assert inside == [1] * len(inside)


def test_the_variable_sets_or_lifts_the_limit_and_a_bad_value_is_refused(monkeypatch: Any) -> None:
    monkeypatch.setenv(threads.VARIABLE, "3")
    assert threads.blas_limit() == 3
    monkeypatch.setenv(threads.VARIABLE, "none")
    assert threads.blas_limit() is None
    with threadpool_limits(limits=2, user_api="blas"), threads.one_blas_thread():
        assert blas_threads() == [2] * len(blas_threads())  # left as the caller set it
    for bad in ("0", "two", "-1", ""):
        monkeypatch.setenv(threads.VARIABLE, bad)
        with pytest.raises(ValueError, match="CARDENVS_BLAS_THREADS"):
            run_matches([Match("lineit_v0", ("random", "random"), 0)], workers=2, progress=False)


def test_the_tables_worker_processes_run_on_one_blas_thread(monkeypatch: Any) -> None:
    from cardtable.workers import _init_worker

    monkeypatch.delenv(threads.VARIABLE, raising=False)
    with (threadpool_limits(limits=2, user_api="blas"),
          ProcessPoolExecutor(1, initializer=_init_worker) as pool):
        inside = pool.submit(blas_threads).result()
    if not inside:
        pytest.skip("no BLAS library loaded")
    assert inside == [1] * len(inside)
