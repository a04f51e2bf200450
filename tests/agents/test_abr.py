"""The approximate best response (agents.best_response): it learns to beat an exploitable
target, is reproducible for a step budget, scores on deals its training never saw, and
refuses bad arguments clearly."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import agents
from agents.players.base import Agent
from agents.players.feature_policy import FeaturePolicy

pytest.importorskip("torch")
pytestmark = pytest.mark.train

#: a small learner: a few PPO updates in a few seconds
SMALL = {"n_envs": 8, "n_steps": 64, "minutes": 10.0}


def test_it_learns_to_exploit_a_random_target(tmp_path: Path) -> None:
    out = tmp_path / "abr.npz"
    res = agents.best_response("random", "lineit_v0", steps=12_000, games=40, seed=1, progress=False,
                               control_variates=False, out=out, **SMALL)  # type: ignore[arg-type]
    # greedy scores ~98% against random in Line-it; an untrained scorer about half that
    assert res.interval[0] > 0.6, res
    assert res.exploitable and res.games == 40 and res.deals == 20
    assert 12_000 <= res.steps < 12_000 + 8 * 64 and res.train_minutes > 0
    assert 0.0 <= res.training_share <= 1.0
    assert res.policy == str(out) and FeaturePolicy.load(out).env_name == "lineit_v0"
    # the saved learner plays as a level: the same score on the same deals
    again = agents.evaluate(f"policy:{out}", "lineit_v0", against=["random"], games=40, seed=1,
                            control_variates=False, progress=False, verbose=False)
    assert again.scores["random"].share == pytest.approx(res.plain_share)


def test_a_step_budget_is_reproducible_and_the_scored_deals_are_fresh() -> None:
    kw = {"steps": 1024, "games": 8, "seed": 3, "progress": False, **SMALL}
    a = agents.best_response("greedy", "rummy432_v0", **kw)  # type: ignore[arg-type]
    b = agents.best_response("greedy", "rummy432_v0", **kw)  # type: ignore[arg-type]
    assert (a.share, a.plain_share, a.steps, a.training_share) == (b.share, b.plain_share, b.steps,
                                                                   b.training_share)
    assert a.method == "duplicate+control variates" and a.settings["round_reward"] == 0.3
    other = agents.best_response("greedy", "rummy432_v0", **{**kw, "seed": 4})  # type: ignore[arg-type]
    assert (other.share, other.training_share) != (a.share, a.training_share)


class Passer(Agent):
    """Always the first legal move: an agent object as the target."""

    name = "first"

    def choose(self, game: object, view: object, legal: list[int]) -> int:
        return legal[0]


def test_an_agent_object_is_a_target() -> None:
    res = agents.best_response(Passer(seed=0), "line_v0", steps=512, games=4, progress=False,
                               control_variates=False, **SMALL)  # type: ignore[arg-type]
    assert res.target == "first" and res.games == 4 and np.isfinite(res.share)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"minutes": 0}, "minutes must be a number > 0"),
    ({"minutes": "5"}, "minutes must be a number > 0"),
    ({"steps": -1}, "steps must be a whole number >= 0"),
    ({"games": 0}, "games must be a whole number >= 1"),
    ({"players": 7}, "players must be a whole number in 2..5 for lineit_v0"),
    ({"n_envs": 0}, "n_envs must be a whole number >= 1"),
])
def test_bad_arguments_are_refused_with_clear_messages(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        agents.best_response("random", "lineit_v0", **kwargs)  # type: ignore[arg-type]


def test_a_bad_target_is_refused_before_training() -> None:
    with pytest.raises(ValueError, match="target 'nobody'"):
        agents.best_response("nobody", "lineit_v0", steps=1)
    with pytest.raises(TypeError, match="target must be a level name or an agents.Agent"):
        agents.best_response(3, "lineit_v0", steps=1)  # type: ignore[arg-type]
