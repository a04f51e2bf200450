"""Policies over the learner observations (flat, planes, action features), played in numpy.

The environments offer three observation designs (:mod:`cardenvs.core.observers`).  A
:class:`FeaturePolicy` plays a network trained on any of them, from the player's View,
without torch:

* ``"action_features"``: an *action scorer*.  One small MLP, shared by every action,
  reads the row of facts of each legal action (the game's ``action_features``, which
  end with the position's facts) and gives its logit; the move is the legal action of
  the highest logit.  Nothing in it depends on how many actions the game has.
* ``"flat"`` and ``"planes"``: an MLP over the (flattened) observation with one output
  per action id; the legal ones compete.

The file (``.npz``, ``kind = "features"``) holds the layers, the observation design, the
game and the feature layout's size (a file trained on another layout is refused), and
free ``meta_*`` strings (the command that made it, its training time).  It plays as the
level ``"policy:FILE.npz"`` through :class:`agents.players.trained.TrainedAgent`.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import numpy as np

from cardenvs.core.game import Game
from cardenvs.core.observers import OBSERVATIONS, features_module

from ..types import S, V
from .scorer import dense, save_arrays

#: the ``kind`` entry of a feature-policy file
KIND = "features"
ACTIVATIONS = ("relu", "tanh")


def _act(x: np.ndarray, name: str) -> np.ndarray:
    return np.maximum(x, 0.0) if name == "relu" else np.tanh(x)


def policy_input(game: Game[S, V], observation: str, view: V, legal: list[int]) -> np.ndarray:
    """What a policy of design ``observation`` reads: the legal actions' feature rows, or
    the (flattened) observation vector."""
    if observation == "action_features":
        return features_module(game).action_features(view, legal)
    if observation == "planes":
        return features_module(game).planes(view).reshape(-1)
    return game.encode(view)


class FeaturePolicy:
    """An MLP over one observation design; see the module docstring.

    ``weights``/``biases``: the layers, hidden ones with ``activation``; the last layer
    has one output (``"action_features"``: the action's logit) or one per action id.
    ``obs_scale``: per-input factors (flat observations only).
    """

    def __init__(self, observation: str, env_name: str, weights: list[np.ndarray], biases: list[np.ndarray],
                 activation: str = "relu", obs_scale: np.ndarray | None = None,
                 meta: Mapping[str, object] | None = None) -> None:
        if observation not in OBSERVATIONS:
            raise ValueError(f"observation must be one of {', '.join(OBSERVATIONS)}, got {observation!r}")
        if activation not in ACTIVATIONS:
            raise ValueError(f"activation must be one of {', '.join(ACTIVATIONS)}, got {activation!r}")
        if not weights or len(weights) != len(biases):
            raise ValueError("a feature policy needs as many bias vectors as weight matrices (at least one)")
        self.observation = observation
        self.env_name = env_name
        self.weights = [np.asarray(w, np.float32) for w in weights]
        self.biases = [np.asarray(b, np.float32) for b in biases]
        self.activation = activation
        self.obs_scale = None if obs_scale is None else np.asarray(obs_scale, np.float32)
        self.meta = dict(meta or {})

    @property
    def input_size(self) -> int:
        """Inputs of the first layer (facts per action, or the observation's length)."""
        return int(self.weights[0].shape[1])

    def forward(self, x: np.ndarray) -> np.ndarray:
        """The network's output for inputs ``x`` (rows of facts, or one observation)."""
        x = np.asarray(x, np.float32)
        if self.obs_scale is not None:
            x = x * self.obs_scale
        last = len(self.weights) - 1
        for i, (w, b) in enumerate(zip(self.weights, self.biases)):
            x = dense(x, w, b)
            if i < last:
                x = _act(x, self.activation)
        return x

    def legal_logits(self, game: Game[S, V], view: V, legal: list[int]) -> np.ndarray:
        """The logit of each legal action (in ``legal``'s order) in ``view``."""
        x = policy_input(game, self.observation, view, legal)
        if self.observation == "action_features":
            if x.shape[1] != self.input_size:
                raise ValueError(f"the policy reads {self.input_size} facts per action, the game gives "
                                 f"{x.shape[1]}: it was trained on another feature layout")
            return self.forward(x)[:, 0]
        return self.forward(x)[np.asarray(legal)]

    # ------------------------------------------------------------------ files
    def save(self, path: str | Path) -> None:
        """Write the policy to ``path`` (``.npz``: layers, design, game, metadata)."""
        arrays: dict[str, np.ndarray] = {
            "kind": np.array(KIND), "observation": np.array(self.observation),
            "env_name": np.array(self.env_name), "activation": np.array(self.activation),
            "num_layers": np.array(len(self.weights)),
        }
        for i, (w, b) in enumerate(zip(self.weights, self.biases)):
            arrays[f"w{i}"], arrays[f"b{i}"] = w, b
        save_arrays(path, arrays, self.obs_scale, self.meta)

    @classmethod
    def load(cls, path: str | Path) -> FeaturePolicy:
        """Read a file written by :meth:`save` (``ValueError`` if it is another kind)."""
        with np.load(path, allow_pickle=False) as data:
            if "kind" not in data.files or str(data["kind"]) != KIND:
                raise ValueError(f"{path} is not a feature-policy file")
            k = int(data["num_layers"])
            weights = [data[f"w{i}"] for i in range(k)]
            biases = [data[f"b{i}"] for i in range(k)]
            scale = data["obs_scale"] if "obs_scale" in data.files else None
            meta = {key[5:]: str(data[key]) for key in data.files if key.startswith("meta_")}
            return cls(str(data["observation"]), str(data["env_name"]), weights, biases,
                       str(data["activation"]), scale, meta)


def is_feature_file(path: str | Path) -> bool:
    """Whether an ``.npz`` policy file holds a :class:`FeaturePolicy`."""
    with np.load(path, allow_pickle=False) as data:
        return "kind" in data.files and str(data["kind"]) == KIND


__all__ = ["FeaturePolicy", "is_feature_file", "policy_input", "KIND"]
