"""Per-action scorer policies: a flat MLP plus one small network shared by every action.

A flat policy sees the whole observation vector and must learn, separately for each of
a game's action ids, what makes that move good.  A scorer policy adds a second path:
for each *legal* action it computes a short vector of facts from the player's View
(:func:`action_features`) and scores it with one MLP shared by all actions, so what it
learns about "a move that fits my line" carries over to every card that does.  The
logits::

    logit[a] = trunk(obs * scale)[a] + head(features(view, a))      for legal a

The facts are the game's heuristic scores of the move at both depths (as differences
from the best move, the way a player compares options), plus game-specific facts where
a game defines :meth:`agents.players.knowledge.Knowledge.action_facts`.  All of them are computed
from the View alone, so a scorer policy is as honest as the heuristics are.

Policies are trained by ``experiments/distill.py`` (behaviour cloning and DAgger with a
search teacher, in torch) and played here in numpy: no torch at play time.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

import numpy as np

from cardenvs.core.game import Game

from ..types import S, V
from .knowledge import Knowledge

#: version of the feature layout; a policy file records the one it was trained with
FEATURES_VERSION = 1
#: facts per heuristic depth (see :func:`heuristic_features`)
HEURISTIC_FACTS = 5
#: heuristic depths used as facts (1: greedy, 2: planner)
DEPTHS = (1, 2)


def heuristic_features(knowledge: Knowledge, game: Game[S, V], view: V, legal: list[int]) -> np.ndarray:
    """``[len(legal), 1 + 5 * len(DEPTHS)]`` facts from the game's heuristic scores.

    Column 0 is ``1 / len(legal)``; then, per depth: is it the (joint) best move, its
    score less the best one's divided by the scores' spread (clipped to [-4, 0], over
    4), the same difference on a log scale, its rank among the moves (0 best, 1 worst),
    and whether it is the best by a clear margin (the runner-up is more than a spread
    behind).  Differences, not raw scores, so the facts mean the same in every position.
    """
    n = len(legal)
    out = np.zeros((n, 1 + HEURISTIC_FACTS * len(DEPTHS)), np.float32)
    out[:, 0] = 1.0 / n
    for j, depth in enumerate(DEPTHS):
        s = np.asarray(knowledge.scores(game, view, legal, depth), np.float64)
        d = s - s.max()
        spread = float(s.std()) + 1e-6
        col = 1 + HEURISTIC_FACTS * j
        best = d >= -1e-9
        out[:, col] = best
        out[:, col + 1] = np.clip(d / spread, -4.0, 0.0) / 4.0
        out[:, col + 2] = -np.log1p(-d) / 10.0
        if n > 1:
            order = np.argsort(-s, kind="stable")
            rank = np.empty(n)
            rank[order] = np.arange(n)
            out[:, col + 3] = rank / (n - 1)
            second = np.sort(d)[-2]
            out[:, col + 4] = best & (second < -spread)
        else:
            out[:, col + 4] = 1.0
    return out


def action_features(knowledge: Knowledge, game: Game[S, V], view: V, legal: list[int]) -> np.ndarray:
    """``[len(legal), F]`` facts of each legal action: heuristic facts, then the game's own."""
    heur = heuristic_features(knowledge, game, view, legal)
    facts = knowledge.action_facts(game, view, legal)
    if facts.shape[1] == 0:
        return heur
    return np.concatenate([heur, np.asarray(facts, np.float32)], axis=1)


def _relu(x: np.ndarray) -> np.ndarray:
    return np.maximum(x, 0.0)


