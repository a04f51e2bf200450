"""Value estimates of whole positions, for the control variates of :mod:`.aivat`.

A value function maps full states (every hand known: the estimator runs after the
game, as AIVAT does) to each seat's expected points, a row per state summing to 1.
The correction is unbiased whatever the value function; a good one makes it small
where the cards, not the players, decided.

* :class:`ValueNet`: ``V_p = softmax over seats of f(observe(state, p))``, ``f`` a small
  MLP on a seat's observation, shipped as numpy weights
  (``agents/policies/values/<env>_<n>p.npz``, trained by ``experiments/train_values.py``);
  at the end of a game the value is the points themselves.  Numpy only.
* :class:`UniformValue`: ``1/n`` to every seat (the end's points at the end): the
  fallback where no net was trained, which makes every correction of a game 0 but the
  last chance event's.
* :func:`value_for`: the shipped net of a table when there is one (same seat count and
  options as it was trained on), else :class:`UniformValue`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Protocol

import numpy as np

from cardenvs.core.game import Game

from ..players.scorer import write_npz
from ..types import JsonDict, S, V

#: the folder of the shipped value nets
VALUES_DIR = Path(__file__).resolve().parents[1] / "policies" / "values"


class ValueFunction(Protocol):
    """``values(game, states) -> array (len(states), num_players)``, rows summing to 1."""

    def __call__(self, game: Game[S, V], states: Sequence[S]) -> np.ndarray:
        """Each seat's expected points in each of ``states``."""
        ...


def game_points(game: Game[S, V], state: S) -> np.ndarray:
    """The points of a finished game (1 a sole win, ``1/k`` a win shared by ``k``, else 0)."""
    r = game.returns(state)
    best = max(r)
    win = np.array([x == best for x in r], np.float64)
    return win / win.sum()


def _end_rows(game: Game[S, V], states: Sequence[S], out: np.ndarray) -> list[int]:
    """Write the points of the finished states into ``out``; the indices of the others."""
    todo = []
    for i, s in enumerate(states):
        if game.is_terminal(s):
            out[i] = game_points(game, s)
        else:
            todo.append(i)
    return todo


class UniformValue:
    """Every seat ``1/n`` while the game runs, the points at its end."""

    name = "uniform"

    def __call__(self, game: Game[S, V], states: Sequence[S]) -> np.ndarray:
        """``1/n`` per seat, or the points of a finished game."""
        n = game.num_players
        out = np.full((len(states), n), 1.0 / n)
        _end_rows(game, states, out)
        return out


#: the inputs a value net may read of a seat: its flat observation, and the game's
#: knowledge's ``evaluate(game, state, seat)`` (the value its search gives a cut-short
#: rollout: hand and score facts the flat vector holds only as one-hots)
FEATURES = ("flat", "evaluate")


def value_inputs(game: Game[S, V], states: Sequence[S],
                 features: Sequence[str] = ("flat",)) -> np.ndarray:
    """The net's input rows of ``states``: one per state and seat (state-major), float32."""
    unknown = set(features) - set(FEATURES)
    if unknown:
        raise ValueError(f"unknown value features {sorted(unknown)}; known: {', '.join(FEATURES)}")
    n = game.num_players
    x = np.stack([game.observe(s, p) for s in states for p in range(n)])
    if "evaluate" in features:
        from ..players.knowledge import knowledge

        know = knowledge(game.env_name)
        ev = np.array([[know.evaluate(game, s, p)] for s in states for p in range(n)], np.float32)
        x = np.concatenate([x, ev], axis=1)
    return x


