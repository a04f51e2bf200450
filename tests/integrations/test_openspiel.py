"""The OpenSpiel adapter (cardenvs.integrations.openspiel) and the ISMCTS agent.

Skipped without open-spiel (the ``openspiel`` extra).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="needs open-spiel (pip install cardenvs[openspiel])")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

import cardenvs  # noqa: E402
from agents.players.ismcts import ISMCTSAgent, make_ismcts, parse_level  # noqa: E402
from cardenvs.core.loop import play  # noqa: E402
from cardenvs.integrations import openspiel as osp  # noqa: E402

ENVS = ("line_v0", "lineit_v0", "rummy432_v0")
#: options that keep a whole Rummy game short (one round, a turn cap) where whole games are played
SHORT = {"line_v0": {}, "lineit_v0": {}, "rummy432_v0": {"rounds_to_win": 1, "max_turns_per_round": 60}}


def _random_states(game: Any, count: int, seed: int) -> list[Any]:
    """Non-terminal OpenSpiel states met along random games (several depths)."""
    rng = np.random.default_rng(seed)
    out: list[Any] = []
    while len(out) < count:
        state = game.new_initial_state()
        stop = int(rng.integers(0, 60))
        for _ in range(stop):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
        if not state.is_terminal():
            out.append(state)
    return out


# ----------------------------------------------------------------- the game type


def test_every_game_is_registered_under_its_short_name() -> None:
    assert osp.SHORT_NAMES == {
        "line_v0": "python_cardenvs_line",
        "lineit_v0": "python_cardenvs_lineit",
        "rummy432_v0": "python_cardenvs_rummy432",
    }
    names = pyspiel.registered_names()
    for name in osp.SHORT_NAMES.values():
        assert name in names


@pytest.mark.parametrize("env", ENVS)
def test_game_type_and_info(env: str) -> None:
    two = osp.load_game(env, 2)
    t = two.get_type()
    assert t.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    # the information state is the player's history (a string); a history has no fixed-size tensor
    assert t.provides_information_state_string and not t.provides_information_state_tensor
    assert t.provides_observation_string and t.provides_observation_tensor
    assert t.utility == pyspiel.GameType.Utility.ZERO_SUM and two.utility_sum() == 0.0
    assert (two.min_utility(), two.max_utility()) == (-1.0, 1.0)
    assert two.num_distinct_actions() == cardenvs.game_class(env).num_actions
    assert two.observation_tensor_size() == cardenvs.game_class(env).observation_size()
    three = osp.load_game(env, 3)
    assert three.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert three.utility_sum() is None


def test_max_game_length_bounds() -> None:
    assert osp.load_game("line_v0", 2).max_game_length() == 183
    assert osp.load_game("line_v0", 4).max_game_length() == 169
    assert osp.load_game("lineit_v0", 2).max_game_length() == 158
    assert osp.load_game("lineit_v0", 5).max_game_length() == 230
    assert osp.load_game("rummy432_v0", 2).max_game_length() == 10_000
    assert osp.load_game("rummy432_v0", 3, rounds_to_win=2, max_turns_per_round=50).max_game_length() == 400


@pytest.mark.parametrize("env", ENVS)
@pytest.mark.parametrize("players", [2, 3])
def test_random_games_stay_within_max_game_length(env: str, players: int) -> None:
    rules = cardenvs.game_class(env)(players, **SHORT[env])
    bound = osp.max_game_length(rules)
    rng = np.random.default_rng(players)
    for _ in range(15 if env != "rummy432_v0" else 8):
        state = rules.new_state(rng)
        moves = 0
        while not rules.is_terminal(state):
            legal = rules.legal_actions(state)
            rules.apply(state, legal[int(rng.integers(len(legal)))], rng)
            moves += 1
        assert moves <= bound


def test_parameters_by_game_string_and_none_options() -> None:
    game = pyspiel.load_game("python_cardenvs_rummy432(num_players=3,run_out_limit=0,hand_size=6)")
    assert isinstance(game, osp.CardenvsGame)
    assert game.rules.num_players == 3
    assert game.rules.options["run_out_limit"] is None and game.rules.options["hand_size"] == 6
    assert osp.load_game("rummy432_v0", 2, run_out_limit=None).rules.options["run_out_limit"] is None
    line = osp.load_game("line_v0", 3, joker_points=10)
    assert str(line) == "python_cardenvs_line(joker_points=10,num_players=3,rng_seed=-1)"
    with pytest.raises(cardenvs.OptionError):
        osp.load_game("rummy432_v0", 2, pack="four", hand_size=9)


def test_rng_seed_fixes_the_deals_and_cloning_does_not_shift_them() -> None:
    a = osp.load_game("rummy432_v0", 2, rng_seed=11)
    b = osp.load_game("rummy432_v0", 2, rng_seed=11)
    a1, b1 = a.new_initial_state(), b.new_initial_state()
    assert str(a1) == str(b1)
    for _ in range(3):  # clone() calls new_initial_state() inside: no deal may be drawn by it
        assert str(a1.clone()) == str(a1)
    assert str(a.new_initial_state()) == str(b.new_initial_state())
    fresh = a.new_initial_state()
    assert str(fresh.clone()) == str(fresh)  # cloning an untouched state deals it first


# --------------------------------------------------------- OpenSpiel's own checks


@pytest.mark.parametrize("env", ENVS)
def test_openspiel_random_sim_test(env: str) -> None:
    """OpenSpiel's C++ consistency checks (legal actions sorted and empty for others,
    masks, unique action strings, clone equality, observations, returns and utility sum,
    game length).  ``serialize=False``: serialising a SAMPLED_STOCHASTIC game needs
    ``Game::GetRNGState``, which a Python game cannot provide."""
    for players in (2, 3):
        game = osp.load_game(env, players, rng_seed=players, **SHORT[env])
        pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_state_serialize_and_deserialize() -> None:
    game = osp.load_game("line_v0", 2, rng_seed=3)
    state = _random_states(game, 1, 0)[0]
    copy = game.deserialize_state(state.serialize())
    assert str(copy) == str(state)
    assert copy.history() == state.history()
    assert copy.chance_seed == state.chance_seed


# ------------------------------------------------------------------------- clones


@pytest.mark.parametrize("env", ENVS)
def test_clones_are_independent(env: str) -> None:
    game = osp.load_game(env, 2, rng_seed=5)
    for state in _random_states(game, 4, 1):
        before, history = str(state), state.history()
        clone = state.clone()
        assert str(clone) == before and clone.history() == history
        clone.apply_action(clone.legal_actions()[-1])
        assert str(state) == before and state.history() == history
        assert state.core_state() is not clone.core_state()


def test_a_clone_replays_the_same_chance() -> None:
    """Rummy reshuffles with the state's own seed, which the clone copies: the same
    moves give the same reshuffled piles and next deals."""
    game = osp.load_game("rummy432_v0", 2, rng_seed=2, rounds_to_win=2)
    state = game.new_initial_state()
    clone = state.clone()
    rng = np.random.default_rng(0)
    rounds = set()
    while not state.is_terminal():
        legal = state.legal_actions()
        action = legal[int(rng.integers(len(legal)))]
        state.apply_action(action)
        clone.apply_action(action)
        assert str(state) == str(clone)
        rounds.add(state.core_state().round)
    assert len(rounds) >= 2  # a later round was dealt from the state's own chance


# ---------------------------------------------------------- information and views


@pytest.mark.parametrize("env", ENVS)
def test_observation_strings_and_tensors_are_the_view(env: str) -> None:
    game = osp.load_game(env, 2, rng_seed=8)
    rules = game.rules
    for state in _random_states(game, 5, 2):
        for p in range(2):
            view = rules.view(state.core_state(), p)
            assert state.observation_string(p) == osp.view_text(view)
            np.testing.assert_array_equal(np.asarray(state.observation_tensor(p), np.float32),
                                          rules.encode(view))


@pytest.mark.parametrize("env", ENVS)
def test_observation_strings_equal_exactly_when_views_equal(env: str) -> None:
    game = osp.load_game(env, 2, rng_seed=9)
    rules = game.rules
    rng = np.random.default_rng(3)
    pairs = []
    for state in _random_states(game, 6, 3):
        for p in range(2):
            pairs.append((state, p))
            pairs.append((state.resample_with(p, rng), p))  # same View, other hidden cards
            pairs.append((state.resample_with(1 - p, rng), p))  # usually another View of p
    for s1, p1 in pairs:
        for s2, p2 in pairs:
            same_view = rules.view(s1.core_state(), p1) == rules.view(s2.core_state(), p2)
            assert (s1.observation_string(p1) == s2.observation_string(p2)) == same_view


@pytest.mark.parametrize("env", ENVS)
def test_information_state_is_the_players_history(env: str) -> None:
    """Perfect recall: the deal's View, then per move the mover (and the move, for the
    player's own), and the View after it; replayed, it is what was seen along the game."""
    game = osp.load_game(env, 2, rng_seed=11, **SHORT[env])
    rules = game.rules
    state = game.new_initial_state()
    seen: list[list[str]] = [[f"view {osp.view_text(state.view(p))}"] for p in range(2)]
    rng = np.random.default_rng(2)
    for k in range(1, 25):
        if state.is_terminal():
            break
        mover = state.current_player()
        action = int(rng.choice(state.legal_actions()))
        text = rules.describe_action(action)
        state.apply_action(action)
        for p in range(2):
            seen[p].append(f"move {k} seat {mover} {text}" if p == mover else f"move {k} seat {mover}")
            seen[p].append(f"view {osp.view_text(state.view(p))}")
        for p in range(2):
            assert state.information_state_string(p) == "\n".join(seen[p])
    clone = state.clone()
    assert clone.information_state_string(0) == state.information_state_string(0)
    with pytest.raises(Exception, match="no information-state tensor"):
        state.information_state_tensor(0)


