#!/usr/bin/env python3
"""Distil a search teacher into a per-action scorer policy: cloning, then DAgger rounds.

    python -m experiments.distill --env lineit_v0 --teacher expert --games 300 \\
        --dagger 2 --dagger-games 300 --workers 2 --export runs/distill/lineit_v0.npz

Round 0 lets ``--student`` (a ladder level, ``planner`` by default) play one seat
against ``--opponents``, and the teacher labels every decision of that seat with more
than one legal move (the teacher sits at no table: it is asked from the same View, so
it sees exactly what the seat sees).  Each DAgger round then lets the current policy
play that seat instead, the teacher labels the positions *it* reaches, and the policy
is fitted again on all the labels so far (warm start; the last ``--holdout`` share of
each round's games is held out, and the epoch with the best held-out agreement is
kept).  Labelling runs in ``--workers`` processes.

The policy is :class:`agents.players.scorer.ScorerPolicy`: a flat MLP over the observation plus
one MLP shared by every legal action over that action's facts (the game's heuristic
scores at both depths, as differences from the best move, and the game's own facts),
trained in torch and exported as numpy arrays; it plays without torch as
``policy:FILE.npz`` or, shipped as ``agents/policies/<env>.npz``, as the ``trained`` level.

``--teacher-budget JSON`` lays search settings over the expert's (a paired search over
more worlds gives less noisy labels: ``experiments/studies/teacher_noise.py`` measures that), and
``--init FILE.npz`` fine-tunes a saved scorer policy instead of a fresh model.

At the end the policy plays ``--eval-games`` games against each ``--eval-levels`` level
(seats alternating on the same deals, 95% Wilson intervals), and everything (commands,
agreements, wall times, scores) goes to ``<out>/summary.json``.
"""

from __future__ import annotations

import os

# one BLAS thread: the policy's small matrix products ran 2-100x slower with two threads
# on two busy cores (set before numpy loads; worker processes inherit it)
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import json
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

import agents
import cardenvs
from agents.cli import HelpFormatter
from agents.players.scorer import ScorerPolicy, action_features
from agents.players.search import SEARCH_SETTINGS
from cardenvs.core.loop import Turn, play
from experiments.oracle import oracle_knowledge
from experiments.reporting import command_line


# ----------------------------------------------------------------------------- teachers
def parse_budget(text: str | None, teacher: str) -> dict[str, Any]:
    """``--teacher-budget``: a JSON object of search settings laid over the expert's own
    (``{"simulations": 32, "paired": true}``; keys :data:`agents.players.search.SEARCH_SETTINGS`),
    for ``--teacher expert`` or ``oracle`` only.

    ``ValueError`` saying what is wrong and what is allowed for anything else.
    """
    from agents.players.search import check_search_settings, settings_from_json

    if not text:
        return {}
    if teacher not in ("expert", "oracle"):
        raise ValueError(f"--teacher-budget changes a search teacher (expert or oracle), not {teacher!r}")
    return dict(check_search_settings(settings_from_json(text, "--teacher-budget"), "--teacher-budget"))


def make_teacher(env: str, teacher: str, budget: dict[str, Any], seed: int) -> tuple[Any, Any]:
    """The labelling agent of ``--teacher`` and, for ``oracle``, the knowledge whose
    ``true_state`` the labelling loop sets before each question (else None).

    ``budget`` (see :func:`parse_budget`) is laid over the expert's search settings.
    ``oracle`` is the expert's search over oracle worlds (:func:`oracle.oracle_knowledge`:
    the true hands, only the draw order re-drawn): a diagnostic, not a ladder level.  A
    policy cloned from it still sees only its own view and learns what the oracle does *on
    average* over the hands that view allows (the "oracle guiding" of Suphx).
    """
    from agents.players.knowledge import spec
    from agents.players.search import SearchAgent

    if teacher == "oracle":
        know = oracle_knowledge(env)()
        return SearchAgent(know, seed=seed, name="oracle", **{**spec(env).expert_budget, **budget}), know
    if budget:
        return SearchAgent(agents.knowledge(env), seed=seed, name="expert+",
                           **{**spec(env).expert_budget, **budget}), None
    return agents.make_agent(env, teacher, seed=seed), None


