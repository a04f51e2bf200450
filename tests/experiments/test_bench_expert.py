"""The expert's cost benchmark: old and new expert timed on the same positions, profiled by job."""

from __future__ import annotations

from pathlib import Path

import pytest

from experiments import bench_expert, frozen


@pytest.mark.skipif(frozen.unavailable_reason() is not None,
                    reason=f"the old expert needs git history: {frozen.unavailable_reason()}")
def test_the_benchmark_times_both_experts_and_splits_their_time(tmp_path: Path) -> None:
    out = tmp_path / "cost.md"
    bench_expert.main(["--envs", "line_v0", "--games", "1", "--repeats", "1", "--max-moves", "6",
                       "--profile", "--out", str(out)])
    text = out.read_text()
    row = next(line for line in text.splitlines() if line.startswith("| line_v0 | 6 |"))
    old, new = (float(c) for c in row.split("|")[3:5])
    assert old > 0 and new > 0 and "x** |" in row
    for kind in ("old", "new"):  # every job's share and the rest add up to 100%
        prof = next(line for line in text.splitlines() if line.startswith(f"| line_v0 | {kind} |"))
        shares = [float(c.strip().rstrip("%")) for c in prof.split("|")[3:-2]]
        assert len(shares) == len(bench_expert.JOBS) + 1 and 95 <= sum(shares) <= 105
    assert "Command: `python -m experiments.bench_expert --envs line_v0" in text
