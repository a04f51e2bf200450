"""The training examples in experiments/examples run end to end with a tiny budget.

Each trains for a few hundred steps against random opponents, evaluates against random,
and must never take an illegal action (the examples count them through
``SingleAgentEnv``'s ``illegal_action`` info).  Each test is skipped, with the reason,
where its library is not installed (``pip install 'cardenvs[examples]'``).
"""

from __future__ import annotations

import importlib
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
