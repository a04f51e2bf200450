#!/usr/bin/env python3
"""Write the research notebooks of ``notebooks/`` (outputs stripped).

    python notebooks/make_notebooks.py

The notebooks are generated from the cell texts below so that they stay reviewable as
plain Python; edit here and rerun rather than editing the ``.ipynb`` files by hand.
Each notebook reads its budget from environment variables (``CARDENVS_NB_STEPS``,
``CARDENVS_NB_GAMES``, ``CARDENVS_NB_TURNS``, ``CARDENVS_NB_WORKERS``) so that
``tests/test_notebooks.py`` can run them in seconds; anything they write goes under
``results/`` of the working directory (ignored by git).
"""

from __future__ import annotations

from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

HERE = Path(__file__).resolve().parent

# A tiny helper every notebook shares: draw the table as a picture when the environment
# offers ``rgb_array``, else print its text.  The picture is displayed as an image (not
# through pyplot), so it shows whatever matplotlib backend the renderer selects.
SHOW_HELPER = '''\
import numpy as np
from PIL import Image


def table_mode(env_name):
    """``"rgb_array"`` when the environment can draw a picture of the table, else ``"ansi"``."""
    modes = cardenvs.env_module(env_name).raw_env.metadata["render_modes"]
    return "rgb_array" if "rgb_array" in modes else "ansi"


def show(env, title=None):
    """Show the table: the picture (``rgb_array``) or the text (``ansi``)."""
    try:
        frame = env.render()
    except ImportError:  # no picture module for this game: fall back to the text
        base = env.unwrapped
        frame = base.game.render(base.state, base.render_viewer)
    if title:
        print(title)
    if isinstance(frame, np.ndarray):
        display(Image.fromarray(frame))
    else:
        print(frame)'''


def md(text: str) -> nbformat.NotebookNode:
    return new_markdown_cell(text.strip("\n"))


def code(text: str) -> nbformat.NotebookNode:
    return new_code_cell(text.strip("\n"))


