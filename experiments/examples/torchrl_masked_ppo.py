#!/usr/bin/env python3
"""Masked PPO with TorchRL on a cardenvs game, against random opponents.

    pip install "torchrl==0.14.1"
    python -m experiments.examples.torchrl_masked_ppo                     # lineit_v0, 2 players
    python -m experiments.examples.torchrl_masked_ppo --env rummy432_v0 --players 3 --steps 20000

The learner is a :class:`~cardenvs.core.wrappers.SingleAgentEnv` seat (drawn at each
deal) against ``random`` ladder agents.  :class:`TorchRLMaskedObs` turns its observation
into ``{"observation", "action_mask"}``; ``GymWrapper`` makes those two tensordict entries
and the ``ActionMask`` transform keeps the action spec's mask in step with the game (so
random actions, e.g. ``env.rand_step()``, are legal too).  The policy is a
``ProbabilisticActor`` whose ``MaskedCategorical`` reads the logits and the
``action_mask`` entry: masked actions get probability 0, so they are never sampled
(training) nor chosen (the mode, at evaluation).  Training is clipped PPO with GAE.  After
``--steps`` environment steps the deterministic policy plays ``--eval-games`` games
against ``random`` and the win rate is printed; an illegal action would end its game with
a penalty and is counted (it stays 0).
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
    """Episodes' final rewards and illegal actions, counted by the wrapped env."""

    def __init__(self) -> None:
        self.returns: list[float] = []
        self.illegal = 0


class TorchRLMaskedObs(gymnasium.Wrapper):
    """Observations as ``{"observation": features, "action_mask": legal actions}``.

    The info dict is left empty: TorchRL reads no info keys it was not told about.
    """

    def __init__(self, env: SingleAgentEnv, tally: Tally) -> None:
        super().__init__(env)
        self.base = env
        self.tally = tally
        self.observation_space = gymnasium.spaces.Dict({
            "observation": env.observation_space,
            # boolean, not MultiBinary (int8): MaskedCategorical needs a torch.bool mask
            "action_mask": gymnasium.spaces.Box(0, 1, (env.game.num_actions,), np.bool_),
        })

    def _wrap(self, obs: np.ndarray) -> dict[str, np.ndarray]:
        return {"observation": obs, "action_mask": self.base.action_masks()}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> Any:
        obs, _ = self.env.reset(seed=seed, options=options)
        return self._wrap(obs), {}

    def step(self, action: Any) -> Any:
        obs, reward, terminated, truncated, info = self.env.step(int(action))
        self.tally.illegal += "illegal_action" in info
        if terminated or truncated:
            self.tally.returns.append(float(reward))
        return self._wrap(obs), reward, terminated, truncated, {}


