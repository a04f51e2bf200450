"""Measure any policy against the ladder in one call: :func:`evaluate`::

    import agents
    result = agents.evaluate(my_policy, env_name, against=["greedy", "planner"], games=200)
    result.scores["planner"].share, result.scores["planner"].interval, result.rating

The command line does the same (``cardenvs-evaluate``, or ``python -m agents.evaluation``)::

    cardenvs-evaluate my_policy.npz --env <env> --against greedy planner --games 200 --workers 2

**The policy** may be

* a plain function of the observation dict ``env.last()`` gives
  (``{"observation": float32 vector, "action_mask": int8 vector}``) returning an action id;
* an :class:`~agents.players.base.Agent` (``make_agent(...)``, your own subclass), or any object
  with ``choose(game, view, legal)`` or PettingZoo's ``act(observation)``;
* a Stable-Baselines3 / sb3-contrib model of a discrete-action algorithm, played
  deterministically among the legal moves (:class:`SB3Policy`), on the observation design
  it was trained on, told by the shape of its observation space:

  - ``MaskablePPO(ActionScorerPolicy, ...)`` on ``observation="action_features"`` (the
    training recipe, :mod:`agents.learning.feature_sb3`);
  - ``MaskablePPO("MlpPolicy", ...)`` or ``MaskablePPO(**fast_ppo_kwargs(...))`` (the
    sparse head, :mod:`agents.learning.sparse_policy`) on the flat vector, also when trained on
    scaled observations (``SingleAgentEnv(obs_scale=...)``, ``experiments/train.py``: the
    factors are read from the model's bounds, or pass ``SB3Policy(model, obs_scale=...)``);
  - any of these on ``observation="planes"``;
  - ``PPO``, ``A2C`` (their logits) and ``DQN`` (its Q-values), masked to the legal moves;

  masked models pick what ``model.predict(obs, action_masks=mask, deterministic=True)``
  picks on their own observation of the position;
* a policy file: an exported ``.npz`` (``experiments/train.py --export``,
  ``agents.players.trained.export_sb3``, ``agents.learning.feature_sb3.export_policy``, the shipped
  ``agents/policies/*.npz``) or the SB3 ``.zip`` of any model above (``model.save``);
* a level name (``"planner"``, ``"trained"``, ``"policy:FILE.npz"``), to place a level itself.

**The games: duplicate deals.** Against each level in ``against``, ``games`` games: the
policy takes one seat and the level every other seat, and each deal is played under every
rotation of the seats (game ``g`` deals ``seed + g // players`` with the policy in seat
``g % players``; ``games`` is rounded up to whole deals), so the cards a seat was dealt
count for the policy and against it alike.  ``duplicate=False`` deals anew every game.
Games run in ``workers`` processes with a progress bar, or on a Ray cluster
(``backend="ray"``, ``ray_address``: :mod:`agents.evaluation.ray_backend`), with the same results.

**The score** against a level is the policy's points per game (a win 1, a win shared by
``k`` seats ``1/k``, else 0; fair share ``1/players``) with the luck of the cards taken
out: each game's points less its chance corrections (AIVAT-style control variates from
the game's value estimate, :mod:`agents.measure`), whose expectation is exactly zero, so
the score is unbiased.  Its 95% interval is Student's over deals (a deal's score is the
mean over its rotations).  The plain points on the same games stand beside it
(``plain_share``, ``plain_interval``), with the variance ratio between the two and the
effective number of games (``games x variance_ratio``).  ``control_variates=False``
reports the plain score alone.  Docs: *Measuring strength*.

**The rating** puts the policy on the scale of the ladder's openskill tables
(``docs/results/<env>_<n>p.md``: Plackett-Luce ``mu ± 2 sigma``, ordinal
``mu - 3 sigma``), fitted to the **reduced** scores.  The levels keep their published
ratings (:func:`ladder_scale`); the policy's ``mu`` is the maximum-likelihood fit of
openskill's Plackett-Luce first-place probability (the policy against ``players - 1``
copies of a level wins with ``e^(mu/c) / (e^(mu/c) + (players - 1) e^(mu_l/c))``,
``c`` the table's combined deviation with openskill's ``beta``) to the reduced share
against each rated level, weighted by its games; its ``sigma`` is the spread of that fit
over 200 parametric bootstrap draws of the shares (each from a normal with its own
interval's standard error).  (Before issue 35 the rating was updated game by game from
the finishing orders; it now rests on the same luck-reduced scores as the table.)
Levels without a published rating (``trained``, policy files) and tables without one
(other seat counts, options) give no rating; their scores stand.
"""

from __future__ import annotations

import argparse
import inspect
import json
import math
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, TypeGuard, cast

import gymnasium
import numpy as np

import cardenvs
from cardenvs.core.game import Game, OptionError
from cardenvs.core.loop import ObservationActor, Player, PlayerLike
from cardenvs.core.observers import OBSERVATIONS, Observer, check_observation

from ..cli import HelpFormatter
from ..players.knowledge import Reference, spec
from ..players.ladder import levels as ladder_levels
from ..players.ladder import playable_levels
from ..types import JsonDict, S, V
from .estimate import Estimate, estimate
from .ray_backend import RayUnavailableError, add_backend_arguments, backend_of, check_backend
from .tournament import (
    Match,
    MatchResult,
    check_coupled_draws,
    cpu_overhead,
    full_rotations,
    points,
    run_matches,
)