def quickstart() -> list[nbformat.NotebookNode]:
    return [
        md("""
# 01 · Quick start

This notebook is a tour of the three `cardenvs` environments:

1. make each environment and play a random game with the PettingZoo AEC loop;
2. draw the table (a picture when the environment has `render_mode="rgb_array"`, else text);
3. load an exact position from position JSON with `reset(options={"state": ...})`;
4. speak move notation with `action_to_str` / `str_to_action`;
5. read the observation table (`Game.OBS_FIELDS`) and decode an observation (`Game.decode`).

Everything here runs in a few seconds on a laptop CPU.
"""),
        code("""
import json

from IPython.display import Markdown, display

import cardenvs

print("cardenvs", cardenvs.__version__)
for name in cardenvs.ENVS:
    game = cardenvs.game_class(name)
    print(f"{name:12} {game.min_players}-{game.max_players} players, "
          f"{game.num_actions} actions, observation of {game.observation_size()} floats")
"""),
        md("""
`show(env)` draws the table. It uses the picture renderer when the environment lists
`"rgb_array"` in `metadata["render_modes"]` and prints the `ansi` text otherwise, so the
cells below work either way.
"""),
        code(SHOW_HELPER),
        md("""
## 1. A random game with the AEC loop

The standard PettingZoo loop: `env.agent_iter()` yields the agent to act, `env.last()`
gives that agent's observation (a dict with the float vector and the `action_mask`),
reward and flags. A finished agent steps `None`. Random legal moves come from
`action_space(agent).sample(mask)`.
"""),
        code("""
def random_game(env_name, seed=0, **options):
    env = cardenvs.make(env_name, render_mode=table_mode(env_name), **options)
    env.reset(seed=seed)
    env.action_space(env.possible_agents[0]).seed(seed)
    steps, totals = 0, dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        totals[agent] += reward
        if termination or truncation:
            action = None
        else:
            action = env.action_space(agent).sample(obs["action_mask"])
            steps += 1
        env.step(action)
    return env, steps, totals


for name in cardenvs.ENVS:
    env, steps, totals = random_game(name, seed=1)
    print(f"{name}: {steps} moves, final rewards {totals}")
"""),
        md("""
The last game's final table (every hand face up, since `render_viewer` is `None`):
"""),
        code("""
show(env, title=f"{name}: the end of a random game")
"""),
        md("""
## 2. The table from one seat, and move notation

`render_viewer=0` shows only what `player_0` may see. Each action id has a docs/rules/
move text: `env.unwrapped.action_to_str(a)`, and back with `str_to_action(text)`.
"""),
        code("""
env = cardenvs.make("line_v0", num_players=2, render_mode=table_mode("line_v0"), render_viewer=0)
env.reset(seed=4)
show(env, title="Line, from player_0's seat")
base = env.unwrapped
legal = base.legal_actions()
print(len(legal), "legal moves, e.g.", [base.action_to_str(a) for a in legal[:6]])
text = base.action_to_str(legal[0])
assert base.str_to_action(text) == legal[0]
print(f"{text!r} <-> action {legal[0]}")
"""),
        md("""
Malformed text and illegal actions are refused with a `ValueError` that says why (and
the state does not change):
"""),
        code("""
for bad in ["play 7s r9", "fly away"]:
    try:
        base.str_to_action(bad)
    except ValueError as err:
        print(f"{bad!r}: {err}")
illegal = next(a for a in range(base.game.num_actions) if a not in set(legal))
try:
    env.step(illegal)
except ValueError as err:
    print(f"action {illegal}: {err}")
"""),
        md("""
## 3. Positions from position JSON

`env.unwrapped.state_json()` gives the current position in the position format (docs/rules/), and
`env.reset(options={"state": position})` starts from one. Here is a hand-made Rummy
4x3x2's position (two players): `player_0` holds four sevens, two queens and a loose 5s
and 9h; the face-up discard is the 5h. Taking it and throwing the 9h finishes
(4 + 2 + 2 = eight grouped cards). The pile is every card not placed elsewhere.
"""),
        code("""
deck = [rank + suit for rank in "A23456789TJQK" for suit in "cdhs"]
hands = [["7c", "7d", "7h", "7s", "Qc", "Qd", "5s", "9h"],
         ["Ac", "Ad", "2c", "3d", "4h", "6s", "8c", "Kd"]]
discard = ["5h"]
placed = {c for hand in hands for c in hand} | set(discard)
position = {
    "game": "rummy432", "num_players": 2,
    "options": {"pack": "mixed", "hand_size": 8, "run_out_limit": 3, "rounds_to_win": 3},
    "hands": hands, "pile": [c for c in deck if c not in placed], "discard": discard,
    "known": [[], []], "current": 0, "phase": "pick", "taken": None, "dealer": 1,
    "run_outs": 0, "finished_by": None, "last_turns_left": [], "scores": [0, 0],
}
rummy = cardenvs.make("rummy432_v0", num_players=2, render_mode=table_mode("rummy432_v0"))
rummy.reset(options={"state": position})
show(rummy, title="a loaded Rummy 4x3x2's position")
game = rummy.unwrapped
print("legal:", [game.action_to_str(a) for a in game.legal_actions()])
"""),
        code("""
for move in ["take", "finish 9h"]:
    rummy.step(game.str_to_action(move))
    print("played", move, "-> now legal:", [game.action_to_str(a) for a in game.legal_actions()][:5])
print(json.dumps(game.state_json())[:300], "...")
"""),
        md("""
A position that breaks the rules (here the 7c would be both in a hand and on the
discard) is refused with a `ValueError` naming the problem:
"""),
        code("""
try:
    rummy.reset(options={"state": {**position, "discard": ["7c"]}})
except ValueError as err:
    print(err)
"""),
        md("""
Round trip: any position the environment reaches can be saved and loaded again.
"""),
        code("""
line = cardenvs.make("lineit_v0", num_players=3)
line.reset(seed=7)
for _ in range(5):
    line.step(line.unwrapped.legal_actions()[0])
saved = json.loads(json.dumps(line.unwrapped.state_json()))
copy = cardenvs.make("lineit_v0", num_players=3)
copy.reset(options={"state": saved})
assert copy.unwrapped.state_json() == saved
print("Line-it position after 5 moves restored:", list(saved)[:8], "...")
"""),
        md("""
## 4. The observation table

Each game documents its flat observation as named slices (`Game.OBS_FIELDS`); the same
table is in the environment module's docstring and a test holds the two together.
"""),
        code("""
Rummy432Game = cardenvs.game_class("rummy432_v0")
rows = ["| field | start | size | description |", "|---|---:|---:|---|"]
rows += [f"| `{f.name}` | {f.start} | {f.size} | {f.description} |" for f in Rummy432Game.OBS_FIELDS]
display(Markdown("\\n".join(rows)))
"""),
        md("""
`Game.decode(observation)` turns the vector back into the player's view (what that seat
may know), and the fields pick out slices of the vector:
"""),
        code("""
env = cardenvs.make("rummy432_v0", num_players=4)
env.reset(seed=3)
obs, *_ = env.last()
vector = obs["observation"]
view = Rummy432Game.decode(vector)
print(view)
print()
for field in Rummy432Game.OBS_FIELDS[:10]:
    values = vector[field.start:field.stop]
    print(f"{field.name:20} {values.tolist()}")
print("legal actions in the mask:", int(obs["action_mask"].sum()))
"""),
        md("""
The same works for every game; e.g. the non-zero fields of a Line observation:
"""),
        code("""
LineGame = cardenvs.game_class("line_v0")
env = cardenvs.make("line_v0", num_players=3)
env.reset(seed=2)
vector = env.last()[0]["observation"]
for field in LineGame.OBS_FIELDS:
    part = vector[field.start:field.stop]
    nonzero = np.flatnonzero(part)
    print(f"{field.name:15} size {field.size:3}  non-zero at {nonzero.tolist()[:8]}"
          f"{' ...' if len(nonzero) > 8 else ''}")
print(LineGame.decode(vector))
"""),
    ]