# ----------------------------------------------------------------------------- data
@dataclass
class Labels:
    """Labelled decisions, ragged: decision ``i``'s legal moves are rows ``start[i]:start[i+1]``."""

    obs: np.ndarray  # [N, O] float16 (the observations are small integers)
    legal: np.ndarray  # [M] action ids of every decision's legal moves, concatenated
    feats: np.ndarray  # [M, F] their facts
    start: np.ndarray  # [N + 1] offsets into legal / feats
    label: np.ndarray  # [N] index of the teacher's move within the decision's legal moves
    game: np.ndarray  # [N] game number (for held-out splits)
    value: np.ndarray  # [M] the teacher's value of each legal move (NaN: not searched)
    agree: int = 0  # decisions where the seated player already played the teacher's move

    def __len__(self) -> int:
        return len(self.label)

    @staticmethod
    def concat(parts: list[Labels]) -> Labels:
        """The decisions of ``parts`` in order (game numbers kept as they are)."""
        starts, offset = [np.zeros(1, np.int64)], 0
        for p in parts:
            starts.append(p.start[1:] + offset)
            offset += int(p.start[-1])
        return Labels(np.concatenate([p.obs for p in parts]), np.concatenate([p.legal for p in parts]),
                      np.concatenate([p.feats for p in parts]), np.concatenate(starts),
                      np.concatenate([p.label for p in parts]), np.concatenate([p.game for p in parts]),
                      np.concatenate([p.value for p in parts]), sum(p.agree for p in parts))

    def subset(self, rows: np.ndarray) -> Labels:
        """The decisions ``rows`` (sorted indices)."""
        lo, hi = self.start[rows], self.start[rows + 1]
        idx = np.concatenate([np.arange(a, b) for a, b in zip(lo, hi)]) if len(rows) else np.zeros(0, int)
        start = np.concatenate([[0], np.cumsum(hi - lo)])
        return Labels(self.obs[rows], self.legal[idx], self.feats[idx], start, self.label[rows],
                      self.game[rows], self.value[idx])


@dataclass(frozen=True)
class Job:
    """Games ``first .. first + count - 1`` of one labelling round."""

    env: str
    players: int
    student: str  # a ladder level or policy:FILE.npz
    opponents: tuple[str, ...]
    teacher: str
    first: int
    count: int
    seed: int
    budget: str = ""  # JSON search settings over the expert's (--teacher-budget); "" for none


def label_games(job: Job) -> Labels:
    """Play the job's games and have the teacher label the student seat's decisions.

    Game ``g`` seats the student at ``g % players``, opponents drawn in turn from
    ``job.opponents``; the deal and every agent are seeded from ``job.seed`` and ``g``.
    A fresh teacher per game, asked at every decision of the student's seat in order, so
    a teacher that remembers what it saw (Rummy's planner) sees what that seat saw.
    """
    game = cardenvs.game_class(job.env)(job.players)
    know = agents.knowledge(job.env)
    budget = parse_budget(job.budget, job.teacher)
    obs: list[np.ndarray] = []
    legal_all: list[np.ndarray] = []
    feats: list[np.ndarray] = []
    labels: list[int] = []
    values: list[np.ndarray] = []
    games: list[int] = []
    agree = 0
    for g in range(job.first, job.first + job.count):
        me = g % job.players
        base = job.seed * 1_000_003 + g * 101
        rng = np.random.default_rng(base)
        seats = []
        for i in range(job.players):
            level = job.student if i == me else job.opponents[(g + i) % len(job.opponents)]
            seats.append(agents.make_agent(job.env, level, seed=base + i + 1))
        teacher, oracle = make_teacher(job.env, job.teacher, budget, base + 99)

        def record(turn: Turn, me: int = me, g: int = g, teacher: agents.Agent = teacher,
                   oracle: Any = oracle) -> None:
            nonlocal agree
            if turn.seat != me or len(turn.legal) < 2:
                return
            if oracle is not None:
                oracle.true_state = turn.state
            choice, value = teach(teacher, know, game, turn.view, turn.legal)
            values.append(value)
            agree += choice == turn.action
            obs.append(game.encode(turn.view).astype(np.float16))
            legal_all.append(np.asarray(turn.legal, np.int32))
            feats.append(action_features(know, game, turn.view, turn.legal))
            labels.append(turn.legal.index(choice))
            games.append(g)

        play(game, game.new_state(rng), seats, rng, on_move=record)
    sizes = np.array([len(x) for x in legal_all], np.int64)
    return Labels(np.stack(obs), np.concatenate(legal_all), np.concatenate(feats),
                  np.concatenate([[0], np.cumsum(sizes)]), np.asarray(labels, np.int64),
                  np.asarray(games, np.int64), np.concatenate(values), agree)


