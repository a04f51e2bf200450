"""``render_mode="rgb_array"``: every game draws its table as an RGB picture."""

from __future__ import annotations

import numpy as np
import pytest

import cardenvs
from cardenvs.core.picture import Picture, Pile, draw_picture

ENV_NAMES = ["line_v0", "rummy432_v0", "lineit_v0"]


def _play(env: object, steps: int, seed: int = 3) -> None:
    """A few random legal moves (stopping at the end of the game)."""
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        agent = env.agent_selection  # type: ignore[attr-defined]
        if env.terminations[agent] or env.truncations[agent]:  # type: ignore[attr-defined]
            return
        mask = env.observe(agent)["action_mask"]  # type: ignore[attr-defined]
        env.step(int(rng.choice(np.flatnonzero(mask))))  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", ENV_NAMES)
def test_rgb_array_render(name: str) -> None:
    assert "rgb_array" in cardenvs.env_module(name).raw_env.metadata["render_modes"]
    env = cardenvs.make(name, render_mode="rgb_array")
    env.reset(seed=3)
    first = env.render()
    assert isinstance(first, np.ndarray) and first.dtype == np.uint8
    assert first.ndim == 3 and first.shape[2] == 3 and first.shape[1] == 960
    assert 200 < first.shape[0] < 1200
    _play(env, 8)
    later = env.render()
    assert later.shape == first.shape  # one frame shape for the whole game
    assert not np.array_equal(later, first)  # the picture follows the position


@pytest.mark.parametrize("name", ENV_NAMES)
def test_viewer_picture(name: str) -> None:
    everyone = cardenvs.make(name, render_mode="rgb_array")
    seat0 = cardenvs.make(name, render_mode="rgb_array", render_viewer=0)
    for env in (everyone, seat0):
        env.reset(seed=3)
        _play(env, 6)
    a, b = everyone.render(), seat0.render()
    assert a.shape == b.shape
    assert not np.array_equal(a, b)
    game, state = seat0.unwrapped.game, seat0.unwrapped.state
    backs = {v: sum(p.backs for band in game.picture(state, v).bands for p in band if not p.stack)
             for v in (None, 0)}
    if name == "lineit_v0":  # everything but the deck is public
        assert backs[0] == backs[None] == 0
    else:  # the other hands are face down for seat 0, face up for everyone
        assert backs[None] == 0 and backs[0] > 0


def test_draw_picture_squeezes_long_piles_and_keeps_height() -> None:
    short = Picture("t", [[Pile("a", ["7s", "X", "57", "B4"])], [Pile("b", backs=3), Pile("", [])]],
                  footer="f")
    long = Picture("t", [[Pile("a", [str(i) for i in range(1, 90)])], [Pile("b", backs=40, stack=True)]],
                 footer="f")
    assert draw_picture(short).shape == draw_picture(long).shape


def test_the_old_picture_names_still_work_with_a_warning() -> None:
    import cardenvs.core.picture as picture
    with pytest.warns(DeprecationWarning, match="Picture"):
        assert picture.Table is Picture
    with pytest.warns(DeprecationWarning, match="draw_picture"):
        assert picture.draw_table is draw_picture
    with pytest.raises(AttributeError):
        picture.Nothing  # noqa: B018
