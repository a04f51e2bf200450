"""experiments/oracle.py: the cheating search sees the live hands, and the script scores it."""

from __future__ import annotations

import numpy as np
import pytest

import cardenvs
from experiments import oracle


def test_oracle_worlds_are_the_live_state_but_the_pile_order() -> None:
    game = cardenvs.game_class("rummy432_v0")(2)
    rng = np.random.default_rng(4)
    state = game.new_state(rng)
    seat = oracle.OracleSeat("rummy432_v0", state, 1)
    game.apply(state, game.legal_actions(state)[0], rng)  # the seat keeps following the live state
    world = seat.agent.knowledge.sample_state(game, game.view(state, state.current), np.random.default_rng(0))
    assert world.hands == state.hands and world.discard == state.discard
    assert sorted(world.pile) == sorted(state.pile)


def test_the_script_scores_the_oracle(capsys: pytest.CaptureFixture[str]) -> None:
    share, lo, hi = oracle.main(["--env", "line_v0", "--against", "greedy", "--games", "2", "--seed", "7"])
    assert 0.0 <= lo <= share <= hi <= 1.0
    assert "| line_v0 | oracle vs greedy | 2 |" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        oracle.main(["--env", "line_v0", "--against", "nobody", "--games", "2"])
