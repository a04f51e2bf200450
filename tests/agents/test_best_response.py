"""The local best response (agents/evaluation/exploitability.py): deterministic, legal, honest, and it
exploits a target that is exploitable."""

from __future__ import annotations

from typing import Any

import cloudpickle
import numpy as np
import pytest

import agents
import cardenvs
from agents.evaluation.exploitability import LocalBestResponse, local_best_response
from agents.evaluation.tournament import points
from cardenvs.core.game import Game
from cardenvs.core.loop import Turn, play

ENV_NAMES = list(cardenvs.ENVS)
#: a small search: every test here runs in seconds
FAST: dict[str, Any] = {"worlds": 3, "max_candidates": 3, "depth": 20}


def _positions(env_name: str, seed: int, count: int) -> list[tuple[Game[Any, Any], Any, int]]:
    """(game, state, player) at decisions with a choice, in a random two-player game."""
    game = cardenvs.game_class(env_name)(2)
    rng = np.random.default_rng(seed)
    state = game.new_state(rng)
    out: list[tuple[Game[Any, Any], Any, int]] = []
    step = 0
    while not game.is_terminal(state) and len(out) < count:
        legal = game.legal_actions(state)
        if step % 5 == 2 and len(legal) > 1:
            out.append((game, game.clone(state), game.current_player(state)))
        game.apply(state, legal[int(rng.integers(len(legal)))], rng)
        step += 1
    return out


def _play(env_name: str, exploiter: LocalBestResponse, target: str,
          seed: int) -> tuple[list[int], list[float]]:
    """One game, the exploiter in seat 0: its moves (checked legal) and the rewards."""
    game = cardenvs.game_class(env_name)(2)
    rng = np.random.default_rng(seed)
    state = game.new_state(rng)
    moves: list[int] = []

    def check(turn: Turn) -> None:
        assert turn.action in turn.legal
        if turn.seat == 0:
            moves.append(turn.action)

    play(game, state, [exploiter, agents.make_agent(env_name, target, seed=seed)], rng, on_move=check)
    assert game.is_terminal(state)
    return moves, [float(r) for r in game.returns(state)]


@pytest.mark.parametrize("env_name", ENV_NAMES)
def test_the_exploiter_is_deterministic_for_a_seed_and_plays_legal_moves(env_name: str) -> None:
    first = _play(env_name, LocalBestResponse(env_name, "greedy", seed=4, **FAST), "greedy", seed=1)
    again = _play(env_name, LocalBestResponse(env_name, "greedy", seed=4, **FAST), "greedy", seed=1)
    assert first == again and len(first[0]) > 5
    # the search's numbers too, decision by decision
    for game, state, p in _positions(env_name, seed=2, count=3):
        view, legal = game.view(state, p), game.legal_actions(state)
        a = LocalBestResponse(env_name, "random", seed=9, **FAST).search(game, view, legal)
        b = LocalBestResponse(env_name, "random", seed=9, **FAST).search(game, view, legal)
        assert a[0] == b[0] and np.array_equal(a[1], b[1])
        assert a[1].shape == (FAST["worlds"], min(len(legal), FAST["max_candidates"]))


def test_local_best_response_is_deterministic_for_a_seed() -> None:
    one = local_best_response("greedy", "line_v0", games=4, seed=3, **FAST)
    two = local_best_response("greedy", "line_v0", games=4, seed=3, **FAST)
    assert (one.share, one.interval, one.plain_share) == (two.share, two.interval, two.plain_share)
    assert one.games == 4 and one.deals == 2 and one.method == "duplicate"
    assert one.settings["worlds"] == FAST["worlds"] and one.settings["seed"] == 3
    assert one.settings["coupled_draws"] is False


