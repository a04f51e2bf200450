"""Test-wide settings.

* One BLAS/OpenMP thread per pytest-xdist worker.
* Every temporary file of the run (pytest's ``tmp_path`` folders, Ray's session folders,
  the browser tests' profiles, anything under ``tempfile``) goes into one folder of its own,
  removed when the run passes: a run leaves nothing in the system temp folder.  A failed
  run keeps it and says where, for debugging.
"""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest

# The suite runs on 2 cores with pytest-xdist; one BLAS/OpenMP thread per worker keeps
# torch from oversubscribing the cores (a 10x slowdown of the training tests otherwise).
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

_ROOT_KEY = "CARDENVS_TEST_TMP"


def pytest_configure(config: pytest.Config) -> None:
    if hasattr(config, "workerinput") or os.environ.get(_ROOT_KEY):
        return  # an xdist worker: it inherited the controller's folder through TMPDIR
    root = tempfile.mkdtemp(prefix="cardenvs-tests-")
    os.environ[_ROOT_KEY] = root
    os.environ["TMPDIR"] = root  # subprocesses (xdist workers, servers, Ray, chromium)
    tempfile.tempdir = root  # this process
    config.stash[_root] = root


_root = pytest.StashKey[str]()
_failed = pytest.StashKey[bool]()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    session.config.stash[_failed] = exitstatus not in (0, 5)  # 5: no tests collected


def pytest_unconfigure(config: pytest.Config) -> None:
    root = config.stash.get(_root, None)
    if root is None:
        return
    if config.stash.get(_failed, False):
        print(f"\n(temporary files of this run kept for a look: {root})")
        return
    shutil.rmtree(root, ignore_errors=True)
    os.environ.pop(_ROOT_KEY, None)