@pytest.mark.parametrize("env", ENVS)
def test_information_states_tell_apart_what_views_forget(env: str) -> None:
    """Two histories that reach the same View differ as information states whenever
    the player saw something different on the way; the same history gives the same string."""
    game = osp.load_game(env, 2, rng_seed=12, **SHORT[env])
    a = game.new_initial_state()
    b = a.clone()
    rng = np.random.default_rng(4)
    for _ in range(6):
        if a.is_terminal():
            break
        action = int(rng.choice(a.legal_actions()))
        a.apply_action(action)
        b.apply_action(action)
    for p in range(2):
        assert a.information_state_string(p) == b.information_state_string(p)
        assert a.information_state_string(p).endswith(a.observation_string(p))
    # a different first move from the same deal: the mover remembers it
    c = game.new_initial_state()
    legal = c.legal_actions()
    if len(legal) > 1:
        d = c.clone()
        c.apply_action(legal[0])
        d.apply_action(legal[1])
        mover = 0
        assert c.information_state_string(mover) != d.information_state_string(mover)


def test_observers_are_the_players_own_view_only() -> None:
    game = osp.load_game("line_v0", 2)
    with pytest.raises(ValueError, match="own View"):
        game.make_py_observer(pyspiel.IIGObservationType(
            perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS))


