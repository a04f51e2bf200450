"""Golden playthroughs: seeded games recorded move by move, compared by a test.

Each game of the table below is played through the PettingZoo AEC environment by a
fixed mix of ladder agents, recorded by the contract kit's recorder
(:func:`cardenvs.testing.record_trace`, written out by
:func:`cardenvs.testing.trace_lines`).  The record holds, for every move: the seat, the action id
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
import json
import sys
from pathlib import Path
from typing import Any

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


def record(stem: str) -> str:
    """Play the golden game ``stem`` and return its record as text: the kit's trace
    (:func:`cardenvs.testing.record_trace`, ladder agents choosing the moves) as lines."""
    import agents
    from cardenvs.testing import record_trace, trace_lines

    spec = {g[0]: g for g in GAMES}[stem]
    _, env_name, levels, seed, options, every = spec
    seats = [agents.make_agent(env_name, lvl, seed=seed * 10 + i) for i, lvl in enumerate(levels)]
    trace = record_trace(env_name, len(levels), seed, policy=lambda seat, obs: seats[seat].act(obs),
                         options=options, every=every)
    opts = json.dumps(options, sort_keys=True, separators=(",", ":"))
    out = [f"# golden playthrough {stem}: {env_name}, seats {', '.join(levels)}, seed {seed}, options {opts}",
           "# move: step seat action notation | digests of each seat's observation | mover's mask",
           *trace_lines(trace)]
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