def training() -> list[nbformat.NotebookNode]:
    return [
        md("""
# 02 · Training a policy that beats greedy

This notebook trains, from scratch on one CPU core, a Line-it policy that beats the
ladder's `greedy` level. It is the recipe of `docs/training/recipe.md`
(`experiments/examples/beat_greedy_sb3.py` runs it as a script): no teacher, no search,
no GPU. We

1. build 8 copies of Line-it (2 players) with `observation="action_features"` (a row of
   facts about every legal move), each with an opponent drawn anew at every deal from
   random, greedy and the planner;
2. train sb3-contrib's `MaskablePPO` with `ActionScorerPolicy` (one small network,
   shared by every move, scores each legal row) in chunks, measuring the win share
   against greedy after each chunk (a learning curve);
3. export the policy to numpy arrays and play it without torch, as `policy:FILE.npz`
   like any ladder level;
4. evaluate it against greedy and the planner, with 95% intervals;
5. train the flat observation with the same algorithm and budget: the baseline.

**Budget and what to expect.** `STEPS` (environment variable `CARDENVS_NB_STEPS`) sets the
training steps. The default, 100,000, takes a few minutes. Measured on 2026-12-02 on this
project's 2-core machine, shared with other work: the whole notebook ran in about 3
minutes (2.9 and 3.1 in two runs), under 2 of them training the recipe (100,352 steps).
The policy scored 78.2% [73.9, 82.0] against greedy and 64.9% [60.1, 69.4] against the
planner over 400 games each, and the flat baseline 3.5% [2.1, 5.8] against greedy. The
run is seeded (both runs gave these numbers): where your hardware computes the same
floats you should see them too; the time is what changes. The recipe's full budget,
500,000 steps (`CARDENVS_NB_STEPS=500000`), trained in 16.3 minutes on one shared core
(about 17 with its evaluation) and scored 80.9% [76.7, 84.4] against greedy and 70.4%
[65.7, 74.6] against the planner over 400 games each (`docs/training/recipe.md`).
"""),
        code("""
import os
import time
from pathlib import Path

STEPS = int(os.environ.get("CARDENVS_NB_STEPS", 100_000))   # training steps in all
EVAL_GAMES = int(os.environ.get("CARDENVS_NB_GAMES", 400))  # games per evaluation
N_ENVS = 8                                                  # game copies stepped together
N_STEPS = 256 if STEPS >= 20_000 else 32                    # rollout length per copy (tiny budgets: shorter)
BATCH_SIZE = min(1024, N_ENVS * N_STEPS)                    # minibatch of the PPO update
CHUNK = max(N_ENVS * N_STEPS, STEPS // 8)                   # steps between evaluations
OUT = Path(os.environ.get("CARDENVS_NB_OUT", "results")) / "02_training"
OUT.mkdir(parents=True, exist_ok=True)
START = time.perf_counter()
print(f"{STEPS:,} steps in chunks of {CHUNK:,}, {EVAL_GAMES} games per evaluation; files in {OUT}")
"""),
        code("""
import matplotlib.pyplot as plt
import numpy as np
import torch
from IPython.display import Markdown, display
from sb3_contrib import MaskablePPO

import agents
from agents.learning import sb3_speedups
from agents.learning.feature_sb3 import ActionScorerPolicy, export_policy
from agents.learning.sparse_policy import fast_ppo_kwargs
from agents.evaluation.tournament import points, run_matches, schedule, wilson
from agents.players.trained import TrainedAgent, export_sb3
from cardenvs.core.observers import features_module
from cardenvs.core.wrappers import SingleAgentEnv
from cardenvs.vector import make_vec_env

torch.set_num_threads(1)  # small networks: one thread is fastest (and fair to your other work)
sb3_speedups.enable()     # faster masked sampling, the same distribution
"""),
        md("""
## The observation: a row of facts per move

With `observation="action_features"` the learner sees a matrix with one row per action
id (414 in Line-it). A legal move's row says what the move does (the card, whether it
fits my line, the gap it leaves, the room beyond the line's end after it, a jackpot it
claims, ...) and then the position's facts; illegal rows are zero. Everything comes from
the player's own information. A few columns of the legal rows of one position:
"""),
        code("""
ENV = "lineit_v0"
LEVELS = ["random", "greedy", "planner"]

env = SingleAgentEnv(ENV, opponents=[agents.make_agent(ENV, "greedy", seed=1)], learner_seat=None,
                     observation="action_features")
obs, info = env.reset(seed=3)
legal = np.flatnonzero(env.action_masks())
layout = features_module(env.game).ACTION_FEATURES
columns = {f.name: f.start for f in layout.fields}
shown = ["card", "fits", "gap", "room_after", "claims", "jackpot", "next_fits"]
print("observation", obs.shape, "legal moves", len(legal), "; illegal rows all zero:",
      not obs[np.setdiff1d(np.arange(len(obs)), legal)].any())
rows = ["| move | " + " | ".join(shown) + " |", "|---|" + "---:|" * len(shown)]
for a in legal[:8]:
    values = " | ".join(f"{obs[a, columns[c]]:.2f}" for c in shown)
    rows.append(f"| `{env.game.action_to_str(a)}` | {values} |")
display(Markdown("\\n".join(rows)))
"""),
        md("""
## The environments

`make_vec_env` steps `N_ENVS` seeded copies together in this process (one SB3 `VecEnv`,
every copy's action mask in one array). `opponents(i)` gives copy `i` its opponents; here
a function of the copy's random generator, called at every deal, so each deal draws a
level anew. The learner's seat is drawn at every deal too.
"""),
        code("""
def opponents(i):
    def draw(rng):  # copy i: a level drawn anew at every deal
        level = LEVELS[rng.integers(len(LEVELS))]
        return [agents.make_agent(ENV, level, seed=int(rng.integers(2**31)))]
    return draw


venv = make_vec_env(ENV, N_ENVS, opponents, seed=0, observation="action_features")
print(venv.num_envs, "copies; observation", venv.observation_space.shape, "; actions", venv.action_space.n)
"""),
        md("""
## The model

The recipe's settings: a 128x128 scorer, learning rate 1e-3, rollouts of 256 steps per
copy, minibatches of 1,024, 4 epochs, γ = 0.995 and a small entropy bonus (tiny budgets,
as the test suite runs, use shorter rollouts and minibatches).
`ActionScorerPolicy` runs the scorer on each legal row and takes its output as that
move's logit; the value network reads the rows pooled. What it learns about "a card
that fits with a small gap" holds for every card, which is why it learns in minutes.
"""),
        code("""
model = MaskablePPO(ActionScorerPolicy, venv, learning_rate=1e-3, n_steps=N_STEPS, batch_size=BATCH_SIZE,
                    n_epochs=4, gamma=0.995, ent_coef=0.01, seed=0, verbose=0,
                    policy_kwargs={"net_arch": [128, 128]})
print(model.policy.scorer)
"""),
        md("""
## Evaluation against greedy

`win_share` plays a policy file against a ladder level with the tournament code: the
seats alternate on the same deals (`seed` picks them), a win counts 1, a shared win ½,
and the share comes with its 95% Wilson interval (what
`experiments/examples/beat_greedy_sb3.py` reports). We export the model to a numpy file
(`export_policy`) and play that file as `policy:FILE`, so the curve measures the very
policy that ships. Every point of the curve plays the same deals.
"""),
        code("""
policy_file = OUT / f"{ENV}_policy.npz"


def win_share(policy_file, level, games=EVAL_GAMES, seed=20_000):
    '''The policy's win share (a shared win split) against `level`, with its 95% Wilson interval.'''
    me = f"policy:{policy_file}"
    results = run_matches(schedule(ENV, [me, level], 2, games, seed=seed), progress=False)
    share = sum(points(r.rewards)[r.match.seats.index(me)] for r in results) / len(results)
    return (share, *wilson(share, len(results)))


def vs_greedy(model):
    export_policy(model, ENV, {"steps": model.num_timesteps}).save(policy_file)
    return win_share(policy_file, "greedy", seed=10_000)
"""),
        md("""
## Training in chunks

`learn(CHUNK, reset_num_timesteps=False)` continues the same run (PPO stops at whole
rollouts, so a chunk can run a little over), and evaluating between calls gives the
learning curve.
"""),
        code("""
curve = [(0, vs_greedy(model))]
train_seconds = 0.0
share, low, high = curve[-1][1]
print(f"{0:>7,} steps: {share:.0%} [{low:.0%}, {high:.0%}] vs greedy")
while model.num_timesteps < STEPS:
    t = time.perf_counter()
    model.learn(CHUNK, reset_num_timesteps=False)
    train_seconds += time.perf_counter() - t
    curve.append((model.num_timesteps, vs_greedy(model)))
    share, low, high = curve[-1][1]
    print(f"{model.num_timesteps:>7,} steps: {share:.0%} [{low:.0%}, {high:.0%}] vs greedy "
          f"({train_seconds / 60:.1f} min of training)")
"""),
        code("""
steps = [n for n, _ in curve]
shares, lows, highs = zip(*(s for _, s in curve))
fig, ax = plt.subplots(figsize=(6, 3.5))
ax.plot(steps, shares, marker="o")
ax.fill_between(steps, lows, highs, alpha=0.2)
ax.axhline(0.5, color="grey", lw=0.8, ls="--")
ax.set_ylim(0, 1)
ax.set_xlabel("training steps")
ax.set_ylabel("win share vs greedy")
ax.set_title(f"MaskablePPO on {ENV}: {EVAL_GAMES} games a point, 95% band")
fig.tight_layout()
fig.savefig(OUT / "learning_curve.png", dpi=110)
plt.show()
"""),
        md("""
## Export to numpy and play without torch

The file holds the scorer's layers as numpy arrays. `TrainedAgent` (what `policy:FILE`
makes) reads it and plays from the player's View: it computes the legal rows itself and
takes the move of the highest logit, no torch involved. On positions of a game against
greedy it picks the same moves as the torch model (`deterministic=True`):
"""),
        code("""
export_policy(model, ENV, {"steps": model.num_timesteps}).save(policy_file)
bot = TrainedAgent(ENV, path=policy_file)
print([w.shape for w in bot.features.weights], bot.features.meta)

agree = total = 0
obs, _ = env.reset(seed=123)
while total < 40:
    mask = env.action_masks()
    torch_action, _ = model.predict(obs, action_masks=mask, deterministic=True)
    view = env.game.view(env.state, env.learner_seat)
    numpy_action = bot.choose(env.game, view, env.game.legal_actions(env.state))
    agree += int(torch_action) == numpy_action
    total += 1
    obs, _, terminated, truncated, _ = env.step(int(torch_action))
    if terminated or truncated:
        obs, _ = env.reset()
print(f"numpy and torch agree on {agree} of {total} decisions")
"""),
        md("""
And one whole game with `agents.play_game` (the library's play loop), the last moves shown:
"""),
        code("""
result = agents.play_game(ENV, [bot, agents.make_agent(ENV, "greedy", seed=5)], seed=5)
print("rewards", result.rewards, "in", result.steps, "moves")
for seat, move in result.moves[-6:]:
    print(f"  player_{seat}: {move}")
"""),
        md("""
## The final evaluation

`EVAL_GAMES` games against greedy and against the planner on other deals than the
curve's, seats alternating, with 95% Wilson intervals. From a shell,
`cardenvs-evaluate results/02_training/lineit_v0_policy.npz --env lineit_v0 --against greedy planner`
measures the file too and places it on the ladder's rating scale.
"""),
        code("""
final = {level: win_share(policy_file, level) for level in ["greedy", "planner"]}
for level, (share, low, high) in final.items():
    print(f"trained policy vs {level:7}: {share:.1%} [{low:.1%}, {high:.1%}] over {EVAL_GAMES} games")
print(f"trained {model.num_timesteps:,} steps in {train_seconds / 60:.1f} min")
"""),
        md("""
## The baseline: the flat observation

The same algorithm and settings on Line-it's flat observation (one vector for the
position, one output per action id; `fast_ppo_kwargs()` computes that head at the legal
moves only) and the same budget. It trains faster per step and stays far below greedy:
nothing carries what it learns about one card over to the others. Longer runs do not fix
it (`docs/results/baselines/README.md`): a flat 256x256 MLP trained by the project's own
self-play PPO scored 7 ± 5% [6, 10] against greedy after 8 minutes (about a million
steps, 3 seeds), where the action features scored 88 ± 2% [85, 90] with the same trainer
and time; with `MaskablePPO` the flat observation scored 2% after 106k steps and 3 to 6%
after 2M.
"""),
        code("""
flat_venv = make_vec_env(ENV, N_ENVS, opponents, seed=0)  # observation="flat", the default
flat = MaskablePPO(env=flat_venv, learning_rate=1e-3, n_steps=N_STEPS, batch_size=BATCH_SIZE, n_epochs=4,
                   gamma=0.995, ent_coef=0.01, seed=0, verbose=0,
                   **fast_ppo_kwargs({"net_arch": [128, 128]}))
t = time.perf_counter()
flat.learn(STEPS)
flat_seconds = time.perf_counter() - t
flat_file = OUT / f"{ENV}_flat.npz"
export_sb3(flat, meta={"env": ENV, "players": 2, "steps": flat.num_timesteps}).save(flat_file)
for name, n, seconds, (share, low, high) in [
        ("flat observation", flat.num_timesteps, flat_seconds, win_share(flat_file, "greedy")),
        ("action features", model.num_timesteps, train_seconds, final["greedy"])]:
    print(f"{name:16} {n:,} steps ({seconds / 60:.1f} min): {share:.1%} [{low:.1%}, {high:.1%}] vs greedy")
print(f"notebook ran {(time.perf_counter() - START) / 60:.1f} min")
"""),
    ]


