"""One BLAS thread in the processes that play evaluation games.

The value nets of the control variates (:class:`agents.measure.ValueNet`) and the trained
policies multiply small matrices, a few dozen rows at a time.  OpenBLAS spreads each
product over every core; at these sizes the threads cost more than they add, and with
several worker processes they fight over the cores: on 2 cores, 60 corrected Line games in
two workers took 7.6 s with numpy's default threads against 1.7 s with one, and two workers
were slower than one (``python -m experiments.bench_threads``).  The play loops of
:func:`agents.evaluation.tournament.run_matches` (in this process, in its workers and in
Ray tasks) therefore run with BLAS limited to one thread, through ``threadpoolctl``; in
this process the caller's limit is restored after.
The environment variable ``CARDENVS_BLAS_THREADS`` sets another limit (a whole number), or
``none`` to leave the threads as numpy set them.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from typing import Any

#: a worker's standing limit (kept so that it is not restored when collected)
_worker_limit: Any = None
#: the variables native libraries loaded later read their thread counts from
THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


#: the variable that overrides the limit
VARIABLE = "CARDENVS_BLAS_THREADS"


def blas_limit() -> int | None:
    """The BLAS threads of the evaluation games: ``CARDENVS_BLAS_THREADS`` (default 1;
    ``None`` for ``none``, no limit)."""
    text = os.environ.get(VARIABLE, "1").strip()
    if text.lower() == "none":
        return None
    if not text.isdigit() or int(text) < 1:
        raise ValueError(f"{VARIABLE} is a whole number of threads >= 1 or 'none', got {text!r}")
    return int(text)


def _controller() -> Any:
    """A controller of the thread pools of the libraries loaded now (made afresh, about 2
    ms: one made earlier would miss a BLAS loaded since, such as scipy's own)."""
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


@contextlib.contextmanager
def one_blas_thread() -> Iterator[None]:
    """BLAS limited to one thread (:func:`blas_limit`) inside the block, the previous limits
    restored after."""
    limit = blas_limit()
    if limit is None:
        yield
        return
    with _controller().limit(limits=limit, user_api="blas"):
        yield


def limit_worker() -> None:
    """BLAS limited to one thread (:func:`blas_limit`) for the rest of this (worker) process:
    the libraries loaded now, and through :data:`THREAD_VARIABLES` those loaded later."""
    global _worker_limit
    limit = blas_limit()
    if limit is None:
        return
    for name in THREAD_VARIABLES:
        os.environ[name] = str(limit)
    _worker_limit = _controller().limit(limits=limit, user_api="blas")
