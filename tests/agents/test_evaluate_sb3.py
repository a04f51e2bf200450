"""agents.evaluate plays Stable-Baselines3 models on their own observation design.

For each kind of model the docs train (the recipe's ``MaskablePPO(ActionScorerPolicy)`` on
``action_features``, the stock ``MlpPolicy`` and the sparse ``fast_ppo_kwargs`` policy on the
flat vector, a model trained on scaled observations, ``MlpPolicy`` on ``planes``, and
unmasked ``PPO`` / ``DQN``), a tiny model is trained for a few hundred steps, and

* the evaluator's player, from the model and from its saved ``.zip``, picks at every one of
  its decisions of whole games the move the model itself picks on the observation the
  training environment gives it (``model.predict(obs, action_masks=mask,
  deterministic=True)``; for unmasked models the legal action of the highest score);
* ``agents.evaluate`` takes the model and the ``.zip`` path, in one and two processes, with
  the same result.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

import torch  # noqa: E402
from sb3_contrib import MaskablePPO  # noqa: E402
from stable_baselines3 import DQN, PPO  # noqa: E402

import agents  # noqa: E402
import cardenvs  # noqa: E402
from agents.evaluation.arena import play_between  # noqa: E402
from agents.evaluation.evaluator import SB3Policy, inferred_scale, main, resolve_policy  # noqa: E402
from agents.learning.feature_sb3 import ActionScorerPolicy  # noqa: E402
from agents.learning.sparse_policy import fast_ppo_kwargs  # noqa: E402
from cardenvs.core.loop import Turn  # noqa: E402
from cardenvs.core.observers import Observer  # noqa: E402
from cardenvs.core.wrappers import SingleAgentEnv, observation_scale  # noqa: E402
from cardenvs.vector import make_vec_env  # noqa: E402

pytestmark = pytest.mark.train

TINY = {"net_arch": [16]}
PPO_ARGS: dict[str, Any] = {"n_steps": 64, "batch_size": 64, "n_epochs": 1, "seed": 0}


@dataclass
class Kind:
    """A kind of model the docs train: its game, observation design and how to train it."""

    env_name: str
    design: str
    train: Callable[[Kind], Any]
    options: dict[str, Any] = field(default_factory=dict)
    #: the factors the training environment scaled the observations by
    scale: np.ndarray | None = None

    def game(self) -> Any:
        return cardenvs.game_class(self.env_name)(2, **self.options)

    def env(self, **kwargs: Any) -> SingleAgentEnv:
        return SingleAgentEnv(self.game(), [agents.RandomAgent(0)], learner_seat=None, **kwargs)


def _recipe(kind: Kind) -> Any:  # docs/training/recipe.md
    venv = make_vec_env(kind.env_name, 2, lambda i: [agents.make_agent(kind.env_name, "random", seed=i)],
                        observation="action_features", **kind.options)
    return MaskablePPO(ActionScorerPolicy, venv, policy_kwargs={"net_arch": [16, 16]}, **PPO_ARGS).learn(128)


def _stock(kind: Kind) -> Any:  # docs/training/sb3.md, the stock setup
    return MaskablePPO("MlpPolicy", kind.env(), policy_kwargs=TINY, **PPO_ARGS).learn(128)


def _fast(kind: Kind) -> Any:  # docs/training/sb3.md, the fast path
    venv = make_vec_env(kind.env_name, 2, lambda i: [agents.make_agent(kind.env_name, "random", seed=i)],
                        **kind.options)
    return MaskablePPO(env=venv, **fast_ppo_kwargs(TINY), **PPO_ARGS).learn(128)


def _scaled(kind: Kind) -> Any:  # experiments/train.py: the fast path on scaled observations
    kind.scale = observation_scale(kind.game(), decisions=300)
    return MaskablePPO(env=kind.env(obs_scale=kind.scale), **fast_ppo_kwargs(TINY), **PPO_ARGS).learn(128)


def _planes(kind: Kind) -> Any:
    return MaskablePPO("MlpPolicy", kind.env(observation="planes"), policy_kwargs=TINY, **PPO_ARGS).learn(128)


def _ppo(kind: Kind) -> Any:
    return PPO("MlpPolicy", kind.env(), policy_kwargs=TINY, **PPO_ARGS).learn(128)


def _dqn(kind: Kind) -> Any:
    return DQN("MlpPolicy", kind.env(), learning_starts=64, buffer_size=500, policy_kwargs=TINY,
               seed=0).learn(128)


KINDS = {
    "recipe": Kind("lineit_v0", "action_features", _recipe),
    "stock": Kind("line_v0", "flat", _stock),
    "fast": Kind("lineit_v0", "flat", _fast),
    "scaled": Kind("rummy432_v0", "flat", _scaled, {"rounds_to_win": 1}),
    "planes": Kind("lineit_v0", "planes", _planes),
    "ppo": Kind("line_v0", "flat", _ppo),
    "dqn": Kind("lineit_v0", "flat", _dqn),
}


_MODELS: dict[str, tuple[Kind, Any, Path]] = {}


def _trained(name: str, tmp_path_factory: pytest.TempPathFactory) -> tuple[Kind, Any, Path]:
    """A tiny trained model of kind ``name`` and its saved ``.zip`` (trained once per run)."""
    if name not in _MODELS:
        torch.set_num_threads(1)
        torch.manual_seed(0)
        kind = KINDS[name]
        model = kind.train(kind)
        path = tmp_path_factory.mktemp("models") / f"{name}.zip"
        model.save(path)
        _MODELS[name] = kind, model, path
    return _MODELS[name]


@pytest.fixture(scope="module", params=list(KINDS))
def trained(request: pytest.FixtureRequest,
            tmp_path_factory: pytest.TempPathFactory) -> tuple[Kind, Any, Path]:
    """A tiny trained model of each kind, and its saved ``.zip``."""
    return _trained(request.param, tmp_path_factory)


def _reference(model: Any, obs: np.ndarray, mask: np.ndarray) -> int:
    """The model's own move on the observation its training environment gives."""
    if isinstance(model, MaskablePPO):
        action, _ = model.predict(obs, action_masks=mask, deterministic=True)
        return int(action)
    with torch.no_grad():  # unmasked models: the legal action of the highest score
        tensor, _ = model.policy.obs_to_tensor(obs)
        out = model.q_net(tensor) if isinstance(model, DQN) else \
            model.policy.get_distribution(tensor).distribution.logits
    scores = out[0].numpy().astype(np.float64)
    scores[~mask] = -np.inf
    return int(np.argmax(scores))


