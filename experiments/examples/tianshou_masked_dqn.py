#!/usr/bin/env python3
"""Masked DQN with Tianshou 2 on a cardenvs game, against random opponents.

    pip install "tianshou==2.0.1"
    python -m experiments.examples.tianshou_masked_dqn                     # lineit_v0, 2 players
    python -m experiments.examples.tianshou_masked_dqn --env rummy432_v0 --players 3 --steps 20000

The learner is a :class:`~cardenvs.core.wrappers.SingleAgentEnv` seat (drawn at each
deal) against ``random`` ladder agents.  Tianshou masks actions through the observation:
when ``obs`` is a dict ``{"obs": ..., "mask": ...}``, ``DiscreteQLearningPolicy`` pushes
the Q-values of masked actions below every legal one before its argmax, and its
epsilon-greedy noise draws only among legal actions.  :class:`TianshouMaskedObs` puts
the env's ``action_masks()`` there.  After ``--steps`` environment steps the greedy
policy plays ``--eval-games`` games against ``random`` and the win rate is printed;
an illegal action would end its game with a penalty and is counted (it stays 0).
``rummy432_v0`` is played one round per episode here (``rounds_to_win=1``).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np

import cardenvs
from agents.cli import HelpFormatter
from agents.players.ladder import make_agent
from cardenvs.core.wrappers import SingleAgentEnv, observation_scale

#: game options that keep an episode short (rummy432: one round per episode, not three)
SHORT_GAME: dict[str, dict[str, Any]] = {"rummy432_v0": {"rounds_to_win": 1}}


class Tally:
    """Episodes' final rewards and illegal actions, counted by the wrapped envs."""

    def __init__(self) -> None:
        self.returns: list[float] = []
        self.illegal = 0


class TianshouMaskedObs(gymnasium.Wrapper):
    """Observations as ``{"obs": features, "mask": legal actions}``, Tianshou's masking layout.

    The info dict keeps one fixed key (``illegal``) so that Tianshou's replay buffer sees
    the same structure at every step.
    """

    def __init__(self, env: SingleAgentEnv, tally: Tally) -> None:
        super().__init__(env)
        self.base = env
        self.tally = tally
        self.observation_space = gymnasium.spaces.Dict({
            "obs": env.observation_space,
            "mask": gymnasium.spaces.MultiBinary(env.game.num_actions),
        })

    def _wrap(self, obs: np.ndarray) -> dict[str, np.ndarray]:
        return {"obs": obs, "mask": self.base.action_masks()}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> Any:
        obs, _ = self.env.reset(seed=seed, options=options)
        return self._wrap(obs), {"illegal": False}

    def step(self, action: Any) -> Any:
        obs, reward, terminated, truncated, info = self.env.step(int(action))
        illegal = "illegal_action" in info
        self.tally.illegal += illegal
        if terminated or truncated:
            self.tally.returns.append(float(reward))
        return self._wrap(obs), reward, terminated, truncated, {"illegal": illegal}


