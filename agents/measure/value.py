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

**Lookahead** (:class:`Lookahead`, and a net whose ``meta["lookahead"]`` says so): ``V`` of
the position the players reach from a state by a fixed heuristic's moves (the game's
planner, ties to the first) before the next move that may meet chance.  Between two
chance events the ladder's agents play moves a net cannot foresee (a line completed, a
group laid down) and ``V`` jumps across them; read after those moves, the value a bracket
takes is what the position is about to become.  It is still a fixed function of the
state (the heuristic sees only the mover's View and no move that meets chance is
played), so every bracket keeps its mean of 0.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Generic, Protocol

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


def reads_views(value: object) -> bool:
    """Whether ``value`` reads a state only through every seat's View, so that two states
    alike in all of them (the same encoded observations, :meth:`Game.observe`, which
    :meth:`Game.decode` inverts) get the same values: its ``reads_views`` attribute (true
    for :class:`ValueNet`, its :class:`Lookahead` and :class:`UniformValue`; a value of
    one's own that reads the face-down order, say, must leave it unset)."""
    return getattr(value, "reads_views", False) is True


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
    #: reads nothing of a state but whether it is over (:func:`agents.measure.reads_views`)
    reads_views = True

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


#: ``choose(game, view, legal) -> action``: the fixed player of a lookahead (deterministic)
Chooser = Callable[[Game[S, V], V, list[int]], int]

#: the generator a lookahead hands ``apply``: its moves meet no chance, so it draws nothing
_NO_CHANCE = np.random.default_rng(0)


def heuristic_chooser(env_name: str, level: int = 2) -> Chooser[S, V]:
    """The best move of the game's knowledge at ``level`` (1 greedy, 2 planner), ties to
    the first legal one: the ladder's heuristic without its random tie-break."""
    from ..players.knowledge import knowledge

    know = knowledge(env_name)

    def choose(game: Game[S, V], view: V, legal: list[int]) -> int:
        return legal[int(np.argmax(np.asarray(know.scores(game, view, legal, level), float)))]

    return choose


def play_ahead(game: Game[S, V], state: S, choose: Chooser[S, V], max_moves: int) -> S:
    """The position ``choose`` reaches from ``state`` (left untouched) playing every seat,
    stopping before a move that may meet chance (:meth:`Game.has_chance`), at the end, or
    after ``max_moves`` moves; ``state`` itself when the first move already stops."""
    out: S | None = None
    cur = state
    for _ in range(max_moves):
        if game.is_terminal(cur) or game.is_truncated(cur):
            break
        legal = list(game.legal_actions(cur))
        action = choose(game, game.view(cur, game.current_player(cur)), legal)
        if game.has_chance(cur, action):
            break
        if out is None:
            out = cur = game.clone(state)
        game.apply(cur, action, _NO_CHANCE)
    return state if out is None else out


class Lookahead(Generic[S, V]):
    """``value`` of the position :func:`play_ahead` reaches (see the module docstring).

    ``choose``: the fixed player (default :func:`heuristic_chooser` of the game at
    ``level``); ``max_moves``: how far at most.  Keeps ``value``'s coefficients."""

    def __init__(self, value: ValueFunction, level: int = 2, max_moves: int = 12,
                 choose: Chooser[S, V] | None = None) -> None:
        if max_moves < 1:
            raise ValueError(f"max_moves must be at least 1, got {max_moves}")
        self.value, self.level, self.max_moves = value, level, max_moves
        self._choose = choose
        self._choosers: dict[str, Chooser[S, V]] = {}
        self.name = f"lookahead({getattr(value, 'name', 'value')})"
        #: as ``value``'s: the fixed player sees only the mover's View, and the moves it plays
        #: meet no chance (:func:`agents.measure.reads_views`)
        self.reads_views: bool = reads_views(value)
        #: the value's own (see :class:`agents.measure.ChanceCorrector`)
        self.coefficients: dict[str, float] = dict(getattr(value, "coefficients", None) or {})

    def chooser(self, game: Game[S, V]) -> Chooser[S, V]:
        """The fixed player for ``game`` (made once per game name)."""
        if self._choose is not None:
            return self._choose
        c = self._choosers.get(game.env_name)
        if c is None:
            c = self._choosers[game.env_name] = heuristic_chooser(game.env_name, self.level)
        return c

    def __call__(self, game: Game[S, V], states: Sequence[S]) -> np.ndarray:
        """``value`` of each state played ahead."""
        choose = self.chooser(game)
        return self.value(game, [play_ahead(game, s, choose, self.max_moves) for s in states])


