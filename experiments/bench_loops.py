#!/usr/bin/env python3
"""The README's loop against the bench loop: what drawing the action costs per step.

    python -m experiments.bench_loops                         # every game, 2 to 4 players
    python -m experiments.bench_loops --envs line_v0 --players 3 --seconds 1 --repeats 7

Three loops over the same seeded games, agent-steps/s through the AEC loop
(``env.last()``, observation and mask every step, ``env.step``), differing only in how
the action is drawn from the mask:

* **README loop**: ``env.action_space(agent).sample(obs["action_mask"])``, the standard
  PettingZoo loop of the README (the env's :class:`~cardenvs.core.spaces.FastDiscrete`);
* **gymnasium Discrete**: the same loop with the env's action spaces swapped for plain
  ``gymnasium.spaces.Discrete`` ones (gymnasium's own sampler: the same draws, slower);
* **bench loop**: ``np.flatnonzero`` of the mask read as bool and ``rng.integers``,
  the loop of :mod:`experiments.bench_speed`.

Each repeat times the three loops back to back for every game and seat count (the
order rotating between repeats); a figure is the median over the repeats (process CPU
time unless ``--clock wall``), and a ratio is the median over the repeats of the ratio
within one repeat, which a drifting machine load disturbs far less.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

import cardenvs
from agents.cli import HelpFormatter
from experiments.bench_speed import play_one
from experiments.reporting import command_line, publish

#: the timer of every measurement (``--clock``)
clock: Callable[[], float] = time.process_time


def readme_game(env: Any, _rng: np.random.Generator) -> int:
    """Play one reset game with the README's loop; return the agent-steps that chose an action."""
    steps = 0
    for agent in env.agent_iter():
        obs, _reward, term, trunc, _info = env.last()
        action = None if term or trunc else env.action_space(agent).sample(obs["action_mask"])
        env.step(action)
        steps += action is not None
    return steps


def plain_spaces(env: Any) -> None:
    """Give ``env`` plain ``gymnasium.spaces.Discrete`` action spaces (gymnasium's sample)."""
    base = env.unwrapped
    base._action_spaces = {a: gymnasium.spaces.Discrete(space.n)
                           for a, space in base._action_spaces.items()}


#: loop label -> (how one game is played, how the env is prepared)
LOOPS: dict[str, tuple[Callable[[Any, np.random.Generator], int], Callable[[Any], None] | None]] = {
    "README loop (action_space.sample(mask))": (readme_game, None),
    "README loop, plain gymnasium Discrete": (readme_game, plain_spaces),
    "bench loop (np.flatnonzero + rng.integers)": (play_one, None),
}


def time_loop(label: str, env_name: str, players: int, seconds: float, seed: int) -> float:
    """Agent-steps/s of one loop over games seeded ``seed``, ``seed + 1``, ... for ``seconds``."""
    game_fn, prepare = LOOPS[label]
    env = cardenvs.make(env_name, num_players=players)
    if prepare is not None:
        prepare(env)
    rng = np.random.default_rng(seed)
    steps = 0
    game_seed = seed
    start = clock()
    while True:
        env.reset(seed=game_seed)
        game_seed += 1
        steps += game_fn(env, rng)
        if clock() - start >= seconds:
            break
    return steps / (clock() - start)


def main(argv: list[str] | None = None) -> None:
    """Time the loops and print (and write, with ``--out``) the markdown table."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=HelpFormatter)
    ap.add_argument("--envs", nargs="*", default=list(cardenvs.ENVS))
    ap.add_argument("--players", nargs="*", type=int, default=[2, 3, 4])
    ap.add_argument("--seconds", type=float, default=0.5, help="length of one timed run")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--clock", choices=["cpu", "wall"], default="cpu",
                    help="cpu: process CPU time (robust on shared machines); wall: elapsed time")
    ap.add_argument("--out", default=None, help="also write the table to this file")
    args = ap.parse_args(argv)
    global clock
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    jobs = [(e, p) for e in args.envs for p in args.players
            if cardenvs.game_class(e).min_players <= p <= cardenvs.game_class(e).max_players]
    labels = list(LOOPS)
    runs: dict[tuple[str, int, str], list[float]] = {(*job, label): [] for job in jobs for label in labels}
    for r in range(args.repeats):
        for env_name, players in jobs:
            shift = r % len(labels)  # rotate the order, so no loop always runs first
            for label in labels[shift:] + labels[:shift]:
                runs[(env_name, players, label)].append(
                    time_loop(label, env_name, players, args.seconds, 1000 * r))
    med = statistics.median
    readme, plain, bench = labels

    def ratio(env_name: str, players: int, a: str, b: str) -> float:
        """Median over repeats of loop ``a``'s steps/s over loop ``b``'s in the same repeat."""
        return med(x / y for x, y in zip(runs[(env_name, players, a)], runs[(env_name, players, b)]))

    lines = [
        f"Command: `{command_line('experiments.bench_loops', argv)}`",
        "",
        f"Python {platform.python_version()}, numpy {np.__version__}, gymnasium {gymnasium.__version__}; "
        f"median of {args.repeats} runs of {args.seconds:g} s "
        f"({'process CPU' if args.clock == 'cpu' else 'wall'} time) each; agent-steps/s.",
        "",
        f"| env | players | {readme} | {plain} | {bench} | README / bench | README / plain Discrete |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for env_name, players in jobs:
        cells = " | ".join(f"{med(runs[(env_name, players, label)]):,.0f}" for label in labels)
        lines.append(f"| {env_name} | {players} | {cells} | {ratio(env_name, players, readme, bench):.2f} "
                     f"| {ratio(env_name, players, readme, plain):.2f} |")
    lines += ["", "Ratios: the median over the repeats of the two loops' steps/s within one repeat."]
    publish("\n".join(lines) + "\n", Path(args.out) if args.out else None)


if __name__ == "__main__":
    main()
