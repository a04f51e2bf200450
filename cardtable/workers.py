"""Computer players and coaches, run off the event loop.

A decision is a :class:`Job`: the table (game, seat count, options), the seat, its level,
the seat's own View and legal moves, and how to replay the game so far (the game's seed
and the action ids played).  Only the seat's View reaches the agent.  A computer seat's
memory lives with the seat's agent (``Agent.remembers``: an expert of a game whose
knowledge remembers, such as Rummy's, which deals its search worlds by what its seat saw
the opponent do); after a restart, a level change, or a person leaving the seat to a
computer, a fresh agent gets it back by its documented method, ``Agent.observe``, fed the
seat's own Views at the seat's own past decisions (rebuilt by replaying the game).

Each worker keeps its agents in a cache keyed by room, game and seat, with the step of the
seat's latest decision it has seen.  When a job's ``prev_step`` (the seat's previous decision
in this game) is the one the cached agent saw last, the agent continues; otherwise it is
rebuilt by the replay.  :class:`Pool` pins every room to one worker process, so a room's
agents stay in one cache; light levels and ``workers=0`` run the same code on threads.

Choices are deterministic: an agent is reseeded from the game's seed, the step and the seat
before every decision, so a restart does not change what a computer would play.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import concurrent.futures.process
import multiprocessing
import os
import select
import threading
import time
import zlib
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

import numpy as np

from cardenvs.core.game import View

from .catalog import make_game
from .types import JsonDict, OptionsKey

if TYPE_CHECKING:
    from agents.players.base import Agent
    from agents.players.coach import Coach

#: agents and coaches one worker keeps (least recently used go first)
CACHE_SIZE = 4096
#: how many moves a coach ranks for the client
COACH_TOP = 5


@dataclass(frozen=True)
class Job:
    """One decision (a computer's move or a coach's advice) for one seat."""

    kind: str  # "move" or "coach"
    room: str
    game_index: int
    env: str
    num_players: int
    options: OptionsKey
    seat: int
    level: str
    seed: int
    step: int
    #: the step of this seat's previous decision in this game (-1: none)
    prev_step: int
    view: View
    legal: list[int]
    #: the action ids played so far in this game (for a replay)
    ids: list[int] = field(default_factory=list)
    #: every seat's name, for the coach's words ("careful, Bob took eights")
    names: tuple[str, ...] = ()


@dataclass
class _Entry:
    engine: Agent | Coach
    level: str
    last_step: int


_cache: OrderedDict[tuple[str, str, int, int], _Entry] = OrderedDict()
_lock = threading.Lock()


def _new_engine(job: Job) -> Agent | Coach:
    from agents.players.coach import Coach
    from agents.players.ladder import make_agent

    if job.kind == "coach":
        return Coach(job.env, level=job.level, seed=job.seed, names=list(job.names) or None)
    return make_agent(job.env, job.level, seed=job.seed)


def _warm(job: Job, engine: Agent | Coach) -> None:
    """Give a fresh engine (an agent or a coach) its seat's memory, if it keeps one: replay
    the game and let it :meth:`~agents.players.base.Agent.observe` the seat's own Views at the
    seat's own past decisions, in order."""
    if not engine.remembers or job.prev_step < 0:
        return
    game = make_game(job.env, job.num_players, job.options)
    rng = np.random.default_rng(job.seed)
    state = game.new_state(rng)
    for a in job.ids:
        if game.current_player(state) == job.seat:
            engine.observe(game, game.view(state, job.seat))
        game.apply(state, a, rng)


def _engine_for(job: Job) -> Agent | Coach:
    key = (job.kind, job.room, job.game_index, job.seat)
    with _lock:
        entry = _cache.get(key)
        if entry is not None:
            _cache.move_to_end(key)
    if entry is None or entry.level != job.level or entry.last_step not in (job.prev_step, job.step):
        engine = _new_engine(job)
        _warm(job, engine)
        entry = _Entry(engine, job.level, job.prev_step)
        with _lock:
            _cache[key] = entry
            while len(_cache) > CACHE_SIZE:
                _cache.popitem(last=False)
    entry.last_step = job.step
    return entry.engine


def decision_seed(seed: int, step: int, seat: int) -> int:
    """The seed an agent gets before the decision at ``step`` (same game, same choice)."""
    return (seed * 1_000_003 + step * 101 + seat) % (2**63)


