"""The expert as it was at an old commit, played from that commit's own code (for measurement).

The expert before issue 30 is the level ``expert-old``: ``python -m experiments.ladder_pairs
--pairs expert-old:expert`` measures the new expert against it, ``experiments/bench_expert.py``
times both on the same positions.  It is not a copy in the tree: it is :data:`OLD_EXPERT`,
a commit of this repository, whose ``agents/`` and ``cardenvs/`` are written on first use
into ``runs/frozen/<hash>/`` (``git archive``; a clone is needed, a shallow one fetched in
full with ``git fetch --unshallow``).

The old code is played in a worker process of its own (:mod:`experiments.frozen_worker`)
whose ``sys.path`` puts the frozen tree first: one Python process cannot hold two packages
named ``agents``, and renaming the old packages would mean rewriting their imports (and the
module names the registry finds games by), which is no longer the commit's code.  The worker
runs the commit's files unchanged, search, knowledge *and rules* (its samples and rollouts
play on the old rules), and refuses to start if any module of the two packages came from
elsewhere.  Between the sides only observations pass: the live table encodes the seat's View
(``Game.encode``, the PettingZoo observation), the worker decodes it with the old rules and
checks that re-encoding gives the same bytes, so a change of format is an error, not a
silently different position.  Each process that seats an old expert (a tournament's worker
too) starts one worker, on first use; it ends with its parent.
"""

from __future__ import annotations

import atexit
import io
import os
import pickle
import posixpath
import shutil
import subprocess
import sys
import tarfile
import tempfile
import threading
import weakref
from pathlib import Path
from typing import Any

from agents.players.base import Agent

#: the last commit before issue 30 changed the expert's search (78f4547, "The expert at a
#: fifth of its cost"): its agents/ are the old expert, search, knowledge and budgets
OLD_EXPERT = "a2a90e60297890b04b97bbf1ad16f11b610cfea0"

#: the level name under which the scripts seat the old expert
LEVEL = "expert-old"

#: the packages a frozen tree holds
PACKAGES = ("agents", "cardenvs")

REPO = Path(__file__).resolve().parents[1]
#: where frozen trees are written, one folder per commit
CACHE = REPO / "runs" / "frozen"
WORKER = Path(__file__).with_name("frozen_worker.py")


class FrozenUnavailable(RuntimeError):
    """The old commit's code cannot be had here (no git, not a clone, commit missing)."""


def _git(*args: str) -> subprocess.CompletedProcess[bytes]:
    if shutil.which("git") is None:
        raise FrozenUnavailable("the frozen expert is read from git history, and git is not installed")
    return subprocess.run(["git", "-C", str(REPO), *args], capture_output=True, check=False)


def resolve(commit: str = OLD_EXPERT) -> str:
    """The full hash of ``commit``, or :class:`FrozenUnavailable` saying what to do."""
    top = _git("rev-parse", "--show-toplevel")
    if top.returncode != 0 or Path(top.stdout.decode().strip()).resolve() != REPO:
        said = top.stderr.decode().strip().splitlines()
        raise FrozenUnavailable(f"{REPO} is not a git clone; the frozen expert ({commit[:12]}) is read from "
                                "its history: work in a clone of the repository"
                                + (f" (git: {said[0]})" if said else ""))
    got = _git("rev-parse", "--verify", "--quiet", f"{commit}^{{commit}}")
    if got.returncode != 0:
        shallow = _git("rev-parse", "--is-shallow-repository").stdout.decode().strip() == "true"
        hint = ("this clone is shallow: run `git fetch --unshallow`" if shallow
                else "fetch the repository's full history (`git fetch origin`)")
        raise FrozenUnavailable(f"commit {commit} (the frozen expert) is not in this clone; {hint}")
    return got.stdout.decode().strip()


def unavailable_reason(commit: str = OLD_EXPERT) -> str | None:
    """Why the frozen code cannot be had here, or ``None`` if it can (for tests to skip)."""
    try:
        resolve(commit)
    except FrozenUnavailable as e:
        return str(e)
    return None


def materialise(commit: str = OLD_EXPERT, cache: Path | None = None) -> Path:
    """The folder holding ``commit``'s ``agents/`` and ``cardenvs/``, written on first use.

    Written into a temporary folder and renamed into place, so a folder that exists is
    whole (several processes may race to write it: one wins, the others' copies go).
    """
    full = resolve(commit)
    cache = CACHE if cache is None else Path(cache)
    root = cache / full
    if (root / "COMMIT").is_file():
        return root
    cache.mkdir(parents=True, exist_ok=True)
    tar = _git("archive", "--format=tar", full, *PACKAGES)
    if tar.returncode != 0:
        raise FrozenUnavailable(f"git archive {full} failed: {tar.stderr.decode().strip()}")
    tmp = Path(tempfile.mkdtemp(prefix=f".{full[:12]}-", dir=cache))
    try:
        _extract(tar.stdout, tmp, full)
        (tmp / "COMMIT").write_text(full + "\n")
        try:
            tmp.rename(root)
        except OSError:  # another process got there first
            if not (root / "COMMIT").is_file():
                raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return root