def benchmarking() -> list[nbformat.NotebookNode]:
    return [
        md("""
# 03 · Benchmarking the opponents

`agents.evaluation.tournament.tournament(...)` plays seeded games between ladder levels with the
seats rotated, then reports win rates with 95% Wilson intervals and openskill
(Plackett-Luce) ratings. Two-player tournaments also get the pairwise win-rate matrix.

`GAMES` (environment variable `CARDENVS_NB_GAMES`) is the number of games per pair of
levels (two players) or per seating group (more players); `WORKERS` processes play them.
"""),
        code("""
import os
from pathlib import Path

from IPython.display import Image, Markdown, display

import agents
from agents.evaluation.tournament import tournament

GAMES = int(os.environ.get("CARDENVS_NB_GAMES", 100))
WORKERS = int(os.environ.get("CARDENVS_NB_WORKERS", min(4, os.cpu_count() or 1)))
OUT = Path(os.environ.get("CARDENVS_NB_OUT", "results")) / "03_benchmarking"
OUT.mkdir(parents=True, exist_ok=True)
print(f"{GAMES} games per pairing, {WORKERS} worker process(es); plots in {OUT}")
"""),
        md("""
## The ladder

Every game has the same levels, weakest first, each measured stronger than the one below.
A shipped trained policy is on the ladder where it is separated from both neighbours;
one that ties a level is unranked and still plays as `"trained"` (`playable_levels`):
"""),
        code("""
for name in ["line_v0", "lineit_v0", "rummy432_v0"]:
    print(f"{name:12}", agents.levels(name))
    print(f"{'':12}", agents.playable_levels(name), "(playable)")
"""),
        md("""
## Line, two players: every level against every other
"""),
        code("""
LEVELS = ["random", "greedy", "planner", "expert"]
report = tournament("line_v0", LEVELS, players=2, games=GAMES, seed=0, workers=WORKERS)
display(Markdown(report.markdown()))
"""),
        code("""
png = OUT / "line_v0_2p.png"
report.plot(str(png))
display(Image(filename=str(png)))
"""),
        md("""
The raw numbers are on the report too, e.g. the expert's score against each level:
"""),
        code("""
for other in LEVELS[:-1]:
    share, n, low, high = report.pairwise[("expert", other)]
    print(f"expert vs {other:8}: {share:.0%} of {n} games, 95% interval [{low:.0%}, {high:.0%}]")
"""),
        md("""
## Rummy 4x3x2's, three players at one table

With more players, each group of distinct levels plays `GAMES` games, every deal once per
rotation of the seats; the ratings come from each game's finishing order.
"""),
        code("""
report3 = tournament("rummy432_v0", ["random", "greedy", "planner"], players=3,
                     games=GAMES, seed=0, workers=WORKERS)
display(Markdown(report3.markdown()))
png = OUT / "rummy432_v0_3p.png"
report3.plot(str(png))
display(Image(filename=str(png)))
"""),
    ]


