"""Measure any policy against the ladder in one call: :func:`evaluate`.

    import agents
    result = agents.evaluate(my_policy, env_name, against=["greedy", "planner"], games=200)
    result.scores["planner"].share, result.scores["planner"].interval, result.rating

The command line does the same (``cardenvs-evaluate``, or ``python -m agents.evaluation``)::

    cardenvs-evaluate my_policy.npz --env <env> --against greedy planner --games 200 --workers 2

**The policy** may be

* a plain function of the observation dict ``env.last()`` gives
  (``{"observation": float32 vector, "action_mask": int8 vector}``) returning an action id;
* an :class:`~agents.base.Agent` (``make_agent(...)``, your own subclass), or any object
  with ``choose(game, view, legal)`` or PettingZoo's ``act(observation)``;
* a Stable-Baselines3 / sb3-contrib model (``MaskablePPO``, ``PPO``, ``A2C``, ``DQN`` on
  the flat observation), played deterministically among the legal moves
  (:class:`SB3Policy`; pass ``SB3Policy(model, obs_scale=...)`` for a model trained on
  scaled observations);
* a policy file: an exported ``.npz`` (``experiments/train.py --export``,
  ``agents.trained.export_sb3``, the shipped ``agents/policies/*.npz``) or an SB3 ``.zip``;
* a level name (``"planner"``, ``"trained"``, ``"policy:FILE.npz"``), to place a level itself.

**The games.** Against each level in ``against``, ``games`` games: the policy takes one
seat and the level every other seat, and the policy's seat moves round the table on the
same deal (game ``g`` deals ``seed + g // players`` with the policy in seat
``g % players``), so with 2 players the seats alternate on the same deals and luck of the
cards cancels out pair by pair.  Games run in ``workers`` processes with a progress bar.

**The score** against a level is the policy's points per game (a win 1, a win shared by
``k`` seats ``1/k``, else 0; fair share ``1/players``) with its 95% Wilson interval, as
in the ladder's tables (``docs/results/ladder/``).

**The rating** puts the policy on the scale of the ladder's openskill tables
(``docs/results/<env>_<n>p.md``: Plackett-Luce ``mu ± 2 sigma``, ordinal
``mu - 3 sigma``).  The levels keep their published ratings (:func:`ladder_scale`); the
policy starts at openskill's default (25 ± 8.3) and is updated by every game's finishing
order, the games of the different levels interleaved.  Levels without a published rating
(``trained``, policy files) and tables without one (other seat counts, options) give no
rating; their scores stand.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

import cardenvs
from cardenvs.core.loop import PlayerLike

from .cli import HelpFormatter
from .knowledge import Reference, spec
from .ladder import levels as ladder_levels
from .ladder import playable_levels
from .tournament import Match, MatchResult, points, run_matches, wilson


def ladder_scale(env_name: str, players: int) -> Reference | None:
    """The ladder's published ratings for ``env_name`` at ``players`` seats (the game's
    knowledge holds them, ``GameAgents.ladder_scale``), or ``None`` where none were published."""
    return spec(env_name).ladder_scale.get(players)


#: the seat label of the evaluated policy in the matches (never a level name)
POLICY_LABEL = "<policy>"


# ----------------------------------------------------------------------------- policies


class SB3Policy:
    """A Stable-Baselines3 / sb3-contrib model as a player: its most probable legal move.

    Works with the models of discrete-action algorithms on the flat observation vector:
    actor-critic policies (``MaskablePPO``, ``PPO``, ``A2C``: the logits of the action
    distribution) and Q-networks (``DQN``: the Q-values), with the illegal moves masked
    out, so a policy trained without masks still plays legally.  ``obs_scale``: the
    per-feature factors the model was trained with, if any
    (``cardenvs.core.wrappers.observation_scale``).  Only the policy network is kept, so
    the player pickles to worker processes without the model's environment.
    """

    def __init__(self, model: Any, obs_scale: np.ndarray | None = None, name: str | None = None) -> None:
        self.policy = model.policy
        self.obs_scale = None if obs_scale is None else np.asarray(obs_scale, np.float32)
        self.name = name or type(model).__name__

    def scores(self, observation: np.ndarray) -> np.ndarray:
        """The network's score of every action (logits or Q-values) for one observation."""
        import torch

        obs = np.asarray(observation, np.float32)
        if self.obs_scale is not None:
            obs = obs * self.obs_scale
        with torch.no_grad():
            tensor, _ = self.policy.obs_to_tensor(obs)
            if hasattr(self.policy, "q_net"):
                out = self.policy.q_net(tensor)
            else:
                out = self.policy.get_distribution(tensor).distribution.logits
        return np.asarray(out[0].cpu().numpy(), np.float64)

    def act(self, observation: Mapping[str, np.ndarray]) -> int:
        """The legal action with the highest score (the lowest id among equals)."""
        mask = np.asarray(observation["action_mask"], bool)
        if not mask.any():
            raise ValueError("the action mask has no legal action: this player is not to move")
        z = self.scores(observation["observation"])
        z[~mask] = -np.inf
        return int(np.argmax(z))


