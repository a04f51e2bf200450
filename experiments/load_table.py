"""Load test of the browser table (``cardtable``) on localhost.

    python -m experiments.load_table --rooms 100 --seconds 45 --game rummy432_v0 --data /tmp/load

Starts the server in a subprocess on a free port with a data folder (``--data DIR``, kept
afterwards to look at; a temporary one by default), opens
``--rooms`` rooms, each with ``--people`` scripted people (WebSocket clients that play a
random legal move as soon as it is their turn) and computer players of ``--level`` in the
other seats, and lets them play for ``--seconds`` (a room that finishes a game asks for a
rematch).  Reports:

* moves/s: every move played in every room (people's and computers'), from the tables seen;
* the round trip of a person's move: from sending it to receiving the table that shows it
  (the server checks, applies, saves and sends it; no computer thinking is included, since
  the table showing a person's move is sent before any computer thinks), p50/p95/max, over
  all moves and over those sent after the first ``--warm-up`` seconds (at the start every
  room's person moves at the same instant: a burst of the people's own moves, which says
  nothing of how the computers' thinking delays a person's);
* the server's resident memory (its own process and its worker processes) at the end and
  its peak;
* the data folder's size (the SQLite file, its WAL and shared-memory files) at the end, and
  its peak and the WAL's peak while the rooms played: under sustained writes the WAL must
  be folded back into the file, not grow.

One client address opens every room and socket, so the server is started with its quotas
per address (``--rooms-per-hour``, ``--conns-per-address``, ``--http-conns-per-address``,
``--http-rate``, ``--http-burst``, ``--waiting-rooms-per-address``) raised to fit.

Computer moves are unpaced (``--bot-delay 0``) by default: the rooms play as fast as the
server allows, the worst case for a person's latency.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shlex
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from websockets.asyncio.client import connect

from agents.cli import HelpFormatter

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def rss_mb(pid: int) -> float:
    """Resident memory of a process, in MiB (0 if it is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def children(pid: int) -> list[int]:
    """The process ids of a process's children (Linux)."""
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    out = [int(x) for x in text.split()]
    return out + [g for c in out for g in children(c)]


def post_json(url: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST a JSON body; the JSON answer."""
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as res:
        out: dict[str, Any] = json.loads(res.read())
        return out


@dataclass
class Stats:
    """What the scripted people measured."""

    latencies: list[float] = field(default_factory=list)
    #: when each of the latencies' moves was sent (perf_counter)
    sent_at: list[float] = field(default_factory=list)
    #: when the rooms started playing (perf_counter)
    t0: float = 0.0
    moves: int = 0
    person_moves: int = 0
    games: int = 0
    errors: list[str] = field(default_factory=list)


class Gate:
    """Everyone waits until ``parties`` have arrived (``asyncio.Barrier`` is Python 3.11+;
    the package supports 3.10)."""

    def __init__(self, parties: int) -> None:
        self.parties = parties
        self.arrived = 0
        self.open = asyncio.Event()

    async def wait(self) -> None:
        """Arrive and wait for the others."""
        self.arrived += 1
        if self.arrived >= self.parties:
            self.open.set()
        await self.open.wait()


def folder_size(path: Path) -> tuple[float, float]:
    """``(all files, the WAL)`` of a data folder, in MiB."""
    total = wal = 0
    for f in path.iterdir():
        try:
            size = f.stat().st_size
        except OSError:  # removed meanwhile (the shared-memory file at a checkpoint)
            continue
        total += size
        if f.name.endswith("-wal"):
            wal += size
    return total / 2**20, wal / 2**20


async def person(ws_url: str, room: str, host_token: str | None, seat: int, stats: Stats,
                 stop: asyncio.Event, ready: Gate, counts_moves: bool, seed: int) -> None:
    """One scripted person: sit, (host: start,) and answer every turn with a random move."""
    rng = np.random.default_rng(seed)
    async with connect(f"{ws_url}/ws/{room}", max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": None, "host_token": host_token}))
        await ws.send(json.dumps({"type": "sit", "seat": seat, "name": f"P{seat}"}))
        while True:  # until seated
            msg = json.loads(await ws.recv())
            if msg["type"] == "seated":
                break
        await ready.wait()
        if host_token is not None:
            await ws.send(json.dumps({"type": "start"}))
        sent: tuple[int, int, float] | None = None  # (game, step, time) of the move in flight
        last_step = (-1, -1)
        while not stop.is_set():
            try:
                text = await asyncio.wait_for(ws.recv(), timeout=0.5)
            except asyncio.TimeoutError:
                continue
            now = time.perf_counter()
            msg = json.loads(text)
            if msg["type"] == "error":
                stats.errors.append(msg["message"])
                continue
            if msg["type"] != "table":
                continue
            key = (msg["game_index"], msg["step"])
            if counts_moves and key > last_step and msg["step"] > 0:
                stats.moves += msg["step"] - (last_step[1] if key[0] == last_step[0] else 0)
            last_step = max(last_step, key)
            if sent is not None and (msg["game_index"], msg["step"]) == (sent[0], sent[1] + 1):
                stats.latencies.append(now - sent[2])
                stats.sent_at.append(sent[2])
                sent = None
            if msg["result"] is not None:
                if host_token is not None and counts_moves:
                    stats.games += 1
                    await ws.send(json.dumps({"type": "rematch"}))
                continue
            if msg["moves"]:
                move = msg["moves"][int(rng.integers(len(msg["moves"])))]
                sent = (msg["game_index"], msg["step"], time.perf_counter())
                await ws.send(json.dumps({"type": "move", "id": move["id"], "step": msg["step"]}))
                stats.person_moves += 1


@dataclass
class Peaks:
    """The largest values sampled while the rooms played (MiB)."""

    rss: float = 0.0
    data: float = 0.0
    wal: float = 0.0


async def run(args: argparse.Namespace, base: str, pid: int, data: Path) -> tuple[Stats, float, Peaks]:
    """Open the rooms, play for ``args.seconds``; ``(stats, seconds played, peaks)``."""
    ws_url = base.replace("http", "ws", 1)
    stats = Stats()
    stop = asyncio.Event()
    ready = Gate(args.rooms * args.people + 1)
    tasks = []
    loop = asyncio.get_running_loop()
    for r in range(args.rooms):
        body = {"game": args.game, "num_players": args.players, "level": args.level}
        info = await loop.run_in_executor(None, post_json, base + "/api/rooms", body)
        for p in range(args.people):
            host = info["host_token"] if p == 0 else None
            tasks.append(asyncio.create_task(
                person(ws_url, info["room"], host, p, stats, stop, ready, p == 0, seed=r * 10 + p)))
    await ready.wait()
    t0 = stats.t0 = time.perf_counter()
    peaks = Peaks()
    while time.perf_counter() - t0 < args.seconds:
        await asyncio.sleep(0.5)
        peaks.rss = max(peaks.rss, rss_mb(pid) + sum(rss_mb(c) for c in children(pid)))
        size, wal = folder_size(data)
        peaks.data, peaks.wal = max(peaks.data, size), max(peaks.wal, wal)
    elapsed = time.perf_counter() - t0
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    return stats, elapsed, peaks


def report(args: argparse.Namespace, stats: Stats, elapsed: float, peaks: Peaks,
           pid_rss: tuple[float, float], data_end: tuple[float, float]) -> None:
    """Print the results as a table, one row for the run (rich when installed), and the
    command that reproduces it."""
    lat = np.asarray(stats.latencies) * 1000 if stats.latencies else np.zeros(1)
    later = [x for x, at in zip(stats.latencies, stats.sent_at) if at - stats.t0 >= args.warm_up]
    steady = np.asarray(later) * 1000 if later else np.zeros(1)
    columns = [
        ("game, seats, level", f"{args.game}, {args.players}, {args.level}"),
        ("rooms x people", f"{args.rooms} x {args.people}"),
        ("bot delay, workers (nice)", f"{args.bot_delay:g} s, {args.workers} ({args.worker_nice})"),
        ("seconds", f"{elapsed:.1f}"),
        ("moves/s", f"{stats.moves / elapsed:.0f}"),
        ("games", f"{stats.games}"),
        ("person's move p50 / p95 / max (ms)",
         f"{np.percentile(lat, 50):.1f} / {np.percentile(lat, 95):.1f} / {lat.max():.0f}"),
        (f"after the first {args.warm_up:g} s",
         f"{np.percentile(steady, 50):.1f} / {np.percentile(steady, 95):.1f} / {steady.max():.0f}"),
        ("data folder at the end (MiB)", f"{data_end[0]:.1f}"),
        ("data peak / WAL peak (MiB)", f"{peaks.data:.1f} / {peaks.wal:.1f}"),
        ("server memory at the end (MiB, main + workers)", f"{pid_rss[0]:.0f} + {pid_rss[1]:.0f}"),
        ("memory peak (MiB)", f"{peaks.rss:.0f}"),
        ("errors", f"{len(stats.errors)}"),
    ]
    try:
        from rich.console import Console
        from rich.table import Table

        table = Table(title="cardtable load test")
        for name, _ in columns:
            table.add_column(name, justify="right")
        table.add_row(*(value for _, value in columns))
        Console(width=220).print(table)
    except ImportError:
        print(" | ".join(name for name, _ in columns))
        print(" | ".join(value for _, value in columns))
    if stats.errors:
        print(f"first error: {stats.errors[0]}")
    print("command: python " + " ".join(shlex.quote(a) for a in sys.argv))


def main(argv: list[str] | None = None) -> int:
    """Run the load test; exit status 1 if p95 is over ``--goal-ms``."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=HelpFormatter)
    ap.add_argument("--rooms", type=int, default=100)
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--game", default="rummy432_v0", choices=["line_v0", "lineit_v0", "rummy432_v0"])
    ap.add_argument("--players", type=int, default=None, help="seats per room (default: the game's)")
    ap.add_argument("--people", type=int, default=1, help="scripted people per room (the rest are computers)")
    ap.add_argument("--level", default="greedy", help="the computers' level")
    ap.add_argument("--bot-delay", type=float, default=0.0)
    ap.add_argument("--workers", type=int, default=2, help="the server's worker processes")
    ap.add_argument("--worker-nice", type=int, default=0, help="the server's --worker-nice")
    ap.add_argument("--goal-ms", type=float, default=50.0, help="p95 goal for a person's move")
    ap.add_argument("--warm-up", type=float, default=3.0, metavar="SECONDS",
                    help="the moves sent in the first SECONDS are also left out of a second p50/p95/max "
                         "(the start's burst of every room's first move)")
    ap.add_argument("--data", default=None, metavar="DIR",
                    help="the server's data folder, kept afterwards (default: a temporary one, removed)")
    args = ap.parse_args(argv)
    if args.players is None:
        import cardenvs

        args.players = cardenvs.game_class(args.game).default_players
    if not 1 <= args.people <= args.players:
        ap.error(f"--people must be 1..{args.players}")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with contextlib.ExitStack() as stack:
        if args.data is None:
            data = stack.enter_context(tempfile.TemporaryDirectory(prefix="cardtable-load-"))
        else:
            data = args.data
            Path(data).mkdir(parents=True, exist_ok=True)
        env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        log = stack.enter_context(open(Path(data) / "server.log", "w"))  # noqa: SIM115
        # one address opens every room and socket here: its quotas are raised to fit
        proc = subprocess.Popen(
            [sys.executable, "-m", "cardtable", "--port", str(port), "--data", data, "--bot-delay",
             str(args.bot_delay), "--workers", str(args.workers),
             "--worker-nice", str(args.worker_nice), "--log-level", "warning",
             "--rooms-per-hour", str(args.rooms + 10), "--max-rooms", str(args.rooms + 10),
             "--conns-per-address", str(args.rooms * args.people + 10),
             "--http-conns-per-address", str(args.rooms * args.people + 50),
             "--http-rate", str(args.rooms * 10), "--http-burst", str(args.rooms * (args.people + 1) + 100),
             "--waiting-rooms-per-address", str(args.rooms + 10)],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=log)
        try:
            deadline = time.monotonic() + 60
            while True:
                if proc.poll() is not None:
                    sys.exit("the server exited:\n" + (Path(data) / "server.log").read_text()[-2000:])
                try:
                    with urllib.request.urlopen(base + "/api/games", timeout=2):
                        break
                except OSError:
                    if time.monotonic() > deadline:
                        sys.exit("the server did not start in 60 s")
                    time.sleep(0.2)
            stats, elapsed, peaks = asyncio.run(run(args, base, proc.pid, Path(data)))
            main_rss = rss_mb(proc.pid)
            worker_rss = sum(rss_mb(c) for c in children(proc.pid))
            data_end = folder_size(Path(data))
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
    report(args, stats, elapsed, peaks, (main_rss, worker_rss), data_end)
    p95 = float(np.percentile(np.asarray(stats.latencies) * 1000, 95)) if stats.latencies else float("inf")
    return 0 if p95 < args.goal_ms else 1


if __name__ == "__main__":
    sys.exit(main())