def make_env(env_name: str, players: int, seed: int, tally: Tally, scale: np.ndarray) -> TianshouMaskedObs:
    opponents = [make_agent(env_name, "random", seed=seed + i) for i in range(players - 1)]
    env = SingleAgentEnv(env_name, opponents, learner_seat=None, obs_scale=scale, num_players=players,
                         **SHORT_GAME.get(env_name, {}))
    return TianshouMaskedObs(env, tally)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0], formatter_class=HelpFormatter)
    p.add_argument("--env", default="lineit_v0", choices=sorted(cardenvs.GAMES),
                   help="lineit_v0 shows a win-rate gain over random within a few thousand steps")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--steps", type=int, default=4000, help="environment steps of training")
    p.add_argument("--eval-games", type=int, default=50, help="games against random at the end")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--hidden", type=int, default=128)
    p.add_argument("--batch-size", type=int, default=64)
    p.add_argument("--n-step", type=int, default=3, help="n-step return horizon")
    p.add_argument("--collect", type=int, default=64, help="environment steps per collection step")
    p.add_argument("--updates-per-step", type=float, default=0.125,
                   help="gradient steps per environment step collected")
    return p.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> dict[str, float]:
    """Train, evaluate, print; returns ``{"win_rate", "illegal", "train_steps", ...}``."""
    args = parse_args(argv)
    import torch
    from tianshou.algorithm import DQN
    from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
    from tianshou.algorithm.optim import AdamOptimizerFactory
    from tianshou.data import Collector, ReplayBuffer
    from tianshou.env import DummyVectorEnv
    from tianshou.trainer import OffPolicyTrainerParams
    from tianshou.utils.net.common import Net

    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)  # Tianshou's epsilon-greedy draws from numpy's global generator
    start = time.perf_counter()

    game = cardenvs.game_class(args.env)(args.players, **SHORT_GAME.get(args.env, {}))
    scale = observation_scale(game, seed=args.seed)  # raw counts -> about [-1, 1]
    train_tally, eval_tally = Tally(), Tally()
    train_env = make_env(args.env, args.players, args.seed, train_tally, scale)
    eval_env = make_env(args.env, args.players, args.seed + 1000, eval_tally, scale)
    train_envs = DummyVectorEnv([lambda: train_env])
    eval_envs = DummyVectorEnv([lambda: eval_env])
    train_envs.seed(args.seed)
    eval_envs.seed(args.seed + 1000)

    net = Net(state_shape=game.observation_size(), action_shape=game.num_actions,
              hidden_sizes=[args.hidden, args.hidden])
    policy = DiscreteQLearningPolicy(model=net, action_space=train_env.action_space,
                                     observation_space=train_env.observation_space,
                                     eps_training=1.0, eps_inference=0.0)
    algorithm: DQN = DQN(policy=policy, optim=AdamOptimizerFactory(lr=args.lr), gamma=0.99,
                         n_step_return_horizon=args.n_step, target_update_freq=100)
    # one env, so a plain ReplayBuffer (a VectorReplayBuffer would compile more numba code at start)
    train_collector = Collector(algorithm, train_envs, ReplayBuffer(max(args.steps, 1000)),
                                exploration_noise=True)

    explore = max(1, args.steps // 2)  # epsilon 1.0 -> 0.05 over the first half
    report_every = max(1, args.steps // 5)
    next_report = [report_every]

    def on_training_step(_epoch: int, env_step: int) -> None:
        policy.set_eps_training(max(0.05, 1.0 - 0.95 * env_step / explore))
        if env_step >= next_report[0]:
            next_report[0] += report_every
            recent = train_tally.returns[-20:]
            wins = np.mean(np.asarray(recent) > 0) if recent else float("nan")
            print(f"step {env_step:6d}/{args.steps}  episodes {len(train_tally.returns):4d}  "
                  f"eps {policy.eps_training:.2f}  recent win rate {wins:.2f}  "
                  f"illegal {train_tally.illegal}", flush=True)

    algorithm.run_training(OffPolicyTrainerParams(
        training_collector=train_collector,
        max_epochs=1,
        epoch_num_steps=args.steps,
        collection_step_num_env_steps=args.collect,
        update_step_num_gradient_steps_per_sample=args.updates_per_step,
        batch_size=args.batch_size,
        training_fn=on_training_step,
        verbose=False,
        show_progress=False,
    ))
    trained_s = time.perf_counter() - start

    # evaluation: the greedy masked policy (no exploration noise) against random; a small plain
    # buffer (episode returns are summed as steps come in), not the default VectorReplayBuffer,
    # which allocates 10000 steps and compiles numba helpers
    eval_collector = Collector(algorithm, eval_envs, ReplayBuffer(1000))
    eval_collector.reset()
    stats = eval_collector.collect(n_episode=args.eval_games)
    returns = np.asarray(stats.returns, float)
    win_rate = float(np.mean(returns > 0))
    eval_s = time.perf_counter() - start - trained_s
    print(f"trained {train_collector.collect_step} steps ({len(train_tally.returns)} episodes) "
          f"in {trained_s:.1f}s, evaluated in {eval_s:.1f}s")
    print(f"{args.env}: win rate against random over {len(returns)} games: {win_rate:.2f} "
          f"(mean reward {returns.mean():+.2f}; illegal actions: "
          f"{train_tally.illegal} in training, {eval_tally.illegal} in evaluation)")
    return {"win_rate": win_rate, "games": float(len(returns)),
            "illegal": float(train_tally.illegal + eval_tally.illegal),
            "train_steps": float(train_collector.collect_step),
            "train_episodes": float(len(train_tally.returns))}


if __name__ == "__main__":
    main()
