"""Matches on a Ray cluster: the ``backend="ray"`` of :func:`agents.evaluation.tournament.run_matches`.

Everything that plays matches (:func:`agents.evaluate`, :func:`agents.evaluation.tournament.tournament`,
``experiments/tournament.py``, ``experiments/ladder_pairs.py``, the best-response runs)
takes ``backend="ray"`` and ``ray_address``; the matches are then played as Ray tasks,
each a chunk of matches (a few per CPU of the cluster, so a task's overhead is small
next to its games and no worker is left with a long chunk at the end), and come back in
the order of the matches.  Each match is seeded, so the results are the local backend's,
game for game.

* ``ray_address=None``: a local Ray, started here (``workers > 1`` caps its CPUs) unless
  this process has started or joined one already; ``"auto"``: the running cluster of this
  machine (``ray start --head`` ...); ``"HOST:6379"`` or ``"ray://HOST:10001"``: another.
  A Ray this module starts or joins stays up for the process's later matches.
* What ships: Ray is started with :func:`cardenvs.integrations.ray_runtime.init_ray`,
  whose ``runtime_env`` uploads the driver's ``cardenvs`` and ``agents`` packages (and the
  package of a ``make`` that is neither, such as ``experiments``, when it is a source
  folder rather than an installed package) as ``py_modules``, with
  ``OMP_NUM_THREADS=1``; the player objects (the entrants) go once per call through
  Ray's object store, pickled with ``cloudpickle`` as for the process workers.  Nothing
  is installed on the workers (no ``pip`` in the ``runtime_env``): they run their node's
  Python environment, whose dependencies (numpy, scipy, torch where a player needs it,
  Ray itself) must match the driver's.
* Workers play one torch thread each where a player brought torch along.

Needs the optional ``ray`` package (``pip install 'cardenvs[rllib]'``); it is imported
only when the backend is used.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import sys
import uuid
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import ModuleType
from typing import Protocol, TypeVar, cast

from cardenvs.core.loop import PlayerLike

from .threads import limit_worker

#: where the match runners play: this machine's processes, or a Ray cluster
BACKENDS = ("local", "ray")

#: the message of a backend="ray" without Ray
INSTALL_HINT = "backend='ray' needs Ray: pip install 'cardenvs[rllib]'"

#: a match to play and its result (the tournament's ``Match`` and ``MatchResult``)
M = TypeVar("M")
R = TypeVar("R")

#: the entrants installed in this worker process: the token of their call (see :func:`_play_chunk`)
_installed: str | None = None


class RayUnavailableError(ImportError):
    """``backend="ray"`` where the ``ray`` package is not installed."""


def check_backend(backend: str, ray_address: str | None = None) -> None:
    """``ValueError`` for a backend not in :data:`BACKENDS`, or a ``ray_address`` without Ray."""
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {', '.join(map(repr, BACKENDS))}, got {backend!r}")
    if ray_address is not None and backend != "ray":
        raise ValueError(f"ray_address={ray_address!r} is for backend='ray', not {backend!r}")


def _ray() -> ModuleType:
    try:
        import ray
    except ImportError as exc:
        raise RayUnavailableError(INSTALL_HINT) from exc
    return ray


def _source_package(fn: object) -> str | None:
    """The top-level package of ``fn``'s module when it is a source folder to ship
    (neither ``cardenvs`` nor ``agents``, not installed in site-packages), else ``None``."""
    while isinstance(fn, functools.partial):
        fn = fn.func
    top = str(getattr(fn, "__module__", "") or "").partition(".")[0]
    if top in ("", "__main__", "cardenvs", "agents"):
        return None
    mod = sys.modules.get(top)
    file = getattr(mod, "__file__", None)
    if file is None or Path(file).name != "__init__.py":
        return None
    if {"site-packages", "dist-packages"} & set(Path(file).parts):
        return None
    return top


def connect(address: str | None = None, num_cpus: int | None = None, make: object = None) -> ModuleType:
    """Start or join Ray for the matches (see the module docstring); returns the ``ray``
    module.  Nothing happens when this process runs Ray already."""
    ray = _ray()
    if ray.is_initialized():
        return ray
    from cardenvs.integrations.ray_runtime import init_ray

    extra = _source_package(make)
    init_ray(address=address, num_cpus=None if address is not None else num_cpus,
             packages=["agents", *([extra] if extra else [])])
    return ray


def _one_torch_thread() -> None:
    torch = sys.modules.get("torch")
    if torch is not None:
        with contextlib.suppress(Exception):  # a player's torch is its own business
            torch.set_num_threads(1)


def _play_chunk(play_one: Callable[[M], R], install: Callable[[bytes], None], chunk: Sequence[M],
                token: str, blob: bytes) -> list[R]:
    """A Ray task: play a chunk of matches, the call's entrants installed once per worker
    (``install(blob)``: :func:`agents.evaluation.tournament._install_entrants`)."""
    global _installed
    if token != _installed:
        install(blob)
        _installed = token
    _one_torch_thread()
    limit_worker()
    return [play_one(m) for m in chunk]


class _RemoteChunk(Protocol):
    """:func:`_play_chunk` as a Ray remote function: ``remote(...)`` starts a task and
    returns the reference to its result (an ``ObjectRef``)."""

    def remote(self, *args: object) -> object: ...


@functools.cache
def _remote(ray: ModuleType) -> _RemoteChunk:
    return ray.remote(num_cpus=1)(_play_chunk)


def chunk_size(games: int, cpus: int) -> int:
    """Matches per Ray task: about eight tasks per CPU, between 1 and 64 games."""
    return max(1, min(64, games // (8 * max(1, cpus))))


def run_matches(matches: Sequence[M], play_one: Callable[[M], R], entrants: Mapping[str, PlayerLike],
                install: Callable[[bytes], None], workers: int = 1, progress: bool = True,
                desc: str = "games", address: str | None = None, make: object = None) -> list[R]:
    """Play ``matches`` with ``play_one`` as Ray tasks; the results in the order of ``matches``.

    :func:`agents.evaluation.tournament.run_matches` calls this for ``backend="ray"``: ``install``
    puts the ``cloudpickle``-d ``entrants`` where ``play_one`` finds them, in each worker.
    """
    if not matches:
        return []
    ray = connect(address, workers if workers > 1 else None, make)
    import cloudpickle

    blob = ray.put(cloudpickle.dumps(dict(entrants)))
    cpus = int(ray.cluster_resources().get("CPU", 1))
    size = chunk_size(len(matches), cpus)
    chunks = [list(matches[i:i + size]) for i in range(0, len(matches), size)]
    token = uuid.uuid4().hex
    task = _remote(ray)
    refs = [task.remote(play_one, install, c, token, blob) for c in chunks]
    where = {ref: i for i, ref in enumerate(refs)}
    done: list[list[R] | None] = [None] * len(chunks)
    bar = None
    if progress:
        try:
            from tqdm import tqdm

            bar = tqdm(total=len(matches), desc=desc, unit="game")
        except ImportError:  # pragma: no cover
            bar = None
    pending = list(refs)
    try:
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                i = where[ref]
                done[i] = ray.get(ref)
                if bar is not None:
                    bar.update(len(chunks[i]))
    except BaseException:
        for ref in pending:
            ray.cancel(ref)
        raise
    finally:
        if bar is not None:
            bar.close()
    return [res for part in done if part is not None for res in part]


# ------------------------------------------------------------------------- command line


def add_backend_arguments(ap: argparse.ArgumentParser) -> None:
    """``--backend {local,ray}`` and ``--ray-address ADDR`` (which alone implies Ray)."""
    ap.add_argument("--backend", choices=BACKENDS, default=None,
                    help="where the games run: local processes (--workers) or Ray tasks (default: local, "
                         "or ray with --ray-address)")
    ap.add_argument("--ray-address", default=None, metavar="ADDR",
                    help="the Ray cluster to run on: auto (this machine's, after `ray start --head`), "
                         "HOST:6379 or ray://HOST:10001; implies --backend ray (default: a local Ray "
                         "started for the run)")


def backend_of(ap: argparse.ArgumentParser, args: argparse.Namespace) -> tuple[str, str | None]:
    """``(backend, ray_address)`` from :func:`add_backend_arguments`' options (``ap.error``
    for ``--backend local`` with an address)."""
    address = cast("str | None", args.ray_address)
    backend = cast("str | None", args.backend) or ("ray" if address is not None else "local")
    if address is not None and backend != "ray":
        ap.error("--ray-address runs on Ray: drop --backend local")
    return backend, address
