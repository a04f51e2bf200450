"""Trained policies that play without torch: a masked MLP forward pass in numpy.

A MaskablePPO ``MlpPolicy`` is exported with :func:`export_sb3` (an RLlib PPO module with
:func:`export_rllib`) to an ``.npz`` file of
plain arrays (the policy branch of the MLP and the action head).  :class:`NumpyPolicy`
replays it: ``logits = head(act(W_k ... act(W_1 x + b_1)))``, illegal actions masked
to ``-inf``.  Shipped policies live in ``agents/policies/<env_name>.npz`` and appear as
the ladder level ``"trained"``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, cast

import numpy as np

from cardenvs.core.game import Game

from ..types import S, V
from .base import Agent, Observation
from .feature_policy import FeaturePolicy, is_feature_file
from .knowledge import LEVELS, Knowledge, knowledge
from .scorer import ScorerPolicy, action_features, dense, is_scorer_file, save_arrays

if TYPE_CHECKING:
    import torch
    from ray.rllib.algorithms.algorithm import Algorithm
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModule
    from ray.rllib.core.rl_module.rl_module import RLModule
    from stable_baselines3.common.on_policy_algorithm import OnPolicyAlgorithm

POLICY_DIR = Path(__file__).resolve().parents[1] / "policies"

_ACTIVATIONS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "tanh": np.tanh,
    "relu": lambda x: np.maximum(x, 0.0),
}


def policy_path(env_name: str) -> Path:
    """Where the shipped policy of a game lives."""
    return POLICY_DIR / f"{env_name}.npz"


def has_trained(env_name: str) -> bool:
    """Whether a trained policy is shipped for ``env_name``."""
    return policy_path(env_name).exists()


def _file_key(path: str | Path) -> tuple[str, int, int]:
    """A policy file's identity for the read caches: resolved path, mtime and size (a file
    rewritten on disk is read again; this module's writers also clear the caches)."""
    p = Path(path).resolve()
    st = p.stat()
    return str(p), st.st_mtime_ns, st.st_size


@lru_cache(maxsize=32)
def _read_ladder_meta(key: tuple[str, int, int]) -> tuple[tuple[str, str], ...]:
    with np.load(key[0], allow_pickle=False) as data:
        return tuple((k[5:], str(data[k])) for k in ("meta_ladder_after", "meta_ladder_peer")
                     if k in data.files)


def _ladder_meta(env_name: str) -> dict[str, str]:
    """The shipped policy's ladder metadata (``ladder_after`` / ``ladder_peer``), or ``{}``.

    Read once per file version: ``agents.levels`` runs on every ``make_agent`` call, and
    opening the archive cost about 0.4 ms each time (a third of a Line game's agent setup).
    """
    return dict(_read_ladder_meta(_file_key(policy_path(env_name))))


@lru_cache(maxsize=8)
def _shared_policy(key: tuple[str, int, int]) -> NumpyPolicy | ScorerPolicy | FeaturePolicy:
    """One loaded policy per file version, shared (read-only) by the agents that play it:
    loading a shipped file takes 15-30 ms, which a tournament paid once per game."""
    return load_policy(key[0])


def _forget_files() -> None:
    _read_ladder_meta.cache_clear()
    _shared_policy.cache_clear()


def trained_rank(env_name: str) -> str | None:
    """The ladder level the shipped policy ranks just above; ``None`` if no policy is
    shipped or it is *unranked* (see :func:`trained_peer`).

    Read from the policy file's ``ladder_after`` metadata (set from measured results when
    the file is shipped); ``"random"`` when the file says neither.
    """
    if not has_trained(env_name):
        return None
    meta = _ladder_meta(env_name)
    if "ladder_peer" in meta:
        return None
    return meta.get("ladder_after", "random")


def trained_peer(env_name: str) -> str | None:
    """The level an *unranked* shipped policy plays like, or ``None`` (ranked or none shipped).

    A policy whose measured strength is not separated from a neighbouring level (the 95%
    interval of its share against it includes 50%) has no place on the strictly ordered
    ladder (:func:`agents.levels`); it stays playable as ``"trained"``
    (:func:`agents.playable_levels`), listed beside that peer.
    """
    if not has_trained(env_name):
        return None
    return _ladder_meta(env_name).get("ladder_peer")


