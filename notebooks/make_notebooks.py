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
# 02 · Training with MaskablePPO

A few lines of sb3-contrib's `MaskablePPO` on the single-agent wrapper: the learner
plays Line (2 players) against a random opponent, and we

1. train in chunks and evaluate against random after each chunk (a learning curve);
2. export the policy to plain numpy arrays (`agents.trained.export_sb3`);
3. play it without torch as `TrainedAgent(path=...)` through the tournament code.

The budget is set by `STEPS` (environment variable `CARDENVS_NB_STEPS`, default 20 000,
a couple of minutes on a CPU). That is enough to beat random clearly but far from a
strong player; `experiments/train.py` is the full training script (opponent pools,
self-play, vector environments, checkpoints).
"""),
        code("""
import os
from pathlib import Path

STEPS = int(os.environ.get("CARDENVS_NB_STEPS", 20000))       # training steps in all
EVAL_GAMES = int(os.environ.get("CARDENVS_NB_GAMES", 100))    # games per evaluation
N_ENVS = 8                                                    # game copies stepped together
N_STEPS = 32 if STEPS < 8192 else 128                         # rollout length per copy and update
CHUNK = max(N_STEPS * N_ENVS, STEPS // 8)                     # steps between evaluations
OUT = Path(os.environ.get("CARDENVS_NB_OUT", "results")) / "02_training"
OUT.mkdir(parents=True, exist_ok=True)
print(f"{STEPS} steps in chunks of {CHUNK}, {EVAL_GAMES} evaluation games; files in {OUT}")
"""),
        code("""
import matplotlib.pyplot as plt
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.logger import configure

import agents
from agents.sparse_policy import fast_ppo_kwargs
from agents.tournament import Match, run_matches
from agents.trained import TrainedAgent, export_sb3
from cardenvs.core.wrappers import SingleAgentEnv
from cardenvs.vector import make_vec_env

torch.set_num_threads(1)  # small networks train faster on one thread
"""),
        md("""
## The environment

`SingleAgentEnv` seats the learner against fixed agents (here one random player) and
exposes `action_masks()` for `MaskablePPO`. `learner_seat=None` draws the learner's seat
at each reset, so the policy learns to play first and second.
"""),
        code("""
ENV = "line_v0"
env = SingleAgentEnv(ENV, opponents=[agents.make_agent(ENV, "random", seed=0)],
                     learner_seat=None, num_players=2)
obs, info = env.reset(seed=0)
print("observation", obs.shape, "actions", env.action_space.n,
      "legal now", int(env.action_masks().sum()), info)
"""),
        md("""
For training, `make_vec_env` steps `N_ENVS` seeded copies together in this process (one
SB3 `VecEnv`, every copy's action mask in one array). `fast_ppo_kwargs()` picks a policy
whose action head is computed only at the legal moves: the same networks and
probabilities as `"MlpPolicy"`, several times faster on Line's 4014 action ids (README,
*Training throughput*).
"""),
        code("""
venv = make_vec_env(ENV, N_ENVS, lambda i: [agents.make_agent(ENV, "random", seed=100 + i)], seed=0)
print(venv.num_envs, "copies; masks", venv.env_method("action_masks").shape)
"""),
        md("""
## Evaluation

A plain loop: the model picks the most probable legal action (`deterministic=True`) and
a game counts 1 for a win, ½ for a shared win, 0 for a loss. The evaluation environment
has its own random opponent and seeds, so it never disturbs training.
"""),
        code("""
eval_env = SingleAgentEnv(ENV, opponents=[agents.make_agent(ENV, "random", seed=1)],
                          learner_seat=None, num_players=2)


def win_share(model, games=EVAL_GAMES, seed=10_000):
    score = 0.0
    for g in range(games):
        obs, _ = eval_env.reset(seed=seed + g)
        done, reward = False, 0.0
        while not done:
            action, _ = model.predict(obs, action_masks=eval_env.action_masks(), deterministic=True)
            obs, reward, terminated, truncated, _ = eval_env.step(int(action))
            done = terminated or truncated
        score += 1.0 if reward > 0 else (0.5 if reward == 0 and terminated else 0.0)
    return score / games
"""),
        md("""
## Training in chunks

`learn(CHUNK, reset_num_timesteps=False)` continues the same run, so evaluating between
calls gives the learning curve (a callback would do the same inside one `learn`).
"""),
        code("""
model = MaskablePPO(env=venv, n_steps=N_STEPS, batch_size=64, n_epochs=4, learning_rate=3e-4,
                    ent_coef=0.01, gamma=0.995, seed=0, verbose=0, **fast_ppo_kwargs())
model.set_logger(configure(str(OUT / "logs"), ["csv"]))  # training statistics: logs/progress.csv
curve = [(0, win_share(model))]
print(f"{0:>7} steps: win share vs random {curve[-1][1]:.0%}")
while model.num_timesteps < STEPS:
    model.learn(CHUNK, reset_num_timesteps=False)
    curve.append((model.num_timesteps, win_share(model)))
    print(f"{model.num_timesteps:>7} steps: win share vs random {curve[-1][1]:.0%}")
"""),
        code("""
steps, shares = zip(*curve)
fig, ax = plt.subplots(figsize=(6, 3.5))
ax.plot(steps, shares, marker="o")
ax.axhline(0.5, color="grey", lw=0.8, ls="--")
ax.set_ylim(0, 1)
ax.set_xlabel("training steps")
ax.set_ylabel("win share vs random")
ax.set_title(f"MaskablePPO on {ENV} (2 players), {EVAL_GAMES} games per point")
fig.tight_layout()
fig.savefig(OUT / "learning_curve.png", dpi=110)
plt.show()
"""),
        md("""
## Export to numpy and play without torch

`export_sb3` copies the policy branch of the MLP and the action head into a
`NumpyPolicy`; saved as `.npz`, it is replayed by `TrainedAgent` (a masked forward pass
in numpy). Its choice matches the torch policy's deterministic action.
"""),
        code("""
policy_file = OUT / f"{ENV}_policy.npz"
export_sb3(model, meta={"env": ENV, "players": 2, "steps": model.num_timesteps}).save(policy_file)
bot = TrainedAgent(ENV, path=policy_file)
print(bot.policy.activation, [w.shape for w in bot.policy.weights], bot.policy.meta)

agree = 0
obs, _ = eval_env.reset(seed=123)
for _ in range(20):
    mask = eval_env.action_masks()
    torch_action, _ = model.predict(obs, action_masks=mask, deterministic=True)
    numpy_action = bot.act({"observation": obs, "action_mask": mask.astype(np.int8)})
    agree += int(torch_action) == numpy_action
    obs, _, terminated, truncated, _ = eval_env.step(int(torch_action))
    if terminated or truncated:
        obs, _ = eval_env.reset()
print(f"numpy and torch agree on {agree} of 20 decisions")
"""),
        md("""
Any ladder level accepts `"policy:<file.npz>"`, so the tournament code can seat the
exported policy: here it plays `EVAL_GAMES` games against `random` and `greedy`, seats
alternating, on the same deals.
"""),
        code("""
me = f"policy:{policy_file}"
for level in ["random", "greedy"]:
    matches = [Match(ENV, (me, level) if g % 2 == 0 else (level, me), seed=20_000 + g // 2)
               for g in range(EVAL_GAMES)]
    results = run_matches(matches, workers=1, progress=False)
    score = 0.0
    for res in results:
        seat = res.match.seats.index(me)
        best = max(res.rewards)
        winners = [i for i, r in enumerate(res.rewards) if r == best]
        score += 1 / len(winners) if seat in winners else 0.0
    print(f"trained policy vs {level:7}: {score / len(results):.0%} of {len(results)} games")
"""),
        md("""
And one whole game with `agents.play_game` (the library's play loop), the last moves shown:
"""),
        code("""
result = agents.play_game(ENV, [bot, agents.make_agent(ENV, "random", seed=5)], seed=5)
print("rewards", result.rewards, "in", result.steps, "moves")
for seat, move in result.moves[-6:]:
    print(f"  player_{seat}: {move}")
"""),
    ]


def benchmarking() -> list[nbformat.NotebookNode]:
    return [
        md("""
# 03 · Benchmarking the opponents

`agents.tournament.tournament(...)` plays seeded games between ladder levels with the
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
from agents.tournament import tournament

GAMES = int(os.environ.get("CARDENVS_NB_GAMES", 100))
WORKERS = int(os.environ.get("CARDENVS_NB_WORKERS", min(4, os.cpu_count() or 1)))
OUT = Path(os.environ.get("CARDENVS_NB_OUT", "results")) / "03_benchmarking"
OUT.mkdir(parents=True, exist_ok=True)
print(f"{GAMES} games per pairing, {WORKERS} worker process(es); plots in {OUT}")
"""),
        md("""
## The ladder

Every game has the same levels, weakest first (a `trained` level appears when a trained
policy is shipped for the game):
"""),
        code("""
for name in ["line_v0", "lineit_v0", "rummy432_v0"]:
    print(f"{name:12}", agents.levels(name))
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