def coach() -> list[nbformat.NotebookNode]:
    return [
        md("""
# 04 · The coach

`agents.Coach(env_name)` ranks the legal moves of one player from that player's own
observation, with a value and a reason in words. Here you (seat 0) play Rummy 4x3x2's
against three named planners from `agents.opponents`, and the coach walks you through
it: at each of your decisions we show the table from your seat, the coach's top three
moves, and play its first choice.

`SHOW_TURNS` (environment variable `CARDENVS_NB_TURNS`) caps how many of your decisions
are shown; the rest of the game is played the same way without printing.
"""),
        code("""
import os

from IPython.display import Markdown, display

import agents
import cardenvs

SHOW_TURNS = int(os.environ.get("CARDENVS_NB_TURNS", 6))
SEED = 4
"""),
        code(SHOW_HELPER),
        md("""
## The table

Four seats: you and the game's cast (Rosie, Dev, Mags) at the `planner` level. The
environment renders from your seat (`render_viewer=0`), so the others' hands are hidden.
"""),
        code("""
ENV = "rummy432_v0"
bots = agents.opponents(ENV, "planner", 3, seed=SEED)
names = ["You"] + [bot.name for bot in bots]
coach = agents.Coach(ENV)
env = cardenvs.make(ENV, num_players=4, render_mode=table_mode(ENV), render_viewer=0)
env.reset(seed=SEED)
print(", ".join(f"player_{i} {name}" for i, name in enumerate(names)))
"""),
        md("""
`advice_table` turns the coach's ranked `Advice` (move, value, reason) into markdown.
"""),
        code("""
def advice_table(advice):
    rows = ["| # | move | value | why |", "|---:|---|---:|---|"]
    rows += [f"| {k} | `{a.move}` | {a.value:+.2f} | {a.reason} |" for k, a in enumerate(advice, 1)]
    return Markdown("\\n".join(rows))
"""),
        md("""
## The game

The AEC loop as usual; on your turns the coach decides, on the others' turns the
planners do. Opponents' moves are listed between your decisions while they are shown.
"""),
        code("""
shown = 0
base = env.unwrapped
for agent in env.agent_iter():
    obs, reward, termination, truncation, info = env.last()
    if termination or truncation:
        env.step(None)
        continue
    seat = base.possible_agents.index(agent)
    if seat == 0:
        advice = coach.advise(obs, top=3)
        if shown < SHOW_TURNS:
            shown += 1
            show(env, title=f"your decision {shown}")
            display(advice_table(advice))
            print(f"You: {advice[0].move}")
        action = advice[0].action
    else:
        action = bots[seat - 1].act(obs)
        if shown < SHOW_TURNS:
            print(f"{names[seat]}: {base.action_to_str(action)}")
    env.step(action)
print(f"... (showed {shown} of your decisions)")
"""),
        md("""
## The result

Every hand face up at the end, and each seat's reward (+1 the sole winner, 0 a shared
win, -1 the others):
"""),
        code("""
print(base.game.render(base.state, None))
returns = base.game.returns(base.state)
for name, r in zip(names, returns):
    print(f"{name:6} {r:+.0f}")
print("winner:", " and ".join(n for n, r in zip(names, returns) if r == max(returns)))
"""),
        md("""
## The coach as a commentator: Line

`Coach.comment(obs, action)` says whether the coach agrees with a move actually played,
and if not what it would do and why. `agents.play_game` calls `on_move(turn)` before each
move, with the seat, the chosen action, and the player's View and legal moves (what the
agent was given); `Coach.comment_view` comments from exactly that. Here a greedy player
meets a planner and the coach comments on `player_0`'s first moves.
"""),
        code("""
LINE = "line_v0"
line_coach = agents.Coach(LINE)
line_game = cardenvs.game_class(LINE)(2)
comments = []


def on_move(turn):
    if turn.seat == 0 and len(comments) < SHOW_TURNS:
        text = line_game.action_to_str(turn.action)
        comments.append(f"{text:28} {line_coach.comment_view(line_game, turn.view, turn.legal, turn.action)}")


players = [agents.make_agent(LINE, "greedy", seed=1, name="Ada"),
           agents.make_agent(LINE, "planner", seed=2, name="Bo")]
result = agents.play_game(LINE, players, seed=SEED, on_move=on_move)
print("\\n".join(comments))
print("rewards:", result.rewards, "winners:", [players[i].name for i in result.winners])
"""),
    ]


NOTEBOOKS = {
    "01_quickstart.ipynb": quickstart,
    "02_training.ipynb": training,
    "03_benchmarking_opponents.ipynb": benchmarking,
    "04_coach.ipynb": coach,
}


def main() -> None:
    for name, cells in NOTEBOOKS.items():
        nb = new_notebook(cells=cells())
        nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
        nb.metadata["language_info"] = {"name": "python"}
        for i, cell in enumerate(nb.cells):
            cell["id"] = f"{name[:2]}-{i:02d}"
        nbformat.validate(nb)
        nbformat.write(nb, HERE / name)
        print("wrote", HERE / name)


if __name__ == "__main__":
    main()
