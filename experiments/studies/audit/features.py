"""Do structured per-action inputs close the behaviour-cloning gap on Line-it?

    python -m experiments.studies.audit.features --games 800 --eval-games 200

Clones the ``greedy`` level of ``lineit_v0`` (2 players, every seat recorded, last 10% of
games held out, best held-out epoch kept) with one plain-torch masked-softmax MLP
(256x256, Adam, same epochs and batch size) on the SAME teacher data, for these inputs:

* ``flat``: the flat observation ``game.encode(view)`` (baseline; columns scaled by
  their largest training value);
* ``flat+feat``: the flat observation plus, for each of the 414 action ids, ``F``
  generic facts computed from the View alone (zero for illegal ids; see
  :func:`action_features`): legal bit, kind of action, Bet, fits my line now, gap to my
  line's last card over the room left in that direction, room left after it, sets the
  direction, its colour's jackpot size, would it be the third of its colour, my colour
  count, my hand size, my line length, my room now, Bet cards still owed;
* ``shared`` (with ``--shared``): the flat MLP's logits plus one small MLP shared by
  every action that scores the action's own facts (a structural prior, same trunk).

Each clone then plays through :func:`cardenvs.core.loop.play` (an :class:`agents.Agent`
that computes its inputs from the View) against ``greedy`` and ``planner``, seats
alternating on the same deals as ``agents.evaluation.tournament.schedule`` (deal ``10000 + g // 2``,
opponents seeded as ``play_match`` seeds them), and greedy vs planner on those deals is
the reference.  Scores count a win 1, a shared win 1/k; intervals are 95% Wilson.

Results (one CPU thread; ``--games 800 --epochs 8 --shared``; ~100k decisions, last 80
games = ~10k decisions held out; score = win share for the row's player, [95% Wilson]).
Run A: ``--seed 0 --eval-games 200``; run B: ``--seed 1 --eval-games 400`` (new teacher
data, new clones; its first 200 deals are run A's deals).

====================  =====  ===================  ===================  =====
variant               agree  vs greedy            vs planner           train
====================  =====  ===================  ===================  =====
A greedy (reference)  -      0.500 [0.431,0.569]  0.432 [0.366,0.502]  -
A flat                0.863  0.370 [0.306,0.439]  0.280 [0.222,0.346]  62s
A flat+feat           0.883  0.435 [0.368,0.504]  0.350 [0.287,0.418]  216s
A shared              0.912  0.500 [0.431,0.569]  0.372 [0.308,0.441]  65s
B greedy (reference)  -      0.500 [0.451,0.549]  0.407 [0.360,0.456]  -
B flat                0.857  0.295 [0.252,0.341]  0.261 [0.221,0.306]  59s
B flat+feat           0.885  0.429 [0.381,0.478]  0.335 [0.291,0.383]  207s
B shared              0.909  0.449 [0.401,0.498]  0.340 [0.295,0.388]  69s
====================  =====  ===================  ===================  =====

Held-out agreement by step (run B): pick 0.763 / 0.800 / 0.841, play-or-pass step
0.826 / 0.873 / 0.959, score step 0.965 / 0.976 / 0.956 (flat / flat+feat / shared).

Reading: the per-action facts help in both runs, in agreement (+2-3 points dense, +5
shared) and more in play (vs greedy, pooled over the 600 games: flat 0.32, flat+feat
0.43, shared 0.47, teacher 0.50; vs planner: 0.27, 0.34, 0.35, teacher 0.42).  They
close most of the gap to the teacher, not all: about 5-7 points against the planner remain.
The gains come from the two steps the audit blamed: picks and above all play-or-pass
(the shared scorer gets 96% of those).  Flat vs structured is clear (intervals apart in
run B); dense vs shared and "remaining gap vs none" are within noise (±5-7 points per cell).
Caveat: greedy is a simple function of just such facts, so this is the favourable case;
it says nothing yet about cloning the planner.
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch

torch.set_num_threads(1)

import agents  # noqa: E402
import cardenvs  # noqa: E402
from agents.cli import HelpFormatter  # noqa: E402
from agents.evaluation.tournament import Match, play_match, points, wilson  # noqa: E402
from agents.games.lineit import LineItKnowledge  # noqa: E402
from agents.players.base import Agent  # noqa: E402
from cardenvs.core.loop import Turn, play  # noqa: E402
from cardenvs.lineit.state import A_PASS, A_SCORE, NUM_ACTIONS  # noqa: E402

ENV = "lineit_v0"
_KNOWLEDGE = LineItKnowledge()
_GAME = cardenvs.game_class(ENV)(2)
MAX_LEGAL = 12
F = 19  # facts per action


# ----------------------------------------------------------------------------- inputs
def action_features(view: Any, legal: list[int]) -> np.ndarray:
    """``[len(legal), F]`` generic facts of each legal action, from the View alone.

    A legal bit, then the facts ``agents`` now computes for its per-action scorers
    (:meth:`agents.games.lineit.LineItKnowledge.action_facts`, ported from this script;
    the values are identical to the ones this experiment was run with).
    """
    facts = _KNOWLEDGE.action_facts(_GAME, view, legal)
    return np.hstack([np.ones((len(legal), 1), np.float32), facts])


def pad(legal: list[int], feats: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Legal ids padded with -1 and their facts padded with zeros to ``MAX_LEGAL`` rows."""
    ids = np.full(MAX_LEGAL, -1, np.int16)
    ids[:len(legal)] = legal
    fs = np.zeros((MAX_LEGAL, F), np.float32)
    fs[:len(legal)] = feats
    return ids, fs


