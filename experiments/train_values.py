#!/usr/bin/env python3
"""Train the value nets of the AIVAT control variates (``agents.measure``).

The shipped nets (``agents/policies/values/<env>_2p.npz``, each under 10 CPU minutes on
one thread) were made with::

    python -m experiments.train_values --env line_v0        # the defaults below
    python -m experiments.train_values --env rummy432_v0
    python -m experiments.train_values --env lineit_v0 --features flat --rollouts 0 \
        --games 30000 --per-game 4 --hidden 64,64 --minutes 5

Line's nets (2-4 players) then read their states through a lookahead (the planner's moves
up to the next draw, ``agents.measure.Lookahead``), their coefficients refitted with it::

    python -m experiments.train_values --env line_v0 --players 2 \
        --fit-only agents/policies/values/line_v0_2p.npz --lookahead 2:12

chosen on the tuning deals (ratio per deal 1.4 -> 2.0 at 2 players); in Rummy 4x3x2's it
bought 0-5% for twice the CPU, so its nets have none.  Training with ``--lookahead`` (the
kept positions read through it, as the net will see them) was tried for Line at 2
players and was no better there (1.94/1.75 against 2.03/1.79).

Plays games between ladder agents (a mix of random, greedy and planner pairings), keeps
a few positions of each with a target: the game's points, averaged with ``--rollouts``
playouts of the position by the same levels (the unseen cards redrawn; a far less noisy
target than one game's result), or λ-returns (``--td``; tried, no better).  It fits ``f``
so that ``softmax over seats of f(inputs(state, p))`` predicts the target (cross-entropy;
torch, one thread).  The inputs (``--features``) are a seat's flat observation and the
game's knowledge's ``evaluate`` of the position for that seat (``agents.measure.value``).
Then the weights of the deal's and the chance events' corrections are fitted on
``--tune-games`` games (least squares of the points on the two sums, clipped to [0, 1]):
the nets over-react to the cards, and a weight fixed in advance keeps the estimator
unbiased.  The net is written as numpy weights (``agents.measure.ValueNet``), with its
seat count, options, data, validation loss and weights in its ``meta``.

Seeds: game ``i`` is dealt with seed ``--seed + i`` (default from 10**7 up; its agents
get ``seed * 31 + seat`` as in ``agents.evaluation.tournament``); the weights are fitted on games
dealt from 5,000,000.  No evaluation uses seeds from 10**7 up, and the reported variance
tables (``experiments/variance.py``) deal from 0, apart from both.  The validation split
is by game (the last tenth), its loss against the games' points.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # small products: one BLAS thread is 4x faster

import argparse
import functools
import json
import time
from pathlib import Path
from typing import Any

import numpy as np

import cardenvs
from agents import make_agent
from agents.cli import HelpFormatter
from agents.measure.value import (
    FEATURES,
    Chooser,
    ValueNet,
    game_points,
    heuristic_chooser,
    play_ahead,
    value_inputs,
    value_path,
)
from cardenvs.core.game import Game
from cardenvs.core.loop import play

#: the pairings played for the training positions, with their weights
PAIRINGS: tuple[tuple[tuple[str, str], float], ...] = (
    (("greedy", "planner"), 2.0), (("planner", "planner"), 2.0), (("greedy", "greedy"), 1.0),
    (("greedy", "random"), 1.0), (("planner", "random"), 1.0), (("random", "random"), 0.5),
)
TRAIN_SEED = 10**7


def _seating(i: int, n: int, rng: np.random.Generator) -> tuple[str, ...]:
    """The levels of game ``i``: a pairing drawn by weight, rotated by the game's index
    (more seats than levels: the rest drawn from the pairing's levels)."""
    pairs = [p for p, _ in PAIRINGS]
    w = np.array([x for _, x in PAIRINGS])
    a, b = pairs[int(rng.choice(len(pairs), p=w / w.sum()))]
    seats = [a, b] + [(a, b)[int(rng.integers(2))] for _ in range(n - 2)]
    k = i % n
    return tuple(seats[k:] + seats[:k])


def _grab(game: Game[Any, Any], seen: list[Any], s: Any) -> None:
    """Keep a copy of ``s`` unless the game is over."""
    if not game.is_terminal(s):
        seen.append(game.clone(s))


def rollout_points(game: Game[Any, Any], state: Any, levels: tuple[str, ...], rollouts: int,
                   rng: np.random.Generator) -> np.ndarray:
    """Mean points of ``rollouts`` playouts of ``state`` by fresh agents of ``levels``,
    the unseen cards redrawn and the game's chance drawn anew for each."""
    env = game.env_name
    total = np.zeros(game.num_players)
    for _ in range(rollouts):
        t = game.clone(state)
        game.redraw_unseen(t, rng)
        players = [make_agent(env, lvl, seed=int(rng.integers(2**62))) for lvl in levels]
        play(game, t, players, rng)
        total += game_points(game, t)
    return total / rollouts


def collect(env: str, n: int, games: int, seed: int, per_game: int, max_states: int,
            options: dict[str, Any], rollouts: int = 0, features: tuple[str, ...] = ("flat",),
            stride: int = 0, lookahead: dict[str, int] | None = None) -> tuple[np.ndarray, ...]:
    """``(X, Y, H, G, N)``: positions ``(states, n, inputs)`` (float16: up to ``per_game``
    drawn from each game, or with ``stride`` every stride-th from a random first, fewer if
    that would keep more than ``per_game``), their
    targets ``(states, n)``, their games' points, game indices and the index of the
    game's next kept position (-1 for its last).  The target is the game's points, or
    with ``rollouts`` the mean of those and of ``rollouts`` playouts of the position by
    the same levels.  Finished positions are left out (there the value is the points).
    With ``lookahead`` (a net's ``meta["lookahead"]``) each kept position is the one
    :func:`agents.measure.play_ahead` reaches from it: the positions the net will value."""
    game = cardenvs.game_class(env)(n, **options)
    ahead: Chooser[Any, Any] | None = None
    ahead_moves = 0
    if lookahead is not None:
        ahead, ahead_moves = heuristic_chooser(env, lookahead["level"]), lookahead["max_moves"]
    pick = np.random.default_rng(seed - 1)
    roll_rng = np.random.default_rng(seed - 2)
    xs: list[np.ndarray] = []
    ys: list[np.ndarray] = []
    hs: list[np.ndarray] = []
    gs: list[int] = []
    nxt: list[int] = []
    for i in range(games):
        s_seed = seed + i
        rng = np.random.default_rng(s_seed)
        levels = _seating(i, n, pick)
        players = [make_agent(env, lvl, seed=s_seed * 31 + p) for p, lvl in enumerate(levels)]
        state = game.new_state(rng)
        seen: list[Any] = []
        grab = functools.partial(_grab, game, seen)
        grab(state)
        play(game, state, players, rng, after_move=lambda t: grab(t.state))  # noqa: B023
        if not game.is_terminal(state) or not seen:
            continue
        pts = game_points(game, state)
        if stride:  # evenly spaced, at most per_game of them
            step = max(stride, -(-len(seen) // per_game))
            chosen = list(range(int(pick.integers(step)), len(seen), step))
        else:
            chosen = sorted(pick.permutation(len(seen))[:per_game].tolist())
        for k, j in enumerate(chosen):
            s = seen[j]
            if ahead is not None:
                s = play_ahead(game, s, ahead, ahead_moves)
            nxt.append(len(xs) + 1 if k + 1 < len(chosen) else -1)
            xs.append(value_inputs(game, [s], features).astype(np.float16))
            hs.append(pts)
            if rollouts:
                mean = rollout_points(game, s, levels, rollouts, roll_rng)
                ys.append((pts + rollouts * mean) / (rollouts + 1))
            else:
                ys.append(pts)
            gs.append(i)
        if len(xs) >= max_states:
            print(f"  state cap reached after {i + 1} games")
            break
    f32 = np.float32
    return np.stack(xs), np.stack(ys).astype(f32), np.stack(hs).astype(f32), np.array(gs), np.array(nxt)


def td_targets(pred: np.ndarray, y: np.ndarray, nxt: np.ndarray, lam: float) -> np.ndarray:
    """λ-returns: ``G_t = (1 - λ) V(s_next) + λ G_next``, the last position of a game
    taking its target ``y`` (the points, or their rollout mean) as ``G_next``."""
    out = y.copy()
    for i in range(len(y) - 1, -1, -1):
        j = nxt[i]
        if j >= 0:
            out[i] = (1 - lam) * pred[j] + lam * out[j]
    return out


def train(x: np.ndarray, y: np.ndarray, h: np.ndarray, g: np.ndarray, hidden: tuple[int, ...],
          minutes: float, lr: float, batch: int, seed: int, patience: int = 3,
          nxt: np.ndarray | None = None, lam: float = 1.0) -> tuple[ValueNet, dict[str, float]]:
    """Fit the MLP to the targets ``y`` on the first nine tenths of the games; keep the
    weights of the best validation loss against the games' points ``h`` (stop after
    ``patience`` epochs without a better one, or ``minutes`` of CPU).  With ``lam < 1``
    the targets are λ-returns over each game's kept positions (``nxt``), recomputed
    with the net at every epoch: a value that agrees with the next position's, which is
    what keeps the corrections of the moves without chance small.  Returns the net and
    its losses (with the uniform baseline)."""
    import torch

    torch.set_num_threads(1)
    torch.manual_seed(seed)
    cut = np.quantile(g, 0.9)
    tr, va = g <= cut, g > cut
    flat = x[tr].reshape(-1, x.shape[-1]).astype(np.float32)
    shift = flat.mean(axis=0)
    std = flat.std(axis=0)
    scale = np.where(std > 1e-6, 1.0 / np.maximum(std, 1e-6), 0.0).astype(np.float32)
    del flat
    dims = [x.shape[-1], *hidden, 1]
    mods: list[torch.nn.Module] = []
    for i in range(len(dims) - 1):
        mods.append(torch.nn.Linear(dims[i], dims[i + 1]))
        if i < len(dims) - 2:
            mods.append(torch.nn.ReLU())
    net = torch.nn.Sequential(*mods)
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    t_shift, t_scale = torch.from_numpy(shift), torch.from_numpy(scale)

    def batch_loss(xb: np.ndarray, yb: np.ndarray) -> torch.Tensor:
        xt = (torch.from_numpy(xb.astype(np.float32)) - t_shift) * t_scale
        z = net(xt).squeeze(-1)  # (B, n)
        return -(torch.from_numpy(yb) * torch.log_softmax(z, dim=-1)).sum(-1).mean()

    xtr, ytr, xva, yva = x[tr], y[tr], x[va], h[va]
    if lam < 1.0:
        assert nxt is not None
        # the kept positions of the training games, renumbered within them
        renum = np.cumsum(tr) - 1
        nxt_tr = np.where(nxt[tr] >= 0, renum[np.maximum(nxt[tr], 0)], -1)
        y_end = ytr.copy()

    def predict(xs: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            out = []
            for i in range(0, len(xs), 8192):
                xt = (torch.from_numpy(xs[i:i + 8192].astype(np.float32)) - t_shift) * t_scale
                out.append(torch.softmax(net(xt).squeeze(-1), dim=-1).numpy())
            return np.concatenate(out)

    def val_loss() -> float:
        with torch.no_grad():
            total = 0.0
            for i in range(0, len(yva), 4096):
                total += batch_loss(xva[i:i + 4096], yva[i:i + 4096]).item() * len(yva[i:i + 4096])
            return total / len(yva)

    rng = np.random.default_rng(seed)
    best, best_state, epoch, since = val_loss(), None, 0, 0
    start = time.process_time()
    print(f"  {len(xtr)} training positions, {len(xva)} validation; start val CE {best:.4f}")
    while time.process_time() - start < minutes * 60:
        if lam < 1.0:
            ytr = td_targets(predict(xtr), y_end, nxt_tr, lam)
        order = rng.permutation(len(xtr))
        net.train()
        for i in range(0, len(order), batch):
            idx = np.sort(order[i:i + batch])
            loss = batch_loss(xtr[idx], ytr[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            if time.process_time() - start > minutes * 60:
                break
        epoch += 1
        v = val_loss()
        print(f"  epoch {epoch}: val CE {v:.4f} ({time.process_time() - start:.0f} s)", flush=True)
        if v < best:
            best, best_state, since = v, {k: t.clone() for k, t in net.state_dict().items()}, 0
        else:
            since += 1
            if since >= patience:
                break
    if best_state is not None:
        net.load_state_dict(best_state)
    lin = [m for m in net if isinstance(m, torch.nn.Linear)]
    layers = [(m.weight.detach().numpy().T.copy(), m.bias.detach().numpy().copy()) for m in lin]
    n = y.shape[1]
    return ValueNet(layers, shift, scale), {"val_ce": best, "uniform_ce": float(np.log(n)), "epochs": epoch}


TUNE_SEED = 5_000_000


def fit_coefficients(env: str, n: int, net: ValueNet, games: int, seed: int = TUNE_SEED,
                     samples: int = 8) -> dict[str, float]:
    """The weights of the deal's and the chance events' brackets that take out the most
    variance: the least-squares regression of seat 0's points on the two sums, over
    ``games`` games of the training pairings dealt from ``seed`` (tuning seeds, apart from
    the training and the reported ones), clipped to [0, 1].  Fixed before any reported
    game, they keep the estimator unbiased."""
    from agents.measure import ChanceCorrector, match_chance_rng

    game = cardenvs.game_class(env)(n)
    pick = np.random.default_rng(seed - 1)
    rows = []
    for i in range(games):
        s_seed = seed + i
        rng = np.random.default_rng(s_seed)
        players = [make_agent(env, lvl, seed=s_seed * 31 + p) for p, lvl in enumerate(_seating(i, n, pick))]
        state = game.new_state(rng)
        corr = ChanceCorrector(game, net, match_chance_rng(s_seed), samples, coefficients={})
        corr.start(state)
        play(game, state, players, rng, on_move=corr.on_move, after_move=corr.after_move)
        if game.is_terminal(state):
            rows.append((game_points(game, state)[0], corr.parts["deal"][0], corr.parts["chance"][0]))
    r = np.array(rows)
    a = np.column_stack([np.ones(len(r)), r[:, 1], r[:, 2]])
    beta = np.linalg.lstsq(a, r[:, 0], rcond=None)[0]
    var = float(np.var(r[:, 0]))
    coef = {"deal": float(np.clip(beta[1], 0, 1)), "chance": float(np.clip(beta[2], 0, 1))}
    plain_left = float(np.var(r[:, 0] - r[:, 1] - r[:, 2]))
    fit_left = float(np.var(r[:, 0] - coef["deal"] * r[:, 1] - coef["chance"] * r[:, 2]))
    print(f"  coefficients {coef} over {len(r)} tuning games: variance {var:.4f} plain, "
          f"{plain_left:.4f} reduced with weights 1, {fit_left:.4f} with these")
    return coef


def parse_lookahead(ap: argparse.ArgumentParser, text: str | None) -> dict[str, int] | None:
    """``--lookahead LEVEL:MOVES`` as a net's ``meta["lookahead"]`` (``None``: none)."""
    if text is None or text == "none":
        return None
    level, _, moves = text.partition(":")
    try:
        out = {"level": int(level), "max_moves": int(moves or 12)}
    except ValueError:
        ap.error(f"--lookahead is LEVEL:MOVES (whole numbers, e.g. 2:12) or none, got {text!r}")
    if out["level"] not in (1, 2) or out["max_moves"] < 1:
        ap.error(f"--lookahead: LEVEL is 1 (greedy) or 2 (planner) and MOVES at least 1, got {text!r}")
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=HelpFormatter)
    ap.add_argument("--env", required=True)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=10000, help="games to play for positions (at most)")
    ap.add_argument("--per-game", type=int, default=2, help="positions kept from each game (at most)")
    ap.add_argument("--max-states", type=int, default=150_000)
    ap.add_argument("--features", default="flat,evaluate",
                    help=f"the net's inputs per seat, comma-separated, of {', '.join(FEATURES)}")
    ap.add_argument("--rollouts", type=int, default=8,
                    help="playouts per position averaged into its target (0: the game's points)")
    ap.add_argument("--stride", type=int, default=0,
                    help="keep every stride-th position of a game instead of --per-game drawn ones")
    ap.add_argument("--td", type=float, default=1.0,
                    help="λ of the λ-return targets (1: the game's points, no bootstrapping)")
    ap.add_argument("--patience", type=int, default=3)
    ap.add_argument("--hidden", default="128,64", help="hidden layer sizes, comma-separated")
    ap.add_argument("--minutes", type=float, default=4.0, help="CPU minutes of training")
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--seed", type=int, default=TRAIN_SEED)
    ap.add_argument("--tune-games", type=int, default=400,
                    help="games (seeds from 5,000,000) to fit the brackets' coefficients on; 0: weights 1")
    ap.add_argument("--fit-only", default=None,
                    help="fit the coefficients of this trained net (written back in place) and stop")
    ap.add_argument("--lookahead", default=None, metavar="LEVEL:MOVES",
                    help="read the states played ahead by the knowledge's heuristic at LEVEL, at most "
                         "MOVES moves (agents.measure.Lookahead; 'none' to remove), e.g. 2:12")
    ap.add_argument("--out", default=None, help="default: agents/policies/values/<env>_<n>p.npz")
    args = ap.parse_args(argv)
    ahead = parse_lookahead(ap, args.lookahead)
    if args.fit_only:
        net = ValueNet.load(args.fit_only)
        if args.lookahead is not None:
            meta = {k: v for k, v in net.meta.items() if k != "lookahead"}
            if ahead is not None:
                meta["lookahead"] = ahead
            net = ValueNet(net.layers, net.shift, net.scale, meta)
        net.meta["coefficients"] = fit_coefficients(args.env, args.players, net, args.tune_games)
        net.meta["tune_games"] = args.tune_games
        net.save(args.fit_only)
        return
    if args.seed < TRAIN_SEED:
        ap.error(f"training seeds start at {TRAIN_SEED} (evaluations use the seeds below)")
    game = cardenvs.game_class(args.env)(args.players)
    features = tuple(args.features.split(","))
    t0 = time.process_time()
    x, y, h, g, nxt = collect(args.env, args.players, args.games, args.seed, args.per_game, args.max_states,
                              {}, args.rollouts, features, args.stride, ahead)
    played = int(g.max()) + 1
    t1 = time.process_time()
    print(f"{args.env} {args.players}p: {len(x)} positions from {played} games ({t1 - t0:.0f} s CPU)")
    hidden = tuple(int(h) for h in args.hidden.split(","))
    net, stats = train(x, y, h, g, hidden, args.minutes, args.lr, args.batch, args.seed, args.patience,
                       nxt, args.td)
    meta = {"name": f"{args.env}_{args.players}p-value", "env": args.env, "num_players": args.players,
            "options": game.options, "hidden": list(hidden), "features": list(features), "games": played,
            "positions": len(x),
            "seeds": [args.seed, args.seed + played - 1], "pairings": [list(p) for p, _ in PAIRINGS],
            "per_game": args.per_game, "stride": args.stride,
            "rollouts": args.rollouts, "td_lambda": args.td, **stats}
    if ahead is not None:
        meta["lookahead"] = ahead
    # a fresh net, so that what the constructor reads from meta (the features) is this meta's
    net = ValueNet(net.layers, net.shift, net.scale, meta)
    if args.tune_games:
        net.meta["coefficients"] = fit_coefficients(args.env, args.players, net, args.tune_games)
        net.meta["tune_games"] = args.tune_games
    out = Path(args.out) if args.out else value_path(args.env, args.players)
    out.parent.mkdir(parents=True, exist_ok=True)
    net.save(out)
    print(json.dumps(net.meta))
    print(f"wrote {out} ({out.stat().st_size / 1024:.0f} KiB); CPU {time.process_time() - t0:.0f} s")


if __name__ == "__main__":
    main()
