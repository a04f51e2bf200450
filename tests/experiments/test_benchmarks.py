"""experiments/reporting.side_by_side and experiments/bench_threads: the paired timing of two
variants, in alternating order, and the thread benchmark's table from a tiny run."""

from __future__ import annotations

import os

import pytest

from experiments import bench_threads
from experiments.reporting import side_by_side


def test_side_by_side_alternates_and_takes_medians() -> None:
    calls: list[bool] = []
    times = {False: iter([1.0, 2.0, 4.0]), True: iter([3.0, 2.0, 4.0])}

    def time_one(variant: bool) -> float:
        calls.append(variant)
        return next(times[variant])

    off, on, ratio = side_by_side(time_one, 3)
    assert calls == [False, True, True, False, False, True]  # the order flips every repeat
    assert (off, on, ratio) == (2.0, 3.0, 1.0)  # medians of 1,2,4 / 3,2,4 and of the ratios 3, 1, 1


def test_the_thread_benchmark_times_both_and_restores_its_variable(
        capsys: pytest.CaptureFixture[str]) -> None:
    before = os.environ.get(bench_threads.VARIABLE)
    rows = bench_threads.main(["--envs", "lineit_v0", "--games", "2", "--repeats", "1", "--workers", "1",
                               "--pair", "random:greedy"])
    (row,) = rows
    assert row["env"] == "lineit_v0" and row["workers"] == 1
    assert float(row["free"]) > 0 and float(row["one"]) > 0
    assert float(row["ratio"]) == pytest.approx(float(row["free"]) / float(row["one"]))
    assert "| lineit_v0 | 1 |" in capsys.readouterr().out
    assert os.environ.get(bench_threads.VARIABLE) == before
    with pytest.raises(SystemExit):
        bench_threads.main(["--pair", "greedy"])