def teacher_data(games: int, seed: int) -> dict[str, np.ndarray]:
    """Every decision of ``games`` greedy-vs-greedy games (all seats), game after game."""
    game = cardenvs.game_class(ENV)(2)
    rng = np.random.default_rng(seed)
    seats = [agents.make_agent(ENV, "greedy", seed=seed + i) for i in range(2)]
    rows: dict[str, list[Any]] = {"obs": [], "ids": [], "feats": [], "act": [], "game": []}
    current = [0]

    def record(turn: Turn) -> None:
        ids, fs = pad(turn.legal, action_features(turn.view, turn.legal))
        rows["obs"].append(game.encode(turn.view).astype(np.int8))
        rows["ids"].append(ids)
        rows["feats"].append(fs)
        rows["act"].append(turn.action)
        rows["game"].append(current[0])

    for g in range(games):
        current[0] = g
        play(game, game.new_state(rng), seats, rng, on_move=record)
    return {k: np.stack(v) if k in ("obs", "ids", "feats") else np.asarray(v) for k, v in rows.items()}


# ----------------------------------------------------------------------------- model
class Cloner(torch.nn.Module):
    """MLP over the (scaled) flat observation, optionally with the dense per-action facts
    (``dense``) or a shared per-action scorer of them (``shared``); logits of 414 ids."""

    def __init__(self, obs_size: int, scale: np.ndarray, variant: str, hidden: int = 256) -> None:
        super().__init__()
        self.variant = variant
        self.register_buffer("inv_scale", torch.as_tensor(1.0 / scale, dtype=torch.float32))
        extra = NUM_ACTIONS * F if variant == "dense" else 0
        self.trunk = torch.nn.Sequential(
            torch.nn.Linear(obs_size + extra, hidden), torch.nn.ReLU(),
            torch.nn.Linear(hidden, hidden), torch.nn.ReLU(), torch.nn.Linear(hidden, NUM_ACTIONS))
        if variant == "shared":
            self.head = torch.nn.Sequential(torch.nn.Linear(F, 64), torch.nn.ReLU(), torch.nn.Linear(64, 1))

    def forward(self, obs: torch.Tensor, ids: torch.Tensor, feats: torch.Tensor) -> torch.Tensor:
        """Masked logits (illegal ids at -inf)."""
        b = obs.shape[0]
        x = obs.float() * self.get_buffer("inv_scale")
        legal = ids >= 0
        safe = ids.long().clamp(min=0)
        if self.variant == "dense":
            dense = torch.zeros(b, NUM_ACTIONS, F)
            dense.scatter_(1, safe.unsqueeze(-1).expand(-1, -1, F), feats * legal.unsqueeze(-1))
            x = torch.cat([x, dense.reshape(b, -1)], 1)
        logits = self.trunk(x)
        if self.variant == "shared":
            extra = self.head(feats).squeeze(-1) * legal
            logits = logits.scatter_add(1, safe, extra)
        mask = torch.zeros(b, NUM_ACTIONS, dtype=torch.bool)
        mask.scatter_(1, safe, legal)
        return logits.masked_fill(~mask, -1e9)


