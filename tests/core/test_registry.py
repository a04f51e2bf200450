"""One registry: a game registered once is an environment, has a ladder, a coach,
named opponents and tournaments; unknown names are clear errors."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

import agents
import cardenvs
from agents.tournament import tournament
from cardenvs.registry import GAMES, GameEntry, register


@pytest.fixture
def toy_registered() -> Iterator[GameEntry]:
    entry = register(GameEntry("toy_v0", "Toy", "tests.core.toy", "tests.core.toy_agents"))
    try:
        yield entry
    finally:
        GAMES.pop("toy_v0")


def test_one_register_call_brings_the_env_agents_coach_and_tournament(toy_registered: GameEntry) -> None:
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


def test_registering_a_taken_name_is_refused() -> None:
    with pytest.raises(ValueError, match="registered already"):
        register(GameEntry("line_v0", "Line", "cardenvs.line_v0", "agents.games.line"))


@pytest.mark.parametrize("bad", [["line_v0"], None, 3, "Line", ("line_v0",)])
def test_unknown_names_are_value_errors_naming_the_environments(bad: object) -> None:
    with pytest.raises(ValueError, match="the environments are line_v0, lineit_v0, rummy432_v0"):
        cardenvs.make(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="the environments are"):
        agents.make_agent(bad, "random")  # type: ignore[arg-type]


def test_every_registered_game_has_its_agents_spec() -> None:
    for name, entry in GAMES.items():
        spec = agents.ladder.spec(name)
        assert spec.knowledge.env_name == name
        assert spec.cast and spec.expert_budget and spec.train_defaults
        assert entry.game_class.env_name == name
        assert np.all(entry.game_class(None).observation_bounds()[0] <= 0)
