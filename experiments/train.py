#!/usr/bin/env python3
"""Train a MaskablePPO agent on a cardenvs game, with an opponent pool and self-play.

    python -m experiments.train --env line_v0 --players 2 --steps 300000
    python -m experiments.train --env rummy432_v0 --players 2 --steps 500000 --n-envs 8 \\
        --pool greedy planner --self-play 0.3 --eval-every 50000 --export agents/policies/rummy432_v0.npz

The learner sits at a random seat of the single-agent wrapper; at every episode the
opponents are drawn from the pool: ladder levels (``--pool``) and, with probability
``--self-play``, earlier snapshots of the learner (exported every ``--snapshot-every``
steps to ``<out>/snapshots``).  Logs go to ``<out>`` as CSV (and TensorBoard when it is
installed); every ``--eval-every`` steps the current policy plays ``--eval-games``
games against each ladder level through the tournament code, and ``learning_curve.png``
plots those win rates.  Checkpoints are saved at each evaluation; ``--export`` writes the
final policy as numpy arrays (it then plays without torch as the ``trained`` level).

``--imitate LEVEL`` first clones a level.  Its move agreement is reported on held-out
games (``--imitate-holdout``, whose best epoch is kept): agreement on the fitted
decisions alone is in-sample and says little about play.  ``--dagger ROUNDS`` then lets
the clone play, has the teacher label the positions the clone reaches, and refits.
"""

from __future__ import annotations

import argparse
import csv
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

import agents
import cardenvs
from agents.cli import HelpFormatter
from agents.learning import sb3_speedups
from agents.players.knowledge import spec
from agents.players.trained import NumpyPolicy, TrainedAgent, export_sb3
from cardenvs.core.loop import Turn, play
from cardenvs.core.wrappers import SingleAgentEnv, observation_scale
from experiments.reporting import command_line, game_options

if TYPE_CHECKING:  # the training libraries are imported when a run starts, not for --help
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env import VecEnv


class OpponentPool:
    """Draws the opponents of each episode: ladder levels or learner snapshots.

    Picklable, so subprocess vector environments can use it; snapshots are read from
    files, so every worker sees the ones the trainer writes.
    """

    def __init__(self, env_name: str, players: int, levels: list[str], snapshot_dir: str | None,
                 self_play: float) -> None:
        self.env_name = env_name
        self.players = players
        self.levels = levels
        self.snapshot_dir = snapshot_dir
        self.self_play = self_play
        self._cache: dict[str, NumpyPolicy] = {}

    def _snapshot(self, rng: np.random.Generator) -> agents.Agent | None:
        if not self.snapshot_dir:
            return None
        files = sorted(Path(self.snapshot_dir).glob("*.npz"))
        if not files:
            return None
        path = str(files[int(rng.integers(len(files)))])
        agent = TrainedAgent(self.env_name, path, seed=int(rng.integers(2**31)), sample=True)
        return agent

    def __call__(self, rng: np.random.Generator) -> list[agents.Agent]:
        out: list[agents.Agent] = []
        for _ in range(self.players - 1):
            agent = self._snapshot(rng) if rng.random() < self.self_play else None
            if agent is None:
                level = self.levels[int(rng.integers(len(self.levels)))]
                agent = agents.make_agent(self.env_name, level, seed=int(rng.integers(2**31)))
            out.append(agent)
        return out


class RoundReward:
    """Shaping for multi-round games: +w for each round won, -w for each round lost."""

    def __init__(self, weight: float) -> None:
        self.weight = weight

    def __call__(self, info: dict[str, Any], seat: int) -> float:
        result = info.get("round_result")
        if not result:
            return 0.0
        return self.weight if seat in result["winners"] else -self.weight


def make_env_fn(env_name: str, players: int, pool: OpponentPool, seed: int, options: dict[str, Any],
                round_reward: float = 0.0,
                obs_scale: np.ndarray | None = None) -> Callable[[], SingleAgentEnv]:
    """A thunk building one single-agent env (for SB3's vector envs)."""

    def thunk() -> SingleAgentEnv:
        game = cardenvs.game_class(env_name)(players, **options)
        shaping = RoundReward(round_reward) if round_reward else None
        env = SingleAgentEnv(game, pool, learner_seat=None, step_reward=shaping, obs_scale=obs_scale)
        env.reset(seed=seed)
        return env

    return thunk