def test_the_evaluator_plays_the_models_own_moves(trained: tuple[Kind, Any, Path]) -> None:
    kind, model, path = trained
    game = kind.game()
    env_observer = Observer(game, kind.design)  # what the training environment observes
    checked = 0
    for source in (model, path):
        _, player, _ = resolve_policy(source, kind.env_name)
        assert isinstance(player, SB3Policy) and player.bind(game).design == kind.design
        if kind.scale is not None:  # read from the model's bounds, not given
            scale = player.bind(game).scale
            assert scale is not None and np.allclose(scale, kind.scale, rtol=1e-6, atol=0)

        def check(turn: Turn, seat: int) -> None:
            nonlocal checked
            if turn.seat != seat:
                return
            obs = env_observer.observe(turn.state, seat, True)
            if kind.scale is not None:
                obs = obs * kind.scale
            mask = game.legal_mask(turn.state).astype(bool)
            assert turn.action == _reference(model, obs, mask), f"decision {turn.step}"
            checked += 1

        for seat in (0, 1):
            seats: list[Any] = [agents.RandomAgent(seat), agents.RandomAgent(seat)]
            seats[seat] = player
            play_between(game, seats, seed=seat, on_move=functools.partial(check, seat=seat))
    assert checked >= 8  # whole games' worth of the model's decisions


def test_evaluate_takes_the_model_and_its_file_in_one_or_two_processes(
        trained: tuple[Kind, Any, Path]) -> None:
    kind, model, path = trained
    kw: dict[str, Any] = {"against": ["random"], "games": 4, "progress": False, "verbose": False,
                          **kind.options}
    results = [agents.evaluate(policy, kind.env_name, workers=workers, **kw)
               for policy, workers in ((model, 1), (model, 2), (str(path), 1), (path, 2))]
    assert all(r.scores == results[0].scores for r in results[1:])
    assert results[0].scores["random"].games == 4
    assert results[0].policy == type(model).__name__ and results[2].policy == path.name


def test_a_model_of_another_table_is_a_clear_error(tmp_path_factory: pytest.TempPathFactory) -> None:
    kind, model, path = _trained("recipe", tmp_path_factory)
    with pytest.raises(ValueError, match=r"shape \(414, 51\).*fits none of the designs SB3Policy "
                                         r"plays \(line_v0 with 2 players: flat \(453,\), planes "
                                         r".*action_features"):
        agents.evaluate(model, "line_v0", against=["random"], games=2, progress=False, verbose=False)
    with pytest.raises(SystemExit):
        main([str(path), "--env", "line_v0", "--games", "2", "--no-progress"])
    game = kind.game()
    with pytest.raises(ValueError, match=r"told: planes"):
        SB3Policy(model, observation="planes").bind(game)
    with pytest.raises(ValueError, match="obs_scale applies to flat observations"):
        SB3Policy(model, obs_scale=np.ones(3, np.float32)).bind(game)
    pz = cardenvs.make(kind.env_name)  # the flat dict: not what this model reads
    pz.reset(seed=0)
    with pytest.raises(ValueError, match=r"reads observations of shape \(414, 51\), got \(2175,\)"):
        SB3Policy(model).act(pz.observe(pz.agent_selection))
    pz = cardenvs.make(kind.env_name, observation="action_features")  # the model's own design
    pz.reset(seed=0)
    obs = pz.observe(pz.agent_selection)
    mask = obs["action_mask"].astype(bool)
    assert SB3Policy(model).act(obs) == _reference(model, obs["observation"], mask)


def test_the_scale_is_read_only_from_a_rescaling_of_the_bounds() -> None:
    import gymnasium

    game = cardenvs.game_class("rummy432_v0")(2)
    low, high = game.observation_bounds()
    scale = observation_scale(game, decisions=200)
    box = gymnasium.spaces.Box(low * scale, high * scale, low.shape, np.float32)
    found = inferred_scale(box, game)
    assert found is not None and np.allclose(found, scale, rtol=1e-6, atol=0)
    assert inferred_scale(gymnasium.spaces.Box(low, high, low.shape, np.float32), game) is None
    # unscaled, trained at another seat count: its bounds are that table's, not a rescaling
    three = cardenvs.game_class("rummy432_v0")(3)
    assert not np.array_equal(three.observation_bounds()[1], high)
    other = gymnasium.spaces.Box(*three.observation_bounds(), low.shape, np.float32)
    assert inferred_scale(other, game) is None
    # bounds of another kind (a wrapper's): raw observations
    assert inferred_scale(gymnasium.spaces.Box(-np.inf, np.inf, low.shape, np.float32), game) is None
    assert inferred_scale(gymnasium.spaces.Box(low, high * 2, low.shape, np.float32), game) is None
