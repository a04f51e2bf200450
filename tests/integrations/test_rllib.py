"""The RLlib integration: env pre-check, episode bookkeeping, numpy export, one PPO iteration.

Needs the ``rllib`` extra (``ray[tune]==2.60.0`` and RLlib's own dependencies, torch);
skipped, with the reason, where Ray is not installed.
"""

from __future__ import annotations

import math
from typing import Any, cast

import numpy as np
import pytest

ray = pytest.importorskip("ray", reason="needs Ray RLlib (pip install 'cardenvs[rllib]'), not installed")
pytest.importorskip("ray.rllib", reason="needs Ray RLlib (pip install 'cardenvs[rllib]'), not importable")
torch = pytest.importorskip("torch", reason="needs torch for RLlib's torch RLModules")

from ray.rllib.env.multi_agent_episode import MultiAgentEpisode  # noqa: E402
from ray.rllib.utils.pre_checks.env import check_multiagent_environments  # noqa: E402

import agents  # noqa: E402
import cardenvs  # noqa: E402
from agents.players.trained import NumpyPolicy, export_rllib  # noqa: E402
from cardenvs.integrations import rllib  # noqa: E402

GAMES = list(cardenvs.GAMES)


def _spaces(env: rllib.CardEnv) -> tuple[dict[Any, Any], dict[Any, Any]]:
    """The env's per-seat observation and action spaces (RLlib types them as optional)."""
    assert env.observation_spaces is not None and env.action_spaces is not None
    return cast(dict[Any, Any], env.observation_spaces), cast(dict[Any, Any], env.action_spaces)


def _random_episode(env: rllib.CardEnv, seed: int) -> MultiAgentEpisode:
    """Play one masked random game, recorded in RLlib's own episode (which validates it)."""
    rng = np.random.default_rng(seed)
    obs_spaces, act_spaces = _spaces(env)
    episode = MultiAgentEpisode(observation_space=obs_spaces, action_space=act_spaces)  # type: ignore[arg-type]
    obs, infos = env.reset(seed=seed)
    episode.add_env_reset(observations=obs, infos=infos)
    while not episode.is_done:
        ((aid, o),) = obs.items()
        assert obs_spaces[aid].contains(o)
        action = {aid: int(rng.choice(np.flatnonzero(o["action_mask"])))}
        obs, rew, term, trunc, infos = env.step(action)
        episode.add_env_step(obs, action, rew, infos, terminateds=term, truncateds=trunc)
    return episode


@pytest.mark.parametrize("env_name", GAMES)
@pytest.mark.parametrize("players, opponents", [(2, []), (3, ["greedy"])])
def test_env_passes_rllib_precheck(env_name: str, players: int, opponents: list[str]) -> None:
    """RLlib's own env check (an unmasked random action: the game ends with the penalty)."""
    env = rllib.CardEnv({"env_name": env_name, "num_players": players, "opponents": opponents,
                         "make_opponent": agents.make_agent})
    check_multiagent_environments(env)
    obs, _ = env.reset(seed=3)
    ((aid, o),) = obs.items()
    assert set(o) == {"observations", "action_mask"}
    assert o["action_mask"].dtype == np.float32 and o["action_mask"].sum() >= 1
    assert aid in env.agents and len(env.agents) == players - len(opponents)
    # an illegal action ends the game: the offender gets -1, every learner seat its last observation
    bad = int(np.flatnonzero(o["action_mask"] == 0)[0])
    obs, rew, term, trunc, infos = env.step({aid: bad})
    assert term["__all__"] and not trunc["__all__"]
    assert rew[aid] == -1.0 and set(obs) == set(env.agents)
    assert all(i["illegal_action_by"] == aid for i in infos.values())


def test_env_refuses_unmasked_action_when_asked() -> None:
    """``illegal_action="raise"`` is what makes RLlib's check report the gymnasium-API error."""
    env = rllib.CardEnv({"env_name": "line_v0", "illegal_action": "raise"})
    with pytest.raises(ValueError, match="gymnasium-style API"):
        check_multiagent_environments(env)