def train(data: dict[str, np.ndarray], variant: str, epochs: int, holdout: float, seed: int,
          batch: int = 256, lr: float = 1e-3) -> tuple[Cloner, float, list[float], float]:
    """Fit one cloner; returns it (best held-out epoch), that agreement, the curve, seconds."""
    torch.manual_seed(seed)
    games = int(data["game"].max()) + 1
    split = data["game"] >= games - max(1, round(games * holdout))
    tr, te = np.flatnonzero(~split), np.flatnonzero(split)
    t = {k: torch.as_tensor(v) for k, v in data.items() if k in ("obs", "ids", "feats")}
    act = torch.as_tensor(data["act"]).long()
    scale = np.maximum(np.abs(data["obs"][tr]).max(0), 1).astype(np.float32)
    model = Cloner(data["obs"].shape[1], scale, variant)
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    rng = np.random.default_rng(seed)
    best, best_state, curve = -1.0, None, []
    start = time.time()
    for _ in range(epochs):
        model.train()
        order = rng.permutation(tr)
        for i in range(0, len(order), batch):
            idx = torch.as_tensor(order[i:i + batch])
            logits = model(t["obs"][idx], t["ids"][idx], t["feats"][idx])
            loss = torch.nn.functional.cross_entropy(logits, act[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        acc = agreement(model, t, act, te)
        curve.append(acc)
        if acc > best:
            best, best_state = acc, {k: v.clone() for k, v in model.state_dict().items()}
    assert best_state is not None
    model.load_state_dict(best_state)
    model.eval()
    return model, best, curve, time.time() - start


@torch.no_grad()
def breakdown(model: Cloner, data: dict[str, np.ndarray], holdout: float) -> dict[str, tuple[int, float]]:
    """Held-out agreement by the teacher's kind of decision: pick, play-or-pass step, score step."""
    games = int(data["game"].max()) + 1
    rows = np.flatnonzero(data["game"] >= games - max(1, round(games * holdout)))
    t = {k: torch.as_tensor(data[k][rows]) for k in ("obs", "ids", "feats")}
    pred = model(t["obs"], t["ids"], t["feats"]).argmax(1).numpy()
    ids = data["ids"][rows]
    steps = np.where((ids == A_SCORE).any(1), "score step",
                     np.where((ids == A_PASS).any(1), "play/pass step", "pick"))
    same = pred == data["act"][rows]
    return {k: (int((steps == k).sum()), float(same[steps == k].mean())) for k in sorted(set(steps))}


@torch.no_grad()
def agreement(model: Cloner, t: dict[str, torch.Tensor], act: torch.Tensor, rows: np.ndarray) -> float:
    """Share of ``rows`` where the clone's argmax is the teacher's move."""
    model.eval()
    same = 0
    for i in range(0, len(rows), 2048):
        idx = torch.as_tensor(rows[i:i + 2048])
        same += int((model(t["obs"][idx], t["ids"][idx], t["feats"][idx]).argmax(1) == act[idx]).sum())
    return same / len(rows)


class CloneAgent(Agent):
    """Plays the clone's argmax, computing its inputs from the View (no teacher values)."""

    env_name = ENV

    def __init__(self, model: Cloner, name: str = "clone") -> None:
        super().__init__(0, name)
        self.model = model

    @torch.no_grad()
    def choose(self, game: Any, view: Any, legal: list[int]) -> int:
        ids, fs = pad(legal, action_features(view, legal))
        obs = torch.as_tensor(game.encode(view)).unsqueeze(0)
        logits = self.model(obs, torch.as_tensor(ids).unsqueeze(0), torch.as_tensor(fs).unsqueeze(0))
        return int(logits.argmax(1))


# ----------------------------------------------------------------------------- evaluation
def versus(agent: Agent | None, level: str, opponent: str, games: int, base: int = 10_000) -> float:
    """Score of ``agent`` (or of the level ``level`` when None) against ``opponent``, seats
    alternating on the same deals, opponents seeded as ``play_match`` seeds them."""
    game = cardenvs.game_class(ENV)(2)
    total = 0.0
    for g in range(games):
        me, deal = g % 2, base + g // 2
        if agent is None:
            seats = (level, opponent) if me == 0 else (opponent, level)
            total += points(play_match(Match(ENV, seats, deal)).rewards)[me]
            continue
        players: list[Any] = [agents.make_agent(ENV, opponent, seed=deal * 31 + i) for i in range(2)]
        players[me] = agent
        rng = np.random.default_rng(deal)
        state = game.new_state(rng)
        play(game, state, players, rng)
        total += points([float(r) for r in game.returns(state)])[me]
    return total / games


def main() -> None:
    ap = argparse.ArgumentParser(formatter_class=HelpFormatter)
    ap.add_argument("--games", type=int, default=800)
    ap.add_argument("--eval-games", type=int, default=200)
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--holdout", type=float, default=0.1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--shared", action="store_true", help="also train the shared per-action scorer")
    ap.add_argument("--out", default="/tmp/audit_features.json")
    a = ap.parse_args()
    t = time.time()
    data = teacher_data(a.games, a.seed)
    print(f"data: {len(data['act'])} decisions from {a.games} games in {time.time() - t:.0f}s", flush=True)
    n = a.eval_games
    rows: list[dict[str, Any]] = []
    ref = {opp: versus(None, "greedy", opp, n) for opp in ("greedy", "planner")}
    rows.append({"variant": "greedy (teacher)", "agree": None, "vs_greedy": ref["greedy"],
                 "vs_planner": ref["planner"], "train_s": None})
    print(f"greedy vs greedy: {ref['greedy']:.3f}, vs planner: {ref['planner']:.3f}", flush=True)
    variants = {"flat": "flat", "flat+feat": "dense"} | ({"shared": "shared"} if a.shared else {})
    for label, variant in variants.items():
        model, acc, curve, secs = train(data, variant, a.epochs, a.holdout, a.seed)
        print(f"{label}: held-out agreement {acc:.3f} curve {[round(x, 3) for x in curve]} ({secs:.0f}s)",
              flush=True)
        parts = breakdown(model, data, a.holdout)
        shown = ", ".join(f"{k} {v:.3f} (n={m})" for k, (m, v) in parts.items())
        print(f"{label}: by step {shown}", flush=True)
        clone = CloneAgent(model, label)
        te = time.time()
        res = {opp: versus(clone, label, opp, n) for opp in ("greedy", "planner")}
        print(f"{label}: vs greedy {res['greedy']:.3f}, vs planner {res['planner']:.3f} "
              f"({time.time() - te:.0f}s)", flush=True)
        rows.append({"variant": label, "agree": acc, "curve": curve, "vs_greedy": res["greedy"],
                     "vs_planner": res["planner"], "train_s": secs, "by_step": parts})
    head = f"{'vs greedy (95% CI)':>22s} {'vs planner (95% CI)':>22s}"
    print(f"\n{'variant':18s} {'agree':>6s} {head} {'train':>6s}")
    for r in rows:
        cells = []
        for key in ("vs_greedy", "vs_planner"):
            lo, hi = wilson(r[key], n)
            cells.append(f"{r[key]:.3f} [{lo:.3f},{hi:.3f}]".rjust(22))
        agree_text = "-" if r["agree"] is None else f"{r['agree']:.3f}"
        secs_text = "-" if r["train_s"] is None else f"{r['train_s']:.0f}s"
        print(f"{r['variant']:18s} {agree_text:>6s} {cells[0]} {cells[1]} {secs_text:>6s}")
    Path(a.out).write_text(json.dumps({"args": vars(a), "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
