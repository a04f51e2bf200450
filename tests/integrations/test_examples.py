"""The training examples in experiments/examples run end to end with a tiny budget.

Each trains for a few hundred steps against random opponents, evaluates against random,
and must never take an illegal action (the examples count them through
``SingleAgentEnv``'s ``illegal_action`` info).  Each test is skipped, with the reason,
where its library is not installed (``pip install 'cardenvs[examples]'``).
"""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

import cardenvs


def _load(name: str) -> ModuleType:
    return importlib.import_module(f"experiments.examples.{name}")


def _check(result: dict[str, float], games: int, out: str) -> None:
    assert result["illegal"] == 0, out
    assert result["train_steps"] >= 200
    assert result["games"] == games
    assert 0.0 <= result["win_rate"] <= 1.0
    assert "win rate against random" in out


def test_tianshou_masked_dqn(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("tianshou", reason="needs Tianshou (pip install 'cardenvs[examples]'), not installed")
    example = _load("tianshou_masked_dqn")
    result = example.main(["--steps", "300", "--eval-games", "4", "--hidden", "32"])
    _check(result, 4, capsys.readouterr().out)


def test_torchrl_masked_ppo(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("torchrl", reason="needs TorchRL (pip install 'cardenvs[examples]'), not installed")
    example = _load("torchrl_masked_ppo")
    result = example.main(["--steps", "300", "--rollout", "150", "--eval-games", "4", "--hidden", "32"])
    _check(result, 4, capsys.readouterr().out)


def test_torchrl_action_mask_transform_keeps_random_actions_legal() -> None:
    """The example's ``ActionMask`` transform: TorchRL's random actions follow the game's mask."""
    pytest.importorskip("torchrl", reason="needs TorchRL (pip install 'cardenvs[examples]'), not installed")
    example = _load("torchrl_masked_ppo")
    tally = example.Tally()
    size = cardenvs.game_class("lineit_v0")(2).observation_size()
    env = example.make_env("lineit_v0", 2, 0, tally, np.ones(size, np.float32))
    data = env.rollout(200, break_when_any_done=False)  # no policy: random actions from the masked spec
    assert data.shape == (200,) and tally.returns  # whole games were played
    assert tally.illegal == 0


@pytest.mark.train
def test_beat_greedy_recipe_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """docs/training/recipe.md's script, at a tiny budget: it trains, exports a policy that plays as
    ``policy:FILE``, and measures it against greedy and the planner."""
    pytest.importorskip("sb3_contrib", reason="needs the train extra (pip install 'cardenvs[train]')")
    import agents

    example = _load("beat_greedy_sb3")
    out = tmp_path / "my_policy.npz"
    result = example.main(["--steps", "256", "--n-envs", "2", "--n-steps", "64", "--batch-size", "64",
                           "--hidden", "8", "--eval-games", "4", "--out", str(out)])
    text = capsys.readouterr().out
    assert result["steps"] >= 256 and out.exists()
    for level in ("greedy", "planner"):
        share, lo, hi = result[level]
        assert 0 <= lo <= share <= hi <= 1 and f"against {level}:" in text
    assert agents.make_agent("lineit_v0", f"policy:{out}", seed=0).env_name == "lineit_v0"
