"""The learner observations (``observation="planes"`` / ``"action_features"``): the
environment option, the spec tables against the layouts, the spaces, and the policies
that read them (numpy play, torch training networks, the SB3 policy)."""

from __future__ import annotations

import importlib
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

import agents
import cardenvs
from agents.players.feature_policy import FeaturePolicy, is_feature_file
from agents.players.trained import TrainedAgent
from cardenvs.core.game import OptionError
from cardenvs.core.observers import OBSERVATIONS, Observer
from cardenvs.core.wrappers import SingleAgentEnv

ENVS = list(cardenvs.ENVS)
GYM_IDS = {"line_v0": "cardenvs/Line-v0", "lineit_v0": "cardenvs/LineIt-v0",
           "rummy432_v0": "cardenvs/Rummy432-v0"}


def _module(env: str) -> Any:
    return importlib.import_module(f"cardenvs.{cardenvs.game_class(env).name}.features")


@pytest.mark.parametrize("env", ENVS)
@pytest.mark.parametrize("design", OBSERVATIONS[1:])
def test_env_option_passes_the_api_tests(env: str, design: str) -> None:
    api_test(cardenvs.make(env, observation=design), num_cycles=60)
    single = gymnasium.make(GYM_IDS[env], observation=design)
    check_env(single.unwrapped, skip_render_check=True)
    obs, _ = single.reset(seed=0)
    assert single.observation_space.contains(obs)


@pytest.mark.parametrize("env", ENVS)
def test_default_is_the_flat_vector(env: str) -> None:
    """The ``_v0`` contract: no option, the same space and observation as before."""
    g = cardenvs.game_class(env)()
    a, b = cardenvs.make(env), cardenvs.make(env, observation="flat")
    for e in (a, b):
        e.reset(seed=3)
        space = e.observation_space("player_0")["observation"]
        assert space.shape == (g.observation_size(),)
    agent = a.agent_selection
    assert np.array_equal(a.observe(agent)["observation"], b.observe(agent)["observation"])
    assert np.array_equal(a.observe(agent)["observation"], g.observe(a.unwrapped.state, int(agent[-1])))


@pytest.mark.parametrize("env", ENVS)
def test_env_observations_follow_the_game(env: str) -> None:
    """Through a whole seeded game: every observation of every agent is in its space, the
    mover's action rows are the encoder's rows of its legal actions, the others' are zero."""
    e = cardenvs.make(env, observation="action_features")
    p = cardenvs.make(env, observation="planes")
    f = _module(env)
    for x in (e, p):
        x.reset(seed=11)
    rng = np.random.default_rng(0)
    game = e.unwrapped.game
    steps = 0
    for agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        pobs = p.observe(agent)
        assert e.observation_space(agent)["observation"].contains(obs["observation"])
        assert p.observation_space(agent)["observation"].contains(pobs["observation"])
        if term or trunc:
            assert not obs["observation"].any()
            e.step(None)
            p.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"]).tolist()
        seat = int(agent[-1])
        view = game.view(e.unwrapped.state, seat)
        assert np.array_equal(obs["observation"][legal], f.action_features(view, legal))
        assert not np.delete(obs["observation"], legal, axis=0).any()
        assert np.array_equal(pobs["observation"], f.planes(view))
        other = e.possible_agents[(seat + 1) % len(e.possible_agents)]
        assert not e.observe(other)["observation"].any()
        a = int(rng.choice(legal))
        e.step(a)
        p.step(a)
        steps += 1
        if steps > 400:
            break


@pytest.mark.parametrize("env", ENVS)
def test_bad_observation_option_is_refused(env: str) -> None:
    with pytest.raises(OptionError, match="observation='pixels' is not supported; use one of 'flat', "
                                          "'planes', 'action_features'"):
        cardenvs.make(env, observation="pixels")
    with pytest.raises(OptionError, match="observation"):
        SingleAgentEnv(env, [agents.make_agent(env, "random", seed=0)], observation=3)  # type: ignore[arg-type]
    with pytest.raises(OptionError, match="obs_scale applies to the flat observation only"):
        g = cardenvs.game_class(env)(2)
        SingleAgentEnv(g, [agents.make_agent(env, "random", seed=0)], observation="planes",
                       obs_scale=np.ones(g.observation_size(), np.float32))


def _random_policy(env: str, design: str, seed: int = 0) -> FeaturePolicy:
    g = cardenvs.game_class(env)(2)
    obs = Observer(g, design)
    rng = np.random.default_rng(seed)
    if design == "action_features":
        sizes = [obs.shape[1], 16, 1]
    else:
        sizes = [int(np.prod(obs.shape)), 16, g.num_actions]
    weights = [rng.normal(0, 0.5, (b, a)).astype(np.float32) for a, b in zip(sizes, sizes[1:])]
    biases = [rng.normal(0, 0.1, b).astype(np.float32) for b in sizes[1:]]
    return FeaturePolicy(design, env, weights, biases, "relu", meta={"note": "test"})