@pytest.mark.parametrize("env_name", GAMES)
def test_episode_returns_are_the_game_returns(env_name: str) -> None:
    """Rewards reach RLlib's episode (held for seats not to move) and sum to the game's returns."""
    env = rllib.CardEnv({"env_name": env_name, "num_players": 3})
    episode = _random_episode(env, seed=5)
    returns = episode.get_return(), {a: e.get_return() for a, e in episode.agent_episodes.items()}
    game = env.game
    truncated = any(env.pz.truncations.values())
    expected = [0.0] * game.num_players if truncated else game.returns(env.pz.state)
    assert returns[1] == {f"player_{i}": pytest.approx(float(r)) for i, r in enumerate(expected)}


def test_opponent_seats_are_played_by_the_env() -> None:
    env = rllib.CardEnv({"env_name": "line_v0", "num_players": 3, "opponents": ["random", "greedy"],
                         "make_opponent": agents.make_agent})
    seen = set()
    for seed in range(6):
        episode = _random_episode(env, seed)
        assert set(episode.agent_episodes) == set(env.agents) and len(env.agents) == 1
        seen.update(env.agents)
    assert len(seen) > 1  # the learner's seat changes between episodes


def test_config_errors() -> None:
    with pytest.raises(cardenvs.OptionError, match="unknown CardEnv config"):
        rllib.CardEnv({"env_name": "line_v0", "jokers": 3})
    with pytest.raises(cardenvs.OptionError, match="no learner seat"):
        rllib.CardEnv({"env_name": "line_v0", "num_players": 2, "opponents": ["greedy", "greedy"],
                       "make_opponent": agents.make_agent})
    env = rllib.CardEnv({"env_name": "line_v0", "joker_points": 10, "obs_scale": False})
    assert env.options == {"joker_points": 10} and env.obs_scale is None
    with pytest.raises(cardenvs.OptionError, match="needs an env_name: one of line_v0"):
        rllib.CardEnv({"num_players": 2})
    # opponents are an argument: names need a maker (the integration never imports the agents)
    with pytest.raises(cardenvs.OptionError, match=r"opponents named \['greedy'\] need make_opponent"):
        rllib.CardEnv({"env_name": "line_v0", "num_players": 2, "opponents": ["greedy"]})


def test_opponents_may_be_agents_themselves() -> None:
    bot = agents.make_agent("lineit_v0", "greedy", seed=3)
    env = rllib.CardEnv({"env_name": "lineit_v0", "num_players": 2, "opponents": [bot]})
    episode = _random_episode(env, 2)
    assert len(env.agents) == 1 and set(episode.agent_episodes) == set(env.agents)


def _module_probs(module, obs: list[dict[str, np.ndarray]]) -> np.ndarray:
    keys = ("observations", "action_mask")
    batch = {"obs": {k: torch.as_tensor(np.stack([o[k] for o in obs])) for k in keys}}
    with torch.no_grad():
        logits = module.forward_inference(batch)["action_dist_inputs"]
    return torch.softmax(logits, dim=-1).numpy()


def _observations(env: rllib.CardEnv, n: int, seed: int) -> tuple[list[dict[str, np.ndarray]], np.ndarray]:
    """``n`` observations of random play (scaled, as RLlib sees them) and the raw vectors."""
    rng = np.random.default_rng(seed)
    out: list[dict[str, np.ndarray]] = []
    raw: list[np.ndarray] = []
    obs, _ = env.reset(seed=seed)
    while len(out) < n:
        ((aid, o),) = obs.items()
        out.append(o)
        raw.append(env.pz.observe(str(aid))["observation"])
        obs, _, term, trunc, _ = env.step({aid: int(rng.choice(np.flatnonzero(o["action_mask"])))})
        if term["__all__"] or trunc["__all__"]:
            obs, _ = env.reset()
    return out, np.stack(raw)