class ValueNet:
    """``softmax_p f(inputs(state, p))`` with ``f`` an MLP in numpy (ReLU hidden layers).

    ``layers`` are ``(W, b)`` pairs (``W`` of shape ``(inputs, outputs)``); the inputs
    (:func:`value_inputs` with ``meta["features"]``, default the flat observation) are
    shifted and scaled by ``shift``/``scale``.  Finished states get their points.  With
    ``meta["lookahead"]`` (``{"level": 2, "max_moves": 12}``) the net values each state
    played ahead (:class:`Lookahead`), as its coefficients were fitted; ``meta["samples"]``
    is how many outcomes per chance event the corrector samples with it by default, and
    ``meta["stratified"]`` (``true``) whether it stratifies them (rotations of one shuffle).
    """

    def __init__(self, layers: Sequence[tuple[np.ndarray, np.ndarray]], shift: np.ndarray,
                 scale: np.ndarray, meta: Mapping[str, object] | None = None) -> None:
        self.layers = [(np.asarray(w, np.float32), np.asarray(b, np.float32)) for w, b in layers]
        self.shift = np.asarray(shift, np.float32)
        self.scale = np.asarray(scale, np.float32)
        self.meta: JsonDict = dict(meta or {})
        self.name = str(self.meta.get("name", "value-net"))
        #: the inputs are the seats' observations and the knowledge's ``evaluate``, which in
        #: every shipped game reads what some seat sees and the face-down cards as a set,
        #: never their order (:func:`agents.measure.reads_views`)
        self.reads_views = True
        features = self.meta.get("features", ("flat",))
        coefficients = self.meta.get("coefficients", {})
        if not isinstance(features, (list, tuple)) or not isinstance(coefficients, dict):
            raise ValueError(f"a value net's meta names a list of features and a dict of coefficients, "
                             f"got {features!r} and {coefficients!r}")
        self.features: tuple[str, ...] = tuple(features)
        #: the weight of each kind of bracket (see :class:`agents.measure.ChanceCorrector`)
        self.coefficients: dict[str, float] = dict(coefficients)
        ahead = self.meta.get("lookahead")
        if ahead is not None and not (isinstance(ahead, dict) and set(ahead) <= {"level", "max_moves"}
                                      and all(type(v) is int and v >= 1 for v in ahead.values())):
            raise ValueError("a value net's meta lookahead is {'level': int, 'max_moves': int} (each >= 1), "
                             f"got {ahead!r}")
        samples = self.meta.get("samples")
        if samples is not None and (isinstance(samples, bool) or not isinstance(samples, int) or samples < 1):
            raise ValueError(f"a value net's meta samples is a whole number >= 1, got {samples!r}")
        #: outcomes to sample per chance event with this net (``meta["samples"]``; ``None``:
        #: the corrector's default, 8)
        self.samples: int | None = samples
        stratified = self.meta.get("stratified")
        if stratified is not None and not isinstance(stratified, bool):
            raise ValueError(f"a value net's meta stratified is true or false, got {stratified!r}")
        #: whether the corrector stratifies its redraws with this net (``meta["stratified"]``;
        #: ``None``: the corrector's default, independent redraws)
        self.stratified: bool | None = stratified
        #: the lookahead the net reads its states through (``None``: the states themselves)
        self.lookahead: Lookahead[Any, Any] | None = None if ahead is None else Lookahead(self._raw, **ahead)

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
        """Each seat's expected points: a softmax of the seats' scores (points at the end),
        of the states played ahead when the net has a lookahead."""
        if self.lookahead is not None:
            return self.lookahead(game, states)
        return self._raw(game, states)

    def _raw(self, game: Game[S, V], states: Sequence[S]) -> np.ndarray:
        """:meth:`__call__` of the states themselves."""
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
