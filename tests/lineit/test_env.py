"""The PettingZoo face of Line-it: what is particular to it (positions, rendering, docs).

PettingZoo's API and seed tests and the other checks every game keeps run in
``tests/core/test_contract.py`` (``cardenvs.testing``)."""

from __future__ import annotations

import re

import numpy as np
import pytest

import cardenvs
from cardenvs import lineit_v0
from cardenvs.core.game import View
from cardenvs.lineit.rules import LineItGame

from .positions import position


def test_make_and_defaults() -> None:
    e = cardenvs.make("lineit_v0")
    e.reset(seed=0)
    assert e.unwrapped.game.num_players == 2 and e.possible_agents == ["player_0", "player_1"]
    assert e.observation_space("player_0")["observation"].shape == (LineItGame.observation_size(),)
    assert e.action_space("player_0").n == 414


def test_reset_from_a_position_and_illegal_step() -> None:
    pos = position(2, market=[5, 20, 30, "B3"], lines=[[10, "B4"], []])
    e = lineit_v0.env()
    e.reset(options={"state": pos})
    assert e.unwrapped.state_json() == pos
    mask = e.observe("player_0")["action_mask"]
    assert {e.unwrapped.action_to_str(a) for a in np.flatnonzero(mask)} == {
        "pick 5 line", "pick 20 line", "pick 30 line",
        "pick 5 hand", "pick 20 hand", "pick 30 hand", "pick B3 hand",
    }
    assert e.observe("player_1")["action_mask"].sum() == 0
    with pytest.raises(ValueError, match="pick B3 line"):
        e.step(e.unwrapped.str_to_action("pick B3 line"))
    assert e.unwrapped.state_json() == pos
    e.step(np.int64(e.unwrapped.str_to_action("pick 20 line")))
    assert e.agent_selection == "player_0"
    e.step(e.unwrapped.str_to_action("score"))
    assert e.agent_selection == "player_1"


def test_game_end_rewards_and_infos() -> None:
    pos = position(3, deck=[], first=0, picks_left=1, phase="final", hands=[[], [], [5]],
                   scored=[[91, 92], [93, 94], [95]], rest="discarded")
    e = lineit_v0.env(num_players=3)
    e.reset(options={"state": pos})
    assert e.agent_selection == "player_2"
    e.step(e.unwrapped.str_to_action("pass"))
    assert all(e.terminations.values())
    assert e.rewards == {"player_0": 0.0, "player_1": 0.0, "player_2": -1.0}
    assert e.infos["player_0"] == {"score": 2, "scored_cards": 2, "token_total": 0}


def test_the_view_names_its_table() -> None:
    e = lineit_v0.env(num_players=3)
    e.reset(seed=4)
    view = LineItGame.decode(e.last()[0])
    assert isinstance(view, View)
    assert (view.seat, view.num_players, view.options) == (0, 3, {})
    assert view == e.unwrapped.game.view(e.unwrapped.state, 0)


def test_render_names_the_colours() -> None:
    pos = position(2, market=[5, 20, 30, "B3"], lines=[[10, "B4", 21], []], hands=[[40], ["B5"]],
                   jackpots={"red": [13], "yellow": [8]})
    e = lineit_v0.env(render_mode="ansi")
    e.reset(options={"state": pos})
    text = e.render()
    assert isinstance(text, str)
    for word in ("heart", "diamond", "leaf", "star", "ascending", "bet B4 with 1 after",
                 "Market: 5-heart 20-star 30-diamond B3", "player_1", "hand: B5"):
        assert word in text, word
    e2 = lineit_v0.env(render_mode="ansi", render_viewer=1)
    e2.reset(options={"state": pos})
    assert "player_1 (you)" in e2.render()


def _table(doc: str, header: str) -> list[list[str]]:
    lines = doc.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip().startswith(header))
    rows = []
    for line in lines[start + 2:]:
        if not line.strip().startswith("|"):
            break
        rows.append([c.strip() for c in line.strip().strip("|").split("|")])
    return rows


def test_action_table_quotes_the_notation() -> None:
    """The notation quoted in each row of the action table is the notation of its ids (the
    table's coverage and the observation table: cardenvs.testing.check_spec)."""
    g = LineItGame()
    for row in _table(lineit_v0.__doc__ or "", "| actions | ids | meaning |"):
        lo = int(row[1].partition("..")[0])
        quoted = re.findall(r"`([^`]*)`", row[2])[0]
        assert g.action_to_str(lo).split()[0] == quoted.split()[0]
