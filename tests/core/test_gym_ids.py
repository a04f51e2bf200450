"""Gymnasium ids: ``gymnasium.make("cardenvs/...")`` after ``import cardenvs``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import agents
import cardenvs

IDS = {"cardenvs/Line-v0": "line_v0", "cardenvs/LineIt-v0": "lineit_v0",
       "cardenvs/Rummy432-v0": "rummy432_v0"}


def _play(env: gymnasium.Env, seed: int) -> tuple[float, int]:
    """Play one episode with the first legal action; (return, steps)."""
    env.reset(seed=seed)
    total, steps, done = 0.0, 0, False
    while not done:
        mask = env.unwrapped.action_masks()  # type: ignore[attr-defined]
        _obs, r, term, trunc, _info = env.step(int(np.flatnonzero(mask)[0]))
        total += float(r)
        steps += 1
        done = term or trunc
    return total, steps


@pytest.mark.parametrize("gym_id", list(IDS))
def test_ids_make_single_agent_envs_that_pass_check_env_with_render(gym_id: str) -> None:
    env = gymnasium.make(gym_id, render_mode="rgb_array", num_players=2)
    assert env.spec is not None and env.spec.id == gym_id
    check_env(env.unwrapped, skip_render_check=False)
    env.reset(seed=0)
    frame = env.render()
    assert isinstance(frame, np.ndarray) and frame.ndim == 3 and frame.shape[2] == 3
    assert env.unwrapped.game.env_name == IDS[gym_id]  # type: ignore[attr-defined]
    _play(env, seed=1)


def test_opponents_levels_lists_and_game_options() -> None:
    env = gymnasium.make("cardenvs/Rummy432-v0", opponents=["planner", "random"], pack="three",
                         hand_size=9, seed=3)
    base = env.unwrapped
    assert base.game.num_players == 3 and base.game.options["pack"] == "three"  # type: ignore[attr-defined]
    assert [a.name for a in base.opponents] == ["planner", "random"]  # type: ignore[attr-defined]
    env = gymnasium.make("cardenvs/Line-v0", num_players=4, opponents="planner", joker_points=10)
    assert len(env.unwrapped.opponents) == 3  # type: ignore[attr-defined]
    assert _play(env, seed=2)[1] > 0


def test_default_opponents_and_seeded_episodes_repeat() -> None:
    a = gymnasium.make("cardenvs/LineIt-v0", seed=5)
    b = gymnasium.make("cardenvs/LineIt-v0", seed=5)
    assert [o.name for o in a.unwrapped.opponents] == [agents.learning.gym.DEFAULT_OPPONENTS]  # type: ignore[attr-defined]
    assert _play(a, seed=9) == _play(b, seed=9)


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"opponents": "grandmaster"}, "unknown level 'grandmaster'"),
    ({"opponents": ["greedy"], "num_players": 3}, "needs 2 opponents, got 1"),
    ({"num_players": 9}, "num_players must be 2..4"),
    ({"joker_points": -1}, "joker_points=-1 is not allowed"),
])
def test_bad_arguments_are_clear_errors(kwargs: dict[str, Any], match: str) -> None:
    with pytest.raises(ValueError, match=match):
        gymnasium.make("cardenvs/Line-v0", **kwargs)


def test_record_video_records_a_game(tmp_path: Path) -> None:
    pytest.importorskip("moviepy", reason="RecordVideo needs moviepy (pip install moviepy)")
    from gymnasium.wrappers import RecordVideo

    env = RecordVideo(gymnasium.make("cardenvs/Line-v0", render_mode="rgb_array"), str(tmp_path),
                      episode_trigger=lambda _ep: True, disable_logger=True)
    _play(env, seed=0)
    env.close()
    videos = list(tmp_path.glob("*.mp4"))
    assert len(videos) == 1 and videos[0].stat().st_size > 1000


def test_every_registered_game_has_its_id() -> None:
    for name, entry in cardenvs.GAMES.items():
        assert entry.gym_id in gymnasium.registry, name
