#!/usr/bin/env python3
"""Speed of the cardenvs games: agent-steps/s through the AEC loop and raw core moves/s.

    python -m experiments.bench_speed                       # every game, 2 and 4 players
    python -m experiments.bench_speed --envs line_v0 --players 2 3 4 --seconds 2
    python -m experiments.bench_speed --compare             # side by side with the peers
    python -m experiments.bench_speed --memory 100000       # resident memory over many games

``--compare`` runs, in this process, the same random-masked-play loop over OpenSpiel's
``gin_rummy`` through pyspiel (rules only, and with observation tensors), RLCard's
``gin-rummy`` env and PettingZoo's ``connect_four_v3`` AEC loop (the ``bench`` extra
installs the peers; their versions are printed), and adds the ratio of each cardenvs
game to each peer.  Every repeat times each game and each peer back to back; a ratio is
the median over repeats of the ratio within one repeat, which a drifting machine load
disturbs far less than a ratio of medians taken minutes apart.

AEC loop: ``env.last()`` (observation and mask every step), an action drawn with a numpy
generator over ``np.flatnonzero(mask)``, ``env.step``; games restart as they end.
Raw core: ``game.legal_actions`` + ``game.apply`` with no observation.
Each figure is the median of ``--repeats`` timed runs (process CPU time unless
``--clock wall``); the table is printed as markdown
and written to ``results/bench_speed.md``.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from pathlib import Path

import numpy as np

import cardenvs
from agents.cli import HelpFormatter

#: the timer of every measurement: CPU time of this process by default, so that other
#: jobs on a shared machine slow the figures down less (``--clock wall`` for wall time)
clock = time.process_time


def play_one(env, rng: np.random.Generator) -> int:  # noqa: ANN001 - any PettingZoo AEC env
    """Play one reset game to the end through the AEC loop; return the agent-steps."""
    steps = 0
    for _agent in env.agent_iter():
        obs, _r, term, trunc, _i = env.last()
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"].view(bool))  # 0/1 int8 read as bool: 3x faster
        env.step(int(legal[rng.integers(legal.size)]))
        steps += 1
    return steps


def aec_loop(env_name: str, players: int, seconds: float, seed: int) -> tuple[float, float, float]:
    """(agent-steps/s, games/s, steps per game) of random masked play through the AEC loop."""
    env = cardenvs.make(env_name, num_players=players)
    rng = np.random.default_rng(seed)
    steps = games = 0
    start = clock()
    deadline = start + seconds
    game_seed = seed
    while True:
        env.reset(seed=game_seed)
        game_seed += 1
        steps += play_one(env, rng)
        games += 1
        if clock() >= deadline:
            break
    elapsed = clock() - start
    return steps / elapsed, games / elapsed, steps / games


def raw_core(env_name: str, players: int, seconds: float, seed: int) -> float:
    """Moves/s of legal_actions + apply on the rules core alone."""
    game = cardenvs.game_class(env_name)(players)
    rng = np.random.default_rng(seed)
    moves = 0
    start = clock()
    deadline = start + seconds
    while clock() < deadline:
        state = game.new_state(rng)
        while not game.is_terminal(state) and not game.is_truncated(state):
            legal = game.legal_actions(state)
            game.apply(state, legal[int(rng.integers(len(legal)))], rng)
            moves += 1
    return moves / (clock() - start)


def rss_mib() -> float:
    """Resident set size of this process in MiB (Linux /proc, else peak RSS)."""
    try:
        with open("/proc/self/statm") as f:
            pages = int(f.read().split()[1])
        return pages * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError):
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def memory_run(env_name: str, players: int, games: int, seed: int) -> list[tuple[int, float]]:
    """(games played, RSS MiB) at ten checkpoints of ``games`` random games in one env."""
    import gc

    env = cardenvs.make(env_name, num_players=players)
    rng = np.random.default_rng(seed)
    marks = {max(1, games * k // 10) for k in range(1, 11)}
    out = [(0, rss_mib())]
    try:
        from tqdm import tqdm

        it = tqdm(range(1, games + 1), desc=f"memory {env_name} {players}p", unit="game", leave=False)
    except ImportError:  # pragma: no cover
        it = range(1, games + 1)
    for g in it:
        env.reset(seed=seed + g)
        play_one(env, rng)
        if g in marks:
            gc.collect()
            out.append((g, rss_mib()))
    return out


def pz_connect_four(seconds: float, seed: int) -> tuple[float, float, float]:
    """PettingZoo's connect_four_v3 through the same AEC loop."""
    from pettingzoo.classic import connect_four_v3

    env = connect_four_v3.env()
    rng = np.random.default_rng(seed)
    steps = games = 0
    start = clock()
    while True:
        env.reset(seed=seed + games)
        steps += play_one(env, rng)
        games += 1
        if clock() - start >= seconds:
            break
    elapsed = clock() - start
    return steps / elapsed, games / elapsed, steps / games