def _is_sb3_model(obj: Any) -> bool:
    return hasattr(obj, "predict") and hasattr(obj, "policy") and hasattr(obj, "policy_class")


def load_sb3(path: str | Path) -> Any:
    """Load an SB3 ``.zip`` with the first algorithm class that reads it (sb3-contrib's
    ``MaskablePPO``, then SB3's ``PPO``, ``A2C`` and ``DQN``)."""
    errors = []
    loaders: list[Any] = []
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


def resolve_policy(policy: Any, env_name: str) -> tuple[str, PlayerLike | None, str]:
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
    elif hasattr(policy, "choose") or hasattr(policy, "act") or callable(policy):
        player = policy
    else:
        raise TypeError(
            "policy must be a function of the observation dict, an Agent (choose or act), an SB3 "
            f"model, a policy file or a level name; got {type(policy).__name__}"
        )
    name = str(getattr(policy, "name", None) or getattr(policy, "__name__", None) or type(policy).__name__)
    return POLICY_LABEL, player, name


# ------------------------------------------------------------------------------ results


@dataclass(frozen=True)
class Score:
    """The policy's result against one level."""

    level: str
    games: int
    #: points per game (a win 1, a win shared by k seats 1/k)
    share: float
    #: 95% Wilson interval of the share
    low: float
    high: float
    wins: int
    shared: int
    losses: int
    #: games cut off by the rules (no shipped game has them); they count as no result
    truncated: int
    mean_reward: float
    players: int

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of :attr:`share`."""
        return self.low, self.high

    @property
    def separated(self) -> str:
        """``"above"`` / ``"below"`` when the interval excludes the fair share, else ``"tie"``."""
        fair = 1 / self.players
        return "above" if self.low > fair else "below" if self.high < fair else "tie"


@dataclass(frozen=True)
class Rating:
    """The policy's openskill rating on the ladder's scale."""

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
    options: dict[str, Any] = field(default_factory=dict)
    scores: dict[str, Score] = field(default_factory=dict)
    rating: Rating | None = None
    #: why there is no rating, when there is none
    unrated: str = ""

    def markdown(self) -> str:
        """The result as a markdown table, with the rating under it."""
        opts = "".join(f", {k}={v!r}" for k, v in self.options.items())
        lines = [
            f"### {self.policy} on {self.env_name}, {self.players} players{opts}",
            "",
            f"{self.games} games per level; the policy's seat moves round the table on the same deals "
            f"(seed {self.seed}); score = points per game (a shared win split), 95% Wilson interval; "
            f"fair share {1 / self.players:.0%}.",
            "",
            "| against | games | score [95%] | wins | shared | losses | vs fair share |",
            "|---|---:|---:|---:|---:|---:|---|",
        ]
        for s in self.scores.values():
            lines.append(f"| {s.level} | {s.games} | {s.share:.1%} [{s.low:.1%}, {s.high:.1%}] | {s.wins} | "
                         f"{s.shared} | {s.losses} | {s.separated} |")
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

    def to_dict(self) -> dict[str, Any]:
        """Plain data (for JSON)."""
        return {
            "env": self.env_name, "players": self.players, "policy": self.policy, "games": self.games,
            "seed": self.seed, "options": self.options,
            "scores": {k: {**vars(s)} for k, s in self.scores.items()},
            "rating": None if self.rating is None else {
                "mu": self.rating.mu, "sigma": self.rating.sigma, "ordinal": self.rating.ordinal,
                "place": self.rating.place(), "source": self.rating.reference.source},
        }

    def __str__(self) -> str:
        return self.markdown()


# ------------------------------------------------------------------------------ running


def schedule(env_name: str, label: str, against: Sequence[str], games: int, players: int, seed: int,
             options: Mapping[str, Any]) -> list[Match]:
    """The matches of an evaluation, the levels interleaved game by game."""
    opts = tuple(sorted(options.items()))
    out = []
    for g in range(games):
        for level in against:
            seats = [level] * players
            seats[g % players] = label
            out.append(Match(env_name, tuple(seats), seed + g // players, opts))
    return out


def _rate(results: Sequence[MatchResult], label: str, reference: Reference) -> tuple[float, float, int]:
    """The policy's openskill rating from its games, the levels held at their published ratings."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    me = model.rating(name=label)
    counted = 0
    for res in results:
        if res.truncated:
            continue
        seats = res.match.seats
        others = {s for s in seats if s != label}
        if len(others) != 1 or (level := others.pop()) not in reference.ratings:
            continue
        mu, sigma = reference.ratings[level]
        teams = [[me] if s == label else [model.rating(mu=mu, sigma=sigma, name=s)] for s in seats]
        rated = model.rate(teams, ranks=[-r for r in res.rewards])
        me = rated[seats.index(label)][0]
        counted += 1
    return float(me.mu), float(me.sigma), counted


