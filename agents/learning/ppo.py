"""The project's own PPO, batched over tables in one process: what the self-play trainer
(``experiments/selfplay.py``) and the approximate best response
(:func:`agents.best_response`) learn with.

Needs the ``train`` extra (torch); torch is imported only inside the functions that use
it, so importing this module costs nothing.

* :class:`Pool` draws each episode's opponents (levels by weight, player objects, or
  snapshots of the learner's earlier selves).
* :class:`Table` is one game with the learner in a seat: the others' moves and the
  learner's forced moves are played inside it.
* :class:`Encoder` turns a decision into the learner's input (``action_features``:
  one row per legal action; ``flat`` or ``planes``: one vector).
* :class:`Learner` holds the network, the optimiser and the PPO update (GAE advantages,
  clipped surrogate, value loss, entropy bonus), its settings a :class:`PPOSettings`.
* :func:`collect` plays ``n_steps`` decisions of every table with the current policy.

Every loss is computed per decision over that decision's legal actions only; a decision
with one legal move is played for the learner and never stored.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Generic

import numpy as np

from cardenvs.core.game import Game
from cardenvs.core.loop import Turn, play
from cardenvs.core.observers import features_module

from ..evaluation.tournament import points as win_points
from ..players.base import Agent
from ..players.feature_policy import FeaturePolicy
from ..players.ladder import make_agent
from ..types import S, V

if TYPE_CHECKING:
    import torch as th

    from .feature_torch import ActionScorerNet, VectorNet

__all__ = ["DEFAULT_HIDDEN", "Decisions", "Encoder", "Learner", "PPOSettings", "Pool", "Rollout", "Snapshot",
           "Stats", "Table", "collect", "forward", "parse_pool"]

#: hidden layers per observation design when ``hidden`` is not given
DEFAULT_HIDDEN = {"action_features": (128, 128), "flat": (256, 256), "planes": (256, 256)}


@dataclass
class PPOSettings:
    """The learner's network and PPO settings (the self-play trainer's defaults).

    ``hidden``: hidden sizes (``None``: :data:`DEFAULT_HIDDEN` of the design);
    ``activation``: of the ``flat``/``planes`` networks; ``lr`` to ``lr_final``
    (``None``: constant) linearly over the budget; ``target_kl``: stop an update's
    epochs past 1.5x this KL (0: never); ``minibatch``: decisions per minibatch.
    """

    observation: str = "action_features"
    seed: int = 0
    hidden: tuple[int, ...] | None = None
    activation: str = "tanh"
    lr: float = 1e-3
    lr_final: float | None = None
    epochs: int = 4
    minibatch: int = 1024
    gamma: float = 0.995
    gae_lambda: float = 0.95
    clip: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    target_kl: float = 0.0

    @classmethod
    def of(cls, namespace: object) -> PPOSettings:
        """The settings named in ``namespace`` (an ``argparse.Namespace``); the rest default."""
        given = {f.name: getattr(namespace, f.name) for f in fields(cls) if hasattr(namespace, f.name)}
        if given.get("hidden") is not None:
            given["hidden"] = tuple(given["hidden"])
        return cls(**given)

# ------------------------------------------------------------------------ opponents
class Pool:
    """Draws each episode's opponents: ladder levels by weight, or earlier selves.

    ``levels``: ``[(level, weight)]``; ``self_play``: the chance that an opponent is a
    snapshot of the learner (when any exist), drawn uniformly from the latest ``keep``.
    Snapshots play by sampling their policy (a varied opponent), levels as they do.
    ``makers``: labels of ``levels`` whose agents a function of the seed builds (a player
    object's copies), the rest are built by :func:`agents.make_agent`.
    """

    def __init__(self, env_name: str, levels: list[tuple[str, float]], self_play: float, keep: int,
                 makers: dict[str, Callable[[int], Agent]] | None = None) -> None:
        self.env_name = env_name
        #: labels of ``levels`` that are built by a function of the seed, not by name
        self.makers = dict(makers or {})
        self.levels = [name for name, _ in levels]
        w = np.array([weight for _, weight in levels], float)
        self.weights = w / w.sum()
        self.self_play = self_play
        self.keep = keep
        self.snapshots: list[str] = []
        self._loaded: dict[str, FeaturePolicy] = {}  # the snapshots' policies, read once

    def add(self, path: str) -> None:
        """Put a snapshot file in the pool (the oldest beyond ``keep`` leave it)."""
        self.snapshots.append(path)
        del self.snapshots[:-self.keep]
        self._loaded = {p: self._loaded[p] for p in self.snapshots if p in self._loaded}

    def draw(self, rng: np.random.Generator) -> tuple[Agent, str]:
        """One opponent and its label (``"self"`` or the level's name)."""
        seed = int(rng.integers(2**31))
        if self.snapshots and rng.random() < self.self_play:
            path = self.snapshots[int(rng.integers(len(self.snapshots)))]
            if path not in self._loaded:  # read once: a file costs more than a short game
                self._loaded[path] = FeaturePolicy.load(path)
            return Snapshot(self._loaded[path], seed), "self"
        level = self.levels[int(rng.choice(len(self.levels), p=self.weights))]
        maker = self.makers.get(level)
        return (make_agent(self.env_name, level, seed=seed) if maker is None else maker(seed)), level


class Snapshot(Agent):
    """An earlier self in the pool: samples its policy's softmax over the legal moves."""

    def __init__(self, policy: FeaturePolicy, seed: int) -> None:
        super().__init__(seed, "self")
        self.policy = policy

    def choose(self, game: Game[S, V], view: V, legal: list[int]) -> int:
        z = self.policy.legal_logits(game, view, legal).astype(np.float64)
        p = np.exp(z - z.max())
        return legal[int(self.rng.choice(len(legal), p=p / p.sum()))]


def parse_pool(items: list[str]) -> list[tuple[str, float]]:
    """``["greedy:2", "planner"]`` -> ``[("greedy", 2.0), ("planner", 1.0)]``."""
    out = []
    for item in items:
        name, _, weight = item.partition(":")
        out.append((name, float(weight) if weight else 1.0))
    return out


# --------------------------------------------------------------------------- tables
class Table(Generic[S, V]):
    """One game with the learner in a seat and the pool's opponents in the others.

    The opponents' moves, and the learner's forced moves (one legal action), are played
    inside :meth:`reset` and :meth:`step`; the learner decides the rest.  With
    ``round_reward`` (multi-round games) each round won adds that much to the reward and
    each round lost takes it away, at the move that ends the round.
    """

    def __init__(self, game: Game[S, V], pool: Pool, rng: np.random.Generator,
                 round_reward: float) -> None:
        self.game = game
        self.pool = pool
        self.rng = rng
        self.round_reward = round_reward
        self._state: S | None = None
        self.seat = 0
        self.players: dict[int, Agent] = {}
        self.label = ""
        self._shaped = 0.0

    @property
    def state(self) -> S:
        """The game being played (dealt by :meth:`reset`)."""
        if self._state is None:
            raise RuntimeError("the table has no game yet: reset() it first")
        return self._state

    def _after(self, _turn: Turn | None = None) -> None:
        result = self.game.infos(self.state)[self.seat].get("round_result")
        if result:
            self._shaped += self.round_reward if self.seat in result["winners"] else -self.round_reward

    def _advance(self) -> bool:
        """Play the others' moves and the learner's forced ones; whether the game ended."""
        game, state = self.game, self.state
        hook = self._after if self.round_reward else None
        while True:
            play(game, state, self.players, self.rng, stop_seat=self.seat, after_move=hook)
            if game.is_terminal(state) or game.is_truncated(state):
                return True
            legal = game.legal_actions(state)
            if len(legal) > 1:
                return False
            game.apply(state, legal[0], self.rng)
            if hook is not None:
                self._after()

    def reset(self) -> None:
        """Deal a new game, seat the learner and draw its opponents."""
        game = self.game
        n = game.num_players
        for _ in range(1000):
            self._state = game.new_state(self.rng)
            self.seat = int(self.rng.integers(n))
            drawn = [self.pool.draw(self.rng) for _ in range(n - 1)]
            self.label = "+".join(sorted({label for _, label in drawn}))
            others = [s for s in range(n) if s != self.seat]
            self.players = {s: agent for s, (agent, _) in zip(others, drawn)}
            self._shaped = 0.0
            if not self._advance():
                return
        raise RuntimeError("the opponents always end the game before the learner moves")

    def decision(self) -> tuple[V, list[int]]:
        """The learner's View and legal actions (at least two)."""
        return self.game.view(self.state, self.seat), list(self.game.legal_actions(self.state))

    def step(self, action: int) -> tuple[float, bool, float]:
        """Play the learner's move and everything until its next decision.

        Returns ``(reward, done, points)``: ``points`` is the learner's share of the win
        at the end (1, 1/k for a win shared by k, 0), else 0.
        """
        game = self.game
        self._shaped = 0.0
        game.apply(self.state, action, self.rng)
        if self.round_reward:
            self._after()
        done = self._advance()
        reward = self._shaped
        points = 0.0
        if done:
            returns = game.returns(self.state) if game.is_terminal(self.state) else [0.0] * game.num_players
            reward += float(returns[self.seat])
            points = win_points(returns)[self.seat]
        return reward, done, points


# ---------------------------------------------------------------------------- inputs
class Encoder(Generic[S, V]):
    """The learner's input for one decision, for the chosen observation design."""

    def __init__(self, game: Game[S, V], observation: str, obs_scale: np.ndarray | None) -> None:
        self.game = game
        self.observation = observation
        self.scale = obs_scale
        self.module = None if observation == "flat" else features_module(game)

    def __call__(self, table: Table[S, V], view: V, legal: list[int]) -> np.ndarray:
        if self.observation == "action_features":
            assert self.module is not None
            return self.module.action_features(view, legal)
        if self.observation == "planes":
            assert self.module is not None
            return self.module.planes(view).reshape(-1)
        x = self.game.observe(table.state, table.seat)
        return x if self.scale is None else x * self.scale

    @property
    def size(self) -> int:
        """Facts per action (``action_features``) or the observation's length."""
        if self.observation == "action_features":
            assert self.module is not None
            return int(self.module.ACTION_FEATURES.size)
        if self.observation == "planes":
            assert self.module is not None
            return int(self.module.PLANES.size * np.prod(self.module.PLANE_SHAPE))
        return self.game.observation_size()


@dataclass
class Decisions:
    """A batch of decisions: inputs, legal actions and the segments that tie them."""

    x: np.ndarray  # (nnz, F) rows, or (n, D) vectors
    legal: np.ndarray  # (nnz,) action ids
    counts: np.ndarray  # (n,) legal actions per decision

    @property
    def seg(self) -> np.ndarray:
        return np.repeat(np.arange(len(self.counts)), self.counts)

    @classmethod
    def of(cls, inputs: list[np.ndarray], legals: list[list[int]], rows: bool) -> Decisions:
        counts = np.fromiter((len(a) for a in legals), np.int64, len(legals))
        x = np.concatenate(inputs) if rows else np.stack(inputs)
        return cls(x.astype(np.float32, copy=False), np.concatenate([np.asarray(a) for a in legals]), counts)


def forward(net: ActionScorerNet | VectorNet, d: Decisions) -> tuple[th.Tensor, th.Tensor, th.Tensor]:
    """``(logits, values, seg)`` of a batch of decisions (torch tensors)."""
    import torch as th

    seg = th.from_numpy(d.seg)
    x = th.from_numpy(d.x)
    if net.observation == "action_features":
        logits, values = net(x, seg, len(d.counts))
    else:
        logits, values = net(x, th.from_numpy(d.legal), seg)
    return logits, values, seg


# --------------------------------------------------------------------------- rollout
@dataclass
class Rollout:
    """``n_steps`` decisions of each of ``n_envs`` tables, in time-major order."""

    inputs: list[np.ndarray] = field(default_factory=list)
    legals: list[list[int]] = field(default_factory=list)
    chosen: list[int] = field(default_factory=list)  # index into the decision's legal actions
    logp: list[float] = field(default_factory=list)
    values: list[float] = field(default_factory=list)
    rewards: list[float] = field(default_factory=list)
    dones: list[bool] = field(default_factory=list)


@dataclass
class Stats:
    """Training games' results, by opponent label (a window of the latest games)."""

    window: int = 500
    games: dict[str, deque[float]] = field(default_factory=dict)
    episodes: int = 0
    returns: deque[float] = field(default_factory=lambda: deque(maxlen=500))

    def add(self, label: str, points: float, ret: float) -> None:
        self.games.setdefault(label, deque(maxlen=self.window)).append(points)
        self.returns.append(ret)
        self.episodes += 1

    def shares(self) -> dict[str, float]:
        return {k: float(np.mean(v)) for k, v in sorted(self.games.items()) if v}


class Learner:
    """The network, its optimiser and the PPO update."""

    def __init__(self, args: PPOSettings, game: Game[S, V], encoder: Encoder) -> None:
        import torch as th

        from .feature_torch import ActionScorerNet, VectorNet

        hidden = tuple(args.hidden) if args.hidden else DEFAULT_HIDDEN[args.observation]
        if args.observation == "action_features":
            self.net: ActionScorerNet | VectorNet = ActionScorerNet(encoder.size, hidden, hidden)
        else:
            self.net = VectorNet(encoder.size, game.num_actions, hidden, args.activation, args.observation)
        self.opt = th.optim.Adam(self.net.parameters(), lr=args.lr, eps=1e-5)
        self.args = args

    def set_lr(self, progress: float) -> None:
        """The learning rate after ``progress`` (0..1) of the budget: ``--lr`` to ``--lr-final``."""
        a = self.args
        end = a.lr if a.lr_final is None else a.lr_final
        for group in self.opt.param_groups:
            group["lr"] = a.lr + (end - a.lr) * progress

    def act(self, d: Decisions) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Sampled choices (index into each decision's legal actions), their
        log-probabilities and the values."""
        import torch as th

        from .feature_torch import segment_log_softmax, segment_sample

        with th.no_grad():
            logits, values, seg = forward(self.net, d)
            n = len(d.counts)
            logp = segment_log_softmax(logits, seg, n)
            entry = segment_sample(logp, seg, n)
        starts = np.cumsum(d.counts) - d.counts
        return entry.numpy() - starts, logp[entry].numpy(), values.numpy()

    def values(self, d: Decisions) -> np.ndarray:
        import torch as th

        with th.no_grad():
            return forward(self.net, d)[1].numpy()

    def update(self, ro: Rollout, last_values: np.ndarray, n_envs: int) -> dict[str, float]:
        """PPO epochs over the rollout (GAE advantages, clipped surrogate, value loss, entropy)."""
        import torch as th

        from .feature_torch import segment_entropy, segment_log_softmax

        a = self.args
        T = len(ro.rewards) // n_envs
        rew = np.asarray(ro.rewards, np.float64).reshape(T, n_envs)
        done = np.asarray(ro.dones, np.float64).reshape(T, n_envs)
        val = np.asarray(ro.values, np.float64).reshape(T, n_envs)
        adv = np.zeros((T, n_envs))
        last = np.zeros(n_envs)
        for t in reversed(range(T)):
            nxt = last_values if t == T - 1 else val[t + 1]
            nonterminal = 1.0 - done[t]
            delta = rew[t] + a.gamma * nxt * nonterminal - val[t]
            last = delta + a.gamma * a.gae_lambda * nonterminal * last
            adv[t] = last
        ret = (adv + val).reshape(-1)
        adv_flat = adv.reshape(-1)
        rows = self.net.observation == "action_features"
        all_d = Decisions.of(ro.inputs, ro.legals, rows)
        counts = all_d.counts
        offsets = np.cumsum(counts) - counts
        chosen = np.asarray(ro.chosen)
        old_logp = np.asarray(ro.logp, np.float32)
        B = len(counts)
        stats: dict[str, list[float]] = {"pg": [], "vf": [], "entropy": [], "kl": [], "clip": []}
        rng = np.random.default_rng(a.seed * 7919 + B)
        stop = False
        for _epoch in range(a.epochs):
            perm = rng.permutation(B)
            for start in range(0, B, a.minibatch):
                idx = perm[start:start + a.minibatch]
                cnt = counts[idx]
                pos = np.repeat(offsets[idx] - (np.cumsum(cnt) - cnt), cnt) + np.arange(cnt.sum())
                x = all_d.x[pos] if rows else all_d.x[idx]
                d = Decisions(x, all_d.legal[pos], cnt)
                logits, values, seg = forward(self.net, d)
                m = len(idx)
                logp_all = segment_log_softmax(logits, seg, m)
                pick = th.from_numpy(np.cumsum(cnt) - cnt + chosen[idx])
                logp = logp_all[pick]
                adv_mb = th.from_numpy(adv_flat[idx].astype(np.float32))
                adv_mb = (adv_mb - adv_mb.mean()) / (adv_mb.std() + 1e-8)
                log_ratio = logp - th.from_numpy(old_logp[idx])
                ratio = log_ratio.exp()
                pg = -th.min(ratio * adv_mb, ratio.clamp(1 - a.clip, 1 + a.clip) * adv_mb).mean()
                vf = 0.5 * ((values - th.from_numpy(ret[idx].astype(np.float32))) ** 2).mean()
                ent = segment_entropy(logp_all, seg, m).mean()
                loss = pg + a.vf_coef * vf - a.ent_coef * ent
                self.opt.zero_grad()
                loss.backward()
                th.nn.utils.clip_grad_norm_(self.net.parameters(), a.max_grad_norm)
                self.opt.step()
                with th.no_grad():
                    kl = float(((ratio - 1) - log_ratio).mean())
                stats["pg"].append(float(pg.detach()))
                stats["vf"].append(float(vf.detach()))
                stats["entropy"].append(float(ent.detach()))
                stats["kl"].append(kl)
                stats["clip"].append(float(((ratio - 1).abs() > a.clip).float().mean()))
                if a.target_kl and kl > 1.5 * a.target_kl:
                    stop = True
                    break
            if stop:
                break
        var = float(np.var(ret))
        out = {k: float(np.mean(v)) for k, v in stats.items()}
        out["explained_variance"] = 1.0 - float(np.var(ret - val.reshape(-1))) / var if var > 0 else 0.0
        return out


def collect(learner: Learner, tables: list[Table[S, V]], encoder: Encoder[S, V], n_steps: int, stats: Stats,
            episode_returns: list[float]) -> tuple[Rollout, np.ndarray]:
    """``n_steps`` decisions of every table; returns the rollout and the values of the
    decisions that follow it (to bootstrap)."""
    ro = Rollout()
    rows = encoder.observation == "action_features"
    n = len(tables)
    pending = [t.decision() for t in tables]
    for _ in range(n_steps):
        inputs = [encoder(t, view, legal) for t, (view, legal) in zip(tables, pending)]
        legals = [legal for _, legal in pending]
        choice, logp, values = learner.act(Decisions.of(inputs, legals, rows))
        for i, t in enumerate(tables):
            action = legals[i][int(choice[i])]
            reward, done, points = t.step(action)
            episode_returns[i] += reward
            ro.inputs.append(inputs[i])
            ro.legals.append(legals[i])
            ro.chosen.append(int(choice[i]))
            ro.logp.append(float(logp[i]))
            ro.values.append(float(values[i]))
            ro.rewards.append(reward)
            ro.dones.append(done)
            if done:
                stats.add(t.label, points, episode_returns[i])
                episode_returns[i] = 0.0
                t.reset()
            pending[i] = t.decision()
    inputs = [encoder(t, view, legal) for t, (view, legal) in zip(tables, pending)]
    last = learner.values(Decisions.of(inputs, [legal for _, legal in pending], rows))
    assert len(last) == n
    return ro, last
