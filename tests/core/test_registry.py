"""One registry: a game's kit registered once is an environment, a Gymnasium id, has a
ladder, a coach, named opponents, tournaments and a table face; unknown names are clear
errors.  The toy game's kit (``tests/core/toy_kit.py``) is the game from outside."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import gymnasium
import numpy as np
import pytest

import agents
import cardenvs
from agents.evaluation.tournament import tournament
from agents.players import ladder
from cardenvs.core.words import TableFace
from cardenvs.registry import GAMES, GameKit, register
from experiments.ladder_pairs import play_pair

from .toy_kit import registered

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def toy_registered() -> Iterator[GameKit]:
    with registered() as kit:
        yield kit
    assert "toy_v0" not in GAMES and "cardenvs/Toy-v0" not in gymnasium.registry


def test_one_register_call_brings_the_env_agents_coach_and_tournament(toy_registered: GameKit) -> None:
    assert "toy_v0" in cardenvs.ENVS and cardenvs.ENVS["toy_v0"] == "tests.core.toy"
    env = cardenvs.make("toy_v0", num_players=3)
    env.reset(seed=1)
    assert env.agent_selection == "player_0"
    assert agents.levels("toy_v0") == ["random", "greedy", "planner", "expert"]
    bots = agents.opponents("toy_v0", "greedy", 2, seed=0)
    assert [b.name for b in bots] == ["Tam", "Tor"]
    obs = env.last()[0]
    advice = agents.Coach("toy_v0").advise(obs)
    assert {a.move for a in advice} == {"add 1", "add 2", "add 3"}
    assert advice[0].move == "add 1"  # far from the target: add as little as possible
    rep = tournament("toy_v0", ["random", "greedy", "expert"], players=2, games=4, progress=False)
    assert sum(n for _p, n, _lo, _hi in rep.pairwise.values()) == 2 * 3 * 4


def test_the_toy_plays_in_the_ladder_and_through_its_gymnasium_id(toy_registered: GameKit) -> None:
    pair = play_pair("toy_v0", "random", "greedy", 2, 40, seed=0, workers=1)
    assert pair.games == 40 and pair.share > 0.5  # greedy reaches the target whenever it can
    env = gymnasium.make("cardenvs/Toy-v0", opponents="greedy", seed=1)
    obs, _info = env.reset(seed=2)
    done, steps = False, 0
    while not done:
        mask = env.unwrapped.action_masks()  # type: ignore[attr-defined]
        obs, _r, term, trunc, _info = env.step(int(np.flatnonzero(mask)[-1]))
        done, steps = term or trunc, steps + 1
    assert 1 <= steps <= 10


def test_the_toy_kit_has_all_four_faces(toy_registered: GameKit) -> None:
    game = toy_registered.game_class(2)
    state = game.new_state(np.random.default_rng(0))
    assert game.public_view(state).secret == -1 and game.view(state, 1).secret == state.secrets[1]
    face = toy_registered.table_face()
    assert isinstance(face, TableFace)
    words = face.describe(game, 2, game.view(state, 0))
    assert (words.label, words.others) == ("Add 3 to the total", "adds 3 to the total")
    assert face.board(game, game.view(state, 0)) == {"target": 10, "left": 10}
    board = toy_registered.board_file()
    assert board is not None and board.name == "toy_board.js" and board.exists()


def test_a_game_module_named_in_cardenvs_games_registers_on_import() -> None:
    code = "import cardenvs; print(sorted(cardenvs.GAMES))"
    env = dict(os.environ, CARDENVS_GAMES="tests.core.toy_plugin, no.such.module")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                         check=True)
    assert "toy_v0" in out.stdout and "line_v0" in out.stdout
    assert "'no.such.module' did not load" in out.stderr  # a broken one is named, and skipped


def test_every_kit_names_a_table_face_and_a_board() -> None:
    for kit in GAMES.values():
        assert isinstance(kit.table_face(), TableFace) and type(kit.table_face()) is not TableFace
        board = kit.board_file()
        assert board is not None and board.exists(), kit.env_name


def test_the_old_table_keyword_of_a_kit_still_names_its_words() -> None:
    """``GameKit(table=...)`` (plugin kits written before ``words=``) still works, warning."""
    with pytest.warns(DeprecationWarning, match="words"):
        kit = GameKit("toy_v0", "Toy", "tests.core.toy", "tests.core.toy_agents",
                      table="tests.core.toy_words")
    assert kit.words == "tests.core.toy_words" and isinstance(kit.table_face(), TableFace)
    with pytest.warns(DeprecationWarning, match="GameKit.words"):
        assert kit.table == "tests.core.toy_words"  # type: ignore[attr-defined]
    with pytest.warns(DeprecationWarning), pytest.raises(TypeError, match="not both"):
        GameKit("toy_v0", "Toy", "tests.core.toy", "tests.core.toy_agents", words="a", table="b")
    assert GameKit("toy_v0", "Toy", "tests.core.toy", "tests.core.toy_agents").words is None


def test_registering_a_taken_name_is_refused() -> None:
    with pytest.raises(ValueError, match="registered already"):
        register(GameKit("line_v0", "Line", "cardenvs.line_v0", "agents.games.line"))


@pytest.mark.parametrize("bad", [["line_v0"], None, 3, "Line", ("line_v0",)])
def test_unknown_names_are_value_errors_naming_the_environments(bad: object) -> None:
    with pytest.raises(ValueError, match="the environments are line_v0, lineit_v0, rummy432_v0"):
        cardenvs.make(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="the environments are"):
        agents.make_agent(bad, "random")  # type: ignore[arg-type]


def test_every_registered_game_has_its_agents_spec() -> None:
    for name, entry in GAMES.items():
        spec = ladder.spec(name)
        assert spec.knowledge.env_name == name
        assert spec.cast and spec.expert_budget and spec.train_defaults
        assert entry.game_class.env_name == name
        assert np.all(entry.game_class(None).observation_bounds()[0] <= 0)