def make_env(env_name: str, players: int, seed: int, tally: Tally, scale: np.ndarray) -> Any:
    """The TorchRL env: ``GymWrapper`` + ``ActionMask`` around the masked-dict gym env."""
    from torchrl.envs import ActionMask, GymWrapper, TransformedEnv

    opponents = [make_agent(env_name, "random", seed=seed + i) for i in range(players - 1)]
    base = SingleAgentEnv(env_name, opponents, learner_seat=None, obs_scale=scale, num_players=players,
                          **SHORT_GAME.get(env_name, {}))
    env = TransformedEnv(GymWrapper(TorchRLMaskedObs(base, tally), categorical_action_encoding=True),
                         ActionMask())
    env.set_seed(seed)
    return env


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0], formatter_class=HelpFormatter)
    p.add_argument("--env", default="lineit_v0", choices=sorted(cardenvs.GAMES),
                   help="lineit_v0 shows a win-rate gain over random within a few thousand steps")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--steps", type=int, default=4000, help="environment steps of training")
    p.add_argument("--eval-games", type=int, default=50, help="games against random at the end")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--hidden", type=int, default=128)
    p.add_argument("--rollout", type=int, default=500, help="environment steps per PPO update")
    p.add_argument("--epochs", type=int, default=4, help="passes over each rollout")
    p.add_argument("--batch-size", type=int, default=100)
    return p.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> dict[str, float]:
    """Train, evaluate, print; returns ``{"win_rate", "illegal", "train_steps", ...}``."""
    args = parse_args(argv)
    import torch
    from tensordict.nn import TensorDictModule
    from torch import nn
    from torchrl.collectors import Collector
    from torchrl.envs.utils import ExplorationType, set_exploration_type
    from torchrl.modules import MaskedCategorical, ProbabilisticActor, ValueOperator
    from torchrl.objectives import ClipPPOLoss
    from torchrl.objectives.value import GAE

    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    start = time.perf_counter()

    game = cardenvs.game_class(args.env)(args.players, **SHORT_GAME.get(args.env, {}))
    scale = observation_scale(game, seed=args.seed)  # raw counts -> about [-1, 1]
    n_obs, n_act = game.observation_size(), game.num_actions
    train_tally, eval_tally = Tally(), Tally()
    env = make_env(args.env, args.players, args.seed, train_tally, scale)

    def mlp(out: int) -> nn.Module:
        return nn.Sequential(nn.Linear(n_obs, args.hidden), nn.Tanh(),
                             nn.Linear(args.hidden, args.hidden), nn.Tanh(), nn.Linear(args.hidden, out))

    # the distribution reads the logits and the env's mask: MaskedCategorical(logits=..., mask=...)
    actor = ProbabilisticActor(
        TensorDictModule(mlp(n_act), in_keys=["observation"], out_keys=["logits"]),
        in_keys={"logits": "logits", "mask": "action_mask"},
        distribution_class=MaskedCategorical,
        spec=env.action_spec,
        return_log_prob=True,
    )
    critic = ValueOperator(mlp(1), in_keys=["observation"])
    loss = ClipPPOLoss(actor, critic, clip_epsilon=0.2, entropy_coeff=0.01, normalize_advantage=True)
    gae = GAE(gamma=0.99, lmbda=0.95, value_network=critic)
    optim = torch.optim.Adam(loss.parameters(), lr=args.lr)

    rollout = min(args.rollout, args.steps)
    # no recurrent state, so no InitTracker/primer transforms to add (and no FutureWarning about them)
    collector = Collector(env, actor, frames_per_batch=rollout, total_frames=args.steps,
                          auto_register_policy_transforms=False)
    done_steps = 0
    for data in collector:
        done_steps += data.numel()
        with torch.no_grad():
            gae(data)
        flat = data.reshape(-1)
        for _ in range(args.epochs):
            for idx in torch.randperm(flat.numel()).split(args.batch_size):
                out = loss(flat[idx])
                total = out["loss_objective"] + out["loss_critic"] + out["loss_entropy"]
                optim.zero_grad()
                total.backward()
                nn.utils.clip_grad_norm_(loss.parameters(), 1.0)
                optim.step()
        collector.update_policy_weights_()
        recent = train_tally.returns[-20:]
        wins = np.mean(np.asarray(recent) > 0) if recent else float("nan")
        print(f"step {done_steps:6d}/{args.steps}  episodes {len(train_tally.returns):4d}  "
              f"recent win rate {wins:.2f}  entropy {out['entropy'].item():.2f}  "
              f"illegal {train_tally.illegal}", flush=True)
    collector.shutdown()
    trained_s = time.perf_counter() - start

    # evaluation: the policy's mode (the most likely legal action) against random
    eval_env = make_env(args.env, args.players, args.seed + 1000, eval_tally, scale)
    with set_exploration_type(ExplorationType.DETERMINISTIC), torch.no_grad():
        while len(eval_tally.returns) < args.eval_games:
            eval_env.rollout(100_000, actor, break_when_any_done=True)
    returns = np.asarray(eval_tally.returns, float)
    win_rate = float(np.mean(returns > 0))
    eval_s = time.perf_counter() - start - trained_s
    print(f"trained {done_steps} steps ({len(train_tally.returns)} episodes) "
          f"in {trained_s:.1f}s, evaluated in {eval_s:.1f}s")
    print(f"{args.env}: win rate against random over {len(returns)} games: {win_rate:.2f} "
          f"(mean reward {returns.mean():+.2f}; illegal actions: "
          f"{train_tally.illegal} in training, {eval_tally.illegal} in evaluation)")
    return {"win_rate": win_rate, "games": float(len(returns)),
            "illegal": float(train_tally.illegal + eval_tally.illegal),
            "train_steps": float(done_steps), "train_episodes": float(len(train_tally.returns))}


if __name__ == "__main__":
    main()
