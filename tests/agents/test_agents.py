"""Every ladder level and the coach, for every game: legal, deterministic, honest."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import agents
import cardenvs
from agents.evaluation.tournament import Match, play_match
from cardenvs.core.game import Game

ENV_NAMES = list(cardenvs.ENVS)


def _positions(env_name: str, players: int, seed: int, count: int) -> list[tuple[Game[Any, Any], Any, int]]:
    """(game, state, player) at a few decision points of random play."""
    game = cardenvs.game_class(env_name)(players)
    rng = np.random.default_rng(seed)
    state = game.new_state(rng)
    out: list[tuple[Game[Any, Any], Any, int]] = []
    step = 0
    while not game.is_terminal(state) and not game.is_truncated(state) and len(out) < count:
        if step % 7 == 3:
            out.append((game, game.clone(state), game.current_player(state)))
        legal = game.legal_actions(state)
        game.apply(state, legal[int(rng.integers(len(legal)))], rng)
        step += 1
    return out


def _obs(game, state, p):
    return {"observation": game.observe(state, p), "action_mask": game.legal_mask(state)}


def test_api_errors() -> None:
    with pytest.raises(ValueError, match="levels are"):
        agents.make_agent("line_v0", "godlike")
    with pytest.raises(ValueError, match="environments are"):
        agents.levels("chess_v0")
    for env_name in ENV_NAMES:
        ladder = agents.levels(env_name)
        unranked = agents.unranked_levels(env_name)
        ranked = [lvl for lvl in ["random", "greedy", "planner", "expert"] if lvl not in unranked]
        assert [lvl for lvl in ladder if lvl != "trained"] == ranked
        playable = agents.playable_levels(env_name)
        assert set(playable) == set(ladder) | set(unranked) and set(ladder).isdisjoint(unranked)
        for level, peer in unranked.items():  # an unranked level is listed beside its peer
            assert peer in ladder and playable.index(level) > playable.index(peer)


def test_the_ladder_lists_only_what_was_measured() -> None:
    # Rummy's expert ties the planner (docs/results/ladder/README.md): it is unranked, off the
    # ordered ladder and playable beside the planner; Line's and Line-it's experts are ranked
    assert "expert" not in agents.levels("rummy432_v0")
    assert agents.unranked_levels("rummy432_v0")["expert"] == "planner"
    assert "expert" in agents.playable_levels("rummy432_v0")
    for env_name in ("line_v0", "lineit_v0"):
        assert agents.levels(env_name)[-1] == "expert" and "expert" not in agents.unranked_levels(env_name)


@pytest.mark.parametrize("env_name", ENV_NAMES)
def test_named_opponents(env_name: str) -> None:
    opp = agents.opponents(env_name, "greedy", 2, seed=1)
    assert len(opp) == 2 and len({a.name for a in opp}) == 2
    if env_name == "rummy432_v0":
        assert [a.name for a in agents.opponents(env_name, "planner", 4)] == ["Rosie", "Dev", "Mags", "Theo"]


@pytest.mark.parametrize("env_name", ENV_NAMES)
@pytest.mark.parametrize("level", ["greedy", "planner", "expert"])
def test_levels_pick_legal_moves_and_are_deterministic(env_name: str, level: str) -> None:
    game_cls = cardenvs.game_class(env_name)
    for players in range(game_cls.min_players, game_cls.max_players + 1):
        count = 3 if level == "expert" else 6
        for game, state, p in _positions(env_name, players, seed=players, count=count):
            obs = _obs(game, state, p)
            a1 = agents.make_agent(env_name, level, seed=5).act(obs)
            a2 = agents.make_agent(env_name, level, seed=5).act(obs)
            assert a1 == a2
            assert obs["action_mask"][a1] == 1


@pytest.mark.parametrize("env_name", ENV_NAMES)
def test_whole_games_between_levels_are_legal(env_name: str) -> None:
    game_cls = cardenvs.game_class(env_name)
    for players in range(game_cls.min_players, game_cls.max_players + 1):
        seats = tuple(["greedy", "planner", "random", "greedy", "planner"][:players])
        res = play_match(Match(env_name, seats, seed=players))  # apply() refuses illegal moves
        assert res.steps > 0


@pytest.mark.parametrize("env_name", ENV_NAMES)
@pytest.mark.parametrize("level", ["planner", "expert"])
def test_advice_and_moves_ignore_hidden_cards(env_name: str, level: str) -> None:
    """Same observation, same advice: re-dealing what the player cannot see changes nothing."""
    coach = agents.Coach(env_name, level=level)
    for game, state, p in _positions(env_name, 3, seed=11, count=2):
        view = game.view(state, p)
        other = game.sample_state(view, np.random.default_rng(99))
        o1, o2 = _obs(game, state, p), _obs(game, other, p)
        np.testing.assert_array_equal(o1["observation"], o2["observation"])
        assert [a.action for a in coach.advise(o1)] == [a.action for a in coach.advise(o2)]
        agent = agents.make_agent(env_name, level, seed=3)
        first = agent.act(o1)
        agent.seed(3)
        assert agent.act(o2) == first


@pytest.mark.parametrize("env_name", ENV_NAMES)
def test_advice_covers_every_legal_move_with_reasons(env_name: str) -> None:
    coach = agents.Coach(env_name)
    kinds = set()
    for game, state, p in _positions(env_name, 2, seed=4, count=12):
        obs = _obs(game, state, p)
        advice = coach.advise(obs)
        assert sorted(a.action for a in advice) == sorted(np.flatnonzero(obs["action_mask"]).tolist())
        for a in advice:
            assert a.move == game.action_to_str(a.action)
            assert len(a.reason) > 8, a
            kinds.add(a.move.split()[0])
    assert len(kinds) >= 2


def test_schedule_rotates_seats_and_orders() -> None:
    from agents.evaluation.tournament import schedule

    two = schedule("line_v0", ["random", "greedy"], 2, 4)
    assert [m.seats for m in two] == [("random", "greedy"), ("greedy", "random")] * 2
    assert [m.seed for m in two] == [0, 0, 1, 1]
    three = schedule("line_v0", ["a", "b", "c"], 3, 6)
    # each deal is played in every rotation; the two cyclic orders alternate between deals
    assert {m.seats for m in three[:3]} == {("a", "b", "c"), ("c", "a", "b"), ("b", "c", "a")}
    assert {m.seats for m in three[3:]} == {("a", "c", "b"), ("b", "a", "c"), ("c", "b", "a")}
    assert [m.seed for m in three] == [0, 0, 0, 1, 1, 1]


@pytest.mark.parametrize("env_name", ENV_NAMES)
def test_grouped_advice_never_ranks_equal_moves_apart(env_name: str) -> None:
    coach = agents.Coach(env_name)
    grouped_somewhere = False
    for game, state, p in _positions(env_name, 2, seed=11, count=12):
        legal = game.legal_actions(state)
        view = game.view(state, p)
        flat = coach.advise_view(game, view, legal)
        groups = coach.advise_view(game, view, legal, group=True)
        # every legal move appears once, either as a group's head or among its equals
        moves = [m for g in groups for m in (g.move, *g.equals)]
        assert sorted(moves) == sorted(a.move for a in flat)
        values = [g.value for g in groups]
        assert all(a > b + 1e-9 for a, b in zip(values, values[1:]))  # strictly better first
        head = {a.move: a.value for a in flat}
        for g in groups:
            assert all(abs(head[m] - g.value) <= 1e-9 for m in g.equals)
        grouped_somewhere |= any(g.equals for g in groups)
        assert coach.advise_view(game, view, legal, top=2, group=True) == groups[:2]
    assert grouped_somewhere  # equal moves do occur, and were folded


def test_points_split_a_shared_win() -> None:
    from agents.evaluation.tournament import points

    assert points([1.0, -1.0]) == [1.0, 0.0]
    assert points([1.0, 1.0, -1.0, -1.0]) == [0.5, 0.5, 0.0, 0.0]
    assert points([0.0, 0.0]) == [0.5, 0.5]