def evaluate(
    policy: Any,
    env_name: str,
    against: Sequence[str] | None = None,
    games: int = 100,
    players: int = 2,
    workers: int = 1,
    seed: int = 0,
    progress: bool = True,
    verbose: bool = True,
    name: str | None = None,
    **options: Any,
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
    label, player, shown = resolve_policy(policy, env_name)
    if label in levels:
        raise ValueError(f"the policy is the level {label!r} itself; evaluate it against other levels")
    matches = schedule(env_name, label, levels, games, players, seed, options)
    entrants = {label: player} if player is not None else {}
    results = run_matches(matches, workers=workers, progress=progress, entrants=entrants, desc="evaluate")
    out = Evaluation(env_name, players, name or shown, games, seed, dict(options))
    for level in levels:
        mine = [r for r in results if level in r.match.seats]
        pts = [points(r.rewards)[r.match.seats.index(label)] for r in mine if not r.truncated]
        n = len(pts)
        share = sum(pts) / n if n else 0.0
        lo, hi = wilson(share, n)
        rewards = [r.rewards[r.match.seats.index(label)] for r in mine if not r.truncated]
        out.scores[level] = Score(
            level=level, games=n, share=share, low=lo, high=hi,
            wins=sum(p == 1.0 for p in pts), shared=sum(0.0 < p < 1.0 for p in pts),
            losses=sum(p == 0.0 for p in pts), truncated=len(mine) - n,
            mean_reward=float(np.mean(rewards)) if rewards else math.nan, players=players)
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
        mu, sigma, counted = _rate(results, label, reference)
        out.rating = Rating(mu, sigma, reference, counted)
    if verbose:
        print(out.markdown(), flush=True)
    return out


# ------------------------------------------------------------------------- command line


def _option(text: str) -> tuple[str, Any]:
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
        prog="cardenvs-evaluate", formatter_class=HelpFormatter,
        description="Play a policy against ladder levels; print each level's score with its 95% "
                    "Wilson interval and a rating on the ladder's openskill scale.",
        epilog="examples:\n"
               f"  cardenvs-evaluate my_policy.npz --env {envs[0]} --against greedy planner --games 200\n"
               f"  cardenvs-evaluate trained --env {envs[-1]} --against planner expert --workers 2\n"
               f"  cardenvs-evaluate model.zip --env {envs[-1]} --players 3 --games 99")
    ap.add_argument("policy", help="a policy file (.npz, or an SB3 .zip) or a level name")
    ap.add_argument("--env", default=envs[0], choices=envs, help="the environment")
    ap.add_argument("--against", nargs="+", default=None, metavar="LEVEL",
                    help="levels to play (default: the ordered ladder, agents.levels(env))")
    ap.add_argument("--games", type=int, default=100, help="games against each level")
    ap.add_argument("--players", type=int, default=2, help="seats at the table")
    ap.add_argument("--workers", type=int, default=1, help="processes to play in")
    ap.add_argument("--seed", type=int, default=0, help="the first deal")
    ap.add_argument("--option", type=_option, action="append", default=[], metavar="KEY=VALUE",
                    help="a game option, e.g. --option pack=three --option hand_size=9")
    ap.add_argument("--out", default=None, help="also write the table (markdown) to this file")
    ap.add_argument("--json", default=None, help="also write the result as JSON to this file")
    ap.add_argument("--no-progress", action="store_true", help="no progress bar")
    args = ap.parse_args(argv)
    try:
        result = evaluate(args.policy, args.env, against=args.against, games=args.games,
                          players=args.players, workers=args.workers, seed=args.seed,
                          progress=not args.no_progress, verbose=True, **dict(args.option))
    except ValueError as err:
        ap.error(str(err))
    for target, text in ((args.out, result.markdown()), (args.json, json.dumps(result.to_dict(), indent=1))):
        if target:
            Path(target).parent.mkdir(parents=True, exist_ok=True)
            Path(target).write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
