"""The from-scratch policies shipped in agents/policies/scratch/ (docs/training/selfplay.md).

Each is a :class:`agents.players.feature_policy.FeaturePolicy` trained by experiments/selfplay.py
with no teacher and no search; it records the command and the training time, reads the
game's current feature layout, and plays whole games as ``policy:FILE`` with legal moves
only.  Its strength is measured in docs/training/selfplay.md (hundreds of games, too slow here);
this test only checks that it clearly beats random over a few seeded games.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import agents
import cardenvs
from agents.evaluation.tournament import points, run_matches, schedule
from agents.players.feature_policy import FeaturePolicy
from cardenvs.core.observers import features_module

SCRATCH = Path(agents.__file__).resolve().parent / "policies" / "scratch"


@pytest.mark.parametrize("env_name", list(cardenvs.ENVS))
def test_scratch_policy_is_shipped_and_plays(env_name: str) -> None:
    path = SCRATCH / f"{env_name}.npz"
    assert path.exists(), f"no from-scratch policy shipped for {env_name}"
    policy = FeaturePolicy.load(path)
    assert policy.env_name == env_name and policy.observation == "action_features"
    game = cardenvs.game_class(env_name)(2)
    assert policy.input_size == features_module(game).ACTION_FEATURES.size
    for key in ("command", "hours", "steps", "method"):
        assert policy.meta.get(key), key
    assert "experiments.selfplay" in str(policy.meta["command"])
    assert "no teacher" in str(policy.meta["method"])
    assert float(str(policy.meta["hours"])) <= 3.0
    me = f"policy:{path}"
    results = run_matches(schedule(env_name, [me, "random"], 2, 8, seed=7), progress=False)
    won = sum(points(r.rewards)[r.match.seats.index(me)] for r in results)
    assert won >= 6, f"{won} of 8 against random"