def teach(teacher: agents.Agent, know: Any, game: Any, view: Any, legal: list[int]) -> tuple[int, np.ndarray]:
    """The teacher's move and, for a search teacher, its value of each legal move.

    A :class:`agents.players.search.SearchAgent` plays the argmax of its ``values``; those are
    mean outcomes of the moves it searched (NaN for the others, and for every move of a
    decision it leaves to the planning heuristic, whose scores are on another scale).
    Any other teacher gives its choice and NaN values.
    """
    from agents.players.search import SearchAgent

    if not isinstance(teacher, SearchAgent):
        return teacher.choose(game, view, legal), np.full(len(legal), np.nan, np.float32)
    v = np.asarray(teacher.values(game, view, legal), np.float64)
    choice = legal[int(np.argmax(v))]
    prior = np.asarray(know.scores(game, view, legal, 2), np.float64)
    if np.array_equal(v, prior):  # not searched: the heuristic's scores
        return choice, np.full(len(legal), np.nan, np.float32)
    return choice, np.where(np.isfinite(v), v, np.nan).astype(np.float32)


def collect(env: str, players: int, student: str, opponents: list[str], teacher: str, games: int,
            first: int, seed: int, workers: int, desc: str, budget: str = "") -> Labels:
    """Label ``games`` games in ``workers`` processes (chunks of a few games), with a progress bar."""
    from tqdm import tqdm

    chunk = max(1, min(10, games // max(1, 4 * workers)))
    jobs = [Job(env, players, student, tuple(opponents), teacher, first + a, min(chunk, games - a), seed,
                budget) for a in range(0, games, chunk)]
    bar = tqdm(total=games, desc=desc, unit="game")
    parts: list[Labels] = []
    if workers <= 1:
        for job in jobs:
            parts.append(label_games(job))
            bar.update(job.count)
    else:
        with ProcessPoolExecutor(workers) as pool:
            for job, part in zip(jobs, pool.map(label_games, jobs)):
                parts.append(part)
                bar.update(job.count)
    bar.close()
    return Labels.concat(parts)


# ----------------------------------------------------------------------------- model
def build_model(obs_size: int, num_actions: int, num_features: int, trunk: list[int],
                head: list[int], scale: np.ndarray) -> Any:
    """The torch twin of :class:`ScorerPolicy` (same layers, same arithmetic)."""
    import torch

    class Scorer(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.register_buffer("scale", torch.as_tensor(scale, dtype=torch.float32))
            layers: list[torch.nn.Module] = []
            size = obs_size
            for h in trunk:
                layers += [torch.nn.Linear(size, h), torch.nn.ReLU()]
                size = h
            self.trunk = torch.nn.Sequential(*layers, torch.nn.Linear(size, num_actions)) if trunk else None
            layers, size = [], num_features
            for h in head:
                layers += [torch.nn.Linear(size, h), torch.nn.ReLU()]
                size = h
            self.head = torch.nn.Sequential(*layers, torch.nn.Linear(size, 1))

        def forward(self, obs: torch.Tensor, ids: torch.Tensor, feats: torch.Tensor) -> torch.Tensor:
            """Logits ``[B, L]`` of each decision's legal moves (padding ``ids == -1`` at -1e9)."""
            z = self.head(feats).squeeze(-1)
            if self.trunk is not None:
                flat = self.trunk(obs * self.get_buffer("scale"))
                z = z + flat.gather(1, ids.clamp(min=0))
            return z.masked_fill(ids < 0, -1e9)

    return Scorer()


def model_from_policy(policy: ScorerPolicy, obs_size: int, num_actions: int, num_features: int) -> Any:
    """The torch twin of a saved :class:`ScorerPolicy`, to fine-tune it (``--init``): its layer
    sizes, weights and input scale.  ``ValueError`` if it does not fit this game's inputs."""
    import torch

    if policy.num_features != num_features:
        raise ValueError(f"--init: the policy reads {policy.num_features} facts per move, "
                         f"this game's moves have {num_features}")
    if policy.trunk_weights and (policy.trunk_weights[0].shape[1] != obs_size
                                 or policy.trunk_weights[-1].shape[0] != num_actions):
        raise ValueError(f"--init: the policy's trunk maps {policy.trunk_weights[0].shape[1]} inputs "
                         f"to {policy.trunk_weights[-1].shape[0]} moves; this game has {obs_size} "
                         f"and {num_actions}")
    trunk = [w.shape[0] for w in policy.trunk_weights[:-1]]
    head = [w.shape[0] for w in policy.head_weights[:-1]]
    scale = policy.obs_scale if policy.obs_scale is not None else np.ones(obs_size, np.float32)
    model = build_model(obs_size, num_actions, num_features, trunk, head, scale)
    lin = [m for m in (model.trunk or []) if isinstance(m, torch.nn.Linear)]
    pairs = list(zip(lin, policy.trunk_weights, policy.trunk_biases))
    lin = [m for m in model.head if isinstance(m, torch.nn.Linear)]
    pairs += list(zip(lin, policy.head_weights, policy.head_biases))
    with torch.no_grad():
        for m, w, b in pairs:
            m.weight.copy_(torch.as_tensor(w))
            m.bias.copy_(torch.as_tensor(b))
    return model


def export(model: Any, meta: dict[str, Any]) -> ScorerPolicy:
    """The numpy :class:`ScorerPolicy` of a torch scorer."""
    import torch

    def linears(seq: Any) -> list[Any]:
        return [m for m in seq if isinstance(m, torch.nn.Linear)] if seq is not None else []

    t, h = linears(model.trunk), linears(model.head)
    arr = [lambda ms, a=a: [getattr(m, a).detach().cpu().numpy() for m in ms] for a in ("weight", "bias")]
    return ScorerPolicy(arr[0](t), arr[1](t), arr[0](h), arr[1](h),
                        model.scale.cpu().numpy() if t else None, meta)


def targets(values: np.ndarray, label: int, tau: float) -> np.ndarray:
    """What a decision's moves should get: the teacher's move (one-hot) or, with ``tau > 0``
    and searched values, ``softmax(value / tau)`` over the searched moves.

    Soft targets say how much worse each alternative is: near-ties (where a search's
    choice is partly noise) cost the policy little, clear blunders a lot.
    """
    out = np.zeros(len(values), np.float32)
    ok = np.isfinite(values)
    if tau <= 0 or ok.sum() < 2:
        out[label] = 1.0
        return out
    z = (values[ok] - values[ok].max()) / tau
    e = np.exp(z)
    out[ok] = e / e.sum()
    return out


def batches(data: Labels, rows: np.ndarray, size: int,
            tau: float = 0.0) -> Iterator[tuple[Any, Any, Any, Any, Any]]:
    """Padded torch batches ``(obs, ids, feats, label, target)`` of the decisions ``rows``."""
    import torch

    for i in range(0, len(rows), size):
        r = rows[i:i + size]
        lo, hi = data.start[r], data.start[r + 1]
        width = int((hi - lo).max())
        ids = np.full((len(r), width), -1, np.int64)
        fs = np.zeros((len(r), width, data.feats.shape[1]), np.float32)
        tg = np.zeros((len(r), width), np.float32)
        for j, (a, b) in enumerate(zip(lo, hi)):
            ids[j, :b - a] = data.legal[a:b]
            fs[j, :b - a] = data.feats[a:b]
            tg[j, :b - a] = targets(data.value[a:b], int(data.label[r[j]]), tau)
        yield (torch.as_tensor(data.obs[r].astype(np.float32)), torch.as_tensor(ids), torch.as_tensor(fs),
               torch.as_tensor(data.label[r]), torch.as_tensor(tg))


def agreement(model: Any, data: Labels, rows: np.ndarray) -> float:
    """Share of decisions ``rows`` whose highest logit is the teacher's move."""
    import torch

    if len(rows) == 0:
        return float("nan")
    hits = 0
    model.eval()
    with torch.no_grad():
        for obs, ids, fs, lab, _tg in batches(data, rows, 2048):
            hits += int((model(obs, ids, fs).argmax(1) == lab).sum())
    return hits / len(rows)


@dataclass
class Fit:
    """One fit: agreement on fitted and held-out decisions, and the epoch kept."""

    fitted: float
    held_out: float
    epoch: int
    seconds: float
    curve: list[float] = field(default_factory=list)


def fit(model: Any, data: Labels, held: np.ndarray, epochs: int, batch: int, lr: float, seed: int,
        tau: float = 0.0) -> Fit:
    """Cross-entropy on the teacher's moves (soft targets with ``tau``, see :func:`targets`);
    the best held-out epoch's weights are kept."""
    import copy

    import torch
    from tqdm import tqdm

    start = time.time()
    train_rows = np.setdiff1d(np.arange(len(data)), held)
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    rng = np.random.default_rng(seed)
    best: tuple[float, int, dict[str, Any]] | None = None
    if len(held):  # epoch 0, the weights as they came (a warm start may already be the best)
        best = (agreement(model, data, held), 0, copy.deepcopy(model.state_dict()))
    curve = []
    for epoch in tqdm(range(1, epochs + 1), desc="epochs", unit="epoch"):
        model.train()
        for obs, ids, fs, _lab, tg in batches(data, rng.permutation(train_rows), batch, tau):
            logp = torch.log_softmax(model(obs, ids, fs), dim=1)
            loss = -(tg * logp).sum(1).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        score = agreement(model, data, held) if len(held) else 0.0
        curve.append(score)
        if best is None or score > best[0]:
            best = (score, epoch, copy.deepcopy(model.state_dict()))
    if best is not None:
        model.load_state_dict(best[2])
    else:  # nothing held out and no epoch run: the weights as they came
        best = (0.0, 0, {})
    return Fit(agreement(model, data, train_rows), best[0], best[1], time.time() - start, curve)


def held_rows(data: Labels, holdout: float) -> np.ndarray:
    """The decisions of the last ``holdout`` share of each round's games (whole games)."""
    rows: list[np.ndarray] = []
    bounds = np.flatnonzero(np.diff(data.game) < 0) + 1  # a new round restarts game numbers
    for seg in np.split(np.arange(len(data)), bounds):
        if not len(seg) or holdout <= 0:
            continue
        g = data.game[seg]
        lo = g.min() + (1 - holdout) * (g.max() - g.min() + 1)
        rows.append(seg[g >= lo])
    return np.concatenate(rows) if rows else np.zeros(0, np.int64)


# ----------------------------------------------------------------------------- evaluation
def evaluate(env: str, players: int, policy: str, level: str, games: int, workers: int,
             seed: int = 0) -> dict[str, Any]:
    """The policy's share of points against ``level``: one policy seat moving round the table
    on the same deals, the others ``level`` (``experiments/ladder_pairs.py``'s pairs)."""
    from experiments.ladder_pairs import play_pair

    r = play_pair(env, level, f"policy:{policy}", players, games, seed, workers)
    return {"games": r.games, "share": round(r.share, 4), "low": round(r.low, 4), "high": round(r.high, 4)}


# ----------------------------------------------------------------------------- main
def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=HelpFormatter)
    ap.add_argument("--env", default="lineit_v0", choices=list(cardenvs.ENVS))
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--teacher", default="expert",
                    help="the level whose moves are the labels, or 'oracle' (the expert's search seeing "
                         "the other hands: a diagnostic teacher)")
    ap.add_argument("--teacher-budget", default=None, metavar="JSON",
                    help="search settings laid over the expert's, for a stronger (slower) teacher: "
                         "a JSON object with any of " + ", ".join(SEARCH_SETTINGS) +
                         """ (e.g. '{"simulations": 32, "paired": true}')""")
    ap.add_argument("--student", default="planner", help="who plays the labelled seat in round 0")
    ap.add_argument("--init", default=None, metavar="FILE.npz",
                    help="fine-tune this scorer policy (its layers and weights) instead of a fresh "
                         "model; --trunk and --head are then ignored")
    ap.add_argument("--opponents", nargs="+", default=["planner"], help="levels in the other seats")
    ap.add_argument("--games", type=int, default=200, help="games of round 0")
    ap.add_argument("--dagger", type=int, default=2, help="DAgger rounds after round 0")
    ap.add_argument("--dagger-games", type=int, default=200)
    ap.add_argument("--trunk", default="256,256", help="hidden sizes of the flat MLP ('' for none)")
    ap.add_argument("--head", default="64,64", help="hidden sizes of the shared per-action MLP")
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--holdout", type=float, default=0.1)
    ap.add_argument("--soft", type=float, default=0.0, metavar="TAU",
                    help="fit softmax(value / TAU) of a search teacher's move values instead of its "
                         "choice alone (0: the choice)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=1, help="processes for labelling and evaluation")
    ap.add_argument("--data", default=None, help="reuse/extend labels saved here (.npz) by an earlier run")
    ap.add_argument("--eval-levels", nargs="*", default=["greedy", "planner"])
    ap.add_argument("--eval-games", type=int, default=200)
    ap.add_argument("--out", default=None, help="run folder (default: <repo>/runs/distill/<env>_s<seed>)")
    ap.add_argument("--export", default=None, help="also copy the final policy here")
    rank = ap.add_mutually_exclusive_group()
    rank.add_argument("--ladder-after", default=None, metavar="LEVEL", choices=agents.LEVELS,
                      help="record in the exported file the ladder level it ranks just above "
                           "(measured), where agents.levels() then lists it as 'trained'")
    rank.add_argument("--ladder-peer", default=None, metavar="LEVEL", choices=agents.LEVELS,
                      help="record in the exported file that it is unranked, measured not "
                           "separated from LEVEL: agents.playable_levels() lists it beside LEVEL")
    return ap.parse_args(argv)


def _save_labels(path: Path, data: Labels) -> None:
    np.savez_compressed(path, obs=data.obs, legal=data.legal, feats=data.feats, start=data.start,
                        label=data.label, game=data.game, value=data.value)


def _load_labels(path: Path) -> Labels:
    with np.load(path) as z:
        value = z["value"] if "value" in z.files else np.full(len(z["legal"]), np.nan, np.float32)
        return Labels(z["obs"], z["legal"], z["feats"], z["start"], z["label"], z["game"], value)


#: run folders go here by default, whatever the working directory (git ignores it)
RUNS = Path(__file__).resolve().parents[1] / "runs"


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Label, fit, run the DAgger rounds, export and evaluate, as the command line says."""
    args = parse_args(argv)
    budget = parse_budget(args.teacher_budget, args.teacher)  # refused before any work
    init = ScorerPolicy.load(args.init) if args.init else None
    import torch

    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    began = time.time()
    out = Path(args.out or RUNS / f"distill/{args.env}_s{args.seed}")
    out.mkdir(parents=True, exist_ok=True)
    game = cardenvs.game_class(args.env)(args.players)
    summary: dict[str, Any] = {"command": command_line("experiments.distill", argv), "env": args.env,
                               "players": args.players, "teacher": args.teacher,
                               "teacher_budget": budget, "init": args.init, "rounds": []}
    policy_file = out / "policy.npz"
    meta = {"env": args.env, "players": args.players, "teacher": args.teacher,
            "command": summary["command"]}
    if budget:
        meta["teacher_budget"] = json.dumps(budget, sort_keys=True)
    if args.init:
        meta["init"] = args.init
    budget_text = json.dumps(budget) if budget else ""

    data_file = Path(args.data) if args.data else out / "labels.npz"
    if args.data and data_file.exists():
        data = _load_labels(data_file)
        summary["rounds"].append({"round": 0, "data": str(data_file), "decisions": len(data)})
        print(f"{len(data)} labelled decisions from {data_file}", flush=True)
    else:
        t = time.time()
        data = collect(args.env, args.players, args.student, args.opponents, args.teacher, args.games,
                       0, args.seed, args.workers, f"round 0: {args.teacher} labels {args.student}",
                       budget_text)
        summary["rounds"].append({"round": 0, "games": args.games, "decisions": len(data),
                                  "seated_agreement": round(data.agree / max(len(data), 1), 4),
                                  "label_seconds": round(time.time() - t)})
        _save_labels(data_file, data)
    if init is not None:
        model = model_from_policy(init, data.obs.shape[1], game.num_actions, data.feats.shape[1])
    else:
        scale = 1.0 / np.maximum(np.abs(data.obs.astype(np.float32)).max(0), 1.0)
        model = build_model(data.obs.shape[1], game.num_actions, data.feats.shape[1],
                            [int(x) for x in args.trunk.split(",") if x],
                            [int(x) for x in args.head.split(",") if x], scale)
    for r in range(args.dagger + 1):
        if r > 0:
            t = time.time()
            new = collect(args.env, args.players, f"policy:{policy_file}", args.opponents, args.teacher,
                          args.dagger_games, 0, args.seed * 100 + r, args.workers,
                          f"round {r}: {args.teacher} labels the policy", budget_text)
            data = Labels.concat([data, new])
            _save_labels(data_file, data)
            summary["rounds"].append({"round": r, "games": args.dagger_games, "decisions": len(new),
                                      "seated_agreement": round(new.agree / max(len(new), 1), 4),
                                      "label_seconds": round(time.time() - t)})
            print(f"round {r}: the policy played the teacher's move in {new.agree / len(new):.1%} "
                  f"of {len(new)} decisions", flush=True)
        held = held_rows(data, args.holdout)
        result = fit(model, data, held, args.epochs, args.batch, args.lr, args.seed + r, args.soft)
        summary["rounds"][-1].update(fitted=round(result.fitted, 4), held_out=round(result.held_out, 4),
                                     epoch=result.epoch, fit_seconds=round(result.seconds),
                                     decisions_total=len(data))
        print(f"fit after round {r}: agreement {result.fitted:.1%} fitted, {result.held_out:.1%} on "
              f"{len(held)} held-out decisions (epoch {result.epoch})", flush=True)
        export(model, {**meta, "rounds": r}).save(policy_file)
    summary["train_seconds"] = round(time.time() - began)
    summary["eval"] = {}
    for level in args.eval_levels:
        summary["eval"][level] = res = evaluate(args.env, args.players, str(policy_file), level,
                                                args.eval_games, args.workers)
        print(f"vs {level}: {res['share']:.1%} [{res['low']:.1%}, {res['high']:.1%}] over {res['games']}",
              flush=True)
    summary["seconds"] = round(time.time() - began)
    (out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    if args.export:
        final = ScorerPolicy.load(policy_file)
        if args.ladder_after:
            final.meta["ladder_after"] = args.ladder_after
        elif args.ladder_peer:
            final.meta["ladder_peer"] = args.ladder_peer
        final.save(args.export)
        print(f"policy written to {args.export}")
    print(f"done in {summary['seconds']} s; summary in {out / 'summary.json'}")
    return summary


if __name__ == "__main__":
    main()