def _extract(data: bytes, dest: Path, commit: str) -> None:
    """Write the tar ``data`` of ``commit`` into ``dest``: regular files as they are, a link
    (the games' ``RULES.md`` point into ``docs/``) as the file it points to at ``commit``."""
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:") as t:
        for member in t.getmembers():
            path = dest / member.name
            if not path.resolve().is_relative_to(dest.resolve()):
                raise FrozenUnavailable(f"git archive {commit} holds a path outside its tree: {member.name}")
            if member.isdir():
                path.mkdir(parents=True, exist_ok=True)
            elif member.isfile():
                path.parent.mkdir(parents=True, exist_ok=True)
                source = t.extractfile(member)
                assert source is not None
                path.write_bytes(source.read())
                path.chmod(0o755 if member.mode & 0o111 else 0o644)
            elif member.issym():
                target = posixpath.normpath(posixpath.join(posixpath.dirname(member.name), member.linkname))
                blob = _git("cat-file", "blob", f"{commit}:{target}")
                if blob.returncode == 0:
                    path.parent.mkdir(parents=True, exist_ok=True)
                    path.write_bytes(blob.stdout)


class Worker:
    """A worker process playing one commit's code (:mod:`experiments.frozen_worker`)."""

    def __init__(self, commit: str = OLD_EXPERT) -> None:
        self.root = materialise(commit)
        self.pid = os.getpid()
        self.lock = threading.Lock()
        self.drops: list[int] = []
        self.proc = subprocess.Popen([sys.executable, "-I", str(WORKER), str(self.root)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def call(self, op: str, *args: Any) -> Any:
        """Send one request and return its answer (a worker's error raised here)."""
        with self.lock:
            drops, self.drops = self.drops, []
            assert self.proc.stdin is not None and self.proc.stdout is not None
            try:
                pickle.dump((drops, op, *args), self.proc.stdin, protocol=pickle.HIGHEST_PROTOCOL)
                self.proc.stdin.flush()
                status, value = pickle.load(self.proc.stdout)
            except (EOFError, BrokenPipeError) as e:
                raise RuntimeError(f"the frozen expert's worker ({self.root}) ended: "
                                   f"exit {self.proc.poll()}") from e
        if status != "ok":
            raise RuntimeError(f"in the frozen expert's worker ({self.root}):\n{value}")
        return value

    def close(self) -> None:
        """End the worker (it also ends when this process does)."""
        if self.proc.poll() is None and self.pid == os.getpid():
            assert self.proc.stdin is not None
            self.proc.stdin.close()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:  # pragma: no cover
                self.proc.kill()


_WORKERS: dict[str, Worker] = {}


def worker(commit: str = OLD_EXPERT) -> Worker:
    """This process's worker for ``commit``, started on first use (a forked child starts its own)."""
    w = _WORKERS.get(commit)
    if w is None or w.pid != os.getpid() or w.proc.poll() is not None:
        w = _WORKERS[commit] = Worker(commit)
        atexit.register(w.close)
    return w


class FrozenExpert(Agent):
    """The expert of an old commit, played in its worker: it chooses from the observation
    of the View it is given, on the old code's own rules.  ``cpu`` is the worker's CPU
    seconds for its last ``choose`` (the search alone, not the transport)."""

    def __init__(self, env_name: str, seed: int | None = None, name: str | None = None,
                 commit: str = OLD_EXPERT, **overrides: Any) -> None:
        super().__init__(seed, name or LEVEL)
        self.env_name = env_name
        self.worker = worker(commit)
        self.ident: int
        self.ident, self._remembers = self.worker.call("make", env_name, seed, self.name, overrides)
        self.cpu = 0.0
        weakref.finalize(self, self.worker.drops.append, self.ident)

    @property
    def remembers(self) -> bool:
        """Whether the old expert's choices depend on its seat's memory (its knowledge says)."""
        return bool(self._remembers)

    def seed(self, seed: int | None) -> None:
        super().seed(seed)
        if hasattr(self, "ident"):
            self.worker.call("seed", self.ident, seed)

    def choose(self, game: Any, view: Any, legal: list[int]) -> int:
        """The old expert's move at ``view`` (encoded by the live rules, decoded by the old)."""
        action, self.cpu = self.worker.call("choose", self.ident, game.encode(view), [int(a) for a in legal])
        return int(action)

    def observe(self, game: Any, view: Any) -> None:
        """Feed a past View of the seat to the old expert's memory."""
        self.worker.call("observe", self.ident, game.encode(view))

    def __reduce__(self) -> Any:
        raise TypeError("a FrozenExpert lives in its process's worker and does not pickle; "
                        "make it where it plays (make_level)")


def old_expert(env_name: str, seed: int | None = None, name: str | None = None, **overrides: Any) -> Agent:
    """The expert of ``env_name`` as it was before issue 30 (search, budget, knowledge and
    rules of :data:`OLD_EXPERT`); ``overrides`` change its search budget."""
    return FrozenExpert(env_name, seed=seed, name=name, **overrides)


def old_budget(env_name: str) -> dict[str, Any]:
    """The search budget of the old expert of ``env_name`` (its ``SearchAgent`` keywords)."""
    budget: dict[str, Any] = worker().call("budget", env_name)
    return budget


def make_level(env_name: str, level: str, seed: int | None = None, name: str | None = None) -> Agent:
    """:func:`agents.make_agent`, plus the level ``"expert-old"``: the old expert (for
    ``agents.evaluation.tournament.run_matches(..., make=make_level)``)."""
    if level == LEVEL:
        return old_expert(env_name, seed=seed, name=name)
    from agents.players.ladder import make_agent

    return make_agent(env_name, level, seed=seed, name=name)