def openspiel_gin(seconds: float, seed: int, tensors: bool) -> tuple[float, float, float]:
    """OpenSpiel's C++ gin_rummy from Python: chance sampled, random legal moves."""
    import pyspiel

    game = pyspiel.load_game("gin_rummy")
    rng = np.random.default_rng(seed)
    steps = games = 0
    start = clock()
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rng.integers(len(outcomes)))][0])
                continue
            p = state.current_player()
            if tensors:
                state.observation_tensor(p)
                state.legal_actions_mask(p)
            legal = state.legal_actions(p)
            state.apply_action(legal[int(rng.integers(len(legal)))])
            steps += 1
        games += 1
        if clock() - start >= seconds:
            break
    elapsed = clock() - start
    return steps / elapsed, games / elapsed, steps / games


def rlcard_gin(seconds: float, seed: int) -> tuple[float, float, float]:
    """RLCard's gin-rummy env (observations extracted every step)."""
    import rlcard

    env = rlcard.make("gin-rummy", config={"seed": seed})
    rng = np.random.default_rng(seed)
    steps = games = 0
    start = clock()
    while True:
        state, _player = env.reset()
        while not env.is_over():
            legal = list(state["legal_actions"].keys())
            state, _player = env.step(legal[int(rng.integers(len(legal)))])
            steps += 1
        games += 1
        if clock() - start >= seconds:
            break
    elapsed = clock() - start
    return steps / elapsed, games / elapsed, steps / games


PEERS = {
    "OpenSpiel gin_rummy (rules only)": lambda sec, seed: openspiel_gin(sec, seed, False),
    "OpenSpiel gin_rummy (+obs tensors)": lambda sec, seed: openspiel_gin(sec, seed, True),
    "RLCard gin-rummy": rlcard_gin,
    "PettingZoo connect_four_v3": pz_connect_four,
}