if TYPE_CHECKING:
    import torch
    from stable_baselines3.common.base_class import BaseAlgorithm
    from stable_baselines3.common.policies import BasePolicy


def ladder_scale(env_name: str, players: int) -> Reference | None:
    """The ladder's published ratings for ``env_name`` at ``players`` seats (the game's
    knowledge holds them, ``GameAgents.ladder_scale``), or ``None`` where none were published."""
    return spec(env_name).ladder_scale.get(players)


#: the seat label of the evaluated policy in the matches (never a level name)
POLICY_LABEL = "<policy>"


# ----------------------------------------------------------------------------- policies


#: ``SB3Policy(model)``'s default ``obs_scale``: read the factors from the model's bounds
AUTO = "auto"


class SB3Model(Protocol):
    """What :class:`SB3Policy` reads of an SB3 / sb3-contrib model: its policy network."""

    @property
    def policy(self) -> BasePolicy: ...


class _MaskedPredict(Protocol):
    """A masked policy's ``predict`` (sb3-contrib's ``MaskableActorCriticPolicy``)."""

    def predict(self, observation: np.ndarray, *, action_masks: np.ndarray,
                deterministic: bool) -> tuple[np.ndarray, object]: ...


class _QNetwork(Protocol):
    """A Q-value policy (``DQN``'s): ``q_net(obs)`` scores every action."""

    def q_net(self, obs: torch.Tensor) -> torch.Tensor: ...


class _Logits(Protocol):
    @property
    def logits(self) -> torch.Tensor: ...


class _ActionDistribution(Protocol):
    @property
    def distribution(self) -> _Logits: ...


class _ActorPolicy(Protocol):
    """An actor-critic policy: the distribution of its actions for a batch of observations."""

    def get_distribution(self, obs: torch.Tensor) -> _ActionDistribution: ...


def _bounds_equal(space: gymnasium.spaces.Box, low: np.ndarray, high: np.ndarray) -> bool:
    return bool(np.array_equal(space.low, low) and np.array_equal(space.high, high))