@pytest.mark.parametrize("activation, hiddens", [("tanh", (32, 16)), ("relu", (24,))])
def test_numpy_export_matches_the_rllib_module(tmp_path, caplog, activation: str,
                                               hiddens: tuple[int, ...]) -> None:
    """The exported arrays give the module's masked action probabilities, on raw observations;
    building the module prints no deprecation warning."""
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    from cardenvs.integrations.rllib_module import ActionMaskingPPOModule

    env_config = {"env_name": "rummy432_v0", "num_players": 2}
    env = rllib.CardEnv(env_config)
    spec = RLModuleSpec(module_class=ActionMaskingPPOModule,
                        observation_space=_spaces(env)[0]["player_0"],
                        action_space=_spaces(env)[1]["player_0"],
                        model_config={"fcnet_hiddens": list(hiddens), "fcnet_activation": activation,
                                      "head_fcnet_hiddens": [], "vf_share_layers": False})
    with caplog.at_level("WARNING"):
        module: Any = spec.build()
    assert not [r for r in caplog.records if "deprecat" in r.getMessage().lower()]
    torch.manual_seed(0)
    with torch.no_grad():  # make the logits far from uniform
        for p in module.parameters():
            p.normal_(0.0, 0.5)
    obs, raw = _observations(env, 40, seed=1)
    policy = export_rllib(module, env_config=env_config, meta={"note": "test"})
    assert policy.activation == activation and len(policy.weights) == len(hiddens) + 1
    path = tmp_path / "p.npz"
    policy.save(path)
    loaded = NumpyPolicy.load(path)
    masks = np.stack([o["action_mask"] for o in obs])
    expected = _module_probs(module, obs)
    got = loaded.probabilities(raw, masks)
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-6)
    assert got[masks == 0].max() == 0.0
    assert loaded.meta["env_name"] == "rummy432_v0" and loaded.meta["note"] == "test"
    # the ladder plays it without torch
    agent = agents.make_agent("rummy432_v0", f"policy:{path}", seed=0)
    pz = cardenvs.make("rummy432_v0", num_players=2)
    pz.reset(seed=2)
    for _ in range(20):
        o = pz.observe(pz.agent_selection)
        assert o["action_mask"][agent.act(o)] == 1
        pz.step(agent.act(o))


def test_export_refuses_mixed_activations() -> None:
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    from cardenvs.integrations.rllib_module import ActionMaskingPPOModule

    env = rllib.CardEnv({"env_name": "line_v0", "obs_scale": False})
    module = RLModuleSpec(module_class=ActionMaskingPPOModule,
                          observation_space=_spaces(env)[0]["player_0"],
                          action_space=_spaces(env)[1]["player_0"],
                          model_config={"fcnet_hiddens": [8], "fcnet_activation": "tanh",
                                        "head_fcnet_hiddens": [8], "head_fcnet_activation": "relu"}).build()
    with pytest.raises(ValueError, match="one activation"):
        export_rllib(module)


def test_one_ppo_iteration_with_a_remote_env_runner(tmp_path, monkeypatch, capfd) -> None:
    """One PPO iteration, one remote env runner, launched from a folder holding an empty ``cardenvs/``.

    Ray puts the launch folder first on the workers' ``sys.path``; ``init_ray``'s
    ``py_modules`` keep the workers on the real package.
    """
    (tmp_path / "cardenvs").mkdir()
    monkeypatch.chdir(tmp_path)
    torch.set_num_threads(1)
    env_config = {"env_name": "line_v0", "num_players": 2}
    monkeypatch.delenv("RAY_AUTH_MODE", raising=False)
    rllib.init_ray(num_cpus=2, log_to_driver=False)
    # a new local Ray's token-authentication notice is quieted (the authentication stays on)
    assert "Token authentication" not in capfd.readouterr().err
    try:
        rllib.register()
        config = rllib.ppo_config(env_config, hiddens=(16,), num_env_runners=1, train_batch_size=128,
                                  minibatch_size=64, num_epochs=1, seed=0)
        algo = config.build_algo()
        try:
            result = algo.train()
            sampled = result["env_runners"]["num_env_steps_sampled"]
            loss = result["learners"][rllib.POLICY_ID]["total_loss"]
            assert sampled >= 128
            assert math.isfinite(loss)
            remote = algo.env_runner_group.foreach_env_runner(
                lambda runner: (torch.get_num_threads(), type(runner.env.envs[0].unwrapped).__name__),
                local_env_runner=False)
            assert remote == [(1, "CardEnv")]
            # the trained weights export to the numpy policy
            module = algo.get_module(rllib.POLICY_ID)
            obs, raw = _observations(rllib.CardEnv(env_config), 10, seed=4)
            policy = export_rllib(algo, env_config=env_config)
            learner = algo.learner_group.get_weights([rllib.POLICY_ID])[rllib.POLICY_ID]
            np.testing.assert_array_equal(policy.weights[0],
                                          np.asarray(learner["encoder.actor_encoder.net.mlp.0.weight"]))
            masks = np.stack([o["action_mask"] for o in obs])
            np.testing.assert_allclose(policy.probabilities(raw, masks), _module_probs(module, obs),
                                       rtol=1e-4, atol=1e-6)
        finally:
            algo.stop()
    finally:
        ray.shutdown()