def dense(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``x @ w.T + b``; one vector ``x`` through einsum's own loop rather than BLAS.

    A BLAS product of one small vector is parallelised over the cores and, with the
    cores busy (a tournament's workers, a server), ran 2-100x slower than einsum's
    single-threaded loop; batches keep BLAS.
    """
    if x.ndim == 1:
        return np.einsum("ij,j->i", w, x) + b
    return x @ w.T + b


def _mlp(x: np.ndarray, weights: list[np.ndarray], biases: list[np.ndarray]) -> np.ndarray:
    last = len(weights) - 1
    for i, (w, b) in enumerate(zip(weights, biases)):
        x = dense(x, w, b)
        if i < last:
            x = _relu(x)
    return x


class ScorerPolicy:
    """A flat ReLU MLP over the observation plus a shared ReLU MLP over each action's facts.

    ``trunk_*``: layers from the (scaled) observation to one logit per action id (empty:
    no trunk); ``head_*``: layers from an action's ``num_features`` facts to one number.
    """

    kind = "scorer"

    def __init__(self, trunk_weights: list[np.ndarray], trunk_biases: list[np.ndarray],
                 head_weights: list[np.ndarray], head_biases: list[np.ndarray],
                 obs_scale: np.ndarray | None, meta: Mapping[str, object] | None = None) -> None:
        if not head_weights:
            raise ValueError("a scorer policy needs at least one head layer")
        self.trunk_weights = [np.asarray(w, np.float32) for w in trunk_weights]
        self.trunk_biases = [np.asarray(b, np.float32) for b in trunk_biases]
        self.head_weights = [np.asarray(w, np.float32) for w in head_weights]
        self.head_biases = [np.asarray(b, np.float32) for b in head_biases]
        self.obs_scale = None if obs_scale is None else np.asarray(obs_scale, np.float32)
        self.meta = dict(meta or {})

    @property
    def num_features(self) -> int:
        """How many facts per action the head reads."""
        return int(self.head_weights[0].shape[1])

    @classmethod
    def load(cls, path: str | Path) -> ScorerPolicy:
        """Read a policy saved by :meth:`save` (``ValueError`` if the file is another kind)."""
        with np.load(path, allow_pickle=False) as data:
            if "kind" not in data.files or str(data["kind"]) != cls.kind:
                raise ValueError(f"{path} is not a scorer policy file")
            version = int(data["features_version"])
            if version != FEATURES_VERSION:
                raise ValueError(f"{path} was trained with feature layout v{version}; this "
                                 f"version of agents computes v{FEATURES_VERSION}: retrain it")
            nt, nh = int(data["trunk_layers"]), int(data["head_layers"])
            tw = [data[f"tw{i}"] for i in range(nt)]
            tb = [data[f"tb{i}"] for i in range(nt)]
            hw = [data[f"hw{i}"] for i in range(nh)]
            hb = [data[f"hb{i}"] for i in range(nh)]
            scale = data["obs_scale"] if "obs_scale" in data.files else None
            meta = {key[5:]: str(data[key]) for key in data.files if key.startswith("meta_")}
        return cls(tw, tb, hw, hb, scale, meta)

    def save(self, path: str | Path) -> None:
        """Write the arrays (float32), the feature layout version and metadata to ``.npz``."""
        arrays: dict[str, np.ndarray] = {
            "kind": np.array(self.kind), "features_version": np.array(FEATURES_VERSION),
            "trunk_layers": np.array(len(self.trunk_weights)),
            "head_layers": np.array(len(self.head_weights)),
        }
        for i, (w, b) in enumerate(zip(self.trunk_weights, self.trunk_biases)):
            arrays[f"tw{i}"], arrays[f"tb{i}"] = w, b
        for i, (w, b) in enumerate(zip(self.head_weights, self.head_biases)):
            arrays[f"hw{i}"], arrays[f"hb{i}"] = w, b
        save_arrays(path, arrays, self.obs_scale, self.meta)

    def legal_logits(self, obs: np.ndarray, legal: list[int], features: np.ndarray) -> np.ndarray:
        """The logit of each legal action (in ``legal``'s order) for one observation."""
        if features.shape != (len(legal), self.num_features):
            raise ValueError(f"expected features of shape {(len(legal), self.num_features)}, "
                             f"got {features.shape}")
        z = _mlp(np.asarray(features, np.float32), self.head_weights, self.head_biases)[:, 0]
        if self.trunk_weights:
            x = np.asarray(obs, np.float32)
            if self.obs_scale is not None:
                x = x * self.obs_scale
            z = z + _mlp(x, self.trunk_weights, self.trunk_biases)[np.asarray(legal)]
        return z


def save_arrays(path: str | Path, arrays: Mapping[str, np.ndarray], obs_scale: np.ndarray | None,
                meta: dict[str, object]) -> None:
    """Write a policy file: its layer ``arrays``, input scale and ``meta_*`` strings (``.npz``)."""
    arrays = dict(arrays)
    if obs_scale is not None:
        arrays["obs_scale"] = obs_scale
    for key, value in meta.items():
        arrays[f"meta_{key}"] = np.array(str(value))
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    write_npz(path, arrays)


def write_npz(path: str | Path, arrays: Mapping[str, np.ndarray]) -> None:
    """``np.savez_compressed(path, **arrays)``: the named arrays, compressed."""
    # numpy's stub (2.1+) reads any name of ``**arrays`` as maybe its ``allow_pickle: bool``
    savez: Callable[..., None] = np.savez_compressed
    savez(path, **arrays)


def is_scorer_file(path: str | Path) -> bool:
    """Whether an ``.npz`` policy file holds a :class:`ScorerPolicy`."""
    with np.load(path, allow_pickle=False) as data:
        return "kind" in data.files and str(data["kind"]) == ScorerPolicy.kind
