"""experiments/best_response.py --method lbr: the page of a tiny run, a model standing in
for a target in the rollouts, and the usage errors of --model-for."""

from __future__ import annotations

from pathlib import Path

import pytest

from experiments import best_response, leaderboard


def test_the_lbr_page_names_the_rollouts_target(tmp_path: Path) -> None:
    out = tmp_path / "lbr.md"
    rows = best_response.main(["--envs", "lineit_v0", "--targets", "random", "greedy", "--games", "2",
                               "--worlds", "2", "--max-candidates", "2", "--depth", "6",
                               "--model-for", "greedy=random", "--out", str(out)])
    assert [(r.target, r.model) for r in rows] == [("random", ""), ("greedy", "random")]
    assert rows[1].result is not None and rows[1].result.settings["model"] == "random"
    text = out.read_text()
    assert "| random | itself | 2 |" in text and "| greedy | random | 2 |" in text
    bounds = leaderboard.read_bounds(out)["lineit_v0"]  # the leaderboard reads it back by target
    assert set(bounds) == {"random", "greedy"} and bounds["greedy"].endswith("]")


@pytest.mark.parametrize("argv", [["--model-for", "expert"], ["--model-for", "=planner"],
                                  ["--method", "abr", "--model-for", "expert=planner"]])
def test_bad_model_for_is_a_usage_error(argv: list[str]) -> None:
    with pytest.raises(SystemExit):
        best_response.main(argv)