def _set_ladder_meta(path: str | Path, key: str, level: str) -> None:
    if level not in LEVELS:
        raise ValueError(f"level must be one of {', '.join(LEVELS)}, got {level!r}")
    with np.load(path, allow_pickle=False) as data:
        arrays = {k: data[k] for k in data.files if k not in ("meta_ladder_after", "meta_ladder_peer")}
    arrays[f"meta_{key}"] = np.array(level)
    np.savez_compressed(path, **arrays)
    _forget_files()


def load_policy(path: str | Path) -> NumpyPolicy | ScorerPolicy | FeaturePolicy:
    """A policy file of any kind: a flat :class:`NumpyPolicy`, a :class:`ScorerPolicy` or a
    :class:`~agents.players.feature_policy.FeaturePolicy`."""
    if is_feature_file(path):
        return FeaturePolicy.load(path)
    return ScorerPolicy.load(path) if is_scorer_file(path) else NumpyPolicy.load(path)


def set_trained_rank(path: str | Path, after: str) -> None:
    """Record in a policy file (either kind) the ladder level it ranks just above.

    Set from measured results when a policy is shipped (separated from the level below
    and from the level above); :func:`trained_rank` reads it back and
    :func:`agents.levels` places ``"trained"`` there.  Clears an earlier peer.
    """
    _set_ladder_meta(path, "ladder_after", after)


def set_trained_peer(path: str | Path, peer: str) -> None:
    """Record in a policy file that it is unranked: measured not separated from ``peer``.

    :func:`agents.levels` (the ordered ladder) then leaves it out, and
    :func:`agents.playable_levels` lists ``"trained"`` just after ``peer``.  Clears an
    earlier rank.
    """
    _set_ladder_meta(path, "ladder_peer", peer)