# ------------------------------------------------------------------------- resampling


def _hidden(rules: Any, state: Any, player: int) -> str:
    """What ``player`` cannot see of a state: the other hands and the pile order."""
    obj = rules.to_json(state)
    hands = obj.get("hands")
    others = [h for q, h in enumerate(hands) if q != player] if isinstance(hands, list) else []
    piles = {k: v for k, v in obj.items() if k in ("draw_pile", "pile", "deck")}
    return repr((others, piles))


@pytest.mark.parametrize("env", ENVS)
def test_resampling_keeps_the_players_view_and_varies_the_rest(env: str) -> None:
    game = osp.load_game(env, 2, rng_seed=4)
    rules = game.rules
    sampler = pyspiel.UniformProbabilitySampler(7, 0.0, 1.0)
    for state in _random_states(game, 3, 4):
        for p in range(2):
            view = rules.view(state.core_state(), p)
            enc = rules.encode(view)
            hidden = set()
            for _ in range(25):
                other = state.resample_from_infostate(p, sampler)
                assert rules.view(other.core_state(), p) == view
                np.testing.assert_array_equal(rules.encode(rules.view(other.core_state(), p)), enc)
                assert other.current_player() == state.current_player()
                # the resampled state keeps the player's history (ISMCTS finds its root again)
                assert other.information_state_string(p) == state.information_state_string(p)
                assert other.observation_string(p) == state.observation_string(p)
                hidden.add(_hidden(rules, other.core_state(), p))
            assert len(hidden) > 1, "the hidden cards were never re-dealt"


