"""The PettingZoo face of Line: what is particular to it (JSON reset, rendering, the View).

PettingZoo's API and seed tests, the docstring tables, copying and the other checks every
game keeps run in ``tests/core/test_contract.py`` (``cardenvs.testing``)."""

from __future__ import annotations

import numpy as np
import pytest

from cardenvs import line_v0
from cardenvs.line import LineGame

from .positions import position


def test_docstring_names_the_spaces() -> None:
    """The spec's tables are the contract kit's (cardenvs.testing.check_spec); the
    property table names the spaces."""
    doc = line_v0.__doc__ or ""
    assert f"Box({LineGame.observation_size()},)" in doc
    assert f"Discrete({LineGame.num_actions})" in doc


def test_reset_from_json_and_render() -> None:
    env = line_v0.env(render_mode="ansi")
    obj = position(rows=[["6s", "7s", "8s"], [], [], []], hands=[["9s", "2c"], ["Kh"]])
    env.reset(options={"state": obj})
    assert env.unwrapped.state_json() == obj
    env.step(env.unwrapped.str_to_action("play 9s r1"))
    assert env.agent_selection == "player_0"  # bonus turn
    text = env.render()
    assert "bonus turn" in text and "6s 7s 8s 9s" in text
    with pytest.raises(ValueError, match="illegal action"):
        env.step(env.unwrapped.str_to_action("play Kh r2"))
    obs = env.observe("player_1")
    assert obs["action_mask"].sum() == 0
    assert LineGame.decode(obs["observation"]).seat == 1


def test_game_end_through_env() -> None:
    env = line_v0.env()
    obj = position(rows=[["6s", "7s", "8s"], ["4c", "4d", "4h", "4s"], ["9h", "Th", "Jh", "Qh"],
                         ["Jd", "Qd", "Kd", "X"]], hands=[["9s", "2c"], ["Kh"]])
    env.reset(options={"state": obj})
    env.step(np.int64(env.unwrapped.str_to_action("play 9s r1")))
    assert all(env.terminations.values())
    assert env.unwrapped._cumulative_rewards == {"player_0": 1.0, "player_1": -1.0}
    assert env.infos["player_1"]["hand_total"] == 10


def test_view_protocol_and_decode_of_the_env_dict() -> None:
    """The View has seat, seat count and options; decode reads env.last()'s dict too."""
    from cardenvs.core.game import View

    env = line_v0.env(num_players=3, joker_points=10)
    env.reset(seed=4)
    obs = env.last()[0]
    view = LineGame.decode(obs)
    assert isinstance(view, View)
    assert (view.seat, view.num_players, view.options) == (0, 3, {"joker_points": 10})
    assert view == LineGame.decode(obs["observation"])
    assert np.array_equal(LineGame.encode(view), obs["observation"])


def test_encode_of_views_built_by_hand() -> None:
    """A View whose rows no game reaches still encodes (and decodes back); one no game can
    have (a card, seat or count out of range) is refused with a ValueError saying what
    is allowed, not written as a wrong vector."""
    import dataclasses

    env = line_v0.env(num_players=2)
    env.reset(seed=1)
    view = LineGame.decode(env.last()[0])
    odd = dataclasses.replace(view, rows=((0, 1, 2, 3, 4, 5), (), (), ()))  # six cards: no game has it
    obs = LineGame.encode(odd)
    assert obs.dtype == np.float32 and obs.sum() == LineGame.encode(view).sum() + 6
    assert LineGame.decode(obs) == odd
    for bad in (
        dataclasses.replace(view, rows=((53,), (), (), ())),
        dataclasses.replace(view, hand=(-1,)),
        dataclasses.replace(view, seat=2),
        dataclasses.replace(view, draw_size=300),
        dataclasses.replace(view, hand_sizes=(7,)),
        dataclasses.replace(view, phase="bidding"),
    ):
        with pytest.raises(ValueError, match="not a Line view"):
            LineGame.encode(bad)