@pytest.mark.parametrize("env", ENVS)
@pytest.mark.parametrize("design", OBSERVATIONS)
def test_feature_policy_file_plays_as_policy_level(env: str, design: str, tmp_path: Any) -> None:
    """A saved feature policy reads back the same, and plays legal, deterministic moves as
    ``policy:FILE`` from the View and from PettingZoo's observation dict alike."""
    from agents.evaluation.tournament import Match, play_match

    pol = _random_policy(env, design)
    path = tmp_path / f"{env}_{design}.npz"
    pol.save(path)
    assert is_feature_file(path)
    back = FeaturePolicy.load(path)
    assert back.observation == design and back.env_name == env and back.meta["note"] == "test"
    for w, v in zip(pol.weights, back.weights):
        assert np.array_equal(w, v)
    level = f"policy:{path}"
    a = play_match(Match(env, (level, "random"), 5))
    b = play_match(Match(env, (level, "random"), 5))
    assert a.rewards == b.rewards and a.steps == b.steps
    e = cardenvs.make(env)
    e.reset(seed=2)
    agent = TrainedAgent(env, path, seed=0)
    for name in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            break
        act = agent.act(obs)
        assert obs["action_mask"][act]
        seat = int(name[-1])
        g = e.unwrapped.game
        twin = TrainedAgent(env, path, seed=0)  # ties are broken by the agent's generator
        assert act == twin.choose(g, g.view(e.unwrapped.state, seat), g.legal_actions(e.unwrapped.state))
        break
    with pytest.raises(ValueError, match="is a policy for"):
        TrainedAgent("line_v0" if env != "line_v0" else "lineit_v0", path)


def test_segment_softmax_matches_the_masked_dense_softmax() -> None:
    torch = pytest.importorskip("torch")
    from agents.learning.feature_torch import segment_entropy, segment_log_softmax, segment_sample

    rng = np.random.default_rng(0)
    counts = np.array([3, 1, 5, 2])
    seg = torch.from_numpy(np.repeat(np.arange(4), counts))
    logits = torch.from_numpy(rng.normal(0, 2, counts.sum()).astype(np.float32))
    logp = segment_log_softmax(logits, seg, 4)
    start = 0
    for i, k in enumerate(counts):
        want = torch.log_softmax(logits[start:start + k], 0)
        assert torch.allclose(logp[start:start + k], want, atol=1e-6)
        ent = -(want.exp() * want).sum()
        assert torch.allclose(segment_entropy(logp, seg, 4)[i], ent, atol=1e-6)
        start += k
    pick = segment_sample(logp, seg, 4, greedy=True)
    starts = np.cumsum(counts) - counts
    assert pick.tolist() == [int(np.argmax(logits[s:s + k]) + s) for s, k in zip(starts, counts)]
    draws = np.array([segment_sample(logp, seg, 4)[0].item() for _ in range(3000)])
    freq = np.bincount(draws, minlength=3) / len(draws)
    assert np.allclose(freq, logp[:3].exp().numpy(), atol=0.04)


@pytest.mark.parametrize("env", ["lineit_v0", "rummy432_v0"])
def test_export_plays_what_the_torch_network_scores(env: str) -> None:
    torch = pytest.importorskip("torch")
    from agents.learning.feature_torch import ActionScorerNet, VectorNet, export

    g = cardenvs.game_class(env)(2)
    f = _module(env)
    rng = np.random.default_rng(1)
    state = g.new_state(rng)
    for _ in range(7):
        legal = g.legal_actions(state)
        g.apply(state, legal[int(rng.integers(len(legal)))], rng)
    p = g.current_player(state)
    view, legal = g.view(state, p), g.legal_actions(state)
    torch.manual_seed(0)
    net = ActionScorerNet(f.ACTION_FEATURES.size, (16, 16), (16, 16))
    rows = torch.from_numpy(f.action_features(view, legal))
    logits, _ = net(rows, torch.zeros(len(legal), dtype=torch.long), 1)
    assert np.allclose(export(net, env).legal_logits(g, view, legal), logits.detach().numpy(), atol=1e-5)
    vec = VectorNet(f.PLANES.size * int(np.prod(f.PLANE_SHAPE)), g.num_actions, (16,), "tanh", "planes")
    x = torch.from_numpy(f.planes(view).reshape(1, -1))
    logits, _ = vec(x, torch.tensor(legal), torch.zeros(len(legal), dtype=torch.long))
    assert np.allclose(export(vec, env).legal_logits(g, view, legal), logits.detach().numpy(), atol=1e-5)


def test_sb3_action_scorer_policy_is_the_masked_softmax() -> None:
    """MaskablePPO's view of the policy: the log-probabilities and entropies sb3-contrib's
    masked categorical gives over the same scores, values from the legal rows alone."""
    torch = pytest.importorskip("torch")
    pytest.importorskip("sb3_contrib")
    from sb3_contrib.common.maskable.distributions import MaskableCategorical

    from agents.learning.feature_sb3 import ActionScorerPolicy

    env = SingleAgentEnv("lineit_v0", [agents.make_agent("lineit_v0", "greedy", seed=0)],
                         observation="action_features", num_players=2)
    obs, masks = [], []
    for seed in range(6):
        o, _ = env.reset(seed=seed)
        obs.append(o)
        masks.append(env.action_masks())
    policy = ActionScorerPolicy(env.observation_space, env.action_space, lambda _: 1e-3, net_arch=[16, 16])
    x = torch.from_numpy(np.stack(obs))
    m = np.stack(masks)
    with torch.no_grad():
        actions, values, logp = policy(x, action_masks=m)
        assert all(m[i, a] for i, a in enumerate(actions.tolist()))
        scores = policy.scorer.pi(x)[..., 0]
        dense = MaskableCategorical(logits=scores, masks=torch.from_numpy(m))
        assert torch.allclose(logp, dense.log_prob(actions), atol=1e-5)
        v2, lp2, ent = policy.evaluate_actions(x, actions, torch.from_numpy(m))
        assert torch.allclose(lp2, logp, atol=1e-6) and torch.allclose(v2, values)
        assert torch.allclose(ent, dense.entropy(), atol=1e-5)
        assert torch.allclose(policy.predict_values(x), values)
        dist = policy.get_distribution(x, m)
        assert torch.allclose(dist.distribution.probs, dense.probs, atol=1e-6)