def peer_versions() -> str:
    """Versions of the peer libraries that are installed."""
    from importlib.metadata import PackageNotFoundError, version

    out = []
    for pkg in ("open_spiel", "rlcard", "pettingzoo", "gymnasium"):
        try:
            out.append(f"{pkg} {version(pkg)}")
        except PackageNotFoundError:
            out.append(f"{pkg} (not installed)")
    return ", ".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=HelpFormatter)
    ap.add_argument("--envs", nargs="*", default=list(cardenvs.ENVS))
    ap.add_argument("--players", nargs="*", type=int, default=[2, 4])
    ap.add_argument("--seconds", type=float, default=1.0, help="length of one timed run")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--out", default=str(Path(__file__).resolve().parents[1] / "results" / "bench_speed.md"))
    ap.add_argument("--compare", action="store_true", help="also time the peer libraries")
    ap.add_argument("--clock", choices=["cpu", "wall"], default="cpu",
                    help="cpu: process CPU time (robust on shared machines); wall: elapsed time")
    ap.add_argument("--memory", type=int, default=0, metavar="GAMES",
                    help="also track resident memory over this many games per game and seat count")
    args = ap.parse_args()
    global clock
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    try:
        from tqdm import tqdm
    except ImportError:  # pragma: no cover - tqdm comes with the dev extra
        class tqdm:  # type: ignore[no-redef]  # the bar's calls, doing nothing
            def __init__(self, *_a: object, **_k: object) -> None: ...
            def update(self, _n: int) -> None: ...
            def close(self) -> None: ...

    jobs = [(e, p) for e in args.envs for p in args.players
            if cardenvs.game_class(e).min_players <= p <= cardenvs.game_class(e).max_players]
    peer_fns = dict(PEERS) if args.compare else {}
    for label in list(peer_fns):
        try:
            peer_fns[label](0.0, 0)  # one game, to load the library
        except ImportError as err:
            print(f"skipping {label}: {err} (pip install -e '.[bench]')")
            del peer_fns[label]
    # Repeats are the outer loop: each repeat times every config and every peer back to
    # back, so a ratio is taken between figures measured within seconds of each other;
    # on a shared machine whose load drifts, the median of these ratios is what holds.
    aec: dict[tuple[str, int], list[tuple[float, float, float]]] = {j: [] for j in jobs}
    raw: dict[tuple[str, int], list[float]] = {j: [] for j in jobs}
    peer_runs: dict[str, list[tuple[float, float, float]]] = {label: [] for label in peer_fns}
    bar = tqdm(total=args.repeats * (2 * len(jobs) + len(peer_fns)), desc="benchmark", unit="run")
    for r in range(args.repeats):
        for job in jobs:
            aec[job].append(aec_loop(*job, args.seconds, 1000 * r))
            raw[job].append(raw_core(*job, args.seconds, 1000 * r))
            bar.update(2)
        for label, fn in peer_fns.items():
            peer_runs[label].append(fn(args.seconds, 1000 * r))
            bar.update(1)
    bar.close()
    med = statistics.median
    rows = [
        (env_name, players, med(a[0] for a in aec[(env_name, players)]),
         med(a[1] for a in aec[(env_name, players)]), med(a[2] for a in aec[(env_name, players)]),
         med(raw[(env_name, players)]))
        for env_name, players in jobs
    ]
    peers: list[tuple[str, float, float, float]] = [
        (label, med(x[0] for x in runs), med(x[1] for x in runs), med(x[2] for x in runs))
        for label, runs in peer_runs.items()]

    def ratio(job: tuple[str, int], label: str) -> float:
        """Median over repeats of (cardenvs steps/s) / (peer steps/s) in the same repeat."""
        return med(a[0] / b[0] for a, b in zip(aec[job], peer_runs[label]))

    lines = [
        f"Python {platform.python_version()}, numpy {np.__version__}, {platform.machine()}; "
        f"{peer_versions()}; median of {args.repeats} runs of {args.seconds:g} s "
        f"({'process CPU' if args.clock == 'cpu' else 'wall'} time) each.",
        "",
        "| env | players | AEC agent-steps/s | games/s | steps/game | raw core moves/s |"
        + "".join(f" x {label} |" for label, *_ in peers),
        "|---|---:|---:|---:|---:|---:|" + "---:|" * len(peers),
    ]
    for env_name, p, sps, gps, spg, core in rows:
        ratios = "".join(f" {ratio((env_name, p), label):.2f} |" for label, *_ in peers)
        lines.append(f"| {env_name} | {p} | {sps:,.0f} | {gps:,.1f} | {spg:,.1f} | {core:,.0f} |{ratios}")
    if peers:
        lines += ["", "| peer | agent-steps/s | games/s | steps/game |", "|---|---:|---:|---:|"]
        for label, sps, gps, spg in peers:
            lines.append(f"| {label} | {sps:,.0f} | {gps:,.1f} | {spg:,.1f} |")
        lines += ["", "Ratio columns: cardenvs AEC agent-steps/s divided by the peer's agent-steps/s "
                  "in the same repeat (the two measured back to back), median over the repeats."]
    if args.memory:
        lines += ["", f"Resident memory over {args.memory:,} random games in one env (MiB, after gc):", "",
                  "| env | players | start | after 10% | end | growth 10%->end |",
                  "|---|---:|---:|---:|---:|---:|"]
        for env_name, p, *_ in rows:
            marks = memory_run(env_name, p, args.memory, 7)
            lines.append(f"| {env_name} | {p} | {marks[0][1]:.1f} | {marks[1][1]:.1f} | {marks[-1][1]:.1f} | "
                         f"{marks[-1][1] - marks[1][1]:+.1f} |")
    table = "\n".join(lines)
    print(table)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(table + "\n")
    print(f"\nwritten to {out}")


if __name__ == "__main__":
    main()
