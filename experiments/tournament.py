#!/usr/bin/env python3
"""Play a tournament between ladder levels and report win rates and ratings.

    python -m experiments.tournament --env line_v0 --players 2 --games 200
    python -m experiments.tournament --env rummy432_v0 --players 4 --games 100 --workers 2
    python -m experiments.tournament --env line_v0 --games 400 --ray-address auto

Writes ``<out>/<env>_<players>p.md`` (markdown tables) and ``.png`` (win-rate matrix
and ratings); prints the tables.  Seats are rotated over the same deals.  Games run in
``--workers`` processes, or on Ray (``--backend ray``, ``--ray-address``), with the
same results.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

import agents
import cardenvs
from agents.cli import HelpFormatter
from agents.evaluation.ray_backend import add_backend_arguments, backend_of
from agents.evaluation.tournament import analyse, run_matches, schedule


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=HelpFormatter)
    ap.add_argument("--env", default="line_v0", choices=list(cardenvs.ENVS))
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--levels", nargs="*", default=None, help="levels to play (default: the whole ladder)")
    ap.add_argument("--games", type=int, default=100, help="games per pairing (2p) or per group (3+ players)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    add_backend_arguments(ap)
    ap.add_argument("--coupled-draws", action="store_true",
                    help="deal each deal's face-down cards out to the seats in advance, so that its "
                         "rotations hand a seat the same draws (agents.measure.coupling)")
    ap.add_argument("--out", default=str(Path(__file__).resolve().parents[1] / "results"),
                    help="folder of the tables (the repository's results/, whatever the working directory)")
    args = ap.parse_args(argv)
    backend, address = backend_of(ap, args)
    levels = args.levels or agents.levels(args.env)
    matches = schedule(args.env, levels, args.players, args.games, args.seed,
                       coupled_draws=args.coupled_draws)
    report = analyse(run_matches(matches, args.workers, backend=backend, ray_address=address), levels)
    text = report.markdown()
    print(text)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    stem = out / f"{args.env}_{args.players}p"
    stem.with_suffix(".md").write_text(text + "\n")
    report.plot(str(stem.with_suffix(".png")))
    print(f"\nwritten to {stem}.md and {stem}.png")


if __name__ == "__main__":
    main()
