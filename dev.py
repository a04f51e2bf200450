#!/usr/bin/env python3
"""Set up and run cardenvs' jobs with nothing but python3.

    python3 dev.py demo       # set up .venv, then agents play a rendered game of Line
    python3 dev.py test       # set up .venv (test extras; Debian chromium); ruff, mypy, the suite, the docs
    python3 dev.py docs       # build the docs site (strict), serve it at http://127.0.0.1:8001/
                              #   (--no-serve: build only; --full: read every page afresh; --port, --host)
    python3 dev.py notebooks  # execute every notebook (--quick: tiny budgets); copies in results/notebooks/
    python3 dev.py soak       # the slow soak tests (marked `slow`)
    python3 dev.py bench      # the speed benchmark table (--compare: against the peers)
    python3 dev.py serve      # the browser table: lobby at http://127.0.0.1:8000/ (--host, --port, --data)

Each command creates ``.venv`` on first use and reinstalls only when ``pyproject.toml``
or the requested extras change.  Extra arguments are passed on to the job.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / "python"
#: what the test suite needs: the integrations' tests run too (OpenSpiel, RLlib), and the docs build
TEST_EXTRAS = "dev,train,openspiel,rllib,web,browser,docs"
#: the docs site's strict build: every warning fails it, references are checked (nitpicky),
#: the environment is read afresh (an incremental build would skip unchanged pages' warnings)
SPHINX_FLAGS = ["-W", "--keep-going", "-n", "-q", "-E", "-b", "html"]
DOCS_OUT = ROOT / "docs" / "_build" / "html"
#: what ruff checks: the project's own code, never other files a user keeps in the clone
LINTED = ["cardenvs", "agents", "cardtable", "experiments", "tests", "notebooks", "docs/conf.py", "docs/_ext",
          "dev.py"]


def run(cmd: Sequence[str | Path], **kw: object) -> int:
    """Run a command in the project root, echoing it."""
    print("+", " ".join(str(c) for c in cmd), flush=True)
    return subprocess.call([str(c) for c in cmd], cwd=ROOT, **kw)  # type: ignore[arg-type]


def setup(extras: str) -> None:
    """Create the virtual environment and install the package with ``extras``."""
    if not PY.exists() and run([sys.executable, "-m", "venv", str(VENV)]) != 0:
        sys.exit("could not create .venv (is the python3 venv module installed?)")
    project = (ROOT / "pyproject.toml").read_bytes()
    # one stamp per extra, so `dev.py docs` after `dev.py test` (whose extras include docs)
    # installs nothing: an extra is installed once per version of pyproject.toml
    names = ["", *(e.strip() for e in extras.split(",") if e.strip())]  # "": the package itself
    wanted = [hashlib.sha256(project + name.encode()).hexdigest() for name in names]
    stamp = VENV / ".cardenvs-installed"
    have = stamp.read_text().split() if stamp.exists() else []
    if all(d in have for d in wanted):
        return
    pip: list[str | Path] = [PY, "-m", "pip", "install", "--disable-pip-version-check", "-q"]
    # torch is pinned to 2.13.0 (a CPU build); nothing here may pull another torch
    if run([*pip, "-e", f".[{extras}]"]) != 0:
        sys.exit(f"installing cardenvs[{extras}] failed")
    stamp.write_text(" ".join([*have, *(d for d in wanted if d not in have)]))


#: the browser tests' Debian packages and the programs they provide
BROWSER_PACKAGES = ("chromium", "chromium-driver")
BROWSER_PROGRAMS = ("/usr/bin/chromium", "/usr/bin/chromedriver")


def ensure_browser() -> None:
    """Install Debian's chromium and chromium-driver for the browser tests when missing.

    Nothing that downloads a browser of its own is used.  When they cannot be installed
    (not Debian, not root, no registry) this says why, and the browser tests skip with
    that reason.
    """
    missing = [p for p in BROWSER_PROGRAMS if not Path(p).exists()]
    if not missing:
        return
    why = f"the browser tests need {' and '.join(missing)} (Debian: {' '.join(BROWSER_PACKAGES)})"
    if not Path("/usr/bin/apt-get").exists():
        print(f"NOTE: {why}; apt-get is not here, so those tests will skip", flush=True)
        return
    if os.geteuid() != 0:
        print(f"NOTE: {why}; run `sudo apt-get install -y {' '.join(BROWSER_PACKAGES)}` "
              "(not root here), else those tests skip", flush=True)
        return
    print(f"installing {' '.join(BROWSER_PACKAGES)}: {why}", flush=True)
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    cmd = ["apt-get", "install", "-y", "-q", "--no-install-recommends", *BROWSER_PACKAGES]
    if run(cmd, env=env) != 0 and (run(["apt-get", "update", "-q"], env=env) != 0 or run(cmd, env=env) != 0):
        print(f"NOTE: installing {' '.join(BROWSER_PACKAGES)} failed; the browser tests will skip",
              flush=True)


def docs(args: list[str]) -> int:
    """Build the docs site strictly into docs/_build/html, then serve it (unless --no-serve)."""
    import argparse

    ap = argparse.ArgumentParser(prog="python3 dev.py docs", description=docs.__doc__)
    ap.add_argument("--no-serve", action="store_true", help="only build (what CI wants)")
    ap.add_argument("--host", default="127.0.0.1", help="address to serve on (default: 127.0.0.1)")
    ap.add_argument("--port", type=int, default=8001, help="port to serve on (default: 8001)")
    ap.add_argument("--full", action="store_true",
                    help="read every page afresh (the test suite's build); by default only pages whose "
                         "sources changed since the last good build are read again")
    opts = ap.parse_args(args)
    setup("docs")
    flags = SPHINX_FLAGS if opts.full else [f for f in SPHINX_FLAGS if f != "-E"]
    if run([PY, "-m", "sphinx", *flags, "docs", DOCS_OUT]) != 0:
        # an incremental build would skip the pages that warned: the next one reads all
        shutil.rmtree(DOCS_OUT / ".doctrees", ignore_errors=True)
        print("the docs build failed: each warning above names the file and what broke "
              "(docs/contributing-docs.md lists the usual fixes)", flush=True)
        return 1
    print(f"built: {DOCS_OUT / 'index.html'}", flush=True)
    if opts.no_serve:
        return 0
    print(f"serving the docs at http://{opts.host}:{opts.port}/ (Ctrl-C to stop)", flush=True)
    try:
        return run([PY, "-m", "http.server", "--bind", opts.host, "--directory", DOCS_OUT, str(opts.port)])
    except KeyboardInterrupt:
        return 0


def main(argv: list[str]) -> int:
    job = argv[0] if argv else "help"
    rest = argv[1:]
    if job == "demo":
        setup("dev")
        return run([PY, "-m", "agents.programs.demo", *rest])
    if job == "test":
        setup(TEST_EXTRAS)
        ensure_browser()
        # the project's own paths only: a user's scratch script in the clone stops nothing
        if run([PY, "-m", "ruff", "check", *LINTED]) != 0:
            return 1
        if run([PY, "-m", "mypy"]) != 0:  # the packages, experiments and tests (pyproject's [tool.mypy])
            return 1
        return run([PY, "-m", "pytest", "-n", "2", "-q", *rest])
    if job == "soak":
        setup(TEST_EXTRAS)
        return run([PY, "-m", "pytest", "-m", "slow", "-q", *rest])
    if job == "serve":
        setup("web")
        return run([PY, "-m", "cardtable", *rest])
    if job == "bench":
        setup("dev,bench")
        return run([PY, "-m", "experiments.bench_speed", *rest])
    if job == "docs":
        return docs(rest)
    if job == "notebooks":
        setup("notebooks")
        return run([PY, "notebooks/run_notebooks.py", *rest])
    print(__doc__)
    return 0 if job in ("help", "-h", "--help") else 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
