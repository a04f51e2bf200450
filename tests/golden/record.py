"""Golden playthroughs: seeded games recorded move by move, compared by a test.

Each game of the table below is played through the PettingZoo AEC environment by a
fixed mix of ladder agents.  The record holds, for every move: the seat, the action id
and its notation, a digest of every seat's observation and of the mover's action mask;
the position as JSON every few moves; and the rewards and infos at the end.  A change
to the rules, the observation, the notation, the JSON or an agent's choices shows up as
a diff of these text files.

    python -m tests.golden.record          # regenerate every file
    python -m tests.golden.record --check  # compare, as the test does

Any intended change regenerates the files in a commit of its own that says why.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent

#: (file stem, env name, seat levels, seed, game options, JSON every k moves)
GAMES: tuple[tuple[str, str, tuple[str, ...], int, dict[str, Any], int], ...] = (
    ("line_v0_2p", "line_v0", ("expert", "planner"), 11, {}, 5),
    ("line_v0_3p", "line_v0", ("planner", "greedy", "random"), 12, {"joker_points": 10}, 5),
    ("line_v0_4p", "line_v0", ("greedy", "planner", "random", "trained"), 13, {}, 5),
    ("lineit_v0_2p", "lineit_v0", ("planner", "expert"), 21, {}, 10),
    ("lineit_v0_3p", "lineit_v0", ("greedy", "planner", "trained"), 22, {}, 10),
    ("lineit_v0_4p", "lineit_v0", ("random", "greedy", "planner", "greedy"), 23, {}, 10),
    ("rummy432_v0_2p", "rummy432_v0", ("expert", "planner"), 31, {"rounds_to_win": 2}, 25),
    ("rummy432_v0_3p", "rummy432_v0", ("planner", "greedy", "trained"), 32,
     {"pack": "four", "hand_size": 8, "run_out_limit": 2}, 25),
    ("rummy432_v0_4p", "rummy432_v0", ("greedy", "planner", "random", "planner"), 33,
     {"pack": "three", "hand_size": 6, "rounds_to_win": 2}, 25),
)


def _digest(a: np.ndarray) -> str:
    return hashlib.sha1(np.ascontiguousarray(a).tobytes()).hexdigest()[:12]


def _json(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), default=str)


def record(stem: str) -> str:
    """Play the golden game ``stem`` and return its record as text."""
    import agents
    import cardenvs

    spec = {g[0]: g for g in GAMES}[stem]
    _, env_name, levels, seed, options, every = spec
    env = cardenvs.make(env_name, num_players=len(levels), **options)
    seats = [agents.make_agent(env_name, lvl, seed=seed * 10 + i) for i, lvl in enumerate(levels)]
    env.reset(seed=seed)
    base = env.unwrapped
    out = [f"# golden playthrough {stem}: {env_name}, seats {', '.join(levels)}, seed {seed}, "
           f"options {_json(options)}",
           "# move: step seat action notation | digests of each seat's observation | mover's mask"]
    step = 0
    for agent_id in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            out.append(f"end {agent_id} reward {reward:+.3f} term {term} trunc {trunc} info {_json(info)}")
            env.step(None)
            continue
        seat = base.possible_agents.index(agent_id)
        if step % every == 0:
            out.append(f"state {_json(env.state_json())}")
        action = seats[seat].act(obs)
        obs_digests = " ".join(_digest(env.observe(a)["observation"]) for a in base.possible_agents)
        out.append(f"{step} p{seat} {action} {base.action_to_str(action)} | {obs_digests} | "
                   f"{_digest(obs['action_mask'])}")
        env.step(action)
        step += 1
    out.append(f"final {_json(env.state_json())}")
    return "\n".join(out) + "\n"


def path(stem: str) -> Path:
    """The file of a golden game."""
    return HERE / f"{stem}.txt"


def main(argv: list[str] | None = None) -> int:
    """Regenerate the golden files, or compare them with ``--check``."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="compare instead of writing")
    ap.add_argument("stems", nargs="*", help="only these games (default: all)")
    args = ap.parse_args(argv)
    bad = 0
    for stem in args.stems or [g[0] for g in GAMES]:
        text = record(stem)
        if args.check:
            same = path(stem).read_text() == text
            bad += not same
            print(f"{stem}: {'same' if same else 'DIFFERENT'}")
        else:
            path(stem).write_text(text)
            print(f"{stem}: {text.count(chr(10))} lines written")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