def test_local_best_response_with_coupled_draws() -> None:
    """Coupled draws play other games on the same deals (the face-down cards dealt out to
    the seats) and say so in the settings."""
    plain = local_best_response("greedy", "line_v0", games=8, seed=3, **FAST)
    coupled = local_best_response("greedy", "line_v0", games=8, seed=3, coupled_draws=True, **FAST)
    assert coupled.settings["coupled_draws"] is True and coupled.games == 8
    assert coupled.plain_share != plain.plain_share or coupled.interval != plain.interval
    with pytest.raises(ValueError, match="coupled_draws is True or False"):
        local_best_response("greedy", "line_v0", games=2, coupled_draws=1)  # type: ignore[arg-type]


@pytest.mark.parametrize("env_name", ENV_NAMES)
def test_the_exploiter_decides_from_its_own_view(env_name: str) -> None:
    """Re-dealing what the exploiter cannot see (the leak test of test_agents.py) changes
    neither its move nor its rollout values."""
    for game, state, p in _positions(env_name, seed=11, count=3):
        view = game.view(state, p)
        other = game.sample_state(view, np.random.default_rng(99))
        assert game.view(other, p) == view
        obs = {"observation": game.observe(state, p), "action_mask": game.legal_mask(state)}
        obs2 = {"observation": game.observe(other, p), "action_mask": game.legal_mask(other)}
        np.testing.assert_array_equal(obs["observation"], obs2["observation"])
        agent = LocalBestResponse(env_name, "planner", seed=3, **FAST)
        first = agent.act(obs)
        assert obs["action_mask"][first] == 1
        agent.seed(3)
        assert agent.act(obs2) == first
        legal = game.legal_actions(state)
        agent.seed(5)
        values = agent.values(game, view, legal)
        agent.seed(5)
        assert np.array_equal(agent.values(game, game.view(other, p), game.legal_actions(other)), values)


def test_rollout_targets_start_fresh_when_they_remember() -> None:
    """A target that remembers (Rummy's expert) is built afresh for every rollout, so it
    decides from the rollout world's Views alone; a memoryless one is reused, reseeded."""
    lbr = LocalBestResponse("rummy432_v0", "expert", **FAST)
    a, b = lbr._agent(1, False, 7), lbr._agent(1, False, 7)
    assert a.remembers and a is not b
    lbr = LocalBestResponse("rummy432_v0", "planner", **FAST)
    a, b = lbr._agent(1, False, 7), lbr._agent(1, False, 8)
    assert not a.remembers and a is b
    # reseeding plays as a fresh agent: the same first choice as one built with that seed
    game, state, p = _positions("rummy432_v0", seed=5, count=1)[0]
    view, legal = game.view(state, p), game.legal_actions(state)
    fresh = agents.make_agent("rummy432_v0", "planner", seed=8)
    assert b.choose(game, view, legal) == fresh.choose(game, view, legal)


def test_the_exploiter_pickles() -> None:
    """It is sent to tournament workers with cloudpickle and plays the same there."""
    lbr = LocalBestResponse("lineit_v0", "greedy", seed=2, **FAST)
    game, state, p = _positions("lineit_v0", seed=3, count=1)[0]
    view, legal = game.view(state, p), game.legal_actions(state)
    lbr.choose(game, view, legal)  # builds the rollout agents, which are not sent
    copy = cloudpickle.loads(cloudpickle.dumps(lbr))
    assert copy._rollout_agents == {}
    lbr.seed(6)
    copy.seed(6)
    assert copy.choose(game, view, legal) == lbr.choose(game, view, legal)


@pytest.mark.parametrize("env_name", ["lineit_v0", "rummy432_v0"])
def test_it_exploits_a_random_target(env_name: str) -> None:
    # plain LBR (confidence 0: the rollouts' argmax, no fall-back on greedy's move) over every
    # legal move, so that the score is the search's own: with its values negated it scores
    # 4% against random in Rummy and 25% in Line-it (checked by hand)
    search = {**FAST, "max_candidates": 16}
    res = local_best_response("random", env_name, games=24, seed=0, confidence=0.0, **search)
    assert res.games == 24 and res.players == 2
    assert res.share == res.plain_share  # no control variates asked
    assert res.share >= 0.8 and res.interval[0] > 0.5 and res.exploitable, res