def evaluate(env_name: str, players: int, policy_file: str, levels: list[str], games: int,
             seed: int, workers: int) -> dict[str, float]:
    """Score share of the policy against each ladder level (seats rotated)."""
    from agents.evaluation.tournament import Match, points, run_matches

    out: dict[str, float] = {}
    for level in levels:
        matches = []
        for g in range(games):
            seats = [level] * players
            seats[g % players] = f"policy:{policy_file}"
            matches.append(Match(env_name, tuple(seats), seed + g // players))
        results = run_matches(matches, workers=workers, progress=False)
        score = 0.0
        for res in results:
            me = res.match.seats.index(f"policy:{policy_file}")
            score += points(res.rewards)[me]
        out[level] = score / len(results)
    return out


Data = tuple[np.ndarray, np.ndarray, np.ndarray]


def teacher_data(env_name: str, players: int, teacher: str, games: int, seed: int,
                 options: dict[str, Any]) -> Data:
    """(observations, masks, teacher actions) from ``games`` games of the teacher level.

    Every seat is played by the teacher and every decision is recorded, so the data
    covers all seats of the table.  Decisions are recorded game after game, so the last
    rows of the arrays are the last games (:func:`split_held_out` relies on it).
    """
    from tqdm import tqdm

    game = cardenvs.game_class(env_name)(players, **options)
    rng = np.random.default_rng(seed)
    obs: list[np.ndarray] = []
    masks: list[np.ndarray] = []
    acts: list[int] = []
    seats = [agents.make_agent(env_name, teacher, seed=seed + i) for i in range(players)]

    def record(turn: Turn) -> None:
        obs.append(game.encode(turn.view))
        mask = np.zeros(game.num_actions, bool)
        mask[turn.legal] = True
        masks.append(mask)
        acts.append(turn.action)

    for _ in tqdm(range(games), desc=f"imitation data ({teacher})", unit="game"):
        play(game, game.new_state(rng), seats, rng, on_move=record)
    return np.stack(obs), np.stack(masks), np.asarray(acts)


def student_data(env_name: str, players: int, teacher: str, student: str | Path, games: int, seed: int,
                 options: dict[str, Any]) -> tuple[Data, float]:
    """The teacher's moves on the positions the student reaches (one DAgger round).

    The exported policy ``student`` sits in seat ``g % players`` of game ``g`` against the
    teacher level in the other seats and plays its own moves; at each of its decisions the
    teacher is asked what it would play from the same View, and that is the label.  Returns
    the data and the student's agreement with those labels (its on-policy agreement).
    """
    game = cardenvs.game_class(env_name)(players, **options)
    rng = np.random.default_rng(seed)
    judge = agents.make_agent(env_name, teacher, seed=seed - 1)
    obs: list[np.ndarray] = []
    masks: list[np.ndarray] = []
    acts: list[int] = []
    same = 0
    for g in range(games):
        me = g % players
        seats = [agents.make_agent(env_name, teacher, seed=seed + g * players + i) for i in range(players)]
        seats[me] = TrainedAgent(env_name, student, seed=seed + g)

        def record(turn: Turn, me: int = me) -> None:
            nonlocal same
            if turn.seat != me:
                return
            label = judge.choose(game, turn.view, turn.legal)
            same += label == turn.action
            obs.append(game.encode(turn.view))
            mask = np.zeros(game.num_actions, bool)
            mask[turn.legal] = True
            masks.append(mask)
            acts.append(label)

        play(game, game.new_state(rng), seats, rng, on_move=record)
    n = len(acts)
    return (np.stack(obs), np.stack(masks), np.asarray(acts)), same / max(n, 1)


def split_held_out(data: Data, fraction: float) -> tuple[Data, Data | None]:
    """``(fitted, held_out)``: the last ``fraction`` of the decisions held out.

    The data is recorded game after game, so the held-out rows are whole games (but for
    the one game at the boundary): positions the clone was not fitted on, unlike the
    near-duplicates a random split of decisions would leave on both sides.
    """
    n = len(data[2])
    k = int(round(n * fraction))
    if fraction <= 0 or k == 0 or k >= n:
        return data, None
    cut = n - k
    return (data[0][:cut], data[1][:cut], data[2][:cut]), (data[0][cut:], data[1][cut:], data[2][cut:])


def agreement(model: Any, data: Data) -> float:
    """Share of decisions where the masked policy's most probable move is the recorded one."""
    import torch

    obs, masks, acts = data
    policy = model.policy
    hits = 0
    with torch.no_grad():
        for start in range(0, len(acts), 4096):
            o = torch.as_tensor(obs[start:start + 4096])
            dist = policy.get_distribution(o, action_masks=masks[start:start + 4096])
            hits += int((dist.distribution.probs.argmax(-1).numpy() == acts[start:start + 4096]).sum())
    return hits / max(len(acts), 1)


@dataclass
class Imitation:
    """What behaviour cloning reached.

    ``fitted``: move agreement on the decisions it was fitted on (an in-sample number,
    which a large network pushes towards 100% by memorising positions); ``held_out``:
    agreement on held-out games (``None`` without them), the number that predicts play;
    ``epoch``: the epoch whose parameters were kept (the best on the held-out games).
    """

    fitted: float
    held_out: float | None
    epoch: int


def imitate(model: Any, data: Data, epochs: int, batch: int, seed: int,
            held_out: Data | None = None) -> Imitation:
    """Behaviour cloning: maximise the masked policy's log-probability of the teacher's moves.

    With ``held_out`` data, agreement on it is measured after every epoch and the
    parameters of the best epoch are kept (early stopping); agreements are reported
    after the fact on both sets.
    """
    import copy

    import torch
    from tqdm import tqdm

    obs, masks, acts = data
    policy = model.policy
    opt = torch.optim.Adam(policy.parameters(), lr=1e-3)
    rng = np.random.default_rng(seed)
    n = len(acts)
    best: tuple[float, int, dict[str, Any]] | None = None
    for epoch in tqdm(range(1, epochs + 1), desc="imitation epochs"):
        order = rng.permutation(n)
        for start in range(0, n, batch):
            idx = order[start:start + batch]
            o = torch.as_tensor(obs[idx])
            _values, log_prob, _ent = policy.evaluate_actions(o, torch.as_tensor(acts[idx]),
                                                              action_masks=masks[idx])
            loss = -log_prob.mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        if held_out is not None:
            score = agreement(model, held_out)
            if best is None or score > best[0]:
                best = (score, epoch, copy.deepcopy(policy.state_dict()))
    if best is not None:
        policy.load_state_dict(best[2])
        return Imitation(agreement(model, data), best[0], best[1])
    return Imitation(agreement(model, data), None, epochs)


def plot_curve(csv_path: Path, png_path: Path, title: str) -> None:
    """Win rate against each ladder level over training steps."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with open(csv_path) as f:
        rows = list(csv.DictReader(f))
    if not rows:
        return
    steps = [int(r["steps"]) for r in rows]
    fig, ax = plt.subplots(figsize=(7, 4))
    for key in rows[0]:
        if key.startswith("vs_"):
            ax.plot(steps, [float(r[key]) for r in rows], marker="o", label=key[3:])
    ax.axhline(0.5, color="grey", lw=0.8, ls="--")
    ax.set_xlabel("training steps")
    ax.set_ylabel("win share (draws split)")
    ax.set_ylim(0, 1)
    ax.set_title(title)
    ax.legend()
    fig.tight_layout()
    fig.savefig(png_path, dpi=110)
    plt.close(fig)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line (``--help`` lists the options in this order)."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=HelpFormatter)
    ap.add_argument("--env", default="line_v0", choices=list(cardenvs.ENVS))
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--steps", type=int, default=200_000, help="PPO steps (0: imitation only)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--n-envs", type=int, default=8)
    ap.add_argument("--vec", choices=["inprocess", "dummy", "subproc"], default="inprocess",
                    help="inprocess: cardenvs.vector.MaskedVecEnv (fastest on few cores); "
                         "dummy: SB3 DummyVecEnv; subproc: SB3 SubprocVecEnv")
    ap.add_argument("--dense-policy", action="store_true",
                    help="sb3-contrib's stock MlpPolicy instead of agents.learning.sparse_policy "
                         "(same networks, slower)")
    ap.add_argument("--pool", nargs="*", default=["random", "greedy"],
                    help="ladder levels the opponents come from")
    ap.add_argument("--self-play", type=float, default=0.0, help="chance an opponent is a learner snapshot")
    ap.add_argument("--snapshot-every", type=int, default=50_000)
    ap.add_argument("--net-arch", type=str, default=None, help="hidden sizes, e.g. 256,256")
    ap.add_argument("--lr", type=float, default=None)
    ap.add_argument("--n-steps", type=int, default=None, help="rollout length per env")
    ap.add_argument("--batch-size", type=int, default=256)
    ap.add_argument("--n-epochs", type=int, default=4)
    ap.add_argument("--gamma", type=float, default=0.995)
    ap.add_argument("--gae-lambda", type=float, default=0.95)
    ap.add_argument("--clip-range", type=float, default=0.2)
    ap.add_argument("--ent-coef", type=float, default=None)
    ap.add_argument("--eval-every", type=int, default=50_000)
    ap.add_argument("--eval-games", type=int, default=40)
    ap.add_argument("--eval-levels", nargs="*", default=None, help="default: every non-search level")
    ap.add_argument("--workers", type=int, default=1, help="processes for evaluation games")
    ap.add_argument("--out", default=None,
                    help="run folder (default: <repo>/runs/<env>_<players>p_s<seed>)")
    ap.add_argument("--export", default=None, help="write the final numpy policy here")
    ap.add_argument("--round-reward", type=float, default=0.0,
                    help="rummy432_v0: extra reward per round won (+W) or lost (-W), to densify the signal")
    ap.add_argument("--no-scale", action="store_true",
                    help="feed raw observations (default: scale each feature to about [-1, 1])")
    ap.add_argument("--imitate", default=None, metavar="LEVEL",
                    help="first clone this ladder level's moves (behaviour cloning), then run PPO")
    ap.add_argument("--imitate-games", type=int, default=300)
    ap.add_argument("--imitate-epochs", type=int, default=8)
    ap.add_argument("--imitate-cache", default=None, metavar="FILE.npz",
                    help="load the imitation data from this file, or generate it and save it there")
    ap.add_argument("--imitate-holdout", type=float, default=0.1, metavar="FRACTION",
                    help="share of the teacher's games held out: agreement is reported on them and "
                         "the best epoch on them is kept (0: fit everything, report in-sample only)")
    ap.add_argument("--dagger", type=int, default=0, metavar="ROUNDS",
                    help="after cloning, rounds of DAgger: the clone plays --dagger-games games against "
                         "the teacher, the teacher labels the clone's own positions, and the clone is "
                         "fitted again on all the data")
    ap.add_argument("--dagger-games", type=int, default=200)
    ap.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                    help="a game option, e.g. --option pack=four (values parsed as JSON)")
    return ap.parse_args(argv)


def ppo_settings(args: argparse.Namespace) -> dict[str, Any]:
    """The game's starting hyperparameters (``agents.players.ladder``) with the command line's overrides."""
    d = spec(args.env).train_defaults
    return {
        "net_arch": [int(x) for x in args.net_arch.split(",")] if args.net_arch else d["net_arch"],
        "learning_rate": args.lr or d["lr"],
        "n_steps": args.n_steps or d["n_steps"],
        "ent_coef": args.ent_coef if args.ent_coef is not None else d["ent_coef"],
    }


def build_envs(args: argparse.Namespace, options: dict[str, Any],
               out: Path) -> tuple[VecEnv, np.ndarray | None]:
    """The vector env the learner trains in (opponents from the pool) and its observation scale."""
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    from cardenvs.vector import MaskedVecEnv

    pool = OpponentPool(args.env, args.players, args.pool, str(out / "snapshots"), args.self_play)
    game0 = cardenvs.game_class(args.env)(args.players, **options)
    scale = None if args.no_scale else observation_scale(game0, seed=args.seed)
    fns = [make_env_fn(args.env, args.players, pool, args.seed * 1000 + i, options, args.round_reward, scale)
           for i in range(args.n_envs)]
    vec_class = {"inprocess": MaskedVecEnv, "dummy": DummyVecEnv, "subproc": SubprocVecEnv}[args.vec]
    return vec_class(fns), scale


def build_model(args: argparse.Namespace, venv: VecEnv, settings: dict[str, Any], out: Path) -> MaskablePPO:
    """The MaskablePPO learner, logging to ``out`` as CSV (and TensorBoard when installed)."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.logger import configure

    from agents.learning.sparse_policy import fast_ppo_kwargs

    net_arch = settings["net_arch"]
    # the sparse head, boolean mask buffer and fused Adam compute what the stock policy does
    algo = ({"policy": "MlpPolicy", "policy_kwargs": {"net_arch": net_arch}} if args.dense_policy
            else fast_ppo_kwargs({"net_arch": net_arch}))
    model = MaskablePPO(
        env=venv, learning_rate=settings["learning_rate"], n_steps=settings["n_steps"],
        batch_size=args.batch_size, n_epochs=args.n_epochs, gamma=args.gamma, gae_lambda=args.gae_lambda,
        clip_range=args.clip_range, ent_coef=settings["ent_coef"], seed=args.seed, verbose=0, **algo,
    )
    formats = ["csv"]
    try:
        import tensorboard  # noqa: F401

        formats.append("tensorboard")
    except ImportError:
        pass
    model.set_logger(configure(str(out), formats))
    return model


@dataclass
class Run:
    """What the phases of one training run share: its options, learner and output folder."""

    args: argparse.Namespace
    model: MaskablePPO
    out: Path
    scale: np.ndarray | None
    meta: dict[str, Any]

    def export(self, path: Path | str) -> None:
        """Write the current policy as numpy arrays (the ``trained`` level's format)."""
        export_sb3(self.model, self.meta, self.scale).save(path)


class Evaluator:
    """Evaluates the current policy against the ladder and logs the result.

    Each evaluation saves ``current.npz`` and the checkpoint, appends a row to
    ``eval.csv``, prints a line and redraws ``learning_curve.png``.
    """

    def __init__(self, run: Run) -> None:
        args = run.args
        self.run = run
        self.levels = args.eval_levels or [
            lvl for lvl in agents.levels(args.env) if lvl not in ("expert", "trained")]
        self.curve = run.out / "eval.csv"
        with open(self.curve, "w", newline="") as f:
            csv.writer(f).writerow(["steps", "seconds", *[f"vs_{lvl}" for lvl in self.levels]])
        self.start = time.time()
        self.last_step: int | None = None  # the step count of the latest row

    def __call__(self, n: int) -> None:
        """Evaluate the policy after ``n`` training steps and log it."""
        run, args = self.run, self.run.args
        path = run.out / "current.npz"
        run.export(path)
        run.model.save(run.out / "checkpoint")
        rates = evaluate(args.env, args.players, str(path), self.levels, args.eval_games, 10_000,
                         args.workers)
        seconds = round(time.time() - self.start, 1)
        with open(self.curve, "a", newline="") as f:
            csv.writer(f).writerow([n, seconds, *[f"{rates[lvl]:.3f}" for lvl in self.levels]])
        print(f"[{n} steps] " + ", ".join(f"vs {k}: {v:.0%}" for k, v in rates.items()), flush=True)
        plot_curve(self.curve, run.out / "learning_curve.png", f"{args.env}, {args.players} players")
        self.last_step = n


def imitation_data(args: argparse.Namespace, options: dict[str, Any]) -> Data:
    """The teacher's decisions: read from ``--imitate-cache`` if it exists, else played (and cached)."""
    cache = Path(args.imitate_cache) if args.imitate_cache else None
    if cache is not None and cache.exists():
        with np.load(cache) as z:
            data = (z["obs"], z["masks"], z["acts"])
        print(f"imitation data from {cache}: {len(data[2])} decisions", flush=True)
        return data
    data = teacher_data(args.env, args.players, args.imitate, args.imitate_games, args.seed + 77, options)
    if cache is not None:
        cache.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(cache, obs=data[0], masks=data[1], acts=data[2])
    return data


def imitation_phase(run: Run, options: dict[str, Any]) -> None:
    """Behaviour cloning of the ``--imitate`` level before PPO (observations scaled as in training).

    Agreement is reported on held-out games (``--imitate-holdout``), not only on the
    fitted decisions; ``--dagger`` rounds then add the teacher's labels of the clone's
    own positions and report the clone's agreement there before each refit.
    """
    args = run.args

    def scaled(d: Data) -> Data:
        return d if run.scale is None else (d[0] * run.scale, d[1], d[2])

    fitted, held = split_held_out(scaled(imitation_data(args, options)), args.imitate_holdout)
    result = imitate(run.model, fitted, args.imitate_epochs, args.batch_size, args.seed, held)
    print(f"imitation of {args.imitate}: {_agreement_line(result, fitted, held)}", flush=True)
    for r in range(1, args.dagger + 1):
        path = run.out / "dagger.npz"
        run.export(path)
        new, on_policy = student_data(args.env, args.players, args.imitate, path, args.dagger_games,
                                      args.seed * 1000 + 500 + r, options)
        print(f"dagger round {r}: on its own {len(new[2])} positions the clone agreed with "
              f"{args.imitate} on {on_policy:.1%}", flush=True)
        new_fit, new_held = split_held_out(scaled(new), args.imitate_holdout)
        fitted = _concat(fitted, new_fit)
        held = new_held if held is None else (held if new_held is None else _concat(held, new_held))
        result = imitate(run.model, fitted, args.imitate_epochs, args.batch_size, args.seed + r, held)
        print(f"dagger round {r}: {_agreement_line(result, fitted, held)}", flush=True)


def _concat(a: Data, b: Data) -> Data:
    return np.concatenate([a[0], b[0]]), np.concatenate([a[1], b[1]]), np.concatenate([a[2], b[2]])


def _agreement_line(result: Imitation, fitted: Data, held: Data | None) -> str:
    line = f"{len(fitted[2])} decisions fitted, agreement {result.fitted:.1%} on them"
    if held is not None and result.held_out is not None:
        line += (f", {result.held_out:.1%} on {len(held[2])} held-out decisions "
                 f"(kept epoch {result.epoch})")
    return line


def last_rollout_end(model: MaskablePPO, steps: int) -> int:
    """The step count at which ``model.learn(total_timesteps=steps)`` stops: whole rollouts."""
    rollout = model.n_steps * model.n_envs
    return -(-steps // rollout) * rollout


def periodic_callback(run: Run, evaluator: Evaluator, end: int) -> BaseCallback:
    """Snapshots for self-play every ``--snapshot-every`` steps, evaluations every ``--eval-every``.

    No evaluation at step ``end``: the last rollout's update comes after its last step,
    and the final evaluation records that step once, with the updated policy.
    """
    from stable_baselines3.common.callbacks import BaseCallback

    args = run.args

    class Periodic(BaseCallback):
        """Called by SB3 after every vector-env step."""

        def __init__(self) -> None:
            super().__init__()
            self.next_eval = args.eval_every
            self.next_snap = args.snapshot_every

        def _on_step(self) -> bool:
            n = self.num_timesteps
            if args.self_play > 0 and n >= self.next_snap:
                self.next_snap += args.snapshot_every
                run.export(run.out / "snapshots" / f"step{n:09d}.npz")
            if n >= self.next_eval:
                self.next_eval += args.eval_every
                if n != end:
                    evaluator(n)
            return True

    return Periodic()


def train(run: Run, evaluator: Evaluator) -> None:
    """PPO for ``--steps`` steps with the periodic snapshots and evaluations, then the final evaluation."""
    args, model = run.args, run.model
    if args.steps > 0:
        callback = periodic_callback(run, evaluator, last_rollout_end(model, args.steps))
        model.learn(total_timesteps=args.steps, callback=callback, progress_bar=_has_progress_bar())
    if args.steps > 0 or evaluator.last_step is None:  # without PPO the imitation's evaluation stands
        evaluator(model.num_timesteps)


def finish(run: Run, venv: VecEnv, start: float) -> None:
    """Export the final policy (``--export``), close the envs and say where the outputs are."""
    if run.args.export:
        run.export(run.args.export)
        print(f"exported the policy to {run.args.export}")
    venv.close()
    print(f"done in {time.time() - start:.0f} s; logs, checkpoint and learning_curve.png in {run.out}")


#: run folders go here by default, whatever the working directory (git ignores it)
RUNS = Path(__file__).resolve().parents[1] / "runs"


def main(argv: list[str] | None = None) -> None:
    """Train as the command line says: build, imitate (optionally), train, evaluate, export."""
    args = parse_args(argv)

    import torch

    torch.set_num_threads(1)
    sb3_speedups.enable()  # no argument validation, fast masked sampling (same distribution)
    options = game_options(args.option)
    cardenvs.game_class(args.env)(args.players, **options)  # validate early, clear error
    settings = ppo_settings(args)
    out = Path(args.out or RUNS / f"{args.env}_{args.players}p_s{args.seed}")
    (out / "snapshots").mkdir(parents=True, exist_ok=True)
    venv, scale = build_envs(args, options, out)
    model = build_model(args, venv, settings, out)
    meta = {"env": args.env, "players": args.players, "command": command_line("experiments.train", argv)}
    run = Run(args, model, out, scale, meta)
    evaluator = Evaluator(run)
    if args.imitate:
        imitation_phase(run, options)
        evaluator(0)
    train(run, evaluator)
    finish(run, venv, evaluator.start)


def _has_progress_bar() -> bool:
    try:
        import rich  # noqa: F401
        import tqdm  # noqa: F401
    except ImportError:
        return False
    return True


if __name__ == "__main__":
    main()