class NumpyPolicy:
    """A masked MLP policy held as numpy arrays."""

    def __init__(self, weights: list[np.ndarray], biases: list[np.ndarray], activation: str,
                 meta: Mapping[str, object] | None = None, obs_scale: np.ndarray | None = None) -> None:
        if activation not in _ACTIVATIONS:
            raise ValueError(f"activation must be one of {sorted(_ACTIVATIONS)}, got {activation!r}")
        self.weights = [np.asarray(w, np.float32) for w in weights]
        self.biases = [np.asarray(b, np.float32) for b in biases]
        self.activation = activation
        self.meta = dict(meta or {})
        #: per-feature input factors the policy was trained with (None: raw observations)
        self.obs_scale = None if obs_scale is None else np.asarray(obs_scale, np.float32)

    @classmethod
    def load(cls, path: str | Path) -> NumpyPolicy:
        """Read a policy saved by :meth:`save`."""
        with np.load(path, allow_pickle=False) as data:
            k = int(data["num_layers"])
            weights = [data[f"w{i}"] for i in range(k)]
            biases = [data[f"b{i}"] for i in range(k)]
            activation = str(data["activation"])
            meta = {key[5:]: str(data[key]) for key in data.files if key.startswith("meta_")}
            scale = data["obs_scale"] if "obs_scale" in data.files else None
        return cls(weights, biases, activation, meta, scale)

    def save(self, path: str | Path) -> None:
        """Write the arrays (float32) and metadata to an ``.npz`` file."""
        arrays: dict[str, np.ndarray] = {"num_layers": np.array(len(self.weights)),
                                         "activation": np.array(self.activation)}
        for i, (w, b) in enumerate(zip(self.weights, self.biases)):
            arrays[f"w{i}"], arrays[f"b{i}"] = w, b
        save_arrays(path, arrays, self.obs_scale, self.meta)

    def logits(self, observations: np.ndarray) -> np.ndarray:
        """Unmasked action logits of a batch (or one) of observation vectors."""
        x = np.asarray(observations, np.float32)
        if self.obs_scale is not None:
            x = x * self.obs_scale
        act = _ACTIVATIONS[self.activation]
        last = len(self.weights) - 1
        for i, (w, b) in enumerate(zip(self.weights, self.biases)):
            x = dense(x, w, b)
            if i < last:
                x = act(x)
        return x

    def probabilities(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """Action probabilities with illegal actions at zero."""
        z = self.logits(observations)
        z = np.where(np.asarray(masks, bool), z, -np.inf)
        z = z - z.max(axis=-1, keepdims=True)
        e = np.exp(z)
        return e / e.sum(axis=-1, keepdims=True)


def export_sb3(model: OnPolicyAlgorithm, meta: Mapping[str, object] | None = None,
               obs_scale: np.ndarray | None = None) -> NumpyPolicy:
    """The policy branch of an SB3 / sb3-contrib ``MlpPolicy`` as a :class:`NumpyPolicy`.

    ``obs_scale``: the input factors the model was trained with (applied before layer 1).
    """
    import torch

    policy = model.policy
    layers = [m for m in policy.mlp_extractor.policy_net if isinstance(m, torch.nn.Linear)]
    acts = {type(m).__name__.lower() for m in policy.mlp_extractor.policy_net
            if not isinstance(m, torch.nn.Linear)}
    activation = acts.pop() if acts else "tanh"
    head = policy.action_net
    if not isinstance(head, torch.nn.Linear):
        raise ValueError(f"export_sb3 exports a policy of discrete actions (a linear action head), not "
                         f"{type(head).__name__}")
    layers.append(head)
    weights = [layer.weight.detach().cpu().numpy() for layer in layers]
    biases = [layer.bias.detach().cpu().numpy() for layer in layers]
    return NumpyPolicy(weights, biases, activation, meta, obs_scale)


_ACT_NAMES = {"Tanh": "tanh", "ReLU": "relu"}


class _PPOTorchModule(Protocol):
    """What :func:`export_rllib` reads of a torch PPO ``RLModule`` (``DefaultPPOTorchRLModule``'s)."""

    @property
    def encoder(self) -> torch.nn.Module: ...

    @property
    def pi(self) -> torch.nn.Module: ...

    def named_modules(self) -> Iterator[tuple[str, torch.nn.Module]]: ...


def export_rllib(source: Algorithm | MultiRLModule | RLModule, *, module_id: str | None = None,
                 env_config: Mapping[str, object] | None = None,
                 obs_scale: np.ndarray | None = None,
                 meta: Mapping[str, object] | None = None) -> NumpyPolicy:
    """The policy branch of a trained RLlib PPO module as a :class:`NumpyPolicy`.

    ``source``: an ``Algorithm`` (the structure of its env runners' ``module_id`` module,
    the weights of its learner), a ``MultiRLModule`` (its ``module_id``) or a torch ``RLModule``
    (``ActionMaskingPPOModule`` / ``DefaultPPOTorchRLModule`` with an MLP encoder and
    a policy head of one activation, tanh or relu; no layer norm).  ``env_config``: the
    ``cardenvs.integrations.rllib.CardEnv`` config trained on (``module_id`` defaults to
    its ``ppo_config``'s shared policy); its observation scale (unless ``obs_scale`` is given)
    is stored with the policy, so the numpy policy reads raw observations, and
    ``env_name`` / ``num_players`` go into the metadata.  Save with ``.save(path)``;
    ``agents.make_agent(env_name, "policy:PATH")`` plays it.
    """
    import torch
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModule

    from cardenvs.integrations.rllib import POLICY_ID, CardEnv

    module_id = POLICY_ID if module_id is None else module_id

    if hasattr(source, "get_module"):  # an Algorithm: the module of its local (or first) env runner
        module = source.get_module(module_id)
    elif isinstance(source, MultiRLModule):
        module = source[module_id]
    else:
        module = source
    if module is None:
        raise ValueError(f"no RLModule {module_id!r} in {source!r}")
    module = cast(_PPOTorchModule, module)  # a torch PPO module, as the docstring says
    encoder = module.encoder
    actor = getattr(encoder, "actor_encoder", None) or getattr(encoder, "encoder", None)
    if actor is None:
        raise ValueError(f"cannot find the actor encoder of {type(module).__name__}")
    linears: list[torch.nn.Linear] = []
    acts: set[str] = set()
    for part in (actor, module.pi):
        for m in part.modules():
            if isinstance(m, torch.nn.Linear):
                linears.append(m)
            elif type(m).__name__ in _ACT_NAMES:
                acts.add(_ACT_NAMES[type(m).__name__])
            elif isinstance(m, (torch.nn.LayerNorm, torch.nn.Dropout, torch.nn.Conv2d, torch.nn.LSTM)):
                raise ValueError(f"export_rllib exports plain MLPs only, found {type(m).__name__}")
    if len(acts) > 1:
        raise ValueError(f"the numpy policy has one activation; this module mixes {sorted(acts)} "
                         "(set head_fcnet_activation like fcnet_activation or head_fcnet_hiddens=[])")
    # an Algorithm's weights come from its learner (the source of truth), by parameter name
    state: Mapping[str, object] = {}
    if hasattr(source, "learner_group") and source.learner_group is not None:
        state = source.learner_group.get_weights([module_id]).get(module_id, {})
    names = {id(m): name for name, m in module.named_modules()}

    def param(m: torch.nn.Linear, attr: str) -> np.ndarray:
        key = f"{names[id(m)]}.{attr}"
        if key in state:
            return np.asarray(state[key], np.float32)
        value = getattr(m, attr)
        if value is None:  # a bias-free layer
            return np.zeros(m.out_features, np.float32)
        return np.asarray(value.detach().cpu().numpy(), np.float32)

    weights = [param(m, "weight") for m in linears]
    biases = [param(m, "bias") for m in linears]
    info: dict[str, object] = {"source": "rllib", "rllib_module": type(module).__name__}
    scale = obs_scale
    if env_config is not None:
        cfg = dict(env_config)
        cfg.pop("torch_threads", None)
        env = CardEnv({**cfg, "opponents": [], "make_opponent": None})
        info["env_name"], info["num_players"] = env.env_name, env.game.num_players
        if scale is None:
            scale = env.obs_scale
    info.update(meta or {})
    return NumpyPolicy(weights, biases, acts.pop() if acts else "tanh", info, scale)


class TrainedAgent(Agent):
    """Plays a trained policy: the most probable legal action (or samples, if asked)."""

    name = "trained"

    def __init__(self, env_name: str, path: str | Path | None = None, seed: int | None = None,
                 name: str | None = None, sample: bool = False) -> None:
        super().__init__(seed, name)
        self.env_name = env_name
        p = Path(path) if path is not None else policy_path(env_name)
        if not p.exists():
            raise ValueError(f"no trained policy for {env_name} at {p}")
        self.scorer: ScorerPolicy | None = None
        self.policy: NumpyPolicy | None = None
        #: a policy over the learner observations (planes, action features), played from the View
        self.features: FeaturePolicy | None = None
        #: the game's knowledge a scorer policy computes its inputs with (None: a flat policy)
        self.knowledge: Knowledge | None = None
        loaded = _shared_policy(_file_key(p))
        if isinstance(loaded, FeaturePolicy):
            if loaded.env_name != env_name:
                raise ValueError(f"{p} is a policy for {loaded.env_name}, not {env_name}")
            self.features = loaded
        elif isinstance(loaded, ScorerPolicy):
            self.scorer = loaded
            self.knowledge = knowledge(env_name)
        else:
            self.policy = loaded
        self.sample = sample

    def act(self, observation: Observation) -> int:
        """The policy's move from the observation dict ``env.last()`` gives."""
        if self.scorer is not None or self.features is not None:  # its inputs come from the decoded View
            return super().act(observation)
        mask = np.asarray(observation["action_mask"], bool)
        if not mask.any():
            raise ValueError("the action mask has no legal action: this player is not to move")
        return self._pick(observation["observation"], mask)

    def choose(self, game: Game[S, V], view: V, legal: list[int]) -> int:
        """The policy's move from the View, encoded as the environment would."""
        if self.features is not None:
            return legal[self._pick_index(_softmax(self.features.legal_logits(game, view, legal)))]
        if self.scorer is not None and self.knowledge is not None:
            feats = action_features(self.knowledge, game, view, legal)
            z = self.scorer.legal_logits(game.encode(view), legal, feats)
            z = z - z.max()
            probs = np.exp(z)
            probs /= probs.sum()
            return legal[self._pick_index(probs)]
        mask = np.zeros(game.num_actions, bool)
        mask[legal] = True
        return self._pick(game.encode(view), mask)

    def _pick(self, obs: np.ndarray, mask: np.ndarray) -> int:
        assert self.policy is not None
        return self._pick_index(self.policy.probabilities(obs, mask))

    def _pick_index(self, probs: np.ndarray) -> int:
        """An index drawn from ``probs`` (``sample``) or the most probable, ties at random."""
        if self.sample:
            return int(self.rng.choice(probs.size, p=probs))
        best = np.flatnonzero(probs >= probs.max() - 1e-12)
        return int(best[0] if best.size == 1 else best[self.rng.integers(best.size)])


def _softmax(z: np.ndarray) -> np.ndarray:
    """Probabilities of logits ``z`` (one row)."""
    z = np.asarray(z, np.float64)
    e = np.exp(z - z.max())
    return e / e.sum()