@pytest.mark.parametrize("env", ENVS)
def test_resampling_reads_nothing_hidden(env: str) -> None:
    """Two states the player cannot tell apart resample identically with the same sampler."""
    game = osp.load_game(env, 2, rng_seed=6)
    rules = game.rules
    rng = np.random.default_rng(5)
    for state in _random_states(game, 3, 5):
        p = state.current_player()
        twin = game.wrap(rules.sample_state(rules.view(state.core_state(), p), rng), seed=rng)
        a = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(3, 0.0, 1.0))
        b = twin.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(3, 0.0, 1.0))
        assert str(a) == str(b) and a.chance_seed == b.chance_seed


# ---------------------------------------------------------------- ISMCTS plays games


def _ismcts_game(env: str, bot_for: Any, seed: int) -> Any:
    game = osp.load_game(env, 2, rng_seed=seed, **SHORT[env])
    state = game.new_initial_state()
    bots = [bot_for(game, p) for p in range(2)]
    while not state.is_terminal():
        state.apply_action(int(bots[state.current_player()].step(state)))
    return state


@pytest.mark.parametrize("env", ENVS)
def test_ismcts_bot_plays_whole_two_player_games(env: str) -> None:
    """OpenSpiel's ISMCTSBot, keyed on the View, with the adapter's fast rollouts."""

    def bot(game: Any, p: int) -> Any:
        b = ismcts.ISMCTSBot(game, osp.CoreRolloutEvaluator(max_moves=8, seed=p), 2.0, 6,
                             random_state=np.random.RandomState(p), use_observation_string=True)
        rng = np.random.default_rng(p)
        b.set_resampler(lambda state, player: state.resample_with(player, rng))
        return b

    state = _ismcts_game(env, bot, 1)
    assert state.is_terminal()
    assert sum(state.returns()) == 0.0 and sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])


def test_ismcts_bot_as_shipped_plays_a_whole_game() -> None:
    """The bot's defaults: information-state keys, the default resampler
    (``pyspiel.UniformProbabilitySampler``) and OpenSpiel's own random-rollout evaluator."""

    def bot(game: Any, p: int) -> Any:
        evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(p))
        return ismcts.ISMCTSBot(game, evaluator, 2.0, 4, random_state=np.random.RandomState(p))

    assert _ismcts_game("line_v0", bot, 2).is_terminal()


# ------------------------------------------------------------------------- the agent


def test_make_ismcts_and_level_names() -> None:
    assert parse_level("ismcts") is None and parse_level("ismcts:200") == 200
    for bad in ("ismcts:", "ismcts:0", "ismcts:x", "expert"):
        with pytest.raises(ValueError):
            parse_level(bad)
    agent = make_ismcts("line_v0", seed=1)
    assert isinstance(agent, ISMCTSAgent) and agent.name == "ismcts" and agent.simulations == 64
    assert make_ismcts("line_v0", 200).name == "ismcts:200"
    assert make_ismcts("line_v0", 12, name="Ann", depth=None).depth is None


@pytest.mark.parametrize("env", ENVS)
def test_agent_decides_from_the_view_alone_and_is_seeded(env: str) -> None:
    rules = cardenvs.game_class(env)(2)
    rng = np.random.default_rng(9)
    checked = 0
    state = rules.new_state(rng)
    while checked < 2 and not rules.is_terminal(state):
        legal = rules.legal_actions(state)
        if len(legal) > 1:
            p = rules.current_player(state)
            view = rules.view(state, p)
            twin = rules.sample_state(view, rng)  # the same View, other hidden cards
            moves = {make_ismcts(env, 8, seed=4).choose(rules, rules.view(s, p), list(legal))
                     for s in (state, twin, state)}
            assert len(moves) == 1 and moves <= set(legal)
            checked += 1
        rules.apply(state, legal[int(rng.integers(len(legal)))], rng)
    assert checked == 2


@pytest.mark.parametrize("env", ENVS)
def test_agent_plays_a_whole_game_in_the_play_loop(env: str) -> None:
    rules = cardenvs.game_class(env)(2, **SHORT[env])
    rng = np.random.default_rng(1)
    state = rules.new_state(rng)
    from agents.players.ladder import make_agent

    play(rules, state, [make_ismcts(env, 6, seed=0), make_agent(env, "greedy", seed=1)], rng)
    assert rules.is_terminal(state)
