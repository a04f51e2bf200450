"""Per-action scorer policies: their inputs, the numpy player, the torch twin and distillation.

* The heuristic facts say what the heuristics say (the best move, its margin, ranks).
* Line-it's own facts on an exact position have the values the rules give.
* A saved policy loads to the same logits; a file of another feature layout is refused.
* The numpy policy computes what its torch twin computes, and ``TrainedAgent`` plays a
  scorer file the same from an env observation as from the View.
* ``experiments/distill.py`` labels only the student seat's real decisions with the
  teacher's choice from that seat's View.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import agents
import cardenvs
from agents.games.lineit import LineItKnowledge
from agents.players.scorer import FEATURES_VERSION, ScorerPolicy, action_features, heuristic_features
from agents.players.trained import TrainedAgent
from cardenvs.core.game import Game
from cardenvs.core.loop import play

ROOT = Path(__file__).resolve().parents[2]
ENVS = list(cardenvs.ENVS)


def _positions(env_name: str, games: int = 2, seed: int = 3) -> list[tuple[Game[Any, Any], Any, list[int]]]:
    """``(game, view, legal)`` of every decision with two or more moves in a few greedy games."""
    game = cardenvs.game_class(env_name)(2)
    rng = np.random.default_rng(seed)
    out: list[tuple[Game[Any, Any], Any, list[int]]] = []
    seats = [agents.make_agent(env_name, "greedy", seed=i) for i in range(2)]
    for _ in range(games):
        play(game, game.new_state(rng), seats, rng,
             on_move=lambda t: out.append((game, t.view, t.legal)) if len(t.legal) > 1 else None)
    return out


@pytest.mark.parametrize("env_name", ENVS)
def test_heuristic_facts_name_the_heuristics_best_moves(env_name: str) -> None:
    know = agents.knowledge(env_name)
    positions = _positions(env_name)
    assert positions
    for game, view, legal in positions[:60]:
        f = heuristic_features(know, game, view, legal)
        assert f.shape == (len(legal), 11) and f.dtype == np.float32
        assert np.allclose(f[:, 0], 1 / len(legal))
        for j, depth in enumerate((1, 2)):
            s = np.asarray(know.scores(game, view, legal, depth), np.float64)
            col = 1 + 5 * j
            np.testing.assert_array_equal(f[:, col] == 1, s >= s.max() - 1e-9)
            assert (f[:, col + 1] <= 0).all() and (f[:, col + 1] >= -1).all()
            assert (f[:, col + 2] <= 0).all()
            # ranks: the best move ranks 0, worse scores never rank ahead of better ones
            assert f[int(np.argmax(s)), col + 3] == 0
            order = np.argsort(-s, kind="stable")
            assert (np.diff(f[order, col + 3]) > 0).all()
            assert f[:, col + 4].sum() <= 1


def test_lineit_facts_of_an_exact_position() -> None:
    """Line 10 20 30 (ascending, 70 values of room), market 31 60 85 5, empty hand."""
    game = cardenvs.game_class("lineit_v0")(2)
    obj = {"game": "lineit", "num_players": 2, "market": [31, 60, 85, 5],
           "lines": [[10, 20, 30], []], "hands": [[], []],
           "jackpots": {"red": [], "blue": [], "green": [], "yellow": []}, "scored": [[], []],
           "tokens": [[], []], "discarded": [], "first": 0, "current": 0, "phase": "pick",
           "picks_left": 2, "played_hand": False}
    used = {10, 20, 30, 31, 60, 85, 5}
    obj["deck"] = [c for c in range(1, 101) if c not in used] + ["B3", "B3", "B4", "B4", "B5", "B5"]
    state = game.from_json(obj)
    view = game.view(state, 0)
    legal = game.legal_actions(state)
    facts = LineItKnowledge().action_facts(game, view, legal)
    assert facts.shape == (len(legal), 18)
    by_move = {game.action_to_str(a): facts[i] for i, a in enumerate(legal)}
    assert sorted(by_move) == ["pick 31 hand", "pick 31 line", "pick 5 hand", "pick 60 hand",
                               "pick 60 line", "pick 85 hand", "pick 85 line"]
    f31, f60, f5 = by_move["pick 31 line"], by_move["pick 60 line"], by_move["pick 5 hand"]
    assert f31[0] == 1 and f31[1:6].sum() == 0  # kind: onto the line
    assert f31[7] == 1 and f31[8] == 0  # fits, no gap
    assert f31[9] == pytest.approx((100 - 31) / 99)  # room left beyond it
    assert f60[7] == 1 and f60[8] == pytest.approx(29 / 70)  # skips 29 of the 70 values left
    assert f5[1] == 1 and f5[7] == 0 and f5[8] == 1  # to the hand; does not fit a line rising from 30
    assert f31[10] == 0  # the direction is already set
    # the position's own facts: empty hand, three cards, 70 values of room, no bet owed
    np.testing.assert_allclose(f31[14:18], [0, 0.3, 70 / 99, 0], atol=1e-6)
    assert by_move["pick 31 hand"][1] == 1 and by_move["pick 31 hand"][7] == 1


def _random_policy(env_name: str, trunk: bool, seed: int = 0) -> ScorerPolicy:
    game = cardenvs.game_class(env_name)(2)
    rng = np.random.default_rng(seed)
    game_, view, legal = _positions(env_name, 1)[0]
    nf = action_features(agents.knowledge(env_name), game_, view, legal).shape[1]
    obs = game.observation_size()
    sizes = [obs, 32, game.num_actions]
    tw = [rng.normal(0, 0.2, (sizes[i + 1], sizes[i])) for i in range(2)] if trunk else []
    tb = [rng.normal(0, 0.1, sizes[i + 1]) for i in range(2)] if trunk else []
    hw = [rng.normal(0, 0.5, (16, nf)), rng.normal(0, 0.5, (1, 16))]
    hb = [rng.normal(0, 0.1, 16), rng.normal(0, 0.1, 1)]
    scale = rng.uniform(0.01, 1, obs) if trunk else None
    return ScorerPolicy(tw, tb, hw, hb, scale, {"env": env_name})


@pytest.mark.parametrize("trunk", [True, False])
def test_saved_policy_loads_to_the_same_logits(tmp_path: Path, trunk: bool) -> None:
    policy = _random_policy("lineit_v0", trunk)
    path = tmp_path / "p.npz"
    policy.save(path)
    again = ScorerPolicy.load(path)
    know = agents.knowledge("lineit_v0")
    for game, view, legal in _positions("lineit_v0", 1)[:20]:
        feats = action_features(know, game, view, legal)
        obs = game.encode(view)
        np.testing.assert_array_equal(policy.legal_logits(obs, legal, feats),
                                      again.legal_logits(obs, legal, feats))
    with pytest.raises(ValueError, match="expected features of shape"):
        again.legal_logits(obs, legal, feats[:, :-1])


def test_a_file_of_another_feature_layout_or_kind_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "p.npz"
    _random_policy("lineit_v0", False).save(path)
    with np.load(path) as z:
        arrays = dict(z)
    arrays["features_version"] = np.array(FEATURES_VERSION + 1)
    np.savez(path, **arrays)
    with pytest.raises(ValueError, match="feature layout"):
        ScorerPolicy.load(path)
    flat = tmp_path / "flat.npz"
    np.savez(flat, num_layers=np.array(0), activation=np.array("relu"))
    with pytest.raises(ValueError, match="not a scorer policy"):
        ScorerPolicy.load(flat)


@pytest.mark.parametrize("env_name", ENVS)
def test_trained_agent_plays_a_scorer_file_the_same_from_the_env_and_the_view(tmp_path: Path,
                                                                              env_name: str) -> None:
    path = tmp_path / "p.npz"
    _random_policy(env_name, True).save(path)
    env = cardenvs.make(env_name, num_players=2)
    env.reset(seed=5)
    a = TrainedAgent(env_name, path, seed=0)
    b = TrainedAgent(env_name, path, seed=0)
    game = cardenvs.game_class(env_name)(2)
    moves = 0
    for _agent in env.agent_iter():
        obs, _r, term, trunc, _info = env.last()
        if term or trunc:
            env.step(None)
            continue
        from_env = a.act(obs)
        view = game.decode(obs["observation"])
        legal = np.flatnonzero(obs["action_mask"]).tolist()
        assert from_env == b.choose(game, view, legal)
        assert from_env in legal
        env.step(from_env)
        moves += 1
        if moves > 150:
            break
    assert moves > 10


def test_numpy_policy_matches_its_torch_twin() -> None:
    torch = pytest.importorskip("torch")
    from experiments import distill

    know = agents.knowledge("lineit_v0")
    positions = _positions("lineit_v0", 1)[:30]
    game = positions[0][0]
    nf = action_features(know, *positions[0]).shape[1]
    obs_size = game.encode(positions[0][1]).size
    torch.manual_seed(0)
    model = distill.build_model(obs_size, game.num_actions, nf, [32], [16, 16],
                                np.random.default_rng(0).uniform(0.01, 1, obs_size).astype(np.float32))
    policy = distill.export(model, {})
    for g, view, legal in positions:
        feats = action_features(know, g, view, legal)
        obs = g.encode(view)
        with torch.no_grad():
            want = model(torch.as_tensor(obs)[None], torch.as_tensor([legal]),
                         torch.as_tensor(feats)[None])[0]
        np.testing.assert_allclose(policy.legal_logits(obs, legal, feats), want.numpy(), rtol=1e-4, atol=1e-4)


def test_distillation_labels_the_students_decisions_with_the_teachers_choice() -> None:
    from experiments import distill

    job = distill.Job("lineit_v0", 2, "random", ("greedy",), "greedy", 0, 3, 7)
    data = distill.label_games(job)
    game = cardenvs.game_class("lineit_v0")(2)
    know = agents.knowledge("lineit_v0")
    assert len(data) > 50 and data.start[-1] == len(data.legal) == len(data.feats)
    assert set(data.game.tolist()) == {0, 1, 2}
    for i in range(len(data)):
        view = game.decode(data.obs[i].astype(np.float32))
        assert view.seat == data.game[i] % 2, "only the student's seat is labelled"
        legal = data.legal[data.start[i]:data.start[i + 1]].tolist()
        assert len(legal) >= 2, "forced moves teach nothing and are skipped"
        state = game.sample_state(view, np.random.default_rng(0))
        assert sorted(game.legal_actions(state)) == sorted(legal)
        # the label is one of greedy's best moves from this very view (greedy breaks ties at random)
        s = np.asarray(know.scores(game, view, legal, 1))
        assert s[data.label[i]] >= s.max() - 1e-9
        np.testing.assert_allclose(data.feats[data.start[i]:data.start[i + 1]],
                                   action_features(know, game, view, legal))


def test_soft_targets_follow_the_search_values() -> None:
    from experiments import distill

    v = np.array([0.1, np.nan, 0.3, 0.2], np.float32)
    np.testing.assert_array_equal(distill.targets(v, 2, 0.0), [0, 0, 1, 0])  # hard: the choice
    t = distill.targets(v, 2, 0.1)
    assert t[1] == 0 and t.sum() == pytest.approx(1) and t[2] > t[3] > t[0] > 0
    assert t[2] / t[3] == pytest.approx(np.e, rel=1e-5)  # softmax(value / tau)
    # one searched move or none: the choice
    np.testing.assert_array_equal(distill.targets(np.array([np.nan, 0.5, np.nan]), 1, 0.1), [0, 1, 0])


def test_a_search_teacher_gives_its_choice_and_the_values_behind_it() -> None:
    from experiments import distill

    know = agents.knowledge("lineit_v0")
    positions = [p for p in _positions("lineit_v0", 1) if len(p[2]) >= 3][:3]
    for game, view, legal in positions:
        teacher = agents.make_agent("lineit_v0", "expert", seed=1)
        choice, values = distill.teach(teacher, know, game, view, legal)
        again = agents.make_agent("lineit_v0", "expert", seed=1).choose(game, view, legal)
        assert choice == again, "the label is the move the expert itself plays"
        assert values.shape == (len(legal),) and np.isfinite(values).sum() >= 2
        assert values[legal.index(choice)] == np.nanmax(values)
    greedy = agents.make_agent("lineit_v0", "greedy", seed=1)
    _c, v = distill.teach(greedy, know, *positions[0])
    assert np.isnan(v).all(), "a heuristic teacher gives no search values"


def test_distillation_end_to_end_exports_a_playable_ranked_policy(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    from experiments import distill

    export = tmp_path / "shipped.npz"
    summary = distill.main(["--env", "rummy432_v0", "--teacher", "planner", "--student", "greedy",
                            "--opponents", "greedy", "--games", "6", "--dagger", "1", "--dagger-games", "4",
                            "--epochs", "1", "--eval-levels", "greedy", "--eval-games", "4",
                            "--out", str(tmp_path / "run"), "--export", str(export),
                            "--ladder-after", "greedy"])
    assert [r["round"] for r in summary["rounds"]] == [0, 1]
    r0, r1 = summary["rounds"]
    assert r1["decisions_total"] == r0["decisions"] + r1["decisions"] > 0
    res = summary["eval"]["greedy"]
    assert res["games"] == 4 and 0 <= res["low"] <= res["share"] <= res["high"] + 1e-9 <= 1 + 1e-9
    policy = ScorerPolicy.load(export)
    assert policy.meta["ladder_after"] == "greedy" and policy.meta["env"] == "rummy432_v0"
    game = cardenvs.game_class("rummy432_v0")(2)
    seats = [TrainedAgent("rummy432_v0", export, seed=0), agents.make_agent("rummy432_v0", "greedy", seed=1)]
    rng = np.random.default_rng(0)
    state = game.new_state(rng)
    assert play(game, state, seats, rng) > 0  # apply() refuses illegal moves


def test_distillation_reuses_and_extends_saved_labels(tmp_path: Path) -> None:
    """``--data``: a second run fits the labels an earlier one saved, then adds its DAgger rounds
    to the same file (this path once crashed writing its round-0 summary)."""
    pytest.importorskip("torch")
    from experiments import distill

    common = ["--env", "rummy432_v0", "--teacher", "planner", "--student", "greedy", "--opponents", "greedy",
              "--epochs", "1", "--eval-levels"]
    first = distill.main([*common, "--games", "4", "--dagger", "0", "--out", str(tmp_path / "a")])
    saved = tmp_path / "a" / "labels.npz"
    n0 = first["rounds"][0]["decisions"]
    second = distill.main([*common, "--data", str(saved), "--dagger", "1", "--dagger-games", "3",
                           "--soft", "0.05", "--out", str(tmp_path / "b")])
    r0, r1 = second["rounds"]
    assert r0 == {"round": 0, "data": str(saved), "decisions": n0, **{k: r0[k] for k in
                  ("fitted", "held_out", "epoch", "fit_seconds", "decisions_total")}}
    assert r0["decisions_total"] == n0 and r1["decisions"] > 0
    assert r1["decisions_total"] == n0 + r1["decisions"]
    with np.load(saved) as z:
        assert len(z["label"]) == n0 + r1["decisions"], "the DAgger round's labels were added to the file"
    assert (tmp_path / "b" / "policy.npz").exists()


@pytest.mark.parametrize("env_name", ["line_v0", "lineit_v0", "rummy432_v0"])
def test_the_oracle_teacher_sees_the_other_hands_but_not_the_pile_order(env_name: str) -> None:
    from experiments import distill, oracle

    game = cardenvs.game_class(env_name)(2)
    rng = np.random.default_rng(4)
    state = game.new_state(rng)
    for _ in range(6):  # a few moves in, so the position is not the deal
        game.apply(state, game.legal_actions(state)[0])
    teacher, know = distill.make_teacher(env_name, "oracle", {}, seed=0)
    assert teacher.name == "oracle"
    know.true_state = state
    pile = oracle.HIDDEN_PILE[env_name]
    view = game.view(state, game.current_player(state))
    worlds = [know.sample_state(game, view, np.random.default_rng(k)) for k in range(3)]
    for world in worlds:
        assert world is not state and world.hands == state.hands, "every hand is the true one"
        assert sorted(getattr(world, pile)) == sorted(getattr(state, pile))
    assert len({tuple(getattr(w, pile)) for w in worlds}) > 1, "the pile order is re-drawn"
    assert game.legal_actions(worlds[0]) == game.legal_actions(state)


@pytest.mark.parametrize("text, words", [
    ('{"simulation": 4}', "unknown key(s) simulation; allowed: simulations, depth"),
    ("{simulations: 4}", "not JSON"),
    ("[32]", "must be a JSON object"),
    ('{"simulations": 0}', "simulations must be a whole number >= 1"),
    ('{"depth": 2.5}', "depth must be a whole number >= 1"),
    ('{"max_candidates": true}', "max_candidates must be a whole number >= 1"),
    ('{"paired": 1}', "paired must be true or false"),
    ('{"prior_weight": "x"}', "prior_weight must be a number"),
])
def test_a_bad_teacher_budget_is_refused_before_any_work(tmp_path: Path, text: str, words: str) -> None:
    from experiments import distill

    out = tmp_path / "run"
    with pytest.raises(ValueError, match="--teacher-budget.*" + re.escape(words)):
        distill.main(["--env", "lineit_v0", "--teacher", "expert", "--teacher-budget", text,
                      "--out", str(out)])
    assert not out.exists(), "nothing was started or written"
    with pytest.raises(ValueError, match="changes a search teacher"):
        distill.parse_budget('{"simulations": 4}', "planner")


def test_a_teacher_budget_is_laid_over_the_experts_search() -> None:
    from agents.players.knowledge import spec
    from agents.players.search import SearchAgent
    from experiments import distill

    base = spec("lineit_v0").expert_budget
    budget = distill.parse_budget('{"simulations": 7, "paired": true}', "expert")
    teacher, oracle = distill.make_teacher("lineit_v0", "expert", budget, seed=3)
    assert isinstance(teacher, SearchAgent) and oracle is None
    assert (teacher.simulations, teacher.paired) == (7, True)
    assert (teacher.depth, teacher.max_candidates) == (base["depth"], base["max_candidates"])
    plain, _ = distill.make_teacher("lineit_v0", "expert", {}, seed=3)
    assert (plain.simulations, plain.paired) == (base["simulations"], base.get("paired", False))
    # the labelling loop builds the same teacher from the job's JSON
    game, view, legal = [p for p in _positions("lineit_v0", 1) if len(p[2]) >= 3][0]
    same = distill.parse_budget('{"paired": true, "simulations": 7}', "expert")
    again, _ = distill.make_teacher("lineit_v0", "expert", same, seed=3)
    assert teacher.choose(game, view, legal) == again.choose(game, view, legal)


def test_init_fine_tunes_the_saved_policy_itself(tmp_path: Path) -> None:
    """``--init``: the torch twin of a policy file has its weights (same logits), a file that
    does not fit the game is refused, and a run that trains no epoch exports the same policy."""
    torch = pytest.importorskip("torch")
    from experiments import distill

    shipped = ROOT / "agents" / "policies" / "lineit_v0.npz"
    policy = ScorerPolicy.load(shipped)
    know = agents.knowledge("lineit_v0")
    positions = _positions("lineit_v0", 1)[:20]
    game = positions[0][0]
    obs_size = game.encode(positions[0][1]).size
    model = distill.model_from_policy(policy, obs_size, game.num_actions, policy.num_features)
    for g, view, legal in positions:
        feats = action_features(know, g, view, legal)
        obs = g.encode(view)
        with torch.no_grad():
            got = model(torch.as_tensor(obs)[None], torch.as_tensor([legal]), torch.as_tensor(feats)[None])[0]
        np.testing.assert_allclose(got.numpy(), policy.legal_logits(obs, legal, feats), rtol=1e-4, atol=1e-4)
    with pytest.raises(ValueError, match="reads 29 facts per move, this game's moves have 11"):
        distill.model_from_policy(policy, obs_size, game.num_actions, 11)
    with pytest.raises(ValueError, match="trunk maps"):
        distill.model_from_policy(policy, obs_size + 1, game.num_actions, policy.num_features)
    summary = distill.main(["--env", "lineit_v0", "--teacher", "greedy", "--student", "greedy",
                            "--opponents", "greedy", "--games", "2", "--dagger", "0", "--epochs", "0",
                            "--init", str(shipped), "--eval-levels", "--out", str(tmp_path / "run")])
    assert summary["init"] == str(shipped) and summary["rounds"][0]["epoch"] == 0
    out = ScorerPolicy.load(tmp_path / "run" / "policy.npz")
    assert out.meta["init"] == str(shipped)
    for a, b in zip(out.trunk_weights + out.head_weights, policy.trunk_weights + policy.head_weights):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(out.obs_scale, policy.obs_scale)