def test_the_score_is_the_exploiters_points() -> None:
    """The share is the mean of the exploiter's points over the games it played."""
    res = local_best_response("greedy", "line_v0", games=4, seed=7, **FAST)
    pts = []
    for g in range(4):  # the schedule: deal 7 + g // 2, the exploiter in seat g % 2
        game = cardenvs.game_class("line_v0")(2)
        rng = np.random.default_rng(7 + g // 2)
        state = game.new_state(rng)
        lbr = LocalBestResponse("line_v0", "greedy", seed=(7 + g // 2) * 31 + g % 2, **FAST)
        other = agents.make_agent("line_v0", "greedy", seed=(7 + g // 2) * 31 + 1 - g % 2)
        play(game, state, [lbr, other] if g % 2 == 0 else [other, lbr], rng)
        pts.append(points(game.returns(state))[g % 2])
    assert res.plain_share == pytest.approx(sum(pts) / 4)


def test_bad_arguments_are_refused_with_clear_messages() -> None:
    with pytest.raises(ValueError, match="target 'godlike'.*levels are"):
        local_best_response("godlike", "line_v0", games=2)
    with pytest.raises(TypeError, match="level name or an agents.Agent"):
        local_best_response(3, "line_v0", games=2)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="environments are"):
        local_best_response("random", "chess_v0", games=2)
    for games in (0, -1, 2.5, True):
        with pytest.raises(ValueError, match="games must be a whole number >= 1"):
            local_best_response("random", "line_v0", games=games)  # type: ignore[arg-type]
    for players in (1, 5, "2"):
        with pytest.raises(ValueError, match=r"players must be a whole number in 2\.\.4"):
            local_best_response("random", "line_v0", games=2, players=players)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="worlds must be a whole number >= 1"):
        local_best_response("random", "line_v0", games=2, worlds=0)
    with pytest.raises(ValueError, match="horizon must be one of 'round', 'game'"):
        local_best_response("random", "line_v0", games=2, horizon="turn")
    with pytest.raises(ValueError, match="rollout_policy must be one of 'greedy', 'planner'"):
        local_best_response("random", "line_v0", games=2, rollout_policy="expert")
    with pytest.raises(ValueError, match="confidence must be a number >= 0"):
        local_best_response("random", "line_v0", games=2, confidence=-1)
    with pytest.raises(ValueError, match="no trained policy"):
        local_best_response("policy:/nowhere/x.npz", "line_v0", games=2)


def test_a_model_stands_in_for_the_target_in_the_rollouts_only() -> None:
    """With ``model`` the rollouts seat the model where the target sits, and the games are
    still played against the real target: the score is the exploiter's points against it."""
    lbr = LocalBestResponse("rummy432_v0", "expert", model="planner", **FAST)
    assert not lbr._agent(1, False, 7).remembers  # a planner, not the remembering expert
    assert type(lbr._agent(1, False, 7)) is type(agents.make_agent("rummy432_v0", "planner", seed=7))
    assert lbr.settings()["model"] == "planner" and "model" not in LocalBestResponse("rummy432_v0", "expert",
                                                                                       **FAST).settings()
    res = local_best_response("greedy", "line_v0", games=4, seed=7, model="random", **FAST)
    pts = []
    for g in range(4):  # the real greedy target in the games, the random model only in the rollouts
        game = cardenvs.game_class("line_v0")(2)
        rng = np.random.default_rng(7 + g // 2)
        state = game.new_state(rng)
        lbr = LocalBestResponse("line_v0", "greedy", seed=(7 + g // 2) * 31 + g % 2, model="random", **FAST)
        other = agents.make_agent("line_v0", "greedy", seed=(7 + g // 2) * 31 + 1 - g % 2)
        play(game, state, [lbr, other] if g % 2 == 0 else [other, lbr], rng)
        pts.append(points(game.returns(state))[g % 2])
    assert res.plain_share == pytest.approx(sum(pts) / 4) and res.settings["model"] == "random"
    with pytest.raises(ValueError, match="model 'godlike'.*levels are"):
        LocalBestResponse("line_v0", "greedy", model="godlike", **FAST)