def run_job(job: Job) -> int | list[JsonDict]:
    """Do one job in this process: an action id (``move``) or a list of advice (``coach``)."""
    game = make_game(job.env, job.num_players, job.options)
    if job.kind == "move" and job.level == "random":
        rng = np.random.default_rng(decision_seed(job.seed, job.step, job.seat))
        return int(job.legal[int(rng.integers(len(job.legal)))])
    engine = _engine_for(job)
    if job.kind == "coach":
        from .catalog import face
        from .moves import words

        advice = cast("Coach", engine).advise_view(game, job.view, list(job.legal), top=COACH_TOP)
        return [
            {"id": int(a.action), "text": a.move,
             "label": words(job.env, game, int(a.action), job.view).label,
             "reason": face(job.env).words(_without_move(a.reason, a.move)),
             "value": None if np.isnan(a.value) else round(float(a.value), 4),
             "rank": rank}
            for a, rank in zip(advice, advice_ranks([a.value for a in advice]))
        ]
    agent = cast("Agent", engine)  # a move job's engine (_new_engine)
    agent.seed(decision_seed(job.seed, job.step, job.seat))
    action = int(agent.choose(game, job.view, list(job.legal)))
    if action not in job.legal:  # an agent must choose a legal move; never trust it blindly
        raise RuntimeError(f"{job.level} agent chose an illegal action {action}")
    return action


def advice_ranks(values: list[float]) -> list[int]:
    """Each advised move's place, best first, as a player reads it: 1 for the best, and the
    same number for moves the coach rates the same ("1, 1, 3"): its values have no scale
    a player could read, their order does."""
    ranks: list[int] = []
    for i, v in enumerate(values):
        same = i > 0 and ((np.isnan(v) and np.isnan(values[i - 1])) or abs(v - values[i - 1]) <= 1e-9)
        ranks.append(ranks[-1] if same else i + 1)
    return ranks


def _without_move(reason: str, move: str) -> str:
    """The coach's reason without its leading ``"<move>: "`` (the table shows the move
    itself above the reason)."""
    prefix = f"{move}: "
    return reason[len(prefix):] if reason.startswith(prefix) else reason


def _init_worker(server_pid: int | None = None, nice: int = 0) -> None:
    """Import the rules and the agents once per worker process, end the worker when the
    server ends (:func:`_watch_server`), lower its CPU priority by ``nice``, and run BLAS on
    one thread (:mod:`agents.evaluation.threads`).

    The searches are batch work and the server's event loop is interactive: at a lower
    priority the kernel runs the event loop first whenever it has work (``--worker-nice``;
    ``docs/cardtable/load.md`` has what it changes, and what it costs on a shared machine).
    """
    if server_pid is not None:
        _watch_server(server_pid)
    if nice > 0 and hasattr(os, "nice"):
        os.nice(nice)
    import agents.players.ladder  # noqa: F401
    import cardenvs  # noqa: F401
    from agents.evaluation.threads import limit_worker

    limit_worker()  # the trained nets' small products: one BLAS thread, or the workers fight over the cores


def _loaded() -> None:
    """Nothing: a job that returns once the worker has started (see :meth:`Pool.warm_up`)."""


def _watch_server(pid: int) -> None:
    """End this worker process as soon as the server process ``pid`` ends, however it ends.

    A worker's parent is the forkserver, not the server, and it waits for jobs on a pipe
    whose writing end it holds itself, so a server killed with ``kill -9`` left the worker
    waiting forever, and with it the forkserver (which lives while any child holds its
    "alive" pipe) and the resource tracker (which lives while any process holds its pipe):
    ~75 MB orphaned each time.  A thread of the worker waits on a pidfd of the server
    (Linux; it becomes readable when the server exits) or polls it every second elsewhere,
    then ends the worker at once; the forkserver and the resource tracker then see their
    pipes close and end by themselves.  ``prctl(PR_SET_PDEATHSIG)`` would watch the
    forkserver, which outlives the server for as long as the worker does.
    """
    def watch() -> None:
        try:
            fd = os.pidfd_open(pid)
        except ProcessLookupError:  # the server is already gone
            os._exit(0)
        except (AttributeError, OSError):  # no pidfd here: poll
            fd = -1
        if fd >= 0:
            select.select([fd], [], [])
        else:
            while True:
                time.sleep(1.0)
                try:
                    os.kill(pid, 0)
                except ProcessLookupError:
                    break
                except PermissionError:  # a process of another user has the pid now
                    break
        os._exit(0)

    threading.Thread(target=watch, name="cardtable-server-watch", daemon=True).start()


