"""Trained policies: numpy inference equals torch, the training script runs, shipped files play."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import agents
import cardenvs
from agents.evaluation.tournament import Match, play_match
from agents.players.scorer import ScorerPolicy
from agents.players.trained import (
    NumpyPolicy,
    TrainedAgent,
    has_trained,
    load_policy,
    policy_path,
    set_trained_peer,
    set_trained_rank,
    trained_peer,
    trained_rank,
)

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("env_name", list(cardenvs.ENVS))
def test_shipped_policies_play_legal_moves(env_name: str) -> None:
    if not has_trained(env_name):
        pytest.skip(f"no policy shipped for {env_name}")
    assert "trained" in agents.playable_levels(env_name)
    # on the ordered ladder exactly when ranked; an unranked one sits beside its peer
    assert ("trained" in agents.levels(env_name)) == (trained_rank(env_name) is not None)
    assert (trained_rank(env_name) is None) == (trained_peer(env_name) is not None)
    policy = load_policy(policy_path(env_name))
    first = policy.trunk_weights[0] if isinstance(policy, ScorerPolicy) else policy.weights[0]
    assert first.shape[1] == cardenvs.game_class(env_name).observation_size()
    assert policy_path(env_name).stat().st_size < 5 * 2**20
    game_cls = cardenvs.game_class(env_name)
    for players in range(game_cls.min_players, game_cls.max_players + 1):
        seats = tuple(["trained", "greedy", "trained", "random", "planner"][:players])
        assert play_match(Match(env_name, seats, seed=players)).steps > 0  # apply() refuses illegal moves


def test_ranked_and_unranked_policies(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import agents.players.trained as trained

    env = "lineit_v0"
    path = tmp_path / f"{env}.npz"
    path.write_bytes(policy_path(env).read_bytes())
    monkeypatch.setattr(trained, "POLICY_DIR", tmp_path)
    ladder = ["random", "greedy", "planner", "expert"]
    set_trained_peer(path, "greedy")
    assert trained_rank(env) is None and trained_peer(env) == "greedy"
    assert agents.levels(env) == ladder
    assert agents.playable_levels(env) == ["random", "greedy", "trained", "planner", "expert"]
    assert agents.make_agent(env, "trained", seed=0).name == "trained"  # still plays by name
    set_trained_rank(path, "planner")  # a rank clears the peer
    assert trained_rank(env) == "planner" and trained_peer(env) is None
    ranked = ["random", "greedy", "planner", "trained", "expert"]
    assert agents.levels(env) == agents.playable_levels(env) == ranked
    before = path.read_bytes()
    with pytest.raises(ValueError, match="level must be one of random, greedy, planner, expert"):
        set_trained_peer(path, "godlike")
    assert path.read_bytes() == before  # a refused call leaves the file as it was
    path.unlink()
    assert trained_rank(env) is None and trained_peer(env) is None
    assert agents.levels(env) == agents.playable_levels(env) == ladder
    with pytest.raises(ValueError, match="levels are random, greedy, planner, expert"):
        agents.make_agent(env, "trained")


def test_numpy_policy_masks_and_normalises() -> None:
    rng = np.random.default_rng(0)
    pol = NumpyPolicy([rng.normal(size=(8, 5)), rng.normal(size=(3, 8))], [np.zeros(8), np.zeros(3)], "tanh")
    probs = pol.probabilities(rng.normal(size=(4, 5)), np.array([[1, 0, 1]] * 4))
    assert np.allclose(probs.sum(axis=1), 1) and (probs[:, 1] == 0).all()
    with pytest.raises(ValueError, match="activation"):
        NumpyPolicy([], [], "gelu")


@pytest.mark.train
def test_numpy_inference_matches_torch(tmp_path: Path) -> None:
    torch = pytest.importorskip("torch")
    sb3c = pytest.importorskip("sb3_contrib")
    from agents.players.trained import export_sb3
    from cardenvs.core.wrappers import SingleAgentEnv, observation_scale

    game = cardenvs.game_class("rummy432_v0")(2)
    scale = observation_scale(game, decisions=300)
    assert scale.shape == (game.observation_size(),) and scale.min() > 0 and scale.max() <= 1
    env = SingleAgentEnv(game, [agents.RandomAgent(0)], obs_scale=scale)
    model = sb3c.MaskablePPO("MlpPolicy", env, seed=3, policy_kwargs={"net_arch": [32, 16]})
    path = tmp_path / "p.npz"
    export_sb3(model, {"env": "rummy432_v0"}, scale).save(path)
    pol = NumpyPolicy.load(path)
    assert pol.meta["env"] == "rummy432_v0"
    np.testing.assert_array_equal(pol.obs_scale, scale)
    obs, masks = [], []
    for seed in range(16):
        o, _ = env.reset(seed=seed)  # the learner sees scaled observations
        obs.append(o)
        masks.append(env.action_masks())
    obs_a, mask_a = np.stack(obs), np.stack(masks)
    raw = obs_a / scale  # what env.last() gives a player
    with torch.no_grad():
        dist = model.policy.get_distribution(torch.as_tensor(obs_a), action_masks=mask_a)
        expect = dist.distribution.probs.numpy()
    np.testing.assert_allclose(pol.probabilities(raw, mask_a), expect, atol=1e-5)
    agent = TrainedAgent("rummy432_v0", path, seed=1)
    a = agent.act({"observation": raw[0], "action_mask": mask_a[0].astype(np.int8)})
    assert a == int(np.argmax(expect[0]))


@pytest.mark.train
def test_training_script_smoke(tmp_path: Path) -> None:
    pytest.importorskip("sb3_contrib")
    from experiments import train

    out = tmp_path / "run"
    export = tmp_path / "policy.npz"
    train.main(["--env", "line_v0", "--steps", "512", "--n-envs", "2", "--n-steps", "128",
                "--batch-size", "64",
                "--eval-every", "256", "--eval-games", "2", "--eval-levels", "random", "--self-play", "0.5",
                "--snapshot-every", "256", "--net-arch", "32", "--out", str(out), "--export", str(export)])
    assert (out / "eval.csv").read_text().count("\n") >= 2
    assert (out / "learning_curve.png").stat().st_size > 1000
    assert list((out / "snapshots").glob("*.npz"))
    agent = agents.make_agent("line_v0", f"policy:{export}", seed=0)
    assert play_match(Match("line_v0", (f"policy:{export}", "random"), seed=1)).steps > 0
    assert isinstance(agent, TrainedAgent)


@pytest.mark.train
def test_fast_masked_sampling_draws_the_same_distribution() -> None:
    torch = pytest.importorskip("torch")
    pytest.importorskip("sb3_contrib")
    from sb3_contrib.common.maskable.distributions import MaskableCategoricalDistribution

    from agents.learning import sb3_speedups

    sb3_speedups.enable()
    torch.manual_seed(0)
    logits = torch.tensor([[0.0, 1.0, 2.0, 0.5, -1.0]] * 4000)
    mask = np.array([[True, False, True, True, True]] * 4000)
    dist = MaskableCategoricalDistribution(5)
    dist.proba_distribution(logits)
    dist.apply_masking(mask)
    draws = dist.sample().numpy()
    assert draws.shape == (4000,) and not (draws == 1).any()
    expect = dist.distribution.probs[0].numpy()
    freq = np.bincount(draws, minlength=5) / draws.size
    assert np.abs(freq - expect).max() < 0.03


@pytest.mark.train
def test_fast_normalisation_matches_torch() -> None:
    torch = pytest.importorskip("torch")
    pytest.importorskip("sb3_contrib")
    from sb3_contrib.common.maskable.distributions import MaskableCategorical
    from torch.distributions import Categorical

    from agents.learning import sb3_speedups

    sb3_speedups.enable()
    logits = torch.randn(6, 40)
    mask = torch.rand(6, 40) > 0.3
    mask[:, 0] = True
    fast = MaskableCategorical(logits=logits, masks=mask)
    ref = Categorical(logits=torch.where(mask, logits, torch.tensor(-1e8)))
    assert isinstance(fast, Categorical)
    torch.testing.assert_close(fast.logits, ref.logits)
    want = -(ref.probs * ref.logits).nan_to_num().sum(-1)
    torch.testing.assert_close(fast.entropy(), want, atol=1e-5, rtol=1e-5)
    a = torch.randint(0, 40, (6,))
    torch.testing.assert_close(fast.log_prob(a), ref.log_prob(a))


def test_agents_share_one_loaded_policy_per_file_version(tmp_path: Path) -> None:
    path = tmp_path / "p.npz"
    path.write_bytes(policy_path("rummy432_v0").read_bytes())
    a, b = TrainedAgent("rummy432_v0", path), TrainedAgent("rummy432_v0", path)
    assert a.scorer is not None and a.scorer is b.scorer  # loaded once, not once per game
    policy = load_policy(path)
    assert isinstance(policy, ScorerPolicy)
    policy.meta["note"] = "rewritten"
    policy.save(path)  # a new version of the file is read again
    c = TrainedAgent("rummy432_v0", path)
    assert c.scorer is not a.scorer and c.scorer is not None and c.scorer.meta["note"] == "rewritten"
