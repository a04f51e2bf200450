"""Test-wide settings."""

import os

# The suite runs on 2 cores with pytest-xdist; one BLAS/OpenMP thread per worker keeps
# torch from oversubscribing the cores (a 10x slowdown of the training tests otherwise).
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")