#: levels whose decisions take well under a millisecond: they think on a thread of the
#: server (measured: cheaper than a round trip to a worker process, which costs about as
#: much as the decision); the search levels think in the worker processes
LIGHT_LEVELS = frozenset({"greedy", "planner"})
#: :meth:`Pool.lane` of a move thought out on the server's threads, and of one drawn inline
THREADS, INLINE = -1, -2


class Pool:
    """Where jobs run: the search levels (``expert``, ``trained``...) in ``workers``
    processes, ``nice`` steps below the server's CPU priority, each room pinned to one of
    them (or on threads when ``workers`` is 0); the light levels and the coach
    (``planner``) on threads; ``random`` moves at once on the event loop (a uniform draw
    costs microseconds)."""

    def __init__(self, workers: int, nice: int = 0) -> None:
        self.workers = workers
        self.nice = nice
        self._procs: list[concurrent.futures.ProcessPoolExecutor] = []
        if workers > 0:
            method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
            self._ctx = multiprocessing.get_context(method)
            self._procs = [self._new_process() for _ in range(workers)]
            for proc in self._procs:  # start them now, not at the first search (see start_loading)
                self.start_loading(proc)
        self._threads = concurrent.futures.ThreadPoolExecutor(
            max_workers=max(2, min(8, os.cpu_count() or 2)), thread_name_prefix="cardtable-agent")

    def _new_process(self) -> concurrent.futures.ProcessPoolExecutor:
        """One worker process (started at its first job), watching this server process."""
        return concurrent.futures.ProcessPoolExecutor(1, mp_context=self._ctx, initializer=_init_worker,
                                                      initargs=(os.getpid(), self.nice))

    def lane(self, room: str, level: str) -> int:
        """Where a computer's move of ``room`` at ``level`` is thought out: the index of its
        worker process, :data:`THREADS` (the light levels, or ``workers=0``) or
        :data:`INLINE` (``random``)."""
        if level == "random":
            return INLINE
        if self._procs and level not in LIGHT_LEVELS:
            return zlib.crc32(room.encode()) % len(self._procs)
        return THREADS

    @staticmethod
    def start_loading(proc: concurrent.futures.ProcessPoolExecutor) -> None:
        """Start a worker process now, in the background: it imports numpy, the rules and
        the agents (seconds of CPU) before the first search needs it, not while the
        first rooms play (measured in ``docs/cardtable/load.md``: the first seconds' moves)."""
        proc.submit(_loaded).add_done_callback(lambda f: f.cancelled() or f.exception())

    def _executor(self, room: str, level: str) -> concurrent.futures.Executor:
        if self._procs and level not in LIGHT_LEVELS:
            return self._procs[zlib.crc32(room.encode()) % len(self._procs)]
        return self._threads

    async def run(self, job: Job) -> int | list[JsonDict]:
        """The result of ``job``, computed off the event loop (``random`` moves inline)."""
        if job.kind == "move" and job.level == "random":
            return run_job(job)
        loop = asyncio.get_running_loop()
        executor = self._executor(job.room, job.level)
        try:
            return await loop.run_in_executor(executor, run_job, job)
        except concurrent.futures.process.BrokenProcessPool:
            self._replace(executor)  # a worker died (killed, out of memory): start another, try again
            return await loop.run_in_executor(self._executor(job.room, job.level), run_job, job)

    def _replace(self, broken: concurrent.futures.Executor) -> None:
        for i, p in enumerate(self._procs):
            if p is broken:
                p.shutdown(wait=False, cancel_futures=True)
                self._procs[i] = self._new_process()
                self.start_loading(self._procs[i])

    def warm_up(self) -> None:
        """Start every worker process now (they import numpy and the agents once)."""
        futures = [p.submit(_loaded) for p in self._procs]
        for f in futures:
            f.result()

    def close(self) -> None:
        """Stop the workers (pending jobs are cancelled)."""
        for p in self._procs:
            p.shutdown(wait=False, cancel_futures=True)
        self._threads.shutdown(wait=False, cancel_futures=True)
