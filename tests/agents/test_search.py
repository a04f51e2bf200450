"""The expert's search (agents/players/search.py): the paired race, its settings, the rollouts'
cheap tie-breaking, and the games' fast rollout paths against the heuristics they stand for."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import agents
import cardenvs
from agents.players.knowledge import Rollouts, Ties, spec
from agents.players.search import SearchAgent, check_search_settings
from tests.core.toy import ToyGame, ToyState, ToyView
from tests.core.toy_agents import ToyKnowledge


class RaceKnowledge(ToyKnowledge):
    """Candidates 0, 1, 2 in that heuristic order; a rollout of candidate ``a`` is worth
    ``means[a]`` plus noise drawn from the rollout's generator (``shared``: the same draw
    for every candidate, as common random numbers give; else one draw per candidate)."""

    def __init__(self, means: list[float], noise: float, shared: bool) -> None:
        self.means, self.noise, self.shared = means, noise, shared
        self.calls = [0, 0, 0]

    def scores(self, game: Any, view: Any, legal: list[int], level: int) -> np.ndarray:
        return np.array([3.0 - a for a in legal])

    def rollouts(self, game: Any, root: Any) -> Rollouts:
        return _RaceRollouts(self, game, root)


class _RaceRollouts(Rollouts):
    def play_out(self, state: ToyState, rng: np.random.Generator, depth: int, player: int) -> float:
        know = self.knowledge
        assert isinstance(know, RaceKnowledge)
        a = state.total - self.root.total - 1  # the candidate this world was played with
        know.calls[a] += 1
        draws = rng.standard_normal(3)
        return know.means[a] + know.noise * float(draws[0] if know.shared else draws[a])


def _search(means: list[float], noise: float = 0.0, shared: bool = True, **budget: Any) -> tuple[
        SearchAgent, RaceKnowledge, np.ndarray]:
    know = RaceKnowledge(means, noise, shared)
    settings = {"simulations": 40, "depth": 5, "max_candidates": 3, "paired": True, **budget}
    agent = SearchAgent(know, seed=1, **settings)
    game = ToyGame(2)
    values = agent.values(game, ToyView(2, 0, 0, 0, 3), [0, 1, 2])
    return agent, know, values


def test_without_the_race_every_candidate_plays_every_world() -> None:
    _, know, values = _search([0.1, 0.3, -0.2], noise=0.5)
    assert know.calls == [40, 40, 40]
    # common random numbers: the same noise for each, so the estimates keep the true gaps
    assert values[1] - values[0] == pytest.approx(0.2, abs=1e-5)
    assert values[0] - values[2] == pytest.approx(0.3, abs=1e-5)


def test_a_clearly_worse_candidate_leaves_the_race() -> None:
    # with common random numbers the paired differences have no spread: the race ends at
    # min_worlds, the best candidate wins, and the losers are valued below it by their gap
    agent, know, values = _search([0.1, 0.3, -0.2], noise=0.5, min_worlds=4)
    assert know.calls == [4, 4, 4]
    assert int(np.argmax(values)) == 1
    assert values[1] - values[0] >= 0.2 - 1e-6 and values[1] - values[2] >= 0.5 - 1e-6


def test_close_candidates_stay_in_the_race_longer_than_clear_ones() -> None:
    # independent noise: a candidate far behind leaves early, a close one stays longer
    _, know, values = _search([0.5, 0.45, -0.5], noise=0.3, shared=False, min_worlds=4, confidence=2.0)
    assert int(np.argmax(values)) in (0, 1)
    assert know.calls[2] < know.calls[1]
    assert know.calls[2] <= 6


def test_tolerance_ends_a_race_between_equals() -> None:
    # two equal candidates: with no tolerance they play every world, with a tolerance the
    # race ends once neither can beat the other by more, and the heuristic's first wins
    _, know, _ = _search([0.2, 0.2, -1.0], min_worlds=4, tolerance=0.0)
    assert know.calls[:2] == [40, 40] and know.calls[2] == 4
    _, know, values = _search([0.2, 0.2, -1.0], min_worlds=4, tolerance=0.05)
    assert know.calls == [4, 4, 4] and int(np.argmax(values)) == 0


def test_the_race_is_deterministic_for_a_seed() -> None:
    first = _search([0.1, 0.2, 0.0], noise=0.4, shared=False, min_worlds=4)[2]
    again = _search([0.1, 0.2, 0.0], noise=0.4, shared=False, min_worlds=4)[2]
    assert np.array_equal(first, again)


@pytest.mark.parametrize("settings, fault", [
    ({"min_worlds": 0}, "min_worlds must be a whole number >= 1"),
    ({"min_worlds": 2.5}, "min_worlds must be a whole number >= 1"),
    ({"confidence": -1}, "confidence must be a number >= 0"),
    ({"tolerance": "0.1"}, "tolerance must be a number >= 0"),
    ({"tolerance": True}, "tolerance must be a number >= 0"),
    ({"confidence": float("inf")}, "confidence must be a number >= 0"),
    ({"race": 3}, "unknown key"),
])
def test_bad_search_settings_are_refused(settings: dict[str, Any], fault: str) -> None:
    with pytest.raises(ValueError, match=fault):
        check_search_settings(settings, "test")


def test_good_search_settings_pass() -> None:
    good = {"simulations": 32, "min_worlds": 4, "confidence": 2, "tolerance": 0.05, "paired": True}
    assert check_search_settings(good, "test") is good
    for env_name in cardenvs.ENVS:  # the shipped budgets are valid settings
        check_search_settings(dict(spec(env_name).expert_budget), env_name)


def test_ties_are_uniform_and_repeatable() -> None:
    ties = Ties(np.random.default_rng(0))
    counts = np.bincount([ties.index(3) for _ in range(30000)], minlength=3)
    assert counts.min() > 9500 and counts.max() < 10500
    a, b = Ties(np.random.default_rng(5)), Ties(np.random.default_rng(5))
    scores = [1.0, 2.0, 2.0, 0.5, 2.0]
    picks = [a.argmax(scores) for _ in range(50)]
    assert picks == [b.argmax(scores) for _ in range(50)]
    assert set(picks) == {1, 2, 4}  # only the best, each of them
    assert a.argmax([0.0, 3.0, 1.0]) == 1


def _positions(env_name: str, games: int, seed: int) -> list[tuple[Any, Any, int]]:
    """(game, state, seat to move) along planner games."""
    out: list[tuple[Any, Any, int]] = []
    for g in range(games):
        game = cardenvs.game_class(env_name)(2)
        rng = np.random.default_rng(seed + g)
        state = game.new_state(rng)
        planner = [agents.make_agent(env_name, "planner", seed=g + i) for i in range(2)]
        while not game.is_terminal(state) and len(out) < 400 * (g + 1):
            p = game.current_player(state)
            out.append((game, game.clone(state), p))
            legal = game.legal_actions(state)
            game.apply(state, planner[p].choose(game, game.view(state, p), legal), rng)
    return out


def test_lineit_rollouts_score_moves_as_the_greedy_level_does() -> None:
    # the rollouts read the greedy's inputs straight off the state: the same scores as the
    # greedy level on the mover's View
    from agents.games.lineit import _greedy_values

    know = agents.knowledge("lineit_v0")
    checked = 0
    for game, state, p in _positions("lineit_v0", 2, seed=11):
        legal = game.legal_actions(state)
        view_scores = know.scores(game, game.view(state, p), legal, 1)
        jack = [len(x) for x in state.jackpots]
        state_scores = _greedy_values(state.stats[p], jack, len(state.hands[p]), legal)
        assert view_scores.tolist() == state_scores
        checked += 1
    assert checked > 100


def test_rummy_rollouts_pick_as_the_planner_does() -> None:
    # a rollout's pick is read off the state where the planner would not take; everywhere
    # its move is the planner's on the mover's View
    from agents.games.rummy432.context import Context
    from agents.games.rummy432.scoring import planner_scores

    know = agents.knowledge("rummy432_v0")
    picks = 0
    for game, state, p in _positions("rummy432_v0", 3, seed=21):
        ro = know.rollouts(game, game.view(state, p))
        legal = game.legal_actions(state)
        want = legal[int(np.argmax(planner_scores(Context(game.view(state, p)), legal)))]
        if len(legal) > 1:
            assert ro.action(game.clone(state), np.random.default_rng(0)) == want
            picks += state.phase == 0
    assert picks > 50


def test_at_the_old_settings_the_rummy_expert_decides_as_before() -> None:
    # Rummy's rollouts, planner and inference were made cheaper with the same decisions: at
    # the old expert's settings the live search chooses what the old one chose, the old one
    # played from its commit's own code (experiments.frozen; Line's and Line-it's rollouts
    # break ties with other random numbers: not comparable)
    from experiments import frozen

    reason = frozen.unavailable_reason()
    if reason is not None:
        pytest.skip(reason)
    env_name = "rummy432_v0"
    budget = {**frozen.old_budget(env_name), "simulations": 6}
    know = agents.knowledge(env_name)

    positions = [x for x in _positions(env_name, 1, seed=31) if len(x[0].legal_actions(x[1])) > 1][:40]
    old = [frozen.old_expert(env_name, seed=3 + i, simulations=6) for i in range(2)]
    new = [SearchAgent(know, seed=3 + i, **budget) for i in range(2)]
    assert old[0].name == "expert-old"
    searched = 0
    for game, state, p in positions:
        view, legal = game.view(state, p), game.legal_actions(state)
        assert new[p].choose(game, view, list(legal)) == old[p].choose(game, view, list(legal))
        searched += view.phase == "throw"
    assert searched >= 10