def inferred_scale(space: gymnasium.spaces.Box, game: Game[S, V]) -> np.ndarray | None:
    """The per-feature factors of a flat model trained on scaled observations, read from its
    observation space, or ``None`` for raw observations.

    ``SingleAgentEnv(obs_scale=s)`` (``experiments/train.py``, :func:`observation_scale
    <cardenvs.core.wrappers.observation_scale>`) trains on ``obs * s`` in the ``Box``
    ``(low * s, high * s)`` of the game's bounds, so the factors are the ratio of the two.
    ``None`` when the bounds are the game's own at this table or another seat count
    (unscaled), or are no rescaling of them by factors in ``(0, 1]`` (another wrapper).
    """
    low, high = game.observation_bounds()
    if space.shape != low.shape:
        return None
    cls = type(game)
    for n in range(cls.min_players, cls.max_players + 1):
        try:
            other = (low, high) if n == game.num_players else cls(n, **game.options).observation_bounds()
        except OptionError:  # these options do not seat n players
            continue
        if _bounds_equal(space, *other):
            return None
    low, high = low.astype(np.float64), high.astype(np.float64)
    mlow, mhigh = np.asarray(space.low, np.float64), np.asarray(space.high, np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        by_high = np.where(high != 0, mhigh / high, np.nan)
        by_low = np.where(low != 0, mlow / low, np.nan)
    both = ~np.isnan(by_high) & ~np.isnan(by_low)
    if not np.allclose(by_high[both], by_low[both], rtol=1e-5, atol=0):
        return None
    scale = np.where(np.isnan(by_high), by_low, by_high)
    scale = np.where(np.isnan(scale), 1.0, scale)  # both bounds 0: the entry is always 0
    if not (np.all(np.isfinite(scale)) and np.all(scale > 0) and np.all(scale <= 1 + 1e-6)):
        return None
    return scale.astype(np.float32)


@dataclass
class ModelTable:
    """How an :class:`SB3Policy` reads one table: the model's observation design, its encoder
    and the factors its inputs are scaled by."""

    design: str
    observer: Observer
    scale: np.ndarray | None

    def encode(self, view: V, legal: Sequence[int]) -> np.ndarray:
        """The model's observation of a decision: the View in its design, scaled."""
        obs = self.observer.encode(view, legal)
        return obs if self.scale is None else obs * self.scale


class SB3Policy:
    """A Stable-Baselines3 / sb3-contrib model as a player: the move its policy picks.

    It plays models of discrete-action algorithms on every observation design of the
    environments (:data:`~cardenvs.core.observers.OBSERVATIONS`): the flat vector
    (``"MlpPolicy"``, ``fast_ppo_kwargs``' sparse policy), the ``"planes"`` array and the
    ``"action_features"`` matrix (:class:`agents.learning.feature_sb3.ActionScorerPolicy`, the
    training recipe's).  At each decision it builds the model's own observation from the
    player's View (:meth:`choose`; the design is told by the shape of the model's
    observation space, or by ``observation``) and picks

    * for masked policies (``MaskablePPO``): what ``model.predict(obs, action_masks=mask,
      deterministic=True)`` picks;
    * for the others (``PPO``, ``A2C``: the logits of the action distribution; ``DQN``: the
      Q-values): the legal action of the highest score (the lowest id among equals), so a
      policy trained without masks still plays legally.

    ``obs_scale`` (flat observations only): the per-feature factors the model was trained
    with (``cardenvs.core.wrappers.observation_scale``); by default (``"auto"``) they are
    read from the model's bounds (:func:`inferred_scale`) on the table it is played on;
    ``None`` plays raw observations.  Only the policy network is kept, so the player
    pickles to worker processes without the model's environment.
    """

    def __init__(self, model: SB3Model, obs_scale: np.ndarray | str | None = AUTO, name: str | None = None,
                 observation: str | None = None) -> None:
        self.policy = model.policy
        if isinstance(obs_scale, str) and obs_scale != AUTO:
            raise ValueError(f"obs_scale must be an array, None or {AUTO!r}, got {obs_scale!r}")
        keep = obs_scale is None or isinstance(obs_scale, str)
        self.obs_scale: np.ndarray | str | None = obs_scale if keep else np.asarray(obs_scale, np.float32)
        self.observation = None if observation is None else check_observation(observation)
        self.name = name or type(model).__name__
        self.masked = "action_masks" in inspect.signature(self.policy.predict).parameters
        self._tables: dict[tuple[object, ...], ModelTable] = {}

    def __getstate__(self) -> dict[str, object]:
        state = dict(self.__dict__)
        state["_tables"] = {}  # rebuilt on first use, from the game the worker plays
        return state

    @property
    def shape(self) -> tuple[int, ...]:
        """The shape of the model's observations."""
        return tuple(self.policy.observation_space.shape or ())

    def design(self, game: Game[S, V]) -> str:
        """The observation design the model reads at ``game``'s table (``ValueError``, naming
        the designs and their shapes, when none fits)."""
        space = self.policy.observation_space
        shapes = {name: Observer(game, name).shape for name in OBSERVATIONS}
        listed = ", ".join(f"{name} {shape}" for name, shape in shapes.items())
        where = f"{game.env_name} with {game.num_players} players"
        if not isinstance(space, gymnasium.spaces.Box):
            raise ValueError(f"{self.name} reads {type(space).__name__} observations; SB3Policy plays "
                             f"models on the Box of one observation design ({where}: {listed})")
        wanted, told = self.observation, f" (told: {self.observation})"
        if wanted is None and any(c.__name__ == "ActionScorerPolicy" for c in type(self.policy).__mro__):
            wanted, told = "action_features", " (an ActionScorerPolicy: action_features)"
        fits = [name for name, shape in shapes.items() if shape == self.shape and wanted in (None, name)]
        if len(fits) != 1:
            told = told if wanted else ""
            why = ("fits none" if not fits else
                   f"fits several ({', '.join(fits)}: pass SB3Policy(model, observation=...))")
            raise ValueError(f"{self.name} reads observations of shape {self.shape}{told}, which {why} "
                             f"of the designs SB3Policy plays ({where}: {listed}); was it trained on "
                             "another game or table?")
        return fits[0]

    def bind(self, game: Game[S, V]) -> ModelTable:
        """How the model reads ``game``'s table (made once per table, then kept)."""
        key = (type(game), game.num_players, repr(sorted(game.options.items())))
        table = self._tables.get(key)
        if table is None:
            design = self.design(game)
            scale: np.ndarray | None = None
            if isinstance(self.obs_scale, np.ndarray):
                if design != "flat" or self.obs_scale.shape != self.shape:
                    raise ValueError(f"obs_scale applies to flat observations of shape {self.shape}; "
                                     f"{self.name} reads {design} (obs_scale {self.obs_scale.shape})")
                scale = self.obs_scale
            elif self.obs_scale == AUTO and design == "flat":
                space = self.policy.observation_space
                scale = inferred_scale(space, game) if isinstance(space, gymnasium.spaces.Box) else None
            table = self._tables[key] = ModelTable(design, Observer(game, design), scale)
        return table

    def scores(self, observation: np.ndarray) -> np.ndarray:
        """The network's score of every action (logits or Q-values) for one observation of
        the model's design, as the model reads it (scaled already)."""
        import torch

        obs = np.asarray(observation, np.float32)
        with torch.no_grad():
            tensor, _ = self.policy.obs_to_tensor(obs)
            if not isinstance(tensor, torch.Tensor):
                raise ValueError(f"{self.name} reads dict observations; SB3Policy plays Box models")
            if hasattr(self.policy, "q_net"):
                out = cast(_QNetwork, self.policy).q_net(tensor)
            else:
                out = cast(_ActorPolicy, self.policy).get_distribution(tensor).distribution.logits
        return np.asarray(out[0].cpu().numpy(), np.float64)

    def pick(self, observation: np.ndarray, mask: np.ndarray) -> int:
        """The model's move for one observation as it reads it and the boolean legal mask."""
        mask = np.asarray(mask, bool)
        if not mask.any():
            raise ValueError("the action mask has no legal action: this player is not to move")
        obs = np.asarray(observation, np.float32)
        if self.masked:
            action, _ = cast(_MaskedPredict, self.policy).predict(obs, action_masks=mask, deterministic=True)
            move = int(np.asarray(action).reshape(-1)[0])
        else:
            z = self.scores(obs)
            z[~mask] = -np.inf
            move = int(np.argmax(z))
        if not mask[move]:
            raise ValueError(f"{self.name} picked action {move}, which is not legal")
        return move

    def choose(self, game: Game[S, V], view: V, legal: list[int]) -> int:
        """The model's move at a decision, from its observation of the player's View."""
        mask = np.zeros(game.num_actions, bool)
        mask[legal] = True
        return self.pick(self.bind(game).encode(view, legal), mask)

    def act(self, observation: Mapping[str, np.ndarray]) -> int:
        """The model's move from the dict ``env.last()`` gives, for an environment built with
        the model's design (the flat default, or ``observation=...``); ``obs_scale``, if an
        array, scales it (``"auto"`` needs the table: :meth:`choose` reads it)."""
        obs = np.asarray(observation["observation"], np.float32)
        if obs.shape != self.shape:
            raise ValueError(f"{self.name} reads observations of shape {self.shape}, got {obs.shape}: "
                             "give it the observation of an environment built with its design "
                             "(observation=...), or let it choose from the View (agents.evaluate, "
                             "play_game)")
        if isinstance(self.obs_scale, np.ndarray):
            obs = obs * self.obs_scale
        return self.pick(obs, observation["action_mask"])


def _is_sb3_model(obj: object) -> TypeGuard[SB3Model]:
    return hasattr(obj, "predict") and hasattr(obj, "policy") and hasattr(obj, "policy_class")


def load_sb3(path: str | Path) -> BaseAlgorithm:
    """Load an SB3 ``.zip`` with the first algorithm class that reads it (sb3-contrib's
    ``MaskablePPO``, then SB3's ``PPO``, ``A2C`` and ``DQN``)."""
    errors = []
    loaders: list[type[BaseAlgorithm]] = []
    try:
        from sb3_contrib import MaskablePPO

        loaders.append(MaskablePPO)
    except ImportError:
        pass
    try:
        from stable_baselines3 import A2C, DQN, PPO

        loaders += [PPO, A2C, DQN]
    except ImportError:
        pass
    if not loaders:
        raise ValueError(f"{path} is an SB3 model file; loading it needs the train extra "
                         "(pip install 'cardenvs[train]')")
    for cls in loaders:
        try:
            return cls.load(str(path), device="cpu")
        except Exception as err:  # the wrong algorithm class for this file
            errors.append(f"{cls.__name__}: {type(err).__name__}")
    raise ValueError(f"{path}: no SB3 algorithm could load it ({'; '.join(errors)})")


def resolve_policy(policy: object, env_name: str) -> tuple[str, PlayerLike | None, str]:
    """``(seat label, player object or None, display name)`` of anything :func:`evaluate` takes.

    A level name or a policy file becomes a level string (made afresh in each worker);
    anything else is a player object played under :data:`POLICY_LABEL`.
    """
    if isinstance(policy, (str, Path)):
        text = str(policy)
        if isinstance(policy, str) and (
            text in playable_levels(env_name) or text.startswith(("policy:", "ismcts"))
        ):
            return text, None, text
        path = Path(text).expanduser()
        if path.suffix == ".npz" and path.is_file():
            return f"policy:{path.resolve()}", None, path.name
        if path.suffix == ".zip" and path.is_file():
            return POLICY_LABEL, SB3Policy(load_sb3(path), name=path.name), path.name
        raise ValueError(
            f"policy {text!r} is neither a level of {env_name} ({', '.join(playable_levels(env_name))}, "
            "policy:FILE.npz) nor an existing .npz policy file or SB3 .zip model"
        )
    if _is_sb3_model(policy):
        player: PlayerLike = SB3Policy(policy)
    elif isinstance(policy, (Player, ObservationActor)) or callable(policy):
        player = policy
    else:
        raise TypeError(
            "policy must be a function of the observation dict, an Agent (choose or act), an SB3 "
            f"model, a policy file or a level name; got {type(policy).__name__}"
        )
    name = str(getattr(policy, "name", None) or getattr(policy, "__name__", None) or type(policy).__name__)
    return POLICY_LABEL, player, name


# ------------------------------------------------------------------------------ results


#: the fields of a :class:`Score` that time its games (machine-dependent, never compared)
TIMING = ("seconds", "correction_seconds")


@dataclass(frozen=True)
class Score(Estimate):
    """The policy's result against one level: an :class:`~agents.evaluation.estimate.Estimate` (the
    reported score and the plain one beside it) with the level's tallies.

    :attr:`share` is the policy's points per game as the evaluation's estimator measures
    it (with control variates, the luck of the cards taken out; see
    :mod:`agents.evaluation.estimate`), :attr:`interval` its 95% interval; :attr:`plain_share` and
    :attr:`plain_interval` are the points as they fell, on the same games.  With
    duplicate deals both intervals are over deals (each deal's mean over its rotations).
    """

    level: str
    wins: int
    shared: int
    losses: int
    #: games cut off by the rules (no shipped game has them); they count as no result
    truncated: int
    mean_reward: float
    players: int
    #: CPU seconds of the games against the level, and the corrector's part of them (not
    #: compared: two runs of the same seeds are equal scores however long they took)
    seconds: float = field(default=0.0, compare=False)
    correction_seconds: float = field(default=0.0, compare=False)

    @property
    def overhead(self) -> float:
        """The games' CPU with the control variates over their CPU without (1.0 without them)."""
        return cpu_overhead(self.seconds, self.correction_seconds)

    @property
    def variance_ratio_per_cpu(self) -> float:
        """:attr:`variance_ratio` over :attr:`overhead`: above 1 the control variates narrow the
        interval more than spending their CPU on more plain games would."""
        return self.variance_ratio / self.overhead

    @property
    def separated(self) -> str:
        """``"above"`` / ``"below"`` when the interval excludes the fair share, else ``"tie"``."""
        fair = 1 / self.players
        return "above" if self.low > fair else "below" if self.high < fair else "tie"


@dataclass(frozen=True)
class Rating:
    """The policy's rating on the ladder's openskill scale, fitted to its reduced scores."""

    mu: float
    sigma: float
    #: the levels (with their published ratings) the rating was measured against
    reference: Reference
    #: games that counted (against levels with a published rating)
    games: int

    @property
    def ordinal(self) -> float:
        """The conservative rating ``mu - 3 sigma``, as in the ladder's tables."""
        return self.mu - 3 * self.sigma

    def place(self) -> str:
        """Where the rating falls among the levels' published ratings."""
        ranked = sorted(self.reference.ratings.items(), key=lambda kv: kv[1][0])
        below = [name for name, (mu, _) in ranked if mu <= self.mu]
        above = [name for name, (mu, _) in ranked if mu > self.mu]
        if not below:
            return f"below {above[0]}"
        if not above:
            return f"above {below[-1]}"
        return f"between {below[-1]} and {above[0]}"


@dataclass
class Evaluation:
    """What :func:`evaluate` measured: a :class:`Score` per level and a :class:`Rating`."""

    env_name: str
    players: int
    policy: str
    games: int
    seed: int
    options: dict[str, object] = field(default_factory=dict)
    scores: dict[str, Score] = field(default_factory=dict)
    rating: Rating | None = None
    #: whether the draws were coupled across each deal's rotations (:mod:`agents.measure.coupling`)
    coupled_draws: bool = False
    #: why there is no rating, when there is none
    unrated: str = ""

    def markdown(self) -> str:
        """The result as a markdown table, with the rating under it."""
        opts = "".join(f", {k}={v!r}" for k, v in self.options.items())
        scores = list(self.scores.values())
        method = scores[0].method if scores else "plain"
        how = {
            "duplicate+control variates": "each deal played under every rotation of the seats; score = "
            "points per game less the luck of the cards (control variates, unbiased), 95% interval over "
            "deals; plain = the points as they fell, on the same games",
            "duplicate": "each deal played under every rotation of the seats; score = points per game, 95% "
            "interval over deals",
            "control variates": "a new deal every game; score = points per game less the luck of the cards "
            "(control variates, unbiased); plain = the points as they fell (Wilson interval)",
            "plain": "a new deal every game; score = points per game, 95% Wilson interval",
        }[method]
        if self.coupled_draws:
            how += " (draws coupled across each deal's rotations)"
        lines = [
            f"### {self.policy} on {self.env_name}, {self.players} players{opts}",
            "",
            f"{self.games} games per level (seed {self.seed}): {how}; a shared win is split; fair share "
            f"{1 / self.players:.0%}.",
            "",
            "| against | games | deals | score [95%] | plain [95%] | variance ratio | CPU, corrected / plain "
            "| wins | shared | losses | vs fair share |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
        ]
        corrected = "control variates" in method
        for sc in scores:
            cpu = f"{sc.overhead:.1f}x" if corrected else "–"
            lines.append(f"| {sc.level} | {sc.games} | {sc.deals} | {sc.share:.1%} [{sc.low:.1%}, "
                         f"{sc.high:.1%}] | {sc.plain_share:.1%} [{sc.plain_low:.1%}, {sc.plain_high:.1%}] | "
                         f"{sc.variance_ratio:.2f} | {cpu} | {sc.wins} | {sc.shared} | {sc.losses} | "
                         f"{sc.separated} |")
        dear = [sc.level for sc in scores if corrected and sc.variance_ratio_per_cpu < 1]
        if dear:
            lines += ["", f"Against {', '.join(dear)} the corrections cost more CPU than they took out of "
                      "the variance (their CPU factor above the variance ratio): more games "
                      "without them (`control_variates=False`) would narrow the interval as much for less "
                      "CPU."]
        lines.append("")
        if self.rating is not None:
            r = self.rating
            ref = ", ".join(f"{k} {mu:.1f}" for k, (mu, _) in
                            sorted(r.reference.ratings.items(), key=lambda kv: kv[1][0]))
            lines.append(f"Rating on the ladder's scale: **{r.mu:.1f} ± {2 * r.sigma:.1f}** (ordinal "
                         f"{r.ordinal:.1f}), {r.place()}; the levels' ratings ({r.reference.source}): {ref}.")
        else:
            lines.append(f"No rating: {self.unrated}.")
        return "\n".join(lines) + "\n"

    def to_dict(self) -> JsonDict:
        """Plain data (for JSON)."""
        return {
            "env": self.env_name, "players": self.players, "policy": self.policy, "games": self.games,
            "seed": self.seed, "options": self.options, "coupled_draws": self.coupled_draws,
            # the figures a seed reproduces, apart from the CPU they took on this machine
            "scores": {k: {f: v for f, v in vars(s).items() if f not in TIMING}
                       for k, s in self.scores.items()},
            "cpu": {k: {"seconds": s.seconds, "correction_seconds": s.correction_seconds,
                        "overhead": s.overhead} for k, s in self.scores.items()},
            "rating": None if self.rating is None else {
                "mu": self.rating.mu, "sigma": self.rating.sigma, "ordinal": self.rating.ordinal,
                "place": self.rating.place(), "source": self.rating.reference.source},
        }

    def __str__(self) -> str:
        return self.markdown()


# ------------------------------------------------------------------------------ running


def schedule(env_name: str, label: str, against: Sequence[str], games: int, players: int, seed: int,
             options: Mapping[str, object], duplicate: bool = True,
             control_variates: bool = False, coupled_draws: bool = False) -> list[Match]:
    """The matches of an evaluation, the levels interleaved game by game.

    The policy's seat moves round the table (game ``g``: seat ``g % players``).  With
    ``duplicate`` game ``g`` deals ``seed + g // players``, so each deal is played under
    every rotation (and, with ``control_variates``, leaves out the deal's correction, which
    cancels over them); without, every game deals anew (``seed + g``).  ``coupled_draws``:
    see :attr:`Match.coupled_draws`.
    """
    opts = tuple(sorted(options.items()))
    out = []
    for g in range(games):
        deal = seed + (g // players if duplicate else g)
        for level in against:
            seats = [level] * players
            seats[g % players] = label
            out.append(Match(env_name, tuple(seats), deal, opts, control_variates=control_variates,
                             deal_term=not (duplicate and full_rotations(g, players, games)),
                             coupled_draws=coupled_draws))
    return out


#: openskill's Plackett-Luce ``beta`` (its default: 25 / 6), the skill noise of one game
BETA = 25.0 / 6.0
#: bootstrap draws of the rating's ``sigma``
RATING_DRAWS = 200


def _fit_mu(shares: np.ndarray, games: np.ndarray, levels: np.ndarray, sigmas: np.ndarray,
            players: int) -> float:
    """The ``mu`` whose first-place probabilities against the levels (``mu``/``sigma`` of
    each) best fit ``shares`` (each smoothed by half a game each way), by bisection."""
    s = np.clip((shares * games + 0.5) / (games + 1.0), 1e-6, 1 - 1e-6)
    c = np.sqrt(BETA**2 + (players - 1) * (sigmas**2 + BETA**2))
    k = math.log(players - 1)

    def score(mu: float) -> float:  # the log-likelihood's slope: decreasing in mu
        p = 1.0 / (1.0 + np.exp(-((mu - levels) / c - k)))
        return float(np.sum(games * (s - p) / c))

    lo, hi = -500.0, 500.0
    for _ in range(100):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if score(mid) > 0 else (lo, mid)
    return (lo + hi) / 2


def _rate(scores: Sequence[Score], reference: Reference, players: int, seed: int) -> tuple[float, float, int]:
    """The policy's rating on the ladder's scale from its reduced scores against the rated
    levels (see the module docstring): ``(mu, sigma, games counted)``."""
    from .estimate import t_quantile

    rated = [sc for sc in scores if sc.level in reference.ratings and sc.games]
    if not rated:
        return math.nan, math.nan, 0
    shares = np.array([sc.share for sc in rated])
    games = np.array([float(sc.games) for sc in rated])
    levels = np.array([reference.ratings[sc.level][0] for sc in rated])
    sigmas = np.array([reference.ratings[sc.level][1] for sc in rated])
    mu = _fit_mu(shares, games, levels, sigmas, players)
    se = np.array([(sc.high - sc.low) / (2 * t_quantile(max(sc.deals - 1, 1))) for sc in rated])
    rng = np.random.default_rng(seed)
    draws = [_fit_mu(np.clip(rng.normal(shares, se), 0.0, 1.0), games, levels, sigmas, players)
             for _ in range(RATING_DRAWS)]
    return mu, float(np.std(draws, ddof=1)), int(games.sum())


def evaluate(
    policy: object,
    env_name: str,
    against: Sequence[str] | None = None,
    games: int = 100,
    players: int = 2,
    workers: int = 1,
    seed: int = 0,
    progress: bool = True,
    verbose: bool = True,
    name: str | None = None,
    duplicate: bool = True,
    control_variates: bool = True,
    coupled_draws: bool = False,
    backend: str = "local",
    ray_address: str | None = None,
    **options: object,
) -> Evaluation:
    """Play ``policy`` against each level of ``against`` and score it (see the module docstring).

    Args:
        policy: a function of the observation dict, an ``Agent`` (or anything with
            ``choose``/``act``), an SB3 model, a policy file (``.npz`` or SB3 ``.zip``),
            or a level name.
        env_name: the environment (a name in ``cardenvs.ENVS``).
        against: level names (``"random"``, ``"greedy"``, ``"planner"``, ``"expert"``,
            ``"trained"``, ``"policy:FILE.npz"``); default the ordered ladder
            (``agents.levels(env_name)``).
        games: games against each level (a multiple of ``players`` plays every seat of
            every deal).
        players: seats at the table; the policy takes one, the level all the others.
        workers: processes to play in (objects go there by ``cloudpickle``).
        seed: the first deal; the same seed plays the same deals.
        progress: show a progress bar.
        verbose: print the result table.
        name: the policy's name in the table (default: its ``name``, file or function name).
        duplicate: play each deal under every rotation of the seats and compute the
            intervals over deals (``games`` is rounded up to whole deals); ``False``: a
            new deal every game, Wilson's interval over games.
        control_variates: subtract each game's luck of the cards as the game's value
            estimate saw it (:mod:`agents.measure`; unbiased), and report the plain score
            beside the reduced one.
        coupled_draws: deal the face-down cards out to the seats in advance, so that the
            rotations of a deal hand each seat the same draws whatever the agents did
            (:mod:`agents.measure.coupling`; unbiased: every game is dealt by the rules'
            odds).  For ``duplicate`` deals in games whose seats draw one by one: in Line
            it takes a third or more off the reduced score's variance per deal; in Line-it
            and Rummy 4x3x2's it changes little or does worse (docs: *Measuring strength*).
        backend: where the games run: ``"local"`` (``workers`` processes) or ``"ray"``
            (Ray tasks, :mod:`agents.evaluation.ray_backend`; the same results game for game).
        ray_address: the Ray to run on with ``backend="ray"``: ``None`` starts a local
            one (``workers > 1`` caps its CPUs), ``"auto"`` joins this machine's cluster,
            ``"HOST:6379"`` or ``"ray://HOST:10001"`` another.
        **options: the game's options (as for ``cardenvs.make``).

    Returns:
        an :class:`Evaluation`: ``scores[level]`` (share, Wilson interval, wins, shared
        wins, losses) and ``rating`` (on the ladder's openskill scale, or ``None``).
    """
    table = cardenvs.game_class(env_name)(players, **options)  # a clear error for a bad table
    defaults = {k: o.default for k, o in type(table).OPTIONS.items()}
    changed = {k: v for k, v in table.options.items() if defaults.get(k, v) != v}
    if not isinstance(games, int) or isinstance(games, bool) or games < 1:
        raise ValueError(f"games must be a positive int, got {games!r}")
    if not isinstance(workers, int) or isinstance(workers, bool) or workers < 1:
        raise ValueError(f"workers must be a positive int, got {workers!r}")
    check_backend(backend, ray_address)
    levels = _levels(env_name, against)
    label, player, shown = resolve_policy(policy, env_name)
    if isinstance(player, SB3Policy):
        player.bind(table)  # the model's observation design: a clear error here, not in a worker
    if label in levels:
        raise ValueError(f"the policy is the level {label!r} itself; evaluate it against other levels")
    if duplicate and games % players:
        games += players - games % players  # whole deals: every seat of every deal
    check_coupled_draws(coupled_draws, duplicate)
    matches = schedule(env_name, label, levels, games, players, seed, options, duplicate=duplicate,
                       control_variates=control_variates, coupled_draws=coupled_draws)
    entrants = {label: player} if player is not None else {}
    results = run_matches(matches, workers=workers, progress=progress, entrants=entrants, desc="evaluate",
                          backend=backend, ray_address=ray_address)
    out = Evaluation(env_name, players, name or shown, games, seed, dict(options),
                     coupled_draws=coupled_draws)
    for level in levels:
        out.scores[level] = _level_score(results, level, label, duplicate, players)
    _rate_evaluation(out, levels, changed)
    if verbose:
        print(out.markdown(), flush=True)
    return out



def _levels(env_name: str, against: Sequence[str] | None) -> list[str]:
    """The levels :func:`evaluate` plays (default the ordered ladder), checked: each a level
    name of ``env_name`` (or ``policy:FILE``, ``ismcts...``), none twice."""
    levels = list(ladder_levels(env_name) if against is None else against)
    if not levels:
        raise ValueError("against is empty: name at least one level")
    allowed = playable_levels(env_name)
    for level in levels:
        if not isinstance(level, str) or not (
            level in allowed or level.startswith(("policy:", "ismcts"))
        ):
            raise ValueError(f"against takes level names of {env_name} ({', '.join(allowed)}, "
                             f"policy:FILE.npz); got {level!r}")
    if len(set(levels)) != len(levels):
        raise ValueError(f"against names a level twice: {levels}")
    return levels


def _level_score(results: Sequence[MatchResult], level: str, label: str, duplicate: bool,
                 players: int) -> Score:
    """The :class:`Score` of the entrant ``label`` over its games against ``level``."""
    mine = [r for r in results if level in r.match.seats]
    done = [r for r in mine if not r.truncated]
    pts = [points(r.rewards)[r.match.seats.index(label)] for r in done]
    n = len(pts)
    corr = [None if r.corrections is None else r.corrections[r.match.seats.index(label)] for r in done]
    est = estimate(zip((r.match.seed for r in done), pts, corr), duplicate=duplicate)
    rewards = [r.rewards[r.match.seats.index(label)] for r in done]
    return Score(
        **vars(est), level=level, wins=sum(p == 1.0 for p in pts), shared=sum(0.0 < p < 1.0 for p in pts),
        losses=sum(p == 0.0 for p in pts), truncated=len(mine) - n,
        mean_reward=float(np.mean(rewards)) if rewards else math.nan, players=players,
        seconds=math.fsum(r.seconds for r in mine),
        correction_seconds=math.fsum(r.correction_seconds for r in mine))


def _rate_evaluation(out: Evaluation, levels: Sequence[str], changed: Mapping[str, object]) -> None:
    """Set ``out.rating`` from its scores on the ladder's published scale, or say in
    ``out.unrated`` why it has none (options changed, no published ratings)."""
    env_name, players, seed = out.env_name, out.players, out.seed
    reference = ladder_scale(env_name, players)
    if changed:
        out.unrated = (f"the ladder's ratings were measured with the default options, not "
                       f"{', '.join(f'{k}={v!r}' for k, v in changed.items())}")
    elif reference is None:
        out.unrated = f"the ladder has no published ratings for {env_name} with {players} players"
    elif not any(level in reference.ratings for level in levels):
        out.unrated = (f"none of {', '.join(levels)} has a published rating "
                       f"(rated levels: {', '.join(reference.ratings)})")
    else:
        mu, sigma, counted = _rate(list(out.scores.values()), reference, players, seed)
        out.rating = Rating(mu, sigma, reference, counted)


# ------------------------------------------------------------------------- command line


def _option(text: str) -> tuple[str, object]:
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"an option is KEY=VALUE (a JSON value or a word), got {text!r}")
    try:
        return key, json.loads(value)
    except json.JSONDecodeError:
        return key, value


def main(argv: list[str] | None = None) -> int:
    """``cardenvs-evaluate``: :func:`evaluate` from the command line."""
    envs = list(cardenvs.ENVS)  # the registered games, named by their kits
    ap = argparse.ArgumentParser(
        prog=HelpFormatter.prog_name("agents.evaluation"), formatter_class=HelpFormatter,
        description="Play a policy against ladder levels on duplicate deals; print each level's score "
                    "with the luck of the cards taken out (control variates) and its 95% interval, the "
                    "plain score beside it, the variance ratio, and a rating on the ladder's openskill "
                    "scale.",
        epilog="examples:\n"
               f"  cardenvs-evaluate my_policy.npz --env {envs[0]} --against greedy planner --games 200\n"
               f"  cardenvs-evaluate trained --env {envs[-1]} --against planner expert --workers 2\n"
               f"  cardenvs-evaluate model.zip --env {envs[-1]} --players 3 --games 99\n"
               f"  cardenvs-evaluate trained --env {envs[0]} --against greedy --ray-address auto")
    ap.add_argument("policy", help="a policy file (.npz, or an SB3 .zip) or a level name")
    ap.add_argument("--env", default=envs[0], choices=envs, help="the environment")
    ap.add_argument("--against", nargs="+", default=None, metavar="LEVEL",
                    help="levels to play (default: the ordered ladder, agents.levels(env))")
    ap.add_argument("--games", type=int, default=100, help="games against each level")
    ap.add_argument("--players", type=int, default=2, help="seats at the table")
    ap.add_argument("--workers", type=int, default=1, help="processes to play in")
    add_backend_arguments(ap)
    ap.add_argument("--seed", type=int, default=0, help="the first deal")
    ap.add_argument("--option", type=_option, action="append", default=[], metavar="KEY=VALUE",
                    help="a game option, e.g. --option pack=three --option hand_size=9")
    ap.add_argument("--out", default=None, help="also write the table (markdown) to this file")
    ap.add_argument("--json", default=None, help="also write the result as JSON to this file")
    ap.add_argument("--no-duplicate", action="store_true",
                    help="a new deal every game (default: each deal under every rotation of the seats)")
    ap.add_argument("--no-control-variates", action="store_true",
                    help="the plain score only (default: the luck of the cards taken out, the plain score "
                         "beside)")
    ap.add_argument("--coupled-draws", action="store_true",
                    help="re-order the face-down cards before each draw so that a deal's rotations hand "
                         "each seat the same cards where they can (unbiased; agents.measure.coupling)")
    ap.add_argument("--no-progress", action="store_true", help="no progress bar")
    args = ap.parse_args(argv)
    backend, address = backend_of(ap, args)
    try:
        result = evaluate(args.policy, args.env, against=args.against, games=args.games,
                          players=args.players, workers=args.workers, seed=args.seed,
                          progress=not args.no_progress, verbose=True, duplicate=not args.no_duplicate,
                          control_variates=not args.no_control_variates,
                          coupled_draws=args.coupled_draws, backend=backend,
                          ray_address=address, **dict(args.option))
    except (ValueError, RayUnavailableError) as err:
        ap.error(str(err))
    for target, text in ((args.out, result.markdown()), (args.json, json.dumps(result.to_dict(), indent=1))):
        if target:
            Path(target).parent.mkdir(parents=True, exist_ok=True)
            Path(target).write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