class ValueNet:
    """``softmax_p f(inputs(state, p))`` with ``f`` an MLP in numpy (ReLU hidden layers).

    ``layers`` are ``(W, b)`` pairs (``W`` of shape ``(inputs, outputs)``); the inputs
    (:func:`value_inputs` with ``meta["features"]``, default the flat observation) are
    shifted and scaled by ``shift``/``scale``.  Finished states get their points.
    """

    def __init__(self, layers: Sequence[tuple[np.ndarray, np.ndarray]], shift: np.ndarray,
                 scale: np.ndarray, meta: Mapping[str, object] | None = None) -> None:
        self.layers = [(np.asarray(w, np.float32), np.asarray(b, np.float32)) for w, b in layers]
        self.shift = np.asarray(shift, np.float32)
        self.scale = np.asarray(scale, np.float32)
        self.meta: JsonDict = dict(meta or {})
        self.name = str(self.meta.get("name", "value-net"))
        features = self.meta.get("features", ("flat",))
        coefficients = self.meta.get("coefficients", {})
        if not isinstance(features, (list, tuple)) or not isinstance(coefficients, dict):
            raise ValueError(f"a value net's meta names a list of features and a dict of coefficients, "
                             f"got {features!r} and {coefficients!r}")
        self.features: tuple[str, ...] = tuple(features)
        #: the weight of each kind of bracket (see :class:`agents.measure.ChanceCorrector`)
        self.coefficients: dict[str, float] = dict(coefficients)

    @classmethod
    def load(cls, path: str | Path) -> ValueNet:
        """Read a net written by :meth:`save`."""
        with np.load(path, allow_pickle=False) as z:
            k = int(z["num_layers"])
            layers = [(z[f"W{i}"], z[f"b{i}"]) for i in range(k)]
            meta = json.loads(str(z["meta"]))
            return cls(layers, z["shift"], z["scale"], meta)

    def save(self, path: str | Path) -> None:
        """Write the net (float32 weights and a JSON ``meta``) to an ``.npz``."""
        arrays: dict[str, np.ndarray] = {"num_layers": np.array(len(self.layers)), "shift": self.shift,
                                         "scale": self.scale, "meta": np.array(json.dumps(self.meta))}
        for i, (w, b) in enumerate(self.layers):
            arrays[f"W{i}"], arrays[f"b{i}"] = w, b
        write_npz(path, arrays)

    def scores(self, x: np.ndarray) -> np.ndarray:
        """``f`` of each row of observations ``x`` (shape ``(rows, obs)``) -> ``(rows,)``."""
        h = (x - self.shift) * self.scale
        last = len(self.layers) - 1
        for i, (w, b) in enumerate(self.layers):
            h = h @ w + b
            if i < last:
                np.maximum(h, 0.0, out=h)
        return h[:, 0]

    def __call__(self, game: Game[S, V], states: Sequence[S]) -> np.ndarray:
        """Each seat's expected points: a softmax of the seats' scores (points at the end)."""
        n = game.num_players
        out = np.empty((len(states), n))
        todo = _end_rows(game, states, out)
        if todo:
            x = value_inputs(game, [states[i] for i in todo], self.features)
            z = self.scores(x).astype(np.float64).reshape(len(todo), n)
            z -= z.max(axis=1, keepdims=True)
            e = np.exp(z)
            out[todo] = e / e.sum(axis=1, keepdims=True)
        return out


def value_path(env_name: str, num_players: int) -> Path:
    """Where the shipped net of a table lives (it may not exist)."""
    return VALUES_DIR / f"{env_name}_{num_players}p.npz"


_CACHE: dict[Path, ValueNet] = {}


def value_for(game: Game[S, V]) -> ValueFunction:
    """The shipped :class:`ValueNet` of ``game``'s table, else :class:`UniformValue`.

    A net is used only at the seat count and options it was trained on (written in its
    ``meta``): elsewhere its inputs would be unlike anything it saw, and the uniform
    value (corrections of 0 but at the end) can do no harm.
    """
    path = value_path(game.env_name, game.num_players)
    if not path.exists():
        return UniformValue()
    net = _CACHE.get(path)
    if net is None:
        net = _CACHE[path] = ValueNet.load(path)
    if net.meta.get("options", game.options) != game.options:
        return UniformValue()
    return net
