"""The variance study's duplicate rotations at 2 and more seats (``experiments.variance``)
and the ceiling diagnostic (``experiments.variance_ceiling``)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from agents.measure import UniformValue
from agents.types import S, V
from cardenvs.core.game import Game
from experiments import variance, variance_ceiling


class ObservedValue:
    """A value that reads the cards (softmax over seats of a fixed projection of each
    seat's observation): not uniform, so the deal's corrections are not 0."""

    def __call__(self, game: Game[S, V], states: Sequence[S]) -> np.ndarray:
        n = game.num_players
        x = np.array([[float(np.dot(game.observe(s, p), np.sin(np.arange(game.observe(s, p).size))))
                       for p in range(n)] for s in states])
        e = np.exp(0.05 * (x - x.max(axis=1, keepdims=True)))
        out: np.ndarray = e / e.sum(axis=1, keepdims=True)
        for i, s in enumerate(states):
            if game.is_terminal(s):
                from agents.measure import game_points

                out[i] = game_points(game, s)
        return out


@pytest.mark.parametrize("players", [2, 3])
def test_each_deal_is_played_in_every_rotation_and_its_deal_corrections_cancel(players: int) -> None:
    runs = variance.play_pair("line_v0", "greedy", "random", 2, 5_000_000, ObservedValue(), 2, 2,
                              players=players)
    assert runs.deal == [d for d in range(2) for _ in range(players)]
    deal_corr = np.array(runs.deal_corr).reshape(2, players)
    assert np.abs(deal_corr).max() > 1e-6  # the value reads the cards: the deal moves it
    # the same cards in every rotation and values summing to 1: the rotations' parts cancel
    np.testing.assert_allclose(deal_corr.sum(axis=1), 0.0, atol=1e-9)
    assert all(0.0 <= p <= 1.0 for p in runs.points)
    assert all(0.0 < d < c for d, c in zip(runs.t_deal, runs.t_corr))  # the deal's bracket is timed apart


def test_the_uniform_value_corrects_only_the_last_chance_event_at_three_seats() -> None:
    runs = variance.play_pair("lineit_v0", "greedy", "greedy", 1, 5_000_000, UniformValue(), 2, 2, players=3)
    assert runs.deal_corr == [0.0, 0.0, 0.0] and len(runs.points) == 3


def test_the_study_prints_a_row_per_pairing_at_three_seats(capsys: pytest.CaptureFixture[str]) -> None:
    variance.main(["--envs", "line_v0", "--pairs", "greedy:random", "--players", "3", "--games", "6",
                   "--samples", "1", "--seed", "5000000"])
    out = capsys.readouterr().out
    rows = [r for r in out.splitlines() if r.startswith("| line_v0")]
    assert out.startswith("3 players, 6 games") and len(rows) == 1
    assert rows[0].startswith("| line_v0 | greedy vs random | 6 |")
    with pytest.raises(SystemExit):
        variance.main(["--players", "6"])


def test_the_study_stratifies_the_redraws_when_asked(capsys: pytest.CaptureFixture[str]) -> None:
    base = ["--envs", "rummy432_v0", "--pairs", "greedy:random", "--games", "2", "--samples", "2",
            "--seed", "5000000"]
    rows = []
    for redraws in ("own", "stratified"):
        variance.main([*base, "--redraws", redraws])
        rows += [r for r in capsys.readouterr().out.splitlines() if r.startswith("| rummy432_v0")]
    assert rows[0].endswith("| 2 |") and rows[1].endswith("| 2 stratified |")
    # the same games (plain columns alike), other samples
    assert rows[0].split("|")[4] == rows[1].split("|")[4]


def test_the_ceiling_holds_the_cards_and_varies_the_agents_or_the_chance() -> None:
    score = variance_ceiling.duplicate_score
    for vary in variance_ceiling.VARY:  # reseed 0 is the same game either way, and replays exactly
        assert score("line_v0", "greedy", "planner", 2, 5_000_000, 0, vary) == score(
            "line_v0", "greedy", "planner", 2, 5_000_000, 0)
    # on the same deals, either reseeding changes some scores (seeded: the same sets every run)
    by_agents = {score("rummy432_v0", "greedy", "greedy", 2, 5_000_000 + d, r, "agents") for d in range(4)
                 for r in range(3)}
    by_chance = {score("rummy432_v0", "greedy", "greedy", 2, 5_000_000 + d, r, "chance") for d in range(4)
                 for r in range(3)}
    assert len(by_agents) > 1 and len(by_chance) > 1
    c = variance_ceiling.ceiling("line_v0", "greedy", "random", 2, 3, 2, 5_000_000)
    assert c["total"] >= 0 and c["agents"] >= 0 and c["chance"] >= 0 and 0.0 <= c["mean"] <= 1.0


def test_variance_with_coupled_draws_prints_todays_columns(capsys: pytest.CaptureFixture[str]) -> None:
    variance.main(["--envs", "line_v0", "--pairs", "greedy:random", "--games", "4", "--coupled-draws",
                   "--value", "uniform"])
    out = capsys.readouterr().out
    assert "coupled draws" in out and "vs today: coupled plain, reduced" in out
    row = next(line for line in out.splitlines() if line.startswith("| line_v0 |"))
    assert row.count("|") == 19  # the 16 columns and today's two


def test_the_coupling_benchmark_prints_its_table(capsys: pytest.CaptureFixture[str]) -> None:
    from experiments import bench_coupling

    rows = bench_coupling.main(["--envs", "line_v0", "--games", "2", "--repeats", "1",
                                "--pair", "random:greedy"])
    (row,) = rows
    assert row["env"] == "line_v0" and float(row["plain"]) > 0 and float(row["coupled"]) > 0
    assert "| line_v0 |" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        bench_coupling.main(["--pair", "greedy"])


def test_cloned_policies_estimate_the_moves_without_touching_the_agent() -> None:
    import copy

    import cardenvs
    from agents import make_agent

    game = cardenvs.game_class("line_v0")(2)
    state = game.new_state(np.random.default_rng(5_000_000))
    seat = game.current_player(state)
    view, legal = game.view(state, seat), game.legal_actions(state)
    agent = make_agent("line_v0", "random", seed=3)
    before = copy.deepcopy(agent)
    shares = variance.clone_policy(agent, 3000, np.random.default_rng(1))(game, view, legal)
    assert shares.sum() == pytest.approx(1.0) and len(shares) == len(legal)
    # the random agent's copies draw uniformly: every share near 1/len(legal)
    assert np.abs(shares - 1.0 / len(legal)).max() < 4 * np.sqrt(1.0 / len(legal) / 3000)
    assert agent.choose(game, view, legal) == before.choose(game, view, legal)  # its own draws untouched


def test_the_study_corrects_the_search_agents_moves_with_clones() -> None:
    value = ObservedValue()
    spec = (value, 1, 0, False)
    plain = variance.play_one("line_v0", ("planner", "expert"), 5_000_000, None)
    _, moves, rewards, _, corr = variance.play_one("line_v0", ("planner", "expert"), 5_000_000, spec,
                                                   clones=2)
    assert (moves, rewards) == (plain[1], plain[2])  # the copies changed nothing in the game
    assert corr is not None and np.abs(corr.parts["policy"]).max() > 1e-6
    *_, without = variance.play_one("line_v0", ("planner", "expert"), 5_000_000, spec)
    assert without is not None and np.abs(without.parts["policy"]).max() == 0.0
    with pytest.raises(SystemExit):
        variance.main(["--clones", "-1"])
