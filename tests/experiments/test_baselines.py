"""The RL baselines driver, end to end at a tiny budget (needs the `train` extra).

Line-it, one seed, two methods (PPO from scratch and cloning of the planner), a few
hundred PPO steps and a handful of evaluation games, all written under ``tmp_path``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

from experiments import baselines

ROOT = Path(__file__).resolve().parents[2]

EVAL_GAMES = 6
EXPERT_GAMES = 2


@pytest.mark.train
def test_baselines_driver_end_to_end(tmp_path: Path) -> None:
    out_dir, docs = tmp_path / "runs", tmp_path / "docs"
    argv = ["--env", "lineit_v0", "--seeds", "1", "--methods", "ppo", "bc",
            "--steps", "512", "--n-envs", "2", "--n-steps", "128", "--eval-every", "256",
            "--curve-games", "2", "--imitate-games", "4", "--imitate-epochs", "1",
            "--eval-games", str(EVAL_GAMES), "--expert-games", str(EXPERT_GAMES),
            "--levels", "random", "planner", "expert",
            "--out-dir", str(out_dir), "--docs", str(docs)]
    report = baselines.main(argv)

    md = (docs / "results" / "baselines" / "lineit_v0.md").read_text()
    table = md.split("## Per seed")[0]
    rows = [line for line in table.splitlines() if line.startswith("| `")]
    assert [r.split("|")[1].strip() for r in rows] == ["`ppo`", "`bc`"]
    assert "vs expert" in table and "python -m experiments.train" in md

    data = json.loads((docs / "results" / "baselines" / "lineit_v0.json").read_text())
    assert data == json.loads(json.dumps(report))
    assert set(data["methods"]) == {"ppo", "bc"}
    for method, summary in data["methods"].items():
        assert set(summary["levels"]) == {"random", "planner", "expert"}
        for level, d in summary["levels"].items():
            want = EXPERT_GAMES if level == "expert" else EVAL_GAMES
            assert d["games"] == want and d["games_per_seed"] == [want]
            assert 0.0 <= d["mean"] <= 1.0 and 0.0 <= d["pooled"] <= 1.0
            lo, hi = d["wilson95"]
            assert 0.0 <= lo <= d["pooled"] <= hi <= 1.0
        assert summary["ppo_steps"] == ([512] if method == "ppo" else [0])
        assert summary["teacher_games"] == ([0] if method == "ppo" else [4])
    for run in data["runs"]:
        assert Path(run["policy"]).exists()
        for res in run["results"].values():
            assert 0.0 <= res["score"] <= res["games"]

    assert (docs / "img" / "baselines_lineit_v0.png").stat().st_size > 0

    # --resume: nothing is trained or played again, the same numbers come back
    again = baselines.main([*argv, "--resume"])
    assert again["methods"] == report["methods"]


def test_wilson_interval() -> None:
    lo, hi = baselines.wilson(50 / 100, 100)
    assert lo == pytest.approx(0.4038, abs=1e-3) and hi == pytest.approx(0.5962, abs=1e-3)
    assert baselines.wilson(0.0, 0) == (0.0, 1.0)
    lo, hi = baselines.wilson(0 / 10, 10)
    assert lo == 0.0 and 0.2 < hi < 0.35
