"""The self-play trainer end to end at a tiny budget: files, resume, the policy it exports.

Needs the `train` extra (torch).  Line-it and Rummy 4x3x2's, a few hundred decisions,
a handful of evaluation games, everything under ``tmp_path``.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")

from experiments import selfplay  # noqa: E402


def _rows(path: Path) -> list[dict[str, str]]:
    with open(path) as f:
        return list(csv.DictReader(f))


@pytest.mark.train
@pytest.mark.parametrize(("env", "observation", "extra"), [
    ("lineit_v0", "action_features", []),
    ("rummy432_v0", "planes", ["--round-reward", "0.3"]),
])
def test_train_evaluate_resume_export(env: str, observation: str, extra: list[str], tmp_path: Path) -> None:
    out = tmp_path / "run"
    argv = ["--env", env, "--observation", observation, "--steps", "256", "--n-envs", "4", "--n-steps", "32",
            "--minibatch", "64", "--epochs", "1", "--snapshot-every", "1", "--max-snapshots", "2",
            "--eval-every", "1000", "--eval-games", "2", "--final-games", "2", "--hidden", "16",
            "--pool", "random", "greedy:2", "--self-play", "0.5", "--out", str(out), "--no-progress", *extra]
    selfplay.main(argv)
    for name in ("args.json", "checkpoint.pt", "train.csv", "eval.csv", "learning_curve.png", "current.npz",
                 "best.npz", "final.npz", "final.json"):
        assert (out / name).exists(), name
    train = _rows(out / "train.csv")
    assert [int(r["steps"]) for r in train] == [128, 256]
    evals = _rows(out / "eval.csv")
    assert len(evals) == 2  # one at the first update, one at the end
    for r in evals:
        for level in ("greedy", "planner"):
            lo, share, hi = (float(r[f"vs_{level}{s}"]) for s in ("_lo", "", "_hi"))
            assert 0 <= lo <= share <= hi <= 1
    assert len(list((out / "snapshots").glob("*.npz"))) == 2
    final = json.loads((out / "final.json").read_text())
    assert set(final["results"]) == {"greedy", "planner"} and final["games_per_level"] == 2

    # resume: the counters go on from the checkpoint, the options from args.json
    selfplay.main(["--resume", str(out), "--steps", "512", "--no-progress"])
    train = _rows(out / "train.csv")
    assert [int(r["steps"]) for r in train] == [128, 256, 384, 512]
    assert json.loads((out / "args.json").read_text())["observation"] == observation

    import agents
    from agents.evaluation.tournament import Match, play_match
    from agents.players.feature_policy import FeaturePolicy

    pol = FeaturePolicy.load(out / "final.npz")
    assert pol.observation == observation and pol.meta["env"] == env
    assert "no teacher" in str(pol.meta["method"])
    res = play_match(Match(env, (f"policy:{out / 'final.npz'}", "random"), 3))
    assert sorted(res.rewards) in ([-1.0, 1.0], [0.0, 0.0])
    assert agents.make_agent(env, f"policy:{out / 'best.npz'}", seed=0) is not None


def test_pool_parsing_and_draws() -> None:
    assert selfplay.parse_pool(["greedy:2", "planner"]) == [("greedy", 2.0), ("planner", 1.0)]
    pool = selfplay.Pool("lineit_v0", [("greedy", 3.0), ("random", 1.0)], self_play=0.0, keep=2)
    rng = np.random.default_rng(0)
    labels = [pool.draw(rng)[1] for _ in range(400)]
    assert 0.65 < labels.count("greedy") / 400 < 0.85
    for name in ("a", "b", "c"):
        pool.add(name)
    assert pool.snapshots == ["b", "c"]


def test_snapshots_play_by_sampling_their_policy(tmp_path: Path) -> None:
    """Earlier selves are read once and sample their policy's softmax (legal moves only)."""
    import cardenvs
    from tests.core.test_observers import _random_policy

    path = tmp_path / "snap.npz"
    _random_policy("lineit_v0", "action_features").save(path)
    pool = selfplay.Pool("lineit_v0", [("greedy", 1.0)], self_play=1.0, keep=3)
    pool.add(str(path))
    rng = np.random.default_rng(0)
    agent, label = pool.draw(rng)
    assert label == "self" and isinstance(agent, selfplay.Snapshot)
    again = pool.draw(rng)[0]
    # one copy of the file in memory
    assert isinstance(again, selfplay.Snapshot) and again.policy is agent.policy
    g = cardenvs.game_class("lineit_v0")(2)
    state = g.new_state(rng)
    view, legal = g.view(state, g.current_player(state)), g.legal_actions(state)
    picks = {agent.choose(g, view, legal) for _ in range(200)}
    assert picks <= set(legal) and len(picks) > 1


@pytest.mark.train
def test_baselines_rows_driver(tmp_path: Path) -> None:
    from experiments import selfplay_baselines

    docs = tmp_path / "docs"
    rows = selfplay_baselines.main([
        "--env", "lineit_v0", "--seeds", "2", "--rows", "flat", "action_features", "--minutes", "0.01",
        "--eval-games", "2", "--curve-games", "2", "--out-dir", str(tmp_path / "runs"), "--docs", str(docs),
        "--trainer-args", "--n-envs 2 --n-steps 16 --minibatch 16 --epochs 1 --hidden 8"])
    assert list(rows) == ["flat", "action_features"]
    for row in rows.values():
        assert len(row["runs"]) == 2 and row["levels"]["greedy"]["games"] == 4
        lo, hi = row["levels"]["greedy"]["wilson95"]
        assert lo <= row["levels"]["greedy"]["pooled"] <= hi
    md = (docs / "results" / "baselines" / "selfplay_lineit_v0.md").read_text()
    assert md.count("python -m experiments.selfplay --env lineit_v0") == 4
    assert (docs / "img" / "selfplay_lineit_v0.png").exists()
    again = selfplay_baselines.main([  # --resume: nothing left to train, the same report
        "--env", "lineit_v0", "--seeds", "2", "--rows", "flat", "action_features", "--minutes", "0.01",
        "--eval-games", "2", "--curve-games", "2", "--out-dir", str(tmp_path / "runs"), "--docs", str(docs),
        "--trainer-args", "--n-envs 2 --n-steps 16 --minibatch 16 --epochs 1 --hidden 8", "--resume"])
    assert again["flat"]["levels"] == rows["flat"]["levels"]
    # --plot-runs draws finished runs' curves and trains nothing; a folder without eval.csv is refused
    png = tmp_path / "curves.png"
    run0 = tmp_path / "runs" / "lineit_v0" / "action_features_s0"
    assert selfplay_baselines.main(["--plot-runs", f"scorer={run0}", "--plot-out", str(png)]) == {}
    assert png.stat().st_size > 0
    with pytest.raises(SystemExit):
        selfplay_baselines.main(["--plot-runs", f"none={tmp_path}", "--plot-out", str(png)])
